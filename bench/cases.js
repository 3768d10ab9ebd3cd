// The benchmark cases: sizes, targets, and how each variant runs one call. Two sections:
//   big-arrays  throughput on large arrays, variants copy, js, scalar, simd
//   per-call    the fixed cost of one call, rope at 1 ... 4096 rows (both layouts) through a
//               plan (apply, applyQK), rope() on a WasmArray and on a Float32Array, ropeQK()
//               without a plan, and a JS loop with a cos/sin table; a 16 × 16 sinusoidal table
//
// A case is { id, section, title, size, variants (names, in report order), targets, setup(),
// inPlace (watch the simd variant's WASM heap) }. Its setup() returns
//   check(result)               compares a variant's first result with the float64 reference
//   variants[name](instances)   makes variant `name` on the posenc instances { scalar, simd }:
//                               { run, result?, free? }; one without result() is not checked
// In-place variants are checked after their first call, from the initial input; later
// calls keep rotating/adding, which costs the same.
//
// Targets: { ratio: 'a/b', max } or { ratio: 'a/b', min }, a/b = median time of variant a over
// that of variant b (big arrays: on the SIMD build, 'simd/copy' or 'js/simd').
import { randomUniform as randomFloat32 } from '../widgets/random.js';
import {
  alibiSlopesReference,
  axisRopeReference,
  checkRope,
  inverseFrequencies,
  checkAddSinusoidal,
  checkAlibiBias,
  checkAttentionScores,
  checkRelativePositionBuckets,
  checkRopeCache,
  checkSimilarityDot,
  checkSinusoidal,
  ropeChecker,
  sinusoidalTable,
} from './reference.js';
import { HALF_FORMATS, patternsOf, widenAll } from './half-bits.js';
import { JS_ARRAY_CASES, JS_ARRAY_SECTION } from './js-array-cases.js';
import {
  addSinusoidalJs,
  alibiBiasJs,
  relativePositionBucketsJs,
  ropeBitsJs,
  ropeCacheBitsJs,
  ropeCacheJs,
  ropeJs,
  ropeTableJs,
  ropeWithTableJs,
  similarityDotJs,
  sinusoidalBitsJs,
  sinusoidalJs,
} from './js-baseline.js';

export const SECTIONS = ['big-arrays', 'per-call', 'attention', JS_ARRAY_SECTION];
export const BIG_ARRAY_VARIANTS = ['copy', 'js', 'scalar', 'simd'];

const ROPE_SHAPE = { seqLen: 2048, numHeads: 32, headDim: 128 };
const ROPE_LENGTH = ROPE_SHAPE.seqLen * ROPE_SHAPE.numHeads * ROPE_SHAPE.headDim;
const TABLE_SHAPE = { seqLen: 8192, dModel: 1024 };
const TABLE_LENGTH = TABLE_SHAPE.seqLen * TABLE_SHAPE.dModel;

const atMostCopy = (max) => ({ ratio: 'simd/copy', max });
const fasterThanJs = (min) => ({ ratio: 'js/simd', min });

function mebibytes(elements, bytesPerElement = 4) {
  const bytes = elements * bytesPerElement;
  if (bytes < 2 ** 20) return `${bytes / 2 ** 10} KiB`;
  return `${(bytes / 2 ** 20).toFixed(bytes >= 2 ** 24 ? 0 : 1)} MiB`;
}

/**
 * The bandwidth limit: one TypedArray.prototype.set of a buffer of the output's size, in the
 * output's element type (Float32Array for any 4-byte elements, Uint16Array for 16-bit floats).
 */
function copyVariant(length, ArrayType = Float32Array) {
  const source = new ArrayType(length).fill(1);
  const target = new ArrayType(length);
  return { run: () => target.set(source) };
}

/**
 * The four variants of a big-array case: copy (of copyLength elements of copyType), js() (plain
 * JS), and posenc(p) on the scalar and on the SIMD build.
 */
function bigArrayVariants({ copyLength, copyType, js, posenc }) {
  return {
    copy: () => copyVariant(copyLength, copyType),
    js,
    scalar: ({ scalar }) => posenc(scalar),
    simd: ({ simd }) => posenc(simd),
  };
}

/** A case of the big-arrays section. */
function bigArrayCase(fields) {
  return { section: 'big-arrays', variants: BIG_ARRAY_VARIANTS, ...fields };
}

/** rope on x [2048, 32, 128], kept in WASM memory (a WasmArray) or in a JS Float32Array. */
function ropeCase({ id, title, options, wasmResident, targets, inPlace }) {
  const shape = `${ROPE_SHAPE.seqLen}×${ROPE_SHAPE.numHeads}×${ROPE_SHAPE.headDim}`;
  return bigArrayCase({
    id,
    title,
    size: `${shape} f32, ${mebibytes(ROPE_LENGTH)}`,
    targets,
    inPlace,
    setup() {
      const x0 = randomFloat32(ROPE_LENGTH, 1);
      return {
        check: ropeChecker(x0, options),
        variants: bigArrayVariants({
          copyLength: ROPE_LENGTH,
          js() {
            const x = x0.slice();
            return { run: () => ropeJs(x, options), result: () => x };
          },
          posenc(posenc) {
            if (!wasmResident) {
              const x = x0.slice();
              return { run: () => posenc.rope(x, options), result: () => x };
            }
            const x = posenc.allocate(x0);
            return { run: () => posenc.rope(x, options), result: () => x.view(), free: () => x.free() };
          },
        }),
      };
    },
  });
}

