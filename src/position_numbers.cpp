#include "posenc/position_numbers.h"

#include <algorithm>
#include <cstddef>

#include "dtype_match.h"
#include "kernels/storage.h"
#include "posenc/positions.h"
#include "posenc/size_limits.h"

namespace posenc {

Status check(const PositionNumbersSpec& spec) {
  if (spec.seq_len > kMaxSeqLen) return Status::kSeqLenTooLarge;
  if (spec.d_model < 1) return Status::kDModelTooSmall;
  if (spec.d_model > kMaxDim) return Status::kDModelTooLarge;
  if (!fits(element_count(spec.seq_len, spec.d_model))) return Status::kSizeTooLarge;
  if (dtype_size(spec.dtype) == 0) return Status::kDtypeInvalid;
  return Positions{nullptr, spec.offset}.check(spec.seq_len);
}

namespace {

// Row p filled with offset + p, rounded once to the storage type of spec.dtype.
template <class T>
Status fill(const PositionNumbersSpec& spec, T* out) {
  if (const Status status = check(spec); status != Status::kOk) return status;
  if (const Status status = dtype_match<T>(spec.dtype); status != Status::kOk) return status;
  if (out == nullptr && spec.seq_len > 0) return Status::kNullPointer;
  kernels::with_storage<T>(spec.dtype, [&](auto storage) {
    using Storage = decltype(storage);
    for (std::size_t row = 0; row < spec.seq_len; ++row) {
      T* out_row = out + row * spec.d_model;
      std::fill(out_row, out_row + spec.d_model, Storage::from_double(static_cast<double>(spec.offset + row)));
    }
  });
  return Status::kOk;
}

}  // namespace

Status position_numbers(const PositionNumbersSpec& spec, float* out) { return fill(spec, out); }
Status position_numbers(const PositionNumbersSpec& spec, std::uint16_t* out) { return fill(spec, out); }

}  // namespace posenc
