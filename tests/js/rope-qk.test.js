// posenc.ropeQK: queries and keys rotated in one call, with fewer key heads than query heads
// (GQA: 32 query heads, 8 key heads), equal bit for bit to two rope calls, in place or into out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { assertIdentical, loadBothVariants, randomNormal } from './support.js';

for (const posenc of await loadBothVariants()) {
  describe(`ropeQK (${posenc.variant})`, () => {
    it('ropeQK: 32 query heads and 8 key heads in one call equal two rope calls; in place or into out', () => {
      const options = {
        batch: 2,
        seqLen: 5,
        numHeads: 32,
        numKvHeads: 8,
        headDim: 16,
        layout: 'half',
        offset: [3, 60],
      };
      const { numKvHeads, ...ropeOptions } = options;
      const q = randomNormal(2 * 5 * 32 * 16, 11);
      const k = randomNormal(2 * 5 * 8 * 16, 12);
      const qAlone = posenc.rope(q.slice(), ropeOptions);
      const kAlone = posenc.rope(k.slice(), { ...ropeOptions, numHeads: numKvHeads });
      const qIn = q.slice();
      const kIn = k.slice();
      const inPlace = posenc.ropeQK(qIn, kIn, options);
      assert.equal(inPlace.q, qIn);
      assert.equal(inPlace.k, kIn);
      assertIdentical(qIn, qAlone, 'q in place');
      assertIdentical(kIn, kAlone, 'k in place');
      const out = { q: new Float32Array(q.length), k: new Float32Array(k.length) };
      const result = posenc.ropeQK(q, k, { ...options, order: 'tokens', out });
      assert.equal(result.q, out.q);
      assertIdentical(out.q, qAlone, 'q into out');
      assertIdentical(out.k, kAlone, 'k into out');
      // numKvHeads defaults to numHeads.
      const same = posenc.ropeQK(q.slice(), q.slice(), ropeOptions);
      assertIdentical(same.k, qAlone, 'numKvHeads = numHeads');
    });
  });
}