/** Packed batch: four documents of 512 tokens, positions restart at 0 for each. */
function packedPositions(seqLen, documentLength) {
  const positions = new Int32Array(seqLen);
  for (let t = 0; t < seqLen; t++) positions[t] = t % documentLength;
  return positions;
}

const sinusoidalCase = bigArrayCase({
  id: 'sinusoidal',
  title: 'sinusoidal table (out: WasmArray)',
  size: `${TABLE_SHAPE.seqLen}×${TABLE_SHAPE.dModel} f32, ${mebibytes(TABLE_LENGTH)}`,
  targets: [fasterThanJs(20)],
  inPlace: false,
  setup() {
    const table = sinusoidalTable(TABLE_SHAPE);
    return {
      check: (got) => checkSinusoidal(got, table),
      variants: bigArrayVariants({
        copyLength: TABLE_LENGTH,
        js() {
          const out = new Float32Array(TABLE_LENGTH);
          return { run: () => sinusoidalJs(out, TABLE_SHAPE), result: () => out };
        },
        posenc(posenc) {
          const out = posenc.allocate(TABLE_LENGTH);
          const options = { ...TABLE_SHAPE, out };
          return { run: () => posenc.sinusoidal(options), result: () => out.view(), free: () => out.free() };
        },
      }),
    };
  },
});

const addSinusoidalCase = bigArrayCase({
  id: 'addSinusoidal',
  title: 'addSinusoidal in place (WasmArray)',
  size: `${TABLE_SHAPE.seqLen}×${TABLE_SHAPE.dModel} f32, ${mebibytes(TABLE_LENGTH)}`,
  targets: [atMostCopy(2)],
  inPlace: true,
  setup() {
    const table = sinusoidalTable(TABLE_SHAPE);
    const x0 = randomFloat32(TABLE_LENGTH, 2);
    return {
      check: (got) => checkAddSinusoidal(got, x0, table),
      variants: bigArrayVariants({
        copyLength: TABLE_LENGTH,
        js() {
          const x = x0.slice();
          return { run: () => addSinusoidalJs(x, TABLE_SHAPE), result: () => x };
        },
        posenc(posenc) {
          const x = posenc.allocate(x0);
          return { run: () => posenc.addSinusoidal(x, TABLE_SHAPE), result: () => x.view(), free: () => x.free() };
        },
      }),
    };
  },
});

const ROPE_CACHE = { seqLen: 8192, rotaryDim: 128 };
const ROPE_CACHE_LENGTH = ROPE_CACHE.seqLen * (ROPE_CACHE.rotaryDim / 2);

const ropeCacheCase = bigArrayCase({
  id: 'ropeCache',
  title: 'ropeCache (out: WasmArrays)',
  size: `2×${ROPE_CACHE.seqLen}×${ROPE_CACHE.rotaryDim / 2} f32, ${mebibytes(2 * ROPE_CACHE_LENGTH)}`,
  targets: [fasterThanJs(20)],
  inPlace: false,
  setup() {
    return {
      check: (got) => checkRopeCache(got, ROPE_CACHE),
      variants: bigArrayVariants({
        copyLength: 2 * ROPE_CACHE_LENGTH,
        js() {
          const out = { cos: new Float32Array(ROPE_CACHE_LENGTH), sin: new Float32Array(ROPE_CACHE_LENGTH) };
          return { run: () => ropeCacheJs(out, ROPE_CACHE), result: () => out };
        },
        posenc(posenc) {
          const out = { cos: posenc.allocate(ROPE_CACHE_LENGTH), sin: posenc.allocate(ROPE_CACHE_LENGTH) };
          return {
            run: () => posenc.ropeCache({ ...ROPE_CACHE, out }),
            result: () => ({ cos: out.cos.view(), sin: out.sin.view() }),
            free: () => {
              out.cos.free();
              out.sin.free();
            },
          };
        },
      }),
    };
  },
});

// ---- float16 and bfloat16 storage ------------------------------------------------------------
// The same shapes in 16-bit storage: posenc on WasmArrays of the dtype; copy = Uint16Array.set of
// the same number of 16-bit elements; js = the careful loop on a Float16Array where the engine has
// one (float16 in Chromium: the engine widens and rounds), else on the patterns in a Uint16Array
// with a 65,536-entry widen table and a careful narrowing (bench/half-bits.js: Node, and bfloat16
// everywhere). Every variant is checked against the float64 reference of the widened input, with
// the format's rounding added to the contract's bound.

const SHORT_NAME = { float16: 'f16', bfloat16: 'bf16' };
const hasFloat16Array = typeof globalThis.Float16Array === 'function';
const usesFloat16Array = (dtype) => dtype === 'float16' && hasFloat16Array;

/** A zeroed 16-bit array for the JS loop: a Float16Array (float16, where the engine has it) or a Uint16Array. */
function jsHalfArray(dtype, length) {
  return usesFloat16Array(dtype) ? new globalThis.Float16Array(length) : new Uint16Array(length);
}

