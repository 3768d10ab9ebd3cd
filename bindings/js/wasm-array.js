// Float32 arrays that live in WASM memory, so repeated calls copy nothing.
//
// WASM memory can grow during any posenc call that allocates, and growth detaches every
// existing view of it. A WasmArray therefore stores only its address and length; `view()`
// builds a fresh Float32Array over the current memory each time it is called. Keep a view
// only until the next posenc call.
import { describe, rangeError, typeError } from './errors.js';

// Only posenc.allocate() may create WasmArrays: an address and length made up by a caller
// could reach past the allocation and corrupt the allocator's own data.
const CREATE = Symbol('posenc.WasmArray');

/** @internal Used by Posenc.allocate. */
export function createWasmArray(instance, address, length) {
  return new WasmArray(CREATE, instance, address, length);
}

/** Numbers only: a string or an object would silently become NaN in a Float32Array. */
export function checkNumbers(fn, name, values) {
  if (values instanceof Float32Array) return;
  if (!Array.isArray(values)) {
    throw typeError(fn, name, `must be a Float32Array or an Array of numbers (got ${describe(values)})`);
  }
  for (let i = 0; i < values.length; i++) {
    if (typeof values[i] !== 'number') throw typeError(fn, `${name}[${i}]`, `must be a number (got ${describe(values[i])})`);
  }
}

export class WasmArray {
  #instance;
  #address;
  #length;
  #freed = false;

  /** @internal Use `posenc.allocate(...)`. */
  constructor(token, instance, address, length) {
    if (token !== CREATE) throw new TypeError('posenc: WasmArrays are made by posenc.allocate()');
    this.#instance = instance;
    this.#address = address;
    this.#length = length;
  }

  /** The posenc instance whose memory holds the array. */
  get instance() { return this.#instance; }

  /** Number of float32 elements. */
  get length() { return this.#length; }

  /** Byte address in WASM memory. */
  get address() { return this.#address; }

  /** True once free() was called. */
  get freed() { return this.#freed; }

  /** A Float32Array over the current WASM memory: valid until the next posenc call. */
  view() {
    this.#assertLive('view');
    return this.#instance._heapF32(this.#address, this.#length);
  }

  /** Copies `values` in, starting at element `offset`. */
  set(values, offset = 0) {
    const fn = 'WasmArray.set';
    this.#assertLive('set');
    checkNumbers(fn, 'values', values);
    if (typeof offset !== 'number') throw typeError(fn, 'offset', `must be a number (got ${describe(offset)})`);
    if (!Number.isInteger(offset) || offset < 0 || offset > this.#length) {
      throw rangeError(fn, 'offset', `must be an integer in [0, ${this.#length}] (got ${describe(offset)})`);
    }
    if (offset + values.length > this.#length) {
      throw rangeError(fn, 'values', `do not fit: ${values.length} values from offset ${offset} exceed the length ${this.#length}`);
    }
    this.view().set(values, offset);
    return this;
  }

  /** A copy as a plain Float32Array that survives memory growth and free(). */
  toArray() {
    return this.view().slice();
  }

  /** Returns the memory to the instance. Using the array afterwards throws. */
  free() {
    if (this.#freed) return;
    this.#instance._free(this.#address);
    this.#freed = true;
  }

  #assertLive(method) {
    if (this.freed) {
      const error = new RangeError(`posenc.WasmArray.${method}: the array was already freed`);
      error.function = `WasmArray.${method}`;
      error.parameter = 'this';
      throw error;
    }
  }
}
