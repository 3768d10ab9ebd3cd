// 16-bit floats in plain JavaScript, as a careful demo author converts them where the engine has
// no Float16Array (Node 20), and for bfloat16 everywhere: a 65,536-entry table widens a pattern
// (exact), and narrowing rounds a JS number (a float64) once, to nearest even, with subnormals,
// overflow to ±Inf and a quiet NaN. The bench's JS baselines use them, and the bench's checks
// read posenc's 16-bit results through the same tables (tests/js/half-bits.test.js checks both
// against half.json's exact roundings).

/** A format: fraction bits, exponent bias, and where rounding overflows to infinity. */
function format(fractionBits, exponentBits) {
  const bias = 2 ** (exponentBits - 1) - 1;
  const minExponent = 1 - bias;
  return {
    fractionBits,
    minExponent,
    maxExponent: bias,
    infinity: (2 ** exponentBits - 1) * 2 ** fractionBits,
    quietNaN: (2 ** exponentBits - 1) * 2 ** fractionBits + 2 ** (fractionBits - 1),
    // Halfway between the largest finite value and 2^(maxExponent + 1): ties go to the even infinity.
    overflow: 2 ** (bias + 1) * (1 - 2 ** -(fractionBits + 2)),
    subnormalScale: 2 ** (fractionBits - minExponent), // |x| in steps of the subnormal spacing
  };
}

export const FLOAT16 = format(10, 5);
export const BFLOAT16 = format(7, 8);

/** The value of every pattern of the format, exactly, from the format's definition. */
function widenTable(f) {
  const table = new Float32Array(65536);
  for (let bits = 0; bits < 65536; bits++) {
    const field = (bits >> f.fractionBits) & (f.infinity >> f.fractionBits);
    const fraction = bits & (2 ** f.fractionBits - 1);
    const sign = bits & 0x8000 ? -1 : 1;
    let value;
    if (field === f.infinity >> f.fractionBits) value = fraction === 0 ? sign * Infinity : NaN;
    else if (field === 0) value = sign * fraction * 2 ** (f.minExponent - f.fractionBits);
    else value = sign * (1 + fraction / 2 ** f.fractionBits) * 2 ** (field - f.maxExponent);
    table[bits] = value;
  }
  return table;
}

export const FLOAT16_VALUES = widenTable(FLOAT16);
export const BFLOAT16_VALUES = widenTable(BFLOAT16);

const ROUND = 2 ** 52; // (x + 2^52) - 2^52 rounds 0 <= x < 2^51 to an integer, ties to even
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/**
 * The pattern of a JS number rounded once to the format. The exponent comes from the number's
 * float32 (its rounding can only move a value within 2^-25 of a power of two onto it, and both
 * exponents then round it to that power), the significand is scaled to an integer grid exactly.
 */
function narrowing(f) {
  const { fractionBits, minExponent, maxExponent, infinity, quietNaN, overflow, subnormalScale } = f;
  const scales = new Float64Array(maxExponent - minExponent + 1);
  for (let e = minExponent; e <= maxExponent; e++) scales[e - minExponent] = 2 ** (fractionBits - e);
  const one = 2 ** fractionBits;
  const smallestNormal = 2 ** minExponent;
  return (value) => {
    if (Number.isNaN(value)) return quietNaN;
    const sign = value < 0 || (value === 0 && 1 / value < 0) ? 0x8000 : 0;
    const magnitude = Math.abs(value);
    if (magnitude >= overflow) return sign | infinity;
    if (magnitude < smallestNormal) return sign | (magnitude * subnormalScale + ROUND - ROUND);
    f32[0] = magnitude;
    const e = (u32[0] >>> 23) - 127;
    const q = magnitude * scales[e - minExponent] + ROUND - ROUND; // in [one, 2 one]: 2 one carries
    return sign | ((e + maxExponent - 1) * one + q);
  };
}

export const toFloat16 = narrowing(FLOAT16);
export const toBfloat16 = narrowing(BFLOAT16);

/** Half the spacing of the format's values at a magnitude: the error of rounding to it. */
export function halfUlp(magnitude, f) {
  const exponent = magnitude > 0 ? Math.max(Math.floor(Math.log2(magnitude)), f.minExponent) : f.minExponent;
  return 2 ** (exponent - f.fractionBits - 1);
}

/** Everything a JS loop needs for one dtype: the widen table and the narrowing. */
export const HALF_FORMATS = {
  float16: { format: FLOAT16, values: FLOAT16_VALUES, narrow: toFloat16 },
  bfloat16: { format: BFLOAT16, values: BFLOAT16_VALUES, narrow: toBfloat16 },
};

/** Patterns (a Uint16Array, or a Float16Array's bytes) widened to a Float32Array. */
export function widenAll(bits, dtype) {
  const values = HALF_FORMATS[dtype].values;
  const out = new Float32Array(bits.length);
  for (let i = 0; i < bits.length; i++) out[i] = values[bits[i]];
  return out;
}

/** The patterns of a typed array of 16-bit floats: a Uint16Array as is, a Float16Array's bytes. */
export function patternsOf(array) {
  return array instanceof Uint16Array ? array : new Uint16Array(array.buffer, array.byteOffset, array.length);
}
