// Float32 arrays that live in WASM memory, so repeated calls copy nothing.
//
// WASM memory can grow during any posenc call that allocates, and growth detaches every
// existing view of it. A WasmArray therefore stores only its address and length; `view()`
// builds a fresh Float32Array over the current memory each time it is called. Keep a view
// only until the next posenc call.
//
// subarray() makes a window: a WasmArray over part of the same allocation (one row of a KV
// cache, rotated in place). A window shares its array's Allocation, so freeing the array frees
// every window of it at once, whatever is allocated at that address later; a window's own
// free() only retires the window (the memory is its array's).
import { describe, freedError, rangeError, readError, typeError } from './errors.js';
import { copyInto, isArray, isDetached, typedArrayKind, typedArrayParts } from './intrinsics.js';
import { readSize } from './snapshot.js';

// Only posenc.allocate() may create WasmArrays: an address and length made up by a caller
// could reach past the allocation and corrupt the allocator's own data.
const CREATE = Symbol('posenc.WasmArray');

/** The state of a WasmArray (undefined for anything else), read without running user code. */
export let wasmArrayState;

/** Views made by view(), and their arrays: a view kept after free() is refused (memory.js). */
export const viewOwners = new WeakMap();

/** posenc.allocate(length) (zeros) or allocate(values) (a copy): a new WasmArray of `instance`. */
export function allocateArray(instance, memory, lengthOrValues) {
  const fn = 'allocate';
  const { maxElements } = instance.limits;
  let values = null;
  let length;
  if (typeof lengthOrValues === 'number') {
    length = readSize(fn, 'length', lengthOrValues);
    if (length > maxElements) throw rangeError(fn, 'length', `must be at most ${maxElements} (got ${length})`);
  } else {
    if (lengthOrValues === null || typeof lengthOrValues !== 'object') {
      throw typeError(
        fn,
        'lengthOrValues',
        `must be a length, a Float32Array or an Array of numbers (got ${describe(lengthOrValues)})`,
      );
    }
    values = snapshotValues(fn, 'lengthOrValues', lengthOrValues, memory);
    length = values.length;
    if (length > maxElements)
      throw rangeError(fn, 'lengthOrValues', `must hold at most ${maxElements} values (got ${length})`);
  }
  const bytes = Math.max(length, 1) * 4;
  const allocation = new Allocation(memory.malloc(fn, bytes));
  memory.track(allocation.address, bytes);
  const array = new WasmArray(CREATE, new ArrayState(instance, memory, allocation, allocation.address, length, false));
  const view = array.view();
  if (values) copyInto(view, values);
  else view.fill(0);
  return array;
}

/**
 * Values for allocate()/set(): a Float32Array, or an Array of numbers, each element read once.
 * A Float32Array over this instance's own memory is copied first: the allocation that follows
 * may grow the memory and detach it.
 */
function snapshotValues(fn, name, values, memory) {
  if (typedArrayKind(values) === 'Float32Array') {
    if (isDetached(values)) throw rangeError(fn, name, 'is backed by a detached ArrayBuffer');
    return typedArrayParts(values).buffer === memory.buffer ? new Float32Array(values) : values;
  }
  let array = false;
  try {
    array = isArray(values);
  } catch (error) {
    throw readError(fn, name, error);
  }
  if (!array) throw typeError(fn, name, `must be a Float32Array or an Array of numbers (got ${describe(values)})`);
  const read = (key, at) => {
    try {
      return values[key];
    } catch (error) {
      throw readError(fn, at, error);
    }
  };
  const length = read('length', name);
  const copy = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    const v = read(i, `${name}[${i}]`);
    if (typeof v !== 'number') throw typeError(fn, `${name}[${i}]`, `must be a number (got ${describe(v)})`);
    copy[i] = v;
  }
  return copy;
}

/** One block of WASM memory from allocate(), shared by the array and its windows. */
class Allocation {
  address;
  freed = false;

  constructor(address) {
    this.address = address;
  }
}

/**
 * What a WasmArray is: `length` elements from byte `address` inside `allocation` (all of it,
 * or a window's part). Fields are declared, so nothing inherited can stand in for one.
 */
class ArrayState {
  instance;
  memory;
  allocation;
  address;
  length;
  window; // made by subarray()
  retired = false; // a window's own free()

  constructor(instance, memory, allocation, address, length, window) {
    this.instance = instance;
    this.memory = memory;
    this.allocation = allocation;
    this.address = address;
    this.length = length;
    this.window = window;
  }

  /** Whether the array can no longer be used: its allocation freed, or (a window) retired. */
  get freed() {
    return this.allocation.freed || this.retired;
  }

  /** What is gone, for its own methods' errors: "the <gone> was already freed". */
  get gone() {
    if (!this.window) return 'array';
    return this.allocation.freed ? 'WasmArray of this window (subarray)' : 'window (subarray)';
  }

