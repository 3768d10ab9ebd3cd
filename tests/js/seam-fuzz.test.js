// A fuzzer of the JS layer itself (the contract: docs/api.md, "How arguments are read"): random
// calls of every public operation, mostly with small valid random arguments, spiked with hostile
// ingredients -- getters and Proxy traps that free, grow, detach, shrink, throw or answer
// differently on each read, Object.prototype pollution, options inherited through
// Object.create, raw views of WASM memory, partly overlapping outputs, detached buffers, wrong
// types. Every call is checked by four oracles:
//   1. every getter and every Proxy trap (per key) runs at most once per call (and a plan's
//      option getters never run again once the plan is made);
//   2. the call either throws a TypeError/RangeError whose error.parameter is a non-empty string
//      named in a message starting "posenc.<function>: " -- the one a hostile ingredient calls
//      for (a freed array, a throwing getter, ...) or the one the same call with plain
//      arguments gives -- or it returns the bits (Object.is per element) of the same call made
//      just before on the same instance with a plain options object holding the values the
//      getters/traps returned and fresh copies of the input arrays;
//   3. no live WasmArray that is not one of the call's outputs changes (and nothing changes
//      when the call throws), nor does a JS input;
//   4. after each iteration, with every fuzzer-owned array and plan freed, malloc hands out the
//      blocks it handed out at the start (heap probe); the instance keeps computing correctly
//      (assertStillWorks every CHECK_EVERY iterations and at the end).
// Violations are collected (the run stops after MAX_FAILING_ITERATIONS failing iterations --
// POSENC_JS_FUZZ_MAX_FAILURES, default 20 -- or when the instance breaks) and reported with the
// iteration, its seed and its ingredients, the first of each oracle first.
//
// Environment: POSENC_JS_FUZZ_ITERATIONS (per build), POSENC_JS_FUZZ_SEED,
// POSENC_JS_FUZZ_ONLY=<iteration> to replay one iteration (each has its own seed derived from
// the seed and its number), POSENC_JS_FUZZ_OPS=<op>,<op> to fuzz only some operations, and
// POSENC_JS_FUZZ_DEBUG=1 to print the stack of anything thrown outside the fuzzed calls.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { WasmArray } from '../../bindings/js/node.js';
import { assertStillWorks, loadBothVariants, randomNormal, seededRandom } from './support.js';
import { detach, freshInstance, growMemory, heapProbe, revoked, withPollution } from './seam-support.js';

// 15,000 iterations (one call, or a plan and its uses, each) took 4-11 s per build on the shared
// 2-core test machine against an implementation of the contract.
const ITERATIONS = envInteger('POSENC_JS_FUZZ_ITERATIONS', 15000);
const SEED = envInteger('POSENC_JS_FUZZ_SEED', 9);
const ONLY = process.env.POSENC_JS_FUZZ_ONLY === undefined ? null : envInteger('POSENC_JS_FUZZ_ONLY', 0);
// A comma-separated subset of the operations (for triage), e.g. POSENC_JS_FUZZ_OPS=rope,ropeQK.
const OPS = process.env.POSENC_JS_FUZZ_OPS ? process.env.POSENC_JS_FUZZ_OPS.split(',') : null;
const CHECK_EVERY = 50;
const MAX_FAILING_ITERATIONS = envInteger('POSENC_JS_FUZZ_MAX_FAILURES', 20);
// Each forced growth adds ~20% to the memory (emscripten's least step): 8 of them, spread over
// the run, end near 80 MiB.
const MAX_GROWTHS = 8;

function envInteger(name, fallback) {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  assert.ok(Number.isInteger(number) && number >= 0, `${name} must be a non-negative integer (got ${value})`);
  return number;
}

// ---- random choices ---------------------------------------------------------------------------

/** Choices drawn from support.js's seeded generator. */
function chooser(seed) {
  const next = seededRandom(seed);
  const r = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick: (list) => list[Math.floor(next() * list.length)],
    /** weighted([[weight, value], ...]) */
    weighted: (table) => {
      let roll = next() * table.reduce((sum, [w]) => sum + w, 0);
      for (const [w, value] of table) {
        roll -= w;
        if (roll < 0) return value;
      }
      return table.at(-1)[1];
    },
    floats: (length) => randomNormal(length, r.int(1, 2 ** 30)),
  };
  return r;
}

/** Per-iteration seeds: iteration i can be replayed alone. */
const iterationSeed = (i) => (Math.imul(SEED + 1, 0x9e3779b1) + Math.imul(i + 1, 0x85ebca6b)) >>> 0;

// ---- what a call is made of ----------------------------------------------------------------------

/** A float array argument, described before it exists (where it lives is chosen later). */
class ArraySpec {
  constructor(name, length, role, r) {
    this.name = name; // the parameter posenc names: 'x', 'out', 'out.cos', 'q', ...
    this.length = length;
    this.role = role; // 'in' (only read), 'out' (written), 'inout' (in place)
    this.data = r.floats(length);
    this.kind = 'js';
  }
}

/** A list (positions, offsets, factor lists, values): its values and its type. */
class ListSpec {
  constructor(path, values, type) {
    this.path = path;
    this.values = values;
    this.type = type; // 'Array', 'Int32Array', 'Uint32Array', 'BigInt64Array', 'BigUint64Array', 'Float64Array', 'Float32Array'
  }
}

const LIST_TYPES = { Int32Array, Uint32Array, Float64Array, Float32Array, BigInt64Array, BigUint64Array };

/** A ListSpec's values as its type (the int64 ones take BigInts). */
function typedList(list) {
  const Type = LIST_TYPES[list.type];
  return Type.from(list.values, Type === BigInt64Array || Type === BigUint64Array ? BigInt : undefined);
}

/** Drops the keys whose value is undefined. */
function defined(object) {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}

// ---- valid small random specs, one generator per operation ---------------------------------------

const SCALING_TYPES = ['linear', 'dynamic', 'yarn', 'llama3', 'longrope'];

function scaling(r, rotaryDim) {
  const type = r.pick(SCALING_TYPES);
  const original = r.int(2, 12);
  const pairs = Math.max(1, rotaryDim / 2);
  const factorList = (path) =>
    new ListSpec(
      path,
      Array.from({ length: r.chance(0.95) ? pairs : pairs + 1 }, () => 1 + r.int(0, 8) / 4),
      r.pick(['Array', 'Array', 'Float64Array', 'Float32Array']),
    );
  switch (type) {
    case 'linear':
      return { type, factor: r.pick([1, 2, 4]) };
    case 'dynamic':
      return { type, factor: r.pick([2, 4]), originalMaxPositionEmbeddings: original };
    case 'yarn':
      return defined({
        type,
        factor: r.pick([2, 4, 8]),
        originalMaxPositionEmbeddings: original,
        betaFast: r.chance(0.3) ? r.pick([8, 32]) : undefined,
        attentionFactor: r.chance(0.3) ? r.pick([0.5, 1.25, 3.4028234663852886e38, 1e308]) : undefined,
        mscale: r.chance(0.2) ? 1 : undefined,
        truncate: r.chance(0.2) ? r.chance(0.5) : undefined,
      });
    case 'llama3':
      return { type, factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: original };
    default:
      return defined({
        type,
        shortFactor: factorList('scaling.shortFactor'),
        longFactor: factorList('scaling.longFactor'),
        originalMaxPositionEmbeddings: original,
        factor: r.chance(0.5) ? 4 : undefined,
        maxPositionEmbeddings: r.chance(0.5) ? original * 4 : undefined,
      });
  }
}

/** offset (number or one per sequence), explicit positions, or neither. */
function where(r, rows, batch, { lists = true } = {}) {
  const kind = r.weighted([
    [4, 'none'],
    [3, 'offset'],
    [2, 'positions'],
    [lists && batch > 0 ? 1 : 0, 'offsets'],
  ]);
  const type = () => r.pick(['Array', 'Array', 'Int32Array', 'Uint32Array', 'BigInt64Array', 'BigUint64Array']);
  if (kind === 'offset') return { offset: r.int(0, 60) };
  if (kind === 'positions')
    return {
      positions: new ListSpec(
        'positions',
        Array.from({ length: rows }, () => r.int(0, 60)),
        type(),
      ),
    };
  if (kind === 'offsets')
    return {
      offset: new ListSpec(
        'offset',
        Array.from({ length: batch }, () => r.int(0, 60)),
        type(),
      ),
    };
  return {};
}

function ropeShape(r, { big = false } = {}) {
  if (big) return { seqLen: 1100, headDim: 64, numHeads: 1, batch: 1, rotaryDim: 64 };
  const headDim = 2 * r.int(1, 6);
  const shape = {
    seqLen: r.int(1, 5),
    headDim,
    numHeads: r.int(1, 3),
    batch: r.weighted([
      [3, 1],
      [1, 2],
    ]),
  };
  const partial = r.chance(0.15);
  shape.rotaryDim = partial ? 2 * Math.floor((headDim * 0.5) / 2) : r.chance(0.3) ? 2 * r.int(1, headDim / 2) : headDim;
  return { ...shape, partial };
}

/** The rope options of a shape (without arrays): what rope, ropeQK and ropePlan share. */
function ropeOptions(r, shape) {
  return defined({
    seqLen: shape.seqLen,
    numHeads: shape.numHeads === 1 && r.chance(0.5) ? undefined : shape.numHeads,
    headDim: shape.headDim,
    rotaryDim: shape.partial || (shape.rotaryDim === shape.headDim && r.chance(0.5)) ? undefined : shape.rotaryDim,
    partialRotaryFactor: shape.partial ? 0.5 : undefined,
    layout: r.chance(0.4) ? r.pick(['interleaved', 'half']) : undefined,
    base: r.chance(0.3) ? r.pick([10000, 500, 1e6]) : undefined,
    scaling: r.chance(0.25) ? scaling(r, shape.rotaryDim) : undefined,
    batch: shape.batch === 1 && r.chance(0.5) ? undefined : shape.batch,
    order: r.chance(0.3) ? r.pick(['tokens', 'heads']) : undefined,
    inverse: r.chance(0.2) ? true : undefined,
    dtype: float32Dtype(r),
  });
}

/** The dtype option of the operations that take one, sometimes given: these arrays are float32. */
const float32Dtype = (r) => (r.chance(0.2) ? 'float32' : undefined);

/** An xpos option: rope's needs a role, ropeQK's takes none; sometimes a center (a KV cache's). */
function xposOptions(r, withRole) {
  return defined({
    scaleBase: r.chance(0.3) ? r.pick([512, 64, 4096]) : undefined,
    gamma: r.chance(0.3) ? r.pick([0.4, 0.1, 2]) : undefined,
    role: withRole ? r.pick(['query', 'key']) : undefined,
    center: r.chance(0.3) ? r.int(0, 100) : undefined,
  });
}

