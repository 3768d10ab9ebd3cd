#include "rope.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "frequencies.h"
#include "kernels/rotate.h"
#include "size_limits.h"
#include "phases.h"

namespace posenc {

Status check_frequencies(std::uint32_t rotary_dim, double base) {
  if (rotary_dim < 2) return Status::kRotaryDimTooSmall;
  if (rotary_dim > kMaxDim) return Status::kRotaryDimTooLarge;
  if (rotary_dim % 2 != 0) return Status::kRotaryDimOdd;
  if (!std::isfinite(base) || !(base > 0.0)) return Status::kBaseInvalid;
  return Status::kOk;
}

Status check(const RopeSpec& spec, const Positions& positions) {
  if (spec.seq_len > kMaxSeqLen) return Status::kSeqLenTooLarge;
  if (spec.num_heads < 1) return Status::kNumHeadsTooSmall;
  if (spec.num_heads > kMaxDim) return Status::kNumHeadsTooLarge;
  if (spec.head_dim < 2) return Status::kHeadDimTooSmall;
  if (spec.head_dim > kMaxDim) return Status::kHeadDimTooLarge;
  if (spec.rotary_dim > spec.head_dim) return Status::kRotaryDimTooLarge;
  if (const Status status = check_frequencies(spec.rotary_dim, spec.base); status != Status::kOk)
    return status;
  if (spec.layout != RopeLayout::kInterleaved && spec.layout != RopeLayout::kHalf)
    return Status::kLayoutInvalid;
  if (!fits(element_count(spec.seq_len, spec.num_heads, spec.head_dim)))
    return Status::kSizeTooLarge;
  return positions.check(spec.seq_len);
}

Status check(const RopeCacheSpec& spec, const Positions& positions) {
  if (spec.seq_len > kMaxSeqLen) return Status::kSeqLenTooLarge;
  if (const Status status = check_frequencies(spec.rotary_dim, spec.base); status != Status::kOk)
    return status;
  if (!fits(element_count(spec.seq_len, spec.rotary_dim / 2))) return Status::kSizeTooLarge;
  return positions.check(spec.seq_len);
}

Status rope_frequencies(std::uint32_t rotary_dim, double base, double* out) {
  if (const Status status = check_frequencies(rotary_dim, base); status != Status::kOk) return status;
  if (out == nullptr) return Status::kNullPointer;
  for (std::uint32_t i = 0; i < rotary_dim / 2; ++i) out[i] = inverse_frequency(i, rotary_dim, base);
  return Status::kOk;
}

Status rope_cache(const RopeCacheSpec& spec, const Positions& positions, float* cos, float* sin) {
  if (const Status status = check(spec, positions); status != Status::kOk) return status;
  if ((cos == nullptr || sin == nullptr) && spec.seq_len > 0) return Status::kNullPointer;
  const std::size_t half = spec.rotary_dim / 2;
  for_each_pair_block(static_cast<std::uint32_t>(half), [&](std::uint32_t first, std::uint32_t count) {
    PhaseBlock phases(first, count, spec.rotary_dim, spec.base);
    phases.write_rows<false>(positions, spec.seq_len, {sin + first, cos + first, half, false});
  });
  return Status::kOk;
}

namespace {

// Per-channel cos/sin for interleaved pairs, built once per position and reused by every head.
struct InterleavedPhases {
  float cos_dup[2 * PhaseBlock::kCapacity];
  float sin_signed[2 * PhaseBlock::kCapacity];

  void expand(const PhaseBlock& phases) {
    for (std::uint32_t i = 0; i < phases.size(); ++i) {
      cos_dup[2 * i] = cos_dup[2 * i + 1] = phases.cos()[i];
      sin_signed[2 * i] = -phases.sin()[i];
      sin_signed[2 * i + 1] = phases.sin()[i];
    }
  }
};

}  // namespace

Status rope(const RopeSpec& spec, const Positions& positions, const float* x, float* out) {
  if (const Status status = check(spec, positions); status != Status::kOk) return status;
  if ((x == nullptr || out == nullptr) && spec.seq_len > 0) return Status::kNullPointer;
  const std::size_t head_dim = spec.head_dim, half = spec.rotary_dim / 2;
  const std::size_t row_stride = spec.num_heads * head_dim;

  for_each_pair_block(static_cast<std::uint32_t>(half), [&](std::uint32_t first, std::uint32_t count) {
    PhaseBlock phases(first, count, spec.rotary_dim, spec.base);
    InterleavedPhases expanded;
    for (std::size_t row = 0; row < spec.seq_len; ++row) {
      phases.advance_to(positions.at(row));
      if (spec.layout == RopeLayout::kInterleaved) expanded.expand(phases);
      for (std::size_t head = 0; head < spec.num_heads; ++head) {
        const std::size_t at = row * row_stride + head * head_dim;
        if (spec.layout == RopeLayout::kInterleaved) {
          kernels::rotate_interleaved(expanded.cos_dup, expanded.sin_signed, x + at + 2 * first,
                                      out + at + 2 * first, 2 * count);
        } else {
          kernels::rotate_half(phases.cos(), phases.sin(), x + at + first, x + at + half + first,
                               out + at + first, out + at + half + first, count);
        }
      }
    }
  });

  // Partial rotary: channels from rotary_dim on pass through.
  if (out != x && spec.rotary_dim < head_dim) {
    for (std::size_t row_head = 0; row_head < std::size_t{spec.seq_len} * spec.num_heads; ++row_head) {
      const float* src = x + row_head * head_dim;
      std::copy(src + spec.rotary_dim, src + head_dim, out + row_head * head_dim + spec.rotary_dim);
    }
  }
  return Status::kOk;
}

}  // namespace posenc
