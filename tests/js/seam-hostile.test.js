// The JS <-> WASM seam under attack (the contract: docs/api.md, "How arguments are read"): one test
// per defect of the 0.1 seam (each reproduced on 0.1), plus the ropePlan API.
//
// The rule every case checks: posenc snapshots its arguments (each option, list element and
// value read once, own properties only) BEFORE it resolves any WASM address, so no user code
// (getter, Proxy trap, species) can free, grow or detach memory under a call in flight. A call
// either gives the bits of the same call made with plain arguments holding the values that
// were read, or throws a TypeError/RangeError whose error.parameter names the bad argument in
// a message "posenc.<function>: ...". No other WasmArray changes, malloc stays sane (heap
// probes), and the instance keeps working.
//
// Getters that misbehave "on their k-th read" are tried for k = 1 and 2: under the contract
// there is no second read (so k = 2 must give the clean result), while posenc 0.1 read many
// options twice, once to check and once to copy.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { loadPosenc, WasmArray } from '../../bindings/js/node.js';
import { assertStillWorks, loadBothVariants, randomNormal } from './support.js';
import {
  assertFinite,
  assertSameBits,
  assertSeamError,
  assertThrowsSeamError,
  detach,
  differences,
  freshInstance,
  growMemory,
  heapProbe,
  outcome,
  revoked,
  withPollution,
} from './seam-support.js';

const variants = await loadBothVariants();
const ARGUMENT_ERRORS = [TypeError, RangeError];

/** Float32Array.from of a short list: data whose values say where they came from. */
const f32 = (length, start = 1) => Float32Array.from({ length }, (_, i) => start + i);

/**
 * A getter body that returns `value` and, on its `freeAt`-th run, frees `victim`; with
 * `reallocate`, it then allocates a bystander WasmArray of the same length at once (malloc
 * hands it the address just freed) holding known values, which nothing may change.
 */
function freeingGetter(posenc, victim, freeAt, value, { reallocate = true } = {}) {
  const state = { reads: 0, freedAddress: undefined, bystander: null, bystanderValues: null };
  state.get = () => {
    state.reads++;
    if (state.reads === freeAt) {
      state.freedAddress = victim.address;
      victim.free();
      if (reallocate) {
        state.bystanderValues = f32(victim.length, 1000);
        state.bystander = posenc.allocate(state.bystanderValues);
      }
    }
    return value;
  };
  return state;
}

