// The shapes models use, through posenc.rope on both builds: batches whose sequences sit at
// their own positions (positions of batch × seqLen, or one offset per sequence), tokens- and
// heads-major tensors, inverse rotation, against the float64 references, and the shape mistakes
// of rope, ropeQK and the conversions; the declarations of that API type-check. (ropeQK's GQA
// and the pairing conversions: rope-qk, convert-layout and convert-layout-weights.test.js.)
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import {
  ROPE_EPS,
  assertIdentical,
  assertParameterError,
  assertRopeClose,
  loadBothVariants,
  randomNormal,
  randomPositions,
} from './support.js';
import { reorder, rotateReference } from './shapes-reference.js';
import { inverseFrequency } from './reference.js';
import { typecheckScratch } from '../typecheck.js';

const invFreqOf = (rotaryDim, base = 10000) =>
  Array.from({ length: rotaryDim / 2 }, (_, i) => inverseFrequency(i, rotaryDim, base));

/** rope(x, options) against the float64 reference, compared in the tokens-major view. */
function checkBatch(posenc, x, options, label) {
  const {
    batch = 1,
    seqLen,
    numHeads = 1,
    headDim,
    rotaryDim = headDim,
    layout = 'interleaved',
    order = 'tokens',
  } = options;
  const out = posenc.rope(x.slice(), options);
  const want = rotateReference(x, { ...options, invFreq: invFreqOf(rotaryDim) });
  const shape = { batch, seqLen, numHeads, headDim };
  const tokens = (a) => (order === 'heads' ? reorder(a, shape, 'heads', 'tokens') : a);
  assertRopeClose(
    tokens(out),
    tokens(x),
    tokens(want),
    { seqLen: batch * seqLen, numHeads, headDim, rotaryDim, layout },
    label,
  );
  return out;
}

function assertStillWorks(posenc, label) {
  const rotated = Array.from(posenc.rope(Float32Array.of(1, 0), { seqLen: 1, headDim: 2, offset: 1 }));
  assert.deepEqual(rotated, [Math.cos(1), Math.sin(1)].map(Math.fround), `${label}: rope after the error`);
}

