// posenc.ropeGrid, 2-D image RoPE (Pixtral, SAM 2 axial) on both WASM builds, against
// tests/golden/axis-phases.json, the models' own code run in float64
// (scripts/make_golden_axis_phases.py) on non-square grids and several frames; in place in WASM
// memory. (M-RoPE, rope's other multi-axis form: rope-mrope.test.js.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { assertIdentical, assertRopeClose, loadBothVariants, readGolden, worstRopeUlps } from './support.js';

const golden = readGolden('axis-phases.json');

for (const posenc of await loadBothVariants()) {
  describe(`ropeGrid (${posenc.variant})`, () => {
    for (const c of golden.grid) {
      it(`matches ${c.variant === 'pixtral' ? "Pixtral's" : "SAM 2's"} own code in float64 on a ${c.rows}x${c.cols} grid, headDim ${c.headDim}, ${c.frames} frame(s)`, () => {
        const x = Float32Array.from(c.x);
        const options = {
          rows: c.rows,
          cols: c.cols,
          numHeads: c.numHeads,
          headDim: c.headDim,
          variant: c.variant,
          frames: c.frames,
        };
        const out = posenc.ropeGrid(x, { ...options, order: 'heads', out: new Float32Array(x.length) });
        const layout = c.variant === 'pixtral' ? 'half' : 'interleaved';
        const shape = { seqLen: c.frames * c.rows * c.cols, numHeads: c.numHeads, headDim: c.headDim, layout };
        assertRopeClose(out, x, c.float64, shape, `${c.variant} ${c.rows}x${c.cols}`);
        const ulps = worstRopeUlps(out, x, c.float64, shape);
        assert.ok(ulps <= 2, `${ulps} ulps of |x_a| + |x_b| (the model's float32 code: ${c.float32.ulps})`);
        // In place, into a WasmArray, gives the same bits.
        const inWasm = posenc.allocate(x);
        try {
          posenc.ropeGrid(inWasm, { ...options, order: 'heads' });
          assertIdentical(inWasm.toArray(), out, 'in place in WASM memory');
        } finally {
          inWasm.free();
        }
      });
    }
  });
}
