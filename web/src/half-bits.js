// 16-bit floats on the page. posenc returns a float16 result as a Float16Array where the engine
// has one and as a Uint16Array of its bit patterns otherwise; bfloat16 always as bit patterns.
// The page reads either as numbers (exactly: every 16-bit value is a float64), and writes inputs
// whose values 16 bits hold exactly, so that no rounding happens before posenc's.

const FLOAT32 = new Float32Array(1);
const BITS32 = new Uint32Array(FLOAT32.buffer);

/** The number a float16 or bfloat16 bit pattern holds. */
export function numberOfBits(bits, dtype) {
  if (dtype === 'bfloat16') {
    BITS32[0] = bits << 16; // bfloat16 is float32's upper half
    return FLOAT32[0];
  }
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0x1f) return fraction ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  if (exponent === 0) return sign * fraction * 2 ** -24; // subnormal (and ±0)
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

/** Every pattern's value, per dtype, built on first use (a redraw reads 600 000 patterns). */
const VALUES = {};
function valuesOf(dtype) {
  VALUES[dtype] ??= Float32Array.from({ length: 65536 }, (_, bits) => numberOfBits(bits, dtype));
  return VALUES[dtype];
}

/** Entry `index` of posenc's 16-bit result (a Float16Array, or bit patterns of `dtype`). */
export function halfAt(array, index, dtype) {
  return array instanceof Uint16Array ? valuesOf(dtype)[array[index]] : array[index];
}

/** posenc's 16-bit result (a Float16Array, or bit patterns of `dtype`) as a Float32Array (exact). */
export function readHalf(array, dtype) {
  if (!(array instanceof Uint16Array)) return new Float32Array(array);
  const values = valuesOf(dtype);
  const out = new Float32Array(array.length);
  for (let i = 0; i < array.length; i++) out[i] = values[array[i]];
  return out;
}

/**
 * The bit patterns of values that `dtype` holds exactly, as a Uint16Array (a value it does not
 * hold is a bug of the caller: thrown). The positive patterns are in increasing order of value,
 * so each is found by bisection.
 */
export function exactBits(values, dtype) {
  const largest = dtype === 'bfloat16' ? 0x7f80 : 0x7c00; // +Inf
  return Uint16Array.from(values, (value) => {
    const sign = value < 0 || Object.is(value, -0) ? 0x8000 : 0;
    const magnitude = Math.abs(value);
    let lo = 0;
    let hi = largest;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (numberOfBits(mid, dtype) < magnitude) lo = mid + 1;
      else hi = mid;
    }
    if (numberOfBits(lo, dtype) !== magnitude) throw new RangeError(`${value} is not exact in ${dtype}`);
    return sign | lo;
  });
}
