#include "phases.h"

#include <cmath>

#include "frequencies.h"

namespace posenc {

PhaseBlock::PhaseBlock(std::uint32_t first_pair, std::uint32_t count, std::uint32_t dim,
                       double base)
    : count_(count) {
  for (std::uint32_t i = 0; i < count_; ++i) {
    inv_freq_[i] = inverse_frequency(first_pair + i, dim, base);
    step_cos_[i] = std::cos(inv_freq_[i]);
    step_sin_[i] = std::sin(inv_freq_[i]);
  }
}

void PhaseBlock::advance_to(std::int64_t position) {
  if (position == position_) return;
  if (position == position_ + 1 && position_ >= 0 && steps_since_anchor_ < kAnchorInterval) {
    step();
    ++steps_since_anchor_;
  } else {
    anchor(position);
    steps_since_anchor_ = 0;
  }
  position_ = position;
  for (std::uint32_t i = 0; i < count_; ++i) {
    cos_[i] = static_cast<float>(cos64_[i]);
    sin_[i] = static_cast<float>(sin64_[i]);
  }
}

void PhaseBlock::anchor(std::int64_t position) {
  const double p = static_cast<double>(position);
  for (std::uint32_t i = 0; i < count_; ++i) {
    const double angle = p * inv_freq_[i];
    cos64_[i] = std::cos(angle);
    sin64_[i] = std::sin(angle);
  }
}

void PhaseBlock::step() {
  // (cos, sin)(a + w) = (cos a cos w - sin a sin w, sin a cos w + cos a sin w)
  for (std::uint32_t i = 0; i < count_; ++i) {
    const double c = cos64_[i], s = sin64_[i];
    cos64_[i] = c * step_cos_[i] - s * step_sin_[i];
    sin64_[i] = s * step_cos_[i] + c * step_sin_[i];
  }
}

}  // namespace posenc
