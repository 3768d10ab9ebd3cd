// cos and sin of position * inv_freq for a block of frequency pairs, one row (position) at a
// time, computed in float64 and rounded once to float32.
//
// Why float64: in float32, position * inv_freq loses absolute precision as positions grow
// (the PyTorch tutorial's float32 table code at dModel 512 is off by 1.4e-4 below position 2048).
// Computing the angle and its sin/cos in float64 keeps every value within float32 rounding
// of the exact one.
//
// Why it is still cheap: consecutive positions advance by a rotation recurrence in float64
// (a few multiply-adds per pair), re-anchored with direct sin/cos every kAnchorInterval rows
// and at every jump. Each step adds at most a few float64 ulps (~1e-16), so 1024 steps stay
// near 1e-13, far below float32 rounding (6e-8).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/rows_out.h"
#include "posenc/half.h"
#include "posenc/positions.h"

namespace posenc {

class PhaseBlock {
 public:
  static constexpr std::size_t kCapacity = 128;           // pairs per block (stack buffers)
  static constexpr std::uint32_t kAnchorInterval = 1024;  // recurrence steps between anchors
  static constexpr std::size_t kRowTile = 4;  // rows per register pass (few: row strides of 4 KiB alias in L1)

  // Pairs [first_pair, first_pair + count) of a dim-wide schedule; count <= kCapacity.
  PhaseBlock(std::uint32_t first_pair, std::uint32_t count, std::uint32_t dim, double base);

  // Pairs with the given inverse frequencies (a block of a scaled schedule; negative ones turn
  // backwards), count <= kCapacity. cos and sin are multiplied by `scale` (an attention factor)
  // in float64 before rounding: the anchors are scaled, and the recurrence, being linear,
  // carries the scale to every following row at no cost.
  PhaseBlock(const double* inv_freq, std::uint32_t count, double scale = 1.0);

  // A geometric growth per pair on top (xPos, xpos_scale.h): pair i's cos and sin are also
  // multiplied by exp((position - center) * log_growth[i]), computed directly at each anchor;
  // the one-position step is multiplied by exp(log_growth[i]), which the linear recurrence
  // carries along like the uniform scale. Call before the first row.
  void grow(const double* log_growth, std::int64_t center);

  // Makes cos()/sin() hold the values for `position` (>= 0). For per-row consumers (RoPE).
  void advance_to(std::int64_t position);

  // Writes (or adds) the sin/cos of rows [0, seq_len) into a table; `out` points at this block's
  // first pair in row 0. For whole tables: runs of consecutive positions keep the recurrence
  // state in registers (kernels/phase_rows.h). T is float, or std::uint16_t for a float16 or
  // bfloat16 table (`dtype` says which): each value rounded once from float64 to the storage
  // type; a sum is the float32 one of the widened element and the float32 value, rounded once.
  // With `carry` (2 + 2 * kCapacity doubles, zeroed before the first piece), the rows are a
  // piece of a longer table: a first row that continues the last piece's run of consecutive
  // positions steps on from its saved state, and the state is saved again (table_pieces.h).
  template <bool Accumulate, class T = float>
  void write_rows(const Positions& positions, std::size_t seq_len, kernels::RowsOutOf<T> out,
                  Dtype dtype = Dtype::kFloat32, double* carry = nullptr);

  // The per-row state between calls that rotate consecutive pieces of one sequence: a piece
  // that carries on from where the last one stopped steps on exactly as one call would have.
  // carry_doubles(count) doubles per block; a zeroed carry means "no previous piece".
  static constexpr std::size_t carry_doubles(std::uint32_t count) { return 2 + 2 * std::size_t{count}; }
  void save(double* carry) const;
  void restore(const double* carry);

  const float* cos() const { return cos_; }
  const float* sin() const { return sin_; }
  std::uint32_t size() const { return count_; }

 private:
  // Runs fn(row, rows) for tiles of at most kRowTile rows, the recurrence state at the tile's
  // first row (and left after its last one) in cos64_/sin64_.
  template <class Fn>
  void for_each_tile(const Positions& positions, std::size_t seq_len, Fn&& fn, double* carry);
  void prepare_steps();
  void anchor(std::int64_t position);

  std::uint32_t count_;
  double scale_ = 1.0;
  bool growing_ = false;
  std::int64_t center_ = 0;
  std::int64_t position_ = -1;  // position the state holds, -1 before the first row
  std::uint32_t steps_since_anchor_ = 0;
  bool steps_ready_ = false;
  double inv_freq_[kCapacity];
  double log_growth_[kCapacity];                      // when growing_
  double angle_[kCapacity];                           // scratch for anchors
  double step_cos_[kCapacity], step_sin_[kCapacity];  // rotation by one position
  double cos64_[kCapacity], sin64_[kCapacity];        // float64 state
  float cos_[kCapacity], sin_[kCapacity];
};

// Calls fn(first_pair, count) for consecutive blocks covering `pairs` pairs.
template <class Fn>
void for_each_pair_block(std::uint32_t pairs, Fn&& fn) {
  for (std::uint32_t first = 0; first < pairs; first += PhaseBlock::kCapacity) {
    const std::uint32_t left = pairs - first;
    fn(first, left < PhaseBlock::kCapacity ? left : static_cast<std::uint32_t>(PhaseBlock::kCapacity));
  }
}

}  // namespace posenc
