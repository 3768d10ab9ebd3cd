#include "rope.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "frequencies.h"
#include "kernels/dispatch.h"
#include "phases.h"
#include "size_limits.h"

namespace posenc {

Status resolve_rotary_dim(std::uint32_t head_dim, std::uint32_t rotary_dim, bool has_partial_rotary_factor,
                          double partial_rotary_factor, std::uint32_t* out) {
  if (!has_partial_rotary_factor) {
    *out = rotary_dim;
    return Status::kOk;
  }
  if (!(std::isfinite(partial_rotary_factor) && partial_rotary_factor > 0.0 && partial_rotary_factor <= 1.0))
    return Status::kPartialRotaryFactorInvalid;
  // Python's int() of the float64 product: truncation.
  const auto resolved = static_cast<std::uint32_t>(static_cast<double>(head_dim) * partial_rotary_factor);
  if (resolved < 2 || resolved % 2 != 0) return Status::kPartialRotaryFactorInvalid;
  *out = resolved;
  return Status::kOk;
}

Status check_frequencies(std::uint32_t rotary_dim, double base) {
  if (rotary_dim < 2) return Status::kRotaryDimTooSmall;
  if (rotary_dim > kMaxDim) return Status::kRotaryDimTooLarge;
  if (rotary_dim % 2 != 0) return Status::kRotaryDimOdd;
  if (!base_is_usable(rotary_dim, base)) return Status::kBaseInvalid;
  return Status::kOk;
}

namespace {

// The rotary dimension of a RopeSpec or RopeScheduleSpec.
template <class Spec>
Status rotary_dim_of(const Spec& spec, std::uint32_t* out) {
  return resolve_rotary_dim(spec.head_dim, spec.rotary_dim, spec.has_partial_rotary_factor,
                            spec.partial_rotary_factor, out);
}

// The rules of a RopeSpec except the positions; *rotary_dim receives the resolved dimension.
Status check_spec(const RopeSpec& spec, std::uint32_t* rotary_dim) {
  if (spec.seq_len > kMaxSeqLen) return Status::kSeqLenTooLarge;
  if (spec.num_heads < 1) return Status::kNumHeadsTooSmall;
  if (spec.num_heads > kMaxDim) return Status::kNumHeadsTooLarge;
  if (spec.head_dim < 2) return Status::kHeadDimTooSmall;
  if (spec.head_dim > kMaxDim) return Status::kHeadDimTooLarge;
  if (const Status status = rotary_dim_of(spec, rotary_dim); status != Status::kOk) return status;
  if (*rotary_dim > spec.head_dim) return Status::kRotaryDimTooLarge;
  if (const Status status = check_frequencies(*rotary_dim, spec.base); status != Status::kOk) return status;
  if (spec.layout != RopeLayout::kInterleaved && spec.layout != RopeLayout::kHalf) return Status::kLayoutInvalid;
  if (spec.order != RopeOrder::kTokens && spec.order != RopeOrder::kHeads) return Status::kOrderInvalid;
  if (element_count(spec.batch, spec.seq_len) > kMaxSeqLen) return Status::kBatchTooLarge;
  if (const Status status = check(spec.scaling, *rotary_dim, spec.base); status != Status::kOk) return status;
  if (!fits(element_count(spec.batch, spec.seq_len, spec.num_heads, spec.head_dim))) return Status::kSizeTooLarge;
  return Status::kOk;
}

Status check_kv_heads(const RopeSpec& spec, std::uint32_t num_kv_heads) {
  if (num_kv_heads < 1) return Status::kNumKvHeadsTooSmall;
  if (num_kv_heads > kMaxDim) return Status::kNumKvHeadsTooLarge;
  if (!fits(element_count(spec.batch, spec.seq_len, num_kv_heads, spec.head_dim))) return Status::kSizeTooLarge;
  return Status::kOk;
}

// The schedule of a checked spec for the rows at `positions`.
FrequencySchedule schedule_for(const RopeScaling& scaling, std::uint32_t rotary_dim, double base,
                               const BatchPositions& positions, std::uint32_t batch, std::uint32_t seq_len) {
  const std::uint64_t length = depends_on_length(scaling) ? positions.length(batch, seq_len) : 0;
  return FrequencySchedule(scaling, rotary_dim, base, length);
}

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

// One tensor of heads rotated at the same rows: queries, or keys.
struct RotatedHeads {
  const float* src;
  float* dst;
  std::uint32_t num_heads;
};

// Rotates every tensor (their specs checked): pair blocks outermost, so each block's phases
// advance once per row and serve every head of every tensor.
void rotate_all(const RopeSpec& spec, std::uint32_t rotary_dim, const BatchPositions& positions,
                const RotatedHeads* tensors, std::size_t tensor_count) {
  const std::size_t head_dim = spec.head_dim, half = rotary_dim / 2, seq_len = spec.seq_len;
  const bool interleaved = spec.layout == RopeLayout::kInterleaved;
  const FrequencySchedule schedule = schedule_for(spec.scaling, rotary_dim, spec.base, positions, spec.batch,
                                                  spec.seq_len);

  for_each_pair_block(static_cast<std::uint32_t>(half), [&](std::uint32_t first, std::uint32_t count) {
    double inv_freq[PhaseBlock::kCapacity];
    schedule.fill(first, count, inv_freq);
    if (spec.inverse)  // -theta: negated angles, exactly
      for (std::uint32_t i = 0; i < count; ++i) inv_freq[i] = -inv_freq[i];
    PhaseBlock phases(inv_freq, count, schedule.attention_factor());
    InterleavedPhases expanded;
    for (std::size_t b = 0; b < spec.batch; ++b) {
      const Positions sequence = positions.sequence(b, seq_len);
      for (std::size_t t = 0; t < seq_len; ++t) {
        phases.advance_to(sequence.at(t));
        if (interleaved) expanded.expand(phases);
        for (std::size_t n = 0; n < tensor_count; ++n) {
          const RotatedHeads& tensor = tensors[n];
          // Head vectors are contiguous; tokens-major rows hold all heads of a token,
          // heads-major rows all tokens of a head.
          const std::size_t batch_start = b * seq_len * tensor.num_heads * head_dim;
          const bool tokens = spec.order == RopeOrder::kTokens;
          const std::size_t row_start = batch_start + t * (tokens ? tensor.num_heads * head_dim : head_dim);
          const std::size_t head_stride = tokens ? head_dim : seq_len * head_dim;
          for (std::size_t head = 0; head < tensor.num_heads; ++head) {
            const std::size_t at = row_start + head * head_stride;
            const float* x = tensor.src + at;
            float* out = tensor.dst + at;
            if (interleaved) {
              kernels::rotate_interleaved(expanded.cos_dup, expanded.sin_signed, x + 2 * first, out + 2 * first,
                                          2 * count);
            } else {
              kernels::rotate_half(phases.cos(), phases.sin(), x + first, x + half + first, out + first,
                                   out + half + first, count);
            }
          }
        }
      }
    }
  });

  // Partial rotary: channels from rotary_dim on pass through (every head vector is contiguous,
  // whatever the order).
  for (std::size_t n = 0; n < tensor_count; ++n) {
    const RotatedHeads& tensor = tensors[n];
    if (tensor.dst == tensor.src || rotary_dim == head_dim) continue;
    const std::size_t vectors = std::size_t{spec.batch} * seq_len * tensor.num_heads;
    for (std::size_t v = 0; v < vectors; ++v) {
      const float* src = tensor.src + v * head_dim;
      std::copy(src + rotary_dim, src + head_dim, tensor.dst + v * head_dim + rotary_dim);
    }
  }
}

bool has_rows(const RopeSpec& spec) { return spec.batch > 0 && spec.seq_len > 0; }

}  // namespace

Status check(const RopeSpec& spec, const BatchPositions& positions) {
  std::uint32_t rotary_dim = 0;
  if (const Status status = check_spec(spec, &rotary_dim); status != Status::kOk) return status;
  return positions.check(spec.batch, spec.seq_len);
}

Status check_qk(const RopeSpec& spec, std::uint32_t num_kv_heads, const BatchPositions& positions) {
  std::uint32_t rotary_dim = 0;
  if (const Status status = check_spec(spec, &rotary_dim); status != Status::kOk) return status;
  if (const Status status = check_kv_heads(spec, num_kv_heads); status != Status::kOk) return status;
  return positions.check(spec.batch, spec.seq_len);
}

Status check(const RopeCacheSpec& spec, const BatchPositions& positions) {
  if (spec.seq_len > kMaxSeqLen) return Status::kSeqLenTooLarge;
  if (const Status status = check_frequencies(spec.rotary_dim, spec.base); status != Status::kOk) return status;
  if (element_count(spec.batch, spec.seq_len) > kMaxSeqLen) return Status::kBatchTooLarge;
  if (const Status status = check(spec.scaling, spec.rotary_dim, spec.base); status != Status::kOk) return status;
  if (!fits(element_count(spec.batch, spec.seq_len, spec.rotary_dim / 2))) return Status::kSizeTooLarge;
  return positions.check(spec.batch, spec.seq_len);
}

Status check(const RopeScheduleSpec& spec) {
  if (spec.head_dim > kMaxDim) return Status::kHeadDimTooLarge;
  if (spec.has_partial_rotary_factor && spec.head_dim < 2) return Status::kHeadDimTooSmall;
  std::uint32_t rotary_dim = 0;
  if (const Status status = rotary_dim_of(spec, &rotary_dim); status != Status::kOk) return status;
  if (spec.head_dim != 0 && rotary_dim > spec.head_dim) return Status::kRotaryDimTooLarge;
  if (const Status status = check_frequencies(rotary_dim, spec.base); status != Status::kOk) return status;
  return check(spec.scaling, rotary_dim, spec.base);
}

Status rope_frequencies(std::uint32_t rotary_dim, double base, double* out) {
  if (const Status status = check_frequencies(rotary_dim, base); status != Status::kOk) return status;
  if (out == nullptr) return Status::kNullPointer;
  for (std::uint32_t i = 0; i < rotary_dim / 2; ++i) out[i] = inverse_frequency(i, rotary_dim, base);
  return Status::kOk;
}

Status rope_schedule(const RopeScheduleSpec& spec, double* inv_freq, double* attention_factor) {
  if (const Status status = check(spec); status != Status::kOk) return status;
  if (inv_freq == nullptr || attention_factor == nullptr) return Status::kNullPointer;
  std::uint32_t rotary_dim = 0;
  rotary_dim_of(spec, &rotary_dim);
  const FrequencySchedule schedule(spec.scaling, rotary_dim, spec.base, spec.seq_len);
  schedule.fill(0, rotary_dim / 2, inv_freq);
  *attention_factor = schedule.attention_factor();
  return Status::kOk;
}

Status rope_cache(const RopeCacheSpec& spec, const BatchPositions& positions, float* cos, float* sin,
                  double* attention_factor) {
  if (const Status status = check(spec, positions); status != Status::kOk) return status;
  const std::size_t rows = std::size_t{spec.batch} * spec.seq_len;
  if ((cos == nullptr || sin == nullptr) && rows > 0) return Status::kNullPointer;
  const std::size_t half = spec.rotary_dim / 2, seq_len = spec.seq_len;
  const FrequencySchedule schedule = schedule_for(spec.scaling, spec.rotary_dim, spec.base, positions, spec.batch,
                                                  spec.seq_len);
  if (attention_factor != nullptr) *attention_factor = schedule.attention_factor();
  if (rows == 0) return Status::kOk;
  for_each_pair_block(static_cast<std::uint32_t>(half), [&](std::uint32_t first, std::uint32_t count) {
    double inv_freq[PhaseBlock::kCapacity];
    schedule.fill(first, count, inv_freq);
    PhaseBlock phases(inv_freq, count, schedule.attention_factor());
    for (std::size_t b = 0; b < spec.batch; ++b) {
      const std::size_t skip = b * seq_len * half + first;
      phases.write_rows<false>(positions.sequence(b, seq_len), seq_len, {sin + skip, cos + skip, half, false});
    }
  });
  return Status::kOk;
}

Status rope(const RopeSpec& spec, const BatchPositions& positions, const float* x, float* out) {
  if (const Status status = check(spec, positions); status != Status::kOk) return status;
  if ((x == nullptr || out == nullptr) && has_rows(spec)) return Status::kNullPointer;
  if (!has_rows(spec)) return Status::kOk;
  std::uint32_t rotary_dim = 0;
  rotary_dim_of(spec, &rotary_dim);
  const RotatedHeads tensor{x, out, spec.num_heads};
  rotate_all(spec, rotary_dim, positions, &tensor, 1);
  return Status::kOk;
}

Status rope_qk(const RopeSpec& spec, std::uint32_t num_kv_heads, const BatchPositions& positions, const float* q,
               float* q_out, const float* k, float* k_out) {
  if (const Status status = check_qk(spec, num_kv_heads, positions); status != Status::kOk) return status;
  if ((q == nullptr || q_out == nullptr || k == nullptr || k_out == nullptr) && has_rows(spec))
    return Status::kNullPointer;
  if (!has_rows(spec)) return Status::kOk;
  std::uint32_t rotary_dim = 0;
  rotary_dim_of(spec, &rotary_dim);
  const RotatedHeads tensors[2] = {{q, q_out, spec.num_heads}, {k, k_out, num_kv_heads}};
  rotate_all(spec, rotary_dim, positions, tensors, 2);
  return Status::kOk;
}

}  // namespace posenc
