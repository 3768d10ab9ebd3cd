// The sinusoidal table of "Attention Is All You Need" (Vaswani et al. 2017):
//   PE(pos, 2i) = sin(pos / base^(2i/d)),  PE(pos, 2i+1) = cos(pos / base^(2i/d))
// in two channel layouts, and its addition to token embeddings.
#pragma once

#include <cstdint>

#include "defaults.h"
#include "half.h"
#include "named_enum.h"
#include "positions.h"
#include "status.h"

namespace posenc {

// X(enumerator, JS name), in value order (named_enum.h).
// clang-format off
#define POSENC_SINUSOIDAL_LAYOUTS(X) \
  X(kInterleaved, "interleaved") /* sin at channel 2i, cos at 2i+1 (the paper, the PyTorch tutorial) */ \
  X(kConcat, "concat")           /* [sin of all pairs | cos of all pairs] (tensor2tensor) */
// clang-format on
enum class SinusoidalLayout : int { POSENC_SINUSOIDAL_LAYOUTS(POSENC_ENUMERATOR) };

struct SinusoidalSpec {
  std::uint32_t seq_len = 0;
  std::uint32_t d_model = 0;  // even: the table is made of sin/cos pairs
  double base = kDefaultBase;
  SinusoidalLayout layout = SinusoidalLayout::kInterleaved;
  Dtype dtype = Dtype::kFloat32;  // the arrays' storage: float32, or 16-bit float16/bfloat16 patterns
};

Status check(const SinusoidalSpec& spec, const Positions& positions);

// out: [seq_len, d_model], written. With `carry` (table_carry_doubles(d_model / 2) doubles), the
// rows are a piece of a longer table (table_pieces.h).
Status sinusoidal_table(const SinusoidalSpec& spec, const Positions& positions, float* out, double* carry = nullptr);

// x: [seq_len, d_model] token embeddings; the table is added in place (`carry` as above).
Status add_sinusoidal(const SinusoidalSpec& spec, const Positions& positions, float* x, double* carry = nullptr);

// The same in half precision (spec.dtype float16 or bfloat16; a float32 spec is kDtypeMismatch,
// as is a half spec given float arrays): the table is the float64 value rounded once to the
// storage type; the sum is posenc's float32 sum of the widened value and the float32 table,
// rounded once to the storage type.
Status sinusoidal_table(const SinusoidalSpec& spec, const Positions& positions, std::uint16_t* out,
                        double* carry = nullptr);
Status add_sinusoidal(const SinusoidalSpec& spec, const Positions& positions, std::uint16_t* x,
                      double* carry = nullptr);

}  // namespace posenc
