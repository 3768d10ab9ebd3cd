// Hostile situations beyond wrong arguments: arrays whose buffer was detached (transferred
// away), requests for more memory than WASM can give, and errors thrown in the middle of a
// call's copies. Each must end in a clear error naming a parameter, and the instance must
// keep working (a WASM abort would poison it for good).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { assertParameterError, assertStillWorks, loadBothVariants } from './support.js';

const variants = await loadBothVariants();

/** A Float32Array whose ArrayBuffer has been transferred away (length 0, unusable). */
function detached(length) {
  const array = new Float32Array(length);
  structuredClone(array.buffer, { transfer: [array.buffer] });
  return array;
}

for (const posenc of variants) {
  describe(`hostile situations (${posenc.variant})`, () => {
    it('detached buffers as x, out, a, b are refused by name', () => {
      const cases = [
        ['rope x', () => posenc.rope(detached(4), { seqLen: 1, headDim: 4 }), 'x'],
        ['rope out', () => posenc.rope(new Float32Array(4), { seqLen: 1, headDim: 4, out: detached(4) }), 'out'],
        ['addSinusoidal x', () => posenc.addSinusoidal(detached(8), { seqLen: 2, dModel: 4 }), 'x'],
        ['sinusoidal out', () => posenc.sinusoidal({ seqLen: 2, dModel: 4, out: detached(8) }), 'out'],
        ['similarity a', () => posenc.similarity(detached(4), new Float32Array(4), { rows: 2, cols: 2, dim: 2 }), 'a'],
        ['similarity b', () => posenc.similarity(new Float32Array(4), detached(4), { rows: 2, cols: 2, dim: 2 }), 'b'],
      ];
      for (const [label, call, parameter] of cases) {
        assertParameterError(call, RangeError, parameter, label);
        assertStillWorks(posenc, label);
      }
    });

    it('more memory than WASM can give: a RangeError naming memory, then everything is usable again', () => {
      // 2^28 floats (1 GiB) is the documented largest array; WASM memory stops at 2 GiB, so
      // the second or third such allocation cannot be served.
      const held = [];
      let error;
      try {
        for (let i = 0; i < 4 && !error; i++) {
          try {
            held.push(posenc.allocate(posenc.limits.maxElements));
          } catch (caught) {
            error = caught;
          }
        }
        assert.ok(error, 'some allocation was refused');
        assert.ok(error instanceof RangeError, `${error}`);
        assert.equal(error.parameter, 'memory');
        assert.match(error.message, /^posenc\.allocate: memory /);
        // A call that needs scratch memory for whole arrays while the memory is full fails the
        // same way (similarity copies all of b, here 1 GiB, into WASM memory for every tile).
        assertParameterError(
          () =>
            posenc.similarity(new Float32Array(2 ** 14), new Float32Array(2 ** 28), {
              rows: 1,
              cols: 2 ** 14,
              dim: 2 ** 14,
            }),
          RangeError,
          'memory',
          'similarity while full',
        );
        // A table of 1 GiB into a JS array needs one tile of WASM memory, not a copy of it.
        const table = posenc.sinusoidal({ seqLen: 2 ** 14, dModel: 2 ** 14 });
        assert.equal(table.length, 2 ** 28, 'a 1 GiB table made tile by tile while memory is full');
        const last = Math.cos((2 ** 14 - 1) / 10000 ** ((2 ** 14 - 2) / 2 ** 14));
        assert.ok(Math.abs(table[2 ** 28 - 1] - last) < 1e-6, `its last value ${table[2 ** 28 - 1]} (cos: ${last})`);
      } finally {
        for (const array of held) array.free();
      }
      assertStillWorks(posenc, 'after running out of memory');
      const table = posenc.sinusoidal({ seqLen: 1024, dModel: 1024 });
      assert.equal(table.length, 2 ** 20);
    });

    it('an error thrown while a call copies its inputs frees its scratch memory', () => {
      const probe = () => {
        const a = posenc.allocate(1);
        const address = a.address;
        a.free();
        return address;
      };
      const before = probe();
      const positions = new Array(64).fill(0);
      Object.defineProperty(positions, 63, {
        get() {
          throw new Error('boom');
        },
      });
      for (let i = 0; i < 100; i++) {
        assert.throws(() => posenc.rope(new Float32Array(64 * 4), { seqLen: 64, headDim: 4, positions }));
      }
      assert.equal(probe(), before, 'the allocator hands out the same address: nothing leaked');
      assertStillWorks(posenc, 'after throwing getters');
    });
  });
}