/**
 * Each generator returns a call: fn, positional arguments, options, invoke, and results(hasOut):
 * which arrays are outputs, which argument comes back, and the values to compare -- depending on
 * whether an `out` option is really given (it may end up inherited, so ignored).
 */
const newArray = (hasOut, made) => (hasOut ? {} : made);
const OPERATIONS = {
  sinusoidal(r) {
    const seqLen = r.int(1, 5);
    const dModel = 2 * r.int(1, 6);
    const out = r.chance(0.4) ? new ArraySpec('out', seqLen * dModel, 'out', r) : undefined;
    return {
      fn: 'sinusoidal',
      positional: [],
      options: defined({
        seqLen,
        dModel,
        base: r.chance(0.3) ? r.pick([10, 10000]) : undefined,
        layout: r.chance(0.4) ? r.pick(['interleaved', 'concat']) : undefined,
        ...where(r, seqLen, 0, { lists: false }),
        dtype: float32Dtype(r),
        out,
      }),
      invoke: (posenc, _positional, o) => posenc.sinusoidal(o),
      results: (hasOut) => ({
        outputs: hasOut ? ['out'] : [],
        returns: hasOut ? 'out' : null,
        resultOf: (table) => newArray(hasOut, { table }),
      }),
    };
  },
  addSinusoidal(r) {
    const seqLen = r.int(1, 5);
    const dModel = 2 * r.int(1, 6);
    return {
      fn: 'addSinusoidal',
      positional: [new ArraySpec('x', seqLen * dModel, 'inout', r)],
      options: defined({
        seqLen,
        dModel,
        layout: r.chance(0.4) ? 'concat' : undefined,
        ...where(r, seqLen, 0, { lists: false }),
        dtype: float32Dtype(r),
      }),
      invoke: (posenc, [x], o) => posenc.addSinusoidal(x, o),
      results: () => ({ outputs: ['x'], returns: 'x' }),
    };
  },
  positionNumbers(r) {
    const seqLen = r.int(1, 5);
    const dModel = r.int(1, 6);
    const out = r.chance(0.4) ? new ArraySpec('out', seqLen * dModel, 'out', r) : undefined;
    return {
      fn: 'positionNumbers',
      positional: [],
      options: defined({
        seqLen,
        dModel,
        offset: r.chance(0.5) ? r.int(0, 100) : undefined,
        dtype: float32Dtype(r),
        out,
      }),
      invoke: (posenc, _positional, o) => posenc.positionNumbers(o),
      results: (hasOut) => ({
        outputs: hasOut ? ['out'] : [],
        returns: hasOut ? 'out' : null,
        resultOf: (table) => newArray(hasOut, { table }),
      }),
    };
  },
  ropeFrequencies(r) {
    return {
      fn: 'ropeFrequencies',
      positional: [],
      options: scheduleOptions(r),
      invoke: (posenc, _positional, o) => posenc.ropeFrequencies(o),
      results: () => ({ resultOf: (invFreq) => ({ invFreq }) }),
    };
  },
  ropeSchedule(r) {
    return {
      fn: 'ropeSchedule',
      positional: [],
      options: scheduleOptions(r),
      invoke: (posenc, _positional, o) => posenc.ropeSchedule(o),
      results: () => ({
        resultOf: ({ invFreq, attentionFactor, rotaryDim }) => ({ invFreq, attentionFactor, rotaryDim }),
      }),
    };
  },
  ropeCache(r) {
    const seqLen = r.int(1, 5);
    const rotaryDim = 2 * r.int(1, 5);
    const batch = r.weighted([
      [3, 1],
      [1, 2],
    ]);
    const length = batch * seqLen * (rotaryDim / 2);
    const out = r.chance(0.4)
      ? { cos: new ArraySpec('out.cos', length, 'out', r), sin: new ArraySpec('out.sin', length, 'out', r) }
      : undefined;
    return {
      fn: 'ropeCache',
      positional: [],
      options: defined({
        seqLen,
        rotaryDim,
        batch: batch === 1 && r.chance(0.5) ? undefined : batch,
        base: r.chance(0.3) ? 500 : undefined,
        scaling: r.chance(0.3) ? scaling(r, rotaryDim) : undefined,
        ...where(r, batch * seqLen, batch),
        dtype: float32Dtype(r),
        out,
      }),
      invoke: (posenc, _positional, o) => posenc.ropeCache(o),
      results: (hasOut) => ({
        outputs: hasOut ? ['out.cos', 'out.sin'] : [],
        resultOf: ({ cos, sin, attentionFactor }) => (hasOut ? { attentionFactor } : { cos, sin, attentionFactor }),
        identity: hasOut
          ? (returned, value) => [
              ['cos', returned.cos, value('out.cos')],
              ['sin', returned.sin, value('out.sin')],
            ]
          : null,
      }),
    };
  },
  rope(r) {
    const big = r.chance(0.02);
    const shape = ropeShape(r, { big });
    const length = shape.batch * shape.seqLen * shape.numHeads * shape.headDim;
    const x = new ArraySpec('x', length, 'inout', r);
    const out = r.chance(0.35) ? new ArraySpec('out', length, 'out', r) : undefined;
    return {
      fn: 'rope',
      positional: [x],
      big,
      options: defined({
        ...ropeOptions(r, shape),
        ...(big ? {} : where(r, shape.batch * shape.seqLen, shape.batch)),
        out,
      }),
      invoke: (posenc, [input], o) => posenc.rope(input, o),
      results: (hasOut) => ({ outputs: [hasOut ? 'out' : 'x'], returns: hasOut ? 'out' : 'x' }),
    };
  },
  'rope with mrope'(r) {
    const shape = ropeShape(r);
    const pairs = shape.rotaryDim / 2;
    const t = r.int(0, pairs);
    const h = r.int(0, pairs - t);
    const interleaved = r.chance(0.4);
    // Interleaved sections must keep their h and w pairs inside the head (3h - 2, 3w - 1 < pairs).
    const section = interleaved ? [pairs, 0, 0] : [t, h, pairs - t - h];
    const length = shape.batch * shape.seqLen * shape.numHeads * shape.headDim;
    const rows = shape.batch * shape.seqLen;
    const out = r.chance(0.35) ? new ArraySpec('out', length, 'out', r) : undefined;
    return {
      fn: 'rope',
      positional: [new ArraySpec('x', length, 'inout', r)],
      options: defined({
        ...ropeOptions(r, shape),
        mrope: defined({ section, interleaved: interleaved || r.chance(0.3) ? interleaved : undefined }),
        ...(r.chance(0.7)
          ? {
              positions: new ListSpec(
                'positions',
                Array.from({ length: 3 * rows }, () => r.int(0, 60)),
                'Int32Array',
              ),
            }
          : where(r, rows, shape.batch, { lists: false })),
        out,
      }),
      invoke: (posenc, [input], o) => posenc.rope(input, o),
      results: (hasOut) => ({ outputs: [hasOut ? 'out' : 'x'], returns: hasOut ? 'out' : 'x' }),
    };
  },
  ropeGrid(r) {
    const variant = r.pick(['pixtral', 'axial']);
    const headDim = variant === 'axial' ? 4 * r.int(1, 4) : 2 * r.int(2, 7);
    const rows = r.int(0, 4);
    const cols = r.int(1, 5);
    const numHeads = r.int(1, 3);
    const batch = r.weighted([
      [3, 1],
      [1, 2],
    ]);
    const frames = r.weighted([
      [3, 1],
      [1, 3],
    ]);
    const length = batch * frames * rows * cols * numHeads * headDim;
    const out = r.chance(0.35) ? new ArraySpec('out', length, 'out', r) : undefined;
    return {
      fn: 'ropeGrid',
      positional: [new ArraySpec('x', length, 'inout', r)],
      options: defined({
        rows,
        cols,
        numHeads: numHeads === 1 && r.chance(0.5) ? undefined : numHeads,
        headDim,
        variant,
        base: r.chance(0.3) ? r.pick([10000, 100]) : undefined,
        layout: r.chance(0.3) ? r.pick(['interleaved', 'half']) : undefined,
        order: r.chance(0.3) ? r.pick(['tokens', 'heads']) : undefined,
        batch: batch === 1 && r.chance(0.5) ? undefined : batch,
        frames: frames === 1 && r.chance(0.5) ? undefined : frames,
        out,
      }),
      invoke: (posenc, [input], o) => posenc.ropeGrid(input, o),
      results: (hasOut) => ({ outputs: [hasOut ? 'out' : 'x'], returns: hasOut ? 'out' : 'x' }),
    };
  },
  ropeQK(r) {
    const shape = ropeShape(r);
    const numKvHeads = r.chance(0.6) ? r.int(1, shape.numHeads) : undefined;
    const vectors = shape.batch * shape.seqLen * shape.headDim;
    const q = new ArraySpec('q', vectors * shape.numHeads, 'inout', r);
    const k = new ArraySpec('k', vectors * (numKvHeads ?? shape.numHeads), 'inout', r);
    const out = r.chance(0.35)
      ? { q: new ArraySpec('out.q', q.length, 'out', r), k: new ArraySpec('out.k', k.length, 'out', r) }
      : undefined;
    return {
      fn: 'ropeQK',
      positional: [q, k],
      options: defined({
        ...ropeOptions(r, shape),
        numKvHeads,
        ...where(r, shape.batch * shape.seqLen, shape.batch),
        out,
      }),
      invoke: (posenc, [qv, kv], o) => posenc.ropeQK(qv, kv, o),
      results: qkResults,
    };
  },
  ropeXpos(r) {
    const call = OPERATIONS.rope(r);
    return { ...call, options: { ...call.options, xpos: xposOptions(r, true) } };
  },
  ropeQKXpos(r) {
    const call = OPERATIONS.ropeQK(r);
    return { ...call, options: { ...call.options, xpos: xposOptions(r, false) } };
  },
  convertLayout(r) {
    const headDim = 2 * r.int(1, 6);
    const length = headDim * r.int(1, 4);
    const out = r.chance(0.4) ? new ArraySpec('out', length, 'out', r) : undefined;
    return {
      fn: 'convertLayout',
      positional: [new ArraySpec('x', length, 'in', r)],
      options: defined({
        from: r.pick(['interleaved', 'half']),
        to: r.pick(['interleaved', 'half']),
        headDim,
        rotaryDim: r.chance(0.3) ? 2 * r.int(1, headDim / 2) : undefined,
        out,
      }),
      invoke: (posenc, [x], o) => posenc.convertLayout(x, o),
      results: (hasOut) => ({
        outputs: hasOut ? ['out'] : [],
        returns: hasOut ? 'out' : null,
        resultOf: (converted) => newArray(hasOut, { converted }),
      }),
    };
  },
  convertLayoutWeights(r) {
    const headDim = 2 * r.int(1, 4);
    const numHeads = r.int(1, 3);
    const hidden = r.int(1, 4);
    const length = numHeads * headDim * hidden;
    const out = r.chance(0.4) ? new ArraySpec('out', length, 'out', r) : undefined;
    return {
      fn: 'convertLayoutWeights',
      positional: [new ArraySpec('w', length, 'in', r)],
      options: defined({
        from: r.pick(['interleaved', 'half']),
        to: r.pick(['interleaved', 'half']),
        numHeads,
        headDim,
        hidden,
        out,
      }),
      invoke: (posenc, [w], o) => posenc.convertLayoutWeights(w, o),
      results: (hasOut) => ({
        outputs: hasOut ? ['out'] : [],
        returns: hasOut ? 'out' : null,
        resultOf: (converted) => newArray(hasOut, { converted }),
      }),
    };
  },
  similarity(r) {
    const rows = r.int(1, 4);
    const cols = r.int(1, 4);
    const dim = r.int(1, 6);
    const out = r.chance(0.4) ? new ArraySpec('out', rows * cols, 'out', r) : undefined;
    return {
      fn: 'similarity',
      positional: [new ArraySpec('a', rows * dim, 'in', r), new ArraySpec('b', cols * dim, 'in', r)],
      options: defined({ rows, cols, dim, metric: r.chance(0.5) ? r.pick(['dot', 'cosine']) : undefined, out }),
      invoke: (posenc, [a, b], o) => posenc.similarity(a, b, o),
      results: (hasOut) => ({
        outputs: hasOut ? ['out'] : [],
        returns: hasOut ? 'out' : null,
        resultOf: (matrix) => newArray(hasOut, { matrix }),
      }),
    };
  },
  mropePositions(r) {
    const merge = r.pick([1, 2, 2]);
    const model = r.chance(0.5) ? 'qwen2.5-vl' : r.chance(0.5) ? 'qwen2-vl' : undefined;
    const grid = () => [r.int(1, 3), merge * r.int(1, 3), merge * r.int(1, 3)];
    const segments = Array.from({ length: r.int(0, 5) }, () => {
      const kind = r.pick(['text', 'text', 'image', 'video']);
      if (kind === 'text') return { text: r.int(0, 4) };
      if (kind === 'image') return { image: grid() };
      return defined({ video: grid(), secondsPerGrid: r.chance(0.5) ? r.pick([0, 0.5, 1, 2.5]) : undefined });
    });
    return {
      fn: 'mropePositions',
      positional: [],
      options: defined({
        segments,
        spatialMergeSize: merge === 2 && r.chance(0.5) ? undefined : merge,
        model,
        tokensPerSecond: model === 'qwen2.5-vl' && r.chance(0.5) ? r.int(0, 25) : undefined,
      }),
      invoke: (posenc, _positional, o) => posenc.mropePositions(o),
      results: () => ({ resultOf: ({ positions, nextPosition }) => ({ positions, nextPosition }) }),
    };
  },
  alibiSlopes(r) {
    return {
      fn: 'alibiSlopes',
      positional: [],
      options: defined({ numHeads: r.int(1, 20), maxBias: r.chance(0.4) ? r.pick([8, 16, 0.5]) : undefined }),
      invoke: (posenc, _positional, o) => posenc.alibiSlopes(o),
      results: () => ({ resultOf: (slopes) => ({ slopes }) }),
    };
  },
  alibiBias(r) {
    const numHeads = r.int(1, 5);
    const queryLen = r.int(1, 5);
    const keyLen = r.int(1, 9);
    const out = r.chance(0.4) ? new ArraySpec('out', numHeads * queryLen * keyLen, 'out', r) : undefined;
    return {
      fn: 'alibiBias',
      positional: [],
      options: defined({
        numHeads,
        queryLen,
        keyLen,
        offset: r.chance(0.5) ? r.int(-10, 100) : undefined,
        maxBias: r.chance(0.3) ? 16 : undefined,
        out,
      }),
      invoke: (posenc, _positional, o) => posenc.alibiBias(o),
      results: (hasOut) => ({
        outputs: hasOut ? ['out'] : [],
        returns: hasOut ? 'out' : null,
        resultOf: (bias) => newArray(hasOut, { bias }),
      }),
    };
  },
  attentionScores(r) {
    const numHeads = r.int(1, 3);
    const queryLen = r.int(1, 4);
    const keyLen = r.int(1, 6);
    const headDim = 2 * r.int(1, 4); // even: every encoding takes it
    const encoding = r.pick(['none', 'sinusoidal', 'rope', 'alibi', 't5', 'xpos']);
    const placed = encoding === 'sinusoidal' || encoding === 'rope' || encoding === 'xpos'; // rows at positions >= 0
    const own = {
      none: {},
      sinusoidal: { layout: r.chance(0.3) ? 'concat' : undefined },
      rope: { layout: r.chance(0.3) ? 'half' : undefined, base: r.chance(0.3) ? 500000 : undefined },
      alibi: { maxBias: r.chance(0.3) ? 16 : undefined },
      t5: { bias: new ArraySpec('bias', 32 * numHeads, 'in', r), bidirectional: r.chance(0.3) ? false : undefined },
      xpos: {
        xpos: r.chance(0.5)
          ? defined({ gamma: r.chance(0.5) ? 0.2 : undefined, center: r.chance(0.3) ? 30 : undefined })
          : undefined,
      },
    }[encoding];
    const out = r.chance(0.4) ? new ArraySpec('out', numHeads * queryLen * keyLen, 'out', r) : undefined;
    return {
      fn: 'attentionScores',
      positional: [
        new ArraySpec('q', numHeads * queryLen * headDim, 'in', r),
        new ArraySpec('k', numHeads * keyLen * headDim, 'in', r),
      ],
      options: defined({
        numHeads,
        queryLen,
        keyLen,
        headDim,
        encoding,
        ...defined(own),
        offset: placed ? r.int(0, 50) : r.chance(0.5) ? r.int(-5, 50) : undefined,
        order: r.chance(0.3) ? 'tokens' : undefined,
        causal: r.chance(0.5) ? r.chance(0.5) : undefined,
        softmax: r.chance(0.5) ? r.chance(0.5) : undefined,
        out,
      }),
      invoke: (posenc, [q, k], o) => posenc.attentionScores(q, k, o),
      results: (hasOut) => ({
        outputs: hasOut ? ['out'] : [],
        returns: hasOut ? 'out' : null,
        resultOf: (scores) => newArray(hasOut, { scores }),
      }),
    };
  },
  relativePositionBuckets(r) {
    // No `out` here: an Int32Array output is JS-owned only (errors and leak tests cover it).
    const bidirectional = r.chance(0.5) ? r.chance(0.5) : undefined;
    return {
      fn: 'relativePositionBuckets',
      positional: [],
      options: defined({
        queryLen: r.int(0, 5),
        keyLen: r.int(0, 6),
        numBuckets: r.chance(0.5) ? r.int(1, 40) : undefined,
        maxDistance: r.chance(0.5) ? r.int(0, 200) : undefined,
        bidirectional,
        offset: r.chance(0.5) ? r.int(0, 300) : undefined,
      }),
      invoke: (posenc, _positional, o) => posenc.relativePositionBuckets(o),
      results: () => ({ resultOf: (buckets) => ({ buckets }) }),
    };
  },
  allocate(r) {
    const length = r.int(0, 12);
    const values = r.chance(0.2)
      ? length
      : new ListSpec('lengthOrValues', Array.from(r.floats(length)), r.pick(['Array', 'Array', 'Float32Array']));
    return {
      fn: 'allocate',
      positional: [values],
      options: undefined,
      noOptions: true,
      invoke: (posenc, [v]) => posenc.allocate(v),
      results: () => ({
        resultOf: (w, call) => {
          call.adopt(w);
          return { length: w.length, contents: w.toArray() };
        },
      }),
    };
  },
  'WasmArray.set'(r) {
    const target = new ArraySpec('this', r.int(1, 12), 'out', r);
    target.kind = r.chance(0.3) ? 'window' : 'wasm';
    target.fixedKind = true;
    const offset = r.int(0, Math.min(3, target.length));
    const count = r.chance(0.9) ? r.int(0, target.length - offset) : target.length + 1;
    const values = new ListSpec('values', Array.from(r.floats(count)), r.pick(['Array', 'Array', 'Float32Array']));
    return {
      fn: 'WasmArray.set',
      positional: [target, values, offset],
      options: undefined,
      noOptions: true,
      invoke: (_posenc, [w, v, at]) => w.set(v, at),
      results: () => ({ outputs: ['this'], returns: 'this' }),
    };
  },
};