for (const posenc of await loadBothVariants()) {
  describe(`RoPE shapes (${posenc.variant})`, () => {
    it('batches: positions per row (KV-cache decoding), offsets per sequence, one shared offset', () => {
      let seed = 1;
      for (const layout of ['interleaved', 'half']) {
        for (const order of ['tokens', 'heads']) {
          const base = { batch: 3, seqLen: 6, numHeads: 2, headDim: 20, rotaryDim: 12, layout, order };
          const n = 3 * 6 * 2 * 20;
          checkBatch(
            posenc,
            randomNormal(n, seed++),
            { ...base, positions: randomPositions(18, 100000, seed) },
            `${layout} ${order} positions`,
          );
          checkBatch(
            posenc,
            randomNormal(n, seed++),
            { ...base, offset: [0, 4093, 70000] },
            `${layout} ${order} offsets`,
          );
          checkBatch(
            posenc,
            randomNormal(n, seed++),
            { ...base, offset: Int32Array.of(9, 8, 7) },
            `${layout} ${order} Int32Array offsets`,
          );
          checkBatch(posenc, randomNormal(n, seed++), { ...base, offset: 512 }, `${layout} ${order} shared offset`);
        }
      }
    });

    it("one decoding step per sequence: batch of seqLen 1 at each sequence's own position, on a WasmArray in place", () => {
      const [batch, numHeads, headDim] = [4, 8, 64];
      const values = randomNormal(batch * numHeads * headDim, 5);
      const x = posenc.allocate(values);
      try {
        const options = { batch, seqLen: 1, numHeads, headDim, layout: 'half', positions: [17, 3, 250, 4096] };
        assert.equal(posenc.rope(x, options), x);
        const want = rotateReference(values, { ...options, invFreq: invFreqOf(headDim) });
        assertRopeClose(x.toArray(), values, want, { seqLen: batch, numHeads, headDim, layout: 'half' }, 'decode step');
      } finally {
        x.free();
      }
    });

    it('heads-major is the tokens-major result transposed, bit for bit', () => {
      const shape = { batch: 2, seqLen: 9, numHeads: 3, headDim: 16 };
      const x = randomNormal(2 * 9 * 3 * 16, 7);
      for (const layout of ['interleaved', 'half']) {
        const options = { ...shape, layout, offset: [100, 2] };
        const tokens = posenc.rope(x.slice(), options);
        const heads = posenc.rope(reorder(x, shape, 'tokens', 'heads'), { ...options, order: 'heads' });
        assertIdentical(reorder(heads, shape, 'heads', 'tokens'), tokens, layout);
      }
    });

    it('inverse rotates by -theta: undoes rope, and moves cached keys to new positions', () => {
      const options = {
        batch: 2,
        seqLen: 7,
        numHeads: 2,
        headDim: 32,
        rotaryDim: 24,
        layout: 'interleaved',
        offset: [40, 9000],
      };
      const x = randomNormal(2 * 7 * 2 * 32, 13);
      const back = posenc.rope(x.slice(), { ...options, inverse: true });
      const want = rotateReference(x, { ...options, inverse: true, invFreq: invFreqOf(24) });
      assertRopeClose(
        back,
        x,
        want,
        { seqLen: 14, numHeads: 2, headDim: 32, rotaryDim: 24, layout: 'interleaved' },
        'inverse',
      );
      const roundTrip = posenc.rope(posenc.rope(x.slice(), options), { ...options, inverse: true });
      roundTrip.forEach((v, i) => {
        assert.ok(Math.abs(v - x[i]) <= 4 * ROPE_EPS * (1 + Math.abs(x[i])), `round trip [${i}]`);
      });
      const moved = posenc.rope(posenc.rope(posenc.rope(x.slice(), options), { ...options, inverse: true }), {
        ...options,
        offset: [0, 0],
      });
      const direct = posenc.rope(x.slice(), { ...options, offset: [0, 0] });
      moved.forEach((v, i) => {
        assert.ok(Math.abs(v - direct[i]) <= 6 * ROPE_EPS * (1 + Math.abs(x[i])), `moved [${i}]`);
      });
    });

    it('shape mistakes name their parameter; the instance stays usable', () => {
      const f32 = (n) => new Float32Array(n);
      const ROPE = { seqLen: 2, headDim: 4 };
      const cases = [
        ['rope', () => posenc.rope(f32(16), { ...ROPE, batch: 2.5 }), RangeError, 'batch'],
        ['rope', () => posenc.rope(f32(16), { ...ROPE, batch: '2' }), TypeError, 'batch'],
        ['rope', () => posenc.rope(f32(16), { ...ROPE, batch: 2 ** 23 + 1 }), RangeError, 'batch'],
        ['rope', () => posenc.rope(f32(8), { ...ROPE, batch: 2 }), RangeError, 'x'],
        ['rope', () => posenc.rope(f32(8), { ...ROPE, order: 'bshd' }), RangeError, 'order'],
        ['rope', () => posenc.rope(f32(8), { ...ROPE, order: 1 }), TypeError, 'order'],
        ['rope', () => posenc.rope(f32(8), { ...ROPE, inverse: 1 }), TypeError, 'inverse'],
        ['rope', () => posenc.rope(f32(16), { ...ROPE, batch: 2, positions: [0, 1] }), RangeError, 'positions'],
        ['rope', () => posenc.rope(f32(16), { ...ROPE, batch: 2, offset: [0] }), RangeError, 'offset'],
        ['rope', () => posenc.rope(f32(16), { ...ROPE, batch: 2, offset: [0, -1] }), RangeError, 'offset[1]'],
        ['rope', () => posenc.rope(f32(16), { ...ROPE, batch: 2, offset: [0, 1.5] }), RangeError, 'offset[1]'],
        ['rope', () => posenc.rope(f32(16), { ...ROPE, batch: 2, offset: [0, '1'] }), TypeError, 'offset[1]'],
        ['rope', () => posenc.rope(f32(16), { ...ROPE, batch: 2, offset: [0, 2 ** 31 - 1] }), RangeError, 'offset'],
        [
          'rope',
          () => posenc.rope(f32(16), { ...ROPE, batch: 2, offset: [0, 1], positions: [0, 1, 2, 3] }),
          TypeError,
          'offset',
        ],
        ['ropeCache', () => posenc.ropeCache({ seqLen: 2, rotaryDim: 4, batch: 2, offset: [1] }), RangeError, 'offset'],
        ['ropeQK', () => posenc.ropeQK(f32(8), f32(8), { ...ROPE, numKvHeads: 0 }), RangeError, 'numKvHeads'],
        ['ropeQK', () => posenc.ropeQK(f32(8), f32(8), { ...ROPE, numKvHeads: 2 ** 16 + 1 }), RangeError, 'numKvHeads'],
        ['ropeQK', () => posenc.ropeQK(f32(8), f32(8), { ...ROPE, numKvHeads: 2 }), RangeError, 'k'],
        ['ropeQK', () => posenc.ropeQK(f32(8), 'k', ROPE), TypeError, 'k'],
        [
          'ropeQK',
          () => {
            const a = f32(8);
            posenc.ropeQK(a, a, ROPE);
          },
          RangeError,
          'k',
        ],
        [
          'ropeQK',
          () => {
            const a = f32(16);
            posenc.ropeQK(a.subarray(0, 8), a.subarray(4, 12), ROPE);
          },
          RangeError,
          'k',
        ],
        ['ropeQK', () => posenc.ropeQK(f32(8), f32(8), { ...ROPE, out: f32(8) }), TypeError, 'out'],
        [
          'ropeQK',
          () => {
            const o = f32(8);
            posenc.ropeQK(f32(8), f32(8), { ...ROPE, out: { q: o, k: o } });
          },
          RangeError,
          'out.k',
        ],
        ['convertLayout', () => posenc.convertLayout(f32(8), { to: 'half', headDim: 4 }), TypeError, 'from'],
        [
          'convertLayout',
          () => posenc.convertLayout(f32(8), { from: 'neox', to: 'half', headDim: 4 }),
          RangeError,
          'from',
        ],
        [
          'convertLayout',
          () => posenc.convertLayout(f32(10), { from: 'half', to: 'interleaved', headDim: 4 }),
          RangeError,
          'x',
        ],
        [
          'convertLayout',
          () => posenc.convertLayout(f32(8), { from: 'half', to: 'interleaved', headDim: 4, rotaryDim: 3 }),
          RangeError,
          'rotaryDim',
        ],
        [
          'convertLayout',
          () => posenc.convertLayout(f32(8), { from: 'half', to: 'interleaved', headDim: 4, rotaryDim: 6 }),
          RangeError,
          'rotaryDim',
        ],
        [
          'convertLayout',
          () => posenc.convertLayout([1, 2], { from: 'half', to: 'interleaved', headDim: 2 }),
          TypeError,
          'x',
        ],
        [
          'convertLayout',
          () => {
            const a = f32(8);
            posenc.convertLayout(a, { from: 'half', to: 'interleaved', headDim: 4, out: a });
          },
          RangeError,
          'out',
        ],
        [
          'convertLayoutWeights',
          () =>
            posenc.convertLayoutWeights(f32(8), {
              from: 'half',
              to: 'interleaved',
              numHeads: 1,
              headDim: 4,
              hidden: 0,
            }),
          RangeError,
          'hidden',
        ],
        [
          'convertLayoutWeights',
          () =>
            posenc.convertLayoutWeights(f32(8), {
              from: 'half',
              to: 'interleaved',
              numHeads: 1,
              headDim: 4,
              hidden: 3,
            }),
          RangeError,
          'w',
        ],
        [
          'convertLayoutWeights',
          () => posenc.convertLayoutWeights(f32(8), { from: 'half', to: 'interleaved', headDim: 4, hidden: 2 }),
          TypeError,
          'numHeads',
        ],
      ];
      for (const [fn, call, type, parameter] of cases) {
        const error = assertParameterError(call, type, parameter, `${fn}: ${parameter}`);
        assert.ok(error.message.startsWith(`posenc.${fn}: `), error.message);
        assertStillWorks(posenc, `${fn}: ${parameter}`);
      }
    });
  });
}

