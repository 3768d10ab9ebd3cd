#include "posenc/sinusoidal.h"

#include <cmath>
#include <cstddef>

#include "phases.h"
#include "posenc/frequencies.h"
#include "posenc/size_limits.h"

namespace posenc {

Status check(const SinusoidalSpec& spec, const Positions& positions) {
  if (spec.seq_len > kMaxSeqLen) return Status::kSeqLenTooLarge;
  if (spec.d_model < 2) return Status::kDModelTooSmall;
  if (spec.d_model > kMaxDim) return Status::kDModelTooLarge;
  if (spec.d_model % 2 != 0) return Status::kDModelOdd;
  if (!base_is_usable(spec.d_model, spec.base)) return Status::kBaseInvalid;
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
  if (spec.seq_len == 0) return Status::kOk;  // nothing to write (and out may be null)
  const std::size_t d = spec.d_model, half = d / 2;
  const bool interleaved = spec.layout == SinusoidalLayout::kInterleaved;
  for_each_pair_block(static_cast<std::uint32_t>(half), [&](std::uint32_t first, std::uint32_t count) {
    PhaseBlock phases(first, count, spec.d_model, spec.base);
    const kernels::RowsOut rows = interleaved ? kernels::RowsOut{out + 2 * first, out + 2 * first + 1, d, true}
                                              : kernels::RowsOut{out + first, out + half + first, d, false};
    phases.write_rows<Accumulate>(positions, spec.seq_len, rows);
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
