// Reading the caller's arguments once. Each public call first turns its options object into a
// snapshot: own enumerable properties only (anything inherited, e.g. through Object.prototype
// pollution, is ignored), each read exactly once, into plain numbers, strings and private copies of every
// list. Only the snapshot is validated and used afterwards, so no getter, Proxy trap or valueOf
// can change an argument between its check and its use, and none runs once WASM memory is
// touched. Whatever the caller's code throws while being read becomes a TypeError naming the
// parameter.
import { describe, rangeError, readError, typeError } from './errors.js';
import { isArray, isDetached, typedArrayKind, typedArrayParts } from './intrinsics.js';

const UINT32_MAX = 0xffffffff;
const INT32_MAX = 0x7fffffff;
const INT32_MAX_BIGINT = BigInt(INT32_MAX);

/** value[key], turning anything the caller's code throws (a getter, a Proxy trap) into an error naming `parameter`. */
function readProperty(fn, parameter, value, key) {
  try {
    return value[key];
  } catch (error) {
    throw readError(fn, parameter, error);
  }
}

/** The error naming element i of list `name` (made only when needed). */
const element = (name, i) => `${name}[${i}]`;

/** Whether a value is a plain options object (not null, an array, a typed array or a function). */
function isOptionsObject(fn, name, value) {
  if (value === null || typeof value !== 'object') return false;
  return !isArrayValue(fn, name, value) && typedArrayKind(value) === undefined;
}

/**
 * Reads the own enumerable string-keyed properties of `object` (as Object.assign and spread
 * do) once each into `record`, which already holds every known key as its own property (so
 * nothing inherited is ever read from it); a key not in `known` (a Set) is a TypeError naming
 * `name`.
 */
function readOwn(fn, name, object, record, known, what) {
  let keys;
  try {
    keys = Object.keys(object);
  } catch (error) {
    throw readError(fn, name, error);
  }
  for (const key of keys) {
    if (!known.has(key)) {
      throw typeError(fn, name, `has an unknown ${what} ${JSON.stringify(key)} (known: ${[...known].join(', ')})`);
    }
  }
  for (const key of keys) {
    try {
      record[key] = object[key];
    } catch (error) {
      throw readError(fn, name === 'options' ? key : `${name}.${key}`, error);
    }
  }
}

/** The error for a required key that is missing, saying so when an inherited one was ignored. */
function missing(fn, parameter, object, key, rule) {
  let inherited = false;
  try {
    inherited = key in object;
  } catch {
    // a Proxy whose `has` trap throws: nothing to add
  }
  const note = inherited ? ` (an inherited ${key} is ignored: options are read from the object's own properties)` : '';
  return typeError(fn, parameter, `is required${rule ? ` ${rule}` : ''}${note}`);
}

// ---- kinds of values: each reads one given (defined) value --------------------------------------

/** A non-negative integer that fits the core's uint32 fields; upper limits are the core's. */
export function readSize(fn, name, value) {
  if (typeof value !== 'number') throw typeError(fn, name, `must be a number (got ${describe(value)})`);
  if (!Number.isInteger(value) || value < 0 || value > UINT32_MAX) {
    throw rangeError(fn, name, `must be a non-negative integer (got ${describe(value)})`);
  }
  return value;
}

/** A number; which numbers are valid is the core's rule. */
export function readNumber(fn, name, value) {
  if (typeof value !== 'number') throw typeError(fn, name, `must be a number (got ${describe(value)})`);
  return value;
}

export function readBoolean(fn, name, value) {
  if (typeof value !== 'boolean') throw typeError(fn, name, `must be true or false (got ${describe(value)})`);
  return value;
}

/** One of `names` (an enum of the core, by name). */
export function readChoice(fn, name, value, names) {
  if (typeof value !== 'string') throw typeError(fn, name, `must be a string (got ${describe(value)})`);
  if (!names.includes(value))
    throw rangeError(fn, name, `must be ${names.map((n) => `'${n}'`).join(' or ')} (got ${describe(value)})`);
  return value;
}

