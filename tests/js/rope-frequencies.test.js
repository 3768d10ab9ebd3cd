// posenc.ropeFrequencies: RoPE's inverse frequencies base^(-2i/rotaryDim) in float64, against
// the float64 JS reference, for every even rotaryDim 2..40 and several bases, the default base
// included.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { inverseFrequency } from './reference.js';
import { assertClose, assertIdentical, loadBothVariants } from './support.js';

for (const posenc of await loadBothVariants()) {
  describe(`ropeFrequencies (${posenc.variant})`, () => {
    it('ropeFrequencies: base^(-2i/rotaryDim) in float64 for every even rotaryDim 2..40 and some bases', () => {
      for (const base of [10000, 500000, 2, 1.5]) {
        for (let rotaryDim = 2; rotaryDim <= 40; rotaryDim += 2) {
          const frequencies = posenc.ropeFrequencies({ rotaryDim, base });
          assert.ok(frequencies instanceof Float64Array);
          assert.equal(frequencies.length, rotaryDim / 2);
          assert.equal(frequencies[0], 1);
          // 1/pow vs pow(-x): a few float64 roundings apart.
          const expected = Array.from({ length: rotaryDim / 2 }, (_, i) => inverseFrequency(i, rotaryDim, base));
          assertClose(frequencies, expected, (i) => 4 * Number.EPSILON * expected[i], `rd ${rotaryDim} base ${base}`);
        }
      }
      assertIdentical(
        posenc.ropeFrequencies({ rotaryDim: 8 }),
        posenc.ropeFrequencies({ rotaryDim: 8, base: 10000 }),
        'default base',
      );
    });
  });
}
