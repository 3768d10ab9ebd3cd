// Float32 arrays that live in WASM memory, so repeated calls copy nothing.
//
// WASM memory can grow during any posenc call that allocates, and growth detaches every
// existing view of it. A WasmArray therefore stores only its address and length; `view()`
// builds a fresh Float32Array over the current memory each time it is called. Keep a view
// only until the next posenc call.
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
  const array = new WasmArray(CREATE, instance, memory, memory.malloc(fn, Math.max(length, 1) * 4), length);
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

export class WasmArray {
  #state; // { instance, memory, address, length, freed }

  static {
    wasmArrayState = (value) =>
      value !== null && typeof value === 'object' && #state in value ? value.#state : undefined;
  }

  /** @internal Use `posenc.allocate(...)`. */
  constructor(token, instance, memory, address, length) {
    if (token !== CREATE) throw new TypeError('posenc: WasmArrays are made by posenc.allocate()');
    this.#state = { instance, memory, address, length, freed: false };
    memory.track(address, Math.max(length, 1) * 4);
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

  /** True once free() was called. */
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
    return new Float32Array(this.view());
  }

  /** Returns the memory to the instance. Using the array afterwards throws. */
  free() {
    const state = this.#state;
    if (state.freed) return;
    state.freed = true;
    state.memory.untrack(state.address);
    state.memory.free(state.address);
  }

  #assertLive(method) {
    if (this.#state.freed) throw freedError(`WasmArray.${method}`, 'array');
  }
}
