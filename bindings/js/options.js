// Reading and checking the JS-side shape of arguments: types, integers, enums, arrays.
// Size limits and numeric rules are the core's (see errors.js); these checks make sure only
// well-typed values reach it.
import { WasmArray } from './wasm-array.js';
import { describe, rangeError, typeError } from './errors.js';

const UINT32_MAX = 0xffffffff;
const INT32_MAX = 0x7fffffff;

/** The options object, checked for type and for unknown (e.g. misspelled) keys. */
export function readOptions(fn, options, allowed) {
  if (options === undefined) options = {};
  if (options === null || typeof options !== 'object' || Array.isArray(options) || ArrayBuffer.isView(options)) {
    throw typeError(fn, 'options', `must be an object (got ${describe(options)})`);
  }
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) {
      throw typeError(fn, 'options', `has an unknown option ${JSON.stringify(key)} (known: ${allowed.join(', ')})`);
    }
  }
  return options;
}

/** A non-negative integer that fits the core's uint32 fields; upper limits are the core's. */
export function readSize(fn, name, value, fallback) {
  if (value === undefined) {
    if (fallback === undefined) throw typeError(fn, name, 'is required');
    return fallback;
  }
  if (typeof value !== 'number') throw typeError(fn, name, `must be a number (got ${describe(value)})`);
  if (!Number.isInteger(value) || value < 0 || value > UINT32_MAX) {
    throw rangeError(fn, name, `must be a non-negative integer (got ${describe(value)})`);
  }
  return value;
}

/** A number; whether it is a valid base is the core's rule (finite, > 0). */
export function readNumber(fn, name, value, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== 'number') throw typeError(fn, name, `must be a number (got ${describe(value)})`);
  return value;
}

/** One of the names of an Embind enum, returned as the enum value. */
export function readEnum(fn, name, value, fallback, embindEnum) {
  if (value === undefined) value = fallback;
  if (typeof value !== 'string') throw typeError(fn, name, `must be a string (got ${describe(value)})`);
  const names = Object.keys(embindEnum).filter((key) => key !== 'values');
  if (!names.includes(value)) {
    throw rangeError(fn, name, `must be ${names.map((n) => `'${n}'`).join(' or ')} (got ${describe(value)})`);
  }
  return embindEnum[value];
}

/** A Float32Array or a WasmArray of this instance, of exactly `length` elements. */
export function readFloatArray(fn, name, value, length, instance) {
  if (value instanceof WasmArray) {
    if (value.instance !== instance) throw typeError(fn, name, 'is a WasmArray of another posenc instance');
    if (value.freed) throw rangeError(fn, name, 'is a WasmArray that was already freed');
  } else if (!(value instanceof Float32Array)) {
    throw typeError(fn, name, `must be a Float32Array or a WasmArray (got ${describe(value)})`);
  }
  if (value.length !== length) {
    const detached = value instanceof Float32Array && value.buffer.byteLength === 0 && length > 0;
    throw rangeError(fn, name, detached
      ? 'is backed by a detached ArrayBuffer'
      : `must hold ${length} elements for the given shape (got ${value.length})`);
  }
  return value;
}

/** Explicit integer positions: an Int32Array, Uint32Array or Array of `length` integers. */
export function readPositions(fn, value, length, maxPosition) {
  if (!(value instanceof Int32Array || value instanceof Uint32Array || Array.isArray(value))) {
    throw typeError(fn, 'positions', `must be an Int32Array, Uint32Array or Array of integers (got ${describe(value)})`);
  }
  if (value.length !== length) {
    throw rangeError(fn, 'positions', `must hold seqLen = ${length} positions (got ${value.length})`);
  }
  const max = Math.min(maxPosition, INT32_MAX);
  for (let i = 0; i < value.length; i++) {
    const p = value[i];
    if (typeof p !== 'number' || !Number.isInteger(p) || p < 0 || p > max) {
      const error = typeof p === 'number' ? rangeError : typeError;
      throw error(fn, `positions[${i}]`, `must be an integer in [0, ${max}] (got ${describe(p)})`);
    }
  }
  return value;
}
