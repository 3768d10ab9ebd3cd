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

/** A boolean option. */
export function readBoolean(fn, name, value, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw typeError(fn, name, `must be true or false (got ${describe(value)})`);
  return value;
}

/** Whether a value is a list of integers as positions and offsets take them. */
export function isIntegerList(value) {
  return value instanceof Int32Array || value instanceof Uint32Array || Array.isArray(value);
}

/**
 * Explicit integer positions: an Int32Array, Uint32Array or Array of `length` integers in
 * [0, maxPosition]. `name` and `count` word the errors (e.g. 'offset', 'batch = 2', 'offsets').
 */
export function readPositions(fn, value, length, maxPosition,
  { name = 'positions', count = `seqLen = ${length}`, noun = 'positions' } = {}) {
  if (!isIntegerList(value)) {
    throw typeError(fn, name, `must be an Int32Array, Uint32Array or Array of integers (got ${describe(value)})`);
  }
  if (value.length !== length) {
    throw rangeError(fn, name, `must hold ${count} ${noun} (got ${value.length})`);
  }
  const max = Math.min(maxPosition, INT32_MAX);
  for (let i = 0; i < value.length; i++) {
    const p = value[i];
    if (typeof p !== 'number' || !Number.isInteger(p) || p < 0 || p > max) {
      const error = typeof p === 'number' ? rangeError : typeError;
      throw error(fn, `${name}[${i}]`, `must be an integer in [0, ${max}] (got ${describe(p)})`);
    }
  }
  return value;
}

/** A list of numbers (Array, Float64Array or Float32Array), e.g. LongRoPE's factor lists. */
export function readNumberList(fn, name, value) {
  if (!(Array.isArray(value) || value instanceof Float64Array || value instanceof Float32Array)) {
    throw typeError(fn, name, `must be an Array, Float64Array or Float32Array of numbers (got ${describe(value)})`);
  }
  for (let i = 0; i < value.length; i++) {
    if (typeof value[i] !== 'number') throw typeError(fn, `${name}[${i}]`, `must be a number (got ${describe(value[i])})`);
  }
  return value;
}

// ---- long-context scaling ------------------------------------------------------------------------

/**
 * The keys of each scaling type: Hugging Face's rope_scaling keys in camelCase, [required,
 * optional]. (Presence is checked here; the numeric rules are the core's.)
 */
const SCALING_KEYS = {
  default: [[], []],
  linear: [['factor'], []],
  dynamic: [['factor', 'originalMaxPositionEmbeddings'], []],
  yarn: [['factor', 'originalMaxPositionEmbeddings'], ['betaFast', 'betaSlow', 'attentionFactor', 'mscale', 'mscaleAllDim', 'truncate']],
  llama3: [['factor', 'lowFreqFactor', 'highFreqFactor', 'originalMaxPositionEmbeddings'], []],
  longrope: [['shortFactor', 'longFactor', 'originalMaxPositionEmbeddings'], ['factor', 'maxPositionEmbeddings', 'attentionFactor']],
};

/**
 * The `scaling` option as the core's RopeScaling (list addresses still 0), its factor lists
 * (null where unused) and the given values keyed by parameter name, for error messages.
 */
export function readScaling(fn, value, types) {
  const lists = { shortFactor: null, longFactor: null };
  const values = {};
  let o = {};
  let type = 'default';
  if (value !== undefined) {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || ArrayBuffer.isView(value)) {
      throw typeError(fn, 'scaling', `must be an object such as { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 32768 } (got ${describe(value)})`);
    }
    o = value;
    if (o.type === undefined) throw typeError(fn, 'scaling.type', `is required (${Object.keys(SCALING_KEYS).map((t) => `'${t}'`).join(', ')})`);
    readEnum(fn, 'scaling.type', o.type, undefined, types);
    type = o.type;
    const [required, optional] = SCALING_KEYS[type];
    const known = ['type', ...required, ...optional];
    for (const key of Object.keys(o)) {
      if (!known.includes(key)) {
        throw typeError(fn, 'scaling', `has an unknown key ${JSON.stringify(key)} for ${type} scaling (known: ${known.join(', ')})`);
      }
      values[`scaling.${key}`] = o[key];
    }
    for (const key of required) {
      if (o[key] === undefined) throw typeError(fn, `scaling.${key}`, `is required for ${type} scaling`);
    }
    if (type === 'longrope' && o.factor === undefined && o.maxPositionEmbeddings === undefined && o.attentionFactor === undefined) {
      throw typeError(fn, 'scaling.maxPositionEmbeddings', 'is required for longrope scaling unless factor or attentionFactor is given (the attention factor comes from maxPositionEmbeddings / originalMaxPositionEmbeddings)');
    }
    if (type === 'longrope') {
      lists.shortFactor = readNumberList(fn, 'scaling.shortFactor', o.shortFactor);
      lists.longFactor = readNumberList(fn, 'scaling.longFactor', o.longFactor);
    }
  }
  const spec = {
    type: types[type],
    factor: readNumber(fn, 'scaling.factor', o.factor, 1),
    hasFactor: o.factor !== undefined,
    originalMaxPositionEmbeddings: readSize(fn, 'scaling.originalMaxPositionEmbeddings', o.originalMaxPositionEmbeddings, 0),
    maxPositionEmbeddings: readSize(fn, 'scaling.maxPositionEmbeddings', o.maxPositionEmbeddings, 0),
    attentionFactor: readNumber(fn, 'scaling.attentionFactor', o.attentionFactor, 1),
    hasAttentionFactor: o.attentionFactor !== undefined,
    betaFast: readNumber(fn, 'scaling.betaFast', o.betaFast, 32),
    betaSlow: readNumber(fn, 'scaling.betaSlow', o.betaSlow, 1),
    mscale: readNumber(fn, 'scaling.mscale', o.mscale, 0),
    mscaleAllDim: readNumber(fn, 'scaling.mscaleAllDim', o.mscaleAllDim, 0),
    truncate: readBoolean(fn, 'scaling.truncate', o.truncate, true),
    lowFreqFactor: readNumber(fn, 'scaling.lowFreqFactor', o.lowFreqFactor, 1),
    highFreqFactor: readNumber(fn, 'scaling.highFreqFactor', o.highFreqFactor, 4),
    shortFactor: 0,
    longFactor: 0,
    shortFactorCount: lists.shortFactor?.length ?? 0,
    longFactorCount: lists.longFactor?.length ?? 0,
  };
  return { spec, lists, values };
}
