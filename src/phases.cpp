#include "phases.h"

#include "frequencies.h"
#include "kernels/narrow.h"
#include "kernels/phase_step.h"

namespace posenc {

PhaseBlock::PhaseBlock(std::uint32_t first_pair, std::uint32_t count, std::uint32_t dim,
                       double base)
    : count_(count) {
  for (std::uint32_t i = 0; i < count_; ++i) inv_freq_[i] = inverse_frequency(first_pair + i, dim, base);
  kernels::sincos(inv_freq_, step_sin_, step_cos_, count_);
}

void PhaseBlock::advance_to(std::int64_t position) {
  if (position == position_) return;
  if (position == position_ + 1 && position_ >= 0 && steps_since_anchor_ < kAnchorInterval) {
    kernels::rotate_step(cos64_, sin64_, step_cos_, step_sin_, cos_, sin_, count_);
    ++steps_since_anchor_;
  } else {
    anchor(position);
    steps_since_anchor_ = 0;
  }
  position_ = position;
}

void PhaseBlock::anchor(std::int64_t position) {
  const double p = static_cast<double>(position);
  for (std::uint32_t i = 0; i < count_; ++i) angle_[i] = p * inv_freq_[i];
  kernels::sincos(angle_, sin64_, cos64_, count_);
  kernels::narrow(cos64_, cos_, count_);
  kernels::narrow(sin64_, sin_, count_);
}

}  // namespace posenc
