// posenc.relativePositionBuckets against transformers' T5Attention._relative_position_bucket run
// by torch (tests/golden/t5-buckets.json, scripts/make_golden_t5_buckets.py): every relative
// position in [-2^20, 2^20] of every configuration, on both WASM builds, and compute_bias's
// matrices with a KV-cache offset.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { loadBothVariants, readGolden } from './support.js';

const golden = readGolden('t5-buckets.json');

/** The golden runs expanded: torch's bucket of every n in [-range, range]. */
function expand(runs, range) {
  const out = new Int32Array(2 * range + 1);
  for (let r = 0; r < runs.length; r++) {
    const end = r + 1 < runs.length ? runs[r + 1][0] : range + 1;
    out.fill(runs[r][1], runs[r][0] + range, end + range);
  }
  return out;
}

/** The first index where two Int32Arrays differ, or -1. */
function firstDifference(a, b) {
  if (a.length !== b.length) return 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

for (const posenc of await loadBothVariants()) {
  describe(`relativePositionBuckets (${posenc.variant})`, () => {
    it('every relative position in [-2^20, 2^20] of every configuration is torch`s bucket', () => {
      const { range } = golden;
      for (const { numBuckets, maxDistance, bidirectional, runs } of golden.configs) {
        // One row holds every n: key j at offset `range` is n = j - range.
        const got = posenc.relativePositionBuckets({
          queryLen: 1,
          keyLen: 2 * range + 1,
          offset: range,
          numBuckets,
          maxDistance,
          bidirectional,
        });
        const at = firstDifference(got, expand(runs, range));
        assert.equal(at, -1, `${numBuckets}/${maxDistance}/${bidirectional}: n = ${at - range}`);
      }
    });

    it("compute_bias's matrices, with cache_position = offset + i", () => {
      for (const { queryLen, keyLen, offset, bidirectional, buckets } of golden.computeBias) {
        const got = posenc.relativePositionBuckets({ queryLen, keyLen, offset, bidirectional });
        assert.deepEqual(Array.from(got), buckets, `${queryLen}×${keyLen} +${offset}`);
      }
    });

    it('rows are shifted copies: row i is the bucket of j - (offset + i)', () => {
      const queryLen = 40;
      const keyLen = 300;
      const all = posenc.relativePositionBuckets({ queryLen: 1, keyLen: 2000, offset: 1000, bidirectional: false });
      const got = posenc.relativePositionBuckets({ queryLen, keyLen, offset: 123, bidirectional: false });
      for (let i = 0; i < queryLen; i++) {
        for (let j = 0; j < keyLen; j++) assert.equal(got[i * keyLen + j], all[j - (123 + i) + 1000]);
      }
    });

    it('out: an Int32Array written and returned; empty shapes; defaults are T5`s', () => {
      const out = new Int32Array(6).fill(-1);
      assert.equal(posenc.relativePositionBuckets({ queryLen: 2, keyLen: 3, out }), out);
      assert.deepEqual(Array.from(out), [0, 17, 18, 1, 0, 17]);
      assert.equal(posenc.relativePositionBuckets({ queryLen: 0, keyLen: 5 }).length, 0);
      assert.equal(posenc.relativePositionBuckets({ queryLen: 5, keyLen: 0 }).length, 0);
      const far = posenc.relativePositionBuckets({ queryLen: 1, keyLen: 2, offset: 2 ** 31 - 2 });
      assert.deepEqual(Array.from(far), [15, 15]);
      const explicit = posenc.relativePositionBuckets({
        queryLen: 3,
        keyLen: 4,
        numBuckets: 32,
        maxDistance: 128,
        bidirectional: true,
        offset: 0,
      });
      assert.deepEqual(explicit, posenc.relativePositionBuckets({ queryLen: 3, keyLen: 4 }));
    });
  });
}
