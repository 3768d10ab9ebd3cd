// Half-precision storage: IEEE 754 binary16 ("float16") and bfloat16, as 16-bit patterns.
//
// Widening (16 -> 32 bits) is exact. Narrowing rounds once, to nearest with ties to even, and
// keeps the IEEE cases: ±0, subnormals (binary16 has them; bfloat16 has float32's), overflow to
// ±Inf, and NaN stays NaN: the canonical quiet NaN of each format (0x7E00, 0x7FC0) with its sign.
// (torch's binary16 NaN is the same; its bfloat16 NaN is 0x7FC0 in its scalar cast and 0xFFFF in
// its vectorised CPU cast: any quiet NaN is IEEE's, posenc's is one pattern whatever the path.) From float64 the
// rounding is direct, never through float32 (which would round twice: a float64 just above a binary16 tie can become
// the tie in float32 and then round the wrong way). torch's casts round the same way: float16 by the IEEE conversion,
// bfloat16 by round-to-nearest-even of the float32 bits (not truncation), so `float_to_bfloat16` equals
// `torch.tensor(x, dtype=torch.float32).to(torch.bfloat16)`.
#pragma once

#include <cstddef>
#include <cstdint>

#include "named_enum.h"

namespace posenc {

// X(enumerator, JS name), in value order (named_enum.h).
// clang-format off
#define POSENC_DTYPES(X) \
  X(kFloat32, "float32") \
  X(kFloat16, "float16")   /* IEEE 754 binary16: 1 sign, 5 exponent, 10 fraction bits */ \
  X(kBfloat16, "bfloat16") /* bfloat16: 1 sign, 8 exponent, 7 fraction bits (float32's upper half) */
// clang-format on
enum class Dtype : int { POSENC_DTYPES(POSENC_ENUMERATOR) };

// Bytes per element: 4 for float32, 2 for the half types, 0 for a value outside the enum (a
// spec's check() refuses it with kDtypeInvalid).
std::size_t dtype_size(Dtype dtype);

float half_to_float(std::uint16_t bits);
std::uint16_t float_to_half(float value);
std::uint16_t double_to_half(double value);

float bfloat16_to_float(std::uint16_t bits);
std::uint16_t float_to_bfloat16(float value);
std::uint16_t double_to_bfloat16(double value);

}  // namespace posenc
