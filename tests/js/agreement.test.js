// The SIMD and scalar builds agree: tables, caches and rotations bit for bit (same float64
// phases, and the same float32 multiply-adds: WebAssembly has no fused multiply-add), the
// similarity within float32 tolerance (the SIMD dot sums in a different order).
import { describe, it } from 'node:test';

import { absDot } from './reference.js';
import { assertClose, assertIdentical, dotErrorBound, loadBothVariants, randomNormal } from './support.js';

const [simd, scalar] = await loadBothVariants();

describe('SIMD and scalar builds agree', () => {
  it('rope: every headDim 2..40 x rotaryDim 2..headDim, both pairings, 2 heads, in place and out', () => {
    for (const layout of ['interleaved', 'half']) {
      for (let headDim = 2; headDim <= 40; headDim += 2) {
        for (let rotaryDim = 2; rotaryDim <= headDim; rotaryDim += 2) {
          const options = { seqLen: 4, numHeads: 2, headDim, rotaryDim, layout, offset: 100 };
          const x = randomNormal(8 * headDim, headDim * 100 + rotaryDim);
          const label = `${layout} ${headDim}/${rotaryDim}`;
          assertIdentical(simd.rope(x.slice(), options), scalar.rope(x.slice(), options), label);
          const out = [new Float32Array(x.length), new Float32Array(x.length)];
          simd.rope(x, { ...options, out: out[0] });
          scalar.rope(x, { ...options, out: out[1] });
          assertIdentical(out[0], out[1], `${label} out`);
        }
      }
    }
  });

  it('rope: wide heads and large positions', () => {
    for (const layout of ['interleaved', 'half']) {
      const options = {
        seqLen: 6,
        numHeads: 3,
        headDim: 520,
        rotaryDim: 514,
        layout,
        positions: [0, 2 ** 24 - 1, 7, 8, 2 ** 31 - 1, 64],
      };
      const x = randomNormal(6 * 3 * 520, 5);
      assertIdentical(simd.rope(x.slice(), options), scalar.rope(x.slice(), options), layout);
    }
  });

  it('sinusoidal, addSinusoidal, ropeCache, positionNumbers', () => {
    for (const layout of ['interleaved', 'concat']) {
      for (const dModel of [2, 6, 38, 258]) {
        const options = { seqLen: 70, dModel, layout, offset: 12345 };
        assertIdentical(simd.sinusoidal(options), scalar.sinusoidal(options), `sinusoidal ${layout} ${dModel}`);
        const x = randomNormal(70 * dModel, dModel);
        assertIdentical(
          simd.addSinusoidal(x.slice(), options),
          scalar.addSinusoidal(x.slice(), options),
          `add ${layout} ${dModel}`,
        );
      }
    }
    const cache = { seqLen: 70, rotaryDim: 258, positions: Array.from({ length: 70 }, (_, i) => i * i * 997) };
    assertIdentical(simd.ropeCache(cache).cos, scalar.ropeCache(cache).cos, 'cos');
    assertIdentical(simd.ropeCache(cache).sin, scalar.ropeCache(cache).sin, 'sin');
    assertIdentical(
      simd.positionNumbers({ seqLen: 9, dModel: 5, offset: 3 }),
      scalar.positionNumbers({ seqLen: 9, dModel: 5, offset: 3 }),
      'positionNumbers',
    );
  });

  it('similarity within float32 tolerance (each build is within the dot bound of the exact value)', () => {
    for (const metric of ['dot', 'cosine']) {
      for (const dim of [1, 3, 4, 5, 7, 8, 9, 31, 64, 1001]) {
        const a = randomNormal(4 * dim, dim);
        const b = randomNormal(6 * dim, dim + 1);
        const options = { rows: 4, cols: 6, dim, metric };
        const norms = (r, c) =>
          metric === 'cosine'
            ? Math.sqrt(absDot(a, a, dim, r * dim, r * dim) * absDot(b, b, dim, c * dim, c * dim))
            : 1;
        // Twice one build's bound (both may err in opposite directions), cosine normalized, plus
        // room for the norms' own rounding (relative to |cos| <= 1).
        const bound = (i) => {
          const [r, c] = [Math.floor(i / 6), i % 6];
          return (
            2 *
            (dotErrorBound(dim, absDot(a, b, dim, r * dim, c * dim)) / norms(r, c) +
              (metric === 'cosine' ? dotErrorBound(dim, 1) + 4 * 2 ** -24 : 0))
          );
        };
        assertClose(simd.similarity(a, b, options), scalar.similarity(a, b, options), bound, `${metric} dim ${dim}`);
      }
    }
  });
});