  /** The rule it breaks as an argument: "x <rule>". */
  get freedRule() {
    if (!this.window) return 'is a WasmArray that was already freed';
    return this.allocation.freed
      ? 'is a window (subarray) of a WasmArray that was already freed'
      : 'is a window (subarray) that was already freed';
  }
}

/**
 * An index of subarray(): an integer, counted from the end when negative, in [0, length] once
 * resolved. Strict where TypedArray.prototype.subarray converts and clamps: a number only (no
 * valueOf runs), no fractions or NaN, nothing out of range.
 */
function readIndex(fn, name, value, length) {
  if (typeof value !== 'number') throw typeError(fn, name, `must be a number (got ${describe(value)})`);
  const index = (value < 0 ? length + value : value) + 0; // + 0: -0 is 0
  if (!Number.isInteger(value) || index < 0 || index > length) {
    throw rangeError(fn, name, `must be an integer in [-${length}, ${length}] (got ${describe(value)})`);
  }
  return index;
}

export class WasmArray {
  #state; // an ArrayState

  static {
    wasmArrayState = (value) =>
      value !== null && typeof value === 'object' && #state in value ? value.#state : undefined;
  }

  /** @internal Use `posenc.allocate(...)`, or `subarray()` for a window. */
  constructor(token, state) {
    if (token !== CREATE) throw new TypeError('posenc: WasmArrays are made by posenc.allocate()');
    this.#state = state;
  }

  /** The posenc instance whose memory holds the array. */
  get instance() {
    return this.#state.instance;
  }

  /** Number of float32 elements. */
  get length() {
    return this.#state.length;
  }

  /** Byte address in WASM memory. */
  get address() {
    return this.#state.address;
  }

  /** True once free() was called (on a window: its own, or its array's). */
  get freed() {
    return this.#state.freed;
  }

  /** A Float32Array over the current WASM memory: valid until the next posenc call. */
  view() {
    this.#assertLive('view');
    const { memory, address, length } = this.#state;
    const view = new Float32Array(memory.buffer, address, length);
    viewOwners.set(view, this);
    return view;
  }

  /** Copies `values` in, starting at element `offset`. */
  set(values, offset = 0) {
    const fn = 'WasmArray.set';
    this.#assertLive('set');
    const copy = snapshotValues(fn, 'values', values, this.#state.memory);
    if (typeof offset !== 'number') throw typeError(fn, 'offset', `must be a number (got ${describe(offset)})`);
    this.#assertLive('set'); // reading the values may have run code that freed this array
    const { length } = this.#state;
    if (!Number.isInteger(offset) || offset < 0 || offset > length) {
      throw rangeError(fn, 'offset', `must be an integer in [0, ${length}] (got ${describe(offset)})`);
    }
    if (offset + copy.length > length) {
      throw rangeError(
        fn,
        'values',
        `do not fit: ${copy.length} values from offset ${offset} exceed the length ${length}`,
      );
    }
    copyInto(this.view(), copy, offset);
    return this;
  }

  /** A copy as a plain Float32Array that survives memory growth and free(). */
  toArray() {
    this.#assertLive('toArray');
    return new Float32Array(this.view());
  }

  /**
   * A window onto elements [begin, end) of this array: a WasmArray over the same memory (no
   * copy), valid until this array is freed. begin and end as TypedArray.prototype.subarray
   * takes them (negative: from the end; end defaults to the length), but strictly: integers
   * within [-length, length] and end >= begin, else a RangeError.
   */
  subarray(begin = 0, end = undefined) {
    const fn = 'WasmArray.subarray';
    this.#assertLive('subarray');
    const state = this.#state;
    const from = readIndex(fn, 'begin', begin, state.length);
    const to = end === undefined ? state.length : readIndex(fn, 'end', end, state.length);
    if (to < from) throw rangeError(fn, 'end', `must not come before begin (${from}) (got ${describe(end)})`);
    const { instance, memory, allocation, address } = state;
    return new WasmArray(CREATE, new ArrayState(instance, memory, allocation, address + from * 4, to - from, true));
  }

  /**
   * Returns the memory to the instance; using the array, or any window of it, afterwards throws.
   * A window's free() only retires the window: its array and the array's other windows stay.
   * A second free() does nothing.
   */
  free() {
    const state = this.#state;
    if (state.window) {
      state.retired = true;
      return;
    }
    const { allocation, memory } = state;
    if (allocation.freed) return;
    allocation.freed = true;
    memory.untrack(allocation.address);
    memory.free(allocation.address);
  }

  #assertLive(method) {
    const state = this.#state;
    if (state.freed) throw freedError(`WasmArray.${method}`, state.gone);
  }
}