/** fn(), or undefined if it throws (reading a result that may be gone). */
function readable(fn) {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

/** A getter that counts its runs and calls `onRead(runNumber)` before returning `value`. */
function countingGetter(value, onRead = () => {}) {
  const state = { reads: 0 };
  state.get = () => {
    state.reads++;
    onRead(state.reads);
    return value;
  };
  return state;
}

/** An Array with an accessor element at `index` (configurable, so `length` can cut it off). */
function withGetter(values, index, getter) {
  const list = Array.from(values);
  Object.defineProperty(list, index, { get: getter, enumerable: true, configurable: true });
  return list;
}

/**
 * A Proxy over an Array that answers each read of an element differently: the value the
 * first time, the value + 1000 afterwards. Logs the reads of every key, and the answers.
 */
function fickleList(values) {
  const reads = new Map();
  const answers = [];
  const proxy = new Proxy(Array.from(values), {
    get(target, key, receiver) {
      reads.set(key, (reads.get(key) ?? 0) + 1);
      if (typeof key === 'string' && /^\d+$/.test(key)) {
        const answer = reads.get(key) === 1 ? target[key] : target[key] + 1000;
        answers[Number(key)] ??= answer;
        return answer;
      }
      return Reflect.get(target, key, receiver);
    },
  });
  return { proxy, reads, answers };
}

function assertReadAtMostOnce(reads, label) {
  for (const [key, count] of reads) assert.ok(count <= 1, `${label}: ${String(key)} was read ${count} times`);
}

for (const shared of variants) {
  describe(`seam: hostile arguments (${shared.variant})`, () => {
    it('a getter that frees an array posenc already looked at: RangeError naming it; the array reallocated there is untouched; malloc stays sane', async (t) => {
      const rope = { seqLen: 2, headDim: 8, offset: 5 };
      const data = randomNormal(16, 11);
      const ropeReference = shared.rope(data.slice(), rope);
      const a = randomNormal(2 * 8, 12);
      const b = randomNormal(3 * 8, 13);
      const similarity = { rows: 2, cols: 3, dim: 8 };
      const similarityReference = shared.similarity(a, b, similarity);
      const cache = { seqLen: 2, rotaryDim: 8, offset: 3 };
      const cacheReference = shared.ropeCache(cache);

      // Each scenario: the victim, the argument it is, the call (the getter inside), what the
      // call must give when the getter did not free the victim, and where the result is. Each
      // runs as a subtest on an instance of its own (0.1 corrupted malloc in one of them).
      const scenarios = (posenc) => [
        {
          label: 'rope: getter on options.out frees x (a WasmArray)',
          fn: 'rope',
          parameter: 'x',
          setUp: () => ({ victim: posenc.allocate(data) }),
          call: ({ victim }, getter) =>
            posenc.rope(victim, {
              ...rope,
              get out() {
                return getter.get();
              },
            }),
          expected: ropeReference,
          read: ({ victim }) => victim.toArray(),
        },
        {
          label: 'rope: getter on an element of positions frees x',
          fn: 'rope',
          parameter: 'x',
          setUp: () => ({ victim: posenc.allocate(data) }),
          value: 6,
          call: ({ victim }, getter) =>
            posenc.rope(victim, { seqLen: 2, headDim: 8, positions: withGetter([5, 0], 1, getter.get) }),
          expected: ropeReference,
          read: ({ victim }) => victim.toArray(),
        },
        {
          label: 'similarity: getter on options.out frees b, which is only read',
          fn: 'similarity',
          parameter: 'b',
          setUp: () => ({ victim: posenc.allocate(b), other: posenc.allocate(a) }),
          call: ({ victim, other }, getter) =>
            posenc.similarity(other, victim, {
              ...similarity,
              get out() {
                return getter.get();
              },
            }),
          expected: similarityReference,
          read: (_, result) => result,
        },
        {
          label: 'ropeCache: getter on out.sin frees out.cos',
          fn: 'ropeCache',
          parameter: 'out.cos',
          setUp: () => ({ victim: posenc.allocate(8), sin: posenc.allocate(8) }),
          call: ({ victim, sin }, getter) =>
            posenc.ropeCache({
              ...cache,
              out: {
                cos: victim,
                get sin() {
                  getter.get();
                  return sin;
                },
              },
            }),
          expected: Float32Array.of(...cacheReference.cos, ...cacheReference.sin),
          read: ({ victim, sin }) => Float32Array.of(...victim.toArray(), ...sin.toArray()),
        },
        {
          // No bystander: the freed block stays in malloc's free list, right where the values go.
          label: 'WasmArray.set: getter on values[0] frees the array itself',
          fn: 'WasmArray.set',
          parameter: 'this',
          setUp: () => ({ victim: posenc.allocate(8) }),
          reallocate: false,
          value: 1,
          call: ({ victim }, getter) => victim.set(withGetter([0, 2, 3, 4, 5, 6, 7, 8], 0, getter.get)),
          expected: f32(8),
          read: ({ victim }) => victim.toArray(),
        },
      ];

      for (const [index, { label: title }] of scenarios(shared).entries()) {
        await t.test(title, async () => {
          const posenc = await freshInstance(shared);
          warmUp(posenc);
          const scenario = scenarios(posenc)[index];
          for (const freeAt of [2, 1]) {
            const label = `${scenario.label} on its read ${freeAt}`;
            const before = heapProbe(posenc);
            const arrays = scenario.setUp();
            const guard = posenc.allocate(8); // the victim is not next to the top of the heap
            const getter = freeingGetter(posenc, arrays.victim, freeAt, scenario.value, {
              reallocate: scenario.reallocate ?? true,
            });
            const { result, error } = outcome(() => scenario.call(arrays, getter));
            if (getter.bystander) {
              assertSameBits(
                getter.bystander.toArray(),
                getter.bystanderValues,
                `${label}: the WasmArray allocated at the freed address ${getter.freedAddress} (bystander at ${getter.bystander.address})`,
              );
            }
            const freed = arrays.victim.freed;
            const got = error === undefined ? readable(() => scenario.read(arrays, result)) : undefined;
            const { result: after, error: broken } = outcome(() => {
              for (const array of [...Object.values(arrays), guard, getter.bystander]) array?.free();
              return heapProbe(posenc);
            });
            assert.equal(broken, undefined, `${label}: malloc is broken after the call: ${broken?.message}`);
            assert.deepEqual(after, before, `${label}: malloc hands out the same blocks as before`);
            if (freed) {
              const wrong = got && differences(got, scenario.expected).count;
              assert.ok(
                error !== undefined,
                `${label}: expected a RangeError naming ${scenario.parameter}, the call returned` +
                  (wrong ? ` a result that differs from the clean one in ${wrong} of ${got.length} values` : ''),
              );
              assertSeamError(error, RangeError, scenario.parameter, scenario.fn, label);
            } else {
              assert.equal(error, undefined, `${label}: the getter freed nothing, yet: ${error?.message}`);
              assertSameBits(got, scenario.expected, `${label}: result`);
            }
            assert.ok(getter.reads <= 1, `${label}: the getter ran ${getter.reads} times`);
            assertStillWorks(posenc, label);
          }
        });
      }
    });

    it('longrope shortFactor/longFactor shrunk by a getter: the snapshot counts, never NaN or Infinity', async () => {
      const posenc = await freshInstance(shared);
      const longrope = () => ({
        type: 'longrope',
        shortFactor: [1, 1.25, 1.5, 2],
        longFactor: [2, 3, 4, 6],
        originalMaxPositionEmbeddings: 16,
        factor: 8,
      });
      const x = randomNormal(32 * 8, 21);
      // [function, options besides scaling and seqLen, the call giving the values to compare]
      const cases = [
        ['ropeSchedule', { rotaryDim: 8 }, (o) => posenc.ropeSchedule(o).invFreq],
        [
          'ropeCache',
          { rotaryDim: 8 },
          (o) => {
            const { cos, sin } = posenc.ropeCache(o);
            return Float32Array.of(...cos, ...sin);
          },
        ],
        ['rope', { headDim: 8 }, (o) => posenc.rope(x.slice(), o)],
        [
          'ropeQK',
          { headDim: 8 },
          (o) => {
            const { q, k } = posenc.ropeQK(x.slice(), x.slice(), o);
            return Float32Array.of(...q, ...k);
          },
        ],
      ];
      // seqLen 32 > originalMaxPositionEmbeddings: the long factors are the ones used. seqLen
      // is defined after scaling (later in Reflect.ownKeys order), as a value or a getter.
      const options = (base, scaling, seqLen) =>
        Object.defineProperty(
          { ...base, scaling },
          'seqLen',
          typeof seqLen === 'function'
            ? { get: seqLen, enumerable: true, configurable: true }
            : { value: seqLen, enumerable: true, writable: true, configurable: true },
        );
      const shrink = (scaling) => {
        scaling.shortFactor.length = 0; // 0.1: the core read the short factors at address 0
        scaling.longFactor.length = 1; //  and the long ones past the end of their block
      };
      for (const [fn, base, call] of cases) {
        const reference = call(options(base, longrope(), 32));
        assertFinite(reference, `${fn}: reference`);
        // seqLen's getter shrinks both lists on its read k.
        for (const shrinkAt of [1, 2]) {
          const label = `${fn}: options.seqLen's getter shrinks the lists on its read ${shrinkAt}`;
          const scaling = longrope();
          const getter = countingGetter(32, (read) => {
            if (read === shrinkAt) shrink(scaling);
          });
          const { result, error } = outcome(() => call(options(base, scaling, getter.get)));
          if (error) {
            // Only if the lists were snapshotted after the shrink: then they are too short.
            assertSeamError(error, ARGUMENT_ERRORS, /^scaling\.(shortFactor|longFactor)(\[\d+\])?$/, fn, label);
          } else {
            assertFinite(result, label);
            assertSameBits(result, reference, label);
          }
          assert.ok(getter.reads <= 1, `${label}: the getter ran ${getter.reads} times`);
        }
        // The last element's getter cuts its own list down once it has been read: by then the
        // list is copied (length read once, each element once, in order), so nothing changes.
        for (const list of ['shortFactor', 'longFactor']) {
          const label = `${fn}: the last element of ${list} cuts ${list} to 1 element when read`;
          const scaling = longrope();
          const getter = countingGetter(scaling[list][3], () => {
            scaling[list].length = 1;
          });
          scaling[list] = withGetter(scaling[list], 3, getter.get);
          const { result, error } = outcome(() => call(options(base, scaling, 32)));
          assert.equal(error, undefined, `${label}: ${error?.message}`);
          assertFinite(result, label);
          assertSameBits(result, reference, label);
          assert.ok(getter.reads <= 1, `${label}: the getter ran ${getter.reads} times`);
        }
        assertStillWorks(posenc, fn);
      }
    });

    it('positions shrunk by a getter, or a Proxy answering differently on each read: one read per element, no leftover rows', async () => {
      const posenc = await freshInstance(shared);
      const x = randomNormal(4 * 4, 31);
      const calls = {
        rope: (positions) => posenc.rope(x.slice(), { seqLen: 4, headDim: 4, positions }),
        sinusoidal: (positions) => posenc.sinusoidal({ seqLen: 4, dModel: 6, positions }),
        ropeCache: (positions) => {
          const { cos, sin } = posenc.ropeCache({ seqLen: 4, rotaryDim: 4, positions });
          return Float32Array.of(...cos, ...sin);
        },
        'rope (batch 2, one offset per sequence)': (offset) =>
          posenc.rope(randomNormal(2 * 2 * 4, 32), { seqLen: 2, batch: 2, headDim: 4, offset }),
      };
      const values = [5, 6, 7, 8];
      const offsets = [5, 9];
      for (const [label, call] of Object.entries(calls)) {
        const fn = label.split(' ')[0];
        const name = label.includes('offset') ? 'offset' : 'positions';
        const list = name === 'offset' ? offsets : values;
        const reference = call(list.slice());
        // Element 1's getter cuts the list short on its read k.
        const cut = Math.max(1, list.length - 2);
        for (const shrinkAt of [1, 2]) {
          const what = `${label}: ${name}[1]'s getter cuts ${name} to ${cut} elements on its read ${shrinkAt}`;
          let shrunk;
          const getter = countingGetter(list[1], (read) => {
            if (read === shrinkAt) shrunk.length = cut;
          });
          shrunk = withGetter(list, 1, getter.get);
          const { result, error } = outcome(() => call(shrunk));
          if (error) assertSeamError(error, ARGUMENT_ERRORS, new RegExp(`^${name}(\\[\\d+\\])?$`), fn, what);
          else assertSameBits(result, reference, `${what}: the rows are at ${JSON.stringify(list)}`);
          assert.ok(getter.reads <= 1, `${what}: the getter ran ${getter.reads} times`);
        }
        // A Proxy: the first answer for each element is the real one, later answers add 1000.
        const what = `${label}: a Proxy as ${name} that answers differently on each read`;
        const fickle = fickleList(list);
        const { result, error } = outcome(() => call(fickle.proxy));
        assert.equal(error, undefined, `${what}: ${error?.message}`);
        assertSameBits(
          result,
          call(fickle.answers),
          `${what}: rows at the positions read (${JSON.stringify(fickle.answers)})`,
        );
        assertReadAtMostOnce(fickle.reads, what);
        assertStillWorks(posenc, label);
      }
    });

    it('memory growth in a getter in the middle of a copy: every value arrives', async () => {
      const posenc = await freshInstance(shared);
      const growingGetter = (value) => countingGetter(value, () => growMemory(posenc));

      const w = posenc.allocate(8);
      let getter = growingGetter(3);
      let before = posenc.memoryBytes;
      w.set(withGetter(f32(8), 2, getter.get));
      assert.ok(posenc.memoryBytes > before, 'WasmArray.set: the getter grew the memory');
      assertSameBits(w.toArray(), f32(8), 'WasmArray.set: w holds exactly the values');
      assert.ok(getter.reads <= 1, `WasmArray.set: the getter ran ${getter.reads} times`);
      w.free();

      getter = growingGetter(2);
      before = posenc.memoryBytes;
      const copy = posenc.allocate(withGetter(f32(8), 1, getter.get));
      assert.ok(posenc.memoryBytes > before, 'allocate: the getter grew the memory');
      assertSameBits(copy.toArray(), f32(8), 'allocate(values): the array holds exactly the values');
      assert.ok(getter.reads <= 1, `allocate: the getter ran ${getter.reads} times`);
      copy.free();

      // Positions copied into WASM memory for a JS x, and for a WasmArray x.
      const data = randomNormal(4 * 8, 41);
      const rope = { seqLen: 4, headDim: 8 };
      const reference = posenc.rope(data.slice(), { ...rope, positions: [3, 1, 4, 1] });
      getter = growingGetter(4);
      before = posenc.memoryBytes;
      assertSameBits(
        posenc.rope(data.slice(), { ...rope, positions: withGetter([3, 1, 0, 1], 2, getter.get) }),
        reference,
        'rope, JS x',
      );
      assert.ok(
        posenc.memoryBytes > before && getter.reads <= 1,
        `rope, JS x: grew once (getter ran ${getter.reads} times)`,
      );
      const resident = posenc.allocate(data);
      getter = growingGetter(4);
      before = posenc.memoryBytes;
      posenc.rope(resident, { ...rope, positions: withGetter([3, 1, 0, 1], 2, getter.get) });
      assertSameBits(resident.toArray(), reference, 'rope, WasmArray x');
      assert.ok(
        posenc.memoryBytes > before && getter.reads <= 1,
        `rope, WasmArray x: grew once (getter ran ${getter.reads} times)`,
      );
      resident.free();
      assertStillWorks(posenc, 'after growing memory in getters');
    });

    it('Object.prototype pollution and options inherited through Object.create change nothing', async () => {
      const posenc = await freshInstance(shared);
      const x = randomNormal(2 * 8, 51);
      const table = { seqLen: 2, dModel: 8 };
      const rope = { seqLen: 2, headDim: 8 };
      const sinusoidal = () => posenc.sinusoidal({ ...table });
      const rotated = () => posenc.rope(x.slice(), { ...rope });
      const yarn = () =>
        posenc.rope(x.slice(), { ...rope, scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 16 } });
      const cache = () => posenc.ropeCache({ seqLen: 2, rotaryDim: 8 }).cos;
      const cases = [
        ['layout', 'concat', sinusoidal],
        ['base', 10, sinusoidal],
        ['positions', [9, 9], sinusoidal],
        ['offset', 7, sinusoidal],
        ['inverse', true, rotated],
        ['rotaryDim', 2, rotated],
        ['base', 10, rotated],
        ['layout', 'half', rotated],
        ['out', new Float32Array(16), rotated],
        ['scaling', { type: 'linear', factor: 4 }, rotated],
        ['attentionFactor', 1000, yarn], // a key of the nested scaling object
        ['betaFast', 2, yarn],
        ['batch', 2, cache],
        ['foo', 1, sinusoidal],
        ['foo', 1, rotated],
      ];
      for (const [key, value, call] of cases) {
        const label = `Object.prototype.${key} = ${JSON.stringify(value)} (${call === sinusoidal ? 'sinusoidal' : call === cache ? 'ropeCache' : 'rope'})`;
        const clean = call();
        const { result, error } = withPollution(key, value, () => outcome(call));
        assert.equal(error, undefined, `${label}: ${error?.message}`);
        assertSameBits(result, clean, label);
        assert.ok(!Object.hasOwn(Object.prototype, key), 'the pollution was removed');
      }
      // Object.prototype.foo against every function (0.1: Embind's "fields[fieldName].write is
      // not a function" from every call that passes a spec).
      const everyCall = everyFunction(posenc);
      for (const [fn, call] of Object.entries(everyCall)) {
        const clean = call();
        const { result, error } = withPollution('foo', 1, () => outcome(call));
        assert.equal(error, undefined, `Object.prototype.foo = 1, ${fn}: ${error?.message}`);
        assertSameBits(result, clean, `Object.prototype.foo = 1, ${fn}`);
      }
      // Inherited options are ignored: required ones are then missing, others have no effect.
      assertThrowsSeamError(
        () => posenc.sinusoidal(Object.create({ seqLen: 2, dModel: 4 })),
        TypeError,
        'seqLen',
        'sinusoidal',
        'all options inherited',
      );
      assertThrowsSeamError(
        () => posenc.rope(x, Object.assign(Object.create({ headDim: 8 }), { seqLen: 2 })),
        TypeError,
        'headDim',
        'rope',
        'headDim inherited',
      );
      assertThrowsSeamError(
        () => posenc.rope(x, { ...rope, scaling: Object.create({ type: 'linear', factor: 4 }) }),
        TypeError,
        'scaling.type',
        'rope',
        'scaling keys inherited',
      );
      const inherited = Object.assign(
        Object.create({ layout: 'concat', bogus: 1, base: 10, out: new Float32Array(16) }),
        table,
      );
      assertSameBits(
        posenc.sinusoidal(inherited),
        sinusoidal(),
        'inherited layout, base, out and an unknown key are ignored',
      );
      assertStillWorks(posenc, 'after pollution');
    });

    it('a Float32Array view of WASM memory outside any live WasmArray is refused, never written', async () => {
      const posenc = await freshInstance(shared);
      warmUp(posenc);
      const { buffer } = posenc.allocate(1).view(); // this instance's memory (the array stays allocated)
      const bytes = (byteOffset, length) => new Uint8Array(buffer, byteOffset, length).slice();

      // Static data of the module (0.1 rotated it in place: every later call trapped).
      const staticData = new Float32Array(buffer, 4096, 4096);
      const staticBefore = bytes(4096, 4096 * 4);
      assertThrowsSeamError(
        () => posenc.rope(staticData, { seqLen: 1024, headDim: 4, offset: 1 }),
        RangeError,
        'x',
        'rope',
        'x over static data',
      );
      assert.deepEqual(bytes(4096, 4096 * 4), staticBefore, 'static data unchanged');
      assertStillWorks(posenc, 'x over static data');
      const low = new Float32Array(buffer, 4, 8);
      assertThrowsSeamError(
        () => posenc.sinusoidal({ seqLen: 2, dModel: 4, out: low }),
        RangeError,
        'out',
        'sinusoidal',
        'out at byte 4',
      );
      assertThrowsSeamError(
        () => posenc.similarity(f32(4), f32(4), { rows: 2, cols: 2, dim: 2, out: new Float32Array(buffer, 4096, 4) }),
        RangeError,
        'out',
        'similarity',
        'out over static data',
      );
      assertThrowsSeamError(
        () =>
          posenc.ropeCache({
            seqLen: 2,
            rotaryDim: 4,
            out: { cos: new Float32Array(buffer, 4096, 4), sin: new Float32Array(4) },
          }),
        RangeError,
        'out.cos',
        'ropeCache',
        'out.cos over static data',
      );
      assert.deepEqual(bytes(4096, 4096 * 4), staticBefore, 'static data still unchanged');

      // A view kept after free() (the block sits in malloc's free list: a guard follows it).
      const before = heapProbe(posenc);
      const freed = posenc.allocate(f32(8));
      const guard = posenc.allocate(8);
      const stale = freed.view();
      freed.free();
      assertThrowsSeamError(
        () => posenc.rope(stale, { seqLen: 2, headDim: 4, offset: 1 }),
        RangeError,
        'x',
        'rope',
        'x a view kept after free',
      );
      assertThrowsSeamError(
        () => posenc.positionNumbers({ seqLen: 2, dModel: 4, out: stale }),
        RangeError,
        'out',
        'positionNumbers',
        'out a view kept after free',
      );
      guard.free();
      assert.deepEqual(heapProbe(posenc), before, 'malloc is sane after the stale views');
      assertStillWorks(posenc, 'stale views');

      // Views that start inside one live WasmArray and run past its end (into the next).
      const first = posenc.allocate(f32(8));
      const second = posenc.allocate(f32(8, 100));
      const straddling = new Float32Array(buffer, first.address + 16, 8);
      assertThrowsSeamError(
        () => posenc.rope(straddling, { seqLen: 2, headDim: 4, offset: 1 }),
        RangeError,
        'x',
        'rope',
        'x past the end of a WasmArray',
      );
      const spanning = new Float32Array(buffer, first.address, (second.address - first.address) / 4 + 8);
      assertThrowsSeamError(
        () => posenc.addSinusoidal(spanning, { seqLen: spanning.length / 2, dModel: 2 }),
        RangeError,
        'x',
        'addSinusoidal',
        'x over two WasmArrays',
      );
      assertSameBits(first.toArray(), f32(8), 'first WasmArray unchanged');
      assertSameBits(second.toArray(), f32(8, 100), 'second WasmArray unchanged');

      // Inside one live WasmArray: used in place, nothing else written.
      const inside = first.view().subarray(2, 6);
      const expected = posenc.rope(f32(4, 3), { seqLen: 1, headDim: 4, offset: 2 });
      assert.equal(
        posenc.rope(inside, { seqLen: 1, headDim: 4, offset: 2 }),
        inside,
        'returns the view it rotated in place',
      );
      assertSameBits(
        first.toArray(),
        Float32Array.of(1, 2, ...expected, 7, 8),
        'rotated in place, the rest of the WasmArray untouched',
      );
      assertSameBits(second.toArray(), f32(8, 100), 'second WasmArray unchanged');
      first.free();
      second.free();
      assertStillWorks(posenc, 'raw views');
    });

    it('out partly overlapping its input in one JS ArrayBuffer (streaming path too), ropeCache cos/sin overlapping: RangeError', async () => {
      const posenc = await freshInstance(shared);
      // seqLen 4096 x headDim 64 = 262,144 floats: more than one block of 65,536, streamed.
      const rope = { seqLen: 4096, headDim: 64 };
      const n = 4096 * 64;
      const row = 64;
      const reference = posenc.rope(randomNormal(n, 61), rope);
      for (const [label, xStart, outStart] of [
        ['out one row after x', 0, row],
        ['out one row before x', row, 0],
        ['out one float after x', 0, 1],
      ]) {
        const buffer = new Float32Array(n + row);
        buffer.set(randomNormal(n, 61), xStart);
        const before = buffer.slice();
        const x = buffer.subarray(xStart, xStart + n);
        const out = buffer.subarray(outStart, outStart + n);
        assertThrowsSeamError(
          () => posenc.rope(x, { ...rope, out }),
          RangeError,
          'out',
          'rope',
          `large rope, ${label}`,
          () => `and ${differences(out, reference).count} of ${n} values of out differ from the rotated x`,
        );
        assertSameBits(buffer, before, `large rope, ${label}: nothing written`);
      }
      // In place and disjoint parts of one buffer stay fine.
      const buffer = new Float32Array(2 * n);
      buffer.set(randomNormal(n, 61));
      assertSameBits(
        posenc.rope(buffer.subarray(0, n), { ...rope, out: buffer.subarray(n) }),
        reference,
        'disjoint out in the same buffer',
      );
      assertSameBits(posenc.rope(buffer.subarray(0, n), rope), reference, 'in place');

      // Small arrays: the same rule (0.1 copied them, so their overlap went unnoticed).
      const small = Float32Array.from({ length: 9 }, (_, i) => i + 1);
      assertThrowsSeamError(
        () => posenc.rope(small.subarray(0, 8), { seqLen: 2, headDim: 4, out: small.subarray(1, 9) }),
        RangeError,
        'out',
        'rope',
        'small rope, out one float after x',
      );
      assertThrowsSeamError(
        () => posenc.similarity(small.subarray(0, 4), f32(4), { rows: 2, cols: 2, dim: 2, out: small.subarray(2, 6) }),
        RangeError,
        'out',
        'similarity',
        'out overlapping a',
      );
      assertSameBits(
        small,
        Float32Array.from({ length: 9 }, (_, i) => i + 1),
        'small: nothing written',
      );

      // ropeCache: out.cos and out.sin overlapping (0.1 wrote sin over cos).
      const cache = new Float32Array(4 * 4 + 1);
      const cacheReference = posenc.ropeCache({ seqLen: 4, rotaryDim: 8, offset: 3 });
      assertThrowsSeamError(
        () =>
          posenc.ropeCache({
            seqLen: 4,
            rotaryDim: 8,
            offset: 3,
            out: { cos: cache.subarray(0, 16), sin: cache.subarray(1, 17) },
          }),
        RangeError,
        'out.sin',
        'ropeCache',
        'out.sin overlapping out.cos',
        () =>
          `and out.cos is wrong in ${differences(cache.subarray(0, 16), cacheReference.cos).count} of 16 values (sin written over it)`,
      );
      assertSameBits(cache, new Float32Array(17), 'ropeCache: nothing written');
      assertStillWorks(posenc, 'overlap');
    });

    it('allocate(w.view()) copies even when malloc grows memory, and a throwing getter in allocate/set leaks nothing', async () => {
      const posenc = await freshInstance(shared);
      warmUp(posenc);
      const start = heapProbe(posenc);
      // Each w takes 60% of the memory: its clone cannot fit without growing it.
      for (let i = 0; i < 4; i++) {
        const length = Math.ceil((0.6 * posenc.memoryBytes) / 4);
        const w = posenc.allocate(length);
        const view = w.view();
        for (let j = 0; j < length; j += 4093) view[j] = j + i;
        const before = posenc.memoryBytes;
        const { result: clone, error } = outcome(() => posenc.allocate(w.view()));
        assert.equal(error, undefined, `clone ${i}: ${error?.message}`);
        assert.ok(posenc.memoryBytes > before, `clone ${i}: memory grew (${before} -> ${posenc.memoryBytes} bytes)`);
        assert.notEqual(clone.address, w.address);
        assertSameBits(clone.toArray(), w.toArray(), `clone ${i}: a copy of w`);
        clone.free();
        w.free();
        assert.deepEqual(heapProbe(posenc), start, `clone ${i}: nothing leaked`);
      }

      for (const throwAt of [2, 1]) {
        const boom = new Error('boom');
        const throwing = (values, index) =>
          withGetter(values, index, () => {
            throwing.reads++;
            if (throwing.reads === throwAt) throw boom;
            return values[index];
          });
        const label = `allocate(values), values[2] throws on its read ${throwAt}`;
        const before = heapProbe(posenc);
        const outcomes = [];
        for (let i = 0; i < 20; i++) {
          throwing.reads = 0;
          outcomes.push({ ...outcome(() => posenc.allocate(throwing(f32(8), 2))), reads: throwing.reads });
          outcomes.at(-1).result?.free();
        }
        assert.deepEqual(heapProbe(posenc), before, `${label}, 20 calls: nothing leaked`);
        for (const { result, error, reads } of outcomes) {
          if (throwAt === 1) {
            assertSeamError(error, TypeError, /^lengthOrValues(\[2\])?$/, 'allocate', label);
            assert.equal(error.cause, boom, `${label}: error.cause is what the getter threw`);
          } else {
            assert.equal(error, undefined, `${label}: ${error?.message}`);
            assert.equal(result.length, 8, label);
          }
          assert.ok(reads <= 1, `${label}: the getter ran ${reads} times`);
        }
        const w = posenc.allocate(f32(8, 50));
        throwing.reads = 0;
        const setLabel = `WasmArray.set, values[5] throws on its read ${throwAt}`;
        const { error } = outcome(() => w.set(throwing(f32(8), 5)));
        if (throwAt === 1) {
          assertSeamError(error, TypeError, /^values(\[5\])?$/, 'WasmArray.set', setLabel);
          assert.equal(error.cause, boom, `${setLabel}: error.cause`);
          assertSameBits(w.toArray(), f32(8, 50), `${setLabel}: nothing written`);
        } else {
          assert.equal(error, undefined, `${setLabel}: ${error?.message}`);
          assertSameBits(w.toArray(), f32(8), setLabel);
        }
        w.free();
      }
      assert.deepEqual(heapProbe(posenc), start, 'nothing leaked in the end');
      assertStillWorks(posenc, 'leaks');
    });

    it('an attention factor whose product with cos/sin overflows float32 is refused: scaling.attentionFactor', async () => {
      const posenc = await freshInstance(shared);
      const x = () => randomNormal(2 * 4, 71);
      const calls = {
        ropeSchedule: (scaling) => posenc.ropeSchedule({ rotaryDim: 4, scaling }),
        ropeFrequencies: (scaling) => posenc.ropeFrequencies({ rotaryDim: 4, scaling }),
        ropeCache: (scaling) => posenc.ropeCache({ seqLen: 2, rotaryDim: 4, scaling }),
        rope: (scaling) => posenc.rope(x(), { seqLen: 2, headDim: 4, scaling }),
        ropeQK: (scaling) => posenc.ropeQK(x(), x(), { seqLen: 2, headDim: 4, scaling }),
        ropePlan: (scaling) => posenc.ropePlan({ seqLen: 2, headDim: 4, scaling }),
      };
      const yarn = (attentionFactor) => ({
        type: 'yarn',
        factor: 4,
        originalMaxPositionEmbeddings: 16,
        attentionFactor,
      });
      const longrope = (attentionFactor) => ({
        type: 'longrope',
        shortFactor: [1, 1],
        longFactor: [2, 2],
        originalMaxPositionEmbeddings: 16,
        attentionFactor,
      });
      for (const [fn, call] of Object.entries(calls)) {
        for (const scaling of [yarn(1e308), yarn(3.5e38), yarn(2 ** 128), longrope(1e308), longrope(3.5e38)]) {
          assertThrowsSeamError(
            () => call(scaling),
            RangeError,
            'scaling.attentionFactor',
            fn,
            `${fn}, ${scaling.type} attentionFactor ${scaling.attentionFactor}`,
          );
        }
        assertStillWorks(posenc, fn);
      }
      // The largest float32 is the largest factor: cos and sin times it still fit.
      const largest = 3.4028234663852886e38;
      const cache = posenc.ropeCache({ seqLen: 3, rotaryDim: 4, scaling: yarn(largest) });
      assert.equal(cache.attentionFactor, largest);
      assertFinite(cache.cos, 'cos times the largest factor');
      assertFinite(cache.sin, 'sin times the largest factor');
    });

    it('engine errors never escape: revoked Proxies, throwing traps and getters, detached buffers, lying typed arrays, Embind internals', async () => {
      const posenc = await freshInstance(shared);
      const rope = { seqLen: 2, headDim: 4 };
      const x = () => randomNormal(8, 81);
      const boom = new Error('boom');
      const cases = [
        // [label, call, error types, parameter, function, the cause it must carry]
        ['options a revoked Proxy', () => posenc.rope(x(), revoked({ ...rope })), TypeError, 'options', 'rope'],
        [
          'sinusoidal options a revoked Proxy',
          () => posenc.sinusoidal(revoked({ seqLen: 2, dModel: 4 })),
          TypeError,
          'options',
          'sinusoidal',
        ],
        [
          'scaling a revoked Proxy',
          () => posenc.rope(x(), { ...rope, scaling: revoked({ type: 'linear', factor: 2 }) }),
          TypeError,
          'scaling',
          'rope',
        ],
        [
          'positions a revoked Proxy',
          () => posenc.rope(x(), { ...rope, positions: revoked([0, 1]) }),
          TypeError,
          'positions',
          'rope',
        ],
        [
          'offset a revoked Proxy',
          () => posenc.rope(x(), { ...rope, offset: revoked([0]) }),
          TypeError,
          'offset',
          'rope',
        ],
        [
          'ropeCache out a revoked Proxy',
          () => posenc.ropeCache({ seqLen: 2, rotaryDim: 4, out: revoked({}) }),
          TypeError,
          /^out(\.(cos|sin))?$/,
          'ropeCache',
        ],
        [
          'ropeQK out a revoked Proxy',
          () => posenc.ropeQK(x(), x(), { ...rope, out: revoked({}) }),
          TypeError,
          /^out(\.(q|k))?$/,
          'ropeQK',
        ],
        ['x a revoked Proxy', () => posenc.rope(revoked(x()), rope), TypeError, 'x', 'rope'],
        ['allocate(a revoked Proxy)', () => posenc.allocate(revoked([1, 2])), TypeError, 'lengthOrValues', 'allocate'],
        [
          'WasmArray.set(a revoked Proxy)',
          () => withArray(posenc, (w) => w.set(revoked([1, 2]))),
          TypeError,
          'values',
          'WasmArray.set',
        ],
        [
          'options: ownKeys trap throws',
          () =>
            posenc.rope(
              x(),
              new Proxy(
                { ...rope },
                {
                  ownKeys() {
                    throw boom;
                  },
                },
              ),
            ),
          TypeError,
          'options',
          'rope',
          boom,
        ],
        [
          'options: get trap throws',
          () =>
            posenc.rope(
              x(),
              new Proxy(
                { ...rope },
                {
                  get() {
                    throw boom;
                  },
                },
              ),
            ),
          TypeError,
          /^(options|seqLen|headDim)$/,
          'rope',
          boom,
        ],
        [
          'options.seqLen getter throws',
          () =>
            posenc.rope(x(), {
              headDim: 4,
              get seqLen() {
                throw boom;
              },
            }),
          TypeError,
          'seqLen',
          'rope',
          boom,
        ],
        [
          'options.seqLen getter throws 42',
          () =>
            posenc.rope(x(), {
              headDim: 4,
              get seqLen() {
                throw 42;
              },
            }),
          TypeError,
          'seqLen',
          'rope',
          42,
        ],
        [
          'scaling.factor getter throws',
          () =>
            posenc.rope(x(), {
              ...rope,
              scaling: {
                type: 'linear',
                get factor() {
                  throw boom;
                },
              },
            }),
          TypeError,
          /^scaling(\.factor)?$/,
          'rope',
          boom,
        ],
        [
          'positions[1] getter throws',
          () =>
            posenc.rope(x(), {
              ...rope,
              positions: withGetter([0, 0], 1, () => {
                throw boom;
              }),
            }),
          TypeError,
          /^positions(\[1\])?$/,
          'rope',
          boom,
        ],
        [
          'a getter detaches x',
          () => {
            const input = x();
            return posenc.rope(input, {
              ...rope,
              get offset() {
                detach(input);
                return 1;
              },
            });
          },
          RangeError,
          'x',
          'rope',
        ],
        [
          'a getter detaches out',
          () => {
            const out = new Float32Array(8);
            return posenc.rope(x(), {
              ...rope,
              get offset() {
                detach(out);
                return 1;
              },
              out,
            });
          },
          RangeError,
          'out',
          'rope',
        ],
        [
          'positions a detached Int32Array',
          () => posenc.rope(x(), { ...rope, positions: detach(Int32Array.of(0, 1)) }),
          RangeError,
          'positions',
          'rope',
        ],
        [
          'x a subclass whose length lies',
          () =>
            posenc.rope(
              new (class extends Float32Array {
                get length() {
                  return 8;
                }
              })(4),
              rope,
            ),
          RangeError,
          'x',
          'rope',
        ],
        [
          'x with an own length property',
          () => posenc.rope(Object.defineProperty(new Float32Array(4), 'length', { value: 8 }), rope),
          RangeError,
          'x',
          'rope',
        ],
        [
          'Float32Array.prototype.length overridden',
          () => withOverriddenLength(() => posenc.rope(new Float32Array(4), rope)),
          RangeError,
          'x',
          'rope',
        ],
        [
          'x an object made from Float32Array.prototype',
          () => posenc.rope(Object.create(Float32Array.prototype), rope),
          TypeError,
          'x',
          'rope',
        ],
        [
          'x an object made from WasmArray.prototype',
          () => posenc.rope(Object.create(WasmArray.prototype), rope),
          TypeError,
          'x',
          'rope',
        ],
        [
          'x a Proxy of a WasmArray',
          () => withArray(posenc, (w) => posenc.rope(new Proxy(w, {}), rope)),
          ARGUMENT_ERRORS,
          'x',
          'rope',
        ],
      ];
      for (const [label, call, types, parameter, fn, cause] of cases) {
        const error = assertThrowsSeamError(call, types, parameter, fn, label);
        if (cause !== undefined) assert.equal(error.cause, cause, `${label}: error.cause is what user code threw`);
        assertStillWorks(posenc, label);
      }
      // A detached source for allocate/set: a RangeError naming it, or an empty copy; never an engine error.
      for (const [label, call, parameter, fn] of [
        [
          'allocate(a detached Float32Array)',
          () => posenc.allocate(detach(new Float32Array(4))),
          'lengthOrValues',
          'allocate',
        ],
        [
          'WasmArray.set(a detached Float32Array)',
          () => withArray(posenc, (w) => w.set(detach(new Float32Array(4)))),
          'values',
          'WasmArray.set',
        ],
      ]) {
        const { result, error } = outcome(call);
        if (error) {
          assertSeamError(error, RangeError, parameter, fn, label);
        } else if (fn === 'allocate') {
          assert.equal(result.length, 0, `${label}: an empty copy`);
          result.free();
        }
        assertStillWorks(posenc, label);
      }
      // A Symbol.species getter that grows memory, on the streaming path (0.1 called it in the
      // middle of a copy: a detached-buffer TypeError and x half rotated).
      const n = 4096 * 64;
      const data = randomNormal(n, 82);
      const reference = posenc.rope(data.slice(), { seqLen: 4096, headDim: 64 });
      const Sneaky = class extends Float32Array {
        static get [Symbol.species]() {
          growMemory(posenc);
          return Float32Array;
        }
      };
      const sneaky = new Sneaky(n);
      sneaky.set(data);
      const { result, error } = outcome(() => posenc.rope(sneaky, { seqLen: 4096, headDim: 64 }));
      if (error) assertSeamError(error, ARGUMENT_ERRORS, 'x', 'rope', 'Symbol.species getter');
      else assertSameBits(result, reference, 'Symbol.species getter: rotated as a plain Float32Array');
      // Embind internals: an enumerable Object.prototype key broke every spec conversion.
      const { error: embind } = withPollution('foo', 1, () => outcome(() => posenc.rope(x(), rope)));
      assert.equal(embind, undefined, `Object.prototype.foo: ${embind?.message}`);
      assertStillWorks(posenc, 'engine errors');
    });

    it('ropePlan: apply and applyQK give the bits of rope() and ropeQK()', async () => {
      const posenc = await freshInstance(shared);
      const configs = [
        { seqLen: 6, numHeads: 2, headDim: 8 },
        { seqLen: 5, numHeads: 3, headDim: 10, layout: 'half', rotaryDim: 6, base: 500, inverse: true },
        { seqLen: 4, headDim: 16, partialRotaryFactor: 0.5, order: 'heads', numHeads: 2, batch: 2 },
        { seqLen: 8, headDim: 8, scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 8, betaFast: 16 } },
        { seqLen: 8, headDim: 8, scaling: { type: 'dynamic', factor: 2, originalMaxPositionEmbeddings: 4 } },
        {
          seqLen: 8,
          headDim: 8,
          scaling: { type: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 4 },
        },
        {
          seqLen: 8,
          headDim: 8,
          scaling: {
            type: 'longrope',
            shortFactor: [1, 1.5, 2, 2.5],
            longFactor: [3, 4, 5, 6],
            originalMaxPositionEmbeddings: 4,
            factor: 4,
          },
        },
        { seqLen: 4096, headDim: 64 }, // large JS arrays: the streaming path
      ];
      let seed = 90;
      for (const options of configs) {
        const batch = options.batch ?? 1;
        const length = batch * options.seqLen * (options.numHeads ?? 1) * options.headDim;
        const applies = [
          {},
          { offset: 37 },
          { positions: Array.from({ length: batch * options.seqLen }, (_, i) => (i * 7) % 23) },
          ...(batch > 1 ? [{ offset: [3, 40] }] : []),
        ];
        const plan = posenc.ropePlan(structuredClone(options));
        for (const applyOptions of applies) {
          const label = `${JSON.stringify(options).slice(0, 80)} apply(${JSON.stringify(applyOptions).slice(0, 40)})`;
          const data = randomNormal(length, seed++);
          const expected = posenc.rope(data.slice(), { ...structuredClone(options), ...applyOptions });
          assertSameBits(plan.apply(data.slice(), { ...applyOptions }), expected, `${label}: in place, JS`);
          const out = new Float32Array(length);
          assert.equal(plan.apply(data.slice(), { ...applyOptions, out }), out, `${label}: returns out`);
          assertSameBits(out, expected, `${label}: into out`);
          const resident = posenc.allocate(data);
          const residentExpected = posenc.rope(posenc.allocate(data), { ...structuredClone(options), ...applyOptions });
          assert.equal(plan.apply(resident, { ...applyOptions }), resident, `${label}: returns the WasmArray`);
          assertSameBits(resident.toArray(), residentExpected.toArray(), `${label}: WasmArray`);
          resident.free();
          residentExpected.free();
          if (length < 65536) {
            const kvHeads = 1;
            const k = randomNormal((length / (options.numHeads ?? 1)) * kvHeads, seed++);
            const qk = posenc.ropeQK(data.slice(), k.slice(), {
              ...structuredClone(options),
              numKvHeads: kvHeads,
              ...applyOptions,
            });
            const qkPlan = posenc.ropePlan({ ...structuredClone(options), numKvHeads: kvHeads });
            const got = qkPlan.applyQK(data.slice(), k.slice(), { ...applyOptions });
            assertSameBits(got.q, qk.q, `${label}: applyQK q`);
            assertSameBits(got.k, qk.k, `${label}: applyQK k`);
            qkPlan.free();
          }
        }
        plan.free();
      }
      assertStillWorks(posenc, 'ropePlan');
    });

    it('ropePlan snapshots its options: getters run once, later mutations change nothing, resolved read-only properties', async () => {
      const posenc = await freshInstance(shared);
      const reads = new Map();
      const counted = (key, value) => () => {
        reads.set(key, (reads.get(key) ?? 0) + 1);
        return value;
      };
      const shortFactor = [1, 1.5, 2, 2.5];
      const longFactor = [3, 4, 5, 6];
      const scaling = { type: 'longrope', originalMaxPositionEmbeddings: 4, factor: 4 };
      Object.defineProperty(scaling, 'shortFactor', {
        get: counted('scaling.shortFactor', shortFactor),
        enumerable: true,
        configurable: true,
      });
      Object.defineProperty(scaling, 'longFactor', {
        get: counted('scaling.longFactor', longFactor),
        enumerable: true,
        configurable: true,
      });
      const options = { numHeads: 2, layout: 'half', base: 5000 };
      for (const [key, value] of [
        ['seqLen', 8],
        ['headDim', 16],
        ['partialRotaryFactor', 0.5],
        ['scaling', scaling],
      ]) {
        Object.defineProperty(options, key, { get: counted(key, value), enumerable: true, configurable: true });
      }
      const plain = {
        seqLen: 8,
        numHeads: 2,
        headDim: 16,
        partialRotaryFactor: 0.5,
        layout: 'half',
        base: 5000,
        scaling: {
          type: 'longrope',
          originalMaxPositionEmbeddings: 4,
          factor: 4,
          shortFactor: shortFactor.slice(),
          longFactor: longFactor.slice(),
        },
      };
      const plan = posenc.ropePlan(options);
      for (const [key, count] of reads) assert.equal(count, 1, `ropePlan read ${key} ${count} times`);
      assert.equal(reads.size, 6, 'every getter ran');
      const data = randomNormal(8 * 2 * 16, 95);
      const expected = posenc.rope(data.slice(), { ...plain, offset: 2 });

      // Mutate everything the plan was made from: options, scaling, the factor lists.
      for (const key of ['seqLen', 'headDim', 'partialRotaryFactor', 'scaling']) delete options[key];
      Object.assign(options, { seqLen: 1, headDim: 2, layout: 'interleaved', base: 10, inverse: true });
      scaling.factor = 64;
      shortFactor.fill(100);
      longFactor.length = 0;
      reads.clear();
      assertSameBits(plan.apply(data.slice(), { offset: 2 }), expected, 'apply after the mutations: the plan as made');
      assert.equal(reads.size, 0, 'apply ran none of the option getters');

      // Resolved, read-only properties.
      const resolved = {
        seqLen: 8,
        numHeads: 2,
        numKvHeads: 2,
        headDim: 16,
        rotaryDim: 8,
        batch: 1,
        layout: 'half',
        order: 'tokens',
      };
      for (const [key, value] of Object.entries(resolved)) {
        assert.equal(plan[key], value, `plan.${key}`);
        try {
          plan[key] = 123;
        } catch {
          // strict-mode assignment to a read-only property throws: fine
        }
        assert.equal(plan[key], value, `plan.${key} is read-only`);
      }
      const yarn = { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 16 };
      const yarnPlan = posenc.ropePlan({ seqLen: 2, headDim: 8, scaling: yarn });
      assert.equal(
        yarnPlan.attentionFactor,
        posenc.ropeSchedule({ rotaryDim: 8, scaling: yarn }).attentionFactor,
        'attentionFactor as ropeSchedule gives it',
      );
      assert.equal(plan.freed, false);
      yarnPlan.free();
      plan.free();
      // ropePlan's own errors name ropePlan.
      assertThrowsSeamError(
        () => posenc.ropePlan({ seqLen: 2, headDim: 4, rotaryDim: 6 }),
        RangeError,
        'rotaryDim',
        'ropePlan',
        'rotaryDim > headDim',
      );
      assertThrowsSeamError(
        () =>
          posenc.ropePlan({
            seqLen: 2,
            headDim: 4,
            get base() {
              throw new Error('base');
            },
          }),
        TypeError,
        'base',
        'ropePlan',
        'throwing getter',
      );
      assertThrowsSeamError(
        () => posenc.ropePlan(Object.create({ seqLen: 2, headDim: 4 })),
        TypeError,
        /^(seqLen|headDim)$/,
        'ropePlan',
        'inherited options',
      );
      assertStillWorks(posenc, 'ropePlan snapshot');
    });

    it('ropePlan: a freed plan, a freed x, a getter freeing x in apply options: RangeErrors naming this / x; malloc sane', async () => {
      const posenc = await freshInstance(shared);
      warmUp(posenc);
      const start = heapProbe(posenc);
      const rope = { seqLen: 2, headDim: 8 };
      const plan = posenc.ropePlan(rope);
      const data = randomNormal(16, 97);
      const expected = posenc.rope(data.slice(), { ...rope, offset: 4 });

      // x freed before the call, and freed by a getter of the apply options.
      const x = posenc.allocate(data);
      x.free();
      assertThrowsSeamError(() => plan.apply(x), RangeError, 'x', 'RopePlan.apply', 'apply(freed x)');
      assertThrowsSeamError(
        () => plan.apply(f32(16), { out: x }),
        RangeError,
        'out',
        'RopePlan.apply',
        'apply(x, { out: freed })',
      );
      for (const freeAt of [1, 2]) {
        const label = `apply: options.offset's getter frees x on its read ${freeAt}`;
        const victim = posenc.allocate(data);
        const guard = posenc.allocate(8);
        const getter = freeingGetter(posenc, victim, freeAt, 4);
        const { error } = outcome(() =>
          plan.apply(victim, {
            get offset() {
              return getter.get();
            },
          }),
        );
        if (getter.bystander)
          assertSameBits(
            getter.bystander.toArray(),
            getter.bystanderValues,
            `${label}: the WasmArray allocated at the freed address`,
          );
        if (victim.freed) assertSeamError(error, RangeError, 'x', 'RopePlan.apply', label);
        else assertSameBits(victim.toArray(), expected, label);
        assert.ok(getter.reads <= 1, `${label}: the getter ran ${getter.reads} times`);
        for (const array of [victim, guard, getter.bystander]) array?.free();
      }
      // applyQK with a freed k.
      const k = posenc.allocate(data);
      k.free();
      assertThrowsSeamError(() => plan.applyQK(f32(16), k), RangeError, 'k', 'RopePlan.applyQK', 'applyQK(q, freed k)');
      assertThrowsSeamError(
        () => plan.apply(f32(15)),
        RangeError,
        'x',
        'RopePlan.apply',
        'apply(x of the wrong length)',
      );

      // The plan itself freed.
      plan.free();
      assert.equal(plan.freed, true);
      for (const [method, call] of [
        ['apply', () => plan.apply(f32(16))],
        ['applyQK', () => plan.applyQK(f32(16), f32(16))],
      ]) {
        const error = assertThrowsSeamError(call, RangeError, 'this', `RopePlan.${method}`, `freed plan: ${method}`);
        assert.equal(error.message, `posenc.RopePlan.${method}: the plan was already freed`);
      }
      const { error } = outcome(() => plan.free());
      if (error) assertSeamError(error, RangeError, 'this', 'RopePlan.free', 'a second free');
      assert.deepEqual(heapProbe(posenc), start, 'plans and arrays freed: malloc is where it started');
      assertStillWorks(posenc, 'freed plans');
    });

    it("windows (subarray): a getter that frees the window's array mid-call: RangeError naming the window; the array reallocated there untouched", async (t) => {
      const rope = { seqLen: 2, headDim: 8 };
      const data = randomNormal(16, 101);
      const keys = randomNormal(16, 102);
      const ropeReference = shared.rope(data.slice(), { ...rope, offset: 5 });
      const qkReference = shared.ropeQK(data.slice(), keys.slice(), { ...rope, offset: 5 });
      const cache = { seqLen: 2, rotaryDim: 8, offset: 3 };
      const cacheReference = shared.ropeCache(cache);
      const similarityReference = shared.similarity(data, keys, { rows: 2, cols: 2, dim: 8 });
      // The window's array: 4 elements before the window, 4 after, each saying where it sits.
      const around = (values) => Float32Array.of(-1, -2, -3, -4, ...values, -5, -6, -7, -8);
      const windowOf = (array, length) => array.subarray(4, 4 + length);
      const scenarios = (posenc) => [
        {
          label: 'rope: getter on options.offset frees the array of x',
          fn: 'rope',
          parameter: 'x',
          values: data,
          call: (x, getter) =>
            posenc.rope(x, {
              ...rope,
              get offset() {
                return getter.get();
              },
            }),
          value: 5,
          expected: ropeReference,
          read: (x) => x.toArray(),
        },
        {
          label: 'rope: getter on an element of positions frees the array of out',
          fn: 'rope',
          parameter: 'out',
          values: new Float32Array(16),
          call: (out, getter) =>
            posenc.rope(data.slice(), { ...rope, positions: withGetter([5, 6], 1, getter.get), out }),
          value: 6,
          expected: ropeReference,
          read: (out) => out.toArray(),
        },
        {
          label: 'ropeQK: getter on options.offset frees the array of k',
          fn: 'ropeQK',
          parameter: 'k',
          values: keys,
          call: (k, getter) =>
            posenc.ropeQK(data.slice(), k, {
              ...rope,
              get offset() {
                return getter.get();
              },
            }),
          value: 5,
          expected: qkReference.k,
          read: (k) => k.toArray(),
        },
        {
          label: 'ropeCache: getter on out.sin frees the array of out.cos',
          fn: 'ropeCache',
          parameter: 'out.cos',
          values: new Float32Array(8),
          call: (cos, getter) =>
            posenc.ropeCache({
              ...cache,
              out: {
                cos,
                get sin() {
                  getter.get();
                  return new Float32Array(8);
                },
              },
            }),
          expected: cacheReference.cos,
          read: (cos) => cos.toArray(),
        },
        {
          label: 'similarity: getter on options.out frees the array of a',
          fn: 'similarity',
          parameter: 'a',
          values: data,
          call: (a, getter) =>
            posenc.similarity(a, keys, {
              rows: 2,
              cols: 2,
              dim: 8,
              get out() {
                return getter.get();
              },
            }),
          expected: similarityReference,
          read: (_, result) => result,
        },
        {
          label: 'RopePlan.apply: getter on options.offset frees the array of x',
          fn: 'RopePlan.apply',
          parameter: 'x',
          values: data,
          call: (x, getter) =>
            withPlan(posenc, rope, (plan) =>
              plan.apply(x, {
                get offset() {
                  return getter.get();
                },
              }),
            ),
          value: 5,
          expected: ropeReference,
          read: (x) => x.toArray(),
        },
        {
          label: "WasmArray.set on a window: getter on values[0] frees the window's array",
          fn: 'WasmArray.set',
          parameter: 'this',
          values: new Float32Array(8),
          reallocate: false,
          call: (w, getter) => w.set(withGetter([0, 2, 3, 4, 5, 6, 7, 8], 0, getter.get)),
          value: 1,
          expected: f32(8),
          read: (w) => w.toArray(),
        },
      ];

      for (const [index, { label: title }] of scenarios(shared).entries()) {
        await t.test(title, async () => {
          const posenc = await freshInstance(shared);
          warmUp(posenc);
          const scenario = scenarios(posenc)[index];
          for (const freeAt of [2, 1]) {
            const label = `${scenario.label} on its read ${freeAt}`;
            const before = heapProbe(posenc);
            const array = posenc.allocate(around(scenario.values));
            const guard = posenc.allocate(8); // the array is not next to the top of the heap
            const window = windowOf(array, scenario.values.length);
            const getter = freeingGetter(posenc, array, freeAt, scenario.value, {
              reallocate: scenario.reallocate ?? true,
            });
            const { result, error } = outcome(() => scenario.call(window, getter));
            if (getter.bystander) {
              assertSameBits(
                getter.bystander.toArray(),
                getter.bystanderValues,
                `${label}: the WasmArray allocated where the window's array was`,
              );
            }
            if (array.freed) {
              assert.equal(window.freed, true, `${label}: the window is freed with its array`);
              assertSeamError(error, RangeError, scenario.parameter, scenario.fn, label);
            } else {
              assert.equal(error, undefined, `${label}: the getter freed nothing, yet: ${error?.message}`);
              assertSameBits(scenario.read(window, result), scenario.expected, `${label}: result`);
              const whole = array.toArray();
              assertSameBits(
                Float32Array.of(...whole.subarray(0, 4), ...whole.subarray(-4)),
                Float32Array.of(-1, -2, -3, -4, -5, -6, -7, -8),
                `${label}: nothing written outside the window`,
              );
            }
            assert.ok(getter.reads <= 1, `${label}: the getter ran ${getter.reads} times`);
            for (const w of [array, guard, getter.bystander]) w?.free();
            assert.deepEqual(heapProbe(posenc), before, `${label}: malloc hands out the same blocks as before`);
            assertStillWorks(posenc, label);
          }
        });
      }
    });

    it('windows of a freed array, retired windows, windows of another instance: refused wherever they are passed, even once the block is reused', async () => {
      const posenc = await freshInstance(shared);
      warmUp(posenc);
      const start = heapProbe(posenc);
      const rope = { seqLen: 1, headDim: 4 };
      const array = posenc.allocate(f32(16));
      const windows = { x: array.subarray(0, 4), out: array.subarray(4, 8), k: array.subarray(8, 12) };
      const retiredArray = posenc.allocate(f32(8, 50));
      const retired = retiredArray.subarray(4);
      retired.free();
      const other = await loadPosenc({ simd: shared.simd });
      const foreign = other.allocate(8).subarray(4);
      const calls = (w) => [
        ['rope', 'x', () => posenc.rope(w.x, rope)],
        ['rope', 'out', () => posenc.rope(f32(4), { ...rope, out: w.out })],
        ['ropeQK', 'k', () => posenc.ropeQK(f32(4), w.k, rope)],
        ['ropeQK', 'out.q', () => posenc.ropeQK(f32(4), f32(4), { ...rope, out: { q: w.out, k: f32(4) } })],
        ['ropeCache', 'out.sin', () => posenc.ropeCache({ seqLen: 1, rotaryDim: 8, out: { cos: f32(4), sin: w.out } })],
        ['sinusoidal', 'out', () => posenc.sinusoidal({ seqLen: 1, dModel: 4, out: w.out })],
        ['addSinusoidal', 'x', () => posenc.addSinusoidal(w.x, { seqLen: 1, dModel: 4 })],
        ['similarity', 'b', () => posenc.similarity(f32(4), w.k, { rows: 1, cols: 1, dim: 4 })],
        ['convertLayout', 'x', () => posenc.convertLayout(w.x, { from: 'half', to: 'interleaved', headDim: 4 })],
        ['RopePlan.apply', 'x', () => withPlan(posenc, rope, (plan) => plan.apply(w.x))],
      ];
      for (const [fn, parameter, call] of calls({ x: retired, out: retired, k: retired })) {
        assertThrowsSeamError(call, RangeError, parameter, fn, `${fn}: ${parameter} a retired window`);
      }
      assertSameBits(retiredArray.toArray(), f32(8, 50), "a retired window's array is untouched");
      for (const [fn, parameter, call] of calls({ x: foreign, out: foreign, k: foreign })) {
        assertThrowsSeamError(call, TypeError, parameter, fn, `${fn}: ${parameter} a window of another instance`);
      }
      array.free();
      const reused = posenc.allocate(f32(16, 100)); // malloc hands out the freed block again
      assert.equal(reused.address, array.address, 'the freed block is reused');
      for (const [fn, parameter, call] of calls(windows)) {
        const error = assertThrowsSeamError(
          call,
          RangeError,
          parameter,
          fn,
          `${fn}: ${parameter} a window of a freed array`,
        );
        assert.match(error.message, /window \(subarray\) of a WasmArray that was already freed/);
      }
      assertSameBits(reused.toArray(), f32(16, 100), 'the array now at that address is untouched');
      for (const method of ['view', 'toArray', 'subarray', 'set']) {
        const error = assertThrowsSeamError(
          () => windows.x[method]([1]),
          RangeError,
          'this',
          `WasmArray.${method}`,
          `window.${method} after its array was freed`,
        );
        assert.match(error.message, /the WasmArray of this window \(subarray\) was already freed/);
      }
      windows.x.free(); // retiring a window of a freed array does nothing
      for (const w of [reused, retiredArray]) w.free();
      assert.deepEqual(heapProbe(posenc), start, 'malloc is where it started');
      assertStillWorks(posenc, 'freed windows');
    });

    it('subarray(begin, end) with odd indices: numbers only (no valueOf runs), integers in [-length, length], end >= begin', async () => {
      const posenc = await freshInstance(shared);
      const array = posenc.allocate(f32(8));
      const plain = f32(8);
      const runs = { count: 0 };
      const coercible = (value) => ({
        valueOf() {
          runs.count++;
          array.free(); // what a hostile valueOf would do, if it ran
          return value;
        },
      });
      try {
        // Valid: the window a Float32Array's subarray gives.
        for (const args of [[], [undefined, undefined], [-0], [-0, -0], [0, -0], [-8], [-3, -1], [8], [8, 8], [2, 2]]) {
          assertSameBits(array.subarray(...args).toArray(), plain.subarray(...args), `subarray(${args.map(String)})`);
        }
        const refused = [
          [[Number.NaN], RangeError, 'begin'],
          [[0, Number.NaN], RangeError, 'end'],
          [[1.5], RangeError, 'begin'],
          [[0, 7.999], RangeError, 'end'],
          [[Number.EPSILON], RangeError, 'begin'],
          [[Infinity], RangeError, 'begin'],
          [[0, -Infinity], RangeError, 'end'],
          [[2 ** 53], RangeError, 'begin'],
          [[0, Number.MAX_VALUE], RangeError, 'end'],
          [[9], RangeError, 'begin'],
          [[-9], RangeError, 'begin'],
          [[0, 9], RangeError, 'end'],
          [[5, 4], RangeError, 'end'],
          [[3, -0], RangeError, 'end'],
          [[-1, -2], RangeError, 'end'],
          [[coercible(1)], TypeError, 'begin'],
          [[0, coercible(4)], TypeError, 'end'],
          [[new Number(1)], TypeError, 'begin'],
          [['1'], TypeError, 'begin'],
          [[1n], TypeError, 'begin'],
          [[null], TypeError, 'begin'],
          [[0, null], TypeError, 'end'],
          [[true], TypeError, 'begin'],
          [[Symbol('1')], TypeError, 'begin'],
          [[revoked({})], TypeError, 'begin'],
        ];
        for (const [args, type, parameter] of refused) {
          assertThrowsSeamError(
            () => array.subarray(...args),
            type,
            parameter,
            'WasmArray.subarray',
            `subarray(${args.map((a) => (typeof a === 'symbol' ? 'a symbol' : typeof a === 'object' && a ? 'an object' : String(a))).join(', ')})`,
          );
        }
        assert.equal(runs.count, 0, 'no valueOf ran');
        assert.equal(array.freed, false);
        assertSameBits(array.toArray(), f32(8), 'the array is untouched');
      } finally {
        array.free();
      }
      assertThrowsSeamError(
        () => array.subarray(0, 1),
        RangeError,
        'this',
        'WasmArray.subarray',
        'subarray of a freed array',
      );
      assertStillWorks(posenc, 'subarray indices');
    });

    it('overlapping windows of one array: out partly over x, q and k sharing memory, cos over sin are RangeErrors; the same range is in place', async () => {
      const posenc = await freshInstance(shared);
      const array = posenc.allocate(f32(32));
      const w = (begin, end) => array.subarray(begin, end);
      const rope = { seqLen: 2, headDim: 4 };
      try {
        const refused = [
          ['rope', 'out', () => posenc.rope(w(0, 8), { ...rope, out: w(4, 12) })],
          ['rope', 'out', () => posenc.rope(w(4, 12), { ...rope, out: w(0, 8) })],
          ['rope', 'out', () => posenc.rope(w(0, 8), { ...rope, out: w(0, 16).subarray(1, 9) })],
          ['rope', 'out', () => posenc.rope(w(0, 8), { ...rope, out: array.view().subarray(7, 15) })],
          ['ropeQK', 'k', () => posenc.ropeQK(w(0, 8), w(7, 15), rope)],
          ['ropeQK', 'k', () => posenc.ropeQK(w(0, 8), w(0, 8), rope)],
          ['ropeQK', 'out.k', () => posenc.ropeQK(w(0, 8), w(8, 16), { ...rope, out: { q: w(16, 24), k: w(20, 28) } })],
          [
            'ropeQK',
            /^out\.(q|k)$/,
            () => posenc.ropeQK(w(0, 8), w(8, 16), { ...rope, out: { q: w(9, 17), k: w(24, 32) } }),
          ],
          ['RopePlan.applyQK', 'k', () => withPlan(posenc, rope, (plan) => plan.applyQK(w(0, 8), w(4, 12)))],
          ['RopePlan.apply', 'out', () => withPlan(posenc, rope, (plan) => plan.apply(w(0, 8), { out: w(2, 10) }))],
          [
            'ropeCache',
            'out.sin',
            () => posenc.ropeCache({ seqLen: 2, rotaryDim: 8, out: { cos: w(0, 8), sin: w(4, 12) } }),
          ],
          [
            'ropeCache',
            'out.sin',
            () => posenc.ropeCache({ seqLen: 2, rotaryDim: 8, out: { cos: w(0, 8), sin: w(0, 8) } }),
          ],
          [
            'similarity',
            'out',
            () => posenc.similarity(w(0, 8), w(8, 16), { rows: 2, cols: 2, dim: 4, out: w(6, 10) }),
          ],
          [
            'convertLayout',
            'out',
            () => posenc.convertLayout(w(0, 8), { from: 'half', to: 'interleaved', headDim: 4, out: w(0, 8) }),
          ],
        ];
        for (const [fn, parameter, call] of refused) {
          assertThrowsSeamError(call, RangeError, parameter, fn, `${fn}: ${parameter} overlapping`);
          assertSameBits(array.toArray(), f32(32), `${fn}: nothing written`);
        }
        // The same range, as another window (or a view of it), is in place.
        const expected = posenc.rope(f32(8, 5), rope);
        posenc.rope(w(4, 12), { ...rope, out: w(0, 16).subarray(4, 12) });
        assertSameBits(array.toArray().subarray(4, 12), expected, 'out the same range: rotated in place');
        assertSameBits(array.toArray().subarray(12), f32(20, 13), 'the rest untouched');
        assertSameBits(array.toArray().subarray(0, 4), f32(4), 'the rest untouched');
      } finally {
        array.free();
      }
      assertStillWorks(posenc, 'overlapping windows');
    });

    it('memory growth in a getter while a window is an argument: the window is re-read from the grown memory', async () => {
      const posenc = await freshInstance(shared);
      const data = randomNormal(16, 103);
      const expected = posenc.rope(data.slice(), { seqLen: 2, headDim: 8, offset: 9 });
      const array = posenc.allocate(Float32Array.of(7, ...data, 7));
      const x = array.subarray(1, 17);
      const before = posenc.memoryBytes;
      const getter = countingGetter(9, () => growMemory(posenc));
      posenc.rope(x, {
        seqLen: 2,
        headDim: 8,
        get offset() {
          return getter.get();
        },
      });
      assert.ok(posenc.memoryBytes > before, 'the getter grew the memory');
      assertSameBits(x.toArray(), expected, 'rotated in place in the grown memory');
      assertSameBits(array.toArray(), Float32Array.of(7, ...expected, 7), 'only the window written');
      assert.equal(getter.reads, 1);
      array.free();
      assertStillWorks(posenc, 'growth with windows');
    });
  });
}

