// Positions and per-sequence offsets as int64: ONNX Runtime hands position_ids over as a
// BigInt64Array. Every function that takes positions takes them as BigInt64Array,
// BigUint64Array or an Array of BigInts, with the bits of the same call on an Int32Array, and
// refuses values outside [0, 2^31 - 1] with a RangeError naming the element.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { assertIdentical, assertParameterError, assertStillWorks, loadBothVariants, randomNormal } from './support.js';

const POSITIONS = [0, 7, 2 ** 31 - 1, 4096]; // batch 2 × seqLen 2, the largest position among them
const OFFSETS = [3, 2 ** 31 - 2]; // one per sequence: the last row of the second at 2^31 - 1
const ROPE = { batch: 2, seqLen: 2, numHeads: 2, headDim: 8, layout: 'half' };
const ROPE_LENGTH = 2 * 2 * 2 * 8;

/** The same integers as every list kind positions take. */
const LIST_KINDS = {
  Int32Array: (values) => Int32Array.from(values),
  BigInt64Array: (values) => BigInt64Array.from(values, BigInt),
  BigUint64Array: (values) => BigUint64Array.from(values, BigInt),
  'Array of BigInts': (values) => values.map(BigInt),
  'Array mixing numbers and BigInts': (values) => values.map((v, i) => (i % 2 ? BigInt(v) : v)),
};

/** A result as one Float32Array (the caches' cos and sin, queries and keys, concatenated). */
const flat = (result) =>
  result instanceof Float32Array ? result : Float32Array.of(...Object.values(result).flatMap((a) => [...a]));

for (const posenc of await loadBothVariants()) {
  describe(`int64 positions (${posenc.variant})`, () => {
    const x = randomNormal(ROPE_LENGTH, 1);
    const k = randomNormal(ROPE_LENGTH / 2, 2);
    // Each call given `where` ({ positions } or { offset }), returning plain arrays.
    const calls = {
      sinusoidal: (where) => posenc.sinusoidal({ seqLen: 4, dModel: 6, ...where }),
      addSinusoidal: (where) => posenc.addSinusoidal(x.slice(0, 24), { seqLen: 4, dModel: 6, ...where }),
      ropeCache: (where) => {
        const { cos, sin } = posenc.ropeCache({ batch: 2, seqLen: 2, rotaryDim: 8, ...where });
        return flat({ cos, sin });
      },
      rope: (where) => posenc.rope(x.slice(), { ...ROPE, ...where }),
      ropeQK: (where) => flat(posenc.ropeQK(x.slice(), k.slice(), { ...ROPE, numKvHeads: 1, ...where })),
      'RopePlan.apply': (where) => {
        const plan = posenc.ropePlan(ROPE);
        try {
          return plan.apply(x.slice(), where);
        } finally {
          plan.free();
        }
      },
      'RopePlan.applyQK': (where) => {
        const plan = posenc.ropePlan({ ...ROPE, numKvHeads: 1 });
        try {
          return flat(plan.applyQK(x.slice(), k.slice(), where));
        } finally {
          plan.free();
        }
      },
    };
    const batched = new Set(['ropeCache', 'rope', 'ropeQK', 'RopePlan.apply', 'RopePlan.applyQK']);

    it('positions as BigInt64Array, BigUint64Array or BigInts in an Array: the bits of the Int32Array call', () => {
      for (const [fn, call] of Object.entries(calls)) {
        const expected = call({ positions: Int32Array.from(POSITIONS) });
        for (const [kind, make] of Object.entries(LIST_KINDS)) {
          assertIdentical(call({ positions: make(POSITIONS) }), expected, `${fn}, positions a ${kind}`);
        }
      }
    });

    it('per-sequence offsets as int64 lists too', () => {
      for (const fn of batched) {
        const expected = calls[fn]({ offset: Int32Array.from(OFFSETS) });
        for (const [kind, make] of Object.entries(LIST_KINDS)) {
          assertIdentical(calls[fn]({ offset: make(OFFSETS) }), expected, `${fn}, offset a ${kind}`);
        }
      }
    });

    it('values outside [0, 2^31 - 1] are a RangeError naming the element and quoting the value', () => {
      const outside = [
        ['BigInt64Array', BigInt64Array.of(0n, -1n, 0n, 0n), 'positions[1]', '-1n'],
        ['BigInt64Array', BigInt64Array.of(0n, 0n, 2n ** 31n, 0n), 'positions[2]', '2147483648n'],
        ['BigInt64Array', BigInt64Array.of(-(2n ** 63n), 0n, 0n, 0n), 'positions[0]', '-9223372036854775808n'],
        ['BigUint64Array', BigUint64Array.of(0n, 0n, 0n, 2n ** 64n - 1n), 'positions[3]', '18446744073709551615n'],
        ['Array of BigInts', [0n, 0n, 2n ** 40n, 0n], 'positions[2]', '1099511627776n'],
      ];
      for (const [fn, call] of Object.entries(calls)) {
        for (const [kind, positions, parameter, quoted] of outside) {
          const error = assertParameterError(() => call({ positions }), RangeError, parameter, `${fn}, ${kind}`);
          assert.ok(error.message.startsWith(`posenc.${fn}: `), error.message);
          assert.ok(error.message.includes(`[0, ${posenc.limits.maxPosition}]`), error.message);
          assert.ok(error.message.includes(quoted), `${fn}: "${error.message}" quotes ${quoted}`);
        }
        assertStillWorks(posenc, fn);
      }
      for (const fn of batched) {
        assertParameterError(
          () => calls[fn]({ offset: BigInt64Array.of(5n, -5n) }),
          RangeError,
          'offset[1]',
          `${fn}, a negative int64 offset`,
        );
      }
    });

    it('positions at 2^31 - 1 are the largest accepted, as for Int32Array', () => {
      const last = posenc.limits.maxPosition;
      assertIdentical(
        calls.sinusoidal({ positions: BigInt64Array.of(0n, 1n, BigInt(last), 2n) }),
        calls.sinusoidal({ positions: [0, 1, last, 2] }),
        'sinusoidal at maxPosition',
      );
    });
  });
}