/** ropeQK and RopePlan.applyQK: q and k in place, or out.q and out.k. */
function qkResults(hasOut) {
  return {
    outputs: hasOut ? ['out.q', 'out.k'] : ['q', 'k'],
    identity: (returned, value) => [
      ['q', returned.q, value(hasOut ? 'out.q' : 'q')],
      ['k', returned.k, value(hasOut ? 'out.k' : 'k')],
    ],
  };
}

function scheduleOptions(r) {
  const headDim = 2 * r.int(1, 8);
  const partial = r.chance(0.2);
  const rotaryDim = partial ? 2 * Math.floor(headDim / 4) : 2 * r.int(1, headDim / 2);
  return defined({
    rotaryDim: partial ? undefined : rotaryDim,
    headDim: partial || r.chance(0.3) ? headDim : undefined,
    partialRotaryFactor: partial ? 0.5 : undefined,
    base: r.chance(0.3) ? r.pick([10000, 500]) : undefined,
    scaling: r.chance(0.6) ? scaling(r, rotaryDim) : undefined,
    seqLen: r.chance(0.5) ? r.int(1, 40) : undefined,
  });
}

/** Sometimes a wrong value (type or range) for one option, or a misspelled one. */
const JUNK = ['8', -1, 2.5, Number.NaN, null, {}, [], true, 10n, 2 ** 40, 'neither'];
function spoil(r, options) {
  if (options === undefined || r.chance(0.92)) return options;
  if (r.chance(0.2)) return { ...options, [r.pick(['seqlen', 'headdim', 'bogus'])]: 1 };
  const keys = Object.keys(options).filter((key) => !(options[key] instanceof ArraySpec) && key !== 'out');
  if (keys.length === 0) return options;
  return { ...options, [r.pick(keys)]: r.pick(JUNK) };
}

// ---- hostile ingredients -------------------------------------------------------------------------
// Each ingredient is decided with the iteration's choices while the hostile arguments are built;
// it records what the call must then do (mustError / mayError) and what happened (events).

