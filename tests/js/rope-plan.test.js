// posenc.ropePlan and the RopePlan it returns: apply() and applyQK() give the bits of rope() and
// ropeQK() with the same options (every layout, partial rotary, order, batch, inverse, scaling,
// float16), and the plan snapshots its options once: getters run once, later mutations of the
// options change nothing, and its resolved properties are read-only. (A freed plan and
// arrays freed under apply() are the seam's: hostile/seam.test.js.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { assertStillWorks, loadBothVariants, randomNormal } from './support.js';
import { assertSameBits, assertThrowsSeamError, freshInstance } from './seam-support.js';

for (const shared of await loadBothVariants()) {
  describe(`ropePlan (${shared.variant})`, () => {
    it('ropePlan: apply and applyQK give the bits of rope() and ropeQK()', async () => {
      const posenc = await freshInstance(shared);
      const configs = [
        { seqLen: 6, numHeads: 2, headDim: 8 },
        { seqLen: 5, numHeads: 3, headDim: 10, layout: 'half', rotaryDim: 6, base: 500, inverse: true },
        { seqLen: 4, headDim: 16, partialRotaryFactor: 0.5, order: 'heads', numHeads: 2, batch: 2 },
        { seqLen: 8, headDim: 8, scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 8, betaFast: 16 } },
        { seqLen: 8, headDim: 8, scaling: { type: 'dynamic', factor: 2, originalMaxPositionEmbeddings: 4 } },
        {
          seqLen: 8,
          headDim: 8,
          scaling: { type: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 4 },
        },
        {
          seqLen: 8,
          headDim: 8,
          scaling: {
            type: 'longrope',
            shortFactor: [1, 1.5, 2, 2.5],
            longFactor: [3, 4, 5, 6],
            originalMaxPositionEmbeddings: 4,
            factor: 4,
          },
        },
        { seqLen: 4096, headDim: 64 }, // large JS arrays: the streaming path
      ];
      let seed = 90;
      for (const options of configs) {
        const batch = options.batch ?? 1;
        const length = batch * options.seqLen * (options.numHeads ?? 1) * options.headDim;
        const applies = [
          {},
          { offset: 37 },
          { positions: Array.from({ length: batch * options.seqLen }, (_, i) => (i * 7) % 23) },
          ...(batch > 1 ? [{ offset: [3, 40] }] : []),
        ];
        const plan = posenc.ropePlan(structuredClone(options));
        for (const applyOptions of applies) {
          const label = `${JSON.stringify(options).slice(0, 80)} apply(${JSON.stringify(applyOptions).slice(0, 40)})`;
          const data = randomNormal(length, seed++);
          const expected = posenc.rope(data.slice(), { ...structuredClone(options), ...applyOptions });
          assertSameBits(plan.apply(data.slice(), { ...applyOptions }), expected, `${label}: in place, JS`);
          const out = new Float32Array(length);
          assert.equal(plan.apply(data.slice(), { ...applyOptions, out }), out, `${label}: returns out`);
          assertSameBits(out, expected, `${label}: into out`);
          const resident = posenc.allocate(data);
          const residentExpected = posenc.rope(posenc.allocate(data), { ...structuredClone(options), ...applyOptions });
          assert.equal(plan.apply(resident, { ...applyOptions }), resident, `${label}: returns the WasmArray`);
          assertSameBits(resident.toArray(), residentExpected.toArray(), `${label}: WasmArray`);
          resident.free();
          residentExpected.free();
          if (length < 65536) {
            const kvHeads = 1;
            const k = randomNormal((length / (options.numHeads ?? 1)) * kvHeads, seed++);
            const qk = posenc.ropeQK(data.slice(), k.slice(), {
              ...structuredClone(options),
              numKvHeads: kvHeads,
              ...applyOptions,
            });
            const qkPlan = posenc.ropePlan({ ...structuredClone(options), numKvHeads: kvHeads });
            const got = qkPlan.applyQK(data.slice(), k.slice(), { ...applyOptions });
            assertSameBits(got.q, qk.q, `${label}: applyQK q`);
            assertSameBits(got.k, qk.k, `${label}: applyQK k`);
            qkPlan.free();
          }
        }
        plan.free();
      }
      assertStillWorks(posenc, 'ropePlan');
    });

    it('ropePlan snapshots its options: getters run once, later mutations change nothing, resolved read-only properties', async () => {
      const posenc = await freshInstance(shared);
      const reads = new Map();
      const counted = (key, value) => () => {
        reads.set(key, (reads.get(key) ?? 0) + 1);
        return value;
      };
      const shortFactor = [1, 1.5, 2, 2.5];
      const longFactor = [3, 4, 5, 6];
      const scaling = { type: 'longrope', originalMaxPositionEmbeddings: 4, factor: 4 };
      Object.defineProperty(scaling, 'shortFactor', {
        get: counted('scaling.shortFactor', shortFactor),
        enumerable: true,
        configurable: true,
      });
      Object.defineProperty(scaling, 'longFactor', {
        get: counted('scaling.longFactor', longFactor),
        enumerable: true,
        configurable: true,
      });
      const options = { numHeads: 2, layout: 'half', base: 5000 };
      for (const [key, value] of [
        ['seqLen', 8],
        ['headDim', 16],
        ['partialRotaryFactor', 0.5],
        ['scaling', scaling],
      ]) {
        Object.defineProperty(options, key, { get: counted(key, value), enumerable: true, configurable: true });
      }
      const plain = {
        seqLen: 8,
        numHeads: 2,
        headDim: 16,
        partialRotaryFactor: 0.5,
        layout: 'half',
        base: 5000,
        scaling: {
          type: 'longrope',
          originalMaxPositionEmbeddings: 4,
          factor: 4,
          shortFactor: shortFactor.slice(),
          longFactor: longFactor.slice(),
        },
      };
      const plan = posenc.ropePlan(options);
      for (const [key, count] of reads) assert.equal(count, 1, `ropePlan read ${key} ${count} times`);
      assert.equal(reads.size, 6, 'every getter ran');
      const data = randomNormal(8 * 2 * 16, 95);
      const expected = posenc.rope(data.slice(), { ...plain, offset: 2 });

      // Mutate everything the plan was made from: options, scaling, the factor lists.
      for (const key of ['seqLen', 'headDim', 'partialRotaryFactor', 'scaling']) delete options[key];
      Object.assign(options, { seqLen: 1, headDim: 2, layout: 'interleaved', base: 10, inverse: true });
      scaling.factor = 64;
      shortFactor.fill(100);
      longFactor.length = 0;
      reads.clear();
      assertSameBits(plan.apply(data.slice(), { offset: 2 }), expected, 'apply after the mutations: the plan as made');
      assert.equal(reads.size, 0, 'apply ran none of the option getters');

      // Resolved, read-only properties.
      const resolved = {
        seqLen: 8,
        numHeads: 2,
        numKvHeads: 2,
        headDim: 16,
        rotaryDim: 8,
        batch: 1,
        layout: 'half',
        order: 'tokens',
      };
      for (const [key, value] of Object.entries(resolved)) {
        assert.equal(plan[key], value, `plan.${key}`);
        try {
          plan[key] = 123;
        } catch {
          // strict-mode assignment to a read-only property throws: fine
        }
        assert.equal(plan[key], value, `plan.${key} is read-only`);
      }
      const yarn = { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 16 };
      const yarnPlan = posenc.ropePlan({ seqLen: 2, headDim: 8, scaling: yarn });
      assert.equal(
        yarnPlan.attentionFactor,
        posenc.ropeSchedule({ rotaryDim: 8, scaling: yarn }).attentionFactor,
        'attentionFactor as ropeSchedule gives it',
      );
      assert.equal(plan.freed, false);
      yarnPlan.free();
      plan.free();
      // ropePlan's own errors name ropePlan.
      assertThrowsSeamError(
        () => posenc.ropePlan({ seqLen: 2, headDim: 4, rotaryDim: 6 }),
        RangeError,
        'rotaryDim',
        'ropePlan',
        'rotaryDim > headDim',
      );
      assertThrowsSeamError(
        () =>
          posenc.ropePlan({
            seqLen: 2,
            headDim: 4,
            get base() {
              throw new Error('base');
            },
          }),
        TypeError,
        'base',
        'ropePlan',
        'throwing getter',
      );
      assertThrowsSeamError(
        () => posenc.ropePlan(Object.create({ seqLen: 2, headDim: 4 })),
        TypeError,
        /^(seqLen|headDim)$/,
        'ropePlan',
        'inherited options',
      );
      assertStillWorks(posenc, 'ropePlan snapshot');
    });
  });
}
