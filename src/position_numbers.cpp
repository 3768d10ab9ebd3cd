#include "posenc/position_numbers.h"

#include <algorithm>
#include <cstddef>

#include "posenc/positions.h"
#include "posenc/size_limits.h"

namespace posenc {

Status check(const PositionNumbersSpec& spec) {
  if (spec.seq_len > kMaxSeqLen) return Status::kSeqLenTooLarge;
  if (spec.d_model < 1) return Status::kDModelTooSmall;
  if (spec.d_model > kMaxDim) return Status::kDModelTooLarge;
  if (!fits(element_count(spec.seq_len, spec.d_model))) return Status::kSizeTooLarge;
  return Positions{nullptr, spec.offset}.check(spec.seq_len);
}

Status position_numbers(const PositionNumbersSpec& spec, float* out) {
  if (const Status status = check(spec); status != Status::kOk) return status;
  if (out == nullptr && spec.seq_len > 0) return Status::kNullPointer;
  for (std::size_t row = 0; row < spec.seq_len; ++row) {
    float* out_row = out + row * spec.d_model;
    std::fill(out_row, out_row + spec.d_model, static_cast<float>(spec.offset + row));
  }
  return Status::kOk;
}

}  // namespace posenc
