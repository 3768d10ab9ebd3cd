// A RoPE call prepared once: the spec validated, its rotary dimension resolved, its inverse
// frequencies and attention factor computed (and longrope's factor lists copied in). apply()
// then takes only positions and arrays, which is what a decoding loop needs: it rotates one
// token per call, many times, with the same shape. rope() and rope_qk() are a plan made and
// applied once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "batch_positions.h"
#include "rope.h"
#include "status.h"

namespace posenc {

// Where the rows of a rotation by several axes sit (M-RoPE, image grids): row t of sequence b is
// at list[a * axis_stride + b * batch_stride + t] on axis a.
struct AxisRows {
  const std::int32_t* list = nullptr;
  std::size_t axis_stride = 0;
  std::size_t batch_stride = 0;
};

class RopePlan {
 public:
  RopePlan() = default;

  // Checks every rule of `spec` (its positions aside) and of num_kv_heads, the head count of
  // the keys apply_qk() rotates, then prepares the plan. kOutOfMemory if its tables cannot be
  // allocated.
  static Status create(const RopeSpec& spec, std::uint32_t num_kv_heads, RopePlan* plan);

  // x, out: [batch, seq_len, num_heads, head_dim] (order kTokens) or [batch, num_heads,
  // seq_len, head_dim] (kHeads). out may equal x (in place) but must not otherwise overlap it.
  // With xPos, x is scaled as `role` says (kNone: the spec's xpos.role; one of them is needed).
  Status apply(const BatchPositions& positions, const float* x, float* out, XposRole role = XposRole::kNone) const;

  // Queries (num_heads heads) and keys (num_kv_heads heads) of the same rows, each position's
  // cos/sin computed once for both. Each output may equal its input; otherwise no two of q,
  // q_out, k, k_out may overlap. With xPos, queries are scaled up and keys down, about one
  // center (the spec's xpos.role must not be set).
  Status apply_qk(const BatchPositions& positions, const float* q, float* q_out, const float* k, float* k_out) const;

  // Rows of one long sequence rotated a piece at a time, as when a JS array is streamed through
  // WASM memory a block of rows at a time: x and out hold `rows` rows ([rows, num_heads,
  // head_dim], whatever the plan's batch and order) at `positions`. `carry` (carry_doubles()
  // doubles, zeroed before the first piece) takes each pair block's recurrence from one piece
  // to the next, so consecutive pieces give the bits of one apply() over the whole sequence.
  // Schedules that depend on the sequence length (dynamic, longrope) and xPos's default center
  // go by the whole sequence: `length` is its largest position + 1 (0: this piece's own, which
  // dynamic and longrope refuse: kScalingTypeInvalid), and `role` is apply()'s.
  std::size_t carry_doubles() const;
  Status apply_piece(const Positions& positions, std::uint32_t rows, const float* x, float* out, double* carry,
                     XposRole role = XposRole::kNone, std::uint64_t length = 0) const;

  // A plan whose pairs turn at the given inverse frequencies (rotary_dim/2 of them, the spec's
  // base and scaling unused) by positions on the axes axis_of gives (< AxisPhases::kMaxAxes):
  // 2-D image RoPE (rope_grid.h). apply_axes() then rotates with the rows at `rows`.
  static Status create_axes(const RopeSpec& spec, const double* inv_freq, const std::uint8_t* axis_of,
                            std::uint32_t axes, RopePlan* plan);
  Status apply_axes(const AxisRows& rows, const float* x, float* out) const;

  // The same on half-precision tensors (the plan's spec.dtype float16 or bfloat16; the other
  // pointer type is kDtypeMismatch): see rope() in rope.h for the arithmetic.
  Status apply(const BatchPositions& positions, const std::uint16_t* x, std::uint16_t* out,
               XposRole role = XposRole::kNone) const;
  Status apply_qk(const BatchPositions& positions, const std::uint16_t* q, std::uint16_t* q_out, const std::uint16_t* k,
                  std::uint16_t* k_out) const;
  Status apply_piece(const Positions& positions, std::uint32_t rows, const std::uint16_t* x, std::uint16_t* out,
                     double* carry, XposRole role = XposRole::kNone, std::uint64_t length = 0) const;

  const RopeSpec& spec() const { return spec_; }
  std::uint32_t rotary_dim() const { return rotary_dim_; }
  std::uint32_t num_kv_heads() const { return num_kv_heads_; }
  double attention_factor() const { return attention_factor_; }

 private:
  struct Tensor;                                 // one tensor of heads rotated at the plan's rows
  static constexpr std::size_t kMaxTensors = 2;  // queries and keys
  Status role_of(XposRole given, XposRole* role) const;
  // apply(), apply_qk() and apply_piece() for arrays of T (float, or 16-bit half patterns; the
  // other type than the plan's dtype stores is kDtypeMismatch).
  template <class T>
  Status apply_typed(const BatchPositions& positions, const T* x, T* out, XposRole role) const;
  template <class T>
  Status apply_qk_typed(const BatchPositions& positions, const T* q, T* q_out, const T* k, T* k_out) const;
  template <class T>
  Status apply_piece_typed(const Positions& positions, std::uint32_t rows, const T* x, T* out, double* carry,
                           XposRole role, std::uint64_t length) const;
  // Rotates `tensors` with the rows `shape` gives (its batch, seq_len and order; every other
  // field is the plan's), continuing and saving the recurrence in `carry` when it is set.
  // `axis_rows`, when set, holds where the rows sit on each of the plan's axes; else every axis
  // is at `positions`. `length` (0: from `positions`) places xPos's default center.
  Status rotate(const RopeSpec& shape, const BatchPositions& positions, const AxisRows* axis_rows,
                const Tensor* tensors, std::size_t count, double* carry, std::uint64_t length = 0) const;
  // M-RoPE's listed positions as rows of its three axes (none for one axis or an offset).
  AxisRows axis_rows_of(const BatchPositions& positions) const;
  // The axes of the pairs from `first` on, null with one axis.
  const std::uint8_t* axes_of(std::uint32_t first) const { return pair_axes_ ? pair_axes_.get() + first : nullptr; }

  RopeSpec spec_;
  std::uint32_t rotary_dim_ = 0;
  std::uint32_t num_kv_heads_ = 0;
  double attention_factor_ = 1.0;
  // rotary_dim/2 inverse frequencies, when they do not depend on the sequence length (all
  // schedules but dynamic and longrope, which are computed per call from the positions).
  std::unique_ptr<double[]> inv_freq_;
  std::unique_ptr<double[]> factor_lists_;  // longrope: short then long factors; spec_.scaling points here
  // Several axes (M-RoPE, image grids): each pair's axis; null when every pair is on one.
  std::unique_ptr<std::uint8_t[]> pair_axes_;
  std::uint32_t axes_ = 1;
};

}  // namespace posenc
