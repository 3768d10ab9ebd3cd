// rope() and ropeQK() keep the plans they make (bindings/js/plan-cache.js) and find them again by
// the values read from the options. These tests hold a call that finds a kept plan to the bits
// of the same call with no plan kept, of the same arrays in WASM memory, of an explicit
// ropePlan and of a large array streamed in blocks, over random configurations (both builds,
// both layouts, offsets, positions, xPos, GQA, scaling, half dtypes); show that options
// changed between calls (getters, Proxies, mutation, Object.prototype pollution) never reach a
// stale plan; that refused calls keep nothing and are refused the same way again; and that the
// cache stays bounded and frees what it evicts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { randomHalfBits } from './half-support.js';
import { keptPlansProbe as heapProbe, withPollution } from './seam-support.js';
import { loadBothVariants, randomNormal, seededRandom } from './support.js';

const CONFIGS = 160;

/** The bits of a call's result (float32 as uint32 words, half types as they are), q then k for ropeQK. */
function bitsOf(result) {
  const parts = result instanceof Float32Array || result instanceof Uint16Array ? [result] : [result.q, result.k];
  return parts.flatMap((part) =>
    Array.from(part instanceof Float32Array ? new Uint32Array(part.buffer, part.byteOffset, part.length) : part),
  );
}

/** The outcome of fn(): its result's bits, or the error's class, parameter and message. */
function outcome(fn) {
  try {
    return { bits: bitsOf(fn()) };
  } catch (error) {
    return { error: `${error.constructor.name} ${error.parameter}: ${error.message}` };
  }
}

const pick = (random, values) => values[Math.floor(random() * values.length)];

/** A random rope or ropeQK call: its function, options (with the rows), arrays' dtype and lengths. */
function randomCall(seed) {
  const random = seededRandom(seed);
  const fn = random() < 0.5 ? 'rope' : 'ropeQK';
  const headDim = pick(random, [8, 16, 34, 64]);
  const numHeads = pick(random, [1, 2, 4]);
  const o = { seqLen: pick(random, [1, 1, 2, 5]), numHeads, headDim, layout: pick(random, ['interleaved', 'half']) };
  let rotaryDim = headDim;
  const rotary = random();
  if (rotary < 0.2) {
    rotaryDim = headDim / 2 - ((headDim / 2) % 2);
    o.rotaryDim = rotaryDim;
  } else if (rotary < 0.3 && headDim % 4 === 0) {
    o.partialRotaryFactor = 0.5;
    rotaryDim = headDim / 2;
  }
  if (random() < 0.3) o.base = pick(random, [500000, 100]);
  if (random() < 0.3) o.batch = 2;
  if (random() < 0.2) o.order = 'heads';
  if (random() < 0.2) o.inverse = true;
  const pairs = rotaryDim / 2;
  const scaling = random();
  if (scaling < 0.1) o.scaling = { type: 'linear', factor: 2 };
  else if (scaling < 0.2) o.scaling = { type: 'dynamic', factor: 2, originalMaxPositionEmbeddings: 4 };
  else if (scaling < 0.3) o.scaling = { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 16 };
  else if (scaling < 0.4)
    o.scaling = { type: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 16 };
  else if (scaling < 0.5) {
    o.scaling = {
      type: 'longrope',
      shortFactor: Array.from({ length: pairs }, (_, i) => 1 + i / pairs),
      longFactor: Array.from({ length: pairs }, (_, i) => 2 + i),
      originalMaxPositionEmbeddings: 4,
      maxPositionEmbeddings: 16,
    };
  } else if (scaling < 0.6) o.xpos = fn === 'rope' ? { role: pick(random, ['query', 'key']) } : { gamma: 0.5 };
  if (fn === 'ropeQK') o.numKvHeads = pick(random, [1, numHeads]);
  const batch = o.batch ?? 1;
  const rows = random();
  if (rows < 0.5) o.offset = pick(random, [0, 7, 1000]);
  else if (rows < 0.7 && batch > 1) o.offset = [3, 40];
  else if (rows < 0.9) o.positions = Array.from({ length: batch * o.seqLen }, () => Math.floor(random() * 3000));
  const dtype = pick(random, ['float32', 'float32', 'float16', 'bfloat16']);
  if (dtype !== 'float32') o.dtype = dtype;
  const rowsTotal = batch * o.seqLen;
  return { fn, o, dtype, lengths: [rowsTotal * numHeads * headDim, rowsTotal * (o.numKvHeads ?? numHeads) * headDim] };
}

