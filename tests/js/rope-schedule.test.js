// posenc.ropeSchedule (and ropeFrequencies, its invFreq alone) against the golden vectors of
// scripts/make_golden_scaling.py: Hugging Face's frequencies and attention factor (torch
// float64) on real model configs, within 1e-12 relative; without scaling, 1 / base^(2i /
// rotaryDim) and attention factor 1, type 'default' the same.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { SCHEDULE_BOUND, assertIdentical, loadBothVariants, readGolden, relativeError } from './support.js';

const golden = readGolden('rope-scaling.json');

/** The ropeSchedule options of a golden case: its config, camelCase, as a user passes it. */
function scheduleOptions(c) {
  const options = { base: c.base, seqLen: c.seqLen };
  if (c.partialRotaryFactor !== null)
    Object.assign(options, { headDim: c.headDim, partialRotaryFactor: c.partialRotaryFactor });
  else options.rotaryDim = c.rotaryDim;
  if (c.scaling !== null) options.scaling = c.scaling;
  return options;
}

for (const posenc of await loadBothVariants()) {
  describe(`ropeSchedule (${posenc.variant})`, () => {
    it('ropeSchedule and ropeFrequencies match Hugging Face on real model configs (golden, 1e-12 relative)', (t) => {
      let worst = 0;
      for (const c of golden.cases) {
        const options = scheduleOptions(c);
        const { invFreq, attentionFactor, rotaryDim } = posenc.ropeSchedule(options);
        assert.equal(rotaryDim, c.rotaryDim, `${c.name}: rotaryDim`);
        assert.ok(invFreq instanceof Float64Array && invFreq.length === c.invFreq.length, `${c.name}: invFreq length`);
        for (let i = 0; i < invFreq.length; i++) {
          const error = relativeError(invFreq[i], c.invFreq[i]);
          assert.ok(error <= SCHEDULE_BOUND, `${c.name}: pair ${i}: ${invFreq[i]} vs ${c.invFreq[i]}`);
          worst = Math.max(worst, error);
        }
        const error = relativeError(attentionFactor, c.attentionFactor);
        assert.ok(error <= SCHEDULE_BOUND, `${c.name}: attention factor ${attentionFactor} vs ${c.attentionFactor}`);
        worst = Math.max(worst, error);
        assertIdentical(
          posenc.ropeFrequencies(options),
          invFreq,
          `${c.name}: ropeFrequencies is ropeSchedule's invFreq`,
        );
      }
      t.diagnostic(
        `${golden.cases.length} model configs, largest relative deviation from Hugging Face's formulas: ${worst.toExponential(2)}`,
      );
    });

    it('without scaling ropeFrequencies is what it was: 1 / base^(2i / rotaryDim), attention factor 1', () => {
      const plain = posenc.ropeSchedule({ rotaryDim: 64, base: 500000 });
      assert.equal(plain.attentionFactor, 1);
      assertIdentical(posenc.ropeFrequencies({ rotaryDim: 64, base: 500000 }), plain.invFreq, 'same numbers');
      assertIdentical(
        posenc.ropeSchedule({ rotaryDim: 64, base: 500000, scaling: { type: 'default' } }).invFreq,
        plain.invFreq,
        "type 'default'",
      );
      for (let i = 0; i < 32; i++)
        assert.ok(relativeError(plain.invFreq[i], 500000 ** (-i / 32)) <= 1e-15, `pair ${i}`);
    });
  });
}
