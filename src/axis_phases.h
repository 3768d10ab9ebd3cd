// cos and sin of a block of pairs whose positions come from different axes: M-RoPE's temporal,
// height and width (Qwen2-VL, Qwen3-VL), an image grid's row and column (Pixtral, SAM 2). Pair i
// turns at its own inverse frequency by the row's position on its axis axis_of[i].
//
// One PhaseBlock per axis over that axis's pairs only, each advanced to the row's position on
// its axis, so each keeps PhaseBlock's recurrence where it is cheap: a text token steps by one on
// every axis, an image patch steps on the column axis and repeats the others (a no-op); only the
// jumps (a new grid row, the end of an image) re-anchor. The row's cos/sin are then gathered by
// the pair -> axis map into one array in pair order, what the rotate kernels take: an exact
// selection, no arithmetic. With a single axis there is nothing to gather and the block's own
// arrays are handed out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "phases.h"

namespace posenc {

class AxisPhases {
 public:
  static constexpr std::uint32_t kMaxAxes = 3;

  // Pairs i < count (<= PhaseBlock::kCapacity) at inv_freq[i] on axis axis_of[i] (< kMaxAxes);
  // axis_of null: every pair on axis 0. cos and sin are multiplied by `scale` (PhaseBlock).
  AxisPhases(const double* inv_freq, const std::uint8_t* axis_of, std::uint32_t count, double scale);

  // Makes cos()/sin() hold the values at these positions (>= 0), one per axis the pairs use.
  void advance_to(const std::int64_t* positions);

  // The one block when every pair is on one axis (null otherwise): xPos grows its scale there.
  PhaseBlock* single_block() { return gathered_ ? nullptr : &*blocks_[single_axis_]; }

  const float* cos() const { return gathered_ ? cos_ : blocks_[single_axis_]->cos(); }
  const float* sin() const { return gathered_ ? sin_ : blocks_[single_axis_]->sin(); }

  // The recurrence state between pieces of one sequence (PhaseBlock::save), each axis's block
  // after the other's: carry_doubles(axis_of, count) doubles.
  static std::size_t carry_doubles(const std::uint8_t* axis_of, std::uint32_t count);
  void save(double* carry) const;
  void restore(const double* carry);

 private:
  bool gathered_ = false;                                  // more than one axis holds pairs
  std::uint32_t single_axis_ = 0;                          // else, the one that does
  std::optional<PhaseBlock> blocks_[kMaxAxes];             // over the pairs of each axis, empty when it has none
  std::uint8_t pair_of_[kMaxAxes][PhaseBlock::kCapacity];  // block a's j-th pair is pair pair_of_[a][j]
  std::int64_t gathered_at_[kMaxAxes] = {-1, -1, -1};      // the position each axis's values were gathered at
  float cos_[PhaseBlock::kCapacity], sin_[PhaseBlock::kCapacity];
};

}  // namespace posenc
