// Half precision through the JS API, on both builds and in both half dtypes, against
// an independent reference (half-support.js rounds by its own float64 arithmetic):
// - tables (sinusoidal, positionNumbers, ropeCache): the float64 value of reference.js rounded
//   once to the storage type;
// - rotations (rope, ropeQK, plans) and addSinusoidal: posenc's float32 result on the widened
//   input, rounded once — bit for bit, the precision contract — and within half an ulp of the
//   storage type (plus the float32 bound) of the float64 rotation;
// on JS-owned Uint16Arrays, WasmArrays, windows, in place and into out, streamed a block of
// rows at a time, through plans and a decoding loop; with partial rotary (pass-through bits
// copied, NaN payloads included), GQA, xPos and M-RoPE. (Float16Array: tests/web, Chromium.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  assertRoundedFrom,
  assertSameHalfBits,
  bitsOf,
  fromHalfBits,
  halfUlp,
  narrow,
  randomHalfBits,
  toHalfBits,
  widen,
} from './half-support.js';
import { forEachRopePair, positionNumbersReference, ropeReference, sinusoidalReference } from './reference.js';
import { ROPE_EPS, loadBothVariants, randomNormal, seededRandom } from './support.js';

const DTYPES = ['float16', 'bfloat16'];
// 5 pairs per head: a SIMD body of 4 lanes and a tail; 3 heads.
const ROPE = { seqLen: 5, numHeads: 3, headDim: 10 };
const elements = ({ seqLen, numHeads = 1, headDim, batch = 1 }) => batch * seqLen * numHeads * headDim;

/** What a call returns for a dtype in this engine (Node 20: no Float16Array). */
const resultType = (dtype) => (dtype === 'float16' && globalThis.Float16Array ? globalThis.Float16Array : Uint16Array);

/** Asserts each half value is within half an ulp of `reference` (float64) plus extra(i). */
function assertNear(bits, reference, dtype, extra, label) {
  for (let i = 0; i < reference.length; i++) {
    const error = Math.abs(fromHalfBits(bits[i], dtype) - reference[i]);
    const bound = halfUlp(reference[i], dtype) / 2 + extra(i);
    if (!(error <= bound))
      assert.fail(`${label}: [${i}] ${fromHalfBits(bits[i], dtype)} vs ${reference[i]}: ${error} > ${bound}`);
  }
}

describe('the tests’ own half rounding', () => {
  it('round-trips every half pattern and rounds float32 to bfloat16 as round-to-nearest-even of its bits', () => {
    for (const dtype of DTYPES) {
      for (let b = 0; b < 65536; b++) {
        const value = fromHalfBits(b, dtype);
        if (!Number.isNaN(value)) assert.equal(toHalfBits(value, dtype), b, `${dtype} 0x${b.toString(16)}`);
      }
    }
    const f = new Float32Array(1);
    const word = new Uint32Array(f.buffer);
    for (let i = 0; i < 100000; i++) {
      word[0] = (i * 2654435761) >>> 0;
      if (Number.isNaN(f[0])) continue;
      const w = word[0];
      assert.equal(toHalfBits(f[0], 'bfloat16'), ((w + 0x7fff + ((w >>> 16) & 1)) >>> 16) & 0xffff);
    }
    assert.deepEqual(
      [65504, 65519, 65520, 2 ** -24, 2 ** -25, 3 * 2 ** -25, -0].map((v) => toHalfBits(v, 'float16')),
      [0x7bff, 0x7bff, 0x7c00, 0x0001, 0x0000, 0x0002, 0x8000],
    );
  });
});

