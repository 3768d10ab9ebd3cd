#include "posenc/rope.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "dtype_match.h"
#include "mrope_sections.h"
#include "phases.h"
#include "posenc/frequencies.h"
#include "posenc/rope_plan.h"
#include "posenc/size_limits.h"

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
  return resolve_rotary_dim(spec.head_dim, spec.rotary_dim, spec.has_partial_rotary_factor, spec.partial_rotary_factor,
                            out);
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
  if (const Status status = check(spec.xpos); status != Status::kOk) return status;
  if (spec.mrope.enabled && !mrope_sections_fit(spec.mrope, *rotary_dim / 2)) return Status::kMropeSectionInvalid;
  if (spec.mrope.enabled && spec.xpos.enabled) return Status::kMropeWithXpos;
  if (!fits(element_count(spec.batch, spec.seq_len, spec.num_heads, spec.head_dim))) return Status::kSizeTooLarge;
  if (dtype_size(spec.dtype) == 0) return Status::kDtypeInvalid;
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

}  // namespace

Status check_rows(const RopeSpec& spec, const BatchPositions& positions) {
  // M-RoPE's listed positions: one row each of t, h and w.
  const std::uint32_t rows = spec.mrope.enabled && positions.rows.list != nullptr ? 3 * spec.batch : spec.batch;
  return positions.check(rows, spec.seq_len);
}

Status check(const RopeSpec& spec, const BatchPositions& positions) {
  std::uint32_t rotary_dim = 0;
  if (const Status status = check_spec(spec, &rotary_dim); status != Status::kOk) return status;
  return check_rows(spec, positions);
}

Status check_qk(const RopeSpec& spec, std::uint32_t num_kv_heads, const BatchPositions& positions) {
  std::uint32_t rotary_dim = 0;
  if (const Status status = check_spec(spec, &rotary_dim); status != Status::kOk) return status;
  if (const Status status = check_kv_heads(spec, num_kv_heads); status != Status::kOk) return status;
  return check_rows(spec, positions);
}

Status check(const RopeCacheSpec& spec, const BatchPositions& positions) {
  if (spec.seq_len > kMaxSeqLen) return Status::kSeqLenTooLarge;
  if (const Status status = check_frequencies(spec.rotary_dim, spec.base); status != Status::kOk) return status;
  if (element_count(spec.batch, spec.seq_len) > kMaxSeqLen) return Status::kBatchTooLarge;
  if (const Status status = check(spec.scaling, spec.rotary_dim, spec.base); status != Status::kOk) return status;
  if (!fits(element_count(spec.batch, spec.seq_len, spec.rotary_dim / 2))) return Status::kSizeTooLarge;
  if (dtype_size(spec.dtype) == 0) return Status::kDtypeInvalid;
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

namespace {

// The cos/sin cache, each value (times the attention factor) rounded once from float64 to the
// storage type of spec.dtype.
template <class T>
Status cache(const RopeCacheSpec& spec, const BatchPositions& positions, T* cos, T* sin, double* attention_factor,
             double* carry, std::uint64_t length) {
  if (const Status status = check(spec, positions); status != Status::kOk) return status;
  if (carry != nullptr && spec.batch > 1) return Status::kBatchTooLarge;  // a piece is of one sequence
  if (carry != nullptr && depends_on_length(spec.scaling) && length == 0) return Status::kScalingTypeInvalid;
  if (const Status status = dtype_match<T>(spec.dtype); status != Status::kOk) return status;
  const std::size_t rows = std::size_t{spec.batch} * spec.seq_len;
  if ((cos == nullptr || sin == nullptr) && rows > 0) return Status::kNullPointer;
  const std::size_t half = spec.rotary_dim / 2, seq_len = spec.seq_len;
  // A piece is told its call's length; a whole call finds it from its positions.
  const FrequencySchedule schedule =
      length > 0
          ? FrequencySchedule(spec.scaling, spec.rotary_dim, spec.base, depends_on_length(spec.scaling) ? length : 0)
          : schedule_for(spec.scaling, spec.rotary_dim, spec.base, positions, spec.batch, spec.seq_len);
  if (attention_factor != nullptr) *attention_factor = schedule.attention_factor();
  if (rows == 0) return Status::kOk;
  for_each_pair_block(static_cast<std::uint32_t>(half), [&](std::uint32_t first, std::uint32_t count) {
    double inv_freq[PhaseBlock::kCapacity];
    schedule.fill(first, count, inv_freq);
    PhaseBlock phases(inv_freq, count, schedule.attention_factor());
    for (std::size_t b = 0; b < spec.batch; ++b) {
      const std::size_t skip = b * seq_len * half + first;
      double* block_carry =
          carry == nullptr ? nullptr
                           : carry + first / PhaseBlock::kCapacity * PhaseBlock::carry_doubles(PhaseBlock::kCapacity);
      phases.write_rows<false, T>(positions.sequence(b, seq_len), seq_len, {sin + skip, cos + skip, half, false},
                                  spec.dtype, block_carry);
    }
  });
  return Status::kOk;
}

// rope() and rope_qk(): a plan made and applied once.
template <class T>
Status rotate(const RopeSpec& spec, const BatchPositions& positions, const T* x, T* out) {
  RopePlan plan;
  if (const Status status = RopePlan::create(spec, spec.num_heads, &plan); status != Status::kOk) return status;
  return plan.apply(positions, x, out);
}

template <class T>
Status rotate_qk(const RopeSpec& spec, std::uint32_t num_kv_heads, const BatchPositions& positions, const T* q,
                 T* q_out, const T* k, T* k_out) {
  RopePlan plan;
  if (const Status status = RopePlan::create(spec, num_kv_heads, &plan); status != Status::kOk) return status;
  return plan.apply_qk(positions, q, q_out, k, k_out);
}

}  // namespace

Status rope_cache(const RopeCacheSpec& spec, const BatchPositions& positions, float* cos, float* sin,
                  double* attention_factor, double* carry, std::uint64_t length) {
  return cache(spec, positions, cos, sin, attention_factor, carry, length);
}

Status rope_cache(const RopeCacheSpec& spec, const BatchPositions& positions, std::uint16_t* cos, std::uint16_t* sin,
                  double* attention_factor, double* carry, std::uint64_t length) {
  return cache(spec, positions, cos, sin, attention_factor, carry, length);
}

Status rope(const RopeSpec& spec, const BatchPositions& positions, const float* x, float* out) {
  return rotate(spec, positions, x, out);
}

Status rope(const RopeSpec& spec, const BatchPositions& positions, const std::uint16_t* x, std::uint16_t* out) {
  return rotate(spec, positions, x, out);
}

Status rope_qk(const RopeSpec& spec, std::uint32_t num_kv_heads, const BatchPositions& positions, const float* q,
               float* q_out, const float* k, float* k_out) {
  return rotate_qk(spec, num_kv_heads, positions, q, q_out, k, k_out);
}

Status rope_qk(const RopeSpec& spec, std::uint32_t num_kv_heads, const BatchPositions& positions,
               const std::uint16_t* q, std::uint16_t* q_out, const std::uint16_t* k, std::uint16_t* k_out) {
  return rotate_qk(spec, num_kv_heads, positions, q, q_out, k, k_out);
}

}  // namespace posenc