/** The checks take widened values: a result's patterns (Uint16Array, Float16Array or a WasmArray view) widened. */
const widened = (array, dtype) => widenAll(patternsOf(array), dtype);

/** rope in place on a [2048, 32, 128] WasmArray of dtype. */
function halfRopeCase(dtype) {
  const options = { ...ROPE_SHAPE, layout: 'interleaved' };
  const shape = `${ROPE_SHAPE.seqLen}×${ROPE_SHAPE.numHeads}×${ROPE_SHAPE.headDim}`;
  return bigArrayCase({
    id: `rope-wasm-${dtype}`,
    title: `rope in place, WasmArray ${dtype} (interleaved)`,
    size: `${shape} ${SHORT_NAME[dtype]}, ${mebibytes(ROPE_LENGTH, 2)}`,
    targets: [atMostCopy(1.5), fasterThanJs(6)],
    inPlace: true,
    setup() {
      const x0 = Uint16Array.from(randomFloat32(ROPE_LENGTH, 1), HALF_FORMATS[dtype].narrow);
      const check = ropeChecker(widened(x0, dtype), options, dtype);
      return {
        check: (got) => check(widened(got, dtype)),
        variants: bigArrayVariants({
          copyLength: ROPE_LENGTH,
          copyType: Uint16Array,
          js() {
            const x = jsHalfArray(dtype, ROPE_LENGTH);
            patternsOf(x).set(x0);
            const run = usesFloat16Array(dtype)
              ? () => ropeJs(x, options)
              : () => ropeBitsJs(x, options, HALF_FORMATS[dtype]);
            return { run, result: () => x };
          },
          posenc(posenc) {
            const x = posenc.allocate(x0, { dtype });
            return { run: () => posenc.rope(x, options), result: () => x.view(), free: () => x.free() };
          },
        }),
      };
    },
  });
}

/** The float16 sinusoidal table 8192×1024 into a WasmArray. */
function halfSinusoidalCase(dtype) {
  return bigArrayCase({
    id: `sinusoidal-${dtype}`,
    title: `sinusoidal table ${dtype} (out: WasmArray)`,
    size: `${TABLE_SHAPE.seqLen}×${TABLE_SHAPE.dModel} ${SHORT_NAME[dtype]}, ${mebibytes(TABLE_LENGTH, 2)}`,
    targets: [fasterThanJs(20)],
    inPlace: false,
    setup() {
      const table = sinusoidalTable(TABLE_SHAPE);
      return {
        check: (got) => checkSinusoidal(widened(got, dtype), table, dtype),
        variants: bigArrayVariants({
          copyLength: TABLE_LENGTH,
          copyType: Uint16Array,
          js() {
            const out = jsHalfArray(dtype, TABLE_LENGTH);
            const { narrow } = HALF_FORMATS[dtype];
            const run = usesFloat16Array(dtype)
              ? () => sinusoidalJs(out, TABLE_SHAPE)
              : () => sinusoidalBitsJs(out, TABLE_SHAPE, narrow);
            return { run, result: () => out };
          },
          posenc(posenc) {
            const out = posenc.allocate(TABLE_LENGTH, { dtype });
            const options = { ...TABLE_SHAPE, dtype, out };
            return { run: () => posenc.sinusoidal(options), result: () => out.view(), free: () => out.free() };
          },
        }),
      };
    },
  });
}

/** The float16 cos/sin cache, 8192 positions × 64 pairs, into WasmArrays. */
function halfRopeCacheCase(dtype) {
  const cacheSize = `2×${ROPE_CACHE.seqLen}×${ROPE_CACHE.rotaryDim / 2}`;
  return bigArrayCase({
    id: `ropeCache-${dtype}`,
    title: `ropeCache ${dtype} (out: WasmArrays)`,
    size: `${cacheSize} ${SHORT_NAME[dtype]}, ${mebibytes(2 * ROPE_CACHE_LENGTH, 2)}`,
    targets: [fasterThanJs(20)],
    inPlace: false,
    setup() {
      const widenedPair = ({ cos, sin }) => ({ cos: widened(cos, dtype), sin: widened(sin, dtype) });
      return {
        check: (got) => checkRopeCache(widenedPair(got), ROPE_CACHE, dtype),
        variants: bigArrayVariants({
          copyLength: 2 * ROPE_CACHE_LENGTH,
          copyType: Uint16Array,
          js() {
            const out = { cos: jsHalfArray(dtype, ROPE_CACHE_LENGTH), sin: jsHalfArray(dtype, ROPE_CACHE_LENGTH) };
            const { narrow } = HALF_FORMATS[dtype];
            const run = usesFloat16Array(dtype)
              ? () => ropeCacheJs(out, ROPE_CACHE)
              : () => ropeCacheBitsJs(out, ROPE_CACHE, narrow);
            return { run, result: () => out };
          },
          posenc(posenc) {
            const out = {
              cos: posenc.allocate(ROPE_CACHE_LENGTH, { dtype }),
              sin: posenc.allocate(ROPE_CACHE_LENGTH, { dtype }),
            };
            return {
              run: () => posenc.ropeCache({ ...ROPE_CACHE, dtype, out }),
              result: () => ({ cos: out.cos.view(), sin: out.sin.view() }),
              free: () => {
                out.cos.free();
                out.sin.free();
              },
            };
          },
        }),
      };
    },
  });
}