for (const posenc of await loadBothVariants()) {
  describe(`half precision (${posenc.variant})`, () => {
    for (const dtype of DTYPES) {
      it(`${dtype} sinusoidal: the float64 table rounded once; layouts, positions, widths with SIMD tails; out given`, () => {
        for (const dModel of [2, 6, 18, 34, 130]) {
          for (const layout of ['interleaved', 'concat']) {
            for (const rows of [{ offset: 0 }, { offset: 4000 }, { positions: [0, 70000, 3, 2 ** 20] }]) {
              const seqLen = rows.positions?.length ?? 4;
              const o = { seqLen, dModel, layout, ...rows };
              const label = `${dtype} ${JSON.stringify(o)}`;
              const table = posenc.sinusoidal({ ...o, dtype });
              assert.equal(table.constructor, resultType(dtype), `${label}: type`);
              assertRoundedFrom(bitsOf(table), sinusoidalReference(o), dtype, label);
              const out = new Uint16Array(seqLen * dModel);
              assert.equal(posenc.sinusoidal({ ...o, dtype, out }), out);
              assertSameHalfBits(out, bitsOf(table), `${label}: into a Uint16Array`);
              const w = posenc.allocate(seqLen * dModel, { dtype });
              posenc.sinusoidal({ ...o, out: w }); // the WasmArray says the dtype
              assertSameHalfBits(bitsOf(w.toArray()), bitsOf(table), `${label}: into a WasmArray`);
              w.free();
            }
          }
        }
      });

      it(`${dtype} positionNumbers: offset + p rounded once (float16: exact to 2048, Infinity from 65520)`, () => {
        for (const offset of [0, 2040, 65500, 3 * 2 ** 20]) {
          const o = { seqLen: 30, dModel: 3, offset };
          const table = posenc.positionNumbers({ ...o, dtype });
          assert.equal(table.constructor, resultType(dtype));
          assertRoundedFrom(bitsOf(table), positionNumbersReference(o), dtype, `${dtype} offset ${offset}`, 0);
        }
        const last = posenc.positionNumbers({ seqLen: 1, dModel: 1, offset: 65520, dtype: 'float16' });
        assert.equal(bitsOf(last)[0], 0x7c00, 'float16 65520 is Infinity');
      });

      it(`${dtype} ropeCache: cos and sin (times YaRN's attention factor) rounded once; batches, out in WASM memory`, () => {
        const yarn = { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 64 };
        for (const o of [
          { seqLen: 6, rotaryDim: 10, offset: 100 },
          { seqLen: 3, rotaryDim: 18, batch: 2, offset: [7, 50000] },
          { seqLen: 4, headDim: 8, scaling: yarn, positions: [0, 1, 300, 9000] },
        ]) {
          const label = `${dtype} ${JSON.stringify(o)}`;
          const { invFreq, attentionFactor } = posenc.ropeSchedule({
            rotaryDim: o.rotaryDim ?? o.headDim,
            scaling: o.scaling,
          });
          const batch = o.batch ?? 1;
          const rows =
            o.positions ??
            Array.from(
              { length: batch * o.seqLen },
              (_, r) => (o.offset[Math.floor(r / o.seqLen)] ?? o.offset) + (r % o.seqLen),
            );
          const pairs = invFreq.length;
          const cos = new Float64Array(rows.length * pairs);
          const sin = new Float64Array(rows.length * pairs);
          rows.forEach((p, r) => {
            for (let i = 0; i < pairs; i++) {
              cos[r * pairs + i] = Math.cos(p * invFreq[i]) * attentionFactor;
              sin[r * pairs + i] = Math.sin(p * invFreq[i]) * attentionFactor;
            }
          });
          const cache = posenc.ropeCache({ ...o, dtype });
          assert.equal(cache.cos.constructor, resultType(dtype));
          assert.equal(cache.attentionFactor, attentionFactor);
          assertRoundedFrom(bitsOf(cache.cos), cos, dtype, `${label}: cos`);
          assertRoundedFrom(bitsOf(cache.sin), sin, dtype, `${label}: sin`);
          const w = posenc.allocate(2 * cos.length, { dtype });
          posenc.ropeCache({ ...o, out: { cos: w.subarray(0, cos.length), sin: w.subarray(cos.length) } });
          const both = bitsOf(w.toArray());
          assertSameHalfBits(both.subarray(0, cos.length), bitsOf(cache.cos), `${label}: cos into a window`);
          assertSameHalfBits(both.subarray(cos.length), bitsOf(cache.sin), `${label}: sin into a window`);
          w.free();
        }
      });

      it(`${dtype} addSinusoidal: the float32 sum on the widened x, rounded once; JS array and WasmArray`, () => {
        const o = { seqLen: 7, dModel: 18, offset: 33 };
        const x = randomHalfBits(randomNormal(7 * 18, 11), dtype);
        const expected = narrow(posenc.addSinusoidal(widen(x, dtype), o), dtype);
        const js = x.slice();
        assert.equal(posenc.addSinusoidal(js, { ...o, dtype }), js);
        assertSameHalfBits(js, expected, `${dtype}: JS-owned`);
        const table = sinusoidalReference(o);
        const wide = widen(x, dtype);
        assertNear(
          js,
          table.map((t, i) => wide[i] + t),
          dtype,
          (i) => 2 ** -23 * (Math.abs(wide[i]) + 1),
          `${dtype}: vs float64`,
        );
        const w = posenc.allocate(x, { dtype });
        posenc.addSinusoidal(w, o);
        assertSameHalfBits(bitsOf(w.toArray()), expected, `${dtype}: WasmArray`);
        w.free();
      });

      it(`${dtype} rope: posenc's float32 rotation of the widened x, rounded once (bit for bit), within half an ulp of float64`, () => {
        const cases = [
          { ...ROPE, offset: 7 },
          { ...ROPE, layout: 'half', offset: 70000 },
          { ...ROPE, order: 'heads', batch: 2, offset: [3, 90] },
          { ...ROPE, positions: [5, 0, 2 ** 20, 9, 9] },
          { ...ROPE, xpos: { role: 'query' }, offset: 40 },
          { ...ROPE, xpos: { role: 'key', center: 2 } },
          { ...ROPE, mrope: { section: [1, 2, 2] }, positions: [0, 1, 2, 3, 4, 0, 0, 1, 1, 2, 9, 8, 7, 6, 5] },
          { ...ROPE, inverse: true, scaling: { type: 'linear', factor: 2 }, offset: 11 },
        ];
        for (const [n, o] of cases.entries()) {
          const label = `${dtype} case ${n} ${JSON.stringify(o)}`;
          const x = randomHalfBits(randomNormal(elements(o), 100 + n), dtype, 3);
          const expected = narrow(posenc.rope(widen(x, dtype), o), dtype);
          const inPlace = x.slice();
          assert.equal(posenc.rope(inPlace, { ...o, dtype }), inPlace);
          assertSameHalfBits(inPlace, expected, `${label}: JS-owned, in place`);
          const out = new Uint16Array(x.length);
          const source = x.slice();
          assert.equal(posenc.rope(source, { ...o, dtype, out }), out);
          assertSameHalfBits(out, expected, `${label}: into out`);
          assertSameHalfBits(source, x, `${label}: x untouched`);
          const cache = posenc.allocate(3 * x.length, { dtype });
          const window = cache.subarray(x.length, 2 * x.length);
          window.set(x);
          assert.equal(posenc.rope(window, o), window); // the window says the dtype
          const all = bitsOf(cache.toArray());
          assertSameHalfBits(all.subarray(x.length, 2 * x.length), expected, `${label}: a window of a WasmArray`);
          assert.ok(
            all.subarray(0, x.length).every((b) => b === 0),
            `${label}: before the window untouched`,
          );
          cache.free();
          if (o.xpos === undefined && o.mrope === undefined && o.scaling === undefined && o.order === undefined) {
            const wide = widen(x, dtype);
            const scales = new Float64Array(x.length);
            forEachRopePair(o, (a, b) => {
              scales[a] = scales[b] = Math.abs(wide[a]) + Math.abs(wide[b]);
            });
            assertNear(inPlace, ropeReference(wide, o), dtype, (i) => ROPE_EPS * scales[i], `${label}: vs float64`);
          }
        }
      });

      it(`${dtype} partial rotary: pass-through channels are copied bits (NaN payloads, -0, Infinity)`, () => {
        const o = { ...ROPE, rotaryDim: 6, offset: 3 };
        const odd = dtype === 'float16' ? [0x7d01, 0xfe55, 0x8000, 0x7c00] : [0x7f81, 0xffc1, 0x8000, 0xff80];
        const x = randomHalfBits(randomNormal(elements(o), 7), dtype);
        for (let token = 0; token < o.seqLen * o.numHeads; token++)
          for (let c = 6; c < 10; c++) x[token * 10 + c] = odd[(token + c) % odd.length];
        const rotated = posenc.rope(x.slice(), { ...o, dtype });
        for (let i = 0; i < x.length; i++)
          if (i % 10 >= 6) assert.equal(rotated[i], x[i], `${dtype}: channel ${i} copied`);
        const rotary = (bits) => bits.filter((_, i) => i % 10 < 6);
        const expected = narrow(posenc.rope(widen(x, dtype), o), dtype);
        assertSameHalfBits(rotary(rotated), rotary(expected), `${dtype}: rotated channels`);
        const plan = posenc.ropePlan({ ...ROPE, rotaryDim: 6, dtype });
        assertSameHalfBits(plan.apply(x.slice(), { offset: 3 }), rotated, `${dtype}: a plan, the same bits`);
        plan.free();
      });

      it(`${dtype} ropeQK with GQA (4 query heads, 2 key heads): both tensors as the float32 call rounded`, () => {
        const o = { seqLen: 3, numHeads: 4, numKvHeads: 2, headDim: 12, layout: 'half', offset: 17 };
        const q = randomHalfBits(randomNormal(3 * 4 * 12, 21), dtype);
        const k = randomHalfBits(randomNormal(3 * 2 * 12, 22), dtype);
        const wide = posenc.ropeQK(widen(q, dtype), widen(k, dtype), o);
        const result = posenc.ropeQK(q.slice(), k.slice(), { ...o, dtype });
        assertSameHalfBits(result.q, narrow(wide.q, dtype), `${dtype}: q`);
        assertSameHalfBits(result.k, narrow(wide.k, dtype), `${dtype}: k`);
        const out = { q: new Uint16Array(q.length), k: posenc.allocate(k.length, { dtype }) };
        posenc.ropeQK(posenc.allocate(q, { dtype }), k.slice(), { ...o, dtype, out });
        assertSameHalfBits(out.q, result.q, `${dtype}: out.q from a WasmArray q`);
        assertSameHalfBits(bitsOf(out.k.toArray()), result.k, `${dtype}: out.k a WasmArray`);
        out.k.free();
      });

      it(`${dtype} streaming: a large JS-owned array, a block of rows at a time, has the bits of the same data in a WasmArray`, () => {
        // 2048 rows of 4 × 32 half values: 512 KiB, two blocks of 256 KiB.
        const o = { seqLen: 2048, numHeads: 4, headDim: 32, offset: 1000, xpos: { role: 'key' } };
        const x = randomHalfBits(randomNormal(elements(o), 31), dtype);
        const streamed = posenc.rope(x.slice(), { ...o, dtype });
        const w = posenc.allocate(x, { dtype });
        posenc.rope(w, o);
        assertSameHalfBits(streamed, bitsOf(w.toArray()), `${dtype}: streamed vs in WASM memory`);
        w.free();
        assertSameHalfBits(streamed, narrow(posenc.rope(widen(x, dtype), o), dtype), `${dtype}: vs float32 rounded`);
        const out = new Uint16Array(x.length);
        const { offset, xpos, ...shape } = o;
        const plan = posenc.ropePlan({ ...shape, xpos: {}, dtype });
        plan.apply(x, { offset, role: xpos.role, out });
        plan.free();
        assertSameHalfBits(out, streamed, `${dtype}: a plan streams the same bits`);
      });

      it(`${dtype} ropePlan: apply and applyQK give rope's and ropeQK's bits; a decoding loop over a KV cache in WASM memory`, () => {
        const shape = { seqLen: 1, numHeads: 4, numKvHeads: 2, headDim: 16, layout: 'half' };
        const plan = posenc.ropePlan({ ...shape, dtype });
        assert.equal(plan.dtype, dtype);
        const keys = posenc.allocate(8 * 2 * 16, { dtype });
        const q = posenc.allocate(4 * 16, { dtype });
        for (let step = 0; step < 8; step++) {
          const qBits = randomHalfBits(randomNormal(4 * 16, 200 + step), dtype);
          const kBits = randomHalfBits(randomNormal(2 * 16, 300 + step), dtype);
          const k = keys.subarray(step * 32, (step + 1) * 32);
          q.set(qBits);
          k.set(kBits);
          plan.applyQK(q, k, { offset: step });
          const expected = posenc.ropeQK(qBits.slice(), kBits.slice(), { ...shape, dtype, offset: step });
          assertSameHalfBits(bitsOf(q.toArray()), expected.q, `${dtype} step ${step}: q`);
          assertSameHalfBits(bitsOf(k.toArray()), expected.k, `${dtype} step ${step}: k`);
          const single = posenc.ropePlan({ ...shape, numHeads: 2, dtype });
          assertSameHalfBits(single.apply(kBits.slice(), { offset: step }), expected.k, `${dtype} step ${step}: apply`);
          single.free();
        }
        plan.free();
        q.free();
        keys.free();
      });

      it(`${dtype} random shapes, options and placements (200 calls): always the float32 call's result, rounded`, () => {
        const random = seededRandom(dtype === 'float16' ? 16 : 17);
        const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
        const pick = (list) => list[int(0, list.length - 1)];
        for (let n = 0; n < 200; n++) {
          const headDim = 2 * int(1, 20);
          const o = {
            seqLen: int(1, 6),
            numHeads: int(1, 3),
            headDim,
            rotaryDim: 2 * int(1, headDim / 2),
            layout: pick(['interleaved', 'half']),
            base: pick([10000, 500000, 100]),
            batch: int(1, 2),
            order: pick(['tokens', 'heads']),
            inverse: random() < 0.2,
            ...(random() < 0.2 ? { xpos: { role: pick(['query', 'key']) } } : {}),
          };
          // xPos: positions within its float32 reach of the center (a few thousand rows).
          const far = o.xpos ? 4000 : 2 ** 20;
          const rows =
            random() < 0.3 ? { offset: Array.from({ length: o.batch }, () => int(0, far)) } : { offset: int(0, far) };
          const x = randomHalfBits(randomNormal(elements(o), 1000 + n), dtype, pick([1, 100, 1e-3]));
          const expected = narrow(posenc.rope(widen(x, dtype), { ...o, ...rows }), dtype);
          const label = `${dtype} #${n} ${JSON.stringify({ ...o, ...rows })}`;
          const placement = pick(['js', 'js out', 'wasm', 'window', 'plan']);
          let got;
          if (placement === 'js') got = posenc.rope(x.slice(), { ...o, ...rows, dtype });
          else if (placement === 'js out')
            got = posenc.rope(x, { ...o, ...rows, dtype, out: new Uint16Array(x.length) });
          else if (placement === 'plan') {
            const { xpos, ...shape } = o;
            const plan = posenc.ropePlan({ ...shape, ...(xpos ? { xpos: {} } : {}), dtype });
            got = plan.apply(x.slice(), { ...rows, ...(xpos ? { role: xpos.role } : {}) });
            plan.free();
          } else {
            const w = posenc.allocate(x.length + (placement === 'window' ? 3 : 0), { dtype });
            const target = placement === 'window' ? w.subarray(3) : w;
            target.set(x);
            posenc.rope(target, { ...o, ...rows });
            got = bitsOf(target.toArray());
            w.free();
          }
          assertSameHalfBits(got, expected, `${label} (${placement})`);
        }
      });

      it(`${dtype} WasmArray: dtype, view and toArray of the dtype's type, subarray keeps it, set takes bits`, () => {
        const bits = Uint16Array.of(0x3c00, 0x4000, 0x8001, 0x7c00, 0x7e01);
        const w = posenc.allocate(bits, { dtype });
        assert.equal(w.dtype, dtype);
        assert.equal(w.length, 5);
        assert.equal(w.view().constructor, resultType(dtype));
        assertSameHalfBits(bitsOf(w.toArray()), bits, `${dtype}: copied bits (NaN payload kept)`);
        const window = w.subarray(1, 4);
        assert.equal(window.dtype, dtype);
        assert.equal(window.address, w.address + 2);
        window.set(Uint16Array.of(0x1234), 1);
        assert.equal(bitsOf(w.toArray())[2], 0x1234);
        assert.equal(posenc.allocate(3, { dtype }).dtype, dtype);
        assert.equal(posenc.allocate(3).dtype, 'float32');
        w.free();
      });
    }
  });
}
