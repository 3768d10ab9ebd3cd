// posenc.alibiSlopes against the golden vectors of scripts/make_golden_alibi.py: the paper's
// exact slopes (float64, within 1 ulp), BLOOM's build_alibi_tensor and MPT's
// build_mpt_alibi_tensor (float32 as the models run them, and in float64), and their order for
// a head count that is not a power of two. (The bias matrices: alibi-bias.test.js.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { loadBothVariants, readGolden } from './support.js';

const golden = readGolden('alibi.json');

/** |a − b| in units of the float64 spacing at b. */
function ulps64(a, b) {
  if (a === b) return 0;
  const e = Math.max(Math.floor(Math.log2(Math.abs(b))), -1022);
  return Math.abs(a - b) / 2 ** (e - 52);
}

/** |a − b| in units of the float32 spacing at b. */
function ulps32(a, b) {
  if (a === b) return 0;
  const e = Math.max(Math.floor(Math.log2(Math.abs(b))), -126);
  return Math.abs(a - b) / 2 ** (e - 23);
}

for (const posenc of await loadBothVariants()) {
  describe(`alibiSlopes (${posenc.variant})`, () => {
    it('slopes: within 1 ulp of the paper exact values (float64), for every golden head count', () => {
      let worst = 0;
      for (const c of golden.slopes) {
        const got = posenc.alibiSlopes({ numHeads: c.numHeads, maxBias: c.maxBias });
        assert.ok(got instanceof Float64Array);
        assert.equal(got.length, c.numHeads);
        for (let h = 0; h < c.numHeads; h++) worst = Math.max(worst, ulps64(got[h], c.exact[h]));
      }
      assert.ok(worst <= 1, `largest deviation ${worst} ulps`);
    });

    it('slopes: as MPT (maxBias 8 and 16) and BLOOM compute them, float32 and float64', () => {
      const worst = { mpt: 0, mpt64: 0, bloom: 0, bloom64: 0 };
      for (const c of golden.slopes) {
        const got = posenc.alibiSlopes({ numHeads: c.numHeads, maxBias: c.maxBias });
        for (let h = 0; h < c.numHeads; h++) {
          worst.mpt = Math.max(worst.mpt, ulps32(Math.fround(got[h]), c.mpt[h]));
          worst.mpt64 = Math.max(worst.mpt64, ulps64(got[h], c.mpt64[h]));
          if (c.bloom) {
            worst.bloom = Math.max(worst.bloom, ulps32(Math.fround(got[h]), c.bloom[h]));
            worst.bloom64 = Math.max(worst.bloom64, ulps64(got[h], c.bloom64[h]));
          }
        }
      }
      // MPT: 1 / 2^x of an exact x: at most one float32 rounding apart. BLOOM: pow(base, k) of a
      // rounded base carries up to about k/2 ulps (k up to 64 here) of its own, in float32 as in float64.
      assert.ok(worst.mpt <= 1 && worst.mpt64 <= 1, JSON.stringify(worst));
      assert.ok(worst.bloom <= 16 && worst.bloom64 <= 64, JSON.stringify(worst)); // measured: 11 and 54
    });

    it("slopes: BLOOM's and MPT's order for a non-power-of-two count (12 heads)", () => {
      const got = posenc.alibiSlopes({ numHeads: 12 });
      const want = [1, 2, 3, 4, 5, 6, 7, 8].map((k) => 2 ** -k).concat([0.5, 1.5, 2.5, 3.5].map((k) => 2 ** -k));
      for (let h = 0; h < 12; h++) assert.ok(ulps64(got[h], want[h]) <= 1, `head ${h}`);
      assert.equal(posenc.alibiSlopes({ numHeads: 1 })[0], 2 ** -8);
      assert.deepEqual(Array.from(posenc.alibiSlopes({ numHeads: 4, maxBias: 16 })), [
        2 ** -4,
        2 ** -8,
        2 ** -12,
        2 ** -16,
      ]);
    });
  });
}
