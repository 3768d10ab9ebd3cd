// Whether a call's arrays (float, or 16-bit patterns) are what the spec's dtype stores: each
// operation has one overload per element type, and the spec says which one it must be.
#pragma once

#include <cstdint>
#include <type_traits>

#include "posenc/half.h"
#include "posenc/status.h"

namespace posenc {

// kDtypeInvalid for a value outside the enum (specs' check() report it first), kDtypeMismatch
// when T is not the dtype's element type.
template <class T>
Status dtype_match(Dtype dtype) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, std::uint16_t>);
  if (dtype_size(dtype) == 0) return Status::kDtypeInvalid;
  return (dtype == Dtype::kFloat32) == std::is_same_v<T, float> ? Status::kOk : Status::kDtypeMismatch;
}

}  // namespace posenc
