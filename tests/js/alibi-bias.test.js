// posenc.alibiBias against the golden vectors of scripts/make_golden_alibi.py: bias matrices
// bit for bit the float64 reference slope · (j − (offset + i)) rounded once, per row
// softmax-equivalent to BLOOM's build_alibi_tensor and MPT's build_mpt_alibi_tensor, the paper's
// matrix on and below the diagonal, out, empty shapes and negative offsets.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { loadBothVariants, readGolden } from './support.js';

const golden = readGolden('alibi.json');

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
  describe(`alibiBias (${posenc.variant})`, () => {
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