// T5's buckets have no head dimension (one [queryLen, keyLen] matrix indexes every head's
// learned bias), so the "8 heads × 2048 × 2048" is 8 calls of 2048 × 2048 into one
// JS-owned Int32Array: the same 128 MiB as 8 heads' worth, against one copy of that many bytes.
const BUCKETS = { calls: 8, queryLen: 2048, keyLen: 2048 };
const BUCKETS_CALL = BUCKETS.queryLen * BUCKETS.keyLen;

const relativePositionBucketsCase = bigArrayCase({
  id: 'relativePositionBuckets',
  title: 'relativePositionBuckets, 8 calls (out: Int32Array)',
  size: `${BUCKETS.calls}×${BUCKETS.queryLen}×${BUCKETS.keyLen} i32, ${mebibytes(BUCKETS.calls * BUCKETS_CALL)}`,
  targets: [atMostCopy(2)],
  inPlace: false,
  setup() {
    const outs = (out) =>
      Array.from({ length: BUCKETS.calls }, (_, c) => out.subarray(c * BUCKETS_CALL, (c + 1) * BUCKETS_CALL));
    const shape = { queryLen: BUCKETS.queryLen, keyLen: BUCKETS.keyLen };
    return {
      check: (got) => checkRelativePositionBuckets(got, BUCKETS),
      variants: bigArrayVariants({
        copyLength: BUCKETS.calls * BUCKETS_CALL,
        js() {
          const out = new Int32Array(BUCKETS.calls * BUCKETS_CALL);
          const parts = outs(out);
          return {
            run: () => {
              for (const part of parts) relativePositionBucketsJs(part, shape);
            },
            result: () => out,
          };
        },
        posenc(posenc) {
          const out = new Int32Array(BUCKETS.calls * BUCKETS_CALL);
          const options = outs(out).map((part) => ({ ...shape, out: part }));
          return {
            run: () => {
              for (const o of options) posenc.relativePositionBuckets(o);
            },
            result: () => out,
          };
        },
      }),
    };
  },
});

const SIMILARITY = { rows: 1001, cols: 1001, dim: 64 };

const similarityCase = bigArrayCase({
  id: 'similarity-dot',
  title: 'similarity dot, dim 64 (WasmArrays)',
  size: `${SIMILARITY.rows}×${SIMILARITY.cols} f32, ${mebibytes(SIMILARITY.rows * SIMILARITY.cols)}`,
  targets: [fasterThanJs(8)],
  inPlace: false,
  setup() {
    const a = randomFloat32(SIMILARITY.rows * SIMILARITY.dim, 3);
    const b = randomFloat32(SIMILARITY.cols * SIMILARITY.dim, 4);
    const length = SIMILARITY.rows * SIMILARITY.cols;
    return {
      check: (got) => checkSimilarityDot(got, a, b, SIMILARITY),
      variants: bigArrayVariants({
        copyLength: length,
        js() {
          const out = new Float32Array(length);
          return { run: () => similarityDotJs(out, a, b, SIMILARITY), result: () => out };
        },
        posenc(posenc) {
          const wa = posenc.allocate(a);
          const wb = posenc.allocate(b);
          const out = posenc.allocate(length);
          const options = { ...SIMILARITY, out };
          return {
            run: () => posenc.similarity(wa, wb, options),
            result: () => out.view(),
            free: () => {
              wa.free();
              wb.free();
              out.free();
            },
          };
        },
      }),
    };
  },
});

// ---- per-call cost --------------------------------------------------------------------------
// rope in place on [rows, 32, 128] (base 10000) at positions 1000, 1001, ...: the shape of one
// decode step (rows = 1) up to a prompt, in both layouts ('half' is what fromHfConfig gives
// Llama-family models). The QK variants also rotate keys [rows, 8, 128] (grouped-query
// attention, Llama 3 8B's 32 / 8 heads) in the same call. Every variant runs on the SIMD build and
// gets what it needs (plan, options object, WasmArrays, cos/sin table) before the clock starts,
// as a decode loop would; only the call itself is timed.

export const PER_CALL_ROWS = [1, 8, 64, 512, 4096];
/** The rows measured in the 'half' layout too (the fixed cost's range). */
export const PER_CALL_HALF_ROWS = [1, 8, 64];
export const PER_CALL_LAYOUTS = ['interleaved', 'half'];
export const PER_CALL_VARIANTS = ['plan', 'plan-qk', 'rope-wasm', 'rope-f32', 'rope-qk', 'js', 'js-qk'];
export const PER_CALL_SHAPE = { numHeads: 32, headDim: 128, base: 10000, offset: 1000 };
export const PER_CALL_KV_HEADS = 8;
/** Each posenc variant and the JS loop it is measured against. */
export const PER_CALL_BASELINES = {
  plan: 'js',
  'plan-qk': 'js-qk',
  'rope-wasm': 'js',
  'rope-f32': 'js',
  'rope-qk': 'js-qk',
};
const atMostJs = (variant, max) => ({ ratio: `${variant}/${PER_CALL_BASELINES[variant]}`, max });
/** One decoding step: the calls without a plan at most the JS loop, a plan's at most 0.4 of it. */
const ONE_ROW_TARGETS = [
  atMostJs('plan', 0.4),
  atMostJs('plan-qk', 0.4),
  atMostJs('rope-wasm', 1),
  atMostJs('rope-f32', 1),
  atMostJs('rope-qk', 1),
];
const rope = (posenc, x, options) => posenc.rope(x, options);
const ropeQK = (posenc, [q, k], options) => posenc.ropeQK(q, k, options);