/** Option names of every function (and foo), for Object.prototype pollution. */
const POLLUTION_KEYS = [
  'seqLen',
  'dModel',
  'base',
  'layout',
  'offset',
  'positions',
  'out',
  'rotaryDim',
  'headDim',
  'partialRotaryFactor',
  'scaling',
  'numHeads',
  'batch',
  'order',
  'inverse',
  'dtype',
  'numKvHeads',
  'from',
  'to',
  'hidden',
  'rows',
  'cols',
  'dim',
  'metric',
  'cos',
  'sin',
  'q',
  'k',
  'type',
  'factor',
  'originalMaxPositionEmbeddings',
  'attentionFactor',
  'betaFast',
  'shortFactor',
  'longFactor',
  'segments',
  'spatialMergeSize',
  'model',
  'tokensPerSecond',
  'text',
  'image',
  'video',
  'secondsPerGrid',
  'foo',
];
const POLLUTION_VALUES = [
  'concat',
  'half',
  'heads',
  7,
  2,
  true,
  1e308,
  [9, 9],
  { type: 'linear', factor: 4 },
  new Float32Array(4),
  'yarn',
  'float16',
];

/** Alternative answers of fickle getters and traps: never what the contract reads. */
const alternative = (value) =>
  typeof value === 'number' ? value + 3 : typeof value === 'string' ? `${value}!` : 12345;

/** The path and every enclosing parameter: 'scaling.factor' -> scaling.factor, scaling, options. */
function ancestors(path) {
  const names = [path];
  let p = path;
  for (;;) {
    const cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
    if (cut <= 0) break;
    p = p.slice(0, cut);
    names.push(p);
  }
  names.push('options');
  return names;
}

class HostileCall {
  constructor(fuzz, r, call, label) {
    this.fuzz = fuzz;
    this.posenc = fuzz.posenc;
    this.r = r;
    this.call = call;
    this.label = label;
    this.owned = []; // WasmArrays this call made (freed afterwards)
    this.bystanders = new Map(); // WasmArray -> the contents nobody may change
    this.values = new Map(); // parameter name -> the object passed
    this.where = new Map(); // parameter name -> { kind, holder, element, buffer }
    this.usedWasm = new Map(); // WasmArray -> names of the parameters it backs
    this.jsBuffers = new Map(); // ArrayBuffer -> names of the parameters it backs
    this.rawViews = new Set(); // names of parameters that are Float32Array views of WASM memory
    this.lists = []; // hostile lists (for shrinking getters)
    this.handles = []; // getters and traps: { label, counts: Map<key, runs> }
    this.events = [];
    this.mustError = []; // [{ names, types, why, requires }]: errors these arguments call for
    this.ingredients = [];
    this.pendingViews = [];
    this.pendingStale = [];
    this.noReallocation = false;
  }

  note(ingredient) {
    this.ingredients.push(ingredient);
    this.fuzz.current?.ingredients.push(ingredient);
    this.fuzz.count('ingredients', ingredient.split(' ')[0]);
  }

  own(w) {
    this.owned.push(w);
    return w;
  }

  adopt(w) {
    if (w instanceof WasmArray && !this.owned.includes(w)) this.owned.push(w);
  }

  bystander(values) {
    const w = this.own(this.posenc.allocate(values));
    this.bystanders.set(w, Float32Array.from(values));
    return w;
  }

  // -- arrays ---------------------------------------------------------------------------------

  /** Decides where each array lives (the same for the plain call) and hostile kinds. */
  decideKinds(arrays) {
    const r = this.r;
    for (const spec of arrays) {
      if (spec.fixedKind) continue;
      if (this.call.big) {
        spec.kind = r.chance(0.8) ? 'js' : 'wasm';
        continue;
      }
      spec.kind = r.weighted([
        [10, 'js'],
        [6, 'wasm'],
        [4, 'view'],
        [3, 'window'],
        [1, 'freedWindow'],
        [1, 'static'],
        [1, 'straddle'],
        [1, 'stale'],
        [1, 'detached'],
        [2, 'wrong'],
      ]);
    }
    // Outputs sharing memory with an earlier array: the same array in place, or a partial overlap.
    const outs = arrays.filter((s) => s.role === 'out' && !s.fixedKind);
    if (outs.length && r.chance(0.12)) {
      const out = r.pick(outs);
      const partners = arrays.slice(0, arrays.indexOf(out)).filter((s) => !s.fixedKind);
      if (partners.length) {
        const partner = r.pick(partners);
        const fn = this.call.fn;
        const inPlaceAllowed =
          (['rope', 'RopePlan.apply'].includes(fn) && out.name === 'out') ||
          (['ropeQK', 'RopePlan.applyQK'].includes(fn) && partner.name === out.name.slice(4));
        if (inPlaceAllowed && r.chance(0.5) && partner.length === out.length) {
          out.kind = 'alias';
          out.aliasOf = partner;
          partner.kind = r.pick(['js', 'wasm', 'view', 'window']);
        } else {
          out.kind = 'overlap';
          out.overlapWith = partner;
          partner.kind = r.pick(['js', 'view', 'window']);
        }
      }
    }
  }

  /** The object for one array, hostile or plain (plain: hostile kinds become JS arrays). */
  materialize(spec, plain) {
    const hostile = ['static', 'straddle', 'stale', 'detached', 'overlap', 'freedWindow'];
    const kind = plain && hostile.includes(spec.kind) ? 'js' : spec.kind;
    if (!plain) this.fuzz.count('array kinds', kind);
    return ARRAY_KINDS[kind](this, spec, plain);
  }

  /** Records the object passed for a parameter and where it lives. */
  remember(spec, value, slot) {
    this.values.set(spec.name, value);
    this.where.set(spec.name, slot);
    return value;
  }

  /** A raw view made last (finishViews): [parameter, slot, length]. */
  viewLater(spec, slot) {
    this.pendingViews.push([spec.name, slot, spec.length]);
    this.rawViews.add(spec.name);
    return this.remember(spec, null, slot);
  }

  /** An argument that must make the call throw a RangeError naming it (when posenc reads it). */
  refused(spec, why, ingredient) {
    this.mustError.push({ names: [spec.name], types: [RangeError], why: `${spec.name} ${why}`, requires: [spec.name] });
    this.note(`${ingredient} ${spec.name}`);
  }

  uses(w, name) {
    if (!this.usedWasm.has(w)) this.usedWasm.set(w, []);
    this.usedWasm.get(w).push(name);
  }

  backs(buffer, name) {
    if (!this.jsBuffers.has(buffer)) this.jsBuffers.set(buffer, []);
    this.jsBuffers.get(buffer).push(name);
  }

  /** Makes the raw views, last: nothing allocated afterwards can move or detach them. */
  finishViews() {
    const posenc = this.posenc;
    for (const [name, slot, length] of this.pendingStale) {
      const w = posenc.allocate(length);
      slot.view = w.view();
      w.free();
      this.values.set(name, slot.view);
    }
    const probe = posenc.allocate(0);
    const { buffer } = probe.view();
    probe.free();
    for (const [name, slot, length] of this.pendingViews) {
      // Inside a live WasmArray: a view from its view(), as posenc takes them in place; the
      // hostile kinds are views made by hand over the memory's buffer.
      if (slot.kind === 'view') {
        this.values.set(name, slot.holder.view().subarray(slot.element, slot.element + length));
        continue;
      }
      const byteOffset = slot.byteOffset ?? slot.holder.address + 4 * slot.element;
      this.values.set(name, new Float32Array(buffer, byteOffset, length));
    }
  }

  /** Contents of a parameter's array after a call (through its holder for views), or null. */
  read(name) {
    const slot = this.where.get(name);
    const value = this.values.get(name);
    if (slot.kind === 'wasm') return slot.holder.freed ? null : slot.holder.toArray();
    if (slot.kind === 'view' || slot.kind === 'window') {
      if (slot.holder.freed) return null;
      const length = this.call.arrays.find((s) => s.name === name).length;
      return slot.holder.toArray().slice(slot.element, slot.element + length);
    }
    return value instanceof Float32Array ? Float32Array.prototype.slice.call(value) : null;
  }

  // -- option trees --------------------------------------------------------------------------

  /** The plain (clean) value of an option tree: own keys only, lists as plain lists. */
  plain(node) {
    if (node instanceof ArraySpec) return this.values.get(node.name);
    if (node instanceof ListSpec) return node.type === 'Array' ? node.values.slice() : typedList(node);
    if (node !== null && typeof node === 'object' && !Array.isArray(node)) {
      const object = {};
      for (const [key, value] of Object.entries(node)) if (!node[INHERITED]?.has(key)) object[key] = this.plain(value);
      return object;
    }
    return node;
  }

  /** The hostile value of an option tree at `path` (decides the ingredients). */
  hostile(node, path) {
    if (node instanceof ArraySpec) return this.values.get(node.name);
    if (node instanceof ListSpec) return this.hostileList(node);
    if (node !== null && typeof node === 'object' && !Array.isArray(node)) return this.hostileObject(node, path);
    return node;
  }

  /**
   * Decides, before the plain call is made, which keys of each object node are inherited
   * through Object.create (the plain call does not have them).
   */
  decideInheritance(node, path) {
    if (
      node === null ||
      typeof node !== 'object' ||
      node instanceof ArraySpec ||
      node instanceof ListSpec ||
      Array.isArray(node)
    )
      return;
    const keys = Object.keys(node);
    if (keys.length && this.r.chance(0.06)) {
      node[INHERITED] = new Set(keys.filter(() => this.r.chance(0.4)));
      this.note(`object-create ${path} [${[...node[INHERITED]].join(', ')}]`);
    }
    for (const key of keys) this.decideInheritance(node[key], path === 'options' ? key : `${path}.${key}`);
  }

  hostileObject(node, path) {
    const r = this.r;
    const prefix = path === 'options' ? '' : `${path}.`;
    const inherited = node[INHERITED] ?? new Set();
    let proto = null;
    if (inherited.size) {
      proto = {};
      for (const key of inherited) proto[key] = this.hostile(node[key], prefix + key);
    }
    const target = node[INHERITED] ? Object.create(proto ?? {}) : {};
    for (const key of Object.keys(node)) {
      if (inherited.has(key)) continue;
      const value = this.hostile(node[key], prefix + key);
      if (r.chance(0.12)) {
        Object.defineProperty(target, key, {
          get: this.getter(prefix + key, value),
          enumerable: true,
          configurable: true,
        });
      } else {
        target[key] = value;
      }
    }
    return this.maybeProxy(target, path);
  }

  hostileList(list) {
    const r = this.r;
    if (list.type !== 'Array') return typedList(list);
    const values = list.values.slice();
    for (let i = 0; i < values.length; i++) {
      if (r.chance(0.08)) {
        const path = `${list.path}[${i}]`;
        const shrink = r.chance(0.25);
        const get = shrink ? this.shrinkingGetter(path, values, i, list) : this.getter(path, list.values[i]);
        Object.defineProperty(values, i, { get, enumerable: true, configurable: true });
      }
    }
    this.lists.push({ list, array: values });
    return this.maybeProxy(values, list.path);
  }

