// Leaks: 10,000 calls of every public function on small inputs, and 2,000 calls
// of each with bad arguments, leave the WASM heap where it started, in both builds.
//
// "Where it started" is measured twice: posenc.memoryBytes (the WASM memory never grows) and
// malloc's own state, through probes: the addresses a fresh small (4-byte) and a large
// (256 KiB, taken from the top of the heap) allocation get before and after the calls must be
// the same. A leaked block would take the probe's place or push the top of the heap up. The
// first test shows that the probes do see a leak of a few bytes per call.
//
// The bad calls include errors thrown by the caller's own code: a positions Array whose last
// element getter throws. posenc reads every option once, before it allocates anything, so such
// an error can never leave scratch memory behind.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { loadBothVariants, randomNormal } from './support.js';
import { mallocProbe } from './seam-support.js';

const CALLS = 10_000;
const BAD_CALLS = 2_000;
const WARM_UP = 100;
const HALF_CALLS = 1_000;

/** The heap as malloc sees it: where a new small and a new large block would go (the plans rope() keeps freed). */
function heapProbe(posenc) {
  posenc.freeCachedPlans();
  return { ...mallocProbe(posenc), memoryBytes: posenc.memoryBytes };
}

function describeProbe(p) {
  return `small probe at ${p.small}, large probe at ${p.large}, memory ${p.memoryBytes} bytes`;
}

/** Runs `call` `count` times (after a warm-up) and asserts the heap did not move. */
function assertNoLeak(t, posenc, label, count, call) {
  for (let i = 0; i < WARM_UP; i++) call(i);
  const before = heapProbe(posenc);
  const started = performance.now();
  for (let i = 0; i < count; i++) call(i);
  const ms = performance.now() - started;
  const after = heapProbe(posenc);
  t.diagnostic(
    `${posenc.variant} ${label}: ${count} calls in ${ms.toFixed(0)} ms; ` +
      `before: ${describeProbe(before)}; after: ${describeProbe(after)}`,
  );
  assert.deepEqual(after, before, `${label}: the heap moved after ${count} calls`);
}

/** Calls fn, which must throw an error that `expected` accepts. */
function throws(fn, expected) {
  try {
    fn();
  } catch (error) {
    if (!expected(error)) throw new Error(`unexpected error: ${error?.message ?? error}`);
    return;
  }
  throw new Error('expected the call to throw');
}

const isArgumentError = (error) => error instanceof TypeError || error instanceof RangeError;
const isGetterError = (error) => error instanceof TypeError && error.cause?.message === 'positions getter';

/** A positions Array whose last element's getter throws. */
function positionsThatThrow(count) {
  const positions = Array.from({ length: count }, (_, i) => i);
  Object.defineProperty(positions, count - 1, {
    get() {
      throw new Error('positions getter');
    },
  });
  return positions;
}

