// Arrays over SharedArrayBuffers. structuredClone(sab), and every postMessage round trip, gives
// another SharedArrayBuffer object over the same memory, and nothing on the two objects tells.
// posenc must apply to such a pair the rules it applies to views of one buffer: the same range
// is in place, a partial overlap of an input and an output is refused, and q and k that are
// both written may not share memory. Never a silent wrong result.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { assertStillWorks, loadBothVariants, randomNormal } from './support.js';
import { assertSameBits, assertThrowsSeamError } from './seam-support.js';

const variants = await loadBothVariants();

/** Float32 values over a new SharedArrayBuffer, and a second handle of the same memory. */
function sharedPair(floats, seed) {
  const sab = new SharedArrayBuffer(floats * 4);
  new Float32Array(sab).set(randomNormal(floats, seed));
  return { sab, clone: structuredClone(sab) };
}

for (const posenc of variants) {
  describe(`SharedArrayBuffer handles (${posenc.variant})`, () => {
    const shape = { seqLen: 4096, headDim: 64, offset: 3 };
    const row = shape.headDim;

    it('the clone really is the same memory (the premise of every case)', () => {
      const { sab, clone } = sharedPair(4, 1);
      assert.notEqual(sab, clone);
      new Float32Array(sab)[0] = 42;
      assert.equal(new Float32Array(clone)[0], 42);
    });

    it('rope: out one row after x through another handle is refused, nothing written', () => {
      const { sab, clone } = sharedPair((shape.seqLen + 1) * row, 2);
      const before = new Float32Array(sab).slice();
      const x = new Float32Array(sab, 0, shape.seqLen * row);
      const out = new Float32Array(clone, row * 4, shape.seqLen * row);
      assertThrowsSeamError(() => posenc.rope(x, { ...shape, out }), RangeError, 'out', 'rope', 'overlapping handles');
      assertSameBits(new Float32Array(sab), before, 'nothing written');
      assertStillWorks(posenc, 'after the refused overlap');
    });

    it('rope: out over the same range through another handle rotates in place, with the bits of a plain call', () => {
      for (const seqLen of [4096, 3]) {
        const { sab, clone } = sharedPair(seqLen * row, 3);
        const expected = posenc.rope(new Float32Array(sab).slice(), { ...shape, seqLen });
        const x = new Float32Array(sab);
        const out = new Float32Array(clone);
        assert.equal(posenc.rope(x, { ...shape, seqLen, out }), out);
        assertSameBits(x, expected, `in place through two handles, seqLen ${seqLen}`);
      }
    });

    it('rope: out in a different SharedArrayBuffer at overlapping byte offsets is not mistaken for an overlap', () => {
      const a = sharedPair((shape.seqLen + 1) * row, 4).sab;
      const b = new SharedArrayBuffer(a.byteLength);
      const x = new Float32Array(a, 0, shape.seqLen * row);
      const out = new Float32Array(b, row * 4, shape.seqLen * row);
      const before = new Float32Array(a).slice();
      const expected = posenc.rope(x.slice(), shape);
      posenc.rope(x, { ...shape, out });
      assertSameBits(out, expected, 'rotated into the other memory');
      assertSameBits(new Float32Array(a), before, 'x unchanged, the probe byte restored');
    });

    it('ropeQK in place: q and k overlapping through two handles are refused, nothing written', () => {
      const options = { seqLen: 1, numHeads: 1, numKvHeads: 1, headDim: 32, offset: 5 };
      const { sab, clone } = sharedPair(40, 5);
      const before = new Float32Array(sab).slice();
      const q = new Float32Array(sab, 0, 32);
      const k = new Float32Array(clone, 8 * 4, 32);
      assertThrowsSeamError(() => posenc.ropeQK(q, k, options), RangeError, 'k', 'ropeQK', 'q and k overlap');
      assertSameBits(new Float32Array(sab), before, 'nothing written');
      // out.k over q's memory through the other handle
      const outQ = new Float32Array(8);
      const outK = new Float32Array(clone, 4 * 4, 8);
      assertThrowsSeamError(
        () =>
          posenc.ropeQK(new Float32Array(sab, 0, 8), new Float32Array(8), {
            ...options,
            headDim: 8,
            out: { q: outQ, k: outK },
          }),
        RangeError,
        'out.k',
        'ropeQK',
        'out.k over q',
      );
      assertSameBits(new Float32Array(sab), before, 'still nothing written');
    });

    it('ropeQK: q and k in one memory, disjoint, through two handles: the bits of plain arrays', () => {
      const options = { seqLen: 2, numHeads: 4, numKvHeads: 2, headDim: 8, offset: 9 };
      const { sab, clone } = sharedPair(64 + 32, 6);
      const q = new Float32Array(sab, 0, 64);
      const k = new Float32Array(clone, 64 * 4, 32);
      const expected = posenc.ropeQK(q.slice(), k.slice(), options);
      posenc.ropeQK(q, k, options);
      assertSameBits(q, expected.q, 'q');
      assertSameBits(k, expected.k, 'k');
    });

    it('every other operation with an input and an output applies the same rule', () => {
      const { sab, clone } = sharedPair(64, 7);
      const before = new Float32Array(sab).slice();
      const a = new Float32Array(sab, 0, 8);
      const overlapping = new Float32Array(clone, 4 * 4, 4);
      assertThrowsSeamError(
        () => posenc.similarity(a, new Float32Array(8), { rows: 2, cols: 2, dim: 4, out: overlapping }),
        RangeError,
        'out',
        'similarity',
        'similarity out over a',
      );
      assertThrowsSeamError(
        () =>
          posenc.convertLayout(a, { from: 'interleaved', to: 'half', headDim: 8, out: new Float32Array(clone, 4, 8) }),
        RangeError,
        'out',
        'convertLayout',
        'convertLayout out over x',
      );
      assertThrowsSeamError(
        () =>
          posenc.ropeCache({
            seqLen: 2,
            rotaryDim: 4,
            out: { cos: new Float32Array(sab, 0, 4), sin: new Float32Array(clone, 8, 4) },
          }),
        RangeError,
        'out.sin',
        'ropeCache',
        'cos and sin through two handles',
      );
      assertSameBits(new Float32Array(sab), before, 'nothing written');
    });
  });
}
