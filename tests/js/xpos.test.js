// xPos (rope's `xpos` option) against torchscale's XPOS run in float64 (tests/golden/xpos.json,
// scripts/make_golden_xpos.py) in both layouts, and against a float64 reference of its formula;
// q·k a function of m − n; ropeQK, plans and streamed arrays agreeing bit for bit; the inverse.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { dot, xposReference } from './reference.js';
import { assertIdentical, loadBothVariants, randomNormal, readGolden } from './support.js';

const golden = readGolden('xpos.json');
let seed = 1;
const nextSeed = () => seed++;

/**
 * The largest error of a rotated component in float32 ulps of its pair's length (what the
 * rotation keeps; a component alone can cancel to nearly 0).
 */
function worstPairUlps(got, want, rotaryDim, headDim, layout = 'interleaved') {
  let worst = 0;
  for (let start = 0; start < want.length; start += headDim)
    for (let pair = 0; pair < rotaryDim / 2; pair++) {
      const [a, b] = layout === 'half' ? [pair, pair + rotaryDim / 2] : [2 * pair, 2 * pair + 1];
      const length = Math.hypot(want[start + a], want[start + b]);
      if (length === 0) continue;
      const ulp = 2 ** (Math.floor(Math.log2(length)) - 23);
      for (const at of [start + a, start + b]) worst = Math.max(worst, Math.abs(got[at] - want[at]) / ulp);
    }
  return worst;
}

const PAIR_ULPS = 2; // as tests/core/xpos_test.cpp: float64 phases rounded once, then float32 arithmetic

