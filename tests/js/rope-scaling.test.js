// Long-context scaling through the JS API, on both builds: ropeCache / rope against the golden vectors of scripts/make_golden_scaling.py (Hugging Face's
// formulas in torch float64) on real model configs (Llama 3.1/3.2 llama3, Qwen2.5 and
// DeepSeek-V3 YaRN, Phi-3.5-mini and Phi-3-vision LongRoPE, GPT-NeoX and Phi-2 partial rotary,
// linear, dynamic below/at/above the original length); the length-dependent types following
// the largest position of a call; partialRotaryFactor; and every scaling mistake named.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  ROPE_EPS,
  TABLE_BOUND,
  assertClose,
  assertIdentical,
  assertParameterError,
  assertRopeClose,
  assertStillWorks,
  loadBothVariants,
  randomNormal,
  readGolden,
  SCHEDULE_BOUND,
  relativeError,
} from './support.js';
import { reorder, rotateReference } from './shapes-reference.js';

const golden = readGolden('rope-scaling.json');

/** rope options of a golden case, without the positions. */
function ropeOptions(c) {
  const options = { base: c.base, headDim: c.headDim };
  if (c.partialRotaryFactor !== null) options.partialRotaryFactor = c.partialRotaryFactor;
  else options.rotaryDim = c.rotaryDim;
  if (c.scaling !== null) options.scaling = c.scaling;
  return options;
}

/** The instance still computes: a known rotation after an error. */
const YARN = { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 64 };
const LLAMA3 = { type: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 64 };
const LONGROPE = {
  type: 'longrope',
  shortFactor: [1, 1.5],
  longFactor: [2, 3],
  originalMaxPositionEmbeddings: 64,
  maxPositionEmbeddings: 256,
};