/** Fresh input arrays of a call (the same values every time for the same seed). */
function inputs({ dtype, lengths }, seed) {
  return lengths.map((length, i) => {
    const normals = randomNormal(length, seed * 2 + i);
    return dtype === 'float32' ? normals : randomHalfBits(normals, dtype);
  });
}

/** The call on JS arrays. */
function callOn(posenc, call, arrays) {
  return call.fn === 'rope' ? posenc.rope(arrays[0], call.o) : posenc.ropeQK(arrays[0], arrays[1], call.o);
}

/** The call on WasmArrays of the same values, read back. */
function callInWasm(posenc, call, arrays) {
  const wasm = arrays.map((array) => posenc.allocate(array, { dtype: call.dtype }));
  try {
    callOn(posenc, call, wasm);
    const [q, k] = wasm.map((w) => w.toArray());
    return call.fn === 'rope' ? q : { q, k };
  } finally {
    for (const w of wasm) w.free();
  }
}

/** The same call through an explicit posenc.ropePlan (the rows and xPos's role per apply). */
function callThroughPlan(posenc, call, arrays) {
  const { offset, positions, ...planOptions } = call.o;
  let role;
  if (planOptions.xpos?.role !== undefined) {
    const { role: given, ...xpos } = planOptions.xpos;
    role = given;
    planOptions.xpos = xpos;
  }
  const plan = posenc.ropePlan({ ...planOptions, dtype: call.dtype });
  try {
    const where = { offset, positions };
    if (call.fn === 'ropeQK') return plan.applyQK(arrays[0], arrays[1], where);
    return plan.apply(arrays[0], { ...where, role });
  } finally {
    plan.free();
  }
}

