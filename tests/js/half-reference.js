// float16 and bfloat16 rounding for the tests, written apart from posenc's C++ (src/half.cpp):
// on the format's grid in float64, where scaling by a power of two is exact.

const FORMATS = {
  float16: { fraction: 10, minExponent: -14, overflow: 65520 }, // 65520: halfway past 65504
  bfloat16: { fraction: 7, minExponent: -126, overflow: 2 ** 128 * (1 - 2 ** -9) },
};

/** t rounded to the nearest integer, ties to even (t >= 0). */
function roundHalfEven(t) {
  const floor = Math.floor(t);
  const rest = t - floor;
  if (rest !== 0.5) return rest < 0.5 ? floor : floor + 1;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** The float64 x rounded once to float16 or bfloat16 (nearest, ties to even), as a number. */
export function roundToDtype(x, dtype) {
  const { fraction, minExponent, overflow } = FORMATS[dtype];
  if (Number.isNaN(x) || x === 0 || !Number.isFinite(x)) return x;
  const magnitude = Math.abs(x);
  if (magnitude >= overflow) return Math.sign(x) * Number.POSITIVE_INFINITY;
  let exponent = Math.floor(Math.log2(magnitude));
  if (2 ** exponent > magnitude) exponent -= 1; // log2 may round up just below a power of two
  if (2 ** (exponent + 1) <= magnitude) exponent += 1;
  const ulp = 2 ** (Math.max(exponent, minExponent) - fraction);
  const rounded = roundHalfEven(magnitude / ulp) * ulp;
  return Math.sign(x) * (rounded >= overflow ? Number.POSITIVE_INFINITY : rounded);
}