/**
 * A variant's run(): fn(a, b, c), the arguments read from an array at every call. A closure
 * that captures its arrays directly lets V8 fold them into constants when it optimizes the
 * first closure made at that spot (known lengths, no bounds checks, known shape options): the
 * JS loop ran 2× faster in whichever per-call case happened to run first. V8 does not fold
 * array elements (they may change), so every case and variant runs code compiled for arrays it
 * reads at run time, as a decode loop's own code does.
 */
function unfoldedCall(fn, ...args) {
  const slots = args;
  return () => fn(slots[0], slots[1], slots[2]);
}

/** posenc.ropePlan (the 0.2 seam contract); no fallback when it is missing. */
function makePlan(posenc, planOptions) {
  if (typeof posenc.ropePlan !== 'function') {
    throw new TypeError(
      'posenc.ropePlan is not a function: this posenc build predates the prepared rope plans (posenc 0.2)',
    );
  }
  return posenc.ropePlan(planOptions);
}

/** plan.apply (or, with k0, plan.applyQK) of one ropePlan on WasmArrays; the result checked is x's (q's). */
function planVariant(posenc, x0, k0, { offset, ...planOptions }) {
  const plan = makePlan(posenc, planOptions);
  const arrays = [];
  try {
    arrays.push(posenc.allocate(x0));
    if (k0) arrays.push(posenc.allocate(k0));
  } catch (error) {
    for (const array of arrays) array.free();
    plan.free();
    throw error;
  }
  const [x, k] = arrays;
  const where = { offset };
  return {
    run: k
      ? unfoldedCall((p, [q, keys], w) => p.applyQK(q, keys, w), plan, [x, k], where)
      : unfoldedCall((p, array, w) => p.apply(array, w), plan, x, where),
    result: () => x.view(),
    free: () => {
      for (const array of arrays) array.free();
      plan.free();
    },
  };
}

/** The JS loop on queries (and keys: the same table, PER_CALL_KV_HEADS heads). */
function jsVariant(x0, k0, options) {
  const { rows, headDim, base, offset } = options;
  const table = ropeTableJs({ positions: offset + rows, rotaryDim: headDim, base });
  const x = x0.slice();
  if (!k0) return { run: unfoldedCall(ropeWithTableJs, x, table, options), result: () => x };
  const k = k0.slice();
  const keyOptions = { ...options, numHeads: PER_CALL_KV_HEADS };
  const both = (arrays, t, [queries, keys]) => {
    ropeWithTableJs(arrays[0], t, queries);
    ropeWithTableJs(arrays[1], t, keys);
  };
  return { run: unfoldedCall(both, [x, k], table, [options, keyOptions]), result: () => x };
}

function perCallCase(layout, rows) {
  const options = { seqLen: rows, ...PER_CALL_SHAPE, layout };
  const qkOptions = { ...options, numKvHeads: PER_CALL_KV_HEADS };
  const { numHeads, headDim } = options;
  const length = rows * numHeads * headDim;
  const keys = rows * PER_CALL_KV_HEADS * headDim;
  return {
    id: layout === 'interleaved' ? `per-call-${rows}` : `per-call-${layout}-${rows}`,
    section: 'per-call',
    rows,
    layout,
    title: `rope per call, ${rows} row${rows === 1 ? '' : 's'} (${layout})`,
    size: `${rows}×${numHeads}×${headDim} f32, ${mebibytes(length)}`,
    variants: PER_CALL_VARIANTS,
    targets: rows === 1 ? ONE_ROW_TARGETS : [],
    setup() {
      const x0 = randomFloat32(length, 10 + rows);
      const k0 = randomFloat32(keys, 20 + rows);
      const jsOptions = { ...options, rows };
      return {
        check: ropeChecker(x0, options),
        variants: {
          plan: ({ simd }) => planVariant(simd, x0, null, options),
          'plan-qk': ({ simd }) => planVariant(simd, x0, k0, qkOptions),
          'rope-wasm': ({ simd }) => {
            const x = simd.allocate(x0);
            return { run: unfoldedCall(rope, simd, x, options), result: () => x.view(), free: () => x.free() };
          },
          'rope-f32': ({ simd }) => {
            const x = x0.slice();
            return { run: unfoldedCall(rope, simd, x, options), result: () => x };
          },
          'rope-qk': ({ simd }) => {
            const q = x0.slice();
            return { run: unfoldedCall(ropeQK, simd, [q, k0.slice()], qkOptions), result: () => q };
          },
          js: () => jsVariant(x0, null, jsOptions),
          'js-qk': () => jsVariant(x0, k0, jsOptions),
        },
      };
    },
  };
}

