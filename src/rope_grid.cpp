#include "posenc/rope_grid.h"

#include <memory>
#include <new>

#include "posenc/frequencies.h"
#include "posenc/rope_plan.h"
#include "posenc/size_limits.h"

namespace posenc {

namespace {

// The grid as a rope call of frames * rows * cols rows per sequence.
RopeSpec rope_spec_of(const RopeGridSpec& spec) {
  RopeSpec rope;
  rope.seq_len = spec.frames * spec.rows * spec.cols;  // checked: <= kMaxSeqLen
  rope.num_heads = spec.num_heads;
  rope.head_dim = spec.head_dim;
  rope.rotary_dim = spec.head_dim;
  rope.base = spec.base;
  rope.layout = spec.layout;
  rope.batch = spec.batch;
  rope.order = spec.order;
  return rope;
}

}  // namespace

Status check(const RopeGridSpec& spec) {
  if (element_count(spec.rows, spec.cols) > kMaxSeqLen) return Status::kGridTooLarge;
  if (element_count(spec.frames, spec.rows, spec.cols) > kMaxSeqLen) return Status::kGridFramesTooLarge;
  if (spec.variant != RopeGridVariant::kPixtral && spec.variant != RopeGridVariant::kAxial)
    return Status::kGridVariantInvalid;
  if (spec.head_dim > kMaxDim) return Status::kHeadDimTooLarge;
  const std::uint32_t multiple = spec.variant == RopeGridVariant::kAxial ? 4 : 2;
  if (spec.head_dim < 4 || spec.head_dim % multiple != 0) return Status::kGridHeadDimInvalid;
  return check(rope_spec_of(spec), Positions{});
}

void rope_grid_pairs(const RopeGridSpec& spec, double* inv_freq, std::uint8_t* axis_of) {
  const std::uint32_t dim = spec.head_dim, pairs = dim / 2;
  if (spec.variant == RopeGridVariant::kPixtral) {
    const std::uint32_t row_pairs = (pairs + 1) / 2;  // len(freqs[::2])
    for (std::uint32_t k = 0; k < pairs; ++k) {
      const bool row = k < row_pairs;
      inv_freq[k] = inverse_frequency(row ? 2 * k : 2 * (k - row_pairs) + 1, dim, spec.base);
      axis_of[k] = row ? 0 : 1;
    }
  } else {
    const std::uint32_t col_pairs = dim / 4;  // freqs_x, then freqs_y
    for (std::uint32_t k = 0; k < pairs; ++k) {
      const bool col = k < col_pairs;
      inv_freq[k] = inverse_frequency(2 * (col ? k : k - col_pairs), dim, spec.base);  // theta^(4j / dim)
      axis_of[k] = col ? 1 : 0;
    }
  }
}

Status rope_grid(const RopeGridSpec& spec, const float* x, float* out) {
  if (const Status status = check(spec); status != Status::kOk) return status;
  const std::uint32_t pairs = spec.head_dim / 2, patches = spec.rows * spec.cols, tokens = spec.frames * patches;
  std::unique_ptr<double[]> inv_freq(new (std::nothrow) double[pairs]);
  std::unique_ptr<std::uint8_t[]> axis_of(new (std::nothrow) std::uint8_t[pairs]);
  // The tokens' rows, then their columns: one list every sequence of the batch shares.
  std::unique_ptr<std::int32_t[]> where(new (std::nothrow) std::int32_t[2 * std::size_t{tokens} + 1]);
  if (!inv_freq || !axis_of || !where) return Status::kOutOfMemory;
  rope_grid_pairs(spec, inv_freq.get(), axis_of.get());
  for (std::uint32_t t = 0; t < tokens; ++t) {
    const std::uint32_t p = t % patches;  // every frame repeats the grid
    where[t] = static_cast<std::int32_t>(p / spec.cols);
    where[tokens + t] = static_cast<std::int32_t>(p % spec.cols);
  }
  RopePlan plan;
  if (const Status status = RopePlan::create_axes(rope_spec_of(spec), inv_freq.get(), axis_of.get(), 2, &plan);
      status != Status::kOk)
    return status;
  return plan.apply_axes(AxisRows{where.get(), tokens, 0}, x, out);
}

}  // namespace posenc
