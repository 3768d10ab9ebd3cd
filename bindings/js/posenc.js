// The posenc instance: the validated JS API over one instantiated WASM module.
import { rangeError, throwStatus, typeError } from './errors.js';
import { readEnum, readFloatArray, readNumber, readOptions, readPositions, readSize } from './options.js';
import { WasmArray, checkNumbers, createWasmArray } from './wasm-array.js';

const HEAPS = { f32: Float32Array, f64: Float64Array, i32: Int32Array };

const TABLE_OPTIONS = ['seqLen', 'dModel', 'base', 'layout', 'offset', 'positions'];
const ROPE_OPTIONS = ['seqLen', 'numHeads', 'headDim', 'layout', 'rotaryDim', 'base', 'offset', 'positions', 'out'];

export class Posenc {
  #mod;
  #statusNames;

  /** @internal Use `loadPosenc()`. */
  constructor(mod, variant) {
    this.#mod = mod;
    this.variant = variant;
    this.simd = variant === 'simd';
    this.limits = Object.freeze({
      maxSeqLen: mod.maxSeqLen,
      maxDim: mod.maxDim,
      maxElements: mod.maxElements,
      maxPosition: mod.maxPosition,
    });
    this.#statusNames = {};
    for (const name of Object.keys(mod.Status)) {
      if (name !== 'values') this.#statusNames[mod.Status[name].value] = name;
    }
    Object.freeze(this);
  }

  /** Current size of this instance's WASM memory in bytes. */
  get memoryBytes() {
    return this.#mod.HEAPU8.length;
  }

  // ---- arrays kept in WASM memory ---------------------------------------------------

  /** A float32 array in WASM memory: `allocate(length)` (zeros) or `allocate(values)` (a copy). */
  allocate(lengthOrValues) {
    const fn = 'allocate';
    let length;
    let values = null;
    if (typeof lengthOrValues === 'number') {
      length = readSize(fn, 'length', lengthOrValues);
      if (length > this.limits.maxElements) throw rangeError(fn, 'length', `must be at most ${this.limits.maxElements} (got ${length})`);
    } else {
      checkNumbers(fn, 'lengthOrValues', lengthOrValues);
      values = lengthOrValues;
      length = values.length;
      if (length > this.limits.maxElements) throw rangeError(fn, 'lengthOrValues', `must hold at most ${this.limits.maxElements} values (got ${length})`);
    }
    const address = this.#malloc(fn, Math.max(length, 1) * 4);
    const array = createWasmArray(this, address, length);
    const view = array.view();
    if (values) view.set(values);
    else view.fill(0);
    return array;
  }

  /** @internal */ _heapF32(address, length) {
    return new Float32Array(this.#mod.HEAPU8.buffer, address, length);
  }

  /** @internal */ _free(address) {
    this.#mod._free(address);
  }

  // ---- sinusoidal tables --------------------------------------------------------------

  /** The [seqLen, dModel] sinusoidal table (new array, or written into `out`). */
  sinusoidal(options) {
    const fn = 'sinusoidal';
    const o = readOptions(fn, options, [...TABLE_OPTIONS, 'out']);
    const { spec, offset, positions } = this.#tableSpec(fn, o);
    const length = spec.seqLen * spec.dModel;
    const out = o.out === undefined ? new Float32Array(length) : readFloatArray(fn, 'out', o.out, length, this);
    this.#run(fn, [
      { value: positions, kind: 'i32', length: spec.seqLen, read: true },
      { value: out, kind: 'f32', length, write: true },
    ], (p, outAt) => this.#mod.sinusoidalTable(spec, offset, p, outAt));
    return out;
  }