// A tiny sinusoidal table, 16 × 16 (a tutorial's figure, a toy model): nearly all of posenc's
// time is the call itself. `sinusoidal` returns a new array, `sinusoidal-out` writes a
// Float32Array the caller keeps; `js` writes its table into a kept array.
export const TINY_TABLE = { seqLen: 16, dModel: 16 };
export const TINY_TABLE_VARIANTS = ['sinusoidal', 'sinusoidal-out', 'js'];

const tinyTableCase = {
  id: 'per-call-table-16',
  section: 'per-call',
  table: true,
  title: `sinusoidal table ${TINY_TABLE.seqLen}×${TINY_TABLE.dModel}`,
  size: `${TINY_TABLE.seqLen}×${TINY_TABLE.dModel} f32, ${mebibytes(TINY_TABLE.seqLen * TINY_TABLE.dModel)}`,
  variants: TINY_TABLE_VARIANTS,
  targets: [
    { ratio: 'sinusoidal/js', max: 1 },
    { ratio: 'sinusoidal-out/js', max: 1 },
  ],
  setup() {
    const table = sinusoidalTable(TINY_TABLE);
    const length = TINY_TABLE.seqLen * TINY_TABLE.dModel;
    return {
      check: (got) => checkSinusoidal(got, table),
      variants: {
        sinusoidal: ({ simd }) => {
          let last = null;
          return {
            run: unfoldedCall(
              (p, options) => {
                last = p.sinusoidal(options);
              },
              simd,
              TINY_TABLE,
            ),
            result: () => last,
          };
        },
        'sinusoidal-out': ({ simd }) => {
          const out = new Float32Array(length);
          return {
            run: unfoldedCall((p, options) => p.sinusoidal(options), simd, { ...TINY_TABLE, out }),
            result: () => out,
          };
        },
        js: () => {
          const out = new Float32Array(length);
          return { run: unfoldedCall(sinusoidalJs, out, TINY_TABLE), result: () => out };
        },
      },
    };
  },
};

export // ALiBi bias for 8 heads × 2048 × 2048 (32 × 4096 × 4096 would be 2 GiB): one multiply
// and one narrowing per element, so its target is the bandwidth limit, at most 2 × a copy of
// the output's bytes.
const ALIBI = { numHeads: 8, queryLen: 2048, keyLen: 2048 };
const ALIBI_LENGTH = ALIBI.numHeads * ALIBI.queryLen * ALIBI.keyLen;

const alibiBiasCase = bigArrayCase({
  id: 'alibiBias',
  title: 'alibiBias (out: WasmArray)',
  size: `${ALIBI.numHeads}×${ALIBI.queryLen}×${ALIBI.keyLen} f32, ${mebibytes(ALIBI_LENGTH)}`,
  targets: [atMostCopy(2)],
  inPlace: false,
  setup() {
    return {
      check: (got) => checkAlibiBias(got, ALIBI),
      variants: bigArrayVariants({
        copyLength: ALIBI_LENGTH,
        js() {
          const out = new Float32Array(ALIBI_LENGTH);
          const slopes = alibiSlopesReference(ALIBI.numHeads);
          return { run: () => alibiBiasJs(out, slopes, ALIBI), result: () => out };
        },
        posenc(posenc) {
          const out = posenc.allocate(ALIBI_LENGTH);
          const options = { ...ALIBI, out };
          return { run: () => posenc.alibiBias(options), result: () => out.view(), free: () => out.free() };
        },
      }),
    };
  },
});

// ---- rope by several axes, against plain rope of the same size ------------------------------------

const PLAIN = 'plain'; // the same call without axes: plain rope of the same shape, SIMD build
const MROPE_VARIANTS = ['copy', PLAIN, 'scalar', 'simd'];

/** Plain rope of `options`' shape on a WasmArray: the baseline the multi-axis cases are measured against. */
function plainRopeVariant(options, length) {
  return ({ simd }) => {
    const x = simd.allocate(randomFloat32(length, 3));
    return { run: () => simd.rope(x, options), free: () => x.free() };
  };
}

// M-RoPE on [2048, 32, 128]: a prompt of 500 text tokens, a 44 × 64-patch image (22 × 32 = 704
// tokens after the 2 × 2 merge) and 844 text tokens, at mropePositions' ids; Qwen2-VL's sections.
const MROPE_SEGMENTS = [{ text: 500 }, { image: [1, 44, 64] }, { text: 844 }];
const MROPE_OPTIONS = { ...ROPE_SHAPE, layout: 'half', base: 1e6, mrope: { section: [16, 24, 24] } };

/** get_rope_index's ids of MROPE_SEGMENTS, restated: text consecutive on all rows, the image's at start + (0, row, column). */
function mropeRows() {
  const rows = [[], [], []];
  let next = 0;
  for (const segment of MROPE_SEGMENTS) {
    if (segment.text !== undefined) {
      for (let i = 0; i < segment.text; i++, next++) for (const row of rows) row.push(next);
      continue;
    }
    const [, h, w] = segment.image.map((v, i) => (i === 0 ? v : v / 2));
    for (let r = 0; r < h; r++) {
      for (let c = 0; c < w; c++) {
        rows[0].push(next);
        rows[1].push(next + r);
        rows[2].push(next + c);
      }
    }
    next += Math.max(h, w);
  }
  return rows;
}

