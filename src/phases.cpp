#include "phases.h"

#include <algorithm>
#include <cmath>

#include "kernels/dispatch.h"
#include "posenc/frequencies.h"

namespace posenc {

PhaseBlock::PhaseBlock(std::uint32_t first_pair, std::uint32_t count, std::uint32_t dim, double base) : count_(count) {
  for (std::uint32_t i = 0; i < count_; ++i) inv_freq_[i] = inverse_frequency(first_pair + i, dim, base);
}

PhaseBlock::PhaseBlock(const double* inv_freq, std::uint32_t count, double scale) : count_(count), scale_(scale) {
  for (std::uint32_t i = 0; i < count_; ++i) inv_freq_[i] = inv_freq[i];
}

void PhaseBlock::grow(const double* log_growth, std::int64_t center) {
  std::copy(log_growth, log_growth + count_, log_growth_);
  center_ = center;
  growing_ = true;
}

// The one-position rotation, made on first use: a single-row call (a decoding step) never steps.
void PhaseBlock::prepare_steps() {
  if (steps_ready_) return;
  kernels::sincos(inv_freq_, step_sin_, step_cos_, count_);
  if (growing_) {
    for (std::uint32_t i = 0; i < count_; ++i) {
      const double growth = std::exp(log_growth_[i]);
      step_cos_[i] *= growth;
      step_sin_[i] *= growth;
    }
  }
  steps_ready_ = true;
}

void PhaseBlock::advance_to(std::int64_t position) {
  if (position == position_) return;
  if (position == position_ + 1 && position_ >= 0 && steps_since_anchor_ < kAnchorInterval) {
    prepare_steps();
    kernels::rotate_step(cos64_, sin64_, step_cos_, step_sin_, cos_, sin_, count_);
    ++steps_since_anchor_;
  } else {
    anchor(position);
    kernels::narrow(cos64_, cos_, count_);
    kernels::narrow(sin64_, sin_, count_);
    steps_since_anchor_ = 0;
  }
  position_ = position;
}

// carry: [position + 1 (0: none), steps since the anchor, cos64[count], sin64[count]].
void PhaseBlock::save(double* carry) const {
  carry[0] = static_cast<double>(position_ + 1);
  carry[1] = steps_since_anchor_;
  std::copy(cos64_, cos64_ + count_, carry + 2);
  std::copy(sin64_, sin64_ + count_, carry + 2 + count_);
}

void PhaseBlock::restore(const double* carry) {
  if (carry[0] == 0.0) return;
  position_ = static_cast<std::int64_t>(carry[0]) - 1;
  steps_since_anchor_ = static_cast<std::uint32_t>(carry[1]);
  std::copy(carry + 2, carry + 2 + count_, cos64_);
  std::copy(carry + 2 + count_, carry + 2 + 2 * count_, sin64_);
  kernels::narrow(cos64_, cos_, count_);
  kernels::narrow(sin64_, sin_, count_);
}

template <bool Accumulate, class Storage>
void PhaseBlock::write_rows(const Positions& positions, std::size_t seq_len,
                            kernels::RowsOutOf<typename Storage::type> out) {
  prepare_steps();
  std::size_t row = 0;
  while (row < seq_len) {
    // A run of consecutive positions, re-anchored at least every kAnchorInterval rows.
    const std::int64_t start = positions.at(row);
    std::size_t run = 1;
    while (row + run < seq_len && run < kAnchorInterval &&
           positions.at(row + run) == start + static_cast<std::int64_t>(run))
      ++run;
    anchor(start);
    for (std::size_t done = 0; done < run; done += kRowTile) {
      const std::size_t rows = run - done < kRowTile ? run - done : kRowTile;
      const std::size_t skip = (row + done) * out.row_stride;
      kernels::phase_rows<Accumulate, Storage>(cos64_, sin64_, step_cos_, step_sin_, count_, rows,
                                               {out.sin + skip, out.cos + skip, out.row_stride, out.interleaved});
    }
    row += run;
  }
  position_ = -1;  // the state no longer matches cos()/sin()
}

// Tables and sums in each storage type (sinusoidal, add_sinusoidal, rope_cache).
template void PhaseBlock::write_rows<false, kernels::Float32Storage>(const Positions&, std::size_t, kernels::RowsOut);
template void PhaseBlock::write_rows<true, kernels::Float32Storage>(const Positions&, std::size_t, kernels::RowsOut);
template void PhaseBlock::write_rows<false, kernels::Float16Storage>(const Positions&, std::size_t,
                                                                     kernels::RowsOutOf<std::uint16_t>);
template void PhaseBlock::write_rows<true, kernels::Float16Storage>(const Positions&, std::size_t,
                                                                    kernels::RowsOutOf<std::uint16_t>);
template void PhaseBlock::write_rows<false, kernels::Bfloat16Storage>(const Positions&, std::size_t,
                                                                      kernels::RowsOutOf<std::uint16_t>);
template void PhaseBlock::write_rows<true, kernels::Bfloat16Storage>(const Positions&, std::size_t,
                                                                     kernels::RowsOutOf<std::uint16_t>);

void PhaseBlock::anchor(std::int64_t position) {
  const double p = static_cast<double>(position);
  for (std::uint32_t i = 0; i < count_; ++i) angle_[i] = p * inv_freq_[i];
  kernels::sincos(angle_, sin64_, cos64_, count_);
  if (growing_) {
    const double distance = static_cast<double>(position - center_);
    for (std::uint32_t i = 0; i < count_; ++i) {
      // At the center the growth is exactly 1, also when its rate overflows (xPos with a tiny
      // scale_base, which then allows the center alone).
      const double factor = distance == 0.0 ? scale_ : scale_ * std::exp(distance * log_growth_[i]);
      sin64_[i] *= factor;
      cos64_[i] *= factor;
    }
  } else if (scale_ != 1.0) {
    for (std::uint32_t i = 0; i < count_; ++i) {
      sin64_[i] *= scale_;
      cos64_[i] *= scale_;
    }
  }
}

}  // namespace posenc
