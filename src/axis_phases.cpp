#include "axis_phases.h"

namespace posenc {

namespace {

// How many of the pairs each axis holds.
void count_pairs(const std::uint8_t* axis_of, std::uint32_t count, std::uint32_t* per_axis) {
  for (std::uint32_t a = 0; a < AxisPhases::kMaxAxes; ++a) per_axis[a] = 0;
  for (std::uint32_t i = 0; i < count; ++i) ++per_axis[axis_of != nullptr ? axis_of[i] : 0];
}

}  // namespace

AxisPhases::AxisPhases(const double* inv_freq, const std::uint8_t* axis_of, std::uint32_t count, double scale) {
  std::uint32_t held[kMaxAxes] = {};
  double freq[kMaxAxes][PhaseBlock::kCapacity];
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t a = axis_of != nullptr ? axis_of[i] : 0;
    freq[a][held[a]] = inv_freq[i];
    pair_of_[a][held[a]++] = static_cast<std::uint8_t>(i);
  }
  std::uint32_t used = 0;
  for (std::uint32_t a = 0; a < kMaxAxes; ++a) {
    if (held[a] == 0) continue;
    blocks_[a].emplace(freq[a], held[a], scale);
    single_axis_ = a;
    ++used;
  }
  if (used == 0) blocks_[0].emplace(inv_freq, 0, scale);  // no pairs: cos()/sin() still point somewhere
  gathered_ = used > 1;
}

void AxisPhases::advance_to(const std::int64_t* positions) {
  if (!gathered_) {
    blocks_[single_axis_]->advance_to(positions[single_axis_]);
    return;
  }
  for (std::uint32_t a = 0; a < kMaxAxes; ++a) {
    // An axis whose position repeats (an image patch's t and h rows, a grid row's row) keeps
    // its gathered values.
    if (!blocks_[a] || positions[a] == gathered_at_[a]) continue;
    gathered_at_[a] = positions[a];
    PhaseBlock& block = *blocks_[a];
    block.advance_to(positions[a]);
    const float* c = block.cos();
    const float* s = block.sin();
    for (std::uint32_t j = 0; j < block.size(); ++j) {
      cos_[pair_of_[a][j]] = c[j];
      sin_[pair_of_[a][j]] = s[j];
    }
  }
}

std::size_t AxisPhases::carry_doubles(const std::uint8_t* axis_of, std::uint32_t count) {
  std::uint32_t per_axis[kMaxAxes];
  count_pairs(axis_of, count, per_axis);
  std::size_t doubles = 0;
  for (std::uint32_t a = 0; a < kMaxAxes; ++a)
    if (per_axis[a] > 0 || (a == 0 && count == 0)) doubles += PhaseBlock::carry_doubles(per_axis[a]);
  return doubles;
}

void AxisPhases::save(double* carry) const {
  for (const std::optional<PhaseBlock>& block : blocks_) {
    if (!block) continue;
    block->save(carry);
    carry += PhaseBlock::carry_doubles(block->size());
  }
}

void AxisPhases::restore(const double* carry) {
  for (std::optional<PhaseBlock>& block : blocks_) {
    if (!block) continue;
    block->restore(carry);
    carry += PhaseBlock::carry_doubles(block->size());
  }
  for (std::int64_t& at : gathered_at_) at = -1;  // the next advance_to gathers every axis
}

}  // namespace posenc
