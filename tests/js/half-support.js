// Half precision in the tests, written apart from posenc's own conversions (src/half.cpp): a
// number rounded to float16 or bfloat16 bits by float64 arithmetic on the format's grid (scale
// by a power of two, which is exact, round half to even, carry, overflow to Infinity), and
// bits widened back by their definition. The tests hold posenc's half results to these.
import assert from 'node:assert/strict';

/** Fraction bits, exponent bits and bias of each format; NaN is the canonical quiet NaN. */
const FORMATS = {
  float16: { fraction: 10, exponentBits: 5, bias: 15, nan: 0x7e00 },
  bfloat16: { fraction: 7, exponentBits: 8, bias: 127, nan: 0x7fc0 },
};

const scratch = new DataView(new ArrayBuffer(8));

/** Whether a number's sign bit is set (-0 and negative NaNs included). */
function signBit(value) {
  scratch.setFloat64(0, value);
  return scratch.getUint8(0) >= 0x80;
}

/** The exponent e with 2^e <= a < 2^(e+1), for finite a > 0 (log2 corrected at powers of two). */
function exponentOf(a) {
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  else if (2 ** (e + 1) <= a) e++;
  return e;
}

/** Round half to even of a non-negative float64 (exact: floor and the difference are exact). */
function roundHalfEven(x) {
  const floor = Math.floor(x);
  const rest = x - floor;
  if (rest !== 0.5) return rest < 0.5 ? floor : floor + 1;
  return floor % 2 === 0 ? floor : floor + 1;
}

/**
 * `value` (any number: float64, or a float32 read as one) rounded once to `dtype`'s bits;
 * `negative` is its sign bit (a NaN's sign, which arithmetic on numbers does not keep, is given).
 */
export function toHalfBits(value, dtype, negative = signBit(value)) {
  const { fraction, exponentBits, bias, nan } = FORMATS[dtype];
  const sign = negative ? 0x8000 : 0;
  const infinity = sign | (((1 << exponentBits) - 1) << fraction);
  if (Number.isNaN(value)) return sign | nan;
  const a = Math.abs(value);
  if (a === Infinity) return infinity;
  const minExponent = 1 - bias; // below it: subnormals, on the grid of 2^(minExponent - fraction)
  let e = a === 0 ? minExponent : Math.max(minExponent, exponentOf(a));
  let m = roundHalfEven(a / 2 ** (e - fraction)); // in [0, 2^(fraction + 1)]
  if (m === 2 ** (fraction + 1)) {
    m /= 2; // rounded up to the next power of two
    e++;
  }
  if (e > bias) return infinity;
  if (m < 2 ** fraction) return sign | m; // subnormal (or zero)
  return sign | ((e + bias) << fraction) | (m - 2 ** fraction);
}

/** The number `bits` of `dtype` stand for (exact in float64 and in float32). */
export function fromHalfBits(bits, dtype) {
  const { fraction, exponentBits, bias } = FORMATS[dtype];
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> fraction) & ((1 << exponentBits) - 1);
  const mantissa = bits & ((1 << fraction) - 1);
  if (exponent === (1 << exponentBits) - 1) return mantissa === 0 ? sign * Infinity : Number.NaN;
  if (exponent === 0) return sign * mantissa * 2 ** (1 - bias - fraction);
  return sign * (2 ** fraction + mantissa) * 2 ** (exponent - bias - fraction);
}

/** The spacing of `dtype` values at `value`: the ulp of its binade (of the subnormals, below them). */
export function halfUlp(value, dtype) {
  const { fraction, bias } = FORMATS[dtype];
  const a = Math.abs(value);
  return 2 ** ((a === 0 ? 1 - bias : Math.max(1 - bias, exponentOf(a))) - fraction);
}

/** Bits of `dtype` widened to a Float32Array of their values (the input of a float32 call). */
export function widen(bits, dtype) {
  return Float32Array.from(bits, (b) => fromHalfBits(b, dtype));
}

/** A float32 result rounded to `dtype`, element by element (NaN keeps its sign: read from the bits). */
export function narrow(float32, dtype) {
  const words = new Uint32Array(float32.buffer, float32.byteOffset, float32.length);
  return Uint16Array.from(float32, (v, i) => toHalfBits(v, dtype, words[i] >= 0x80000000));
}

/** The bits of a half array posenc returned: a Uint16Array as it is, a Float16Array's bytes. */
export function bitsOf(array) {
  return new Uint16Array(array.buffer, array.byteOffset, array.length);
}

/** Half bits of `length` seeded normal values scaled by `scale` (random: randomNormal of support.js). */
export function randomHalfBits(normals, dtype, scale = 1) {
  return Uint16Array.from(normals, (v) => toHalfBits(v * scale, dtype));
}

/**
 * Asserts half bits equal the float64 values `reference` rounded once to `dtype`, allowing the
 * other neighbour only where the reference lies within `slack` (relative) of the midpoint
 * between two half values: posenc's float64 and this float64 can differ in their last bits.
 */
export function assertRoundedFrom(actual, reference, dtype, label, slack = 2 ** -40) {
  assert.equal(actual.length, reference.length, `${label}: length`);
  let nearTies = 0;
  for (let i = 0; i < reference.length; i++) {
    const wanted = toHalfBits(reference[i], dtype);
    if (actual[i] === wanted) continue;
    const near = toHalfBits(reference[i] * (1 + slack), dtype) !== toHalfBits(reference[i] * (1 - slack), dtype);
    if (near && actual[i] !== wanted) {
      nearTies++;
      continue;
    }
    assert.fail(
      `${label}: [${i}] is 0x${actual[i].toString(16)} (${fromHalfBits(actual[i], dtype)}), expected 0x${wanted.toString(16)} (${reference[i]} rounded to ${dtype})`,
    );
  }
  return nearTies;
}

/** Asserts two arrays of half bits are identical (the first difference in hex). */
export function assertSameHalfBits(actual, expected, label) {
  assert.equal(actual.length, expected.length, `${label}: length`);
  for (let i = 0; i < expected.length; i++) {
    if (actual[i] !== expected[i])
      assert.fail(`${label}: first difference at [${i}]: 0x${actual[i].toString(16)} vs 0x${expected[i].toString(16)}`);
  }
}