  /** Adds the sinusoidal table to token embeddings `x` ([seqLen, dModel]) in place; returns x. */
  addSinusoidal(x, options) {
    const fn = 'addSinusoidal';
    const o = readOptions(fn, options, TABLE_OPTIONS);
    const { spec, offset, positions } = this.#tableSpec(fn, o);
    const length = spec.seqLen * spec.dModel;
    readFloatArray(fn, 'x', x, length, this);
    this.#run(fn, [
      { value: positions, kind: 'i32', length: spec.seqLen, read: true },
      { value: x, kind: 'f32', length, read: true, write: true },
    ], (p, xAt) => this.#mod.addSinusoidal(spec, offset, p, xAt));
    return x;
  }

  /** The naive encoding: row p of the [seqLen, dModel] table is filled with offset + p. */
  positionNumbers(options) {
    const fn = 'positionNumbers';
    const o = readOptions(fn, options, ['seqLen', 'dModel', 'offset', 'out']);
    const spec = {
      seqLen: readSize(fn, 'seqLen', o.seqLen),
      dModel: readSize(fn, 'dModel', o.dModel),
      offset: readSize(fn, 'offset', o.offset, 0),
    };
    this.#check(fn, this.#mod.checkPositionNumbers(spec), o);
    const length = spec.seqLen * spec.dModel;
    const out = o.out === undefined ? new Float32Array(length) : readFloatArray(fn, 'out', o.out, length, this);
    this.#run(fn, [{ value: out, kind: 'f32', length, write: true }],
      (outAt) => this.#mod.positionNumbers(spec, outAt));
    return out;
  }

  // ---- rotary embeddings ----------------------------------------------------------------

  /** The rotaryDim/2 inverse frequencies 1 / base^(2i / rotaryDim), float64. */
  ropeFrequencies(options) {
    const fn = 'ropeFrequencies';
    const o = readOptions(fn, options, ['rotaryDim', 'base']);
    const rotaryDim = readSize(fn, 'rotaryDim', o.rotaryDim);
    const base = readNumber(fn, 'base', o.base, 10000);
    this.#check(fn, this.#mod.checkRopeFrequencies(rotaryDim, base), o);
    const out = new Float64Array(rotaryDim / 2);
    this.#run(fn, [{ value: out, kind: 'f64', length: out.length, write: true }],
      (outAt) => this.#mod.ropeFrequencies(rotaryDim, base, outAt));
    return out;
  }

  /** cos and sin tables, each [seqLen, rotaryDim/2] (the layout ONNX RotaryEmbedding takes). */
  ropeCache(options) {
    const fn = 'ropeCache';
    const o = readOptions(fn, options, ['seqLen', 'rotaryDim', 'base', 'offset', 'positions', 'out']);
    const spec = {
      seqLen: readSize(fn, 'seqLen', o.seqLen),
      rotaryDim: readSize(fn, 'rotaryDim', o.rotaryDim),
      base: readNumber(fn, 'base', o.base, 10000),
    };
    const { offset, positions } = this.#positions(fn, o, spec.seqLen);
    this.#check(fn, this.#mod.checkRopeCache(spec, offset), o);
    const length = spec.seqLen * (spec.rotaryDim / 2);
    let cos;
    let sin;
    if (o.out === undefined) {
      cos = new Float32Array(length);
      sin = new Float32Array(length);
    } else {
      if (o.out === null || typeof o.out !== 'object') throw typeError(fn, 'out', 'must be an object { cos, sin }');
      cos = readFloatArray(fn, 'out.cos', o.out.cos, length, this);
      sin = readFloatArray(fn, 'out.sin', o.out.sin, length, this);
      this.#assertNoPartialOverlap(fn, cos, sin, { inPlace: false, name: 'out.sin' });
    }
    this.#run(fn, [
      { value: positions, kind: 'i32', length: spec.seqLen, read: true },
      { value: cos, kind: 'f32', length, write: true },
      { value: sin, kind: 'f32', length, write: true },
    ], (p, cosAt, sinAt) => this.#mod.ropeCache(spec, offset, p, cosAt, sinAt));
    return { cos, sin };
  }

  /** Rotates x ([seqLen, numHeads, headDim]) in place, or into `out`; returns the result. */
  rope(x, options) {
    const fn = 'rope';
    const o = readOptions(fn, options, ROPE_OPTIONS);
    const headDim = readSize(fn, 'headDim', o.headDim);
    const spec = {
      seqLen: readSize(fn, 'seqLen', o.seqLen),
      numHeads: readSize(fn, 'numHeads', o.numHeads, 1),
      headDim,
      rotaryDim: readSize(fn, 'rotaryDim', o.rotaryDim, headDim),
      base: readNumber(fn, 'base', o.base, 10000),
      layout: readEnum(fn, 'layout', o.layout, 'interleaved', this.#mod.RopeLayout),
    };
    const { offset, positions } = this.#positions(fn, o, spec.seqLen);
    this.#check(fn, this.#mod.checkRope(spec, offset), { ...o, rotaryDim: spec.rotaryDim });
    const length = spec.seqLen * spec.numHeads * spec.headDim;
    readFloatArray(fn, 'x', x, length, this);
    const out = o.out === undefined ? x : readFloatArray(fn, 'out', o.out, length, this);
    this.#assertNoPartialOverlap(fn, x, out);
    this.#run(fn, [
      { value: positions, kind: 'i32', length: spec.seqLen, read: true },
      { value: x, kind: 'f32', length, read: true },
      { value: out, kind: 'f32', length, write: true },
    ], (p, xAt, outAt) => this.#mod.rope(spec, offset, p, xAt, outAt));
    return out;
  }

  // ---- similarity -------------------------------------------------------------------------

  /** The [rows, cols] matrix of dot products (or cosines) of the rows of a and b. */
  similarity(a, b, options) {
    const fn = 'similarity';
    const o = readOptions(fn, options, ['rows', 'cols', 'dim', 'metric', 'out']);
    const spec = {
      rows: readSize(fn, 'rows', o.rows),
      cols: readSize(fn, 'cols', o.cols),
      dim: readSize(fn, 'dim', o.dim),
      metric: readEnum(fn, 'metric', o.metric, 'dot', this.#mod.Metric),
    };
    this.#check(fn, this.#mod.checkSimilarity(spec), o);
    readFloatArray(fn, 'a', a, spec.rows * spec.dim, this);
    readFloatArray(fn, 'b', b, spec.cols * spec.dim, this);
    const length = spec.rows * spec.cols;
    const out = o.out === undefined ? new Float32Array(length) : readFloatArray(fn, 'out', o.out, length, this);
    this.#assertNoPartialOverlap(fn, a, out, { inPlace: false });
    this.#assertNoPartialOverlap(fn, b, out, { inPlace: false });
    this.#run(fn, [
      { value: a, kind: 'f32', length: spec.rows * spec.dim, read: true },
      { value: b, kind: 'f32', length: spec.cols * spec.dim, read: true },
      { value: out, kind: 'f32', length, write: true },
    ], (aAt, bAt, outAt) => this.#mod.similarity(spec, aAt, bAt, outAt));
    return out;
  }

  // ---- plumbing -----------------------------------------------------------------------------

  #tableSpec(fn, o) {
    const spec = {
      seqLen: readSize(fn, 'seqLen', o.seqLen),
      dModel: readSize(fn, 'dModel', o.dModel),
      base: readNumber(fn, 'base', o.base, 10000),
      layout: readEnum(fn, 'layout', o.layout, 'interleaved', this.#mod.SinusoidalLayout),
    };
    const { offset, positions } = this.#positions(fn, o, spec.seqLen);
    this.#check(fn, this.#mod.checkSinusoidal(spec, offset), o);
    return { spec, offset, positions };
  }

  /** `offset` (default 0) or explicit `positions`, never both. */
  #positions(fn, o, seqLen) {
    if (o.positions === undefined) return { offset: readSize(fn, 'offset', o.offset, 0), positions: null };
    if (o.offset !== undefined) throw typeError(fn, 'offset', 'cannot be combined with positions (give one of them)');
    return { offset: 0, positions: readPositions(fn, o.positions, seqLen, this.limits.maxPosition) };
  }

  #check(fn, status, values) {
    if (status !== 0) throwStatus(status, this.#statusNames, this.limits, fn, values);
  }

  #malloc(fn, bytes) {
    const address = this.#mod._malloc(bytes);
    if (!address) throw rangeError(fn, 'memory', `cannot grow WASM memory by ${bytes} bytes (limit ${this.#mod.HEAPU8.length} in use)`);
    return address;
  }

  // Runs `call` with every array at an address in WASM memory (the malloc / set / finally-free
  // pattern): WasmArrays and Float32Arrays that are views of this instance's memory are used
  // where they are; other JS arrays get scratch memory, copied in when read and back out when
  // written. Addresses of arrays already in WASM memory are taken before any allocation, since
  // an allocation can grow the memory and detach every view made earlier.
  #run(fn, arrays, call) {
    const addresses = arrays.map((a) => (a.value === null ? 0 : this.#addressInMemory(a.value)));
    const scratch = [];
    try {
      arrays.forEach((a, i) => {
        if (addresses[i] !== undefined) return;
        const same = scratch.find((s) => s.value === a.value);  // one JS array used twice (in place)
        if (same) {
          same.read ||= Boolean(a.read);
          same.write ||= Boolean(a.write);
          addresses[i] = same.address;
          return;
        }
        const entry = { ...a, address: 0 };
        if (a.length > 0) entry.address = this.#malloc(fn, a.length * HEAPS[a.kind].BYTES_PER_ELEMENT);
        scratch.push(entry);
        addresses[i] = entry.address;
      });
      for (const s of scratch) if (s.read && s.length > 0) this.#view(s).set(s.value);
      const status = call(...addresses);
      this.#check(fn, status, {});
      for (const s of scratch) if (s.write && s.length > 0) s.value.set(this.#view(s));
    } finally {
      for (const s of scratch) if (s.address) this.#mod._free(s.address);
    }
  }

  /** The address of an array that already lives in this instance's memory, else undefined. */
  #addressInMemory(value) {
    if (value instanceof WasmArray) return value.address;
    if (ArrayBuffer.isView(value) && value.buffer === this.#mod.HEAPU8.buffer) return value.byteOffset;
    return undefined;
  }

  #view({ kind, address, length }) {
    return new HEAPS[kind](this.#mod.HEAPU8.buffer, address, length);
  }

  /** [start, end) bytes of an array in WASM memory, or null for JS-owned arrays. */
  #range(value) {
    const start = this.#addressInMemory(value);
    return start === undefined ? null : [start, start + value.length * 4];
  }

  // `out` may be the input itself (in place, where `inPlace` allows it) or disjoint from it;
  // arrays in WASM memory that partly overlap would be read after being written. (JS-owned
  // arrays are copied to scratch memory first, so their overlap is harmless.)
  #assertNoPartialOverlap(fn, input, out, { inPlace = true, name = 'out' } = {}) {
    const a = this.#range(input);
    const b = this.#range(out);
    const same = input === out || (a && b && a[0] === b[0] && a[1] === b[1]);
    if (same) {
      if (!inPlace) throw rangeError(fn, name, 'must be a different array from the inputs');
      return;
    }
    if (a && b && a[0] < b[1] && b[0] < a[1]) throw rangeError(fn, name, 'must not overlap an input array');
  }
}

