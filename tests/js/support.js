// Shared test support: loading both WASM builds, the precision contract, seeded random data,
// golden files and the comparisons every suite uses (each reports the worst element).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { loadPosenc } from '../../bindings/js/node.js';
import precision from '../precision.json' with { type: 'json' };
import { forEachRopePair } from './reference.js';

// ---- the precision contract (docs/precision.md) -----------------------------------------------
/** Every sinusoidal (and cos/sin cache) value is within this of the float64 value. */
export const TABLE_BOUND = precision.tableBound;
/** Every rotated RoPE component is within ROPE_EPS * (|x_a| + |x_b|) of float64, per pair. */
export const ROPE_EPS = precision.ropeBound;
/** Unit roundoff of float32. */
export const U32 = 2 ** -24;

/** Both builds, SIMD first: every suite runs for each. */
export async function loadBothVariants() {
  return Promise.all([loadPosenc({ simd: true }), loadPosenc({ simd: false })]);
}

/** A golden file written by scripts/make_golden.py. */
export function readGolden(name) {
  return JSON.parse(readFileSync(new URL(`../golden/${name}`, import.meta.url), 'utf8'));
}

// ---- seeded random data: the project's one generator (widgets/random.js) ---------------------------
export { randomNormal, seededRandom } from '../../widgets/random.js';
export { randomIntegers as randomPositions } from '../../widgets/random.js';

/** Distance from |v| to the next float32 (one float32 step at v). */
export function ulp32(v) {
  const a = Math.abs(v);
  if (a < 2 ** -126) return 2 ** -149;
  return 2 ** (Math.floor(Math.log2(a)) - 23);
}

// ---- comparisons ----------------------------------------------------------------------------------

function describeIndex(index, actual, expected, bound) {
  return `[${index}]: got ${actual[index]}, expected ${expected[index]}, error ${Math.abs(actual[index] - expected[index]).toExponential(3)} > bound ${bound.toExponential(3)}`;
}

/**
 * Asserts |actual[i] - expected[i]| <= bound(i) (bound: number or function of i) for every i.
 * Returns the largest error.
 */
export function assertClose(actual, expected, bound, label) {
  assert.equal(actual.length, expected.length, `${label}: length`);
  const boundAt = typeof bound === 'function' ? bound : () => bound;
  let worst = 0;
  const failures = [];
  for (let i = 0; i < actual.length; i++) {
    const error = Math.abs(actual[i] - expected[i]);
    const limit = boundAt(i);
    if (!(error <= limit)) failures.push(describeIndex(i, actual, expected, limit));
    if (error > worst || Number.isNaN(error)) worst = Number.isNaN(error) ? Infinity : error;
  }
  assert.ok(
    failures.length === 0,
    `${label}: ${failures.length} of ${actual.length} values out of bound, first ${failures.slice(0, 3).join('; ')}`,
  );
  return worst;
}

/** Asserts the arrays hold the same float32 bits (NaN-free data). */
export function assertIdentical(actual, expected, label) {
  assert.equal(actual.length, expected.length, `${label}: length`);
  for (let i = 0; i < actual.length; i++) {
    if (!Object.is(actual[i], expected[i])) {
      assert.fail(`${label}: first difference at [${i}]: ${actual[i]} vs ${expected[i]}`);
    }
  }
}

/** |x_a| + |x_b| of the rotary pair holding each element of x; NaN for pass-through channels. */
export function ropePairScales(x, options) {
  const scales = new Float64Array(x.length).fill(Number.NaN);
  forEachRopePair(options, (a, b) => {
    scales[a] = scales[b] = Math.abs(x[a]) + Math.abs(x[b]);
  });
  return scales;
}

/**
 * Asserts a RoPE result against a float64 reference, pair by pair:
 * |out_a - ref_a| and |out_b - ref_b| <= eps * (|x_a| + |x_b|); channels outside the rotary
 * pairs must equal x exactly. Returns the largest error relative to |x_a| + |x_b|.
 */
export function assertRopeClose(actual, x, expected, options, label, eps = ROPE_EPS) {
  assert.equal(actual.length, x.length, `${label}: length`);
  const scales = ropePairScales(x, options);
  let worst = 0;
  const failures = [];
  for (let i = 0; i < x.length; i++) {
    if (Number.isNaN(scales[i])) {
      if (!Object.is(actual[i], Math.fround(x[i])))
        failures.push(`[${i}] is a pass-through channel: got ${actual[i]}, expected ${x[i]}`);
      continue;
    }
    const error = Math.abs(actual[i] - expected[i]);
    if (!(error <= eps * scales[i])) failures.push(describeIndex(i, actual, expected, eps * scales[i]));
    if (scales[i] > 0) worst = Math.max(worst, error / scales[i]);
  }
  assert.ok(
    failures.length === 0,
    `${label}: ${failures.length} values out of bound, first ${failures.slice(0, 3).join('; ')}`,
  );
  return worst;
}

/**
 * Error bound of a float32 dot product of n terms in any summation order (sequential,
 * SIMD lanes + reduction): gamma(n + 1) * sum |a_i b_i|, gamma(k) = k u / (1 - k u)
 * (Higham, Accuracy and Stability of Numerical Algorithms, 3.1); +1 for the products.
 */
export function dotErrorBound(n, absSum) {
  const k = n + 1;
  return ((k * U32) / (1 - k * U32)) * absSum;
}

/** Asserts that fn() throws `type` with error.parameter === parameter and a message naming it. */
export function assertParameterError(fn, type, parameter, label = '') {
  let caught;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught !== undefined, `${label}: expected a ${type.name} naming ${parameter}, nothing was thrown`);
  assert.ok(
    caught instanceof type,
    `${label}: expected a ${type.name}, got ${caught?.constructor?.name}: ${caught?.message}`,
  );
  const expected = parameter instanceof RegExp ? parameter : new RegExp(`^${parameter.replace(/[[\]]/g, '\\$&')}$`);
  assert.match(String(caught.parameter), expected, `${label}: error.parameter (message: ${caught.message})`);
  assert.ok(
    caught.message.includes(String(caught.parameter)),
    `${label}: message "${caught.message}" does not name ${caught.parameter}`,
  );
  return caught;
}

/** The instance still computes correctly (after an error): a table row and one rotation. */
export function assertStillWorks(posenc, label) {
  const row = Array.from(posenc.sinusoidal({ seqLen: 2, dModel: 4 }).subarray(4));
  assert.deepEqual(
    row,
    [Math.sin(1), Math.cos(1), Math.sin(0.01), Math.cos(0.01)].map(Math.fround),
    `${label}: sinusoidal after the error`,
  );
  const rotated = Array.from(posenc.rope(Float32Array.of(1, 0), { seqLen: 1, headDim: 2, offset: 1 }));
  assert.deepEqual(rotated, [Math.cos(1), Math.sin(1)].map(Math.fround), `${label}: rope after the error`);
}
