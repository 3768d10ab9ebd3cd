// posenc.alibiSlopes and posenc.alibiBias against the golden vectors of
// scripts/make_golden_alibi.py: the paper's exact slopes (float64, within 1 ulp), BLOOM's
// build_alibi_tensor and MPT's build_mpt_alibi_tensor (float32 as the models run them, and in
// float64), and bias matrices: bit for bit the float64 reference rounded once, and, per row,
// softmax-equivalent to BLOOM's and MPT's per-key forms.
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

/** Softmax of row[0..count) in float64. */
function softmax(row, count) {
  const max = Math.max(...Array.from(row).slice(0, count));
  const e = Array.from(row)
    .slice(0, count)
    .map((v) => Math.exp(v - max));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / z);
}

for (const posenc of await loadBothVariants()) {
  describe(`ALiBi (${posenc.variant})`, () => {
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

    it('bias: bit for bit the float64 reference slope · (j − (offset + i)) rounded once', () => {
      for (const c of golden.bias) {
        const { numHeads, queryLen, keyLen, offset, maxBias } = c;
        const got = posenc.alibiBias({ numHeads, queryLen, keyLen, offset, maxBias });
        assert.equal(got.length, numHeads * queryLen * keyLen);
        for (let i = 0; i < got.length; i++) {
          assert.ok(
            Object.is(got[i], Math.fround(c.reference64[i]) + 0),
            `${JSON.stringify({ numHeads, queryLen, keyLen })} [${i}]`,
          );
        }
        // offset defaults to keyLen − queryLen: every golden case is that, or self-attention.
        if (offset === keyLen - queryLen) {
          assert.deepEqual(posenc.alibiBias({ numHeads, queryLen, keyLen, maxBias }), got);
        }
      }
    });

    it("bias: softmax rows equal BLOOM's and MPT's per-key forms (within float32 tolerance)", () => {
      let worst = 0;
      for (const c of golden.bias) {
        const { numHeads, queryLen, keyLen, offset, maxBias } = c;
        const got = posenc.alibiBias({ numHeads, queryLen, keyLen, offset, maxBias });
        for (let h = 0; h < numHeads; h++) {
          for (let i = 0; i < queryLen; i++) {
            const visible = Math.min(keyLen, offset + i + 1); // the causal prefix (the caller masks the rest)
            const ours = softmax(got.subarray((h * queryLen + i) * keyLen, (h * queryLen + i + 1) * keyLen), visible);
            const forms = [c.mptPerKey.slice(h * keyLen, (h + 1) * keyLen)];
            if (c.bloomPerKey) forms.push(c.bloomPerKey.slice(h * keyLen, (h + 1) * keyLen));
            for (const form of forms) {
              const theirs = softmax(form, visible);
              for (let j = 0; j < visible; j++) worst = Math.max(worst, Math.abs(ours[j] - theirs[j]) / theirs[j]);
            }
          }
        }
      }
      // Values up to |slope · distance| ~ 40 hold float32 roundings of ~2^-24 · 40 each.
      assert.ok(worst <= 1e-5, `largest relative softmax difference ${worst}`);
    });

    it('bias equals the paper matrix slope · (j − i) on and below the diagonal (self-attention)', () => {
      const slopes = posenc.alibiSlopes({ numHeads: 5 });
      const n = 19;
      const got = posenc.alibiBias({ numHeads: 5, queryLen: n, keyLen: n });
      for (let h = 0; h < 5; h++) {
        for (let i = 0; i < n; i++) {
          for (let j = 0; j < n; j++) {
            const value = got[(h * n + i) * n + j];
            assert.ok(Object.is(value, Math.fround(slopes[h] * (j - i)) + 0));
            if (j <= i) assert.ok(value <= 0);
            else assert.ok(value > 0, 'positive above the diagonal: masking is the caller’s');
          }
        }
      }
    });

    it('out: Float32Array or WasmArray; empty shapes; negative offset', () => {
      const out = new Float32Array(2 * 3 * 4).fill(NaN);
      assert.equal(posenc.alibiBias({ numHeads: 2, queryLen: 3, keyLen: 4, out }), out);
      assert.deepEqual(out, posenc.alibiBias({ numHeads: 2, queryLen: 3, keyLen: 4 }));
      const wasmOut = posenc.allocate(24);
      try {
        assert.equal(posenc.alibiBias({ numHeads: 2, queryLen: 3, keyLen: 4, out: wasmOut }), wasmOut);
        assert.deepEqual(wasmOut.toArray(), out);
      } finally {
        wasmOut.free();
      }
      assert.equal(posenc.alibiBias({ numHeads: 2, queryLen: 0, keyLen: 4 }).length, 0);
      assert.equal(posenc.alibiBias({ numHeads: 2, queryLen: 4, keyLen: 0 }).length, 0);
      // More queries than keys: the default offset is negative, query 0 at position −2.
      const wide = posenc.alibiBias({ numHeads: 1, queryLen: 3, keyLen: 1 });
      assert.deepEqual(Array.from(wide), [2 / 256, 1 / 256, 0]);
      assert.deepEqual(Array.from(posenc.alibiBias({ numHeads: 1, queryLen: 1, keyLen: 2, offset: -3 })), [
        3 / 256,
        4 / 256,
      ]);
    });
  });
}