for (const posenc of await loadBothVariants()) {
  describe(`xpos (${posenc.variant})`, () => {
    it("matches torchscale's XPOS in float64 (interleaved); half gives the same bits up to the channel permutation", (t) => {
      let worst = 0;
      for (const c of golden.cases) {
        const role = c.downscale ? 'key' : 'query';
        const x = Float32Array.from(c.x);
        const options = {
          seqLen: c.length,
          batch: c.rows,
          headDim: c.headDim,
          offset: c.offset,
          xpos: { scaleBase: c.scaleBase, gamma: golden.gamma, role },
        };
        const label = `headDim ${c.headDim}, length ${c.length}, offset ${c.offset}, ${role}`;
        const interleaved = posenc.rope(x.slice(), options);
        const ulps = worstPairUlps(interleaved, c.exact, c.headDim, c.headDim);
        assert.ok(ulps <= PAIR_ULPS, `${label}: ${ulps} ulps`);
        worst = Math.max(worst, ulps);
        const convert = (v, from, to) => posenc.convertLayout(v, { from, to, headDim: c.headDim });
        const half = posenc.rope(convert(x, 'interleaved', 'half'), { ...options, layout: 'half' });
        assertIdentical(convert(half, 'half', 'interleaved'), interleaved, `${label}: half, permuted back`);
      }
      t.diagnostic(`largest deviation from torchscale float64: ${worst.toFixed(3)} float32 ulps of the pair's length`);
    });

    it('matches the float64 formula: partial rotary, both layouts, positions lists, explicit centers', () => {
      for (const layout of ['interleaved', 'half'])
        for (const role of ['query', 'key'])
          for (const [headDim, rotaryDim, seqLen, rows, center] of [
            [40, 36, 9, { offset: 0 }, undefined],
            [70, 64, 1, { offset: 5000 }, undefined],
            [18, 10, 6, { positions: [3, 3, 900, 2, 7, 8] }, 450],
            [130, 128, 1030, { offset: 100 }, 20000],
          ]) {
            const options = { seqLen, numHeads: 2, headDim, rotaryDim, layout, ...rows, xpos: { role, center } };
            const x = randomNormal(seqLen * 2 * headDim, nextSeed());
            const got = posenc.rope(x.slice(), options);
            const want = xposReference(x, options);
            const ulps = worstPairUlps(got, want, rotaryDim, headDim, layout);
            assert.ok(ulps <= PAIR_ULPS, `${layout} ${role} ${headDim}/${rotaryDim}: ${ulps} ulps`);
            for (let v = 0; v < seqLen * 2; v++)
              for (let ch = rotaryDim; ch < headDim; ch++)
                assert.equal(got[v * headDim + ch], x[v * headDim + ch], 'pass-through channels');
          }
    });

    it('ropeQK: q·k depends on m − n only (GQA, heads order, yarn scaling), and equals rope per role', () => {
      const headDim = 32;
      const q = randomNormal(4 * headDim, nextSeed());
      const k = randomNormal(2 * headDim, nextSeed());
      const base = {
        seqLen: 1,
        numHeads: 4,
        numKvHeads: 2,
        headDim,
        order: 'heads',
        scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096 },
      };
      const score = (m, n, center) => {
        const xpos = { scaleBase: 128, center };
        const atM = posenc.ropeQK(q.slice(), k.slice(), { ...base, positions: [m], xpos });
        const atN = posenc.ropeQK(q.slice(), k.slice(), { ...base, positions: [n], xpos });
        return dot(atM.q, atN.k, headDim, 3 * headDim, headDim); // query head 3 meets key head 1
      };
      for (const delta of [0, 1, 9, 200, -30]) {
        const first = score(600 + delta, 600, 600);
        for (const [m, center] of [
          [3000, 0],
          [9000, 9100],
          [40, 2000],
        ]) {
          const other = score(m + delta, m, center);
          assert.ok(Math.abs(other - first) <= 1e-5 * Math.abs(first) + 1e-6, `delta ${delta}: ${other} vs ${first}`);
        }
      }
      // the default center is the call's: ropeQK's q and k are rope's query and key, bit for bit
      const options = { seqLen: 3, numHeads: 2, headDim, offset: 77 };
      const q3 = randomNormal(3 * 2 * headDim, nextSeed());
      const k3 = randomNormal(3 * headDim, nextSeed());
      const both = posenc.ropeQK(q3.slice(), k3.slice(), { ...options, numKvHeads: 1, xpos: {} });
      assertIdentical(both.q, posenc.rope(q3.slice(), { ...options, xpos: { role: 'query' } }), 'q');
      assertIdentical(both.k, posenc.rope(k3.slice(), { ...options, numHeads: 1, xpos: { role: 'key' } }), 'k');
    });

    it('plans: apply with a role and applyQK give the bits of rope and ropeQK; a KV cache with a fixed center', () => {
      const headDim = 16;
      const plan = posenc.ropePlan({ seqLen: 1, headDim, xpos: { center: 0 } });
      try {
        // keys rotated one step at a time into a cache, queries at each step: as ropeQK over the same rows
        const keys = randomNormal(10 * headDim, nextSeed());
        const queries = randomNormal(10 * headDim, nextSeed());
        const all = posenc.ropeQK(queries.slice(), keys.slice(), { seqLen: 10, headDim, xpos: { center: 0 } });
        for (let step = 0; step < 10; step++) {
          const k = plan.apply(keys.slice(step * headDim, (step + 1) * headDim), { offset: step, role: 'key' });
          const q = plan.apply(queries.slice(step * headDim, (step + 1) * headDim), { offset: step, role: 'query' });
          assertIdentical(k, all.k.subarray(step * headDim, (step + 1) * headDim), `key ${step}`);
          assertIdentical(q, all.q.subarray(step * headDim, (step + 1) * headDim), `query ${step}`);
        }
        const qk = plan.applyQK(queries.slice(0, headDim), keys.slice(0, headDim), { offset: 4 });
        const want = posenc.ropeQK(queries.slice(0, headDim), keys.slice(0, headDim), {
          seqLen: 1,
          headDim,
          offset: 4,
          xpos: { center: 0 },
        });
        assertIdentical(qk.q, want.q, 'applyQK q');
        assertIdentical(qk.k, want.k, 'applyQK k');
      } finally {
        plan.free();
      }
    });

    it('a large JS array streamed in blocks gives the bits of one call in WASM memory (one center)', () => {
      const options = { seqLen: 3000, numHeads: 2, headDim: 64, offset: 10, xpos: { role: 'key' } };
      const x = randomNormal(3000 * 2 * 64, nextSeed());
      const streamed = posenc.rope(x.slice(), options);
      const resident = posenc.allocate(x);
      try {
        posenc.rope(resident, options);
        assertIdentical(streamed, resident.toArray(), 'streamed vs resident');
      } finally {
        resident.free();
      }
    });

    it('inverse: true undoes the rotation (−θ and the reciprocal scale)', () => {
      for (const layout of ['interleaved', 'half'])
        for (const role of ['query', 'key']) {
          const options = { seqLen: 20, numHeads: 3, headDim: 24, layout, offset: 9000, xpos: { role, center: 8000 } };
          const x = randomNormal(20 * 3 * 24, nextSeed());
          const back = posenc.rope(posenc.rope(x.slice(), options), { ...options, inverse: true });
          for (let i = 0; i < x.length; i++) assert.ok(Math.abs(back[i] - x[i]) <= 1e-5 * (1 + Math.abs(x[i])));
        }
    });
  });
}
