// posenc.convertLayout: the rotary channels of activations moved between the interleaved and
// half pairings. Interleaved RoPE on x equals half RoPE on the converted x, converted back (full
// and partial rotary), bit for bit; out and WasmArrays.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { assertIdentical, loadBothVariants, randomNormal } from './support.js';

for (const posenc of await loadBothVariants()) {
  describe(`convertLayout (${posenc.variant})`, () => {
    it('interleaved RoPE on x = half RoPE on the converted x, converted back (full and partial rotary)', () => {
      for (const [headDim, rotaryDim] of [
        [64, 64],
        [96, 24],
        [80, 32],
      ]) {
        const options = { batch: 2, seqLen: 11, numHeads: 3, headDim, rotaryDim, offset: [7, 3000] };
        const x = randomNormal(2 * 11 * 3 * headDim, headDim + rotaryDim);
        const interleaved = posenc.rope(x.slice(), { ...options, layout: 'interleaved' });
        const converted = posenc.convertLayout(x, { from: 'interleaved', to: 'half', headDim, rotaryDim });
        const half = posenc.rope(converted, { ...options, layout: 'half' });
        assertIdentical(
          posenc.convertLayout(half, { from: 'half', to: 'interleaved', headDim, rotaryDim }),
          interleaved,
          `${headDim}/${rotaryDim}`,
        );
      }
    });

    it('convertLayout writes into out and works on WasmArrays', () => {
      const x = posenc.allocate(Float32Array.from({ length: 16 }, (_, i) => i));
      const out = posenc.allocate(16);
      try {
        assert.equal(posenc.convertLayout(x, { from: 'interleaved', to: 'half', headDim: 8, out }), out);
        assert.deepEqual(Array.from(out.toArray()), [0, 2, 4, 6, 1, 3, 5, 7, 8, 10, 12, 14, 9, 11, 13, 15]);
      } finally {
        x.free();
        out.free();
      }
    });
  });
}
