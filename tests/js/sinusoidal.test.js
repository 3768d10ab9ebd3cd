// posenc.sinusoidal against the float64 JS reference: both layouts, every even dModel from 2
// to 40, the core's 128-pair block boundary, offsets, explicit positions, bases and out.
// (Its addition to x is add-sinusoidal.test.js.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { sinusoidalReference } from './reference.js';
import { TABLE_BOUND, assertClose, assertIdentical, loadBothVariants, randomPositions, ulp32 } from './support.js';

const LAYOUTS = ['interleaved', 'concat'];
const SMALL_DIMS = Array.from({ length: 20 }, (_, i) => 2 * (i + 1)); // 2, 4, ..., 40
// The core works in blocks of 128 frequency pairs: dModel 256 is one full block.
const BLOCK_DIMS = [254, 256, 258, 512, 514, 770];

function check(posenc, options, label) {
  return assertClose(posenc.sinusoidal(options), sinusoidalReference(options), TABLE_BOUND, label);
}

for (const posenc of await loadBothVariants()) {
  describe(`sinusoidal (${posenc.variant})`, () => {
    it('every even dModel 2..40, both layouts, offset 0 and 1000, 70 rows (one re-anchoring)', () => {
      for (const layout of LAYOUTS) {
        for (const dModel of SMALL_DIMS) {
          for (const offset of [0, 1000])
            check(posenc, { seqLen: 70, dModel, layout, offset }, `${layout} d${dModel} +${offset}`);
        }
      }
    });

    it('dModel across the 128-pair block boundary', () => {
      for (const layout of LAYOUTS) {
        for (const dModel of BLOCK_DIMS)
          check(posenc, { seqLen: 5, dModel, layout, offset: 123456 }, `${layout} d${dModel}`);
      }
    });

    it('the layouts hold the same values in different channels', () => {
      const dModel = 10;
      const interleaved = posenc.sinusoidal({ seqLen: 3, dModel, layout: 'interleaved', offset: 7 });
      const concat = posenc.sinusoidal({ seqLen: 3, dModel, layout: 'concat', offset: 7 });
      for (let row = 0; row < 3; row++) {
        for (let i = 0; i < dModel / 2; i++) {
          assert.equal(interleaved[row * dModel + 2 * i], concat[row * dModel + i], `sin pair ${i}`);
          assert.equal(interleaved[row * dModel + 2 * i + 1], concat[row * dModel + dModel / 2 + i], `cos pair ${i}`);
        }
      }
      assert.notDeepEqual(interleaved, concat);
    });

    it('defaults: base 10000, interleaved, offset 0 (row 0 is [0, 1, 0, 1, ...])', () => {
      const table = posenc.sinusoidal({ seqLen: 4, dModel: 6 });
      assertIdentical(
        table,
        posenc.sinusoidal({ seqLen: 4, dModel: 6, base: 10000, layout: 'interleaved', offset: 0 }),
        'defaults',
      );
      assert.deepEqual(Array.from(table.subarray(0, 6)), [0, 1, 0, 1, 0, 1]);
      assert.equal(table[6], Math.fround(Math.sin(1)));
    });

    it('other bases (LLaMA 3 500000, 1e6, small ones)', () => {
      for (const base of [2, 1.5, 100, 500000, 1e6]) {
        for (const layout of LAYOUTS)
          check(posenc, { seqLen: 20, dModel: 16, base, layout, offset: 90 }, `base ${base} ${layout}`);
      }
    });

    it('explicit positions (Array, Int32Array, Uint32Array; repeated, descending, jumps)', () => {
      const positions = [5, 5, 4, 3, 1000000, 0, 64, 65, 66, 2 ** 24 - 1, 17];
      for (const list of [positions, Int32Array.from(positions), Uint32Array.from(positions)]) {
        for (const layout of LAYOUTS)
          check(
            posenc,
            { seqLen: positions.length, dModel: 12, layout, positions: list },
            `${list.constructor.name} ${layout}`,
          );
      }
    });

    it('explicit positions give the offset rows they name', () => {
      const offsetTable = posenc.sinusoidal({ seqLen: 100, dModel: 8, offset: 500 });
      const rows = [0, 99, 63, 64, 1, 2];
      const picked = posenc.sinusoidal({ seqLen: rows.length, dModel: 8, positions: rows.map((r) => 500 + r) });
      // Both round float64 phases reached by different routes (recurrence or direct), so they
      // may differ by one float32 step at a rounding tie, never more.
      rows.forEach((r, k) => {
        assertClose(
          picked.subarray(k * 8, k * 8 + 8),
          offsetTable.subarray(r * 8, r * 8 + 8),
          (i) => ulp32(offsetTable[r * 8 + i]),
          `row ${r}`,
        );
      });
    });

    it('random large positions', () => {
      const positions = randomPositions(40, 2 ** 24 - 1, 7);
      for (const layout of LAYOUTS) check(posenc, { seqLen: positions.length, dModel: 64, layout, positions }, layout);
    });

    it('seqLen 0 gives an empty table', () => {
      assert.equal(posenc.sinusoidal({ seqLen: 0, dModel: 8 }).length, 0);
      assert.equal(posenc.addSinusoidal(new Float32Array(0), { seqLen: 0, dModel: 8 }).length, 0);
    });

    it('out: a Float32Array or WasmArray is filled and returned', () => {
      const options = { seqLen: 9, dModel: 6, layout: 'concat', offset: 3 };
      const expected = posenc.sinusoidal(options);
      const out = new Float32Array(54).fill(7);
      assert.equal(posenc.sinusoidal({ ...options, out }), out);
      assertIdentical(out, expected, 'Float32Array out');
      const wasmOut = posenc.allocate(54);
      try {
        assert.equal(posenc.sinusoidal({ ...options, out: wasmOut }), wasmOut);
        assertIdentical(wasmOut.toArray(), expected, 'WasmArray out');
      } finally {
        wasmOut.free();
      }
    });
  });
}
