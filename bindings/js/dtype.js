// The element type of a call's arrays, its dtype: 'float32' (a Float32Array), 'float16' (a
// Float16Array where the engine has one, else a Uint16Array of the bits) or 'bfloat16' (a
// Uint16Array of the bits). A Float32Array, a Float16Array and a WasmArray say their dtype; a
// Uint16Array holds 16-bit patterns that may be either half type, so the call must name it.
import { dtypeConflictError } from './errors.js';
import { Float16ArrayType } from './intrinsics.js';

/** Bytes per element of a dtype. */
export const elementBytes = (dtype) => (dtype === 'float32' ? 4 : 2);

/** The typed array an element's bits are copied through: Float32Array, or Uint16Array for the half types. */
export const storageType = (dtype) => (dtype === 'float32' ? Float32Array : Uint16Array);

/** The typed array of a dtype's values, as calls return them and view() makes them. */
export function arrayType(dtype) {
  if (dtype === 'float32') return Float32Array;
  return dtype === 'float16' && Float16ArrayType !== undefined ? Float16ArrayType : Uint16Array;
}

/** The dtype a typed array's kind says (undefined for a Uint16Array: float16 or bfloat16 bits). */
const KIND_DTYPES = { __proto__: null, Float32Array: 'float32', Float16Array: 'float16' };
export const kindDtype = (kind) => KIND_DTYPES[kind];

/** Whether typed arrays of this kind hold tensors (the rest are refused). */
export const isTensorKind = (kind) => kind === 'Float32Array' || kind === 'Float16Array' || kind === 'Uint16Array';

/**
 * The dtype of one call over its classified arrays (memory.js Argument): `declared` (the dtype
 * option, or a plan's; undefined when not given), else the first array that says its own, else
 * float32. Every array must agree, and a Uint16Array needs a declared half dtype; each argument
 * then holds the dtype. `declarer` is what declared it, for errors: 'dtype' or 'plan'.
 */
export function settleDtype(fn, declared, args, declarer = 'dtype') {
  const implied = args.find((argument) => argument.dtype !== undefined);
  const dtype = declared ?? implied?.dtype ?? 'float32';
  for (const argument of args) {
    const agrees =
      argument.dtype === undefined ? declared !== undefined && dtype !== 'float32' : argument.dtype === dtype;
    if (!agrees) throw dtypeConflictError(fn, argument, dtype, declared === undefined ? implied : declarer);
  }
  for (const argument of args) argument.dtype = dtype; // a Uint16Array's, now known (its bits copy alike)
  return dtype;
}