/** Scaling mistakes as [label, scaling, error type, parameter]; rotaryDim is 4 (2 pairs). */
const SCALING_MISTAKES = [
  ['scaling a string', 'yarn', TypeError, 'scaling'],
  ['scaling null', null, TypeError, 'scaling'],
  ['scaling an array', [YARN], TypeError, 'scaling'],
  ['type missing', { factor: 2 }, TypeError, 'scaling.type'],
  ['type unknown', { type: 'ntk', factor: 2 }, RangeError, 'scaling.type'],
  ['type a number', { type: 3, factor: 2 }, TypeError, 'scaling.type'],
  ['linear factor missing', { type: 'linear' }, TypeError, 'scaling.factor'],
  ['linear factor below 1', { type: 'linear', factor: 0.5 }, RangeError, 'scaling.factor'],
  ['linear factor NaN', { type: 'linear', factor: Number.NaN }, RangeError, 'scaling.factor'],
  ['linear factor Infinity', { type: 'linear', factor: Infinity }, RangeError, 'scaling.factor'],
  ['linear factor a string', { type: 'linear', factor: '2' }, TypeError, 'scaling.factor'],
  [
    'linear with a key of another type',
    { type: 'linear', factor: 2, originalMaxPositionEmbeddings: 64 },
    TypeError,
    'scaling',
  ],
  ['snake_case key', { ...YARN, beta_fast: 32 }, TypeError, 'scaling'],
  ['Hugging Face rope_type key', { ...YARN, rope_type: 'yarn' }, TypeError, 'scaling'],
  [
    'dynamic without originalMaxPositionEmbeddings',
    { type: 'dynamic', factor: 2 },
    TypeError,
    'scaling.originalMaxPositionEmbeddings',
  ],
  ['yarn without factor', { type: 'yarn', originalMaxPositionEmbeddings: 64 }, TypeError, 'scaling.factor'],
  [
    'yarn original 1',
    { ...YARN, originalMaxPositionEmbeddings: 1 },
    RangeError,
    'scaling.originalMaxPositionEmbeddings',
  ],
  [
    'yarn original non-integer',
    { ...YARN, originalMaxPositionEmbeddings: 64.5 },
    RangeError,
    'scaling.originalMaxPositionEmbeddings',
  ],
  [
    'yarn original a string',
    { ...YARN, originalMaxPositionEmbeddings: '64' },
    TypeError,
    'scaling.originalMaxPositionEmbeddings',
  ],
  ['yarn factor below 1', { ...YARN, factor: 0.9 }, RangeError, 'scaling.factor'],
  ['yarn betaFast 0', { ...YARN, betaFast: 0 }, RangeError, 'scaling.betaFast'],
  ['yarn betaFast below betaSlow', { ...YARN, betaFast: 1, betaSlow: 2 }, RangeError, 'scaling.betaFast'],
  ['yarn betaSlow negative', { ...YARN, betaSlow: -1 }, RangeError, 'scaling.betaSlow'],
  ['yarn attentionFactor 0', { ...YARN, attentionFactor: 0 }, RangeError, 'scaling.attentionFactor'],
  ['yarn mscale negative', { ...YARN, mscale: -1, mscaleAllDim: 1 }, RangeError, 'scaling.mscale'],
  ['yarn mscaleAllDim NaN', { ...YARN, mscale: 1, mscaleAllDim: Number.NaN }, RangeError, 'scaling.mscaleAllDim'],
  ['yarn truncate a string', { ...YARN, truncate: 'no' }, TypeError, 'scaling.truncate'],
  ['llama3 without lowFreqFactor', { ...LLAMA3, lowFreqFactor: undefined }, TypeError, 'scaling.lowFreqFactor'],
  ['llama3 lowFreqFactor 0', { ...LLAMA3, lowFreqFactor: 0 }, RangeError, 'scaling.lowFreqFactor'],
  [
    'llama3 highFreqFactor below lowFreqFactor',
    { ...LLAMA3, highFreqFactor: 0.5 },
    RangeError,
    'scaling.highFreqFactor',
  ],
  ['longrope without shortFactor', { ...LONGROPE, shortFactor: undefined }, TypeError, 'scaling.shortFactor'],
  ['longrope shortFactor a string', { ...LONGROPE, shortFactor: '1,2' }, TypeError, 'scaling.shortFactor'],
  [
    'longrope shortFactor holding a string',
    { ...LONGROPE, shortFactor: [1, '2'] },
    TypeError,
    'scaling.shortFactor[1]',
  ],
  [
    'longrope shortFactor too short (rotaryDim / 2 = 2)',
    { ...LONGROPE, shortFactor: [1] },
    RangeError,
    'scaling.shortFactor',
  ],
  ['longrope longFactor too long', { ...LONGROPE, longFactor: [1, 2, 3] }, RangeError, 'scaling.longFactor'],
  ['longrope shortFactor holding 0', { ...LONGROPE, shortFactor: [1, 0] }, RangeError, 'scaling.shortFactor'],
  [
    'longrope longFactor holding NaN',
    { ...LONGROPE, longFactor: Float64Array.of(2, Number.NaN) },
    RangeError,
    'scaling.longFactor',
  ],
  [
    'longrope without maxPositionEmbeddings, factor or attentionFactor',
    { ...LONGROPE, maxPositionEmbeddings: undefined },
    TypeError,
    'scaling.maxPositionEmbeddings',
  ],
  [
    'longrope maxPositionEmbeddings below the original',
    { ...LONGROPE, maxPositionEmbeddings: 32 },
    RangeError,
    'scaling.maxPositionEmbeddings',
  ],
  ['longrope factor below 1', { ...LONGROPE, factor: 0.5 }, RangeError, 'scaling.factor'],
  [
    'proportional partialRotaryFactor above 1',
    { type: 'proportional', partialRotaryFactor: 1.5 },
    RangeError,
    'scaling.partialRotaryFactor',
  ],
  [
    'proportional partialRotaryFactor negative',
    { type: 'proportional', partialRotaryFactor: -0.25 },
    RangeError,
    'scaling.partialRotaryFactor',
  ],
  [
    'proportional partialRotaryFactor NaN',
    { type: 'proportional', partialRotaryFactor: Number.NaN },
    RangeError,
    'scaling.partialRotaryFactor',
  ],
  [
    'proportional partialRotaryFactor a string',
    { type: 'proportional', partialRotaryFactor: '0.25' },
    TypeError,
    'scaling.partialRotaryFactor',
  ],
  ['proportional factor below 1', { type: 'proportional', factor: 0.5 }, RangeError, 'scaling.factor'],
  [
    'proportional with a key of another type',
    { type: 'proportional', originalMaxPositionEmbeddings: 64 },
    TypeError,
    'scaling',
  ],
  ['linear with partialRotaryFactor', { type: 'linear', factor: 2, partialRotaryFactor: 0.5 }, TypeError, 'scaling'],
];