/**
 * One call of every operation, errors ignored: whatever an implementation sets up on first use
 * (a scratch arena, say) is in place before a test takes its first heap probe.
 */
function warmUp(posenc) {
  for (const call of Object.values(everyFunction(posenc))) {
    try {
      call();
    } catch {
      // only the allocations matter here
    }
  }
  try {
    posenc.rope(new Float32Array(4096 * 64), { seqLen: 4096, headDim: 64 });
  } catch {
    // as above
  }
}

/** Runs body(w) with a fresh 8-element WasmArray w, freed afterwards. */
function withArray(posenc, body) {
  const w = posenc.allocate(8);
  try {
    return body(w);
  } finally {
    w.free();
  }
}

/** Runs body() with Float32Array.prototype.length lying (8), restored afterwards. */
function withOverriddenLength(body) {
  Object.defineProperty(Float32Array.prototype, 'length', {
    get() {
      return 8;
    },
    configurable: true,
  });
  try {
    return body();
  } finally {
    delete Float32Array.prototype.length;
  }
}

/** One small valid call of every public operation, each returning a Float32Array/Float64Array. */
function everyFunction(posenc) {
  const x = randomNormal(4 * 8, 99);
  const rope = { seqLen: 4, headDim: 8 };
  return {
    sinusoidal: () => posenc.sinusoidal({ seqLen: 4, dModel: 8, offset: 2 }),
    addSinusoidal: () => posenc.addSinusoidal(x.slice(), { seqLen: 4, dModel: 8, positions: [1, 2, 3, 4] }),
    positionNumbers: () => posenc.positionNumbers({ seqLen: 4, dModel: 2, offset: 1 }),
    ropeFrequencies: () => posenc.ropeFrequencies({ rotaryDim: 8 }),
    ropeSchedule: () =>
      posenc.ropeSchedule({ rotaryDim: 8, scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 16 } })
        .invFreq,
    ropeCache: () => posenc.ropeCache({ seqLen: 4, rotaryDim: 8, positions: [0, 3, 6, 9] }).sin,
    rope: () => posenc.rope(x.slice(), { ...rope, offset: [7] }),
    ropeQK: () => posenc.ropeQK(x.slice(), x.slice(), rope).k,
    ropePlan: () => withPlan(posenc, rope, (plan) => plan.apply(x.slice(), { offset: 3 })),
    convertLayout: () => posenc.convertLayout(x, { from: 'interleaved', to: 'half', headDim: 8 }),
    convertLayoutWeights: () =>
      posenc.convertLayoutWeights(x, { from: 'half', to: 'interleaved', numHeads: 1, headDim: 8, hidden: 4 }),
    similarity: () => posenc.similarity(x, x, { rows: 4, cols: 4, dim: 8, metric: 'cosine' }),
    relativePositionBuckets: () => posenc.relativePositionBuckets({ queryLen: 4, keyLen: 9, offset: 2 }),
    attentionScores: () =>
      posenc.attentionScores(x, x, { queryLen: 4, keyLen: 4, headDim: 8, encoding: 'rope', causal: true }),
    allocate: () => withWasm(posenc.allocate(x), (w) => w.toArray()),
    'WasmArray.set': () => withWasm(posenc.allocate(40), (w) => w.set(x, 4).toArray()),
  };
}

