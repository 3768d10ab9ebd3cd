// Arrays that live in WASM memory, so repeated calls copy nothing: float32, or half precision
// (float16, bfloat16; dtype.js) whose view() is a Float16Array or a Uint16Array of the bits.
//
// WASM memory can grow during any posenc call that allocates, and growth detaches every
// existing view of it. A WasmArray therefore stores only its address and length; `view()`
// builds a fresh Float32Array over the current memory each time it is called. Keep a view
// only until the next posenc call.
//
// subarray() makes a window: a WasmArray over part of the same allocation (one row of a KV
// cache, rotated in place). A window shares its array's Allocation, so freeing the array frees
// every window of it at once, whatever is allocated at that address later; a window's own
// free() only retires the window (the memory is its array's). An Allocation that becomes
// garbage unfreed (its array and every window of it dropped) is freed by the collector
// (lifetime.js).
import { arrayType, elementBytes, isTensorKind, kindDtype, storageType } from './dtype.js';
import { describe, dtypeConflictError, freedError, rangeError, readError, typeError } from './errors.js';
import { copyInto, isArray, isDetached, typedArrayKind, typedArrayParts } from './intrinsics.js';
import { Reclaimer, disposable } from './lifetime.js';
import { copyNumberArray, readSize } from './snapshot.js';

// Only posenc.allocate() may create WasmArrays: an address and length made up by a caller
// could reach past the allocation and corrupt the allocator's own data.
const CREATE = Symbol('posenc.WasmArray');

/** The state of a WasmArray (undefined for anything else), read without running user code. */
export let wasmArrayState;

/**
 * Views made by view() and by their subarray(), and their WasmArrays. Only these are used in
 * place (memory.js): a view's WasmArray can be freed and another allocated at the same address,
 * and only this record tells a view kept from the first one from a view of the second.
 */
export const viewOwners = new WeakMap();

const typedArraySubarray = Object.getPrototypeOf(Uint8Array.prototype).subarray;
const { defineProperty } = Object;

/** A view's subarray(): the built-in one, recorded with the view's WasmArray. */
function trackedSubarray(begin, end) {
  const part = Reflect.apply(typedArraySubarray, this, [begin, end]);
  const owner = viewOwners.get(this);
  if (owner !== undefined) trackView(part, owner);
  return part;
}

// A descriptor without a prototype: nothing on Object.prototype (pollution) can add a getter to it.
const SUBARRAY_PROPERTY = Object.freeze({
  __proto__: null,
  value: trackedSubarray,
  writable: true,
  configurable: true,
});

/**
 * Records `view` as a view of `owner` whose subarray() views are recorded too (an own method,
 * not enumerable: the view still prints and compares as the plain typed array it is).
 */
function trackView(view, owner) {
  viewOwners.set(view, owner);
  defineProperty(view, 'subarray', SUBARRAY_PROPERTY);
}

/** Frees the Block of an Allocation collected unfreed. */
const unfreed = new Reclaimer('WasmArray', (block) => block.free());

/**
 * posenc.allocate(length) (zeros) or allocate(values) (a copy): a new WasmArray of `instance`,
 * of `declared` (the dtype option, snapshotted), or the dtype the values say (float32 by default).
 */
export function allocateArray(instance, memory, lengthOrValues, declared) {
  const fn = 'allocate';
  const { maxElements } = instance.limits;
  let values = null;
  let length;
  let dtype = declared ?? 'float32';
  if (typeof lengthOrValues === 'number') {
    length = readSize(fn, 'length', lengthOrValues);
    if (length > maxElements) throw rangeError(fn, 'length', `must be at most ${maxElements} (got ${length})`);
  } else {
    if (lengthOrValues === null || typeof lengthOrValues !== 'object') {
      throw typeError(
        fn,
        'lengthOrValues',
        `must be a length, a Float32Array, a Float16Array, a Uint16Array (with dtype) or an Array of numbers (got ${describe(lengthOrValues)})`,
      );
    }
    ({ values, dtype } = snapshotValues(fn, 'lengthOrValues', lengthOrValues, maxElements, memory, declared, 'dtype'));
    length = values.length;
    if (length > maxElements)
      throw rangeError(fn, 'lengthOrValues', `must hold at most ${maxElements} values (got ${length})`);
  }
  const bytes = Math.max(length, 1) * elementBytes(dtype);
  const allocation = new Allocation(new Block(memory, memory.malloc(fn, bytes)));
  const state = new ArrayState(instance, memory, allocation, allocation.address, length, false, dtype);
  const bits = state.bits();
  if (values) copyInto(bits, values);
  else bits.fill(0);
  const array = new WasmArray(CREATE, state);
  unfreed.watch(allocation, allocation.block, instance.allocate);
  return array;
}

/**
 * Values for allocate()/set() of a WasmArray of dtype `declared` (allocate without a dtype:
 * undefined, the values say it; `declarer` names what declared it, for errors): `{ dtype,
 * values }`, values as storageType(dtype) (their bits). float32 takes a Float32Array or an
 * Array of at most `max` numbers, each element read once; the half types take a Uint16Array of their bits,
 * or a Float16Array (float16). A typed array over this instance's own memory is copied first:
 * the allocation that follows may grow the memory and detach it.
 */