for (const posenc of await loadBothVariants()) {
  describe(`leaks (${posenc.variant})`, () => {
    const table = { seqLen: 4, dModel: 8 };
    const rope = { seqLen: 4, numHeads: 2, headDim: 8 };
    const ropeLength = 4 * 2 * 8;
    const x = randomNormal(table.seqLen * table.dModel, 1);
    const q = randomNormal(ropeLength, 2);
    const qOut = new Float32Array(ropeLength);
    const a = randomNormal(3 * 16, 3);
    const b = randomNormal(5 * 16, 4);
    const similarity = { rows: 3, cols: 5, dim: 16 };
    const bucketsOut = new Int32Array(200 * 200);

    it('the probes see a leak of 16 bytes per call', (t) => {
      const before = heapProbe(posenc);
      const leaked = Array.from({ length: 1000 }, () => posenc.allocate(4));
      const during = heapProbe(posenc);
      for (const array of leaked) array.free();
      const after = heapProbe(posenc);
      t.diagnostic(
        `${posenc.variant}: before ${describeProbe(before)}; with 1000 blocks of 16 bytes held: ${describeProbe(during)}; after freeing them: ${describeProbe(after)}`,
      );
      assert.ok(during.large > before.large, 'the large probe moved up past the held blocks');
      assert.deepEqual(after, before, 'freeing them brings the heap back');
    });

    const scores = { numHeads: 2, queryLen: 5, keyLen: 9, headDim: 8 };
    const calls = {
      sinusoidal: () => posenc.sinusoidal(table),
      'sinusoidal (concat, positions Array)': () =>
        posenc.sinusoidal({ ...table, layout: 'concat', positions: [5, 1, 4, 1] }),
      'sinusoidal (out Float32Array)': () => posenc.sinusoidal({ ...table, offset: 3, out: new Float32Array(32) }),
      addSinusoidal: () => posenc.addSinusoidal(x, { ...table, positions: Int32Array.of(9, 8, 7, 6) }),
      positionNumbers: () => posenc.positionNumbers({ seqLen: 4, dModel: 3, offset: 2 }),
      ropeFrequencies: () => posenc.ropeFrequencies({ rotaryDim: 16 }),
      ropeCache: () => posenc.ropeCache({ seqLen: 4, rotaryDim: 8, positions: [0, 10, 20, 30] }),
      'rope (interleaved, in place, JS array)': () => posenc.rope(q, { ...rope, offset: 5 }),
      'rope (half, out JS array, partial)': () => posenc.rope(q, { ...rope, layout: 'half', rotaryDim: 4, out: qOut }),
      'similarity (dot)': () => posenc.similarity(a, b, similarity),
      'similarity (cosine)': () => posenc.similarity(a, b, { ...similarity, metric: 'cosine' }),
      'rope (xpos key, explicit center)': () => posenc.rope(q, { ...rope, xpos: { role: 'key', center: 2 } }),
      'ropePlan (xpos, apply as a query)': () => {
        const plan = posenc.ropePlan({ ...rope, xpos: {} });
        plan.apply(q, { offset: 3, role: 'query' });
        plan.free();
      },
      alibiSlopes: () => posenc.alibiSlopes({ numHeads: 12 }),
      alibiBias: () => posenc.alibiBias({ numHeads: 3, queryLen: 5, keyLen: 9 }),
      relativePositionBuckets: () => posenc.relativePositionBuckets({ queryLen: 5, keyLen: 7, offset: 3 }),
      'attentionScores (rope, softmax, causal)': () =>
        posenc.attentionScores(new Float32Array(80), new Float32Array(144), {
          ...scores,
          encoding: 'rope',
          softmax: true,
          causal: true,
        }),
      'attentionScores (t5, large: its own scratch block)': () =>
        posenc.attentionScores(new Float32Array(128 * 16), new Float32Array(160 * 16), {
          queryLen: 128,
          keyLen: 160,
          headDim: 16,
          encoding: 't5',
          bias: new Float32Array(32),
        }),
      'relativePositionBuckets (out Int32Array, large: its own scratch block)': () =>
        posenc.relativePositionBuckets({ queryLen: 200, keyLen: 200, bidirectional: false, out: bucketsOut }),
      'rope (yarn scaling, batch 2, per-sequence offsets, heads order, inverse)': () =>
        posenc.rope(q, {
          seqLen: 4,
          batch: 2,
          numHeads: 1,
          headDim: 8,
          order: 'heads',
          inverse: true,
          offset: [3, 9],
          scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 64 },
        }),
      'rope (longrope lists, explicit positions)': () =>
        posenc.rope(q, {
          ...rope,
          positions: [0, 1, 70, 71],
          scaling: {
            type: 'longrope',
            shortFactor: [1, 1, 1, 1],
            longFactor: [2, 2, 4, 4],
            originalMaxPositionEmbeddings: 64,
            factor: 2,
          },
        }),
      'ropeQK (grouped-query)': () => posenc.ropeQK(q, qOut.subarray(0, 32), { ...rope, numKvHeads: 1 }),
      'ropeSchedule (llama3)': () =>
        posenc.ropeSchedule({
          rotaryDim: 16,
          scaling: {
            type: 'llama3',
            factor: 8,
            lowFreqFactor: 1,
            highFreqFactor: 4,
            originalMaxPositionEmbeddings: 64,
          },
        }),
      convertLayout: () => posenc.convertLayout(q, { from: 'interleaved', to: 'half', headDim: 4 }),
      convertLayoutWeights: () =>
        posenc.convertLayoutWeights(q, { from: 'half', to: 'interleaved', numHeads: 2, headDim: 8, hidden: 4 }),
      'mropePositions (text, image, video)': () =>
        posenc.mropePositions({
          segments: [{ text: 3 }, { image: [1, 4, 4] }, { text: 2 }, { video: [2, 2, 4], secondsPerGrid: 2 }],
          model: 'qwen2.5-vl',
        }),
      'mropePositions (a bad segment)': () => {
        try {
          posenc.mropePositions({ segments: [{ text: 3 }, { image: [1, 3, 4] }] });
        } catch {
          // the error path must not leak either
        }
      },
      'rope (mrope, Qwen3-VL interleaved, three rows of positions)': () =>
        posenc.rope(q, {
          seqLen: 4,
          headDim: 8,
          numHeads: 2,
          layout: 'half',
          mrope: { section: [2, 1, 1], interleaved: true },
          positions: [0, 1, 1, 2, 0, 1, 0, 2, 0, 0, 1, 2],
        }),
      'ropeGrid (pixtral, out JS array)': () =>
        posenc.ropeGrid(q, { rows: 2, cols: 2, numHeads: 2, headDim: 8, variant: 'pixtral', out: qOut }),
      'allocate(length) + free': () => posenc.allocate(32).free(),
      'allocate(values) + free': () => posenc.allocate(a).free(),
    };
    for (const [label, call] of Object.entries(calls)) {
      it(`${label}: ${CALLS} calls`, (t) => assertNoLeak(t, posenc, label, CALLS, call));
    }

    it(`WasmArray inputs and outputs (rope both layouts, similarity, sinusoidal out): ${CALLS} calls each`, (t) => {
      const wx = posenc.allocate(q);
      const wout = posenc.allocate(ropeLength);
      const wa = posenc.allocate(a);
      const wb = posenc.allocate(b);
      const wsim = posenc.allocate(15);
      const wtable = posenc.allocate(32);
      try {
        assertNoLeak(t, posenc, 'rope (interleaved, WasmArray in place)', CALLS, () => posenc.rope(wx, rope));
        assertNoLeak(t, posenc, 'rope (half, WasmArray out)', CALLS, () =>
          posenc.rope(wx, { ...rope, layout: 'half', out: wout }),
        );
        assertNoLeak(t, posenc, 'similarity (WasmArrays)', CALLS, () =>
          posenc.similarity(wa, wb, { ...similarity, out: wsim }),
        );
        assertNoLeak(t, posenc, 'sinusoidal (WasmArray out)', CALLS, () =>
          posenc.sinusoidal({ ...table, out: wtable }),
        );
      } finally {
        for (const array of [wx, wout, wa, wb, wsim, wtable]) array.free();
      }
    });

    it(`half precision: ${HALF_CALLS} calls of each operation in float16 and bfloat16, good and refused`, (t) => {
      const shape = { seqLen: 4, numHeads: 2, headDim: 8 };
      const bits = new Uint16Array(64).fill(0x3c00);
      const keys = new Uint16Array(32).fill(0x3c00);
      const big = new Uint16Array(2048 * 128); // streamed in blocks of rows
      for (const dtype of ['float16', 'bfloat16']) {
        const w = posenc.allocate(64, { dtype });
        const plan = posenc.ropePlan({ ...shape, dtype });
        try {
          const calls = {
            'sinusoidal (new array)': () => posenc.sinusoidal({ seqLen: 4, dModel: 8, dtype }),
            'positionNumbers (new array)': () => posenc.positionNumbers({ seqLen: 4, dModel: 8, dtype }),
            'ropeCache (new arrays)': () => posenc.ropeCache({ seqLen: 4, rotaryDim: 8, dtype }),
            'addSinusoidal (JS array)': () => posenc.addSinusoidal(bits, { seqLen: 8, dModel: 8, dtype }),
            'rope (JS array)': () => posenc.rope(bits, { ...shape, dtype, offset: 3 }),
            'rope (streamed JS array)': () => posenc.rope(big, { seqLen: 2048, numHeads: 2, headDim: 64, dtype }),
            'rope (WasmArray)': () => posenc.rope(w, shape),
            'ropeQK (JS arrays)': () => posenc.ropeQK(bits, keys, { ...shape, numKvHeads: 1, dtype }),
            'plan.apply (WasmArray)': () => plan.apply(w, { offset: 9 }),
            'allocate(bits) + free': () => posenc.allocate(bits, { dtype }).free(),
            'refused: Uint16Array without dtype': () =>
              throws(
                () => posenc.rope(bits, shape),
                (e) => e instanceof TypeError && e.parameter === 'x',
              ),
            'refused: a float32 out': () =>
              throws(
                () => posenc.rope(w, { ...shape, out: new Float32Array(64) }),
                (e) => e instanceof TypeError && e.parameter === 'out',
              ),
            'refused: x too short': () =>
              throws(
                () => posenc.rope(w.subarray(1), shape),
                (e) => e instanceof RangeError && e.parameter === 'x',
              ),
          };
          for (const [label, call] of Object.entries(calls))
            assertNoLeak(t, posenc, `${dtype} ${label}`, label.includes('streamed') ? 100 : HALF_CALLS, call);
        } finally {
          plan.free();
          w.free();
        }
      }
    });

    it(`bad arguments: ${BAD_CALLS} throwing calls of each function`, (t) => {
      const freed = posenc.allocate(ropeLength);
      freed.free();
      const wa = posenc.allocate(a);
      const overlapping = posenc.allocate(64);
      const bad = {
        'sinusoidal (odd dModel)': () => posenc.sinusoidal({ seqLen: 4, dModel: 7 }),
        'sinusoidal (negative position)': () => posenc.sinusoidal({ ...table, positions: [0, 1, -1, 2] }),
        'sinusoidal (out too short)': () => posenc.sinusoidal({ ...table, out: new Float32Array(31) }),
        'sinusoidal (size above the maximum)': () => posenc.sinusoidal({ seqLen: 2 ** 24, dModel: 2 ** 16 }),
        'addSinusoidal (x too long)': () => posenc.addSinusoidal(new Float32Array(33), table),
        'positionNumbers (offset too large)': () =>
          posenc.positionNumbers({ seqLen: 4, dModel: 1, offset: 2 ** 31 - 2 }),
        'ropeFrequencies (odd rotaryDim)': () => posenc.ropeFrequencies({ rotaryDim: 3 }),
        'ropeCache (NaN base)': () => posenc.ropeCache({ seqLen: 4, rotaryDim: 8, base: NaN }),
        'rope (rotaryDim above headDim)': () => posenc.rope(q, { ...rope, rotaryDim: 10 }),
        'rope (freed WasmArray)': () => posenc.rope(freed, rope),
        'similarity (unknown metric)': () => posenc.similarity(a, b, { ...similarity, metric: 'l2' }),
        'alibiBias (offset not an integer)': () =>
          posenc.alibiBias({ numHeads: 2, queryLen: 2, keyLen: 2, offset: 0.5 }),
        'alibiSlopes (maxBias 0)': () => posenc.alibiSlopes({ numHeads: 2, maxBias: 0 }),
        'rope (xpos: positions too far from the center)': () =>
          posenc.rope(q, { ...rope, offset: 50000, xpos: { role: 'query', center: 0 } }),
        'attentionScores (bias too short)': () =>
          posenc.attentionScores(new Float32Array(80), new Float32Array(144), {
            ...scores,
            encoding: 't5',
            bias: new Float32Array(63),
          }),
        'attentionScores (rope at a negative offset)': () =>
          posenc.attentionScores(new Float32Array(80), new Float32Array(144), {
            ...scores,
            encoding: 'rope',
            offset: -1,
          }),
        'similarity (out overlapping a)': () =>
          posenc.similarity(wa, wa, { rows: 3, cols: 3, dim: 16, out: overlapping }),
        'allocate (negative length)': () => posenc.allocate(-1),
        'rope (mrope section of the wrong sum)': () =>
          posenc.rope(q, { seqLen: 4, headDim: 8, numHeads: 2, mrope: { section: [1, 1, 1] } }),
        'rope (mrope positions of one row)': () =>
          posenc.rope(q, {
            seqLen: 4,
            headDim: 8,
            numHeads: 2,
            mrope: { section: [2, 1, 1] },
            positions: [0, 1, 2, 3],
          }),
        'ropeGrid (axial headDim 6)': () => posenc.ropeGrid(q, { rows: 2, cols: 2, headDim: 6, variant: 'axial' }),
        'relativePositionBuckets (maxDistance too small)': () =>
          posenc.relativePositionBuckets({ queryLen: 4, keyLen: 4, maxDistance: 8 }),
        'relativePositionBuckets (out too short)': () =>
          posenc.relativePositionBuckets({ queryLen: 200, keyLen: 200, out: new Int32Array(39999) }),
      };
      // Thrown by the caller's getter while the options are read.
      const getterThrows = {
        'sinusoidal (positions getter throws)': () => posenc.sinusoidal({ ...table, positions: positionsThatThrow(4) }),
        'addSinusoidal (positions getter throws)': () =>
          posenc.addSinusoidal(x, { ...table, positions: positionsThatThrow(4) }),
        'ropeCache (positions getter throws)': () =>
          posenc.ropeCache({ seqLen: 4, rotaryDim: 8, positions: positionsThatThrow(4) }),
        'rope (positions getter throws)': () => posenc.rope(q, { ...rope, positions: positionsThatThrow(4) }),
      };
      try {
        for (const [label, call] of Object.entries(bad)) {
          assertNoLeak(t, posenc, label, BAD_CALLS, () => throws(call, isArgumentError));
        }
        for (const [label, call] of Object.entries(getterThrows)) {
          assertNoLeak(t, posenc, label, BAD_CALLS, () => throws(call, isGetterError));
        }
      } finally {
        wa.free();
        overlapping.free();
      }
      // The instance still works after all of them.
      assert.deepEqual(Array.from(posenc.positionNumbers({ seqLen: 2, dModel: 2, offset: 1 })), [1, 1, 2, 2]);
    });
  });
}
