// posenc.rope against the float64 JS reference: both pairings, every headDim/rotaryDim pair
// from 2 to 40 (SIMD bodies and tails), partial rotary, several heads, the 128-pair block
// boundary, offsets, explicit positions, out vs in place; and RoPE's relative property.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { dot, ropeReference, ropeShape } from './reference.js';
import {
  ROPE_EPS,
  U32,
  assertClose,
  assertIdentical,
  assertRopeClose,
  loadBothVariants,
  randomNormal,
  randomPositions,
  ropePairScales,
} from './support.js';

const LAYOUTS = ['interleaved', 'half'];

/** Rotates a copy of x (in place, and into `out`), checks both against the reference. */
function checkRope(posenc, x, options, label) {
  const inPlace = x.slice();
  assert.equal(posenc.rope(inPlace, options), inPlace, `${label}: returns x`);
  const worst = assertRopeClose(inPlace, x, ropeReference(x, options), options, label);
  const out = new Float32Array(x.length).fill(Number.NaN);
  const source = x.slice();
  assert.equal(posenc.rope(source, { ...options, out }), out, `${label}: returns out`);
  assertIdentical(source, x, `${label}: x untouched when out is given`);
  assertIdentical(out, inPlace, `${label}: out equals in place (pass-through channels copied)`);
  return worst;
}

function elements({ seqLen, numHeads = 1, headDim }) {
  return seqLen * numHeads * headDim;
}

/** Σ over rotary pairs of (|q_a| + |q_b|)(|k_a| + |k_b|), for one head of q and k. */
function pairScaleProduct(q, k, _headDim, rotaryDim, layout) {
  let sum = 0;
  for (let i = 0; i < rotaryDim / 2; i++) {
    const [a, b] = layout === 'interleaved' ? [2 * i, 2 * i + 1] : [i, i + rotaryDim / 2];
    sum += (Math.abs(q[a]) + Math.abs(q[b])) * (Math.abs(k[a]) + Math.abs(k[b]));
  }
  return sum;
}

