#include "posenc/rope_plan.h"

#include <algorithm>
#include <cstddef>
#include <new>

#include "kernels/dispatch.h"
#include "phases.h"
#include "posenc/rope_scaling.h"
#include "xpos_scale.h"

namespace posenc {

struct RopePlan::Tensor {
  const float* src;
  float* dst;
  std::uint32_t num_heads;
  XposRole role;  // with xPos: queries scaled up, keys down
};

namespace {

// A nothrow array: allocation failure is a status, never an exception or an abort.
std::unique_ptr<double[]> allocate_doubles(std::size_t count) {
  return std::unique_ptr<double[]>(new (std::nothrow) double[count == 0 ? 1 : count]);
}

bool has_rows(const RopeSpec& spec) { return spec.batch > 0 && spec.seq_len > 0; }

// What "fits in cache" means for the order heads are rotated in (about a core's L2).
constexpr std::size_t kInCacheBytes = 256 * 1024;

// The schedule's frequencies into `out`. The last unscaled schedule is kept: a decoding loop
// that calls rope() token by token asks for the same dimension and base each time, and one
// pow() per pair is then most of a one-row call. The values are the same either way. The copy
// lives in static storage (head dimensions up to 2 * kKeptPairs), so keeping it allocates
// nothing.
constexpr std::uint32_t kKeptPairs = 512;

void fill_frequencies(const FrequencySchedule& schedule, const RopeScaling& scaling, std::uint32_t rotary_dim,
                      double base, double* out) {
  const std::uint32_t pairs = rotary_dim / 2;
  if (scaling.type != RopeScalingType::kNone || pairs > kKeptPairs) return schedule.fill(0, pairs, out);
  thread_local std::uint32_t kept_dim = 0;
  thread_local double kept_base = 0.0;
  thread_local double kept[kKeptPairs];
  if (kept_dim != rotary_dim || !(kept_base == base)) {
    schedule.fill(0, pairs, kept);
    kept_dim = rotary_dim;
    kept_base = base;
  }
  std::copy(kept, kept + pairs, out);
}

}  // namespace

Status RopePlan::create(const RopeSpec& spec, std::uint32_t num_kv_heads, RopePlan* plan) {
  if (const Status status = check_qk(spec, num_kv_heads, Positions{}); status != Status::kOk) return status;
  RopePlan made;
  made.spec_ = spec;
  made.num_kv_heads_ = num_kv_heads;
  resolve_rotary_dim(spec.head_dim, spec.rotary_dim, spec.has_partial_rotary_factor, spec.partial_rotary_factor,
                     &made.rotary_dim_);
  const std::uint32_t pairs = made.rotary_dim_ / 2;
  RopeScaling& scaling = made.spec_.scaling;
  if (scaling.type == RopeScalingType::kLongrope) {
    made.factor_lists_ = allocate_doubles(2 * std::size_t{pairs});
    if (!made.factor_lists_) return Status::kOutOfMemory;
    std::copy(scaling.short_factor, scaling.short_factor + pairs, made.factor_lists_.get());
    std::copy(scaling.long_factor, scaling.long_factor + pairs, made.factor_lists_.get() + pairs);
    scaling.short_factor = made.factor_lists_.get();
    scaling.long_factor = made.factor_lists_.get() + pairs;
  }
  const FrequencySchedule schedule(scaling, made.rotary_dim_, spec.base, 0);
  made.attention_factor_ = schedule.attention_factor();  // the same at every length
  if (!depends_on_length(scaling)) {
    made.inv_freq_ = allocate_doubles(pairs);
    if (!made.inv_freq_) return Status::kOutOfMemory;
    fill_frequencies(schedule, scaling, made.rotary_dim_, spec.base, made.inv_freq_.get());
  }
  *plan = std::move(made);
  return Status::kOk;
}

// The role a single tensor is rotated with: the one given, else the spec's; xPos needs one.
Status RopePlan::role_of(XposRole given, XposRole* role) const {
  *role = given != XposRole::kNone ? given : spec_.xpos.role;
  if (!spec_.xpos.enabled) return *role == XposRole::kNone ? Status::kOk : Status::kXposRoleNotTaken;
  if (*role != XposRole::kQuery && *role != XposRole::kKey)
    return *role == XposRole::kNone ? Status::kXposRoleMissing : Status::kXposRoleInvalid;
  return Status::kOk;
}

Status RopePlan::apply(const BatchPositions& positions, const float* x, float* out, XposRole role) const {
  if (const Status status = role_of(role, &role); status != Status::kOk) return status;
  if (const Status status = positions.check(spec_.batch, spec_.seq_len); status != Status::kOk) return status;
  if ((x == nullptr || out == nullptr) && has_rows(spec_)) return Status::kNullPointer;
  const Tensor tensor{x, out, spec_.num_heads, role};
  return rotate(spec_, positions, &tensor, 1, nullptr);
}

Status RopePlan::apply_qk(const BatchPositions& positions, const float* q, float* q_out, const float* k,
                          float* k_out) const {
  if (spec_.xpos.role != XposRole::kNone) return Status::kXposRoleNotTaken;  // queries up, keys down
  if (const Status status = positions.check(spec_.batch, spec_.seq_len); status != Status::kOk) return status;
  if ((q == nullptr || q_out == nullptr || k == nullptr || k_out == nullptr) && has_rows(spec_))
    return Status::kNullPointer;
  const Tensor tensors[2] = {{q, q_out, spec_.num_heads, XposRole::kQuery}, {k, k_out, num_kv_heads_, XposRole::kKey}};
  return rotate(spec_, positions, tensors, 2, nullptr);
}

std::size_t RopePlan::carry_doubles() const {
  std::size_t doubles = 0;
  for_each_pair_block(rotary_dim_ / 2,
                      [&](std::uint32_t, std::uint32_t pairs) { doubles += PhaseBlock::carry_doubles(pairs); });
  return doubles;
}

Status RopePlan::apply_piece(const Positions& positions, std::uint32_t rows, const float* x, float* out, double* carry,
                             XposRole role, std::uint64_t length) const {
  if (depends_on_length(spec_.scaling)) return Status::kScalingTypeInvalid;
  if (const Status status = role_of(role, &role); status != Status::kOk) return status;
  if (const Status status = positions.check(rows); status != Status::kOk) return status;
  if ((x == nullptr || out == nullptr || carry == nullptr) && rows > 0) return Status::kNullPointer;
  RopeSpec shape = spec_;
  shape.batch = 1;
  shape.seq_len = rows;
  shape.order = RopeOrder::kTokens;
  const Tensor tensor{x, out, spec_.num_heads, role};
  return rotate(shape, positions, &tensor, 1, carry, length);
}

// Rotates every tensor at the checked positions: pair blocks outermost, so each block's phases
// advance once per row and serve every head of every tensor.
Status RopePlan::rotate(const RopeSpec& shape, const BatchPositions& positions, const Tensor* tensors,
                        std::size_t count, double* carry, std::uint64_t length) const {
  if (!has_rows(shape)) return Status::kOk;
  std::int64_t center = 0;  // xPos: one for every tensor of the call, checked before any write
  if (spec_.xpos.enabled) {
    const Status status =
        xpos_call_center(spec_.xpos, attention_factor_, positions, shape.batch, shape.seq_len, length, &center);
    if (status != Status::kOk) return status;
  }
  const std::size_t head_dim = spec_.head_dim, half = rotary_dim_ / 2, seq_len = shape.seq_len;
  const bool interleaved = spec_.layout == RopeLayout::kInterleaved;
  const bool tokens = shape.order == RopeOrder::kTokens;

  // Dynamic and longrope schedules go by this call's length: the largest position + 1.
  std::unique_ptr<double[]> per_call;
  const double* inv_freq = inv_freq_.get();
  if (inv_freq == nullptr) {
    per_call = allocate_doubles(half);
    if (!per_call) return Status::kOutOfMemory;
    const FrequencySchedule schedule(spec_.scaling, rotary_dim_, spec_.base,
                                     positions.length(shape.batch, shape.seq_len));
    schedule.fill(0, static_cast<std::uint32_t>(half), per_call.get());
    inv_freq = per_call.get();
  }

  // A tensor that fits in cache (a decoding step's few rows) is rotated across heads, each cos/sin
  // batch loaded once for every head of a row; a larger one head by head, reading memory in order.
  std::size_t floats = 0;
  for (std::size_t n = 0; n < count; ++n)
    floats += std::size_t{shape.batch} * seq_len * tensors[n].num_heads * head_dim;
  const kernels::HeadOrder head_order =
      floats * sizeof(float) <= kInCacheBytes ? kernels::HeadOrder::kAcrossHeads : kernels::HeadOrder::kHeadByHead;

  std::size_t carried = 0;  // where this pair block's state sits in `carry`
  for_each_pair_block(static_cast<std::uint32_t>(half), [&](std::uint32_t first, std::uint32_t pairs) {
    double block_freq[PhaseBlock::kCapacity];
    for (std::uint32_t i = 0; i < pairs; ++i)  // inverse: -theta, negated exactly
      block_freq[i] = spec_.inverse ? -inv_freq[first + i] : inv_freq[first + i];
    // One phase block per tensor with xPos (each role its own scale), else one shared by all.
    PhaseBlock phase_blocks[kMaxTensors] = {{block_freq, pairs, attention_factor_},
                                            {block_freq, pairs, attention_factor_}};
    const std::size_t blocks = spec_.xpos.enabled ? count : 1;
    for (std::size_t n = 0; spec_.xpos.enabled && n < blocks; ++n)
      grow_as(&phase_blocks[n], spec_.xpos, rotary_dim_, first, tensors[n].role, spec_.inverse, center);
    if (carry != nullptr) phase_blocks[0].restore(carry + carried);  // a piece rotates one tensor
    for (std::size_t b = 0; b < shape.batch; ++b) {
      const Positions sequence = positions.sequence(b, seq_len);
      for (std::size_t t = 0; t < seq_len; ++t) {
        for (std::size_t n = 0; n < blocks; ++n) phase_blocks[n].advance_to(sequence.at(t));
        for (std::size_t n = 0; n < count; ++n) {
          const Tensor& tensor = tensors[n];
          const PhaseBlock& phases = phase_blocks[blocks == 1 ? 0 : n];
          // Head vectors are contiguous; tokens-major rows hold all heads of a token,
          // heads-major rows all tokens of a head.
          const std::size_t batch_start = b * seq_len * tensor.num_heads * head_dim;
          const std::size_t row_start = batch_start + t * (tokens ? tensor.num_heads * head_dim : head_dim);
          const std::size_t head_stride = tokens ? head_dim : seq_len * head_dim;
          const float* x = tensor.src + row_start;
          float* out = tensor.dst + row_start;
          if (interleaved) {
            kernels::rotate_interleaved(phases.cos(), phases.sin(), x + 2 * first, out + 2 * first, tensor.num_heads,
                                        head_stride, head_order, pairs);
          } else {
            kernels::rotate_half(phases.cos(), phases.sin(), x + first, out + first, half, tensor.num_heads,
                                 head_stride, head_order, pairs);
          }
        }
      }
    }
    if (carry != nullptr) {
      phase_blocks[0].save(carry + carried);
      carried += PhaseBlock::carry_doubles(pairs);
    }
  });

  // Partial rotary: channels from rotary_dim on pass through (every head vector is contiguous,
  // whatever the order).
  for (std::size_t n = 0; n < count; ++n) {
    const Tensor& tensor = tensors[n];
    if (tensor.dst == tensor.src || rotary_dim_ == head_dim) continue;
    const std::size_t vectors = std::size_t{shape.batch} * seq_len * tensor.num_heads;
    for (std::size_t v = 0; v < vectors; ++v) {
      const float* src = tensor.src + v * head_dim;
      std::copy(src + rotary_dim_, src + head_dim, tensor.dst + v * head_dim + rotary_dim_);
    }
  }
  return Status::kOk;
}

}  // namespace posenc