/** Array.isArray, whose check of a revoked Proxy throws: an error naming `name`. */
function isArrayValue(fn, name, value) {
  try {
    return isArray(value);
  } catch (error) {
    throw readError(fn, name, error);
  }
}

// Typed arrays of integers that positions and offsets take: the int64 ones are ONNX Runtime's
// position_ids (its tensors of type 'int64' hold a BigInt64Array).
const INTEGER_ARRAYS = ['Int32Array', 'Uint32Array', 'BigInt64Array', 'BigUint64Array'];

/** Whether a value is a list of integers as positions and offsets take them. */
export function isIntegerList(fn, name, value) {
  const kind = typedArrayKind(value);
  return INTEGER_ARRAYS.includes(kind) || (kind === undefined && isArrayValue(fn, name, value));
}

/** An element of an integer list as a position (a number), or undefined if it is none. */
function position(p) {
  if (typeof p === 'number') return Number.isInteger(p) && p >= 0 && p <= INT32_MAX ? p : undefined;
  if (typeof p === 'bigint') return p >= 0n && p <= INT32_MAX_BIGINT ? Number(p) : undefined;
  return undefined;
}

// A list's length is checked against the most its parameter may hold (`max`, from the core's
// limits) before anything is read or allocated, and a copy grows as elements arrive, so a length
// that says more than the list holds (a sparse Array, a Proxy) costs no memory ahead of them.
const FIRST_CHUNK = 1 << 16;

/** A list's length (read once, for an Array or array-like) checked against `max`. */
function listLength(fn, name, value, max) {
  const kind = typedArrayKind(value);
  if (kind !== undefined && isDetached(value)) throw rangeError(fn, name, 'is backed by a detached ArrayBuffer');
  const length = kind === undefined ? readProperty(fn, name, value, 'length') : typedArrayParts(value).length;
  if (!Number.isInteger(length) || length < 0 || length > UINT32_MAX)
    throw rangeError(fn, name, `has an invalid length (got ${describe(length)})`);
  if (length > max) throw rangeError(fn, name, `must hold at most ${max} elements (got ${length})`);
  return length;
}

/**
 * A private Int32Array copy of a list of integers in [0, 2^31 - 1] (an Int32Array, Uint32Array,
 * BigInt64Array, BigUint64Array, or an Array of numbers or BigInts) of at most `max` elements:
 * its length read once, each element once.
 */
export function copyIntegers(fn, name, value, max = UINT32_MAX) {
  if (!isIntegerList(fn, name, value)) {
    throw typeError(
      fn,
      name,
      `must be an Int32Array, Uint32Array, BigInt64Array, BigUint64Array or Array of integers (got ${describe(value)})`,
    );
  }
  const length = listLength(fn, name, value, max);
  const measured = typedArrayKind(value) !== undefined; // its length is its memory's
  return readElements(fn, name, value, length, Int32Array, measured, (p, i) => {
    const integer = position(p);
    if (integer === undefined) {
      const error = typeof p === 'number' || typeof p === 'bigint' ? rangeError : typeError;
      throw error(fn, element(name, i), `must be an integer in [0, ${INT32_MAX}] (got ${describe(p)})`);
    }
    return integer;
  });
}

/** A private Float64Array copy of a list of numbers (Array, Float64Array or Float32Array) of at most `max`. */
export function copyNumbers(fn, name, value, max = UINT32_MAX) {
  const kind = typedArrayKind(value);
  if (kind === 'Float64Array' || kind === 'Float32Array') {
    listLength(fn, name, value, max);
    return new Float64Array(value); // element copy, no iterator
  }
  if (kind !== undefined || !isArrayValue(fn, name, value)) {
    throw typeError(fn, name, `must be an Array, Float64Array or Float32Array of numbers (got ${describe(value)})`);
  }
  return copyNumberArray(fn, name, value, max, Float64Array);
}