for (const posenc of await loadBothVariants()) {
  describe(`rope's kept plans (${posenc.variant})`, () => {
    it(`${CONFIGS} random calls: with the plan kept, the bits of the call with none kept, in WASM memory and through ropePlan; errors the same`, () => {
      posenc.freeCachedPlans();
      const first = new Map(); // seed -> outcome with no plan kept
      const seeds = Array.from({ length: CONFIGS }, (_, i) => 1 + i);
      // Each call twice in a row, then all of them again in another order (16 kept of 160).
      for (const seed of seeds) {
        const call = randomCall(seed);
        posenc.freeCachedPlans();
        const cold = outcome(() => callOn(posenc, call, inputs(call, seed)));
        first.set(seed, cold);
        const warm = outcome(() => callOn(posenc, call, inputs(call, seed)));
        assert.deepEqual(warm, cold, `seed ${seed} (${call.fn} ${JSON.stringify(call.o)}): the kept plan's call`);
        if (cold.error) continue;
        assert.deepEqual(
          outcome(() => callInWasm(posenc, call, inputs(call, seed))),
          cold,
          `seed ${seed}: the kept plan's call on WasmArrays`,
        );
        assert.deepEqual(
          outcome(() => callThroughPlan(posenc, call, inputs(call, seed))),
          cold,
          `seed ${seed}: through ropePlan`,
        );
      }
      for (const seed of [...seeds].reverse().concat(seeds.filter((s) => s % 3 === 0))) {
        const call = randomCall(seed);
        assert.deepEqual(
          outcome(() => callOn(posenc, call, inputs(call, seed))),
          first.get(seed),
          `seed ${seed} again, after other calls (kept or evicted)`,
        );
      }
      assert.ok([...first.values()].filter((o) => !o.error).length > CONFIGS / 2, 'most calls are valid');
    });

    it('a JS array streamed in blocks (a kept plan) has the bits of the same call in WASM memory', () => {
      for (const layout of ['interleaved', 'half']) {
        for (const xpos of [undefined, { role: 'key' }]) {
          const o = { seqLen: 1100, numHeads: 4, headDim: 64, layout, offset: 5, xpos };
          const x = randomNormal(1100 * 4 * 64, 7);
          posenc.freeCachedPlans();
          const cold = bitsOf(posenc.rope(x.slice(), o));
          const warm = bitsOf(posenc.rope(x.slice(), o));
          const w = posenc.allocate(x);
          posenc.rope(w, o);
          const inWasm = bitsOf(w.toArray());
          w.free();
          assert.deepEqual(warm, cold, `${layout} ${xpos?.role}: kept plan`);
          assert.deepEqual(inWasm, cold, `${layout} ${xpos?.role}: in WASM memory`);
        }
      }
    });

    it('10,000 distinct configurations: the memory does not grow, and every evicted plan was freed', () => {
      posenc.freeCachedPlans();
      const empty = heapProbe(posenc);
      const x = randomNormal(64, 5);
      const q = randomNormal(64, 6);
      const k = randomNormal(16, 7);
      let full;
      for (let i = 0; i < 10_000; i++) {
        const o = { seqLen: 1, numHeads: 4, headDim: 16, base: 10000 + i, offset: i % 100 };
        if (i % 2 === 0) posenc.rope(x.slice(), o);
        else posenc.ropeQK(q.slice(), k.slice(), { ...o, numKvHeads: 1 });
        if (i === 99) full = heapProbe(posenc);
      }
      assert.equal(posenc.memoryBytes, full.memoryBytes, 'the WASM memory did not grow');
      // Where in the freed blocks a small one goes varies; the top of the heap does not move.
      assert.equal(heapProbe(posenc).large, full.large, 'the heap did not grow past where 100 calls took it');
      posenc.freeCachedPlans();
      assert.deepEqual(heapProbe(posenc), empty, 'freeing the kept ones leaves the heap as it started');
    });

    it('a refused call keeps nothing and is refused the same way again; a plan whose apply failed still serves', () => {
      posenc.freeCachedPlans();
      const empty = heapProbe(posenc);
      const odd = { seqLen: 1, headDim: 7, offset: 1 };
      const refused = outcome(() => posenc.rope(new Float32Array(7), odd));
      assert.match(refused.error, /^RangeError headDim/);
      assert.deepEqual(
        outcome(() => posenc.rope(new Float32Array(7), odd)),
        refused,
        'the same error again',
      );
      assert.deepEqual(heapProbe(posenc), empty, 'nothing kept');
      // JS rules come before the core's, as in one call: offset with positions, and an odd headDim.
      const both = outcome(() => posenc.rope(new Float32Array(7), { ...odd, positions: [1] }));
      assert.match(both.error, /^TypeError offset/);

      const o = { seqLen: 2, numHeads: 2, headDim: 8, offset: 3 };
      const short = outcome(() => posenc.rope(new Float32Array(31), o));
      assert.match(short.error, /^RangeError x/);
      assert.deepEqual(
        outcome(() => posenc.rope(new Float32Array(31), o)),
        short,
        'x too short, plan kept: same error',
      );
      const qk = { ...o, numKvHeads: 1 };
      const shortK = outcome(() => posenc.ropeQK(new Float32Array(32), new Float32Array(15), qk));
      assert.match(shortK.error, /^RangeError k/);
      assert.deepEqual(
        outcome(() => posenc.ropeQK(new Float32Array(32), new Float32Array(15), qk)),
        shortK,
      );
      const x = randomNormal(32, 8);
      const good = outcome(() => posenc.rope(x.slice(), o));
      posenc.freeCachedPlans();
      assert.deepEqual(
        outcome(() => posenc.rope(x.slice(), o)),
        good,
        'the kept plan computes as a new one',
      );
    });

    describe('options that change between calls never reach a stale plan', () => {
      const x = randomNormal(2 * 3 * 16, 9);
      /** The result of rope with plain options `o` on an instance with no plan kept. */
      const clean = (o) => {
        posenc.freeCachedPlans();
        return bitsOf(posenc.rope(x.slice(), o));
      };

      it('a getter that answers differently at each call (run once per call)', () => {
        const bases = [10000, 10, 10000, 500000];
        let reads = 0;
        const options = {
          seqLen: 2,
          numHeads: 3,
          headDim: 16,
          offset: 4,
          get base() {
            return bases[reads++];
          },
        };
        posenc.freeCachedPlans();
        const got = bases.map(() => bitsOf(posenc.rope(x.slice(), options)));
        assert.equal(reads, bases.length, 'the getter ran once per call');
        bases.forEach((base, i) => {
          assert.deepEqual(got[i], clean({ seqLen: 2, numHeads: 3, headDim: 16, offset: 4, base }), `base ${base}`);
        });
        assert.notDeepEqual(got[0], got[1], 'different bases rotate differently');
      });

      it('the same options object, and its scaling and xpos objects, changed in place', () => {
        const scaling = { type: 'linear', factor: 2 };
        const xpos = { role: 'query' };
        const options = { seqLen: 2, numHeads: 3, headDim: 16, offset: 4, scaling, xpos };
        const steps = [
          () => {},
          () => {
            scaling.factor = 4;
          },
          () => {
            xpos.role = 'key';
          },
          () => {
            options.layout = 'half';
          },
          () => {
            options.rotaryDim = 8;
          },
          () => {
            delete options.xpos;
            options.scaling = { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 2 };
          },
        ];
        posenc.freeCachedPlans();
        for (const [i, step] of steps.entries()) {
          step();
          const got = bitsOf(posenc.rope(x.slice(), options));
          const plain = JSON.parse(JSON.stringify(options));
          assert.deepEqual(got, clean(plain), `after change ${i}: ${JSON.stringify(plain)}`);
          posenc.rope(x.slice(), options); // kept again for the next step
        }
      });

      it("longrope's factor lists changed in place (the plan's other slots the same)", () => {
        const shortFactor = [1, 1, 1, 1, 1, 1, 1, 1];
        const longFactor = [2, 2, 2, 2, 2, 2, 2, 2];
        const scaling = { type: 'longrope', shortFactor, longFactor, originalMaxPositionEmbeddings: 4, factor: 4 };
        const options = { seqLen: 2, numHeads: 3, headDim: 16, offset: 4, scaling };
        posenc.freeCachedPlans();
        for (const change of [
          () => {},
          () => shortFactor.fill(3),
          () => longFactor.fill(5),
          () => shortFactor.fill(1),
        ]) {
          change();
          const got = bitsOf(posenc.rope(x.slice(), options));
          const plain = JSON.parse(JSON.stringify(options));
          assert.deepEqual(got, clean(plain), `factors ${shortFactor[0]}, ${longFactor[0]}`);
          posenc.rope(x.slice(), options); // kept again for the next change
        }
      });

      it('a Proxy whose answers alternate', () => {
        let calls = 0;
        const gets = new Map();
        const target = { seqLen: 2, numHeads: 3, headDim: 16, offset: 4, layout: 'interleaved' };
        const options = new Proxy(target, {
          get(t, key, receiver) {
            gets.set(key, (gets.get(key) ?? 0) + 1);
            if (key === 'layout') return calls++ % 2 === 0 ? 'interleaved' : 'half';
            return Reflect.get(t, key, receiver);
          },
        });
        posenc.freeCachedPlans();
        const got = [0, 1, 2, 3].map(() => bitsOf(posenc.rope(x.slice(), options)));
        for (const [key, count] of gets) assert.ok(count <= 4, `${String(key)} read ${count} times in 4 calls`);
        for (const [i, bits] of got.entries()) {
          const layout = i % 2 === 0 ? 'interleaved' : 'half';
          assert.deepEqual(bits, clean({ ...target, layout }), `call ${i}: ${layout}`);
        }
      });

      it('Object.prototype pollution, before and after a plan is kept, is ignored', () => {
        const o = { seqLen: 2, numHeads: 3, headDim: 16, offset: 4 };
        const expected = clean(o);
        posenc.rope(x.slice(), o);
        for (const [key, value] of [
          ['base', 2],
          ['layout', 'half'],
          ['scaling', { type: 'linear', factor: 8 }],
          ['rotaryDim', 4],
          ['dtype', 'bfloat16'],
        ]) {
          const got = withPollution(key, value, () => bitsOf(posenc.rope(x.slice(), o)));
          assert.deepEqual(got, expected, `Object.prototype.${key} polluted`);
          posenc.freeCachedPlans();
          const fresh = withPollution(key, value, () => bitsOf(posenc.rope(x.slice(), o)));
          assert.deepEqual(fresh, expected, `Object.prototype.${key} polluted, no plan kept`);
        }
      });

      it("typed arrays' species and iterators, patched by the page, never run while a plan is kept or found", () => {
        const pairs = 8;
        const o = {
          seqLen: 2,
          numHeads: 3,
          headDim: 16,
          offset: 4,
          scaling: {
            type: 'longrope',
            shortFactor: new Array(pairs).fill(1.5),
            longFactor: new Array(pairs).fill(3),
            originalMaxPositionEmbeddings: 4,
            factor: 4,
          },
        };
        const expected = clean(o);
        const TypedArray = Object.getPrototypeOf(Uint8Array);
        const iterator = Object.getOwnPropertyDescriptor(TypedArray.prototype, Symbol.iterator);
        const species = Object.getOwnPropertyDescriptor(TypedArray, Symbol.species);
        let runs = 0;
        Object.defineProperty(TypedArray.prototype, Symbol.iterator, {
          ...iterator,
          value() {
            runs++;
            return iterator.value.call(this);
          },
        });
        Object.defineProperty(TypedArray, Symbol.species, {
          ...species,
          get() {
            runs++;
            return species.get.call(this);
          },
        });
        let got;
        try {
          posenc.freeCachedPlans();
          got = [0, 1].map(() => bitsOf(posenc.rope(x.slice(), o)));
        } finally {
          Object.defineProperty(TypedArray.prototype, Symbol.iterator, iterator);
          Object.defineProperty(TypedArray, Symbol.species, species);
        }
        // (x.slice() above runs the species getter itself: the test's own calls are counted out.)
        assert.equal(runs, 2, "only the test's own x.slice() calls ran the patched species");
        assert.deepEqual(got, [expected, expected]);
      });

      it("ropeQK: numKvHeads from a getter, and the keys' lengths with it", () => {
        const heads = [3, 1, 3];
        let reads = 0;
        const options = {
          seqLen: 2,
          numHeads: 3,
          headDim: 16,
          offset: 1,
          get numKvHeads() {
            return heads[reads++];
          },
        };
        posenc.freeCachedPlans();
        for (const numKvHeads of heads) {
          const k = randomNormal(2 * numKvHeads * 16, 10);
          const got = bitsOf(posenc.ropeQK(x.slice(), k.slice(), options));
          posenc.freeCachedPlans();
          const plain = { seqLen: 2, numHeads: 3, headDim: 16, offset: 1, numKvHeads };
          assert.deepEqual(got, bitsOf(posenc.ropeQK(x.slice(), k.slice(), plain)), `numKvHeads ${numKvHeads}`);
          posenc.ropeQK(x.slice(), randomNormal(2 * 16, 11), { ...plain, numKvHeads: 1 }); // another kept plan
        }
        assert.equal(reads, heads.length);
      });
    });
  });
}