// The declarations of the new API, compiled by TypeScript (strict) in a scratch folder.
const root = fileURLToPath(new URL('../..', import.meta.url));
const CONSUMER_TS = `
import { loadPosenc, type Posenc, type RopeScaling, type RopeSchedule } from '${join(root, 'bindings/js/node.js')}';
const posenc: Posenc = await loadPosenc({ simd: false });
const yarn: RopeScaling = { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 32768 };
const schedule: RopeSchedule = posenc.ropeSchedule({ rotaryDim: 128, base: 1e6, scaling: yarn });
const freqs: Float64Array = posenc.ropeFrequencies({ headDim: 96, partialRotaryFactor: 0.25 });
const { cos, sin, attentionFactor } = posenc.ropeCache({ seqLen: 4, rotaryDim: 8, batch: 2, offset: [0, 9], scaling: yarn });
const x: Float32Array = posenc.rope(new Float32Array(64), { batch: 2, seqLen: 4, headDim: 8, order: 'heads', inverse: true, positions: [0, 1, 2, 3, 9, 10, 11, 12] });
const qk: { q: Float32Array; k: Float32Array } = posenc.ropeQK(new Float32Array(64), new Float32Array(32), { seqLen: 4, numHeads: 2, numKvHeads: 1, headDim: 8 });
const w: Float32Array = posenc.convertLayoutWeights(new Float32Array(32), { from: 'interleaved', to: 'half', numHeads: 1, headDim: 8, hidden: 4 });
const a: Float32Array = posenc.convertLayout(new Float32Array(8), { from: 'half', to: 'interleaved', headDim: 8 });
// @ts-expect-error: scaling types are checked
posenc.rope(new Float32Array(8), { seqLen: 1, headDim: 8, scaling: { type: 'ntk', factor: 2 } });
// @ts-expect-error: yarn needs originalMaxPositionEmbeddings
const bad: RopeScaling = { type: 'yarn', factor: 4 };
// @ts-expect-error: order names are checked
posenc.rope(new Float32Array(8), { seqLen: 1, headDim: 8, order: 'bshd' });
console.log(schedule.attentionFactor, freqs.length, cos.length, sin.length, attentionFactor, x.length, qk.q.length, w.length, a.length, bad);
`;

it('index.d.ts declares the scaling, batch, order, ropeQK and conversion API (strict TypeScript)', () => {
  typecheckScratch(CONSUMER_TS);
});
