#include "posenc/layout_conversion.h"

#include <algorithm>
#include <cstddef>

#include "posenc/size_limits.h"

namespace posenc {

namespace {

bool valid(RopeLayout layout) { return layout == RopeLayout::kInterleaved || layout == RopeLayout::kHalf; }

// Where channel c of a head sits in the target layout, for channels of the rotary part.
std::size_t target_channel(std::size_t c, std::size_t rotary_dim, RopeLayout from, RopeLayout to) {
  if (from == to) return c;
  const std::size_t half = rotary_dim / 2;
  if (from == RopeLayout::kInterleaved) return (c % 2) * half + c / 2;  // 2i + j -> j * half + i
  return 2 * (c % half) + c / half;                                     // j * half + i -> 2i + j
}

}  // namespace

Status check(const LayoutConversionSpec& spec) {
  if (spec.head_dim < 2) return Status::kHeadDimTooSmall;
  if (spec.head_dim > kMaxDim) return Status::kHeadDimTooLarge;
  if (spec.rotary_dim > spec.head_dim) return Status::kRotaryDimTooLarge;
  if (spec.rotary_dim < 2) return Status::kRotaryDimTooSmall;
  if (spec.rotary_dim % 2 != 0) return Status::kRotaryDimOdd;
  if (spec.hidden < 1) return Status::kHiddenTooSmall;
  if (!valid(spec.from) || !valid(spec.to)) return Status::kLayoutInvalid;
  if (!fits(element_count(spec.heads, spec.head_dim, spec.hidden))) return Status::kSizeTooLarge;
  return Status::kOk;
}

Status convert_layout(const LayoutConversionSpec& spec, const float* x, float* out) {
  if (const Status status = check(spec); status != Status::kOk) return status;
  if ((x == nullptr || out == nullptr) && spec.heads > 0) return Status::kNullPointer;
  const std::size_t head_dim = spec.head_dim, row = spec.hidden, head_size = head_dim * row;
  for (std::size_t h = 0; h < spec.heads; ++h) {
    const float* src = x + h * head_size;
    float* dst = out + h * head_size;
    for (std::size_t c = 0; c < head_dim; ++c) {
      const std::size_t to = c < spec.rotary_dim ? target_channel(c, spec.rotary_dim, spec.from, spec.to) : c;
      std::copy(src + c * row, src + (c + 1) * row, dst + to * row);
    }
  }
  return Status::kOk;
}

}  // namespace posenc