function snapshotValues(fn, name, values, max, memory, declared, declarer) {
  const kind = typedArrayKind(values);
  if (isTensorKind(kind)) {
    const own = kindDtype(kind);
    const dtype = declared ?? own;
    if (own === undefined ? dtype === undefined || dtype === 'float32' : own !== dtype)
      throw dtypeConflictError(fn, { name, kind, dtype: own }, dtype, dtype === undefined ? undefined : declarer);
    if (isDetached(values)) throw rangeError(fn, name, 'is backed by a detached ArrayBuffer');
    const { length, buffer, byteOffset } = typedArrayParts(values);
    const Type = storageType(dtype);
    const bits = new Type(buffer, byteOffset, length);
    return { dtype, values: buffer === memory.buffer ? new Type(bits) : bits };
  }
  if (kind !== undefined || !isArrayOf(fn, name, values)) {
    throw typeError(
      fn,
      name,
      `must be a Float32Array, a Float16Array, a Uint16Array or an Array of numbers (got ${describe(values)})`,
    );
  }
  if (declared !== undefined && declared !== 'float32')
    throw dtypeConflictError(fn, { name, kind: 'Array', dtype: 'float32' }, declared, declarer);
  return { dtype: 'float32', values: copyNumberArray(fn, name, values, max, Float32Array) };
}

/** Array.isArray, with what a revoked Proxy throws as an error naming `name`. */
function isArrayOf(fn, name, values) {
  try {
    return isArray(values);
  } catch (error) {
    throw readError(fn, name, error);
  }
}

/** One block of WASM memory from allocate(), freed once: by free(), or when its Allocation is collected. */
class Block {
  memory;
  address;
  freed = false;

  constructor(memory, address) {
    this.memory = memory;
    this.address = address;
  }

  /** Returns the memory; whether it was still held. */
  free() {
    if (this.freed) return false;
    this.freed = true;
    this.memory.free(this.address);
    return true;
  }
}

/**
 * What the array and its windows share: once none of them is left, the collector frees its
 * block (which does not reference it back).
 */
class Allocation {
  block;

  constructor(block) {
    this.block = block;
  }

  get address() {
    return this.block.address;
  }

  get freed() {
    return this.block.freed;
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
  length; // in elements
  window; // made by subarray()
  dtype; // 'float32', 'float16' or 'bfloat16'
  retired = false; // a window's own free()

  constructor(instance, memory, allocation, address, length, window, dtype) {
    this.instance = instance;
    this.memory = memory;
    this.allocation = allocation;
    this.address = address;
    this.length = length;
    this.window = window;
    this.dtype = dtype;
  }

  /** Its elements' bits over the current memory: a Float32Array, or a Uint16Array (half types). */
  bits() {
    return new (storageType(this.dtype))(this.memory.buffer, this.address, this.length);
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
    return `is a ${this.freedWhat}`;
  }

  /** The rule a view from its view() breaks as an argument once it is freed. */
  get viewFreedRule() {
    return `is a view (from view()) of a ${this.freedWhat}: a view is valid only until its array is freed or memory grows`;
  }

  get freedWhat() {
    if (!this.window) return 'WasmArray that was already freed';
    return this.allocation.freed
      ? 'window (subarray) of a WasmArray that was already freed'
      : 'window (subarray) that was already freed';
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

  get instance() {
    return this.#state.instance;
  }

  get length() {
    return this.#state.length;
  }

  get dtype() {
    return this.#state.dtype;
  }

  get address() {
    return this.#state.address;
  }

  get freed() {
    return this.#state.freed;
  }

  view() {
    this.#assertLive('view');
    const { memory, address, length, dtype } = this.#state;
    const view = new (arrayType(dtype))(memory.buffer, address, length);
    trackView(view, this);
    return view;
  }

  set(values, offset = 0) {
    const fn = 'WasmArray.set';
    this.#assertLive('set');
    const { length: room, memory, dtype } = this.#state; // an Array longer than the array cannot fit
    const { values: copy } = snapshotValues(fn, 'values', values, room, memory, dtype, 'WasmArray');
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
    copyInto(this.#state.bits(), copy, offset);
    return this;
  }

  toArray() {
    this.#assertLive('toArray');
    const view = this.view();
    return new (arrayType(this.#state.dtype))(view); // same type: a copy of the bytes
  }

  subarray(begin = 0, end = undefined) {
    const fn = 'WasmArray.subarray';
    this.#assertLive('subarray');
    const state = this.#state;
    const from = readIndex(fn, 'begin', begin, state.length);
    const to = end === undefined ? state.length : readIndex(fn, 'end', end, state.length);
    if (to < from) throw rangeError(fn, 'end', `must not come before begin (${from}) (got ${describe(end)})`);
    const { instance, memory, allocation, address, dtype } = state;
    const start = address + from * elementBytes(dtype);
    return new WasmArray(CREATE, new ArrayState(instance, memory, allocation, start, to - from, true, dtype));
  }

  free() {
    const state = this.#state;
    if (state.window) {
      state.retired = true;
      return;
    }
    state.allocation.block.free();
  }

  #assertLive(method) {
    const state = this.#state;
    if (state.freed) throw freedError(`WasmArray.${method}`, state.gone);
  }
}
disposable(WasmArray); // `using a = posenc.allocate(…)` frees it at the end of the scope