for (const posenc of await loadBothVariants()) {
  describe(`rope (${posenc.variant})`, () => {
    it('every even headDim 2..40 with every even rotaryDim 2..headDim, both pairings, 1 and 3 heads', () => {
      let seed = 1;
      for (const layout of LAYOUTS) {
        for (let headDim = 2; headDim <= 40; headDim += 2) {
          for (let rotaryDim = 2; rotaryDim <= headDim; rotaryDim += 2) {
            for (const numHeads of [1, 3]) {
              const options = { seqLen: 3, numHeads, headDim, rotaryDim, layout, offset: 62 };
              checkRope(
                posenc,
                randomNormal(elements(options), seed++),
                options,
                `${layout} h${numHeads} ${headDim}/${rotaryDim}`,
              );
            }
          }
        }
      }
    });

    it('rotaryDim defaults to headDim, layout to interleaved, numHeads to 1, base to 10000', () => {
      const x = randomNormal(4 * 8, 3);
      const explicit = posenc.rope(x.slice(), {
        seqLen: 4,
        numHeads: 1,
        headDim: 8,
        rotaryDim: 8,
        layout: 'interleaved',
        base: 10000,
        offset: 0,
      });
      assertIdentical(posenc.rope(x.slice(), { seqLen: 4, headDim: 8 }), explicit, 'defaults');
    });

    it('larger heads: 128 and 512 channels, partial rotary, across the 128-pair block, 130 rows', () => {
      const cases = [
        [128, 128],
        [128, 64],
        [128, 32],
        [512, 512],
        [512, 258],
        [512, 256],
        [512, 2],
        [80, 20],
      ];
      for (const layout of LAYOUTS) {
        for (const [headDim, rotaryDim] of cases) {
          const options = { seqLen: 130, numHeads: 2, headDim, rotaryDim, layout, offset: 4000 };
          checkRope(
            posenc,
            randomNormal(elements(options), headDim + rotaryDim),
            options,
            `${layout} ${headDim}/${rotaryDim}`,
          );
        }
      }
    });

    it('GPT-NeoX style partial rotary (25%) leaves the other channels bit for bit', () => {
      const options = { seqLen: 5, numHeads: 4, headDim: 64, rotaryDim: 16, layout: 'half', offset: 10 };
      const x = randomNormal(elements(options), 11);
      const out = posenc.rope(x.slice(), options);
      for (let row = 0; row < 5 * 4; row++) {
        assertIdentical(
          out.subarray(row * 64 + 16, row * 64 + 64),
          x.subarray(row * 64 + 16, row * 64 + 64),
          `head row ${row}`,
        );
        assert.notDeepEqual(out.subarray(row * 64, row * 64 + 16), x.subarray(row * 64, row * 64 + 16));
      }
    });

    it('the pairings differ, and half is interleaved on permuted channels', () => {
      const headDim = 12;
      const x = randomNormal(2 * headDim, 5);
      const half = posenc.rope(x.slice(), { seqLen: 2, headDim, layout: 'half', offset: 3 });
      const interleaved = posenc.rope(x.slice(), { seqLen: 2, headDim, layout: 'interleaved', offset: 3 });
      assert.notDeepEqual(half, interleaved);
      // (x0, x6, x1, x7, ...) rotated as interleaved pairs = half rotation of x, permuted.
      const order = Array.from({ length: headDim }, (_, j) => (j % 2 === 0 ? j / 2 : j / 2 - 0.5 + headDim / 2));
      const permute = (v) =>
        Float32Array.from({ length: v.length }, (_, j) => v[Math.floor(j / headDim) * headDim + order[j % headDim]]);
      assertIdentical(
        posenc.rope(permute(x), { seqLen: 2, headDim, layout: 'interleaved', offset: 3 }),
        permute(half),
        'permuted',
      );
    });

    it('bases other than 10000', () => {
      for (const base of [500000, 1e6, 10, 1.5]) {
        for (const layout of LAYOUTS) {
          const options = { seqLen: 7, numHeads: 2, headDim: 18, rotaryDim: 14, base, layout, offset: 77 };
          checkRope(posenc, randomNormal(elements(options), 17), options, `base ${base} ${layout}`);
        }
      }
    });

    it('explicit positions (KV-cache style: repeated, descending, large), all array kinds', () => {
      const positions = [0, 0, 9, 8, 7, 1 << 20, 65, 64, 2 ** 24 - 1, 3];
      for (const list of [positions, Int32Array.from(positions), Uint32Array.from(positions)]) {
        for (const layout of LAYOUTS) {
          const options = { seqLen: positions.length, numHeads: 2, headDim: 10, rotaryDim: 6, layout, positions: list };
          checkRope(posenc, randomNormal(elements(options), 23), options, `${list.constructor.name} ${layout}`);
        }
      }
    });

    it('explicit positions rotate like the offset rows they name', () => {
      const options = { seqLen: 100, numHeads: 2, headDim: 8, layout: 'half', offset: 1000 };
      const x = randomNormal(elements(options), 29);
      const byOffset = posenc.rope(x.slice(), options);
      const rows = [99, 0, 64, 63, 1];
      const picked = Float32Array.from(rows.flatMap((r) => Array.from(x.subarray(r * 16, r * 16 + 16))));
      const byPositions = posenc.rope(picked, {
        ...options,
        offset: undefined,
        seqLen: rows.length,
        positions: rows.map((r) => 1000 + r),
      });
      // cos/sin reached by recurrence or directly may round differently at a tie (one float32
      // step, <= 2^-24, each), which moves a' = a cos - b sin by <= 2^-24 (|a| + |b|) and may
      // flip the roundings of the products and the sum: 4 u (|a| + |b|) in all.
      const scales = ropePairScales(picked, { ...options, seqLen: rows.length });
      assertClose(
        byPositions,
        Float32Array.from(rows.flatMap((r) => Array.from(byOffset.subarray(r * 16, r * 16 + 16)))),
        (i) => 4 * U32 * scales[i],
        'rows by positions vs by offset',
      );
    });

    it('random large positions, 4 heads of 64', () => {
      const positions = randomPositions(24, 2 ** 24 - 1, 31);
      for (const layout of LAYOUTS) {
        const options = { seqLen: positions.length, numHeads: 4, headDim: 64, rotaryDim: 48, layout, positions };
        checkRope(posenc, randomNormal(elements(options), 37, 3), options, layout);
      }
    });

    it('zeros stay zeros; seqLen 0 is a no-op', () => {
      const zeros = new Float32Array(3 * 8);
      // (a rotated zero may be -0: 0 * cos - 0 * sin with cos < 0)
      assert.ok(
        posenc.rope(zeros, { seqLen: 3, headDim: 8, offset: 12345 }).every((v) => v === 0),
        'zeros',
      );
      assert.equal(posenc.rope(new Float32Array(0), { seqLen: 0, headDim: 8 }).length, 0);
    });

    it('rotation preserves the norm of every pair (to float32 rounding)', () => {
      const options = { seqLen: 50, numHeads: 1, headDim: 32, layout: 'half', offset: 2 ** 23 };
      const x = randomNormal(elements(options), 41);
      const out = posenc.rope(x.slice(), options);
      const { headDim, rotaryDim } = ropeShape(options);
      for (let row = 0; row < 50; row++) {
        for (let i = 0; i < rotaryDim / 2; i++) {
          const [a, b] = [row * headDim + i, row * headDim + i + rotaryDim / 2];
          const before = Math.hypot(x[a], x[b]);
          assert.ok(
            Math.abs(Math.hypot(out[a], out[b]) - before) <= 2 * ROPE_EPS * (Math.abs(x[a]) + Math.abs(x[b])),
            `row ${row} pair ${i}`,
          );
        }
      }
    });

    describe('relative property: rot(q, m) . rot(k, n) = rot(q, m + t) . rot(k, n + t)', () => {
      // Tolerance: each rotated component is within eps * (|x_a| + |x_b|) of the exact value
      // and |exact component| <= |x_a| + |x_b|, so one dot product (taken in float64 here) is
      // within (4 eps + 2 eps^2) * Σ_pairs (|q_a|+|q_b|)(|k_a|+|k_b|) of the exact one; two of
      // them differ by at most twice that. Pass-through channels add the same exact amount to both.
      const rotate = (v, position, options) => posenc.rope(v.slice(), { ...options, seqLen: 1, positions: [position] });
      const cases = [
        { m: 5, n: 3, t: 1000 },
        { m: 0, n: 100, t: 2 ** 20 },
        { m: 70000, n: 12, t: 9 },
        { m: 2 ** 23, n: 2 ** 23 + 64, t: 2 ** 23 - 65 },
      ];
      for (const layout of LAYOUTS) {
        for (const rotaryDim of [64, 24]) {
          it(`${layout}, headDim 64, rotaryDim ${rotaryDim}`, () => {
            const options = { headDim: 64, rotaryDim, layout };
            const q = randomNormal(64, 43);
            const k = randomNormal(64, 47);
            const tolerance = 2 * (4 * ROPE_EPS + 2 * ROPE_EPS ** 2) * pairScaleProduct(q, k, 64, rotaryDim, layout);
            for (const { m, n, t } of cases) {
              const score = dot(rotate(q, m, options), rotate(k, n, options));
              const shifted = dot(rotate(q, m + t, options), rotate(k, n + t, options));
              assert.ok(
                Math.abs(score - shifted) <= tolerance,
                `m ${m} n ${n} t ${t}: ${score} vs ${shifted} (tolerance ${tolerance})`,
              );
              // The property can fail: moving only the query changes the score.
              const queryOnly = dot(rotate(q, m + t, options), rotate(k, n, options));
              assert.ok(
                Math.abs(score - queryOnly) > 100 * tolerance,
                `shifting only q by ${t} should change the score`,
              );
            }
          });
        }
      }
    });
  });
}
