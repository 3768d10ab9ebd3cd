// posenc.positionNumbers, the naive encoding tutorials start from: row p filled with offset + p.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { positionNumbersReference } from './reference.js';
import { assertIdentical, loadBothVariants } from './support.js';

for (const posenc of await loadBothVariants()) {
  describe(`positionNumbers (${posenc.variant})`, () => {
    it('every dModel 1..40 (odd ones too: no pairs here), offsets', () => {
      for (let dModel = 1; dModel <= 40; dModel++) {
        for (const offset of [0, 17]) {
          const options = { seqLen: 9, dModel, offset };
          assertIdentical(
            posenc.positionNumbers(options),
            Float32Array.from(positionNumbersReference(options)),
            `d${dModel} +${offset}`,
          );
        }
      }
    });

    it('offset defaults to 0; row p is p', () => {
      assert.deepEqual(Array.from(posenc.positionNumbers({ seqLen: 3, dModel: 2 })), [0, 0, 1, 1, 2, 2]);
    });

    it('beyond 2^24 the float32 values round: the naive encoding loses positions', () => {
      const options = { seqLen: 4, dModel: 2, offset: 2 ** 24 - 1 };
      const table = posenc.positionNumbers(options);
      assertIdentical(table, Float32Array.from(positionNumbersReference(options)), 'rounded like Math.fround');
      assert.deepEqual(Array.from(table.filter((_, i) => i % 2 === 0)), [2 ** 24 - 1, 2 ** 24, 2 ** 24, 2 ** 24 + 2]);
      const last = posenc.positionNumbers({ seqLen: 1, dModel: 1, offset: 2 ** 31 - 1 });
      assert.equal(last[0], Math.fround(2 ** 31 - 1));
    });

    it('out: Float32Array or WasmArray; seqLen 0', () => {
      const out = new Float32Array(6);
      assert.equal(posenc.positionNumbers({ seqLen: 2, dModel: 3, offset: 5, out }), out);
      assert.deepEqual(Array.from(out), [5, 5, 5, 6, 6, 6]);
      const wasmOut = posenc.allocate(6);
      try {
        assert.equal(posenc.positionNumbers({ seqLen: 3, dModel: 2, offset: 1, out: wasmOut }), wasmOut);
        assert.deepEqual(Array.from(wasmOut.toArray()), [1, 1, 2, 2, 3, 3]);
      } finally {
        wasmOut.free();
      }
      assert.equal(posenc.positionNumbers({ seqLen: 0, dModel: 4 }).length, 0);
    });
  });
}
