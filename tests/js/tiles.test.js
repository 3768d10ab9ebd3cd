// Calls on large JS-owned arrays go tile by tile (tiles.js, tilings.js). Every operation's
// result, returned or written into a JS `out`, has the bits of the same call on WasmArrays (one
// crossing, no tiles), over shapes whose tiles end mid-table: odd sizes, short last tiles,
// offsets, position lists with jumps, batches, half dtypes, both layouts. A bad call still
// throws its error and writes nothing. And a call on JS arrays takes a bounded amount of WASM
// memory, however large it is.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { loadPosenc } from '../../bindings/js/node.js';
import { loadBothVariants, randomNormal, randomPositions } from './support.js';
import { randomHalfBits } from './half-support.js';

const variants = await loadBothVariants();

/** The bytes of a typed array, for comparing bits whatever its type. */
const bytesOf = (array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);

function assertSameBits(actual, expected, label) {
  assert.equal(actual.length, expected.length, `${label}: length`);
  assert.ok(bytesOf(actual).equals(bytesOf(expected)), `${label}: bits differ`);
}

/** Runs `body(w)` with WasmArrays made by `make`, freeing them afterwards. */
function withWasm(make, body) {
  const arrays = make();
  try {
    return body(arrays);
  } finally {
    for (const array of Object.values(arrays)) array.free();
  }
}

/** Positions that run in steps of one with jumps (and repeats) between runs of random lengths. */
function jumpyPositions(length, seed) {
  const lengths = randomPositions(64, 1, 1500, seed);
  const starts = randomPositions(64, 0, 100000, seed + 1);
  const positions = new Int32Array(length);
  for (let i = 0, run = 0; i < length; run++) {
    const start = starts[run % 64];
    for (let k = 0; k < lengths[run % 64] && i < length; k++) positions[i++] = start + k;
  }
  return positions;
}

/** Schedules that go by the call's length (L0 below it), for 64-wide heads. */
const DYNAMIC = { type: 'dynamic', factor: 2, originalMaxPositionEmbeddings: 1024 };
const LONGROPE = {
  type: 'longrope',
  shortFactor: Array.from({ length: 32 }, (_, i) => 1 + 0.01 * i),
  longFactor: Array.from({ length: 32 }, (_, i) => 1.5 + 0.1 * i),
  originalMaxPositionEmbeddings: 1024,
  maxPositionEmbeddings: 8192,
};

/** jumpyPositions below 30000: within xPos's reach (35694 at its defaults) of their center. */
const nearPositions = (length, seed) => jumpyPositions(length, seed).map((position) => position % 30000);

