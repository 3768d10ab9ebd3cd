// Hostile situations beyond wrong arguments: arrays whose buffer was detached (transferred
// away), requests for more memory than WASM can give, and errors thrown in the middle of a
// call's copies. Each must end in a clear error naming a parameter, and the instance must
// keep working (a WASM abort would poison it for good).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { fromHfConfig } from '../../../bindings/js/node.js';
import { assertParameterError, assertStillWorks, loadBothVariants } from '../support.js';

const variants = await loadBothVariants();
const f32 = (n) => new Float32Array(n);

/** An Array of `length` holes: its length costs nothing. */
function sparse(length) {
  const array = [];
  array.length = length;
  return array;
}

/** A Proxy of an Array that claims `length` elements, each 1. */
function claiming(length) {
  return new Proxy([], { get: (_target, key) => (key === 'length' ? length : 1) });
}

/** A Phi-3 config.json whose LongRoPE short_factor is `shortFactor`. */
function phi3(shortFactor) {
  const rope_scaling = {
    type: 'longrope',
    short_factor: shortFactor,
    long_factor: [1, 1],
    original_max_position_embeddings: 4,
  };
  return { model_type: 'phi3', num_attention_heads: 2, hidden_size: 8, max_position_embeddings: 8, rope_scaling };
}

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

    it("a list whose length says more than it holds (a sparse Array, a Proxy) is refused by posenc's RangeError before anything is allocated", () => {
      const { maxSeqLen, maxElements, maxDim } = posenc.limits;
      const lists = [];
      for (const length of [2 ** 32 - 1, 2 ** 31]) {
        lists.push([`a sparse Array of length ${length}`, () => sparse(length)]);
        lists.push([`a Proxy of length ${length}`, () => claiming(length)]);
      }
      const longrope = (shortFactor) => ({
        type: 'longrope',
        shortFactor,
        longFactor: [1, 1],
        originalMaxPositionEmbeddings: 4,
        factor: 2,
      });
      // [call, parameter, the most it holds]
      const takers = [
        [
          (l) => posenc.rope(f32(8), { seqLen: 1, headDim: 4, scaling: longrope(l) }),
          'scaling.shortFactor',
          maxDim / 2,
        ],
        [
          (l) => posenc.ropePlan({ seqLen: 1, headDim: 4, scaling: { ...longrope([1, 1]), longFactor: l } }),
          'scaling.longFactor',
          maxDim / 2,
        ],
        [(l) => posenc.allocate(l), 'lengthOrValues', maxElements],
        [(l) => posenc.allocate(4).set(l), 'values', 4],
        [(l) => posenc.rope(f32(8), { seqLen: 2, headDim: 4, positions: l }), 'positions', 3 * maxSeqLen],
        [(l) => posenc.ropePlan({ seqLen: 2, headDim: 4 }).apply(f32(8), { positions: l }), 'positions', 3 * maxSeqLen],
        [(l) => posenc.sinusoidal({ seqLen: 2, dModel: 4, positions: l }), 'positions', 3 * maxSeqLen],
        [(l) => posenc.rope(f32(8), { seqLen: 2, headDim: 4, offset: l }), 'offset', maxElements],
        [(l) => posenc.rope(f32(8), { seqLen: 2, headDim: 4, mrope: { section: l } }), 'mrope.section', 3],
        [(l) => posenc.mropePositions({ segments: l }), 'segments', Math.floor(maxElements / 5)],
        [(l) => posenc.mropePositions({ segments: [{ video: l }] }), 'segments[0].video', 3],
        [(l) => fromHfConfig(phi3(l)), 'config.rope_scaling.short_factor', maxDim / 2],
      ];
      for (const [label, list] of lists) {
        for (const [call, parameter, most] of takers) {
          const length = list().length;
          const error = assertParameterError(() => call(list()), RangeError, parameter, `${parameter}: ${label}`);
          assert.match(error.message, new RegExp(`must hold at most ${most} elements \\(got ${length}\\)$`));
          assertStillWorks(posenc, `${parameter}: ${label}`);
        }
      }
    });

    it('a long list read in growing pieces (an Array, a Proxy of one) is copied whole and in order', () => {
      const length = 200_000; // beyond the first piece (2^16) and its doubling
      const positions = Array.from({ length }, (_, i) => (i * 7919) % 100_003);
      const expected = posenc.sinusoidal({ seqLen: length, dModel: 2, positions: Int32Array.from(positions) });
      for (const list of [positions, new Proxy(positions, {})]) {
        assert.deepEqual(posenc.sinusoidal({ seqLen: length, dModel: 2, positions: list }), expected);
      }
      const values = Float32Array.from(positions, (p) => p / 3);
      const array = posenc.allocate(Array.from(values));
      assert.deepEqual(array.toArray(), values);
      array.free();
    });

    it('a sparse Array just within a list limit fails at its first hole, without allocating for its length first', () => {
      const { maxSeqLen, maxElements } = posenc.limits;
      const cases = [
        [() => posenc.allocate(sparse(maxElements)), 'lengthOrValues[0]'],
        [() => posenc.rope(f32(8), { seqLen: 2, headDim: 4, positions: sparse(3 * maxSeqLen) }), 'positions[0]'],
      ];
      for (const [call, parameter] of cases) {
        const before = process.memoryUsage().arrayBuffers;
        assertParameterError(call, TypeError, parameter);
        // a copy for the whole length (1 GiB, 192 MiB) would have been allocated and is still uncollected
        assert.ok(process.memoryUsage().arrayBuffers - before < 2 ** 24, parameter);
      }
    });
  });
}
