#include "sinusoidal.h"

#include <cmath>
#include <cstddef>

#include "size_limits.h"
#include "kernels/interleave.h"
#include "phases.h"

namespace posenc {

Status check(const SinusoidalSpec& spec, const Positions& positions) {
  if (spec.seq_len > kMaxSeqLen) return Status::kSeqLenTooLarge;
  if (spec.d_model < 2) return Status::kDModelTooSmall;
  if (spec.d_model > kMaxDim) return Status::kDModelTooLarge;
  if (spec.d_model % 2 != 0) return Status::kDModelOdd;
  if (!std::isfinite(spec.base) || !(spec.base > 0.0)) return Status::kBaseInvalid;
  if (spec.layout != SinusoidalLayout::kInterleaved && spec.layout != SinusoidalLayout::kConcat)
    return Status::kLayoutInvalid;
  if (!fits(element_count(spec.seq_len, spec.d_model))) return Status::kSizeTooLarge;
  return positions.check(spec.seq_len);
}

namespace {

// Writes (Accumulate = false) or adds (true) the table into out.
template <bool Accumulate>
Status fill(const SinusoidalSpec& spec, const Positions& positions, float* out) {
  if (const Status status = check(spec, positions); status != Status::kOk) return status;
  if (out == nullptr && spec.seq_len > 0) return Status::kNullPointer;
  const std::size_t d = spec.d_model, half = d / 2;
  const bool interleaved = spec.layout == SinusoidalLayout::kInterleaved;
  for_each_pair_block(static_cast<std::uint32_t>(half), [&](std::uint32_t first, std::uint32_t count) {
    PhaseBlock phases(first, count, spec.d_model, spec.base);
    for (std::size_t row = 0; row < spec.seq_len; ++row) {
      phases.advance_to(positions.at(row));
      float* out_row = out + row * d;
      if (interleaved) {
        kernels::interleave<Accumulate>(phases.sin(), phases.cos(), out_row + 2 * first, count);
      } else {
        kernels::store<Accumulate>(phases.sin(), out_row + first, count);
        kernels::store<Accumulate>(phases.cos(), out_row + half + first, count);
      }
    }
  });
  return Status::kOk;
}

}  // namespace

Status sinusoidal_table(const SinusoidalSpec& spec, const Positions& positions, float* out) {
  return fill<false>(spec, positions, out);
}

Status add_sinusoidal(const SinusoidalSpec& spec, const Positions& positions, float* x) {
  return fill<true>(spec, positions, x);
}

}  // namespace posenc