for (const posenc of await loadBothVariants()) {
  describe(`long-context scaling (${posenc.variant})`, () => {
    it('ropeCache at the golden positions: cos and sin times the attention factor, which it returns', (t) => {
      let worst = 0;
      for (const c of golden.cases) {
        const { cos, sin, attentionFactor } = posenc.ropeCache({
          seqLen: c.positions.length,
          rotaryDim: c.rotaryDim,
          base: c.base,
          positions: c.positions,
          ...(c.scaling ? { scaling: c.scaling } : {}),
        });
        assert.ok(relativeError(attentionFactor, c.attentionFactor) <= SCHEDULE_BOUND, `${c.name}: attentionFactor`);
        const bound = TABLE_BOUND * Math.max(1, c.attentionFactor);
        worst = Math.max(
          worst,
          assertClose(cos, c.cos.flat(), bound, `${c.name}: cos`),
          assertClose(sin, c.sin.flat(), bound, `${c.name}: sin`),
        );
      }
      t.diagnostic(`largest |cache value - golden|: ${worst.toExponential(2)}`);
    });

    it('rope with scaling rotates by the golden schedule times its attention factor (both pairings, both orders)', () => {
      let seed = 1;
      for (const c of golden.cases) {
        // 24 consecutive rows ending at the case's length (dynamic and longrope go by it), 2 heads.
        const seqLen = 24;
        const last = c.seqLen > 0 ? c.seqLen - 1 : 5000;
        for (const layout of ['interleaved', 'half']) {
          const options = { ...ropeOptions(c), seqLen, numHeads: 2, layout, offset: last - seqLen + 1 };
          const x = randomNormal(seqLen * 2 * c.headDim, seed++);
          const want = rotateReference(x, { ...options, invFreq: c.invFreq, attentionFactor: c.attentionFactor });
          const shape = { seqLen, numHeads: 2, headDim: c.headDim, rotaryDim: c.rotaryDim, layout };
          assertRopeClose(
            posenc.rope(x.slice(), options),
            x,
            want,
            shape,
            `${c.name} ${layout}`,
            ROPE_EPS * c.attentionFactor,
          );
          // The same x read heads-major: compared in the tokens-major view.
          const heads = rotateReference(x, {
            ...options,
            order: 'heads',
            invFreq: c.invFreq,
            attentionFactor: c.attentionFactor,
          });
          const got = posenc.rope(x.slice(), { ...options, order: 'heads' });
          const toTokens = (a) => reorder(a, shape, 'heads', 'tokens');
          assertRopeClose(
            toTokens(got),
            toTokens(x),
            toTokens(heads),
            shape,
            `${c.name} ${layout} heads`,
            ROPE_EPS * c.attentionFactor,
          );
        }
      }
    });

    it('dynamic and longrope go by the largest position + 1 of the call, wherever it sits', () => {
      const phi = golden.cases.filter((c) => c.name.startsWith('Phi-3.5'));
      const [short, long] = [phi.find((c) => c.seqLen === 4096), phi.find((c) => c.seqLen === 4097)];
      const cache = (positions, batch = 1, offset) =>
        posenc.ropeCache({
          seqLen: offset ? 2 : positions.length / batch,
          batch,
          rotaryDim: 96,
          scaling: short.scaling,
          ...(offset ? { offset } : { positions }),
        });
      const expect = (got, positions, c, label) => {
        const want = positions.flatMap((p) => c.invFreq.map((f) => Math.cos(p * f) * c.attentionFactor));
        assertClose(got.cos, want, TABLE_BOUND * c.attentionFactor, label);
      };
      expect(cache([0, 4095]), [0, 4095], short, 'largest position 4095: short factors');
      expect(cache([4096, 3]), [4096, 3], long, 'a 4096 anywhere: long factors');
      expect(cache([5, 6, 7, 4096], 2), [5, 6, 7, 4096], long, 'positions of a batch: the largest over all sequences');
      expect(cache(null, 2, [4094, 0]), [4094, 4095, 0, 1], short, 'per-sequence offsets: 4095 at most');
      expect(cache(null, 2, [0, 4095]), [0, 1, 4095, 4096], long, 'per-sequence offsets: 4096 reached');
      // dynamic: base unchanged at L <= L0, grown beyond (same numbers as the golden 4096 case).
      const dynamic = golden.cases.find((c) => c.name.includes('seqLen 4096 (above)'));
      const got = posenc.ropeCache({ seqLen: 2, rotaryDim: 128, scaling: dynamic.scaling, positions: [4095, 17] });
      assertClose(
        got.sin,
        [4095, 17].flatMap((p) => dynamic.invFreq.map((f) => Math.sin(p * f))),
        TABLE_BOUND,
        'dynamic at L = 4096',
      );
    });

    it('partialRotaryFactor: Hugging Face int(headDim * factor) rotary channels, the rest pass through', () => {
      assert.equal(posenc.ropeSchedule({ headDim: 96, partialRotaryFactor: 0.25 }).rotaryDim, 24);
      assert.equal(posenc.ropeSchedule({ headDim: 80, partialRotaryFactor: 0.4 }).rotaryDim, 32);
      assert.equal(posenc.ropeSchedule({ headDim: 64 }).rotaryDim, 64, 'headDim alone: all channels');
      const x = randomNormal(5 * 2 * 96, 9);
      const options = { seqLen: 5, numHeads: 2, headDim: 96, layout: 'half', offset: 30 };
      assertIdentical(
        posenc.rope(x.slice(), { ...options, partialRotaryFactor: 0.25 }),
        posenc.rope(x.slice(), { ...options, rotaryDim: 24 }),
        'same as rotaryDim 24',
      );
    });

    it('scaling mistakes are TypeErrors / RangeErrors naming the scaling key; the instance stays usable', () => {
      const calls = {
        rope: (scaling) => posenc.rope(new Float32Array(8), { seqLen: 2, headDim: 4, scaling }),
        ropeCache: (scaling) => posenc.ropeCache({ seqLen: 2, rotaryDim: 4, scaling }),
        ropeSchedule: (scaling) => posenc.ropeSchedule({ rotaryDim: 4, scaling }),
        ropeQK: (scaling) =>
          posenc.ropeQK(new Float32Array(8), new Float32Array(8), { seqLen: 2, headDim: 4, scaling }),
      };
      for (const [fn, call] of Object.entries(calls)) {
        for (const [label, scaling, type, parameter] of SCALING_MISTAKES) {
          const error = assertParameterError(() => call(scaling), type, parameter, `${fn}: ${label}`);
          assert.ok(error.message.startsWith(`posenc.${fn}: `), error.message);
          assertStillWorks(posenc, `${fn}: ${label}`);
        }
      }
    });

    it('proportional: the turning pairs span the whole rotary width, an identity tail after them', () => {
      // headDim 8, partialRotaryFactor 0.5: pairs 0 and 1 turn at 1 / base^(2i / 8), pairs 2 and 3 do not.
      const { invFreq } = posenc.ropeSchedule({
        headDim: 8,
        base: 100,
        scaling: { type: 'proportional', partialRotaryFactor: 0.5 },
      });
      assert.deepEqual(Array.from(invFreq), [1, 1 / 100 ** 0.25, 0, 0]);
      const x = randomNormal(3 * 8, 4);
      const options = { seqLen: 3, headDim: 8, layout: 'half', base: 100, offset: 5 };
      const got = posenc.rope(x.slice(), { ...options, scaling: { type: 'proportional', partialRotaryFactor: 0.5 } });
      for (let row = 0; row < 3; row++) {
        for (const channel of [2, 3, 6, 7]) assert.equal(got[row * 8 + channel], x[row * 8 + channel], 'not turned');
      }
      assertParameterError(
        () =>
          posenc.rope(x.slice(), {
            ...options,
            partialRotaryFactor: 0.5,
            scaling: { type: 'proportional', partialRotaryFactor: 0.5 },
          }),
        TypeError,
        'partialRotaryFactor',
      );
    });

    it('rules that involve other options: dynamic needs rotaryDim >= 4, yarn a base other than 1', () => {
      assertParameterError(
        () =>
          posenc.ropeSchedule({
            rotaryDim: 2,
            scaling: { type: 'dynamic', factor: 2, originalMaxPositionEmbeddings: 8 },
          }),
        RangeError,
        'rotaryDim',
      );
      assertParameterError(
        () => posenc.rope(new Float32Array(4), { seqLen: 1, headDim: 4, base: 1, scaling: YARN }),
        RangeError,
        'base',
      );
      assertStillWorks(posenc, 'after');
    });

    it('partialRotaryFactor mistakes', () => {
      const cases = [
        ['0', { partialRotaryFactor: 0 }, RangeError, 'partialRotaryFactor'],
        ['above 1', { partialRotaryFactor: 1.5 }, RangeError, 'partialRotaryFactor'],
        ['NaN', { partialRotaryFactor: Number.NaN }, RangeError, 'partialRotaryFactor'],
        ['giving an odd int(headDim * factor)', { partialRotaryFactor: 0.375 }, RangeError, 'partialRotaryFactor'],
        ['a string', { partialRotaryFactor: '0.5' }, TypeError, 'partialRotaryFactor'],
        ['with rotaryDim', { partialRotaryFactor: 0.5, rotaryDim: 4 }, TypeError, 'rotaryDim'],
      ];
      for (const [label, extra, type, parameter] of cases) {
        assertParameterError(
          () => posenc.rope(new Float32Array(16), { seqLen: 2, headDim: 8, ...extra }),
          type,
          parameter,
          `rope: ${label}`,
        );
        assertParameterError(
          () => posenc.ropeSchedule({ headDim: 8, ...extra }),
          type,
          parameter,
          `ropeSchedule: ${label}`,
        );
      }
      assertParameterError(
        () => posenc.ropeSchedule({ partialRotaryFactor: 0.5 }),
        RangeError,
        'headDim',
        'without headDim',
      );
      assertStillWorks(posenc, 'after');
    });
  });
}
