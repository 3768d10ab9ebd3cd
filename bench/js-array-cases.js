// The js-arrays section: calls whose arrays are JS-owned, tile by tile (bindings/js/tiles.js).
//   - a returned array against the same call into `out: Float32Array` and into `out: WasmArray`
//     (the SIMD build): a returned array is made in JS and written tile by tile like an `out`,
//     so returned costs out-f32 plus what the engine takes to make a new array of that size
//     (`new-array`);
//   - rope in place on a JS Float32Array [2048, 32, 128] against copy, the JS loop and the same
//     call on a WasmArray, on both builds (and into a separate JS out): the JS-array path at most
//     2.5× copy, never slower than the JS loop, and the SIMD build never slower than the scalar one.
// Each case also states `memoryProbe(posenc)`: one call of its JS-array form, made once on a
// fresh instance, whose WASM memory growth the report prints (harness.js).
import { randomUniform as randomFloat32 } from '../widgets/random.js';
import { checkAttentionScores, checkSinusoidal, ropeChecker, sinusoidalTable } from './reference.js';
import { patternsOf, widenAll } from './half-bits.js';
import { ropeJs } from './js-baseline.js';

export const JS_ARRAY_SECTION = 'js-arrays';
export const RETURNED_VARIANTS = ['returned', 'out-f32', 'out-wasm', 'new-array'];
export const ROPE_VARIANTS = ['copy', 'js', 'scalar', 'simd', 'simd-out', 'wasm'];

const mebibytes = (bytes) => (bytes < 2 ** 20 ? `${bytes / 2 ** 10} KiB` : `${(bytes / 2 ** 20).toFixed(0)} MiB`);

/**
 * A returned-array case: `call(posenc, out)` makes the call (out undefined: returned), `length`
 * elements of `dtype`; `check(got)` compares a result with the float64 reference.
 */
function returnedCase({ id, title, size, length, dtype = 'float32', call, check }) {
  const Type = dtype === 'float32' ? Float32Array : Uint16Array;
  return {
    id,
    section: JS_ARRAY_SECTION,
    title,
    size,
    variants: RETURNED_VARIANTS,
    targets: [{ ratio: 'returned/out-f32', max: 1.3 }],
    inPlace: false,
    memoryProbe: (posenc) => call(posenc, undefined),
    setup() {
      return {
        check,
        variants: {
          returned: ({ simd }) => {
            let result;
            return { run: () => (result = call(simd, undefined)), result: () => result };
          },
          'out-f32': ({ simd }) => {
            const out = dtype === 'float16' && globalThis.Float16Array ? new Float16Array(length) : new Type(length);
            return { run: () => call(simd, out), result: () => out };
          },
          'out-wasm': ({ simd }) => {
            const out = simd.allocate(length, { dtype });
            return { run: () => call(simd, out), result: () => out.view(), free: () => out.free() };
          },
          // What any returned array costs before posenc writes it: a new array of the result's
          // size, written once (the engine's allocation, zeroing and first touch of its pages).
          'new-array': () => {
            const kept = [null]; // the last array stays alive, like the last returned one
            return {
              run: () => {
                kept[0] = new Type(length);
                kept[0].fill(1);
              },
            };
          },
        },
      };
    },
  };
}

/** The sinusoidal table [seqLen, dModel] of `dtype`. */
function sinusoidalCase(seqLen, dModel, dtype = 'float32') {
  const shape = { seqLen, dModel };
  let table = null;
  const short = dtype === 'float32' ? 'f32' : 'f16';
  return returnedCase({
    id: `returned-sinusoidal-${seqLen}x${dModel}${dtype === 'float32' ? '' : `-${dtype}`}`,
    title: `sinusoidal ${dtype}: returned vs out`,
    size: `${seqLen}×${dModel} ${short}, ${mebibytes(seqLen * dModel * (dtype === 'float32' ? 4 : 2))}`,
    length: seqLen * dModel,
    dtype,
    call: (posenc, out) => posenc.sinusoidal({ ...shape, dtype, out }),
    check(got) {
      table ??= sinusoidalTable(shape);
      return dtype === 'float32'
        ? checkSinusoidal(got, table)
        : checkSinusoidal(widenAll(patternsOf(got), dtype), table, dtype);
    },
  });
}

