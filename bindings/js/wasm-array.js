// Float32 arrays that live in WASM memory, so repeated calls copy nothing.
//
// WASM memory can grow during any posenc call that allocates, and growth detaches every
// existing view of it. A WasmArray therefore stores only its address and length; `view()`
// builds a fresh Float32Array over the current memory each time it is called. Keep a view
// only until the next posenc call.

export class WasmArray {
  #instance;
  #address;
  #length;
  #freed = false;

  /** @internal Use `posenc.allocate(...)`. */
  constructor(instance, address, length) {
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
    this.#assertLive('set');
    const target = this.view();
    target.set(values, offset);
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
      error.parameter = 'this';
      throw error;
    }
  }
}
