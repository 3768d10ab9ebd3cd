// Reading a GPU method's options once: its own keys (buffers, the command encoder, the bounds
// of positions that live on the GPU) set apart, and every other option copied into plain data
// (own enumerable properties, each read once, lists and typed arrays copied) that posenc's CPU
// layer then validates as it validates its own calls. After this, no code of the caller runs.
import { describe, rangeError, readError, typeError } from '../js/errors.js';
import { isArray, typedArrayKind } from '../js/intrinsics.js';
import { readSize } from '../js/snapshot.js';

const DEPTH = 4; // options nest two levels (scaling, xpos, mrope.section); deeper is left to the CPU's checks

/** A plain copy of a value, read once, that the CPU layer's snapshot then reads without running user code. */
function plainCopy(fn, name, value, depth) {
  if (value === null || typeof value !== 'object' || depth > DEPTH) return value;
  const kind = typedArrayKind(value);
  if (kind !== undefined) return new globalThis[kind](value); // element copy through the internal slots
  let keys;
  let array;
  try {
    array = isArray(value);
    keys = array ? undefined : Object.keys(value);
  } catch (error) {
    throw readError(fn, name, error);
  }
  const read = (key, at) => {
    try {
      return value[key];
    } catch (error) {
      throw readError(fn, at, error);
    }
  };
  if (array) {
    const length = read('length', name);
    const copy = [];
    for (let i = 0; i < length; i++) copy.push(plainCopy(fn, `${name}[${i}]`, read(i, `${name}[${i}]`), depth + 1));
    return copy;
  }
  const copy = {};
  for (const key of keys) {
    const at = name === 'options' ? key : `${name}.${key}`;
    copy[key] = plainCopy(fn, at, read(key, at), depth + 1);
  }
  return copy;
}

/**
 * `{ gpu, cpu }`: the values of `gpuKeys` as given (buffers are checked by buffers.js) and a
 * plain copy of the rest. `keepAsGiven` lists keys whose value is a buffer or a list (positions).
 */
export function splitOptions(fn, options, gpuKeys) {
  if (options === undefined) options = {};
  if (options === null || typeof options !== 'object' || isArray(options))
    throw typeError(fn, 'options', `must be an object (got ${describe(options)})`);
  const all = plainCopyTop(fn, options, gpuKeys);
  const gpu = {};
  const cpu = {};
  for (const [key, value] of Object.entries(all)) (gpuKeys.includes(key) ? gpu : cpu)[key] = value;
  return { gpu, cpu };
}

/** The top level: GPU keys kept as the values they are (a GPUBuffer is not copied), the rest copied. */
function plainCopyTop(fn, options, gpuKeys) {
  let keys;
  try {
    keys = Object.keys(options);
  } catch (error) {
    throw readError(fn, 'options', error);
  }
  const out = {};
  for (const key of keys) {
    let value;
    try {
      value = options[key];
    } catch (error) {
      throw readError(fn, key, error);
    }
    if (value === undefined) continue;
    out[key] = gpuKeys.includes(key) && !isPlainList(value) ? value : plainCopy(fn, key, value, 1);
  }
  return out;
}

/** A typed array or an Array (positions given on the CPU), as opposed to a buffer. */
export function isPlainList(value) {
  return typedArrayKind(value) !== undefined || isArray(value);
}

/** A GPUCommandEncoder to record into, or undefined (the method submits its own). */
export function readEncoder(fn, value) {
  if (value === undefined) return undefined;
  if (typeof GPUCommandEncoder === 'function' && value instanceof GPUCommandEncoder) return value;
  throw typeError(fn, 'encoder', `must be a GPUCommandEncoder (got ${describe(value)})`);
}

/** A choice among `names`, or the fallback. */
export function readChoice(fn, name, value, names, fallback) {
  if (value === undefined) return fallback;
  if (names.includes(value)) return value;
  throw typeError(fn, name, `must be one of ${names.map((n) => `'${n}'`).join(', ')} (got ${describe(value)})`);
}

/** A size option that must be given. */
export function requiredSize(fn, name, value, rule) {
  if (value === undefined) throw typeError(fn, name, `is required ${rule}`);
  return readSize(fn, name, value);
}

/** A GPU method's dtype: 'float32' (the default) or one of `allowed`. */
export function readDtype(fn, value, allowed = ['float32']) {
  if (value === undefined) return 'float32';
  if (allowed.includes(value)) return value;
  const words = allowed.map((d) => `'${d}'`).join(' or ');
  throw rangeError(fn, 'dtype', `must be ${words} here on the GPU (got ${describe(value)})`);
}
