#include "phases.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "kernels/dispatch.h"
#include "kernels/storage.h"
#include "kernels/store_floats.h"
#include "posenc/frequencies.h"
#include "posenc/table_pieces.h"

namespace posenc {

namespace {

// A block's arrays (up to 128 doubles) copied in pieces under 512 bytes: Emscripten's memcpy
// hands 512 bytes and more to JavaScript (HEAPU8.copyWithin), a crossing that costs more than
// copying a block's 64 doubles in WebAssembly. Pieces of a run-time size are not merged back
// into one memcpy.
constexpr std::size_t kCopyPiece = 60;

void copy_doubles(const double* from, std::size_t count, double* to) {
  for (std::size_t done = 0; done < count; done += kCopyPiece) {
    const std::size_t piece = std::min(kCopyPiece, count - done);
    std::copy(from + done, from + done + piece, to + done);
  }
}

}  // namespace

PhaseBlock::PhaseBlock(std::uint32_t first_pair, std::uint32_t count, std::uint32_t dim, double base) : count_(count) {
  for (std::uint32_t i = 0; i < count_; ++i) inv_freq_[i] = inverse_frequency(first_pair + i, dim, base);
}

PhaseBlock::PhaseBlock(const double* inv_freq, std::uint32_t count, double scale) : count_(count), scale_(scale) {
  copy_doubles(inv_freq, count_, inv_freq_);
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

// A table piece's carry: [the position after the last row + 1 (0: no piece before), rows of
// its run so far, cos64[count], sin64[count]]: the state the next row of that run starts from.
template <class Fn>
void PhaseBlock::for_each_tile(const Positions& positions, std::size_t seq_len, Fn&& fn, double* carry) {
  prepare_steps();
  std::int64_t next = -1;  // where the last piece's run would go on, and how many rows it has
  std::size_t run_rows = 0;
  if (carry != nullptr && carry[0] != 0.0) {
    next = static_cast<std::int64_t>(carry[0]) - 1;
    run_rows = static_cast<std::size_t>(carry[1]);
    std::copy(carry + 2, carry + 2 + count_, cos64_);
    std::copy(carry + 2 + count_, carry + 2 + 2 * count_, sin64_);
  }
  std::size_t row = 0;
  while (row < seq_len) {
    // A run of consecutive positions, re-anchored at least every kAnchorInterval rows (counted
    // from its anchor, in the last piece too).
    const std::int64_t start = positions.at(row);
    const bool continues = row == 0 && start == next && run_rows < kAnchorInterval;
    const std::size_t budget = continues ? kAnchorInterval - run_rows : kAnchorInterval;
    std::size_t run = 1;
    while (row + run < seq_len && run < budget && positions.at(row + run) == start + static_cast<std::int64_t>(run))
      ++run;
    if (!continues) {
      anchor(start);
      run_rows = 0;
    }
    for (std::size_t done = 0; done < run; done += kRowTile)
      fn(row + done, run - done < kRowTile ? run - done : kRowTile);
    row += run;
    run_rows += run;
    next = start + static_cast<std::int64_t>(run);
  }
  if (carry != nullptr && seq_len > 0) {
    carry[0] = static_cast<double>(next + 1);
    carry[1] = static_cast<double>(run_rows);
    std::copy(cos64_, cos64_ + count_, carry + 2);
    std::copy(sin64_, sin64_ + count_, carry + 2 + count_);
  }
  position_ = -1;  // the state no longer matches cos()/sin()
}

namespace {

// float32 values added to a run of a 16-bit table.
template <class Storage>
void add_row(const float* values, std::uint16_t* out, std::size_t n) {
  kernels::store_floats<true, Storage>(values, out, n);
}

}  // namespace

template <bool Accumulate, class T>
void PhaseBlock::write_rows(const Positions& positions, std::size_t seq_len, kernels::RowsOutOf<T> out, Dtype dtype,
                            double* carry) {
  if constexpr (std::is_same_v<T, float> || !Accumulate) {
    // Tables, and float32 sums: the table kernel writes the rows in the storage type directly.
    kernels::with_storage<T>(dtype, [&](auto storage) {
      for_each_tile(
          positions, seq_len,
          [&](std::size_t row, std::size_t rows) {
            const std::size_t skip = row * out.row_stride;
            kernels::phase_rows<Accumulate, decltype(storage)>(
                cos64_, sin64_, step_cos_, step_sin_, count_, rows,
                {out.sin + skip, out.cos + skip, out.row_stride, out.interleaved});
          },
          carry);
    });
  } else {
    // Sums into 16-bit tables: the tile's rows in float32 first (in L1, laid out as in the
    // table), then added once in the storage type. The table kernel is float32's; only the
    // small store kernels are per type.
    float tile[kRowTile * 2 * kCapacity];
    const std::size_t width = 2 * std::size_t{count_};
    const kernels::RowsOut tile_rows = out.interleaved ? kernels::RowsOut{tile, tile + 1, width, true}
                                                       : kernels::RowsOut{tile, tile + count_, width, false};
    // The store kernel of the call's storage type, chosen once: one copy of each, not one per
    // call site.
    const auto store = kernels::with_storage<T>(dtype, [](auto storage) { return &add_row<decltype(storage)>; });
    // Interleaved rows are one run of sin/cos pairs; else the sin and the cos halves are two.
    const std::size_t runs = out.interleaved ? 1 : 2, length = width / runs;
    for_each_tile(
        positions, seq_len,
        [&](std::size_t row, std::size_t rows) {
          kernels::phase_rows<false>(cos64_, sin64_, step_cos_, step_sin_, count_, rows, tile_rows);
          for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t k = 0; k < runs; ++k)
              store(tile + r * width + k * length, (k == 0 ? out.sin : out.cos) + (row + r) * out.row_stride, length);
        },
        carry);
  }
}

// Tables and sums of float32 or 16-bit elements (sinusoidal, add_sinusoidal, rope_cache).
template void PhaseBlock::write_rows<false, float>(const Positions&, std::size_t, kernels::RowsOut, Dtype, double*);
template void PhaseBlock::write_rows<true, float>(const Positions&, std::size_t, kernels::RowsOut, Dtype, double*);
template void PhaseBlock::write_rows<false, std::uint16_t>(const Positions&, std::size_t,
                                                           kernels::RowsOutOf<std::uint16_t>, Dtype, double*);
template void PhaseBlock::write_rows<true, std::uint16_t>(const Positions&, std::size_t,
                                                          kernels::RowsOutOf<std::uint16_t>, Dtype, double*);
static_assert(PhaseBlock::kCapacity == kTablePairBlock,
              "a table carry holds one block's state per kTablePairBlock pairs");

namespace {

// The last few anchors' float64 cos/sin, per thread. A decoding step rotates every layer at the
// same position with the same frequencies (and rope(q) is followed by rope(k)), and a table
// anchors at the same rows call after call: the direct sin/cos of the same angles are the same
// bits, so a repeated anchor copies them instead of computing them again. Kept only without a
// growth (xPos), keyed by everything the values depend on: position, pairs, frequencies, scale.
struct KeptAnchor {
  std::int64_t position = -1;
  std::uint32_t count = 0;
  double scale = 0.0;
  double inv_freq[PhaseBlock::kCapacity];
  double cos[PhaseBlock::kCapacity], sin[PhaseBlock::kCapacity];

