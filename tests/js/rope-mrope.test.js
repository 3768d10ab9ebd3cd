// posenc.rope with mrope (M-RoPE: Qwen2-VL's sections, Qwen3-VL's interleaved ones) on both
// WASM builds, against tests/golden/axis-phases.json, the models' own code run in float64
// (scripts/make_golden_axis_phases.py) on real get_rope_index positions; the same rows through
// ropeQK's queries alone and through a plan; mropePositions chained into rope, and the same call
// with an offset as plain rope.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { assertIdentical, assertRopeClose, loadBothVariants, readGolden, worstRopeUlps } from './support.js';

const golden = readGolden('axis-phases.json');

for (const posenc of await loadBothVariants()) {
  describe(`rope with mrope (${posenc.variant})`, () => {
    for (const c of golden.mrope) {
      it(`matches ${c.model}'s own code in float64: ${c.name}`, () => {
        const options = {
          seqLen: c.seqLen,
          numHeads: c.numHeads,
          numKvHeads: c.numKvHeads,
          headDim: c.headDim,
          base: c.base,
          layout: 'half',
          order: 'heads', // transformers' [batch, heads, seq, dim]
          mrope: { section: c.section, interleaved: c.interleaved },
          positions: Int32Array.from(c.positions), // [3, seqLen]
        };
        const q = Float32Array.from(c.q);
        const k = Float32Array.from(c.k);
        const out = posenc.ropeQK(q, k, {
          ...options,
          out: { q: new Float32Array(q.length), k: new Float32Array(k.length) },
        });
        const qShape = { seqLen: c.seqLen, numHeads: c.numHeads, headDim: c.headDim, layout: 'half' };
        const kShape = { ...qShape, numHeads: c.numKvHeads };
        assertRopeClose(out.q, q, c.float64.q, qShape, `${c.name}: q`);
        assertRopeClose(out.k, k, c.float64.k, kShape, `${c.name}: k`);
        const ulps = Math.max(
          worstRopeUlps(out.q, q, c.float64.q, qShape),
          worstRopeUlps(out.k, k, c.float64.k, kShape),
        );
        assert.ok(ulps <= 2, `${c.name}: ${ulps} ulps of |x_a| + |x_b| (the model's float32 code: ${c.float32.ulps})`);

        // rope (one tensor) and a plan give the same bits as ropeQK's queries.
        const { numKvHeads, ...queriesOnly } = options;
        assertIdentical(posenc.rope(q, { ...queriesOnly, out: new Float32Array(q.length) }), out.q, 'rope');
        const { positions, ...planOptions } = options;
        const plan = posenc.ropePlan(planOptions);
        try {
          const planned = plan.applyQK(q, k, {
            positions: options.positions,
            out: { q: new Float32Array(q.length), k: new Float32Array(k.length) },
          });
          assertIdentical(planned.q, out.q, 'plan q');
          assertIdentical(planned.k, out.k, 'plan k');
        } finally {
          plan.free();
        }
      });
    }

    it('takes mropePositions(...).positions as they come (batch 1), and an offset is plain rope', () => {
      const { positions } = posenc.mropePositions({ segments: [{ text: 3 }, { image: [1, 4, 6] }, { text: 2 }] });
      const seqLen = positions.length / 3;
      const options = { seqLen, headDim: 16, layout: 'half', mrope: { section: [2, 3, 3] } };
      const x = Float32Array.from({ length: seqLen * 16 }, (_, i) => Math.sin(i));
      const rotated = posenc.rope(x, { ...options, positions, out: new Float32Array(x.length) });
      assert.equal(rotated.length, x.length);
      const plain = posenc.rope(x, { seqLen, headDim: 16, layout: 'half', offset: 9, out: new Float32Array(x.length) });
      const asMrope = posenc.rope(x, { ...options, offset: 9, out: new Float32Array(x.length) });
      assertRopeClose(asMrope, x, plain, { seqLen, headDim: 16, layout: 'half' }, 'offset');
    });
  });
}