  /** Sometimes a Proxy (logging its traps, maybe answering differently later) or a revoked one. */
  maybeProxy(target, path) {
    const r = this.r;
    const roll = r.next();
    if (roll < 0.025) {
      this.mustError.push({
        names: ancestors(path),
        types: [TypeError],
        why: `${path} is a revoked Proxy`,
        requires: [path],
      });
      this.note(`revoked-proxy ${path}`);
      this.fuzz.count('proxies', 'revoked');
      return revoked(target);
    }
    if (roll > 0.1) return target;
    const fickle = r.chance(0.5);
    const handle = { label: `Proxy ${path}`, counts: new Map() };
    this.handles.push(handle);
    this.note(`proxy${fickle ? '-fickle' : ''} ${path}`);
    this.fuzz.count('proxies', fickle ? 'fickle' : 'logging');
    const count = (trap, key) => {
      const k = `${trap} ${String(key)}`;
      handle.counts.set(k, (handle.counts.get(k) ?? 0) + 1);
      return handle.counts.get(k);
    };
    return new Proxy(target, {
      get(t, key, receiver) {
        const n = count('get', key);
        const value = Reflect.get(t, key, receiver);
        return fickle && n > 1 && key !== 'length' ? alternative(value) : value;
      },
      ownKeys(t) {
        count('ownKeys', '');
        return Reflect.ownKeys(t);
      },
      getOwnPropertyDescriptor(t, key) {
        count('getOwnPropertyDescriptor', key);
        return Reflect.getOwnPropertyDescriptor(t, key);
      },
      has(t, key) {
        count('has', key);
        return Reflect.has(t, key);
      },
      getPrototypeOf(t) {
        count('getPrototypeOf', '');
        return Reflect.getPrototypeOf(t);
      },
    });
  }

  /** An accessor for `path` returning `value`, with one GETTER_EFFECTS effect on its first run. */
  getter(path, value) {
    const effect = this.r.weighted([
      [4, 'log'],
      [2, 'fickle'],
      [1, 'throw'],
      [2, 'freeUsed'],
      [1, 'freeBystander'],
      [this.fuzz.mayGrow() ? 2 : 0, 'grow'],
      [1, 'detach'],
      [1, 'shrinkList'],
    ]);
    const handle = { label: `getter ${path} (${effect})`, counts: new Map([['get', 0]]) };
    this.handles.push(handle);
    this.fuzz.count('getters', effect);
    const run = GETTER_EFFECTS[effect](this, path);
    this.note(`getter-${effect} ${path}${run.detail ? ` ${run.detail}` : ''}`);
    return () => {
      const n = handle.counts.get('get') + 1;
      handle.counts.set('get', n);
      this.fuzz.count('getter runs', effect);
      if (n === 1) run.first();
      return effect === 'fickle' && n > 1 ? alternative(value) : value;
    };
  }

  /** An element getter that cuts its own list right after itself (or before) when read. */
  shrinkingGetter(path, array, index, list) {
    const handle = { label: `getter ${path} (shrinks its list)`, counts: new Map([['get', 0]]) };
    this.handles.push(handle);
    this.fuzz.count('getters', 'shrinkOwnList');
    const length = this.r.int(0, index + 1);
    this.note(`getter-shrink ${path} (cuts ${list.path} to ${length})`);
    return () => {
      const n = handle.counts.get('get') + 1;
      handle.counts.set('get', n);
      if (n === 1) {
        array.length = length;
        if (index < list.values.length - 1) this.events.push({ type: 'shrink', path: list.path });
      }
      return list.values[index];
    };
  }
}

const INHERITED = Symbol('keys inherited through Object.create');

// ---- where an array lives: one small generator per kind ---------------------------------------------
// Each makes the object passed for `spec` in `call` (raw views are made last, by finishViews).

const ARRAY_KINDS = {
  /** A JS Float32Array. */
  js(call, spec) {
    const value = Float32Array.from(spec.data);
    call.backs(value.buffer, spec.name);
    return call.remember(spec, value, { kind: 'js' });
  },

  /** A WasmArray. */
  wasm(call, spec) {
    const w = call.own(call.posenc.allocate(spec.data));
    call.uses(w, spec.name);
    return call.remember(spec, w, { kind: 'wasm', holder: w });
  },

  /** A Float32Array view inside a live WasmArray, a few elements in: used in place. */
  view(call, spec, plain) {
    const { r } = call;
    const before = plain ? 1 : r.int(0, 3);
    const holder = call.own(call.posenc.allocate(spec.length + before + (plain ? 1 : r.int(0, 3))));
    holder.set(spec.data, before);
    call.uses(holder, spec.name);
    return call.viewLater(spec, { kind: 'view', holder, element: before });
  },

  /** A window (subarray) of a live WasmArray, a few elements in: used in place. */
  window(call, spec, plain) {
    const { r } = call;
    const before = plain ? 1 : r.int(0, 3);
    const holder = call.own(call.posenc.allocate(spec.length + before + (plain ? 1 : r.int(0, 3))));
    holder.set(spec.data, before);
    call.uses(holder, spec.name);
    const window = holder.subarray(before, before + spec.length);
    return call.remember(spec, window, { kind: 'window', holder, element: before });
  },

  /**
   * Hostile: a window whose WasmArray was freed (maybe with another allocated at once in its
   * place), or a window retired by its own free().
   */
  freedWindow(call, spec) {
    const { r } = call;
    const holder = call.posenc.allocate(spec.length + 2);
    const window = holder.subarray(1, 1 + spec.length);
    if (r.chance(0.5)) {
      holder.free();
      if (r.chance(0.5)) call.bystander(Float32Array.from({ length: spec.length + 2 }, (_, i) => 700 + i));
      call.refused(spec, 'is a window whose WasmArray was freed', 'freed-window');
    } else {
      call.own(holder);
      window.free();
      call.refused(spec, 'is a retired window', 'retired-window');
    }
    return call.remember(spec, window, { kind: 'freedWindow' });
  },

  /** Hostile: a view of the module's static data (byte 4096 on). */
  static(call, spec) {
    if (spec.length > 4096) return ARRAY_KINDS.straddle(call, Object.assign(spec, { kind: 'straddle' }));
    call.refused(spec, 'is a view of static data', 'raw-view-static');
    return call.viewLater(spec, { kind: 'static', byteOffset: 4096 });
  },

  /** Hostile: a view that starts in a live WasmArray and runs past its end. */
  straddle(call, spec) {
    if (spec.length < 2) return ARRAY_KINDS.static(call, Object.assign(spec, { kind: 'static' }));
    const holder = call.own(call.posenc.allocate(spec.length - 1));
    call.uses(holder, spec.name);
    call.refused(spec, 'runs past the end of a WasmArray', 'raw-view-straddling');
    return call.viewLater(spec, { kind: 'straddle', holder, element: 0 });
  },

  /** Hostile: a view of a WasmArray kept after its free(). */
  stale(call, spec) {
    call.noReallocation = true; // a WasmArray reallocated there would make the view live again
    call.rawViews.add(spec.name);
    call.refused(spec, 'is a view kept after free()', 'raw-view-stale');
    const slot = { kind: 'stale' };
    call.pendingStale.push([spec.name, slot, spec.length]);
    return call.remember(spec, null, slot);
  },

  /** Hostile: a JS Float32Array whose buffer was transferred away. */
  detached(call, spec) {
    call.refused(spec, 'is detached', 'detached');
    return call.remember(spec, detach(Float32Array.from(spec.data)), { kind: 'detached' });
  },

  /** A wrong type (the same in the plain call, whose error is then the expected one). */
  wrong(call, spec, plain) {
    const makers = [
      () => new Float64Array(spec.length),
      () => Array.from(spec.data),
      () => null,
      () => 'x'.repeat(spec.length),
      () => new Int32Array(spec.length),
      () => ({ length: spec.length }),
      () => Object.create(Float32Array.prototype),
      () => revoked(new Float32Array(spec.length)),
      () => new Proxy(new Float32Array(spec.length), {}),
    ];
    spec.wrongPick ??= call.r.int(0, makers.length - 1);
    if (!plain) call.note(`wrong-type ${spec.name}`);
    return call.remember(spec, makers[spec.wrongPick](), { kind: 'wrong' });
  },

  /** An output that is its input (the same object, or a second view of the same range): in place. */
  alias(call, spec, plain) {
    const partner = spec.aliasOf.name;
    const slot = call.where.get(partner);
    if (!plain) call.note(`in-place ${spec.name}=${partner}`);
    for (const names of [...call.usedWasm.values(), ...call.jsBuffers.values()])
      if (names.includes(partner)) names.push(spec.name);
    if (slot.kind === 'view') return call.viewLater(spec, slot);
    if (slot.kind === 'window' && call.r.chance(0.5)) {
      // another window over the same range: in place as well
      const window = slot.holder.subarray(slot.element, slot.element + spec.length);
      return call.remember(spec, window, { ...slot, aliasOf: partner });
    }
    return call.remember(spec, call.values.get(partner), { ...slot, aliasOf: partner });
  },

  /** Hostile: an output partly overlapping an earlier array (in one JS buffer or one WasmArray). */
  overlap(call, spec, plain) {
    const partner = spec.overlapWith;
    const shift = call.r.int(1, Math.max(1, Math.min(partner.length, spec.length) - 1));
    const partnerSlot = call.where.get(partner.name);
    const inWasm = partnerSlot.kind === 'view' || partnerSlot.kind === 'window';
    const fits = !inWasm || partnerSlot.element + shift + spec.length <= partnerSlot.holder.length;
    if (Math.min(partner.length, spec.length) < 2 || !fits) {
      spec.kind = 'js'; // one element cannot overlap partly; or no room in the block
      return ARRAY_KINDS.js(call, spec, plain);
    }
    call.mustError.push({
      names: call.call.arrays.map((s) => s.name),
      types: [RangeError],
      why: `${spec.name} partly overlaps ${partner.name}`,
      requires: [spec.name, partner.name],
    });
    call.note(`overlap ${spec.name}/${partner.name}`);
    if (partnerSlot.kind === 'view') {
      call.uses(partnerSlot.holder, spec.name);
      return call.viewLater(spec, { kind: 'view', holder: partnerSlot.holder, element: partnerSlot.element + shift });
    }
    if (partnerSlot.kind === 'window') {
      const { holder } = partnerSlot;
      const element = partnerSlot.element + shift;
      call.uses(holder, spec.name);
      return call.remember(spec, holder.subarray(element, element + spec.length), { kind: 'window', holder, element });
    }
    // Both in one new JS buffer: the partner at 0, this `shift` elements on.
    const partnerValue = call.values.get(partner.name);
    const buffer = new Float32Array(Math.max(partner.length, shift + spec.length));
    buffer.set(partnerValue);
    call.values.set(partner.name, new Float32Array(buffer.buffer, 0, partner.length));
    call.jsBuffers.delete(partnerValue.buffer);
    call.backs(buffer.buffer, partner.name);
    call.backs(buffer.buffer, spec.name);
    return call.remember(spec, new Float32Array(buffer.buffer, shift * 4, spec.length), { kind: 'js' });
  },
};