for (const posenc of variants) {
  const tile = posenc.simd ? 'simd' : 'scalar';
  describe(`JS-owned arrays, tile by tile: the bits of one call on WasmArrays (${tile})`, () => {
    // a table option set, its length and dtype: tables of 1–3 MiB (tiles are at most 1 MiB)
    const tables = [
      ['interleaved, offset', { seqLen: 3001, dModel: 96, offset: 5 }],
      ['concat, offset near 2^24', { seqLen: 2500, dModel: 130, layout: 'concat', offset: 2 ** 24 - 1000 }],
      ['positions with jumps', { seqLen: 5000, dModel: 64, positions: jumpyPositions(5000, 3) }],
      ['float16', { seqLen: 4100, dModel: 128, dtype: 'float16' }],
      ['bfloat16, positions', { seqLen: 6001, dModel: 100, dtype: 'bfloat16', positions: jumpyPositions(6001, 9) }],
    ];
    for (const [label, options] of tables) {
      const length = options.seqLen * options.dModel;
      const dtype = options.dtype ?? 'float32';
      it(`sinusoidal and addSinusoidal, ${label}`, () => {
        const expected = withWasm(
          () => ({ out: posenc.allocate(length, { dtype }) }),
          ({ out }) => posenc.sinusoidal({ ...options, out }).toArray(),
        );
        assertSameBits(posenc.sinusoidal(options), expected, 'returned');
        const out = new expected.constructor(length);
        assert.equal(posenc.sinusoidal({ ...options, out }), out);
        assertSameBits(out, expected, 'out');

        const x = dtype === 'float32' ? randomNormal(length, 5) : randomHalfBits(randomNormal(length, 5), dtype);
        const added = withWasm(
          () => ({ w: posenc.allocate(x, { dtype }) }),
          ({ w }) => posenc.addSinusoidal(w, options).toArray(),
        );
        const js = x.slice();
        assert.equal(posenc.addSinusoidal(js, options), js);
        assertSameBits(js, added, 'addSinusoidal');
      });
    }

    it('positionNumbers: odd rows, an offset, float32 and bfloat16', () => {
      for (const options of [
        { seqLen: 5001, dModel: 70, offset: 7 },
        { seqLen: 9003, dModel: 64, offset: 123456, dtype: 'bfloat16' },
      ]) {
        const dtype = options.dtype ?? 'float32';
        const length = options.seqLen * options.dModel;
        const expected = withWasm(
          () => ({ out: posenc.allocate(length, { dtype }) }),
          ({ out }) => posenc.positionNumbers({ ...options, out }).toArray(),
        );
        assertSameBits(posenc.positionNumbers(options), expected, 'returned');
        const out = new expected.constructor(length);
        posenc.positionNumbers({ ...options, out });
        assertSameBits(out, expected, 'out');
      }
    });

    it('ropeCache: batches with per-sequence offsets, positions, yarn, dynamic, longrope, float16', () => {
      for (const options of [
        { seqLen: 3001, rotaryDim: 128, batch: 2, offset: [3, 70000] },
        { seqLen: 2000, rotaryDim: 96, batch: 3, positions: jumpyPositions(6000, 4) },
        { seqLen: 4500, rotaryDim: 64, scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 2048 } },
        { seqLen: 4500, rotaryDim: 64, scaling: { type: 'dynamic', factor: 2, originalMaxPositionEmbeddings: 1024 } },
        // the frequencies of the whole call's length in every tile
        { seqLen: 4500, rotaryDim: 64, batch: 2, offset: [3, 9000], scaling: DYNAMIC },
        { seqLen: 3000, rotaryDim: 64, batch: 2, positions: jumpyPositions(6000, 5), scaling: LONGROPE },
        { seqLen: 5001, rotaryDim: 64, offset: 100, scaling: LONGROPE, dtype: 'bfloat16' },
        { seqLen: 5000, rotaryDim: 128, offset: 11, dtype: 'float16' },
      ]) {
        const dtype = options.dtype ?? 'float32';
        const length = (options.batch ?? 1) * options.seqLen * (options.rotaryDim / 2);
        const expected = withWasm(
          () => ({ cos: posenc.allocate(length, { dtype }), sin: posenc.allocate(length, { dtype }) }),
          (out) => {
            const cache = posenc.ropeCache({ ...options, out });
            return { cos: cache.cos.toArray(), sin: cache.sin.toArray(), factor: cache.attentionFactor };
          },
        );
        const returned = posenc.ropeCache(options);
        assertSameBits(returned.cos, expected.cos, 'returned cos');
        assertSameBits(returned.sin, expected.sin, 'returned sin');
        assert.equal(returned.attentionFactor, expected.factor);
        const out = { cos: new expected.cos.constructor(length), sin: new expected.sin.constructor(length) };
        const written = posenc.ropeCache({ ...options, out });
        assertSameBits(out.cos, expected.cos, 'out cos');
        assertSameBits(out.sin, expected.sin, 'out sin');
        assert.equal(written.attentionFactor, expected.factor);
      }
    });

    it('rope: batches with per-sequence offsets, positions, xPos over a batch, half dtypes, in place and into out', () => {
      const shape = { seqLen: 1500, numHeads: 3, headDim: 64 };
      for (const options of [
        { ...shape, batch: 2, offset: [5, 40000] },
        { ...shape, batch: 2, positions: jumpyPositions(3000, 6), layout: 'half' },
        { ...shape, batch: 3, offset: [0, 900, 3], xpos: { role: 'query' } },
        { ...shape, offset: 17, rotaryDim: 32, dtype: 'bfloat16' },
        { ...shape, batch: 2, dtype: 'float16', inverse: true },
        // schedules that go by the whole call's length (every piece is told it)
        { ...shape, batch: 2, offset: [5, 3000], scaling: DYNAMIC },
        { ...shape, batch: 2, positions: jumpyPositions(3000, 7), scaling: LONGROPE, layout: 'half' },
      ]) {
        const dtype = options.dtype ?? 'float32';
        const length = (options.batch ?? 1) * shape.seqLen * shape.numHeads * shape.headDim;
        const normals = randomNormal(length, 8);
        const x = dtype === 'float32' ? normals : randomHalfBits(normals, dtype);
        const expected = withWasm(
          () => ({ w: posenc.allocate(x, { dtype }) }),
          ({ w }) => posenc.rope(w, options).toArray(),
        );
        const half = dtype === 'float32' ? {} : { dtype };
        const inPlace = x.slice();
        posenc.rope(inPlace, { ...options, ...half });
        assertSameBits(inPlace, expected, `${JSON.stringify(options.offset)} in place`);
        const out = new x.constructor(length);
        posenc.rope(x, { ...options, ...half, out });
        assertSameBits(out, expected, 'into out');
      }
    });

    it("rope in 'heads' order and ropeQK (grouped keys, xPos, both orders): the bits of one call", () => {
      const shape = { seqLen: 1100, numHeads: 4, headDim: 64 };
      const ropeCases = [
        { ...shape, order: 'heads', batch: 2, offset: [9, 3000] },
        { ...shape, order: 'heads', batch: 2, positions: jumpyPositions(2200, 12), layout: 'half' },
        { ...shape, order: 'heads', xpos: { role: 'key' }, dtype: 'float16' },
        // xPos at positions: the center from the whole list's largest position
        { ...shape, batch: 2, positions: nearPositions(2200, 31), xpos: { role: 'query' } },
        { ...shape, order: 'heads', positions: nearPositions(1100, 32), xpos: { role: 'key', center: 9000 } },
        { ...shape, order: 'heads', batch: 2, offset: [9, 3000], scaling: LONGROPE, dtype: 'bfloat16' },
      ];
      for (const options of ropeCases) {
        const dtype = options.dtype ?? 'float32';
        const length = (options.batch ?? 1) * shape.seqLen * shape.numHeads * shape.headDim;
        const normals = randomNormal(length, 13);
        const x = dtype === 'float32' ? normals : randomHalfBits(normals, dtype);
        const expected = withWasm(
          () => ({ w: posenc.allocate(x, { dtype }) }),
          ({ w }) => posenc.rope(w, options).toArray(),
        );
        const inPlace = x.slice();
        posenc.rope(inPlace, options);
        assertSameBits(inPlace, expected, `heads order ${JSON.stringify(options.offset)}`);
      }
      for (const options of [
        { ...shape, numKvHeads: 2, batch: 2, offset: [4, 70] },
        { ...shape, numKvHeads: 1, xpos: {} },
        { ...shape, numKvHeads: 2, order: 'heads', positions: jumpyPositions(1100, 21) },
        { ...shape, numKvHeads: 4, dtype: 'bfloat16', layout: 'half', offset: 100 },
        { ...shape, numKvHeads: 2, batch: 2, positions: nearPositions(2200, 33), xpos: {} },
        { ...shape, numKvHeads: 1, order: 'heads', offset: 2000, scaling: DYNAMIC },
      ]) {
        const dtype = options.dtype ?? 'float32';
        const batch = options.batch ?? 1;
        const qLength = batch * shape.seqLen * shape.numHeads * shape.headDim;
        const kLength = batch * shape.seqLen * options.numKvHeads * shape.headDim;
        const half = (normals) => (dtype === 'float32' ? normals : randomHalfBits(normals, dtype));
        const q = half(randomNormal(qLength, 14));
        const k = half(randomNormal(kLength, 15));
        const expected = withWasm(
          () => ({ wq: posenc.allocate(q, { dtype }), wk: posenc.allocate(k, { dtype }) }),
          ({ wq, wk }) => {
            const both = posenc.ropeQK(wq, wk, options);
            return { q: both.q.toArray(), k: both.k.toArray() };
          },
        );
        const inPlace = { q: q.slice(), k: k.slice() };
        posenc.ropeQK(inPlace.q, inPlace.k, options);
        assertSameBits(inPlace.q, expected.q, `ropeQK ${options.numKvHeads} kv heads: q`);
        assertSameBits(inPlace.k, expected.k, `ropeQK ${options.numKvHeads} kv heads: k`);
        const out = { q: new q.constructor(qLength), k: new k.constructor(kLength) };
        posenc.ropeQK(q, k, { ...options, out });
        assertSameBits(out.q, expected.q, 'ropeQK into out: q');
        assertSameBits(out.k, expected.k, 'ropeQK into out: k');
      }
    });

    it("a RopePlan's apply in 'heads' order and applyQK (grouped keys, xPos, both orders): the bits of one call", () => {
      const shape = { seqLen: 1100, numHeads: 4, headDim: 64 };
      const half = (normals, dtype) => (dtype === 'float32' ? normals : randomHalfBits(normals, dtype));
      for (const [planOptions, apply] of [
        [{ ...shape, order: 'heads', batch: 2 }, { offset: [9, 3000] }],
        [{ ...shape, order: 'heads', batch: 2, layout: 'half' }, { positions: jumpyPositions(2200, 12) }],
        [
          { ...shape, order: 'heads', xpos: {}, batch: 2 },
          { positions: nearPositions(2200, 34), role: 'query' },
        ],
        [
          { ...shape, order: 'heads', xpos: {}, dtype: 'float16' },
          { offset: 7, role: 'key' },
        ],
      ]) {
        const plan = posenc.ropePlan(planOptions);
        const x = half(randomNormal((planOptions.batch ?? 1) * 1100 * 4 * 64, 13), plan.dtype);
        const expected = withWasm(
          () => ({ w: posenc.allocate(x, { dtype: plan.dtype }) }),
          ({ w }) => plan.apply(w, apply).toArray(),
        );
        const inPlace = x.slice();
        plan.apply(inPlace, apply);
        assertSameBits(inPlace, expected, `apply ${JSON.stringify(apply.offset)} in place`);
        const out = new x.constructor(x.length);
        plan.apply(x, { ...apply, out });
        assertSameBits(out, expected, `apply ${JSON.stringify(apply.offset)} into out`);
        plan.free();
      }
      for (const [planOptions, apply] of [
        [{ ...shape, numKvHeads: 2, batch: 2 }, { offset: [4, 70] }],
        [{ ...shape, numKvHeads: 1, xpos: {} }, { offset: 3 }],
        [{ ...shape, numKvHeads: 3, numHeads: 6, order: 'heads' }, { positions: jumpyPositions(1100, 21) }],
        [{ ...shape, numKvHeads: 1, xpos: {} }, { positions: nearPositions(1100, 35) }],
        [{ ...shape, numKvHeads: 2, order: 'heads', scaling: LONGROPE }, { offset: 500 }],
        [{ ...shape, numKvHeads: 4, dtype: 'bfloat16', layout: 'half', order: 'heads' }, { offset: 100 }],
      ]) {
        const plan = posenc.ropePlan(planOptions);
        const rows = (planOptions.batch ?? 1) * 1100 * 64;
        const q = half(randomNormal(rows * plan.numHeads, 14), plan.dtype);
        const k = half(randomNormal(rows * plan.numKvHeads, 15), plan.dtype);
        const label = `applyQK ${plan.numKvHeads} kv heads ${plan.order}`;
        const expected = withWasm(
          () => ({ wq: posenc.allocate(q, { dtype: plan.dtype }), wk: posenc.allocate(k, { dtype: plan.dtype }) }),
          ({ wq, wk }) => {
            const both = plan.applyQK(wq, wk, apply);
            return { q: both.q.toArray(), k: both.k.toArray() };
          },
        );
        const inPlace = { q: q.slice(), k: k.slice() };
        plan.applyQK(inPlace.q, inPlace.k, apply);
        assertSameBits(inPlace.q, expected.q, `${label}: q`);
        assertSameBits(inPlace.k, expected.k, `${label}: k`);
        const out = { q: new q.constructor(q.length), k: new k.constructor(k.length) };
        plan.applyQK(q, k, { ...apply, out });
        assertSameBits(out.q, expected.q, `${label} into out: q`);
        assertSameBits(out.k, expected.k, `${label} into out: k`);
        plan.free();
      }
    });

    it('ropeGrid: batches in both orders, frames', () => {
      const grid = { rows: 20, cols: 30, numHeads: 6, headDim: 64, variant: 'pixtral' };
      for (const options of [
        { ...grid, batch: 3 },
        { ...grid, order: 'heads', batch: 2 },
        { ...grid, variant: 'axial', frames: 2, order: 'heads' },
      ]) {
        const length = (options.batch ?? 1) * (options.frames ?? 1) * 600 * 6 * 64;
        const x = randomNormal(length, 17);
        const expected = withWasm(
          () => ({ w: posenc.allocate(x) }),
          ({ w }) => posenc.ropeGrid(w, options).toArray(),
        );
        const inPlace = x.slice();
        posenc.ropeGrid(inPlace, options);
        assertSameBits(inPlace, expected, `ropeGrid ${options.order ?? 'tokens'} in place`);
        const out = new Float32Array(length);
        posenc.ropeGrid(x, { ...options, out });
        assertSameBits(out, expected, `ropeGrid ${options.order ?? 'tokens'} into out`);
      }
    });

    it('alibiBias and relativePositionBuckets: queries cut mid-head, an offset', () => {
      const alibi = { numHeads: 5, queryLen: 301, keyLen: 333, offset: -7 };
      const expected = withWasm(
        () => ({ out: posenc.allocate(5 * 301 * 333) }),
        ({ out }) => posenc.alibiBias({ ...alibi, out }).toArray(),
      );
      assertSameBits(posenc.alibiBias(alibi), expected, 'alibi returned');
      const out = new Float32Array(expected.length);
      posenc.alibiBias({ ...alibi, out });
      assertSameBits(out, expected, 'alibi out');

      // int32 buckets have no WasmArray: one call of a small table per row is the reference
      const buckets = { queryLen: 1001, keyLen: 700, offset: 3, bidirectional: false, numBuckets: 40 };
      const whole = posenc.relativePositionBuckets(buckets);
      for (const row of [0, 64, 999, 1000]) {
        const one = posenc.relativePositionBuckets({ ...buckets, queryLen: 1, offset: 3 + row });
        assertSameBits(whole.subarray(row * 700, (row + 1) * 700), one, `buckets row ${row}`);
      }
    });

    it('similarity (dot, cosine) and convertLayout / convertLayoutWeights', () => {
      const a = randomNormal(900 * 96, 1);
      const b = randomNormal(301 * 96, 2);
      for (const metric of ['dot', 'cosine']) {
        const options = { rows: 900, cols: 301, dim: 96, metric };
        const expected = withWasm(
          () => ({ wa: posenc.allocate(a), wb: posenc.allocate(b), out: posenc.allocate(900 * 301) }),
          ({ wa, wb, out }) => posenc.similarity(wa, wb, { ...options, out }).toArray(),
        );
        assertSameBits(posenc.similarity(a, b, options), expected, `${metric} returned`);
      }
      const x = randomNormal(4099 * 64, 3);
      const w = randomNormal(8 * 64 * 300, 4);
      for (const [fn, input, options] of [
        ['convertLayout', x, { from: 'interleaved', to: 'half', headDim: 64, rotaryDim: 48 }],
        ['convertLayoutWeights', w, { from: 'half', to: 'interleaved', numHeads: 8, headDim: 64, hidden: 300 }],
      ]) {
        const expected = withWasm(
          () => ({ wx: posenc.allocate(input), out: posenc.allocate(input.length) }),
          ({ wx, out }) => posenc[fn](wx, { ...options, out }).toArray(),
        );
        assertSameBits(posenc[fn](input, options), expected, `${fn} returned`);
        const out = new Float32Array(input.length);
        posenc[fn](input, { ...options, out });
        assertSameBits(out, expected, `${fn} out`);
      }
    });

    it('attentionScores: by queries (none, alibi, t5; both orders, softmax, causal), as on WasmArrays', () => {
      const shape = { numHeads: 4, queryLen: 301, keyLen: 400, headDim: 32 };
      const t5 = { encoding: 't5', bias: randomNormal(32 * 4, 3), numBuckets: 32, maxDistance: 128 };
      for (const options of [
        { ...shape, encoding: 'alibi', causal: true },
        { ...shape, encoding: 'none', order: 'tokens', softmax: true, offset: 50 },
        { ...shape, ...t5, softmax: true, causal: true },
      ]) {
        const q = randomNormal(4 * 301 * 32, 1);
        const k = randomNormal(4 * 400 * 32, 2);
        const expected = withWasm(
          () => ({ wq: posenc.allocate(q), wk: posenc.allocate(k), out: posenc.allocate(4 * 301 * 400) }),
          ({ wq, wk, out }) => posenc.attentionScores(wq, wk, { ...options, out }).toArray(),
        );
        assertSameBits(posenc.attentionScores(q, k, options), expected, `${options.encoding} returned`);
        const out = new Float32Array(expected.length);
        posenc.attentionScores(q, k, { ...options, out });
        assertSameBits(out, expected, `${options.encoding} into out`);
      }
      // an offset at the largest position: one tile, and the core's own answer
      const edge = { numHeads: 2, queryLen: 700, keyLen: 700, offset: 2 ** 31 - 1 };
      const bias = withWasm(
        () => ({ out: posenc.allocate(2 * 700 * 700) }),
        ({ out }) => posenc.alibiBias({ ...edge, out }).toArray(),
      );
      assertSameBits(posenc.alibiBias(edge), bias, 'alibiBias at the largest offset');
    });

    it('attentionScores: by heads (sinusoidal, rope, xpos; both orders, odd sizes), as on WasmArrays', () => {
      // 7 heads of 301 queries and 263 keys: a head is about 0.4 MiB, so every head is a tile
      const shape = { numHeads: 7, queryLen: 301, keyLen: 263, headDim: 34, offset: 3 };
      for (const options of [
        { ...shape, encoding: 'rope', softmax: true },
        { ...shape, encoding: 'rope', order: 'tokens', layout: 'half', rotaryDim: 18, causal: true },
        { ...shape, encoding: 'rope', scaling: { type: 'dynamic', factor: 2, originalMaxPositionEmbeddings: 128 } },
        { ...shape, encoding: 'xpos', order: 'tokens', softmax: true, causal: true },
        { ...shape, encoding: 'xpos', scale: 0.5 },
        { ...shape, encoding: 'sinusoidal', order: 'tokens', layout: 'concat', softmax: true },
        { ...shape, encoding: 'sinusoidal', causal: true },
      ]) {
        const label = `${options.encoding} ${options.order ?? 'heads'}`;
        const q = randomNormal(7 * 301 * 34, 1);
        const k = randomNormal(7 * 263 * 34, 2);
        const expected = withWasm(
          () => ({ wq: posenc.allocate(q), wk: posenc.allocate(k), out: posenc.allocate(7 * 301 * 263) }),
          ({ wq, wk, out }) => posenc.attentionScores(wq, wk, { ...options, out }).toArray(),
        );
        assertSameBits(posenc.attentionScores(q, k, options), expected, `${label} returned`);
        const out = new Float32Array(expected.length);
        posenc.attentionScores(q, k, { ...options, out });
        assertSameBits(out, expected, `${label} into out`);
        // q in WASM memory, out a JS array: by heads in 'heads' order, one tile in 'tokens' order
        const mixed = new Float32Array(expected.length);
        withWasm(
          () => ({ wq: posenc.allocate(q) }),
          ({ wq }) => posenc.attentionScores(wq, k, { ...options, out: mixed }),
        );
        assertSameBits(mixed, expected, `${label} from a WasmArray q`);
      }
    });

    it('a bad call throws its error and writes nothing into a large out', () => {
      const fill = (out) => out.fill(0.5);
      const message = (run) => {
        try {
          run();
        } catch (error) {
          return error.message;
        }
        assert.fail('no error');
      };
      const untouched = (out) => out.every((v) => v === 0.5);
      const wrong = new Float32Array(3000 * 96 + 1);
      assert.throws(() => posenc.sinusoidal({ seqLen: 3000, dModel: 96, out: fill(wrong) }), {
        name: 'RangeError',
        message: /out/,
      });
      assert.ok(untouched(wrong), 'sinusoidal: a wrong-length out is not written');
      const out = fill(new Float32Array(3000 * 96));
      assert.throws(() => posenc.sinusoidal({ seqLen: 3000, dModel: 96, base: -2, out }), /base/);
      assert.throws(
        () => posenc.sinusoidal({ seqLen: 3000, dModel: 96, positions: new Int32Array(2999), out }),
        /positions/,
      );
      assert.ok(untouched(out), 'sinusoidal: nothing written on an option error');
      const alibi = fill(new Float32Array(4 * 500 * 500));
      assert.throws(() => posenc.alibiBias({ numHeads: 4, queryLen: 500, keyLen: 500, offset: 0.5, out: alibi }));
      assert.ok(untouched(alibi), 'alibiBias: nothing written');
      const cos = fill(new Float32Array(4000 * 64));
      const sin = fill(new Float32Array(4000 * 64 - 1));
      assert.throws(() => posenc.ropeCache({ seqLen: 4000, rotaryDim: 128, out: { cos, sin } }), /out\.sin/);
      assert.ok(untouched(cos) && untouched(sin), 'ropeCache: neither written');
      const scores = fill(new Float32Array(8 * 300 * 300));
      const q = randomNormal(8 * 300 * 32, 1);
      const rope = { numHeads: 8, queryLen: 300, keyLen: 300, headDim: 32, encoding: 'rope', out: scores };
      assert.throws(() => posenc.attentionScores(q, q.subarray(32), rope), { name: 'RangeError', message: /\bk\b/ });
      assert.throws(() => posenc.attentionScores(q, q, { ...rope, base: -2 }), /base/);
      assert.throws(() => posenc.attentionScores(q, q, { ...rope, encoding: 'xpos', offset: 2 ** 30 }), /xPos center/);
      assert.ok(untouched(scores), 'attentionScores by heads: nothing written');
      // rope in pieces: rows of a later sequence beyond the largest position or xPos's reach
      const seqs = { seqLen: 1100, numHeads: 4, headDim: 64, batch: 3 };
      const overflow = { offset: [0, 2 ** 31 - 100, 0] };
      const farRows = { offset: [40000, 0, 80000] }; // the middle sequence's rows are beyond xPos's reach
      const farPositions = new Int32Array(3300).fill(40000); // and two rows of a later tile
      farPositions[3000] = 0;
      farPositions[3100] = 80000;
      for (const [label, call] of [
        ['rope, an offset', (x) => posenc.rope(x, { ...seqs, ...overflow })],
        ['rope heads, an offset', (x) => posenc.rope(x, { ...seqs, order: 'heads', ...overflow })],
        ['rope, xPos', (x) => posenc.rope(x, { ...seqs, xpos: { role: 'query' }, ...farRows })],
        ['rope, xPos at positions', (x) => posenc.rope(x, { ...seqs, xpos: { role: 'key' }, positions: farPositions })],
        ['plan heads, an offset', (x) => posenc.ropePlan({ ...seqs, order: 'heads' }).apply(x, overflow)],
        ['plan, xPos', (x) => posenc.ropePlan({ ...seqs, xpos: {} }).apply(x, { ...farRows, role: 'key' })],
        ['plan applyQK, xPos', (x, k) => posenc.ropePlan({ ...seqs, xpos: {} }).applyQK(x, k, farRows)],
      ]) {
        const x = fill(new Float32Array(3 * 1100 * 4 * 64));
        const k = fill(new Float32Array(x.length));
        const expected = withWasm(
          () => ({ wx: posenc.allocate(x), wk: posenc.allocate(k) }),
          ({ wx, wk }) => message(() => call(wx, wk)),
        );
        assert.equal(
          message(() => call(x, k)),
          expected,
          label,
        );
        assert.ok(untouched(x) && untouched(k), `${label}: nothing written`);
      }
      const a = randomNormal(900 * 96, 1);
      assert.throws(() => posenc.similarity(a, a.subarray(1), { rows: 900, cols: 900, dim: 96 }), /\bb\b/);
      // the same messages as the one call on WasmArrays
      const resident = posenc.allocate(3000 * 96 + 1);
      try {
        // a returned array too large for the limits: the core's error, before any array is made
        for (const options of [
          { seqLen: 2 ** 16, dModel: 2 ** 14 },
          { seqLen: 5000, dModel: 96, positions: new Int32Array(4999) },
        ]) {
          assert.equal(
            message(() => posenc.sinusoidal(options)),
            message(() => posenc.sinusoidal({ ...options, out: resident })),
          );
        }
        assert.equal(
          message(() => posenc.sinusoidal({ seqLen: 3000, dModel: 96, out: wrong })),
          message(() => posenc.sinusoidal({ seqLen: 3000, dModel: 96, out: resident })).replace(
            'WasmArray',
            'Float32Array',
          ),
        );
      } finally {
        resident.free();
      }
    });
  });
}

