// posenc.similarity against the float64 JS reference, within the float32 error bound of a dot
// product: every dim 1..40 (SIMD bodies and tails), dot and cosine, all-zero rows, out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { absDot, dot, similarityReference } from './reference.js';
import {
  ROPE_EPS,
  U32,
  assertClose,
  assertIdentical,
  dotErrorBound,
  loadBothVariants,
  randomNormal,
} from './support.js';

/**
 * Per-entry error bound. dot: the float32 dot bound. cosine = dot / (|a| |b|): the dot's
 * bound divided by the norms, plus |cos| times the relative error of the two norms (each a
 * float32 dot of positive terms, halved by sqrt, plus the sqrt's rounding) and of two divisions.
 */
function similarityBound(a, b, { cols, dim, metric = 'dot' }) {
  return (index) => {
    const r = Math.floor(index / cols);
    const c = index % cols;
    const dotBound = dotErrorBound(dim, absDot(a, b, dim, r * dim, c * dim));
    if (metric === 'dot') return dotBound;
    const norms = Math.sqrt(dot(a, a, dim, r * dim, r * dim)) * Math.sqrt(dot(b, b, dim, c * dim, c * dim));
    if (norms === 0) return 0;
    const cosine = Math.abs(dot(a, b, dim, r * dim, c * dim)) / norms;
    const normsRelative = dotErrorBound(dim, 1) + 2 * U32;
    return 1.01 * (dotBound / norms + cosine * (normsRelative + 2 * U32));
  };
}

function check(posenc, a, b, options, label) {
  const result = posenc.similarity(a, b, options);
  return assertClose(result, similarityReference(a, b, options), similarityBound(a, b, options), label);
}

for (const posenc of await loadBothVariants()) {
  describe(`similarity (${posenc.variant})`, () => {
    it('every dim 1..40, dot and cosine, rectangular', () => {
      for (const metric of ['dot', 'cosine']) {
        for (let dim = 1; dim <= 40; dim++) {
          const options = { rows: 3, cols: 5, dim, metric };
          check(posenc, randomNormal(3 * dim, dim), randomNormal(5 * dim, 100 + dim), options, `${metric} dim ${dim}`);
        }
      }
    });

    it('wide vectors (dim 4096) and many rows', () => {
      for (const metric of ['dot', 'cosine']) {
        check(
          posenc,
          randomNormal(4 * 4096, 1),
          randomNormal(3 * 4096, 2),
          { rows: 4, cols: 3, dim: 4096, metric },
          `${metric} 4096`,
        );
        check(
          posenc,
          randomNormal(64 * 24, 3),
          randomNormal(70 * 24, 4),
          { rows: 64, cols: 70, dim: 24, metric },
          `${metric} 64x70`,
        );
      }
    });

    it('metric defaults to dot; a . a is the squared norm; cosine of a row with itself is 1', () => {
      const a = randomNormal(4 * 16, 5);
      assertIdentical(
        posenc.similarity(a, a, { rows: 4, cols: 4, dim: 16 }),
        posenc.similarity(a, a, { rows: 4, cols: 4, dim: 16, metric: 'dot' }),
        'default',
      );
      const cosine = posenc.similarity(a, a, { rows: 4, cols: 4, dim: 16, metric: 'cosine' });
      for (let i = 0; i < 4; i++)
        assert.ok(Math.abs(cosine[i * 5] - 1) <= 4 * 17 * U32, `cos(a${i}, a${i}) = ${cosine[i * 5]}`);
    });

    it('cosine with an all-zero row is 0 (not NaN)', () => {
      const a = new Float32Array([0, 0, 0, 1, 2, 3]);
      const b = new Float32Array([1, 1, 1, 0, 0, 0]);
      const result = posenc.similarity(a, b, { rows: 2, cols: 2, dim: 3, metric: 'cosine' });
      assert.equal(result[0], 0);
      assert.equal(result[1], 0);
      assert.equal(result[3], 0);
      assert.ok(Math.abs(result[2] - 6 / Math.sqrt(14 * 3)) <= 8 * U32, `cos = ${result[2]}`);
    });

    it('the RoPE score of the same vector is a function of m - n (the RoPE heat map of "Positional Embeddings Explained")', () => {
      // Same q rotated to positions 0..15 as rows and as columns: diagonals are constant up to
      // float32 error. Bound per entry, S = Σ_pairs (|q_a| + |q_b|)^2: the rotations' contract
      // error (4 eps + 2 eps^2) S (see the relative property in rope.test.js) plus the float32 dot
      // of rotated vectors (Σ |q'_j q'_j| <= 2 S (1 + eps)^2); two entries differ by twice that.
      const q = randomNormal(32, 9);
      const rows = Float32Array.from({ length: 16 * 32 }, (_, i) => q[i % 32]);
      const rotated = posenc.rope(rows, { seqLen: 16, headDim: 32, layout: 'half' });
      const score = posenc.similarity(rotated, rotated, { rows: 16, cols: 16, dim: 32 });
      let pairScale = 0;
      for (let i = 0; i < 16; i++) pairScale += (Math.abs(q[i]) + Math.abs(q[i + 16])) ** 2;
      const bound =
        2 * ((4 * ROPE_EPS + 2 * ROPE_EPS ** 2) * pairScale + dotErrorBound(32, 2 * pairScale * (1 + ROPE_EPS) ** 2));
      let distinct = 0;
      for (let m = 1; m < 16; m++) {
        for (let n = 1; n < 16; n++) {
          const diff = Math.abs(score[m * 16 + n] - score[(m - 1) * 16 + (n - 1)]);
          assert.ok(diff <= bound, `(${m}, ${n}): ${diff} > ${bound}`);
          if (Math.abs(score[m * 16 + n] - score[m * 16 + n - 1]) > 100 * bound) distinct++;
        }
      }
      assert.ok(distinct > 100, 'across a diagonal the scores do change');
    });

    it('out: Float32Array or WasmArray', () => {
      const a = randomNormal(2 * 7, 11);
      const b = randomNormal(3 * 7, 12);
      const options = { rows: 2, cols: 3, dim: 7, metric: 'cosine' };
      const expected = posenc.similarity(a, b, options);
      const out = new Float32Array(6);
      assert.equal(posenc.similarity(a, b, { ...options, out }), out);
      assertIdentical(out, expected, 'Float32Array out');
      const wasmOut = posenc.allocate(6);
      const wasmA = posenc.allocate(a);
      try {
        assert.equal(posenc.similarity(wasmA, b, { ...options, out: wasmOut }), wasmOut);
        assertIdentical(wasmOut.toArray(), expected, 'WasmArray out and a');
      } finally {
        wasmOut.free();
        wasmA.free();
      }
    });

    it('rows or cols 0 give an empty matrix', () => {
      assert.equal(posenc.similarity(new Float32Array(0), new Float32Array(4), { rows: 0, cols: 1, dim: 4 }).length, 0);
      assert.equal(posenc.similarity(new Float32Array(4), new Float32Array(0), { rows: 1, cols: 0, dim: 4 }).length, 0);
    });
  });
}