// ---- what a hostile getter does on its first run: one small generator per effect --------------------
// Each returns { detail, first } for a getter of `path` in `call`; events record what happened.

const NOTHING = { first: () => {} };

const GETTER_EFFECTS = {
  /** Only logs its runs (counted by the getter itself). */
  log: () => NOTHING,

  /** Answers the value first, something else on later runs (see HostileCall.getter). */
  fickle: () => NOTHING,

  /** Throws an Error, or a number. */
  throw(call, path) {
    const thrown = call.r.chance(0.7) ? new Error(`thrown by the getter of ${path}`) : 42;
    return {
      first: () => {
        call.events.push({ type: 'throw', path, thrown });
        throw thrown;
      },
    };
  },

  /** Frees a WasmArray the call uses; maybe allocates another one at once (at its address). */
  freeUsed(call) {
    const targets = [...call.usedWasm.keys()];
    if (targets.length === 0) return NOTHING;
    const target = call.r.pick(targets);
    const reallocate = !call.noReallocation && call.r.chance(0.5);
    return {
      detail: `(frees ${call.usedWasm.get(target).join('/')}${reallocate ? ', reallocates' : ''})`,
      first: () => {
        if (target.freed) return;
        const names = call.usedWasm.get(target);
        // A WasmArray allocated where a raw view's block was would make the view live again
        // (indistinguishable from a fresh view of it): no reallocation after that.
        if (names.some((name) => call.rawViews.has(name))) call.noReallocation = true;
        target.free();
        call.fuzz.count('inside getters', 'frees');
        call.events.push({ type: 'free', names: [...names] });
        if (reallocate && !call.noReallocation)
          call.bystander(Float32Array.from({ length: target.length }, (_, i) => 500 + i));
      },
    };
  },

  /** Frees a live WasmArray the call does not use. */
  freeBystander(call) {
    const targets = [...call.bystanders.keys()];
    if (targets.length === 0) return NOTHING;
    const target = call.r.pick(targets);
    return {
      detail: '(frees a bystander)',
      first: () => {
        if (target.freed) return;
        call.bystanders.delete(target);
        target.free();
        call.fuzz.count('inside getters', 'frees');
        call.events.push({ type: 'free', names: [] });
      },
    };
  },

  /** Grows the WASM memory (within the run's budget): every raw view is detached. */
  grow(call) {
    return {
      first: () => {
        if (!call.fuzz.mayGrow()) return;
        call.fuzz.growths++;
        growMemory(call.posenc);
        call.fuzz.count('inside getters', 'memory growths');
        call.events.push({ type: 'grow' });
      },
    };
  },

  /** Detaches the buffer of a JS array the call uses. */
  detach(call) {
    const buffers = [...call.jsBuffers.keys()];
    if (buffers.length === 0) return NOTHING;
    const buffer = call.r.pick(buffers);
    return {
      detail: `(detaches ${call.jsBuffers.get(buffer).join('/')})`,
      first: () => {
        if (buffer.byteLength === 0) return;
        structuredClone(buffer, { transfer: [buffer] });
        call.events.push({ type: 'detach', names: [...call.jsBuffers.get(buffer)] });
      },
    };
  },

  /** Cuts a list of the call (positions, offsets, factors, values) short. */
  shrinkList(call) {
    if (call.lists.length === 0) return NOTHING;
    const { list, array } = call.r.pick(call.lists);
    const length = call.r.int(0, Math.max(0, list.values.length - 1));
    return {
      detail: `(cuts ${list.path} to ${length})`,
      first: () => {
        array.length = length;
        call.events.push({ type: 'shrink', path: list.path });
      },
    };
  },
};

// ---- running one call and checking it ------------------------------------------------------------

function outcome(run) {
  try {
    return { returned: run() };
  } catch (error) {
    return { error };
  }
}

function describeError(error) {
  if (error === undefined) return 'no error';
  if (!(error instanceof Error)) return `a thrown ${typeof error} ${String(error)}`;
  return `${error.constructor.name} [parameter ${JSON.stringify(error.parameter)}]: ${error.message}`;
}

/** The results to compare: output arrays (read through their holders) and resultOf values. */
function results(call, hostile, returned) {
  const values = {};
  for (const name of call.outputs) values[name] = hostile.read(name);
  Object.assign(values, call.resultOf(returned, hostile));
  return values;
}

/** First difference between two result sets, or null. */
function compareResults(actual, expected) {
  for (const key of Object.keys(expected)) {
    const a = actual[key];
    const e = expected[key];
    if (ArrayBuffer.isView(e)) {
      if (!ArrayBuffer.isView(a) || a.length !== e.length)
        return `${key}: ${a?.length ?? a} values instead of ${e.length}`;
      for (let i = 0; i < e.length; i++) {
        if (!Object.is(a[i], e[i])) return `${key}[${i}]: ${a[i]} instead of ${e[i]}`;
      }
    } else if (!Object.is(a, e)) {
      return `${key}: ${a} instead of ${e}`;
    }
  }
  return null;
}

/** Is `error` a posenc argument error of `fn` (any parameter)? Returns what is wrong, or null. */
function posencErrorProblem(error, fn) {
  if (!(error instanceof TypeError || error instanceof RangeError))
    return `not a TypeError/RangeError: ${describeError(error)}`;
  if (typeof error.parameter !== 'string' || error.parameter === '')
    return `no error.parameter: ${describeError(error)}`;
  if (!error.message.startsWith(`posenc.${fn}: `))
    return `message does not start with "posenc.${fn}: ": ${describeError(error)}`;
  if (error.parameter !== 'this' && !error.message.includes(error.parameter))
    return `message does not name ${error.parameter}: ${describeError(error)}`;
  return null;
}

const matches = (error, entry) =>
  entry.names.includes(error.parameter) && entry.types.some((type) => error instanceof type);

/**
 * Runs one call twice -- plain, then hostile -- and applies oracles 1-3. `call` comes from an
 * OPERATIONS generator (or the plan routine). Options: the plain call's own invoke and options
 * (plans are checked against rope()), extra oracle-1 checks, and an error that must be thrown
 * whatever else happens (a freed plan). Returns the hostile call, its outcome and the problems.
 */
function runCall(
  fuzz,
  r,
  call,
  label,
  { cleanInvoke = call.invoke, cleanOptions = null, extraChecks = null, expectError = null } = {},
) {
  const { posenc } = fuzz;
  fuzz.count('calls', label);
  call.arrays = [...call.positional.filter((p) => p instanceof ArraySpec), ...collectArrays(call.options)];
  const hostile = new HostileCall(fuzz, r, call, label);
  hostile.decideKinds(call.arrays);
  hostile.decideInheritance(call.options, 'options');
  hostile.used = reachableNames(call);
  const options0 = call.options;
  const hasOut =
    options0 !== null && typeof options0 === 'object' && options0.out !== undefined && !options0[INHERITED]?.has('out');
  Object.assign(call, { outputs: [], returns: null, resultOf: () => ({}), identity: null }, call.results(hasOut));

  // 1. The plain call: fresh arrays of the same kinds, own options only as plain values.
  const plainCall = new HostileCall(fuzz, r, call, label);
  for (const spec of call.arrays) plainCall.materialize(spec, true);
  plainCall.finishViews();
  const plainPositional = call.positional.map((p) => plainCall.plain(p));
  const plainOptions = cleanOptions ? cleanOptions(plainCall) : plainCall.plain(call.options);
  const clean = outcome(() => cleanInvoke(posenc, plainPositional, plainOptions));
  const cleanResults = clean.error === undefined ? results(call, plainCall, clean.returned) : null;
  for (const w of plainCall.owned) if (!w.freed) w.free();

  // 2. The hostile call: bystanders, arrays, raw views (last: nothing moves them), then the
  //    option trees with their getters and traps, maybe Object.prototype polluted meanwhile.
  for (
    let i = r.weighted([
      [3, 0],
      [2, 1],
      [1, 2],
    ]);
    i > 0;
    i--
  )
    hostile.bystander(r.floats(r.int(1, 12)));
  for (const spec of call.arrays) hostile.materialize(spec, false);
  hostile.finishViews();
  const positional = call.positional.map((p) => (p instanceof ListSpec ? hostile.hostile(p, p.path) : p));
  const options = call.noOptions ? undefined : hostile.hostile(call.options, 'options');
  hostile.optionsObject = options;
  const pollution = r.chance(0.08) ? [r.pick(POLLUTION_KEYS), r.pick(POLLUTION_VALUES)] : null;
  if (pollution) {
    hostile.note(`pollution Object.prototype.${pollution[0]}`);
    fuzz.count('pollutions', pollution[0]);
  }
  const snapshot = snapshotMemory(hostile);
  const args = call.positional.map((spec, i) =>
    spec instanceof ArraySpec ? hostile.values.get(spec.name) : positional[i],
  );
  const invoke = () => call.invoke(posenc, args, options);
  const got = pollution ? withPollution(pollution[0], pollution[1], () => outcome(invoke)) : outcome(invoke);
  if (got.returned instanceof WasmArray && call.fn === 'allocate') hostile.adopt(got.returned);
  if (got.error === undefined) {
    fuzz.count('successes', label);
  } else {
    fuzz.count('errors by parameter', got.error?.parameter ?? `(${got.error?.constructor?.name ?? typeof got.error})`);
  }

  const problems = [];
  const problem = (oracle, message) => problems.push({ oracle, message });
  // Oracle 1: every getter and trap at most once.
  for (const handle of hostile.handles) {
    for (const [key, runs] of handle.counts) if (runs > 1) problem(1, `${handle.label}: ${key} ran ${runs} times`);
  }
  if (extraChecks) for (const message of extraChecks()) problem(1, message);

  // Oracle 2: the error an ingredient calls for, or the plain call's outcome. Ingredients under
  // inherited keys do not count: posenc never reads those.
  const { used } = hostile;
  const must = hostile.mustError.filter((entry) => entry.requires.every((name) => used.has(name)));
  const usedOnly = (names) => names.filter((name) => used.has(name));
  for (const event of hostile.events) {
    if (event.type === 'throw')
      must.push({
        names: ancestors(event.path),
        types: [TypeError],
        why: `the getter of ${event.path} threw`,
        thrown: event.thrown,
      });
    if (event.type === 'free' && usedOnly(event.names).length)
      must.push({ names: usedOnly(event.names), types: [RangeError], why: `a getter freed ${event.names.join('/')}` });
    if (event.type === 'detach' && usedOnly(event.names).length)
      must.push({
        names: usedOnly(event.names),
        types: [RangeError],
        why: `a getter detached ${event.names.join('/')}`,
      });
    if (event.type === 'grow' && usedOnly([...hostile.rawViews]).length)
      must.push({
        names: usedOnly([...hostile.rawViews]),
        types: [RangeError],
        why: 'a getter grew memory: the raw views are detached',
      });
  }
  const may = hostile.events
    .filter((e) => e.type === 'shrink')
    .map((e) => ({
      names: [e.path, ...Array.from({ length: 64 }, (_, i) => `${e.path}[${i}]`)],
      types: [TypeError, RangeError],
      why: `${e.path} was cut short`,
    }));
  const describeEntry = (e) =>
    `${e.types.map((t) => t.name).join('/')} naming ${e.names.slice(0, 3).join('|')} (${e.why})`;
  if (clean.error !== undefined) {
    const plainProblem = posencErrorProblem(clean.error, call.cleanFn ?? call.fn);
    if (plainProblem) problem(2, `the plain call: ${plainProblem}`);
  }
  const cleanEntry =
    clean.error instanceof Error
      ? { names: [clean.error.parameter], types: [clean.error.constructor], why: 'the plain call fails so' }
      : null;
  if (got.error !== undefined) {
    const shape = posencErrorProblem(got.error, call.fn);
    const allowed = expectError ? [expectError] : [...must, ...may, ...(cleanEntry ? [cleanEntry] : [])];
    if (shape) {
      if (!(clean.error instanceof Error && got.error instanceof Error && clean.error.message === got.error.message))
        problem(2, shape);
    } else if (allowed.length === 0) {
      problem(2, `${describeError(got.error)}; the plain call succeeded`);
    } else {
      const hit = allowed.find((entry) => matches(got.error, entry));
      if (!hit) problem(2, `${describeError(got.error)}; expected ${allowed.map(describeEntry).join('; or ')}`);
      else if (hit.thrown !== undefined && got.error.cause !== hit.thrown)
        problem(2, `${describeError(got.error)}: error.cause is not what the getter threw`);
    }
  } else if (expectError || must.length) {
    problem(2, `returned; expected ${(expectError ? [expectError] : must).map(describeEntry).join('; or ')}`);
  } else if (clean.error !== undefined) {
    // A list cut short before posenc read it can make a call with a wrong-length list valid:
    // then posenc computed from what it read, which the plain call never had.
    if (may.length === 0) problem(2, `returned; the plain call gave ${describeError(clean.error)}`);
  } else {
    const difference = compareResults(results(call, hostile, got.returned), cleanResults);
    if (difference) problem(2, `the result differs from the plain call's: ${difference}`);
    if (call.returns && got.returned !== hostile.values.get(call.returns))
      problem(2, `did not return ${call.returns} itself`);
    if (call.identity) {
      for (const [name, actual, expected] of call.identity(got.returned, (n) => hostile.values.get(n))) {
        if (actual !== expected) problem(2, `result.${name} is not the array given`);
      }
    }
  }

  // Oracle 3: nothing else changed.
  for (const message of checkMemory(hostile, snapshot, got.error !== undefined)) problem(3, message);
  return { hostile, problems, outcome: got, clean };
}