const mropeCase = {
  section: 'big-arrays',
  id: 'rope-mrope',
  title: 'rope with mrope in place, WasmArray (Qwen2-VL sections, a prompt with an image)',
  size: `${ROPE_SHAPE.seqLen}×${ROPE_SHAPE.numHeads}×${ROPE_SHAPE.headDim} f32, ${mebibytes(ROPE_LENGTH)}`,
  variants: MROPE_VARIANTS,
  targets: [{ ratio: `simd/${PLAIN}`, max: 1.5 }],
  inPlace: true,
  setup() {
    const x0 = randomFloat32(ROPE_LENGTH, 1);
    const where = mropeRows();
    const [t, h] = MROPE_OPTIONS.mrope.section;
    const axisOf = Array.from({ length: ROPE_SHAPE.headDim / 2 }, (_, k) => (k < t ? 0 : k < t + h ? 1 : 2));
    let expected = null;
    return {
      check: (got) => {
        expected ??= axisRopeReference(
          x0,
          MROPE_OPTIONS,
          inverseFrequencies(ROPE_SHAPE.headDim, MROPE_OPTIONS.base),
          axisOf,
          where,
        );
        return checkRope(got, x0, MROPE_OPTIONS, expected);
      },
      variants: {
        copy: () => copyVariant(ROPE_LENGTH),
        [PLAIN]: plainRopeVariant({ ...ROPE_SHAPE, layout: 'half', base: 1e6, offset: 0 }, ROPE_LENGTH),
        ...Object.fromEntries(
          ['scalar', 'simd'].map((build) => [
            build,
            (instances) => {
              const posenc = instances[build];
              const { positions } = posenc.mropePositions({ segments: MROPE_SEGMENTS });
              if (positions.join() !== where.flat().join())
                throw new Error('mropePositions differs from the restated ids');
              const x = posenc.allocate(x0);
              const options = { ...MROPE_OPTIONS, positions };
              return { run: () => posenc.rope(x, options), result: () => x.view(), free: () => x.free() };
            },
          ]),
        ),
      },
    };
  },
};

// ropeGrid on a 64 × 64 grid, 16 heads of 64 (Pixtral), against plain rope of [4096, 16, 64].
const GRID = { rows: 64, cols: 64, numHeads: 16, headDim: 64, variant: 'pixtral' };
const GRID_LENGTH = GRID.rows * GRID.cols * GRID.numHeads * GRID.headDim;
const GRID_SHAPE = { seqLen: GRID.rows * GRID.cols, numHeads: GRID.numHeads, headDim: GRID.headDim, layout: 'half' };

const ropeGridCase = {
  section: 'big-arrays',
  id: 'ropeGrid',
  title: 'ropeGrid in place, WasmArray (pixtral)',
  size: `${GRID.rows}×${GRID.cols} patches × ${GRID.numHeads}×${GRID.headDim} f32, ${mebibytes(GRID_LENGTH)}`,
  variants: MROPE_VARIANTS,
  targets: [{ ratio: `simd/${PLAIN}`, max: 1.5 }],
  inPlace: true,
  setup() {
    const x0 = randomFloat32(GRID_LENGTH, 2);
    const pairs = GRID.headDim / 2;
    const rowPairs = Math.ceil(pairs / 2); // Pixtral: freqs[::2] by the row, freqs[1::2] by the column
    const freqs = inverseFrequencies(GRID.headDim);
    const invFreq = Array.from({ length: pairs }, (_, k) =>
      k < rowPairs ? freqs[2 * k] : freqs[2 * (k - rowPairs) + 1],
    );
    const axisOf = Array.from({ length: pairs }, (_, k) => (k < rowPairs ? 0 : 1));
    const patches = Array.from({ length: GRID_SHAPE.seqLen }, (_, p) => p);
    const where = [patches.map((p) => Math.floor(p / GRID.cols)), patches.map((p) => p % GRID.cols)];
    let expected = null;
    return {
      check: (got) => {
        expected ??= axisRopeReference(x0, GRID_SHAPE, invFreq, axisOf, where);
        return checkRope(got, x0, GRID_SHAPE, expected);
      },
      variants: {
        copy: () => copyVariant(GRID_LENGTH),
        [PLAIN]: plainRopeVariant(GRID_SHAPE, GRID_LENGTH),
        ...Object.fromEntries(
          ['scalar', 'simd'].map((build) => [
            build,
            (instances) => {
              const x = instances[build].allocate(x0);
              return { run: () => instances[build].ropeGrid(x, GRID), result: () => x.view(), free: () => x.free() };
            },
          ]),
        ),
      },
    };
  },
};

// ---- attention scores ----------------------------------------------------------------------------
// attentionScores for queryLen = keyLen = 1024, headDim 64, 1 head, against similarity of the same
// size (rows 1024, cols 1024, dim 64), whose dot products it shares: its target is at most 2× that,
// for rope and alibi, raw and softmax. Inputs and out are WasmArrays (no copies timed), SIMD build.