  bool holds(std::int64_t p, std::uint32_t n, double s, const double* freq) const {
    return position == p && count == n && std::memcmp(&scale, &s, sizeof s) == 0 &&
           std::memcmp(inv_freq, freq, n * sizeof(double)) == 0;
  }
};
constexpr std::size_t kKeptAnchors = 4;  // a few pair blocks (rotary dimensions up to 1024), or q and k
thread_local KeptAnchor kept_anchors[kKeptAnchors];
thread_local std::size_t next_kept_anchor = 0;

}  // namespace

void PhaseBlock::anchor(std::int64_t position) {
  if (!growing_) {
    for (const KeptAnchor& kept : kept_anchors) {
      if (!kept.holds(position, count_, scale_, inv_freq_)) continue;
      copy_doubles(kept.cos, count_, cos64_);
      copy_doubles(kept.sin, count_, sin64_);
      return;
    }
  }
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
    return;
  }
  if (scale_ != 1.0) {
    for (std::uint32_t i = 0; i < count_; ++i) {
      sin64_[i] *= scale_;
      cos64_[i] *= scale_;
    }
  }
  KeptAnchor& kept = kept_anchors[next_kept_anchor];
  next_kept_anchor = (next_kept_anchor + 1) % kKeptAnchors;
  kept.position = position;
  kept.count = count_;
  kept.scale = scale_;
  copy_doubles(inv_freq_, count_, kept.inv_freq);
  copy_doubles(cos64_, count_, kept.cos);
  copy_doubles(sin64_, count_, kept.sin);
}

}  // namespace posenc