/**
 * What posenc will read: the names of the arrays and the paths of the objects and lists that are
 * reachable through own keys (Object.create's inherited keys are not).
 */
function reachableNames(call) {
  const names = new Set(['options']);
  const walk = (node, path) => {
    if (node instanceof ArraySpec) names.add(node.name);
    else if (node instanceof ListSpec) names.add(node.path);
    else if (node !== null && typeof node === 'object' && !Array.isArray(node)) {
      names.add(path);
      for (const key of Object.keys(node))
        if (!node[INHERITED]?.has(key)) walk(node[key], path === 'options' ? key : `${path}.${key}`);
    }
  };
  for (const p of call.positional) walk(p, p instanceof ListSpec ? p.path : 'options');
  if (!call.noOptions) walk(call.options, 'options');
  return names;
}

/** Every array spec inside an option tree. */
function collectArrays(node) {
  if (node instanceof ArraySpec) return [node];
  if (node !== null && typeof node === 'object' && !(node instanceof ListSpec) && !Array.isArray(node)) {
    return Object.values(node).flatMap(collectArrays);
  }
  return [];
}

/** Contents of every fuzzer-owned WasmArray and JS array of the call, before it runs. */
function snapshotMemory(hostile) {
  const wasm = new Map();
  for (const w of [...hostile.owned, ...hostile.bystanders.keys()]) if (!w.freed) wasm.set(w, w.toArray());
  const js = new Map();
  for (const spec of hostile.call.arrays) {
    const value = hostile.values.get(spec.name);
    const slot = hostile.where.get(spec.name);
    if (slot.kind === 'js' && value instanceof Float32Array)
      js.set(spec.name, Float32Array.prototype.slice.call(value));
  }
  return { wasm, js };
}

function checkMemory(hostile, snapshot, failed) {
  const problems = [];
  // Output ranges (only when the call succeeded): [WasmArray, first element, end].
  const outputs = [];
  const outputNames = new Set(failed ? [] : hostile.call.outputs);
  for (const name of [...outputNames]) {
    const aliasOf = hostile.where.get(name)?.aliasOf;
    if (aliasOf) outputNames.add(aliasOf);
  }
  for (const name of outputNames) {
    const slot = hostile.where.get(name);
    if (slot?.holder && slot.kind !== 'straddle') {
      const length = hostile.call.arrays.find((s) => s.name === name).length;
      outputs.push([
        slot.holder,
        slot.kind === 'wasm' ? 0 : slot.element,
        (slot.kind === 'wasm' ? 0 : slot.element) + length,
      ]);
    }
  }
  for (const [w, before] of snapshot.wasm) {
    if (w.freed) continue;
    const after = w.toArray();
    for (let i = 0; i < before.length; i++) {
      if (Object.is(after[i], before[i])) continue;
      if (outputs.some(([holder, start, end]) => holder === w && i >= start && i < end)) continue;
      const who = hostile.bystanders.has(w)
        ? 'a bystander WasmArray'
        : `the WasmArray behind ${(hostile.usedWasm.get(w) ?? ['?']).join('/')}`;
      problems.push(
        `${who} (at ${w.address}) changed at [${i}]: ${before[i]} -> ${after[i]}${failed ? ' (the call threw)' : ''}`,
      );
      break;
    }
  }
  for (const [w, expected] of hostile.bystanders) {
    if (w.freed || snapshot.wasm.has(w)) continue;
    // Allocated by a getter during the call (at a freed address, likely).
    const after = w.toArray();
    const i = after.findIndex((v, j) => !Object.is(v, expected[j]));
    if (i >= 0)
      problems.push(
        `the WasmArray a getter allocated at ${w.address} (freed memory) changed at [${i}]: ${expected[i]} -> ${after[i]}`,
      );
  }
  const sharesWithOutput = (name) =>
    [...hostile.jsBuffers.values()].some((names) => names.includes(name) && names.some((n) => outputNames.has(n)));
  for (const [name, before] of snapshot.js) {
    if (outputNames.has(name) || sharesWithOutput(name)) continue;
    const value = hostile.values.get(name);
    if (!(value instanceof Float32Array) || value.length === 0) continue;
    const i = before.findIndex((v, j) => !Object.is(v, value[j]));
    if (i >= 0)
      problems.push(
        `JS array ${name} (not an output${failed ? '; the call threw' : ''}) changed at [${i}]: ${before[i]} -> ${value[i]}`,
      );
  }
  return problems;
}

// ---- plans: ropePlan, then apply / applyQK / free ----------------------------------------------------

const PLAN_PROPERTIES = [
  'seqLen',
  'numHeads',
  'numKvHeads',
  'headDim',
  'rotaryDim',
  'batch',
  'layout',
  'order',
  'attentionFactor',
];

/**
 * A plan made with hostile options (checked against a plan made with plain ones), then used 1-3
 * times -- apply or applyQK, each checked against rope()/ropeQK() with the plan's plain options
 * and the apply options -- sometimes after the options object was mutated or the plan freed.
 */
function fuzzPlan(fuzz, r) {
  const shape = ropeShape(r);
  const planSpec = {
    ...ropeOptions(r, shape),
    ...(r.chance(0.4) ? { numKvHeads: r.int(1, shape.numHeads) } : {}),
    ...(r.chance(0.25) ? { xpos: xposOptions(r, false) } : {}),
  };
  const plans = [];
  const planCall = {
    fn: 'ropePlan',
    positional: [],
    options: spoil(r, planSpec),
    invoke: (posenc, _positional, o) => {
      const plan = posenc.ropePlan(o);
      plans.push(plan);
      return plan;
    },
    results: () => ({ resultOf: (plan) => Object.fromEntries(PLAN_PROPERTIES.map((key) => [key, plan[key]])) }),
  };
  const made = runCall(fuzz, r, planCall, 'ropePlan');
  const problems = made.problems.map((p) => ({ ...p, call: 'ropePlan', ingredients: made.hostile.ingredients }));
  const plan = made.outcome.returned;
  // The plan's getters and traps: none may run again once the plan is made.
  const runsOf = () => made.hostile.handles.map((h) => [...h.counts.values()].reduce((a, b) => a + b, 0));
  if (plan && made.clean.error === undefined) {
    for (let use = r.int(1, 3); use > 0; use--) {
      if (r.chance(0.3)) mutate(r, made.hostile.optionsObject, fuzz);
      const freedPlan = r.chance(0.06);
      if (freedPlan) {
        plan.free();
        fuzz.count('ingredients', 'freed-plan');
      }
      // A plan with xPos is used through applyQK, whose roles are implied: apply()'s role has no
      // plain-call twin (rope names xpos.role), so its rules are errors.test.js's.
      const qk = planSpec.xpos !== undefined || r.chance(0.35);
      const vectors = shape.batch * shape.seqLen * shape.headDim;
      const kvHeads = planSpec.numKvHeads ?? shape.numHeads;
      const x = new ArraySpec(qk ? 'q' : 'x', vectors * shape.numHeads, 'inout', r);
      const k = qk ? new ArraySpec('k', vectors * kvHeads, 'inout', r) : null;
      let out;
      if (r.chance(0.35)) {
        out = qk
          ? { q: new ArraySpec('out.q', x.length, 'out', r), k: new ArraySpec('out.k', k.length, 'out', r) }
          : new ArraySpec('out', x.length, 'out', r);
        x.role = 'in';
        if (k) k.role = 'in';
      }
      const applyOptions = defined({ ...where(r, shape.batch * shape.seqLen, shape.batch), out });
      const fn = qk ? 'RopePlan.applyQK' : 'RopePlan.apply';
      const applyCall = {
        fn,
        cleanFn: qk ? 'ropeQK' : 'rope',
        positional: qk ? [x, k] : [x],
        options: applyOptions,
        invoke: (_posenc, args, o) => (qk ? plan.applyQK(args[0], args[1], o) : plan.apply(args[0], o)),
        results: qk ? qkResults : (hasOut) => ({ outputs: [hasOut ? 'out' : 'x'], returns: hasOut ? 'out' : 'x' }),
      };
      const before = runsOf();
      const applied = runCall(fuzz, r, applyCall, fn, {
        cleanInvoke: (posenc, args, o) => (qk ? posenc.ropeQK(args[0], args[1], o) : posenc.rope(args[0], o)),
        cleanOptions: (plainCall) => {
          const merged = { ...plainCall.plain(planCall.options), ...plainCall.plain(applyOptions) };
          if (!qk) delete merged.numKvHeads;
          return merged;
        },
        extraChecks: () => {
          const after = runsOf();
          return made.hostile.handles.flatMap((h, i) =>
            after[i] !== before[i] ? [`${h.label} (of the plan's options) ran during ${fn}`] : [],
          );
        },
        expectError: freedPlan ? { names: ['this'], types: [RangeError], why: 'the plan was freed' } : null,
      });
      problems.push(...applied.problems.map((p) => ({ ...p, call: fn, ingredients: applied.hostile.ingredients })));
      for (const w of [...applied.hostile.owned, ...applied.hostile.bystanders.keys()]) if (!w.freed) w.free();
      if (freedPlan) break;
    }
  }
  for (const w of [...made.hostile.owned, ...made.hostile.bystanders.keys()]) if (!w.freed) w.free();
  for (const p of plans) p.free();
  return problems;
}

