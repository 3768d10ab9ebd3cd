// The posenc instance: the validated JS API over one instantiated WASM module.
import { describe, rangeError, throwStatus, typeError } from './errors.js';
import {
  isIntegerList, readBoolean, readEnum, readFloatArray, readNumber, readOptions, readPositions, readScaling, readSize,
} from './options.js';
import { WasmArray, checkNumbers, createWasmArray } from './wasm-array.js';

const HEAPS = { f32: Float32Array, f64: Float64Array, i32: Int32Array };

// Floats per block when JS-owned rope inputs are streamed through WASM memory (256 KiB: well
// inside L2 together with its copy).
const ROPE_BLOCK_FLOATS = 65536;

const TABLE_OPTIONS = ['seqLen', 'dModel', 'base', 'layout', 'offset', 'positions'];
const SCHEDULE_OPTIONS = ['rotaryDim', 'headDim', 'partialRotaryFactor', 'base', 'scaling', 'seqLen'];
const ROPE_OPTIONS = [
  'seqLen', 'numHeads', 'headDim', 'layout', 'rotaryDim', 'partialRotaryFactor', 'base', 'scaling', 'batch', 'order',
  'inverse', 'offset', 'positions', 'out',
];

/** The core's RopeScaling with the addresses of the longrope lists filled in. */
function withLists(scaling, shortFactor, longFactor) {
  scaling.shortFactor = shortFactor;
  scaling.longFactor = longFactor;
  return scaling;
}

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

  /**
   * The frequency schedule: `{ invFreq, attentionFactor, rotaryDim }`, inverse frequencies in
   * float64 (scaled as `scaling` says, at the current sequence length `seqLen`).
   */
  ropeSchedule(options) {
    const fn = 'ropeSchedule';
    return this.#schedule(fn, readOptions(fn, options, SCHEDULE_OPTIONS));
  }

  /** The rotaryDim/2 inverse frequencies 1 / base^(2i / rotaryDim) (or scaled ones), float64. */
  ropeFrequencies(options) {
    const fn = 'ropeFrequencies';
    return this.#schedule(fn, readOptions(fn, options, SCHEDULE_OPTIONS)).invFreq;
  }

  /** cos and sin tables, each [batch, seqLen, rotaryDim/2] (the layout ONNX RotaryEmbedding takes). */
  ropeCache(options) {
    const fn = 'ropeCache';
    const o = readOptions(fn, options, ['seqLen', 'rotaryDim', 'base', 'scaling', 'batch', 'offset', 'positions', 'out']);
    const scaling = readScaling(fn, o.scaling, this.#mod.RopeScalingType);
    const spec = {
      seqLen: readSize(fn, 'seqLen', o.seqLen),
      rotaryDim: readSize(fn, 'rotaryDim', o.rotaryDim),
      base: readNumber(fn, 'base', o.base, 10000),
      batch: readSize(fn, 'batch', o.batch, 1),
    };
    const where = this.#batchPositions(fn, o, spec.seqLen, spec.batch);
    const values = { ...o, ...scaling.values };
    this.#check(fn, this.#scaled('checkRopeCache', scaling.spec, spec, where.offset), values);
    const length = spec.batch * spec.seqLen * (spec.rotaryDim / 2);
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
    // Without scaling the factor is 1: no scratch memory for it.
    const attention = scaling.type === 'default' ? null : new Float64Array(1);
    this.#run(fn, [
      ...this.#positionArrays(where, spec),
      ...this.#scalingArrays(scaling),
      { value: cos, kind: 'f32', length, write: true },
      { value: sin, kind: 'f32', length, write: true },
      { value: attention, kind: 'f64', length: 1, write: true },
    ], (p, offsets, shortAt, longAt, cosAt, sinAt, attentionAt) => this.#scaled(
      'ropeCache', withLists(scaling.spec, shortAt, longAt), spec, where.offset, p, offsets, cosAt, sinAt, attentionAt,
    ), values);
    return { cos, sin, attentionFactor: attention === null ? 1 : attention[0] };
  }

  /**
   * Rotates x ([batch, seqLen, numHeads, headDim], or [batch, numHeads, seqLen, headDim] with
   * order 'heads') in place, or into `out`; returns the result.
   */
  rope(x, options) {
    const fn = 'rope';
    const o = readOptions(fn, options, ROPE_OPTIONS);
    const r = this.#ropeSpec(fn, o);
    this.#check(fn, this.#scaled('checkRope', r.scaling.spec, r.spec, r.where.offset), r.values);
    const length = r.spec.batch * r.spec.seqLen * r.spec.numHeads * r.spec.headDim;
    readFloatArray(fn, 'x', x, length, this);
    const out = o.out === undefined ? x : readFloatArray(fn, 'out', o.out, length, this);
    this.#assertNoPartialOverlap(fn, x, out);
    if (this.#ropeJsArraysInBlocks(fn, x, out, r)) return out;
    this.#run(fn, [
      ...this.#positionArrays(r.where, r.spec),
      ...this.#scalingArrays(r.scaling),
      { value: x, kind: 'f32', length, read: true },
      { value: out, kind: 'f32', length, write: true },
    ], (p, offsets, shortAt, longAt, xAt, outAt) => this.#scaled(
      'rope', withLists(r.scaling.spec, shortAt, longAt), r.spec, r.where.offset, p, offsets, xAt, outAt,
    ), r.values);
    return out;
  }

  // Large JS-owned arrays are copied into WASM memory and back a block of rows at a time:
  // each block stays in cache from its copy in through its rotation to its copy out, so the
  // data crosses main memory about once instead of three times, and the scratch stays small.
  // Only the common shape splits that simply: one sequence of rows at offset, offset + 1, ...
  // in token order, with a schedule that does not depend on the sequence length.
  #ropeJsArraysInBlocks(fn, x, out, { spec, where, scaling }) {
    const rowLength = spec.numHeads * spec.headDim;
    const rowsPerBlock = Math.max(1, Math.floor(ROPE_BLOCK_FLOATS / rowLength));
    const simple = spec.batch === 1 && spec.order === this.#mod.RopeOrder.tokens && where.positions === null &&
      where.offsets === null && scaling.spec.type === this.#mod.RopeScalingType.default;
    if (!simple || spec.seqLen <= rowsPerBlock) return false;
    if (this.#addressInMemory(x) !== undefined || this.#addressInMemory(out) !== undefined) return false;
    const address = this.#malloc(fn, rowsPerBlock * rowLength * 4);
    try {
      for (let row = 0; row < spec.seqLen; row += rowsPerBlock) {
        const rows = Math.min(rowsPerBlock, spec.seqLen - row);
        const start = row * rowLength;
        const block = new Float32Array(this.#mod.HEAPU8.buffer, address, rows * rowLength);
        block.set(x.subarray(start, start + block.length));
        this.#check(fn, this.#mod.rope({ ...spec, seqLen: rows }, where.offset + row, 0, 0, address, address), {});
        out.set(block, start);
      }
    } finally {
      this.#mod._free(address);
    }
    return true;
  }

  /**
   * Rotates queries q (numHeads heads) and keys k (numKvHeads heads, grouped-query attention)
   * of the same rows in one call: in place, or into `out: { q, k }`. Returns `{ q, k }`.
   */
  ropeQK(q, k, options) {
    const fn = 'ropeQK';
    const o = readOptions(fn, options, [...ROPE_OPTIONS, 'numKvHeads']);
    const r = this.#ropeSpec(fn, o);
    const numKvHeads = readSize(fn, 'numKvHeads', o.numKvHeads, r.spec.numHeads);
    this.#check(fn, this.#scaled('checkRopeQK', r.scaling.spec, r.spec, numKvHeads, r.where.offset), r.values);
    const vectors = r.spec.batch * r.spec.seqLen * r.spec.headDim;
    const qLength = vectors * r.spec.numHeads;
    const kLength = vectors * numKvHeads;
    readFloatArray(fn, 'q', q, qLength, this);
    readFloatArray(fn, 'k', k, kLength, this);
    let qOut = q;
    let kOut = k;
    if (o.out !== undefined) {
      if (o.out === null || typeof o.out !== 'object') throw typeError(fn, 'out', 'must be an object { q, k }');
      qOut = readFloatArray(fn, 'out.q', o.out.q, qLength, this);
      kOut = readFloatArray(fn, 'out.k', o.out.k, kLength, this);
    }
    this.#assertNoPartialOverlap(fn, q, qOut, { name: 'out.q' });
    this.#assertNoPartialOverlap(fn, k, kOut, { name: 'out.k' });
    // Queries and keys are rotated together: no array may share memory with the other tensor's.
    this.#assertDisjoint(fn, q, k, 'k');
    this.#assertDisjoint(fn, qOut, kOut, 'out.k');
    this.#assertDisjoint(fn, q, kOut, 'out.k');
    this.#assertDisjoint(fn, k, qOut, 'out.q');
    this.#run(fn, [
      ...this.#positionArrays(r.where, r.spec),
      ...this.#scalingArrays(r.scaling),
      { value: q, kind: 'f32', length: qLength, read: true },
      { value: qOut, kind: 'f32', length: qLength, write: true },
      { value: k, kind: 'f32', length: kLength, read: true },
      { value: kOut, kind: 'f32', length: kLength, write: true },
    ], (p, offsets, shortAt, longAt, qAt, qOutAt, kAt, kOutAt) => this.#scaled(
      'ropeQK', withLists(r.scaling.spec, shortAt, longAt), r.spec, numKvHeads, r.where.offset, p, offsets, qAt, qOutAt,
      kAt, kOutAt,
    ), r.values);
    return { q: qOut, k: kOut };
  }

  // ---- pairing conversion -----------------------------------------------------------------------

  /**
   * Activations (any [..., headDim] array of head vectors: queries, keys, a q/k bias) with their
   * rotary channels moved from one pairing to the other. A new array, or `out`.
   */
  convertPairing(x, options) {
    const fn = 'convertPairing';
    const o = readOptions(fn, options, ['from', 'to', 'headDim', 'rotaryDim', 'out']);
    const spec = this.#pairingSpec(fn, o, 0, 1);
    if (!(x instanceof Float32Array || x instanceof WasmArray)) {
      throw typeError(fn, 'x', `must be a Float32Array or a WasmArray (got ${describe(x)})`);
    }
    if (x.length % spec.headDim !== 0) {
      throw rangeError(fn, 'x', `must hold whole head vectors: a multiple of headDim = ${spec.headDim} elements (got ${x.length})`);
    }
    spec.heads = x.length / spec.headDim;
    return this.#convert(fn, x, o, spec);
  }

  /**
   * q/k projection weights [numHeads * headDim, hidden] with the rows of each head's rotary
   * channels moved from one pairing to the other (Hugging Face's permute for Meta's LLaMA
   * checkpoints, and its inverse). A new array, or `out`.
   */
  convertPairingWeights(w, options) {
    const fn = 'convertPairingWeights';
    const o = readOptions(fn, options, ['from', 'to', 'numHeads', 'headDim', 'hidden', 'rotaryDim', 'out']);
    const spec = this.#pairingSpec(fn, o, readSize(fn, 'numHeads', o.numHeads), readSize(fn, 'hidden', o.hidden));
    return this.#convert(fn, w, o, spec, 'w');
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

  /** The frequency schedule (ropeSchedule, ropeFrequencies). */
  #schedule(fn, o) {
    const headDim = o.headDim === undefined ? 0 : readSize(fn, 'headDim', o.headDim);
    const partial = this.#partialRotaryFactor(fn, o);
    let rotaryDim = 0;
    if (!partial.has) rotaryDim = readSize(fn, 'rotaryDim', o.rotaryDim, o.headDim === undefined ? undefined : headDim);
    const scaling = readScaling(fn, o.scaling, this.#mod.RopeScalingType);
    const spec = {
      rotaryDim,
      headDim,
      hasPartialRotaryFactor: partial.has,
      partialRotaryFactor: partial.value,
      base: readNumber(fn, 'base', o.base, 10000),
      scaling: scaling.spec,
      seqLen: readSize(fn, 'seqLen', o.seqLen, 0),
    };
    const values = { ...o, ...scaling.values };
    this.#check(fn, this.#mod.checkRopeSchedule(spec), values);
    const resolved = this.#mod.ropeScheduleRotaryDim(spec);
    const invFreq = new Float64Array(resolved / 2);
    const attention = new Float64Array(1);
    this.#run(fn, [
      ...this.#scalingArrays(scaling),
      { value: invFreq, kind: 'f64', length: invFreq.length, write: true },
      { value: attention, kind: 'f64', length: 1, write: true },
    ], (shortAt, longAt, invAt, attentionAt) => {
      withLists(scaling.spec, shortAt, longAt);
      return this.#mod.ropeSchedule(spec, invAt, attentionAt);
    }, values);
    return { invFreq, attentionFactor: attention[0], rotaryDim: resolved };
  }

  /**
   * Calls the core's entry point `name`, or, with scaling (the core's RopeScaling), its *Scaled
   * twin that takes it as second argument. Specs cross without their scaling when there is
   * none: converting it would cost more than a small call.
   */
  #scaled(name, scaling, spec, ...args) {
    if (scaling.type === this.#mod.RopeScalingType.default) return this.#mod[name](spec, ...args);
    return this.#mod[`${name}Scaled`](spec, scaling, ...args);
  }

  /** `partialRotaryFactor` (Hugging Face's): an alternative to rotaryDim, never both. */
  #partialRotaryFactor(fn, o) {
    if (o.partialRotaryFactor === undefined) return { has: false, value: 1 };
    if (o.rotaryDim !== undefined) throw typeError(fn, 'rotaryDim', 'cannot be combined with partialRotaryFactor (give one of them)');
    return { has: true, value: readNumber(fn, 'partialRotaryFactor', o.partialRotaryFactor) };
  }

  /** The core's RopeSpec of rope/ropeQK, where the rows sit, the scaling and the values for messages. */
  #ropeSpec(fn, o) {
    const headDim = readSize(fn, 'headDim', o.headDim);
    const partial = this.#partialRotaryFactor(fn, o);
    const scaling = readScaling(fn, o.scaling, this.#mod.RopeScalingType);
    const spec = {
      seqLen: readSize(fn, 'seqLen', o.seqLen),
      numHeads: readSize(fn, 'numHeads', o.numHeads, 1),
      headDim,
      rotaryDim: partial.has ? 0 : readSize(fn, 'rotaryDim', o.rotaryDim, headDim),
      base: readNumber(fn, 'base', o.base, 10000),
      layout: readEnum(fn, 'layout', o.layout, 'interleaved', this.#mod.RopeLayout),
      batch: readSize(fn, 'batch', o.batch, 1),
      order: readEnum(fn, 'order', o.order, 'tokens', this.#mod.RopeOrder),
      inverse: readBoolean(fn, 'inverse', o.inverse, false),
      hasPartialRotaryFactor: partial.has,
      partialRotaryFactor: partial.value,
    };
    const where = this.#batchPositions(fn, o, spec.seqLen, spec.batch);
    const values = { ...o, ...scaling.values };
    if (!partial.has) values.rotaryDim = spec.rotaryDim;
    return { spec, where, scaling, values };
  }

  /**
   * Where the rows of a batch sit: explicit `positions` (batch * seqLen), one `offset` per
   * sequence (a list of batch integers), or one offset for all (default 0).
   */
  #batchPositions(fn, o, seqLen, batch) {
    const maxPosition = this.limits.maxPosition;
    if (o.positions !== undefined) {
      if (o.offset !== undefined) throw typeError(fn, 'offset', 'cannot be combined with positions (give one of them)');
      const count = batch === 1 ? `seqLen = ${seqLen}` : `batch × seqLen = ${batch * seqLen}`;
      return { offset: 0, offsets: null, positions: readPositions(fn, o.positions, batch * seqLen, maxPosition, { count }) };
    }
    if (isIntegerList(o.offset)) {
      const offsets = readPositions(fn, o.offset, batch, maxPosition, { name: 'offset', count: `batch = ${batch}`, noun: 'offsets (one per sequence)' });
      return { offset: 0, offsets, positions: null };
    }
    return { offset: readSize(fn, 'offset', o.offset, 0), offsets: null, positions: null };
  }

  /** #run entries for the position lists (null when unused). */
  #positionArrays(where, { batch, seqLen }) {
    return [
      { value: where.positions, kind: 'i32', length: batch * seqLen, read: true },
      { value: where.offsets, kind: 'i32', length: batch, read: true },
    ];
  }

  /** #run entries for the longrope factor lists (null when unused). */
  #scalingArrays({ lists }) {
    const entry = (list) => ({
      value: list === null ? null : Float64Array.from(list), kind: 'f64', length: list?.length ?? 0, read: true,
    });
    return [entry(lists.shortFactor), entry(lists.longFactor)];
  }

  /** The core's PairingConversionSpec (heads and row length given), checked. */
  #pairingSpec(fn, o, heads, rowLength) {
    for (const name of ['from', 'to']) {
      if (o[name] === undefined) throw typeError(fn, name, "is required ('interleaved' or 'half')");
    }
    const headDim = readSize(fn, 'headDim', o.headDim);
    const spec = {
      heads,
      headDim,
      rotaryDim: readSize(fn, 'rotaryDim', o.rotaryDim, headDim),
      rowLength,
      from: readEnum(fn, 'from', o.from, undefined, this.#mod.RopeLayout),
      to: readEnum(fn, 'to', o.to, undefined, this.#mod.RopeLayout),
    };
    this.#check(fn, this.#mod.checkConvertPairing(spec), { ...o, rotaryDim: spec.rotaryDim });
    return spec;
  }

  /** Runs a pairing conversion of x ([heads, headDim, rowLength]) into a new array or o.out. */
  #convert(fn, x, o, spec, name = 'x') {
    this.#check(fn, this.#mod.checkConvertPairing(spec), o);
    const length = spec.heads * spec.headDim * spec.rowLength;
    readFloatArray(fn, name, x, length, this);
    const out = o.out === undefined ? new Float32Array(length) : readFloatArray(fn, 'out', o.out, length, this);
    this.#assertNoPartialOverlap(fn, x, out, { inPlace: false });
    this.#run(fn, [
      { value: x, kind: 'f32', length, read: true },
      { value: out, kind: 'f32', length, write: true },
    ], (xAt, outAt) => this.#mod.convertPairing(spec, xAt, outAt));
    return out;
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
  #run(fn, arrays, call, values = {}) {
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
      this.#check(fn, status, values);
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

  /** a and b must share no memory: the same array, overlapping WASM ranges or overlapping views of one JS buffer. */
  #assertDisjoint(fn, a, b, name) {
    const overlap = (x, y) => x[0] < y[1] && y[0] < x[1];
    const wasmA = this.#range(a);
    const wasmB = this.#range(b);
    const sameJsBuffer = ArrayBuffer.isView(a) && ArrayBuffer.isView(b) && a.buffer === b.buffer && !wasmA && !wasmB;
    if (a === b || (wasmA && wasmB && overlap(wasmA, wasmB))
        || (sameJsBuffer && overlap([a.byteOffset, a.byteOffset + a.byteLength], [b.byteOffset, b.byteOffset + b.byteLength]))) {
      throw rangeError(fn, name, 'must not share memory with the other tensor (queries and keys are rotated together)');
    }
  }
}
