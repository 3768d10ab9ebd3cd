// posenc.freeCachedPlans: the plan rope() keeps (plan-cache.js) is in the heap once however
// often the same options come again, and freeCachedPlans gives its memory back.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { keptPlansProbe as heapProbe } from './seam-support.js';
import { loadBothVariants, randomNormal } from './support.js';

for (const posenc of await loadBothVariants()) {
  describe(`freeCachedPlans (${posenc.variant})`, () => {
    it('rope keeps the plan it makes and finds it again (the heap holds it, once), until freeCachedPlans', () => {
      const o = { seqLen: 1, numHeads: 2, headDim: 16, layout: 'half', base: 12345, offset: 9 };
      posenc.freeCachedPlans();
      const empty = heapProbe(posenc);
      const x = randomNormal(32, 3);
      posenc.rope(x.slice(), o);
      const kept = heapProbe(posenc);
      assert.notDeepEqual(kept, empty, 'the first call keeps its plan');
      for (let i = 0; i < 100; i++) posenc.rope(x.slice(), { ...o, offset: i });
      assert.deepEqual(heapProbe(posenc), kept, 'later calls with the same options make no new plan');
      posenc.freeCachedPlans();
      assert.deepEqual(heapProbe(posenc), empty, 'freeCachedPlans frees it');
    });
  });
}