describe('the WASM memory a call on JS arrays takes is bounded (a fresh instance per operation)', () => {
  // Far above the bound: 16 MiB arrays. The bound (docs/api.md): a tile (at most 1 MiB) or one unit
  // of the split (a row of a table, a query of every head, a head), plus the operands and lists.
  const BOUND = 4 * 2 ** 20;
  const rows = 16384;
  const cases = {
    sinusoidal: (p) => p.sinusoidal({ seqLen: rows, dModel: 256 }),
    sinusoidalWide: (p) => p.sinusoidal({ seqLen: 1024, dModel: 4096 }), // 256 of its rows are 4 MiB
    sinusoidalOut: (p) => p.sinusoidal({ seqLen: rows, dModel: 256, out: new Float32Array(rows * 256) }),
    addSinusoidal: (p) => p.addSinusoidal(new Float32Array(rows * 256), { seqLen: rows, dModel: 256 }),
    positionNumbers: (p) => p.positionNumbers({ seqLen: rows, dModel: 256 }),
    ropeCache: (p) => p.ropeCache({ seqLen: rows, rotaryDim: 256, batch: 2 }),
    ropeCacheLongrope: (p) =>
      p.ropeCache({
        seqLen: rows,
        rotaryDim: 256,
        batch: 2,
        scaling: { ...LONGROPE, shortFactor: Array(128).fill(1), longFactor: Array(128).fill(4) },
      }),
    rope: (p) =>
      p.rope(new Float32Array(rows * 256), {
        seqLen: rows / 8,
        numHeads: 2,
        headDim: 128,
        batch: 8,
        offset: [...Array(8).keys()],
      }),
    ropeHeads: (p) =>
      p.rope(new Float32Array(rows * 256), { seqLen: rows / 8, numHeads: 16, headDim: 128, order: 'heads' }),
    ropeDynamic: (p) =>
      p.rope(new Float32Array(rows * 256), {
        seqLen: rows,
        numHeads: 2,
        headDim: 128,
        offset: 5,
        scaling: { type: 'dynamic', factor: 2, originalMaxPositionEmbeddings: 4096 },
      }),
    ropeXposPositions: (p) =>
      p.rope(new Float32Array(rows * 256), {
        seqLen: rows,
        numHeads: 2,
        headDim: 128,
        xpos: { role: 'key' },
        positions: Int32Array.from({ length: rows }, (_, i) => i % 20000),
      }),
    ropeQK: (p) =>
      p.ropeQK(new Float32Array(rows * 256), new Float32Array(rows * 64), {
        seqLen: rows / 2,
        numHeads: 4,
        numKvHeads: 1,
        headDim: 128,
      }),
    ropePlanHeads: (p) =>
      p
        .ropePlan({ seqLen: rows / 8, numHeads: 16, headDim: 128, order: 'heads' })
        .apply(new Float32Array(rows * 256), { offset: 3 }),
    ropePlanApplyQK: (p) =>
      p
        .ropePlan({ seqLen: rows / 2, numHeads: 4, numKvHeads: 1, headDim: 128 })
        .applyQK(new Float32Array(rows * 256), new Float32Array(rows * 64), { offset: 3 }),
    ropeGrid: (p) =>
      p.ropeGrid(new Float32Array(rows * 256), {
        rows: 32,
        cols: 32,
        numHeads: 16,
        headDim: 64,
        batch: 4,
        order: 'heads',
        variant: 'pixtral',
      }),
    alibiBias: (p) => p.alibiBias({ numHeads: 4, queryLen: 1024, keyLen: 1024 }),
    attentionScores: (p) =>
      p.attentionScores(new Float32Array(2048 * 64), new Float32Array(2048 * 64), {
        queryLen: 2048,
        keyLen: 2048,
        headDim: 64,
        encoding: 'alibi',
        softmax: true,
      }),
    attentionScoresRope: (p) =>
      p.attentionScores(new Float32Array(16 * 512 * 64), new Float32Array(16 * 512 * 64), {
        numHeads: 16,
        queryLen: 512,
        keyLen: 512,
        headDim: 64,
        encoding: 'rope',
        order: 'tokens',
        softmax: true,
      }),
    relativePositionBuckets: (p) => p.relativePositionBuckets({ queryLen: 2048, keyLen: 2048 }),
    similarity: (p) =>
      p.similarity(new Float32Array(2048 * 64), new Float32Array(2048 * 64), { rows: 2048, cols: 2048, dim: 64 }),
    convertLayout: (p) =>
      p.convertLayout(new Float32Array(rows * 256), { from: 'interleaved', to: 'half', headDim: 128 }),
  };
  for (const [name, call] of Object.entries(cases)) {
    it(`${name}: WASM memory grows by less than ${BOUND / 2 ** 20} MiB`, async () => {
      const posenc = await loadPosenc();
      const start = posenc.memoryBytes;
      call(posenc);
      assert.ok(
        posenc.memoryBytes - start < BOUND,
        `${name}: WASM memory grew from ${start} to ${posenc.memoryBytes} bytes`,
      );
    });
  }
});
