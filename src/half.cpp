#include "posenc/half.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace posenc {

namespace {

std::uint32_t bits_of(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

float float_of(std::uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// A finite, non-negative magnitude rounded to nearest-even on a grid of 2^exponent.
double round_to_grid(double magnitude, int exponent) {
  return std::ldexp(std::nearbyint(std::ldexp(magnitude, -exponent)), exponent);  // nearbyint: ties to even
}

// Binary16 of a double in one rounding. The grid of a binary16 near x is 2^(e - 10) for
// 2^e <= x < 2^(e+1), e >= -14 (normal), and 2^-24 below 2^-14 (subnormal): rounding the double to
// that grid is exact arithmetic (ldexp and nearbyint round once), so the result is the IEEE one.
std::uint16_t narrow_to_half(double value) {
  const std::uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  if (std::isnan(value)) return sign | 0x7E00;  // quiet, payload dropped (as torch's c10::Half)
  if (std::isinf(value)) return sign | 0x7C00;
  const double magnitude = std::fabs(value);
  if (magnitude == 0) return sign;
  int exponent = 0;
  std::frexp(magnitude, &exponent);  // magnitude in [2^(exponent - 1), 2^exponent)
  const int e = exponent - 1 < -14 ? -14 : exponent - 1;
  const double rounded = round_to_grid(magnitude, e - 10);
  if (rounded > 65504.0) return sign | 0x7C00;  // beyond the largest finite (the grid's next step): Inf
  int r_exponent = 0;
  const double fraction = std::frexp(rounded, &r_exponent);
  if (rounded < 0x1p-14)  // subnormal (or rounded up to the smallest normal below)
    return sign | static_cast<std::uint16_t>(std::ldexp(rounded, 24));
  const std::uint16_t biased = static_cast<std::uint16_t>(r_exponent - 1 + 15);
  const std::uint16_t mantissa = static_cast<std::uint16_t>(std::ldexp(fraction * 2 - 1, 10));
  return sign | static_cast<std::uint16_t>(biased << 10) | mantissa;
}

// Bfloat16 of a double in one rounding: float32's exponent range, 8 significant bits (its grid
// is 2^(e - 7) for normals and 2^-133 below 2^-126).
std::uint16_t narrow_to_bfloat16(double value) {
  const std::uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  if (std::isnan(value)) return sign | 0x7FC0;  // the canonical quiet NaN, its sign kept (as binary16's)
  if (std::isinf(value)) return sign | 0x7F80;
  const double magnitude = std::fabs(value);
  if (magnitude == 0) return sign;
  int exponent = 0;
  std::frexp(magnitude, &exponent);
  const int e = exponent - 1 < -126 ? -126 : exponent - 1;
  const double rounded = round_to_grid(magnitude, e - 7);
  if (rounded > 0x1.FEp127) return sign | 0x7F80;  // above the largest finite bfloat16: Inf
  // Exact in float32 (8 significant bits, in range): its upper half is the bfloat16.
  return static_cast<std::uint16_t>(sign | (bits_of(static_cast<float>(rounded)) >> 16));
}

}  // namespace

float half_to_float(std::uint16_t bits) {
  const std::uint32_t sign = std::uint32_t{bits & 0x8000u} << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1F;
  const std::uint32_t mantissa = bits & 0x3FF;
  if (exponent == 0x1F) return float_of(sign | 0x7F800000u | (mantissa << 13));  // Inf, NaN (payload kept)
  if (exponent == 0) {  // ±0 and subnormals: mantissa · 2^-24, exact in float32
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign != 0 ? -magnitude : magnitude;
  }
  return float_of(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

std::uint16_t float_to_half(float value) { return narrow_to_half(value); }
std::uint16_t double_to_half(double value) { return narrow_to_half(value); }

float bfloat16_to_float(std::uint16_t bits) { return float_of(std::uint32_t{bits} << 16); }

std::uint16_t float_to_bfloat16(float value) { return narrow_to_bfloat16(value); }
std::uint16_t double_to_bfloat16(double value) { return narrow_to_bfloat16(value); }

std::size_t dtype_size(Dtype dtype) {
  switch (dtype) {
    case Dtype::kFloat32:
      return 4;
    case Dtype::kFloat16:
    case Dtype::kBfloat16:
      return 2;
  }
  return 0;
}

}  // namespace posenc
