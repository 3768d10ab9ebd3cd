// posenc.allocate and the WasmArray it returns: float32 arrays kept in WASM memory. Allocation,
// views, copies, in-place use by rope/addSinusoidal (no copies), survival of memory growth in
// the middle of a sequence of calls, and a heap that does not grow over many repeated calls.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { WasmArray } from '../../bindings/js/node.js';
import { assertIdentical, loadBothVariants, randomNormal } from './support.js';

const ROPE = { seqLen: 16, numHeads: 2, headDim: 8, layout: 'half', offset: 40 };
const ROPE_LENGTH = 16 * 2 * 8;
const TABLE = { seqLen: 16, dModel: 12, layout: 'concat', offset: 7 };
const TABLE_LENGTH = 16 * 12;

for (const posenc of await loadBothVariants()) {
  describe(`WasmArray (${posenc.variant})`, () => {
    it('allocate(length) gives zeros; allocate(values) a copy; length, address, freed', () => {
      const zeros = posenc.allocate(5);
      const values = Float32Array.of(1.5, -2, 3.25);
      const copy = posenc.allocate(values);
      const fromArray = posenc.allocate([4, 5]);
      try {
        assert.ok(zeros instanceof WasmArray);
        assert.equal(zeros.length, 5);
        assert.deepEqual(Array.from(zeros.view()), [0, 0, 0, 0, 0]);
        assert.deepEqual(Array.from(copy.toArray()), [1.5, -2, 3.25]);
        assert.deepEqual(Array.from(fromArray.toArray()), [4, 5]);
        values[0] = 99;
        assert.equal(copy.view()[0], 1.5, 'allocate copied the values');
        for (const array of [zeros, copy, fromArray]) {
          assert.equal(typeof array.address, 'number');
          assert.equal(array.address % 4, 0, 'float32 aligned');
          assert.equal(array.freed, false);
          assert.equal(array.instance, posenc);
        }
        const addresses = [zeros, copy, fromArray]
          .map((a) => [a.address, a.address + a.length * 4])
          .sort((p, q) => p[0] - q[0]);
        for (let i = 1; i < addresses.length; i++)
          assert.ok(addresses[i][0] >= addresses[i - 1][1], 'allocations do not overlap');
        assert.equal(posenc.allocate(0).length, 0);
      } finally {
        zeros.free();
        copy.free();
        fromArray.free();
      }
      assert.equal(zeros.freed, true);
    });

    it('view() is live WASM memory; toArray() is an independent copy; set(values, offset)', () => {
      const array = posenc.allocate(6);
      try {
        const view = array.view();
        assert.ok(view instanceof Float32Array);
        view[2] = 7;
        assert.equal(array.view()[2], 7, 'writes through a view land in WASM memory');
        const copy = array.toArray();
        view[2] = 8;
        assert.equal(copy[2], 7, 'toArray is a copy');
        assert.equal(array.set([1, 2], 4), array, 'set returns the array');
        assert.deepEqual(Array.from(array.toArray()), [0, 0, 8, 0, 1, 2]);
        array.set(Float32Array.of(9));
        assert.equal(array.view()[0], 9);
      } finally {
        array.free();
      }
    });

    it('rope in place on a WasmArray: same bits as the JS-array path, written where x lives', () => {
      for (const layout of ['interleaved', 'half']) {
        const options = { ...ROPE, layout, rotaryDim: 6 };
        const data = randomNormal(ROPE_LENGTH, 1);
        const expected = posenc.rope(data.slice(), options);
        const x = posenc.allocate(data);
        try {
          const viewBefore = x.view(); // valid: nothing below allocates enough to grow memory
          assert.equal(posenc.rope(x, options), x, 'returns the WasmArray');
          assertIdentical(viewBefore, expected, `${layout}: rotated in place at x.address`);
          assertIdentical(x.toArray(), expected, `${layout}: toArray`);
        } finally {
          x.free();
        }
      }
    });

    it('rope between WasmArrays and JS arrays in every combination', () => {
      const data = randomNormal(ROPE_LENGTH, 2);
      const expected = posenc.rope(data.slice(), ROPE);
      const x = posenc.allocate(data);
      const out = posenc.allocate(ROPE_LENGTH);
      try {
        assert.equal(posenc.rope(x, { ...ROPE, out }), out);
        assertIdentical(out.toArray(), expected, 'WasmArray -> WasmArray');
        assertIdentical(x.toArray(), data, 'x untouched');
        const jsOut = new Float32Array(ROPE_LENGTH);
        assert.equal(posenc.rope(x, { ...ROPE, out: jsOut }), jsOut);
        assertIdentical(jsOut, expected, 'WasmArray -> Float32Array');
        out.view().fill(0);
        assert.equal(posenc.rope(data.slice(), { ...ROPE, out }), out);
        assertIdentical(out.toArray(), expected, 'Float32Array -> WasmArray');
      } finally {
        x.free();
        out.free();
      }
    });

    it('addSinusoidal in place on a WasmArray, sinusoidal into one', () => {
      const data = randomNormal(TABLE_LENGTH, 3);
      const expected = posenc.addSinusoidal(data.slice(), TABLE);
      const x = posenc.allocate(data);
      const table = posenc.allocate(TABLE_LENGTH);
      try {
        const viewBefore = x.view();
        assert.equal(posenc.addSinusoidal(x, TABLE), x);
        assertIdentical(viewBefore, expected, 'added in place at x.address');
        assert.equal(posenc.sinusoidal({ ...TABLE, out: table }), table);
        assertIdentical(table.toArray(), posenc.sinusoidal(TABLE), 'table');
      } finally {
        x.free();
        table.free();
      }
    });

    it('a view() passed as a plain Float32Array is used where it is: no copy, no growth, correct result', () => {
      // Copying a view that is half the memory would grow (and detach) the memory mid-call;
      // posenc recognises views of its own memory and works on them in place.
      const length = 2 * Math.ceil(posenc.memoryBytes / 16); // half the current memory
      const array = posenc.allocate(length);
      try {
        array.set([1, 0], length - 2);
        const bytesBefore = posenc.memoryBytes;
        const view = array.view();
        const result = posenc.rope(view, { seqLen: length / 2, headDim: 2, offset: 0 });
        assert.equal(result, view, 'rotated in place, the same view returned');
        assert.equal(posenc.memoryBytes, bytesBefore, 'no scratch copy, so no growth');
        const p = length / 2 - 1;
        assert.deepEqual([result[length - 2], result[length - 1]], [Math.cos(p), Math.sin(p)].map(Math.fround));
      } finally {
        array.free();
      }
    });

    it('memory growth in the middle of a sequence of calls: earlier WasmArrays keep their data and still work', () => {
      const ropeData = randomNormal(ROPE_LENGTH, 4);
      const tableData = randomNormal(TABLE_LENGTH, 5);
      const x = posenc.allocate(ropeData);
      const out = posenc.allocate(ROPE_LENGTH);
      const embeddings = posenc.allocate(tableData);
      const keys = posenc.allocate(randomNormal(4 * 8, 6));
      const arrays = [x, out, embeddings, keys];
      let large;
      try {
        // Before growth: one rotation into out.
        posenc.rope(x, { ...ROPE, out });
        const rotatedOnce = posenc.rope(ropeData.slice(), ROPE);
        assertIdentical(out.toArray(), rotatedOnce, 'before growth');
        const contents = arrays.map((a) => a.toArray());
        const staleView = x.view();
        const bytesBefore = posenc.memoryBytes;

        large = posenc.allocate(24 * 1024 * 1024); // 96 MiB: more than the memory holds
        assert.ok(
          posenc.memoryBytes > bytesBefore && posenc.memoryBytes > 96 * 1024 * 1024,
          `memory grew (${bytesBefore} -> ${posenc.memoryBytes})`,
        );
        assert.equal(staleView.length, 0, 'views made before growth are detached (why view() is fresh each time)');
        arrays.forEach((a, i) => {
          assertIdentical(a.toArray(), contents[i], `array ${i} kept its data`);
        });

        // After growth: the same arrays as x and out, in place and not.
        posenc.rope(out, ROPE); // rotate the rotated values again, in place
        assertIdentical(out.toArray(), posenc.rope(rotatedOnce.slice(), ROPE), 'out used in place after growth');
        posenc.rope(x, { ...ROPE, out });
        assertIdentical(out.toArray(), rotatedOnce, 'x -> out after growth');
        posenc.addSinusoidal(embeddings, TABLE);
        assertIdentical(
          embeddings.toArray(),
          posenc.addSinusoidal(tableData.slice(), TABLE),
          'addSinusoidal after growth',
        );
        const scores = posenc.similarity(keys, keys, { rows: 4, cols: 4, dim: 8 });
        assertIdentical(
          scores,
          posenc.similarity(contents[3], contents[3], { rows: 4, cols: 4, dim: 8 }),
          'similarity after growth',
        );

        // The large array works too, to its last element: 384 heads of 65536 channels, only
        // the first pair of each rotating (cheap), the rest passing through.
        const headDim = 65536;
        const lastHead = large.length - headDim;
        large.set([1, 0], 0);
        large.set([0, 1], lastHead);
        large.set([7], large.length - 1);
        posenc.rope(large, { seqLen: 1, numHeads: large.length / headDim, headDim, rotaryDim: 2, offset: 1000 });
        const view = large.view();
        const [c, s] = [Math.cos(1000), Math.sin(1000)].map(Math.fround);
        assert.deepEqual([view[0], view[1]], [c, s], 'first head rotated');
        assert.deepEqual([view[lastHead], view[lastHead + 1]], [-s, c], 'last head rotated');
        assert.equal(view[large.length - 1], 7, 'last element passed through');
      } finally {
        for (const a of arrays) a.free();
        large?.free();
      }
    });

    it('memory growth during a call (a large JS array needs scratch memory) with a WasmArray out', () => {
      const seqLen = 4 * 1024 * 1024; // x: 16M floats = 64 MiB of JS array, copied into scratch
      const options = { seqLen, headDim: 4, layout: 'interleaved', offset: 0 };
      const out = posenc.allocate(seqLen * 4);
      try {
        const x = new Float32Array(seqLen * 4);
        for (let row = 0; row < seqLen; row += 65536) x.set([1, 2, 3, 4], row * 4);
        const bytesBefore = posenc.memoryBytes;
        assert.equal(posenc.rope(x, { ...options, out }), out);
        assert.ok(posenc.memoryBytes > bytesBefore, 'the scratch copy of x grew the memory');
        const view = out.view();
        for (let row = 0; row < seqLen; row += 65536 * 7) {
          const expected = posenc.rope(Float32Array.of(1, 2, 3, 4), { seqLen: 1, headDim: 4, positions: [row] });
          assertIdentical(view.subarray(row * 4, row * 4 + 4), expected, `row ${row}`);
        }
      } finally {
        out.free();
      }
    });

    it('the heap does not grow over 1000 repeated calls (in place, JS-array scratch, new tables, errors)', () => {
      const big = { seqLen: 1024, numHeads: 1, headDim: 64, layout: 'half', offset: 3 }; // 256 KiB per call
      const jsX = randomNormal(1024 * 64, 8);
      const x = posenc.allocate(ROPE_LENGTH);
      const embeddings = posenc.allocate(TABLE_LENGTH);
      try {
        const calls = () => {
          posenc.rope(x, ROPE);
          posenc.addSinusoidal(embeddings, TABLE);
          posenc.rope(jsX, big);
          posenc.sinusoidal({ seqLen: 64, dModel: 64, positions: Array.from({ length: 64 }, (_, i) => i * 3) });
          posenc.similarity(jsX.subarray(0, 64 * 16), jsX.subarray(0, 64 * 16), { rows: 16, cols: 16, dim: 64 });
          assert.throws(
            () => posenc.rope(jsX, { ...big, positions: Array(1024).fill(-1), offset: undefined }),
            RangeError,
          );
        };
        calls(); // first use may grow once
        const bytes = posenc.memoryBytes;
        for (let i = 0; i < 1000; i++) calls();
        assert.equal(
          posenc.memoryBytes,
          bytes,
          'memoryBytes unchanged after 1000 rounds (a leak of 256 KiB per call would show)',
        );
      } finally {
        x.free();
        embeddings.free();
      }
    });

    describe('windows: subarray(begin, end)', () => {
      /** A WasmArray holding 1, 2, 3, ...: each element says where it sits. */
      const counting = (length) => posenc.allocate(Float32Array.from({ length }, (_, i) => i + 1));

      it('a window is a WasmArray over the same memory: length, address, view, set, toArray, subarray', () => {
        const array = counting(12);
        try {
          const window = array.subarray(3, 7);
          assert.ok(window instanceof WasmArray);
          assert.equal(window.instance, posenc);
          assert.equal(window.length, 4);
          assert.equal(window.address, array.address + 3 * 4);
          assert.equal(window.freed, false);
          assert.deepEqual(Array.from(window.view()), [4, 5, 6, 7]);
          assert.equal(window.view().buffer, array.view().buffer, 'no copy: a view of the same memory');
          assert.equal(window.set([40, 50], 1), window);
          assert.deepEqual(Array.from(array.toArray()), [1, 2, 3, 4, 40, 50, 7, 8, 9, 10, 11, 12], 'written through');
          assert.deepEqual(Array.from(window.toArray()), [4, 40, 50, 7]);
          assert.deepEqual(Array.from(window.subarray(1, -1).toArray()), [40, 50], 'a window of a window');
          // Indices as TypedArray.prototype.subarray reads valid ones.
          const plain = array.toArray();
          for (const args of [[], [0], [5], [-3], [2, -2], [-5, -1], [12], [4, 4], [-0, 3], [0, 12], [-12, 12]]) {
            assert.deepEqual(
              Array.from(array.subarray(...args).toArray()),
              Array.from(plain.subarray(...args)),
              `subarray(${args.join(', ')})`,
            );
          }
        } finally {
          array.free();
        }
      });

      it('one row of a KV cache [maxLen, numKvHeads, headDim] rotated in place at offset t: the bits of rope on the whole', () => {
        const [maxLen, numKvHeads, headDim] = [8, 2, 16];
        const row = numKvHeads * headDim;
        const data = randomNormal(maxLen * row, 9);
        const rope = { seqLen: 1, numHeads: numKvHeads, headDim, layout: 'half' };
        const expected = posenc.rope(data.slice(), { ...rope, seqLen: maxLen });
        const cache = posenc.allocate(data);
        const plan = posenc.ropePlan(rope);
        try {
          for (let t = 0; t < maxLen; t++) {
            const k = cache.subarray(t * row, (t + 1) * row);
            const rotated = t % 2 ? plan.apply(k, { offset: t }) : posenc.rope(k, { ...rope, offset: t });
            assert.equal(rotated, k, 'returns the window');
            assertIdentical(
              cache.toArray().subarray((t + 1) * row),
              data.subarray((t + 1) * row),
              `rows after ${t} untouched`,
            );
          }
          assertIdentical(cache.toArray(), expected, 'every row rotated at its position');
        } finally {
          plan.free();
          cache.free();
        }
      });

      it('accepted wherever a WasmArray is: the bits of the same call on plain arrays', () => {
        const block = posenc.allocate(4096);
        const part = (begin, values) => {
          const window = block.subarray(begin, begin + values.length);
          window.set(values);
          return window;
        };
        const rope = { seqLen: 2, numHeads: 2, headDim: 4 };
        const x = randomNormal(16, 10);
        const k = randomNormal(8, 11);
        try {
          const calls = [
            ['rope x', () => posenc.rope(part(0, x), rope).toArray(), () => posenc.rope(x.slice(), rope)],
            [
              'rope out',
              () => posenc.rope(x, { ...rope, out: part(100, new Float32Array(16)) }).toArray(),
              () => posenc.rope(x.slice(), rope),
            ],
            [
              'ropeQK q, k and out',
              () => {
                const out = { q: part(200, new Float32Array(16)), k: part(300, new Float32Array(8)) };
                const r = posenc.ropeQK(part(0, x), part(50, k), { ...rope, numKvHeads: 1, out });
                return Float32Array.of(...r.q.toArray(), ...r.k.toArray());
              },
              () => {
                const r = posenc.ropeQK(x.slice(), k.slice(), { ...rope, numKvHeads: 1 });
                return Float32Array.of(...r.q, ...r.k);
              },
            ],
            [
              'ropeCache out.cos, out.sin',
              () => {
                const out = { cos: part(0, new Float32Array(8)), sin: part(8, new Float32Array(8)) };
                const r = posenc.ropeCache({ seqLen: 2, rotaryDim: 8, offset: 5, out });
                return Float32Array.of(...r.cos.toArray(), ...r.sin.toArray());
              },
              () => {
                const r = posenc.ropeCache({ seqLen: 2, rotaryDim: 8, offset: 5 });
                return Float32Array.of(...r.cos, ...r.sin);
              },
            ],
            [
              'sinusoidal out',
              () => posenc.sinusoidal({ seqLen: 2, dModel: 8, out: part(17, new Float32Array(16)) }).toArray(),
              () => posenc.sinusoidal({ seqLen: 2, dModel: 8 }),
            ],
            [
              'addSinusoidal x',
              () => posenc.addSinusoidal(part(33, x), { seqLen: 2, dModel: 8 }).toArray(),
              () => posenc.addSinusoidal(x.slice(), { seqLen: 2, dModel: 8 }),
            ],
            [
              'positionNumbers out',
              () => posenc.positionNumbers({ seqLen: 2, dModel: 3, out: part(1, new Float32Array(6)) }).toArray(),
              () => posenc.positionNumbers({ seqLen: 2, dModel: 3 }),
            ],
            [
              'similarity a, b, out',
              () =>
                posenc
                  .similarity(part(0, x), part(16, k), { rows: 4, cols: 2, dim: 4, out: part(40, new Float32Array(8)) })
                  .toArray(),
              () => posenc.similarity(x, k, { rows: 4, cols: 2, dim: 4 }),
            ],
            [
              'convertLayout x, out',
              () =>
                posenc
                  .convertLayout(part(0, x), { from: 'interleaved', to: 'half', headDim: 4, out: part(16, x) })
                  .toArray(),
              () => posenc.convertLayout(x, { from: 'interleaved', to: 'half', headDim: 4 }),
            ],
            [
              'RopePlan.applyQK q, k',
              () => {
                const plan = posenc.ropePlan({ ...rope, numKvHeads: 1 });
                try {
                  const r = plan.applyQK(part(0, x), part(16, k), { positions: [9, 3] });
                  return Float32Array.of(...r.q.toArray(), ...r.k.toArray());
                } finally {
                  plan.free();
                }
              },
              () => {
                const r = posenc.ropeQK(x.slice(), k.slice(), { ...rope, numKvHeads: 1, positions: [9, 3] });
                return Float32Array.of(...r.q, ...r.k);
              },
            ],
          ];
          for (const [label, windowed, plain] of calls) {
            block.view().fill(0);
            assertIdentical(windowed(), plain(), label);
          }
        } finally {
          block.free();
        }
      });

      it('in place when out is the same range, even as another window; a window works after memory growth', () => {
        const array = counting(32);
        const rope = { seqLen: 2, headDim: 4 };
        try {
          const expected = posenc.rope(array.toArray().subarray(8, 16), rope);
          const x = array.subarray(8, 16);
          assert.equal(posenc.rope(x, { ...rope, out: array.subarray(8, 16) }).address, x.address);
          assertIdentical(x.toArray(), expected, 'out: another window of the same range rotates in place');
          const kept = array.subarray(24);
          const before = kept.toArray();
          const bytes = posenc.memoryBytes;
          const large = posenc.allocate(Math.ceil(bytes / 4) + 1024); // more than the memory holds
          try {
            assert.ok(posenc.memoryBytes > bytes, 'memory grew');
            assertIdentical(kept.toArray(), before, 'the window reads the grown memory');
            posenc.rope(kept, rope);
            assertIdentical(kept.toArray(), posenc.rope(before, rope), 'and is rotated in place there');
          } finally {
            large.free();
          }
        } finally {
          array.free();
        }
      });

      it("lifetime: a window's free() retires only the window; freeing its array frees every window", () => {
        const array = counting(8);
        const window = array.subarray(2, 6);
        const other = array.subarray(4);
        window.free();
        window.free(); // a second free is harmless
        assert.equal(window.freed, true);
        assert.equal(array.freed, false, "the array's memory stays");
        assert.deepEqual(Array.from(array.toArray()), [1, 2, 3, 4, 5, 6, 7, 8]);
        assert.deepEqual(Array.from(other.toArray()), [5, 6, 7, 8], 'other windows stay');
        const address = array.address;
        array.free();
        assert.equal(other.freed, true, 'freed with its array');
        // malloc hands the block out again: the windows stay freed, never a view of the new array.
        const reused = posenc.allocate(8);
        try {
          assert.equal(reused.address, address, 'the same block again');
          assert.equal(other.freed, true);
          assert.throws(() => other.toArray(), RangeError);
          assert.throws(() => posenc.rope(other, { seqLen: 1, headDim: 4 }), RangeError);
        } finally {
          reused.free();
        }
      });
    });

    it('views: only view() and its subarray() are used in place; one kept after free() never writes the array now at its address', () => {
      const rope = { seqLen: 1, headDim: 4, offset: 3 };
      const a = posenc.allocate(Float32Array.of(1, 2, 3, 4));
      const stale = a.view();
      const staleWindow = a.subarray(0, 4).view();
      a.free();
      const b = posenc.allocate(Float32Array.of(5, 6, 7, 8));
      assert.equal(b.address, a.address, 'malloc gave b the freed block (the premise)');
      const rule = /view \(from view\(\)\) of a WasmArray that was already freed/;
      for (const [label, view] of [
        ['the stale view', stale],
        ['its subarray(0)', stale.subarray(0)],
        ['a subarray of its subarray', stale.subarray(1).subarray(0, 2)],
      ]) {
        assert.throws(
          () => posenc.rope(view, { ...rope, headDim: view.length }),
          (e) => e.parameter === 'x' && rule.test(e.message),
          label,
        );
      }
      assert.throws(
        () => posenc.rope(staleWindow, rope),
        (e) =>
          e.parameter === 'x' &&
          /view \(from view\(\)\) of a window \(subarray\) of a WasmArray that was already freed/.test(e.message),
        'a view of a freed window',
      );
      const foreign = /view\(\) did not make/;
      for (const [label, view] of [
        ['a view made by hand inside b', new Float32Array(stale.buffer, b.address, 4)],
        ['the built-in subarray of the stale view', Float32Array.prototype.subarray.call(stale, 0)],
      ]) {
        assert.throws(
          () => posenc.rope(view, rope),
          (e) => e.parameter === 'x' && foreign.test(e.message),
          label,
        );
      }
      assert.deepEqual(Array.from(b.toArray()), [5, 6, 7, 8], 'b was never written');

      const expected = posenc.rope(Float32Array.of(6, 7), { ...rope, headDim: 2 });
      const part = b.view().subarray(1, 3);
      assert.equal(posenc.rope(part, { ...rope, headDim: 2 }), part, "a live view's subarray is rotated in place");
      assert.deepEqual(Array.from(b.toArray()), [5, ...expected, 8]);
      b.free();
    });

    it('free then allocate reuses memory', () => {
      const first = posenc.allocate(1024);
      const address = first.address;
      first.free();
      const second = posenc.allocate(1024);
      try {
        assert.equal(second.address, address);
      } finally {
        second.free();
      }
    });
  });
}
