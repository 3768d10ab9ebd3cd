#include "posenc/rope_plan.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <new>
#include <optional>

#include "axis_phases.h"
#include "dtype_match.h"
#include "kernels/dispatch.h"
#include "kernels/storage.h"
#include "mrope_sections.h"
#include "phases.h"
#include "posenc/rope_scaling.h"
#include "xpos_scale.h"

namespace posenc {

struct RopePlan::Tensor {
  const void* src;  // elements of the plan's dtype (kernels/storage.h)
  void* dst;
  std::uint32_t num_heads;
  XposRole role;  // with xPos: queries scaled up, keys down
};

namespace {

// A nothrow array: allocation failure is a status, never an exception or an abort.
std::unique_ptr<double[]> allocate_doubles(std::size_t count) {
  return std::unique_ptr<double[]>(new (std::nothrow) double[count == 0 ? 1 : count]);
}

bool has_rows(const RopeSpec& spec) { return spec.batch > 0 && spec.seq_len > 0; }

std::unique_ptr<std::uint8_t[]> allocate_axes(std::size_t count) {
  return std::unique_ptr<std::uint8_t[]>(new (std::nothrow) std::uint8_t[count == 0 ? 1 : count]);
}

// One row's rotation of a tensor's heads: `offset` elements into src and dst (the row and the
// pair block's first channel), in the storage and pairing of the call.
using RotateRow = void (*)(const float* cos, const float* sin, const void* src, void* dst, std::size_t offset,
                           std::size_t half, std::size_t heads, std::size_t head_stride, kernels::HeadOrder order,
                           std::size_t pairs);

template <class Storage, bool Interleaved>
void rotate_row(const float* cos, const float* sin, const void* src, void* dst, std::size_t offset, std::size_t half,
                std::size_t heads, std::size_t head_stride, kernels::HeadOrder order, std::size_t pairs) {
  using T = typename Storage::type;
  const T* x = static_cast<const T*>(src) + offset;
  T* y = static_cast<T*>(dst) + offset;
  if constexpr (Interleaved)
    kernels::rotate_interleaved_of<Storage>(cos, sin, x, y, heads, head_stride, order, pairs);
  else
    kernels::rotate_half_of<Storage>(cos, sin, x, y, half, heads, head_stride, order, pairs);
}

// The row rotation of a call: one choice per call, not per row.
RotateRow row_rotation(Dtype dtype, bool interleaved) {
  return kernels::with_storage<void>(dtype, [&](auto storage) -> RotateRow {
    using Storage = decltype(storage);
    return interleaved ? &rotate_row<Storage, true> : &rotate_row<Storage, false>;
  });
}

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
  if (spec.mrope.enabled) {
    made.pair_axes_ = allocate_axes(pairs);
    if (!made.pair_axes_) return Status::kOutOfMemory;
    mrope_pair_axes(spec.mrope, pairs, made.pair_axes_.get());
    made.axes_ = 3;
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

Status RopePlan::create_axes(const RopeSpec& spec, const double* inv_freq, const std::uint8_t* axis_of,
                             std::uint32_t axes, RopePlan* plan) {
  if (inv_freq == nullptr || axis_of == nullptr || axes < 1 || axes > AxisPhases::kMaxAxes) return Status::kNullPointer;
  RopeSpec plain = spec;
  plain.scaling = RopeScaling{};
  plain.mrope = MropeSpec{};
  plain.xpos = XposSpec{};
  RopePlan made;
  if (const Status status = create(plain, spec.num_heads, &made); status != Status::kOk) return status;
  const std::uint32_t pairs = made.rotary_dim_ / 2;
  made.pair_axes_ = allocate_axes(pairs);
  if (!made.pair_axes_) return Status::kOutOfMemory;
  for (std::uint32_t i = 0; i < pairs; ++i) {
    if (axis_of[i] >= axes) return Status::kNullPointer;  // a caller's bug, refused rather than read past
    made.inv_freq_[i] = inv_freq[i];
    made.pair_axes_[i] = axis_of[i];
  }
  made.axes_ = axes;
  *plan = std::move(made);
  return Status::kOk;
}

AxisRows RopePlan::axis_rows_of(const BatchPositions& positions) const {
  if (pair_axes_ == nullptr || positions.rows.list == nullptr) return AxisRows{};
  const std::size_t rows = std::size_t{spec_.batch} * spec_.seq_len;
  return AxisRows{positions.rows.list, rows, spec_.seq_len};
}

template <class T>
Status RopePlan::apply_typed(const BatchPositions& positions, const T* x, T* out, XposRole role) const {
  if (const Status status = role_of(role, &role); status != Status::kOk) return status;
  if (const Status status = check_rows(spec_, positions); status != Status::kOk) return status;
  if (const Status status = dtype_match<T>(spec_.dtype); status != Status::kOk) return status;
  if ((x == nullptr || out == nullptr) && has_rows(spec_)) return Status::kNullPointer;
  const Tensor tensor{x, out, spec_.num_heads, role};
  const AxisRows rows = axis_rows_of(positions);
  return rotate(spec_, positions, rows.list != nullptr ? &rows : nullptr, &tensor, 1, nullptr);
}

Status RopePlan::apply(const BatchPositions& positions, const float* x, float* out, XposRole role) const {
  return apply_typed(positions, x, out, role);
}

Status RopePlan::apply(const BatchPositions& positions, const std::uint16_t* x, std::uint16_t* out,
                       XposRole role) const {
  return apply_typed(positions, x, out, role);
}

template <class T>
Status RopePlan::apply_qk_typed(const BatchPositions& positions, const T* q, T* q_out, const T* k, T* k_out) const {
  if (spec_.xpos.role != XposRole::kNone) return Status::kXposRoleNotTaken;  // queries up, keys down
  if (const Status status = check_rows(spec_, positions); status != Status::kOk) return status;
  if (const Status status = dtype_match<T>(spec_.dtype); status != Status::kOk) return status;
  if ((q == nullptr || q_out == nullptr || k == nullptr || k_out == nullptr) && has_rows(spec_))
    return Status::kNullPointer;
  const Tensor tensors[2] = {{q, q_out, spec_.num_heads, XposRole::kQuery}, {k, k_out, num_kv_heads_, XposRole::kKey}};
  const AxisRows rows = axis_rows_of(positions);
  return rotate(spec_, positions, rows.list != nullptr ? &rows : nullptr, tensors, 2, nullptr);
}

Status RopePlan::apply_qk(const BatchPositions& positions, const float* q, float* q_out, const float* k,
                          float* k_out) const {
  return apply_qk_typed(positions, q, q_out, k, k_out);
}

Status RopePlan::apply_qk(const BatchPositions& positions, const std::uint16_t* q, std::uint16_t* q_out,
                          const std::uint16_t* k, std::uint16_t* k_out) const {
  return apply_qk_typed(positions, q, q_out, k, k_out);
}

Status RopePlan::apply_axes(const AxisRows& rows, const float* x, float* out) const {
  if (const Status status = dtype_match<float>(spec_.dtype); status != Status::kOk) return status;
  if (rows.list == nullptr && has_rows(spec_)) return Status::kNullPointer;
  if ((x == nullptr || out == nullptr) && has_rows(spec_)) return Status::kNullPointer;
  const Tensor tensor{x, out, spec_.num_heads, XposRole::kNone};
  return rotate(spec_, Positions{}, &rows, &tensor, 1, nullptr);
}

std::size_t RopePlan::carry_doubles() const {
  std::size_t doubles = 0;
  for_each_pair_block(rotary_dim_ / 2, [&](std::uint32_t first, std::uint32_t pairs) {
    doubles += AxisPhases::carry_doubles(axes_of(first), pairs);
  });
  return doubles;
}

template <class T>
Status RopePlan::apply_piece_typed(const Positions& positions, std::uint32_t rows, const T* x, T* out, double* carry,
                                   XposRole role, std::uint64_t length) const {
  // A schedule that goes by the length needs the whole call's: a piece's own rows would give another.
  if (depends_on_length(spec_.scaling) && length == 0) return Status::kScalingTypeInvalid;
  if (const Status status = role_of(role, &role); status != Status::kOk) return status;
  if (const Status status = positions.check(rows); status != Status::kOk) return status;
  // The arrays' type after the rules of the spec and the positions, as in the other operations.
  if (const Status status = dtype_match<T>(spec_.dtype); status != Status::kOk) return status;
  if ((x == nullptr || out == nullptr || carry == nullptr) && rows > 0) return Status::kNullPointer;
  RopeSpec shape = spec_;
  shape.batch = 1;
  shape.seq_len = rows;
  shape.order = RopeOrder::kTokens;
  const Tensor tensor{x, out, spec_.num_heads, role};
  return rotate(shape, positions, nullptr, &tensor, 1, carry, length);
}

Status RopePlan::apply_piece(const Positions& positions, std::uint32_t rows, const float* x, float* out, double* carry,
                             XposRole role, std::uint64_t length) const {
  return apply_piece_typed(positions, rows, x, out, carry, role, length);
}

Status RopePlan::apply_piece(const Positions& positions, std::uint32_t rows, const std::uint16_t* x, std::uint16_t* out,
                             double* carry, XposRole role, std::uint64_t length) const {
  return apply_piece_typed(positions, rows, x, out, carry, role, length);
}

// Rotates every tensor at the checked positions: pair blocks outermost, so each block's phases
// advance once per row and serve every head of every tensor.
Status RopePlan::rotate(const RopeSpec& shape, const BatchPositions& positions, const AxisRows* axis_rows,
                        const Tensor* tensors, std::size_t count, double* carry, std::uint64_t length) const {
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
    // Every axis's positions count (transformers: max(position_ids) + 1 over all three rows); a
    // piece is told its call's length.
    const std::uint64_t schedule_length =
        length > 0             ? length
        : axis_rows != nullptr ? BatchPositions(Positions{axis_rows->list, 0}).length(axes_, axis_rows->axis_stride)
                               : positions.length(shape.batch, shape.seq_len);
    const FrequencySchedule schedule(spec_.scaling, rotary_dim_, spec_.base, schedule_length);
    schedule.fill(0, static_cast<std::uint32_t>(half), per_call.get());
    inv_freq = per_call.get();
  }

  // A tensor that fits in cache (a decoding step's few rows) is rotated across heads, each cos/sin
  // batch loaded once for every head of a row; a larger one head by head, reading memory in order.
  const std::size_t element_size = dtype_size(spec_.dtype);
  std::size_t elements = 0;
  for (std::size_t n = 0; n < count; ++n)
    elements += std::size_t{shape.batch} * seq_len * tensors[n].num_heads * head_dim;
  const kernels::HeadOrder head_order =
      elements * element_size <= kInCacheBytes ? kernels::HeadOrder::kAcrossHeads : kernels::HeadOrder::kHeadByHead;
  const RotateRow rotate_row_of_call = row_rotation(spec_.dtype, interleaved);

  std::size_t carried = 0;  // where this pair block's state sits in `carry`
  for_each_pair_block(static_cast<std::uint32_t>(half), [&](std::uint32_t first, std::uint32_t pairs) {
    double block_freq[PhaseBlock::kCapacity];
    for (std::uint32_t i = 0; i < pairs; ++i)  // inverse: -theta, negated exactly
      block_freq[i] = spec_.inverse ? -inv_freq[first + i] : inv_freq[first + i];
    // One set of phases per tensor with xPos (each role its own scale; xPos has a single axis:
    // check() refuses it with M-RoPE), else one set shared by every tensor.
    const std::size_t sets = spec_.xpos.enabled ? count : 1;
    std::optional<AxisPhases> phase_sets[kMaxTensors];
    for (std::size_t n = 0; n < sets; ++n) {
      phase_sets[n].emplace(block_freq, axes_of(first), pairs, attention_factor_);
      if (spec_.xpos.enabled)
        grow_as(phase_sets[n]->single_block(), spec_.xpos, rotary_dim_, first, tensors[n].role, spec_.inverse, center);
    }
    if (carry != nullptr) phase_sets[0]->restore(carry + carried);  // a piece rotates one tensor
    std::int64_t at[AxisPhases::kMaxAxes];                          // the row's position on each axis
    for (std::size_t b = 0; b < shape.batch; ++b) {
      const Positions sequence = positions.sequence(b, seq_len);
      for (std::size_t t = 0; t < seq_len; ++t) {
        for (std::uint32_t a = 0; a < axes_; ++a)
          at[a] = axis_rows == nullptr ? sequence.at(t)
                                       : axis_rows->list[a * axis_rows->axis_stride + b * axis_rows->batch_stride + t];
        for (std::size_t n = 0; n < sets; ++n) phase_sets[n]->advance_to(at);
        for (std::size_t n = 0; n < count; ++n) {
          const Tensor& tensor = tensors[n];
          const AxisPhases& phases = *phase_sets[sets == 1 ? 0 : n];
          // Head vectors are contiguous; tokens-major rows hold all heads of a token,
          // heads-major rows all tokens of a head.
          const std::size_t batch_start = b * seq_len * tensor.num_heads * head_dim;
          const std::size_t row_start = batch_start + t * (tokens ? tensor.num_heads * head_dim : head_dim);
          const std::size_t head_stride = tokens ? head_dim : seq_len * head_dim;
          rotate_row_of_call(phases.cos(), phases.sin(), tensor.src, tensor.dst,
                             row_start + (interleaved ? 2 * first : first), half, tensor.num_heads, head_stride,
                             head_order, pairs);
        }
      }
    }
    if (carry != nullptr) {
      phase_sets[0]->save(carry + carried);
      carried += AxisPhases::carry_doubles(axes_of(first), pairs);
    }
  });

  // Partial rotary: channels from rotary_dim on pass through as they are stored, bits copied
  // (every head vector is contiguous, whatever the order).
  const std::size_t vector_bytes = head_dim * element_size, rotary_bytes = rotary_dim_ * element_size;
  for (std::size_t n = 0; n < count; ++n) {
    const Tensor& tensor = tensors[n];
    if (tensor.dst == tensor.src || rotary_dim_ == head_dim) continue;
    const std::size_t vectors = std::size_t{shape.batch} * seq_len * tensor.num_heads;
    const auto* src = static_cast<const unsigned char*>(tensor.src);
    auto* dst = static_cast<unsigned char*>(tensor.dst);
    for (std::size_t v = 0; v < vectors; ++v)
      std::memcpy(dst + v * vector_bytes + rotary_bytes, src + v * vector_bytes + rotary_bytes,
                  vector_bytes - rotary_bytes);
  }
  return Status::kOk;
}

}  // namespace posenc
