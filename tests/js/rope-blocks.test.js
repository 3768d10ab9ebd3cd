// Large JS-owned arrays go through WASM memory a block of rows at a time (tiles.js). The
// blocks are pieces of one call of the core's plan, so they join seamlessly: every row,
// including the first and last of each block and a short last block, as the float64 reference
// has it, and with the very bits the same array gets in WASM memory in one piece.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { assertIdentical, assertRopeClose, loadBothVariants, randomNormal } from './support.js';
import { ropeReference } from './reference.js';

const variants = await loadBothVariants();

for (const posenc of variants) {
  describe(`rope on large JS arrays, in blocks of rows (${posenc.variant})`, () => {
    // 2 heads x 96 channels = 192 floats a row: 341 rows a block, so 1000 rows make 2 full
    // blocks and a short one, crossing block edges at rows 341 and 682.
    const shape = { seqLen: 1000, numHeads: 2, headDim: 96 };
    for (const [label, options] of [
      ['interleaved, offset 0', { ...shape }],
      ['half, offset near 2^24, partial rotary', { ...shape, layout: 'half', rotaryDim: 64, offset: 2 ** 24 - 700 }],
      ['inverse', { ...shape, inverse: true, offset: 5 }],
    ]) {
      it(`${label}: in place and into out, as the reference`, () => {
        const x = randomNormal(shape.seqLen * shape.numHeads * shape.headDim, 31);
        const expected = options.inverse
          ? ropeReference(x, {
              ...options,
              positions: Array.from({ length: shape.seqLen }, (_, t) => -(options.offset + t)),
              offset: undefined,
            })
          : ropeReference(x, options);
        const inPlace = posenc.rope(x.slice(), options);
        assertRopeClose(inPlace, x, expected, options, label);
        const out = new Float32Array(x.length);
        assert.equal(posenc.rope(x, { ...options, out }), out);
        assert.deepEqual(out, inPlace, 'out and in place agree bit for bit');
        // Through WASM memory in one piece: the same bits.
        const resident = posenc.allocate(x);
        try {
          assertIdentical(
            posenc.rope(resident, options).toArray(),
            inPlace,
            `${label}: WasmArray and streamed JS array`,
          );
        } finally {
          resident.free();
        }
      });
    }
  });
}
