#include "posenc/sinusoidal.h"

#include <cmath>
#include <cstddef>

#include "dtype_match.h"
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
  if (dtype_size(spec.dtype) == 0) return Status::kDtypeInvalid;
  return positions.check(spec.seq_len);
}

namespace {

// Writes (Accumulate = false) or adds (true) the table into out, stored as spec.dtype says.
template <bool Accumulate, class T>
Status fill(const SinusoidalSpec& spec, const Positions& positions, T* out, double* carry) {
  if (const Status status = check(spec, positions); status != Status::kOk) return status;
  if (const Status status = dtype_match<T>(spec.dtype); status != Status::kOk) return status;
  if (out == nullptr && spec.seq_len > 0) return Status::kNullPointer;
  if (spec.seq_len == 0) return Status::kOk;  // nothing to write (and out may be null)
  const std::size_t d = spec.d_model, half = d / 2;
  const bool interleaved = spec.layout == SinusoidalLayout::kInterleaved;
  using Rows = kernels::RowsOutOf<T>;
  for_each_pair_block(static_cast<std::uint32_t>(half), [&](std::uint32_t first, std::uint32_t count) {
    PhaseBlock phases(first, count, spec.d_model, spec.base);
    const Rows rows = interleaved ? Rows{out + 2 * first, out + 2 * first + 1, d, true}
                                  : Rows{out + first, out + half + first, d, false};
    double* block_carry =
        carry == nullptr ? nullptr
                         : carry + first / PhaseBlock::kCapacity * PhaseBlock::carry_doubles(PhaseBlock::kCapacity);
    phases.write_rows<Accumulate>(positions, spec.seq_len, rows, spec.dtype, block_carry);
  });
  return Status::kOk;
}

}  // namespace

Status sinusoidal_table(const SinusoidalSpec& spec, const Positions& positions, float* out, double* carry) {
  return fill<false>(spec, positions, out, carry);
}

Status add_sinusoidal(const SinusoidalSpec& spec, const Positions& positions, float* x, double* carry) {
  return fill<true>(spec, positions, x, carry);
}

Status sinusoidal_table(const SinusoidalSpec& spec, const Positions& positions, std::uint16_t* out, double* carry) {
  return fill<false>(spec, positions, out, carry);
}

Status add_sinusoidal(const SinusoidalSpec& spec, const Positions& positions, std::uint16_t* x, double* carry) {
  return fill<true>(spec, positions, x, carry);
}

}  // namespace posenc