function withWasm(w, body) {
  try {
    return body(w);
  } finally {
    w.free();
  }
}

function withPlan(posenc, options, body) {
  const plan = posenc.ropePlan(options);
  try {
    return body(plan);
  } finally {
    plan.free();
  }
}

// ---- half precision: the dtype option and 16-bit arrays under attack --------------------------

for (const shared of variants) {
  describe(`seam: hostile half-precision arguments (${shared.variant})`, () => {
    const shape = { seqLen: 2, numHeads: 2, headDim: 4, offset: 5 };
    const bits = () => Uint16Array.from({ length: 16 }, (_, i) => 0x3c00 + 37 * i); // float16 1..
    /** A clean call's bits: rope of bits() in `dtype`. */
    const clean = (posenc, dtype) => posenc.rope(bits(), { ...shape, dtype });

    it('a dtype getter runs once: one that throws is a TypeError naming dtype; one that changes its answer gives the first', async () => {
      const posenc = await freshInstance(shared);
      const throwing = { ...shape };
      Object.defineProperty(throwing, 'dtype', {
        enumerable: true,
        get() {
          throw new Error('no dtype here');
        },
      });
      assertSeamError(outcome(() => posenc.rope(bits(), throwing)).error, TypeError, 'dtype', 'rope', 'throwing');
      const getter = countingGetter('bfloat16');
      const fickle = { ...shape };
      Object.defineProperty(fickle, 'dtype', {
        enumerable: true,
        get: () => {
          getter.get();
          return getter.reads === 1 ? 'bfloat16' : 'float16';
        },
      });
      assertSameBits(posenc.rope(bits(), fickle), clean(posenc, 'bfloat16'), 'the first answer');
      assert.equal(getter.reads, 1, 'dtype read once');
      const planOptions = { seqLen: 2, numHeads: 2, headDim: 4 };
      const planGetter = countingGetter('float16');
      Object.defineProperty(planOptions, 'dtype', {
        enumerable: true,
        get: () => {
          planGetter.get();
          return planGetter.reads === 1 ? 'float16' : 'bfloat16';
        },
      });
      const plan = posenc.ropePlan(planOptions);
      assert.equal(plan.dtype, 'float16');
      assertSameBits(plan.apply(bits(), { offset: 5 }), clean(posenc, 'float16'), 'a plan: the first answer');
      assert.equal(planGetter.reads, 1, "a plan's dtype read once");
      plan.free();
      assertStillWorks(posenc, 'dtype getters');
    });

    it('what an array is comes from the engine: a Proxy, a subclass, a spoofed toStringTag or length cannot pass for another dtype', async () => {
      const posenc = await freshInstance(shared);
      const proxy = new Proxy(bits(), {});
      assertSeamError(
        outcome(() => posenc.rope(proxy, { ...shape, dtype: 'float16' })).error,
        TypeError,
        'x',
        'rope',
        'a Proxy around a Uint16Array',
      );
      class Spoofed extends Uint16Array {
        get [Symbol.toStringTag]() {
          return 'Float16Array';
        }
        get length() {
          return 1;
        }
      }
      const spoofed = Spoofed.from(bits());
      const error = assertSeamError(
        outcome(() => posenc.rope(spoofed, shape)).error,
        TypeError,
        'x',
        'rope',
        'a Uint16Array subclass claiming to be a Float16Array',
      );
      assert.match(error.message, /Uint16Array without a dtype/);
      posenc.rope(spoofed, { ...shape, dtype: 'float16' });
      assertSameBits(new Uint16Array(spoofed.buffer), clean(posenc, 'float16'), 'all 16 rotated (its own length)');
      const tagged = new Float32Array(16);
      Object.defineProperty(tagged, Symbol.toStringTag, { get: () => 'Uint16Array' });
      assertSeamError(
        outcome(() => posenc.rope(tagged, { ...shape, dtype: 'bfloat16' })).error,
        TypeError,
        'x',
        'rope',
        'a Float32Array tagged Uint16Array',
      );
      const fakeWasm = Object.create(WasmArray.prototype);
      assertSeamError(
        outcome(() => posenc.rope(fakeWasm, { ...shape, dtype: 'float16' })).error,
        TypeError,
        'x',
        'rope',
        'an object made from WasmArray.prototype',
      );
      assertStillWorks(posenc, 'spoofed arrays');
    });

    it("Object.prototype.dtype = 'float16' changes nothing: float32 stays float32, a Uint16Array still needs its own dtype", async () => {
      const posenc = await freshInstance(shared);
      const x = randomNormal(16, 3);
      const expected = posenc.rope(x.slice(), shape);
      withPollution('dtype', 'float16', () => {
        assertSameBits(posenc.rope(x.slice(), shape), expected, 'float32 rope');
        assert.equal(posenc.allocate(4).dtype, 'float32');
        assert.equal(posenc.ropePlan({ seqLen: 1, headDim: 4 }).dtype, 'float32');
        assertSeamError(outcome(() => posenc.rope(bits(), shape)).error, TypeError, 'x', 'rope', 'polluted');
        assert.equal(posenc.sinusoidal({ seqLen: 2, dModel: 4 }).constructor, Float32Array);
      });
      assertStillWorks(posenc, 'dtype pollution');
    });

    it('a getter that frees a half WasmArray, or grows memory, mid-call: RangeError naming x, or the bits of a clean call', async () => {
      for (const dtype of ['float16', 'bfloat16']) {
        const posenc = await freshInstance(shared);
        const x = posenc.allocate(bits(), { dtype });
        const freeing = freeingGetter(posenc, x, 1, 5, { reallocate: false });
        const options = { ...shape, dtype };
        Object.defineProperty(options, 'offset', { enumerable: true, get: freeing.get });
        assertSeamError(outcome(() => posenc.rope(x, options)).error, RangeError, 'x', 'rope', `${dtype}: freed`);
        const probe = heapProbe(posenc);
        const growingOffset = () => {
          growMemory(posenc);
          return 5;
        };
        const y = posenc.allocate(bits(), { dtype });
        const growing = { ...shape };
        Object.defineProperty(growing, 'offset', { enumerable: true, get: growingOffset });
        posenc.rope(y, growing);
        assertSameBits(y.toArray(), clean(posenc, dtype), `${dtype}: memory grown by a getter`);
        const js = bits();
        const growingJs = { ...shape, dtype };
        Object.defineProperty(growingJs, 'offset', { enumerable: true, get: growingOffset });
        assertSameBits(posenc.rope(js, growingJs), clean(posenc, dtype), `${dtype}: JS array, memory grown`);
        y.free();
        assert.deepEqual(heapProbe(posenc), probe, `${dtype}: malloc sane`);
        assertStillWorks(posenc, `${dtype}: free and growth in getters`);
      }
    });
  });
}