/** Assigns other values to what the plan was made from (where the object lets us). */
function mutate(r, target, fuzz) {
  if (target === null || typeof target !== 'object') return;
  fuzz.count('ingredients', 'plan-options-mutated');
  for (const key of ['seqLen', 'headDim', 'base', 'layout', 'inverse', 'numHeads', 'rotaryDim']) {
    try {
      Reflect.set(target, key, r.pick([1, 2, 'half', true, 999]));
    } catch {
      // a revoked Proxy: nothing to mutate
    }
  }
  try {
    const scaling = Reflect.get(target, 'scaling');
    if (scaling && typeof scaling === 'object') Reflect.set(scaling, 'factor', 64);
  } catch {
    // as above
  }
}

// ---- the loop --------------------------------------------------------------------------------------

class Fuzz {
  constructor(posenc, iterations) {
    this.posenc = posenc;
    this.iterations = iterations;
    this.iteration = 0;
    this.growths = 0;
    this.counts = new Map();
    this.current = null; // the operation and ingredients of the iteration under way
  }

  /** Growth budget: MAX_GROWTHS, evenly spread over the run. */
  mayGrow() {
    return this.growths < MAX_GROWTHS && this.iteration >= (this.growths * this.iterations) / MAX_GROWTHS;
  }

  count(group, key) {
    if (!this.counts.has(group)) this.counts.set(group, new Map());
    const table = this.counts.get(group);
    table.set(key, (table.get(key) ?? 0) + 1);
  }

  report() {
    return [...this.counts].map(
      ([group, table]) =>
        `${group}: ${[...table]
          .sort((a, b) => b[1] - a[1])
          .map(([k, n]) => `${k} ${n}`)
          .join(', ')}`,
    );
  }
}

/** The generator of one iteration's call(s): a plan routine or one operation. */
function runIteration(fuzz, r) {
  const op = r.weighted(
    [
      [2, 'sinusoidal'],
      [1, 'addSinusoidal'],
      [1, 'positionNumbers'],
      [1, 'ropeFrequencies'],
      [1, 'ropeSchedule'],
      [2, 'ropeCache'],
      [4, 'rope'],
      [2, 'ropeQK'],
      [2, 'ropeXpos'],
      [1, 'ropeQKXpos'],
      [2, 'ropePlan'],
      [1, 'convertLayout'],
      [1, 'convertLayoutWeights'],
      [1, 'similarity'],
      [1, 'mropePositions'],
      [1, 'allocate'],
      [1, 'WasmArray.set'],
      [1, 'alibiSlopes'],
      [1, 'alibiBias'],
      [1, 'relativePositionBuckets'],
      [1, 'attentionScores'],
    ].filter(([, name]) => OPS === null || OPS.includes(name)),
  );
  fuzz.current = { call: op, ingredients: [] };
  if (op === 'ropePlan') return fuzzPlan(fuzz, r);
  const call = OPERATIONS[op](r);
  call.options = spoil(r, call.options);
  const { hostile, problems } = runCall(fuzz, r, call, op);
  for (const w of [...hostile.owned, ...hostile.bystanders.keys()]) if (!w.freed) w.free();
  return problems.map((p) => ({ ...p, call: op, ingredients: hostile.ingredients }));
}

/** One call of every operation (errors ignored), so first-use allocations precede the probe. */
function warmUp(posenc) {
  const x = new Float32Array(4096 * 64);
  for (const call of [
    () => posenc.sinusoidal({ seqLen: 2, dModel: 4, positions: [1, 2] }),
    () => posenc.rope(x, { seqLen: 4096, headDim: 64 }),
    () => posenc.rope(posenc.allocate(8), { seqLen: 2, headDim: 4 }).free(),
    () => posenc.ropeQK(new Float32Array(8), new Float32Array(8), { seqLen: 2, headDim: 4 }),
    () =>
      posenc.ropeCache({
        seqLen: 2,
        rotaryDim: 4,
        scaling: {
          type: 'longrope',
          shortFactor: [1, 1],
          longFactor: [1, 1],
          originalMaxPositionEmbeddings: 2,
          factor: 2,
        },
      }),
    () => posenc.ropePlan({ seqLen: 2, headDim: 4 }).free(),
    () => posenc.similarity(new Float32Array(4), new Float32Array(4), { rows: 2, cols: 2, dim: 2 }),
    () => posenc.convertLayout(new Float32Array(4), { from: 'half', to: 'interleaved', headDim: 4 }),
    () => posenc.mropePositions({ segments: [{ text: 2 }, { image: [1, 2, 2] }] }),
    () => posenc.relativePositionBuckets({ queryLen: 2, keyLen: 2 }),
    () =>
      posenc.attentionScores(new Float32Array(2), new Float32Array(2), {
        queryLen: 1,
        keyLen: 1,
        headDim: 2,
        encoding: 'none',
      }),
  ]) {
    try {
      call();
    } catch {
      // only first-use allocations matter here
    }
  }
}

for (const shared of await loadBothVariants()) {
  describe(`seam fuzzer (${shared.variant})`, () => {
    it(`${ONLY === null ? ITERATIONS : 1} iterations of random calls with hostile ingredients: getters/traps once, posenc errors or the plain call's bits, nothing else touched, heap back where it started`, async (t) => {
      const posenc = await freshInstance(shared);
      const fuzz = new Fuzz(posenc, ONLY === null ? ITERATIONS : 1);
      warmUp(posenc);
      let baseline = heapProbe(posenc);
      const violations = [];
      const started = performance.now();
      let done = 0;
      let broken = null;
      const first = ONLY ?? 0;
      const last = ONLY ?? ITERATIONS - 1;
      let failing = 0;
      for (let i = first; i <= last && failing < MAX_FAILING_ITERATIONS && !broken; i++) {
        const seed = iterationSeed(i);
        fuzz.iteration = i - first;
        let problems;
        try {
          problems = runIteration(fuzz, chooser(seed));
        } catch (error) {
          if (process.env.POSENC_JS_FUZZ_DEBUG) console.error(error);
          problems = [{ oracle: 2, message: `the iteration threw: ${describeError(error)}`, ...fuzz.current }];
          if (error instanceof WebAssembly.RuntimeError) broken = error;
        }
        // Oracle 4: malloc as at the start; the instance still computing.
        const probe = outcome(() => heapProbe(posenc));
        if (probe.error) {
          problems.push({
            oracle: 4,
            message: `malloc is broken after the iteration: ${describeError(probe.error)}`,
            ...fuzz.current,
          });
          broken = probe.error;
        } else if (probe.returned.small !== baseline.small || probe.returned.large !== baseline.large) {
          problems.push({
            oracle: 4,
            message: `with every array and plan of the iteration freed, the heap probe moved: ${JSON.stringify(baseline)} -> ${JSON.stringify(probe.returned)} (a leak, or a write into freed memory)`,
            ...fuzz.current,
          });
          baseline = probe.returned; // report each move once
        }
        if (!broken && (i % CHECK_EVERY === CHECK_EVERY - 1 || i === last)) {
          const works = outcome(() => assertStillWorks(posenc, `iteration ${i}`));
          if (works.error) {
            problems.push({
              oracle: 4,
              message: `the instance no longer computes correctly: ${works.error.message}`,
              ...fuzz.current,
            });
            broken = works.error;
          }
        }
        for (const p of problems) fuzz.count('violations by oracle', `oracle ${p.oracle}`);
        for (const oracle of new Set(problems.map((p) => p.oracle))) {
          violations.push({ ...problems.find((p) => p.oracle === oracle), iteration: i });
        }
        if (problems.length) failing++;
        done++;
      }
      const seconds = (performance.now() - started) / 1000;
      t.diagnostic(
        `${posenc.variant}: ${done} iterations in ${seconds.toFixed(1)} s (seed ${SEED}), memory ${posenc.memoryBytes} bytes after ${fuzz.growths} forced growths`,
      );
      for (const line of fuzz.report()) t.diagnostic(`${posenc.variant} ${line}`);
      if (violations.length) {
        const describeViolation = (v) =>
          `oracle ${v.oracle} at iteration ${v.iteration} (replay: POSENC_JS_FUZZ_SEED=${SEED} POSENC_JS_FUZZ_ONLY=${v.iteration}) in ${v.call}` +
          `${v.ingredients.length ? ` [${v.ingredients.join('; ')}]` : ' [no hostile ingredient]'}: ${v.message}`;
        const firstPerOracle = [1, 2, 3, 4].map((o) => violations.find((v) => v.oracle === o)).filter(Boolean);
        for (const v of violations) t.diagnostic(`${posenc.variant} violation: ${describeViolation(v)}`);
        assert.fail(
          `${violations.length} violation(s)${broken ? `, the instance broke (${broken.message})` : ''}; first: ${describeViolation(violations[0])}\n` +
            `first of each oracle:\n${firstPerOracle.map(describeViolation).join('\n')}`,
        );
      }
    });
  });
}
