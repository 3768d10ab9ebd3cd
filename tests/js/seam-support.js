// Support for the seam tests (seam-hostile.test.js, seam-fuzz.test.js): the JS <-> WASM seam
// as docs/api.md ("How arguments are read") defines it. Heap probes, forced memory
// growth, detached and revoked arguments, Object.prototype pollution that always cleans up, and
// the check of a posenc error (class, error.parameter, message prefix).
import assert from 'node:assert/strict';

import { loadPosenc } from '../../bindings/js/node.js';

/**
 * A fresh instance of the same build as `posenc`. The seam tests give each case its own
 * instance: on code that breaks the contract a case can corrupt malloc for good, and the
 * next case must still show its own failure, not "memory access out of bounds".
 */
export function freshInstance(posenc) {
  return loadPosenc({ simd: posenc.simd });
}

/**
 * Where malloc would put a new small (4-byte) and a new large (256 KiB, from the top of the
 * heap) block (as in leaks.test.js, without memoryBytes: these tests grow the memory on
 * purpose), once the plans rope() keeps are freed. A leaked block takes the small probe's place
 * or pushes the large one up.
 */
export function heapProbe(posenc) {
  posenc.freeCachedPlans();
  return mallocProbe(posenc);
}

/** Where malloc would put a new small and a new large block, whatever rope() keeps. */
export function mallocProbe(posenc) {
  const small = posenc.allocate(1);
  const large = posenc.allocate(1 << 16);
  const probe = { small: small.address, large: large.address };
  large.free();
  small.free();
  return probe;
}

/**
 * Grows the WASM memory: allocates (and frees) a WasmArray of more bytes than the whole
 * current memory, which cannot fit. Returns [bytes before, bytes after]; asserts growth.
 */
export function growMemory(posenc) {
  const before = posenc.memoryBytes;
  posenc.allocate(Math.ceil(before / 4) + 1024).free();
  assert.ok(posenc.memoryBytes > before, `memory grew (${before} -> ${posenc.memoryBytes} bytes)`);
  return [before, posenc.memoryBytes];
}

/** Transfers the buffer of `array` away: the array is left detached (length 0). */
export function detach(array) {
  structuredClone(array.buffer, { transfer: [array.buffer] });
  return array;
}

/** A Proxy over `target` that was revoked: every operation on it throws. */
export function revoked(target) {
  const { proxy, revoke } = Proxy.revocable(target, {});
  revoke();
  return proxy;
}

/**
 * Runs body() with Object.prototype[key] = value (enumerable, like a plain assignment) and
 * ALWAYS restores Object.prototype afterwards, whatever body does or throws.
 */
export function withPollution(key, value, body) {
  const previous = Object.getOwnPropertyDescriptor(Object.prototype, key);
  Object.defineProperty(Object.prototype, key, { value, writable: true, enumerable: true, configurable: true });
  try {
    return body();
  } finally {
    if (previous) Object.defineProperty(Object.prototype, key, previous);
    else delete Object.prototype[key];
  }
}

/** error.parameter as a pattern: a string is matched exactly, a RegExp as given. */
function parameterPattern(parameter) {
  return parameter instanceof RegExp ? parameter : new RegExp(`^${parameter.replace(/[.[\]]/g, '\\$&')}$`);
}

/**
 * Asserts that `error` is a posenc argument error: an instance of one of `types`, with a
 * non-empty error.parameter matching `parameter`, named in a message that starts with
 * `posenc.<fn>: ` (a message about `this`, e.g. a freed plan, need not repeat the word).
 */
export function assertSeamError(error, types, parameter, fn, label) {
  const allowed = [types].flat();
  assert.ok(
    error !== undefined,
    `${label}: expected a ${allowed.map((t) => t.name).join('/')} naming ${parameter}, the call returned`,
  );
  assert.ok(
    allowed.some((type) => error instanceof type),
    `${label}: expected a ${allowed.map((t) => t.name).join('/')}, got ${error?.constructor?.name}: ${error?.message ?? error}`,
  );
  assert.equal(typeof error.parameter, 'string', `${label}: error.parameter is a string (message: ${error.message})`);
  assert.ok(error.parameter.length > 0, `${label}: error.parameter is not empty`);
  assert.match(error.parameter, parameterPattern(parameter), `${label}: error.parameter (message: ${error.message})`);
  assert.ok(
    error.message.startsWith(`posenc.${fn}: `),
    `${label}: message "${error.message}" starts with posenc.${fn}: `,
  );
  // ('this', the object whose method was called, is not named: "the plan was already freed".)
  if (error.parameter !== 'this')
    assert.ok(error.message.includes(error.parameter), `${label}: message "${error.message}" names ${error.parameter}`);
  return error;
}

/** Calls call() and returns { result } or { error }. */
export function outcome(call) {
  try {
    return { result: call() };
  } catch (error) {
    return { error };
  }
}

/**
 * Calls call(), which must throw a posenc error (see assertSeamError). If it returns instead,
 * explain(result) says what it gave (default: how many values are not finite).
 */
export function assertThrowsSeamError(call, types, parameter, fn, label, explain = describeResult) {
  const { result, error } = outcome(call);
  if (error === undefined)
    assert.fail(
      `${label}: expected a ${[types]
        .flat()
        .map((t) => t.name)
        .join('/')} naming ${parameter}, the call returned ${explain(result)}`,
    );
  return assertSeamError(error, types, parameter, fn, label);
}

/** A short account of a result: its float arrays' lengths and non-finite counts, numbers as they are. */
export function describeResult(result) {
  const arrays = ArrayBuffer.isView(result) ? { result } : Object(result);
  const parts = [];
  for (const [key, value] of Object.entries(arrays)) {
    if (ArrayBuffer.isView(value)) {
      const bad = Array.prototype.filter.call(value, (v) => !Number.isFinite(v)).length;
      parts.push(`${key}: ${value.length} values${bad ? `, ${bad} not finite` : ''}`);
    } else if (typeof value === 'number') {
      parts.push(`${key}: ${value}`);
    }
  }
  return parts.length ? `(${parts.join('; ')})` : String(result);
}

/** How many elements of two float arrays differ (Object.is), and the first index that does. */
export function differences(actual, expected) {
  let count = Math.abs(actual.length - expected.length);
  let first = -1;
  for (let i = 0; i < Math.min(actual.length, expected.length); i++) {
    if (!Object.is(actual[i], expected[i])) {
      count++;
      if (first < 0) first = i;
    }
  }
  return { count, first };
}

/** Asserts two float arrays hold the same values (Object.is per element: NaN-safe, -0 != 0). */
export function assertSameBits(actual, expected, label) {
  const { count, first } = differences(actual, expected);
  assert.ok(
    count === 0,
    `${label}: ${count} of ${expected.length} values differ` +
      (first >= 0
        ? `, first at [${first}]: got ${actual[first]}, expected ${expected[first]}`
        : ` (length ${actual.length} vs ${expected.length})`),
  );
}

/** Every element finite (no NaN, no ±Infinity). */
export function assertFinite(values, label) {
  const bad = Array.prototype.findIndex.call(values, (v) => !Number.isFinite(v));
  assert.ok(bad < 0, `${label}: [${bad}] is ${values[bad]} (not finite)`);
}