/** A `Type` (Float64Array, Float32Array) copy of an Array of at most `max` numbers. */
export function copyNumberArray(fn, name, value, max, Type) {
  return readElements(fn, name, value, listLength(fn, name, value, max), Type, false, (v, i) => {
    if (typeof v !== 'number') throw typeError(fn, element(name, i), `must be a number (got ${describe(v)})`);
    return v;
  });
}

/**
 * The `length` elements of an array-like, every index read once, each turned by `read(element,
 * i)` into a slot of a `Type` (a typed array grown as elements arrive, unless the length is
 * `measured`: a typed array's) or, without one, of an Array.
 */
function readElements(fn, name, value, length, Type, measured, read) {
  let copy = Type ? new Type(measured ? length : Math.min(length, FIRST_CHUNK)) : [];
  for (let i = 0; i < length; i++) {
    let v;
    try {
      v = value[i]; // a getter or Proxy trap for an Array; an element read for a typed array
    } catch (error) {
      throw readError(fn, element(name, i), error);
    }
    if (Type && i === copy.length) {
      const grown = new Type(Math.min(length, 2 * copy.length));
      grown.set(copy);
      copy = grown;
    }
    copy[i] = read(v, i);
  }
  return copy;
}

/**
 * A private copy of an Array (only: no typed array, no array-like) of at most `max` elements,
 * each read once by `readElement(fn, name[i], element)`: its length read once, then every index
 * once.
 */
export function copyList(fn, name, value, readElement, max = UINT32_MAX) {
  if (typedArrayKind(value) !== undefined || !isArrayValue(fn, name, value)) {
    throw typeError(fn, name, `must be an Array (got ${describe(value)})`);
  }
  return readElements(fn, name, value, listLength(fn, name, value, max), undefined, false, (v, i) =>
    readElement(fn, element(name, i), v),
  );
}

// ---- options objects ----------------------------------------------------------------------------

const schemaParts = new WeakMap(); // schema -> { keys, kinds, known }, made once

/** The schema as parallel arrays (indexed loops: this runs on every call). */
function partsOf(schema) {
  let parts = schemaParts.get(schema);
  if (!parts) {
    const keys = Object.keys(schema);
    // Every key undefined; spread copies define own properties (they never run an inherited setter).
    const blank = Object.fromEntries(keys.map((key) => [key, undefined]));
    parts = { keys, kinds: keys.map((key) => schema[key]), known: new Set(keys), blank };
    schemaParts.set(schema, parts);
  }
  return parts;
}

/**
 * The snapshot of `options` by `schema`: { name: { read(fn, name, value, context), fallback,
 * required, core } }. Absent options take their fallback (undefined when they have none), or
 * with `core` the core's default of that name (context.defaults); required ones are a TypeError. The snapshot holds every key of the schema as its own property (so no
 * read of a schema key can reach an inherited one) and nothing else.
 */
export function snapshot(fn, options, schema, context, name = 'options') {
  if (options === undefined && name === 'options') options = {};
  if (!isOptionsObject(fn, name, options)) {
    throw typeError(fn, name, `must be an object (got ${describe(options)})`);
  }
  const { keys, kinds, known, blank } = partsOf(schema);
  const result = { ...blank }; // every key own, in one order (one hidden class)
  readOwn(fn, name, options, result, known, name === 'options' ? 'option' : 'key');
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const kind = kinds[i];
    const value = result[key];
    if (value !== undefined) result[key] = kind.read(fn, name === 'options' ? key : `${name}.${key}`, value, context);
    else if (kind.required)
      throw missing(
        fn,
        name === 'options' ? key : `${name}.${key}`,
        options,
        key,
        kind.required === true ? '' : kind.required,
      );
    else result[key] = kind.core === undefined ? kind.fallback : context.defaults[kind.core];
  }
  return result;
}

/** A nested options object (scaling, out: { cos, sin }) read with its own schema. */
export function readObject(fn, name, value, schema, context) {
  return snapshot(fn, value, schema, context, name);
}

export { isOptionsObject };
