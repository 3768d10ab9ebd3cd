// posenc.ropeCache against the float64 JS reference, and the cache's agreement with what
// posenc.rope applies. (The frequencies alone: rope-frequencies.test.js.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { ropeCacheReference } from './reference.js';
import { TABLE_BOUND, assertClose, assertIdentical, loadBothVariants, randomNormal } from './support.js';

/** cos/sin from the cache applied to x the float32 way: each product and the sum rounded. */
function rotateWithCache(x, { seqLen, headDim, rotaryDim }, cos, sin) {
  const out = x.slice();
  const half = rotaryDim / 2;
  for (let row = 0; row < seqLen; row++) {
    for (let i = 0; i < half; i++) {
      const at = row * headDim;
      const [a, b] = [x[at + i], x[at + i + half]];
      const [c, s] = [cos[row * half + i], sin[row * half + i]];
      out[at + i] = Math.fround(Math.fround(a * c) - Math.fround(b * s));
      out[at + i + half] = Math.fround(Math.fround(b * c) + Math.fround(a * s));
    }
  }
  return out;
}

for (const posenc of await loadBothVariants()) {
  describe(`ropeCache (${posenc.variant})`, () => {
    it('ropeCache: every even rotaryDim 2..40, offsets, 70 rows', () => {
      for (let rotaryDim = 2; rotaryDim <= 40; rotaryDim += 2) {
        for (const offset of [0, 999]) {
          const options = { seqLen: 70, rotaryDim, offset };
          const { cos, sin } = posenc.ropeCache(options);
          const expected = ropeCacheReference(options);
          assertClose(cos, expected.cos, TABLE_BOUND, `cos rd ${rotaryDim} +${offset}`);
          assertClose(sin, expected.sin, TABLE_BOUND, `sin rd ${rotaryDim} +${offset}`);
        }
      }
    });

    it('ropeCache: explicit positions, large positions, bases, the 128-pair block boundary', () => {
      const positions = [3, 2 ** 24 - 1, 0, 0, 1 << 22, 64, 65, 1];
      for (const [rotaryDim, base] of [
        [256, 10000],
        [258, 500000],
        [64, 1e6],
        [128, 10],
      ]) {
        for (const list of [positions, Int32Array.from(positions)]) {
          const options = { seqLen: positions.length, rotaryDim, base, positions: list };
          const { cos, sin } = posenc.ropeCache(options);
          const expected = ropeCacheReference(options);
          assertClose(cos, expected.cos, TABLE_BOUND, `cos rd ${rotaryDim}`);
          assertClose(sin, expected.sin, TABLE_BOUND, `sin rd ${rotaryDim}`);
        }
      }
    });

    it('ropeCache rows are the sinusoidal concat table rows: [sin | cos] of the same angles', () => {
      const { cos, sin } = posenc.ropeCache({ seqLen: 5, rotaryDim: 12, offset: 40 });
      const table = posenc.sinusoidal({ seqLen: 5, dModel: 12, layout: 'concat', offset: 40 });
      for (let row = 0; row < 5; row++) {
        assertIdentical(table.subarray(row * 12, row * 12 + 6), sin.subarray(row * 6, row * 6 + 6), `sin row ${row}`);
        assertIdentical(
          table.subarray(row * 12 + 6, row * 12 + 12),
          cos.subarray(row * 6, row * 6 + 6),
          `cos row ${row}`,
        );
      }
    });

    it('rope (half pairing) applies exactly the cached cos/sin', () => {
      // WebAssembly has no fused multiply-add, so a float32 rotation with given cos/sin has one
      // result: posenc.rope must reproduce it bit for bit from the cache it exposes.
      for (const [headDim, rotaryDim] of [
        [16, 16],
        [40, 24],
        [10, 2],
      ]) {
        const options = { seqLen: 70, headDim, rotaryDim, layout: 'half', offset: 5000 };
        const x = randomNormal(70 * headDim, headDim);
        const { cos, sin } = posenc.ropeCache({ seqLen: 70, rotaryDim, offset: 5000 });
        assertIdentical(
          posenc.rope(x.slice(), options),
          rotateWithCache(x, options, cos, sin),
          `${headDim}/${rotaryDim}`,
        );
      }
    });

    it('seqLen 0 gives empty tables', () => {
      const { cos, sin } = posenc.ropeCache({ seqLen: 0, rotaryDim: 8 });
      assert.equal(cos.length + sin.length, 0);
    });
  });
}