const ATTENTION = { n: 1024, dim: 64 };

function alibiScoresCase() {
  const { n, dim } = ATTENTION;
  const q = randomFloat32(n * dim, 5);
  const k = randomFloat32(n * dim, 6);
  const options = { queryLen: n, keyLen: n, headDim: dim, encoding: 'alibi' };
  const inputs = new WeakMap(); // per instance: q and k as WasmArrays, as the attention section keeps them
  return returnedCase({
    id: 'returned-attention-alibi',
    title: 'attentionScores alibi (q, k WasmArrays): returned vs out',
    size: `1×${n}×${n} f32, ${mebibytes(n * n * 4)}`,
    length: n * n,
    call(posenc, out) {
      if (!inputs.has(posenc)) inputs.set(posenc, { wq: posenc.allocate(q), wk: posenc.allocate(k) });
      const { wq, wk } = inputs.get(posenc);
      return posenc.attentionScores(wq, wk, { ...options, out });
    },
    check: (got) => checkAttentionScores(got, q, k, { ...ATTENTION, encoding: 'alibi', softmax: false }),
  });
}

const ROPE_SHAPE = { seqLen: 2048, numHeads: 32, headDim: 128, layout: 'interleaved' };
const ROPE_LENGTH = ROPE_SHAPE.seqLen * ROPE_SHAPE.numHeads * ROPE_SHAPE.headDim;

const ropeJsArrayCase = {
  id: 'rope-js-array',
  section: JS_ARRAY_SECTION,
  title: 'rope in place on a JS Float32Array (tiles), vs copy, the JS loop and a WasmArray',
  size: `2048×32×128 f32, ${mebibytes(ROPE_LENGTH * 4)}`,
  variants: ROPE_VARIANTS,
  targets: [
    { ratio: 'simd/copy', max: 2.5 },
    { ratio: 'js/simd', min: 1 },
    { ratio: 'scalar/simd', min: 1 },
  ],
  inPlace: false,
  memoryProbe: (posenc) => posenc.rope(new Float32Array(ROPE_LENGTH), ROPE_SHAPE),
  setup() {
    const x0 = randomFloat32(ROPE_LENGTH, 1);
    const inPlace = (posenc) => {
      const x = x0.slice();
      return { run: () => posenc.rope(x, ROPE_SHAPE), result: () => x };
    };
    return {
      check: ropeChecker(x0, ROPE_SHAPE),
      variants: {
        copy: () => {
          const target = new Float32Array(ROPE_LENGTH);
          return { run: () => target.set(x0) };
        },
        js: () => {
          const x = x0.slice();
          return { run: () => ropeJs(x, ROPE_SHAPE), result: () => x };
        },
        scalar: ({ scalar }) => inPlace(scalar),
        simd: ({ simd }) => inPlace(simd),
        // x read, a separate out written: out's cache lines are fetched before they are written
        'simd-out': ({ simd }) => {
          const out = new Float32Array(ROPE_LENGTH);
          const options = { ...ROPE_SHAPE, out };
          return { run: () => simd.rope(x0, options), result: () => out };
        },
        wasm: ({ simd }) => {
          const x = simd.allocate(x0);
          return { run: () => simd.rope(x, ROPE_SHAPE), result: () => x.view(), free: () => x.free() };
        },
      },
    };
  },
};

export const JS_ARRAY_CASES = [
  sinusoidalCase(512, 512),
  sinusoidalCase(2048, 1024),
  sinusoidalCase(2048, 1024, 'float16'),
  alibiScoresCase(),
  ropeJsArrayCase,
];