export const ATTENTION_VARIANTS = ['similarity', 'rope', 'rope-softmax', 'alibi', 'alibi-softmax'];
const ATTENTION = { n: 1024, dim: 64 };

const attentionScoresCase = {
  id: 'attentionScores',
  section: 'attention',
  title: 'attentionScores vs similarity (WasmArrays, SIMD build)',
  size: `1×${ATTENTION.n}×${ATTENTION.n} f32 from [${ATTENTION.n}, ${ATTENTION.dim}] q and k`,
  variants: ATTENTION_VARIANTS,
  targets: ATTENTION_VARIANTS.slice(1).map((name) => ({ ratio: `${name}/similarity`, max: 2 })),
  inPlace: false,
  setup() {
    const { n, dim } = ATTENTION;
    const q = randomFloat32(n * dim, 5);
    const k = randomFloat32(n * dim, 6);
    // Each variant's result says which it is, so one check serves them all.
    const check = ({ name, got }) =>
      name === 'similarity'
        ? checkSimilarityDot(got, q, k, { rows: n, cols: n, dim })
        : checkAttentionScores(got, q, k, {
            ...ATTENTION,
            encoding: name.split('-')[0],
            softmax: name.endsWith('softmax'),
          });
    const variant =
      (name, call) =>
      ({ simd }) => {
        const wq = simd.allocate(q);
        const wk = simd.allocate(k);
        const out = simd.allocate(n * n);
        return {
          run: unfoldedCall(call, simd, { q: wq, k: wk }, out),
          result: () => ({ name, got: out.view() }),
          free: () => {
            wq.free();
            wk.free();
            out.free();
          },
        };
      };
    const scores =
      (encoding, softmax) =>
      (posenc, { q: wq, k: wk }, out) =>
        posenc.attentionScores(wq, wk, { queryLen: n, keyLen: n, headDim: dim, encoding, softmax, out });
    return {
      check,
      variants: {
        similarity: variant('similarity', (posenc, { q: wq, k: wk }, out) =>
          posenc.similarity(wq, wk, { rows: n, cols: n, dim, out }),
        ),
        rope: variant('rope', scores('rope', false)),
        'rope-softmax': variant('rope-softmax', scores('rope', true)),
        alibi: variant('alibi', scores('alibi', false)),
        'alibi-softmax': variant('alibi-softmax', scores('alibi', true)),
      },
    };
  },
};

const CASES = [
  ropeCase({
    id: 'rope-wasm-interleaved',
    title: 'rope in place, WasmArray (interleaved)',
    options: { ...ROPE_SHAPE, layout: 'interleaved' },
    wasmResident: true,
    targets: [atMostCopy(1.5), fasterThanJs(4)],
    inPlace: true,
  }),
  ropeCase({
    id: 'rope-wasm-half',
    title: 'rope in place, WasmArray (half)',
    options: { ...ROPE_SHAPE, layout: 'half' },
    wasmResident: true,
    targets: [atMostCopy(1.5), fasterThanJs(4)],
    inPlace: true,
  }),
  ropeCase({
    id: 'rope-wasm-xpos',
    title: 'rope in place with xpos (keys), WasmArray (interleaved)',
    options: { ...ROPE_SHAPE, layout: 'interleaved', xpos: { role: 'key' } },
    wasmResident: true,
    targets: [atMostCopy(1.5), fasterThanJs(4)],
    inPlace: true,
  }),
  ropeCase({
    id: 'rope-js-owned',
    title: 'rope on a JS Float32Array (copy in/out)',
    options: { ...ROPE_SHAPE, layout: 'interleaved' },
    wasmResident: false,
    targets: [atMostCopy(3)],
    inPlace: false,
  }),
  ropeCase({
    id: 'rope-positions-partial',
    title: 'rope, positions + rotaryDim 32 (half)',
    options: { ...ROPE_SHAPE, layout: 'half', rotaryDim: 32, positions: packedPositions(ROPE_SHAPE.seqLen, 512) },
    wasmResident: true,
    targets: [atMostCopy(1.5)],
    inPlace: true,
  }),
  halfRopeCase('float16'),
  halfRopeCase('bfloat16'),
  sinusoidalCase,
  halfSinusoidalCase('float16'),
  addSinusoidalCase,
  ropeCacheCase,
  halfRopeCacheCase('float16'),
  similarityCase,
  alibiBiasCase,
  relativePositionBucketsCase,
  mropeCase,
  ropeGridCase,
  ...PER_CALL_ROWS.map((rows) => perCallCase('interleaved', rows)),
  ...PER_CALL_HALF_ROWS.map((rows) => perCallCase('half', rows)),
  tinyTableCase,
  attentionScoresCase,
  ...JS_ARRAY_CASES,
];

/** The cases --only names, by case id or section name; all cases when only is null. */
export function selectCases(only) {
  if (!only) return CASES;
  const unknown = only.filter((name) => !SECTIONS.includes(name) && !CASES.some((c) => c.id === name));
  if (unknown.length) {
    throw new Error(
      `bench: unknown case or section ${unknown.join(', ')} (sections: ${SECTIONS.join(', ')}; cases: ${CASES.map((c) => c.id).join(', ')})`,
    );
  }
  return CASES.filter((c) => only.includes(c.id) || only.includes(c.section));
}
