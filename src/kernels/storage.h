// How the kernels read and write the element types a tensor or table is stored in: one policy
// per dtype (float32, binary16, bfloat16), so a loop written once over `Storage::type` serves
// all three. Arithmetic stays in float32 (rotations, sums) or float64 (tables); a policy only
// widens exactly on load and rounds once on store (half.h's conversions, round to nearest even).
#pragma once

#include <cstdint>
#include <type_traits>

#include "posenc/half.h"

namespace posenc::kernels {

struct Float32Storage {
  using type = float;
  static float to_float(float value) { return value; }
  static float from_float(float value) { return value; }
  static float from_double(double value) { return static_cast<float>(value); }
};

struct Float16Storage {
  using type = std::uint16_t;
  static float to_float(std::uint16_t bits) { return half_to_float(bits); }
  static std::uint16_t from_float(float value) { return float_to_half(value); }
  static std::uint16_t from_double(double value) { return double_to_half(value); }
};

struct Bfloat16Storage {
  using type = std::uint16_t;
  static float to_float(std::uint16_t bits) { return bfloat16_to_float(bits); }
  static std::uint16_t from_float(float value) { return float_to_bfloat16(value); }
  static std::uint16_t from_double(double value) { return double_to_bfloat16(value); }
};

// Calls fn(Storage{}) with the policy of `dtype` (a checked one), among those whose elements are
// `T`: float has one, std::uint16_t two, so a call site instantiates only what its pointers can
// hold. `T = void` takes all three (type-erased tensors). One switch per call, not per element.
template <class T, class Fn>
decltype(auto) with_storage(Dtype dtype, Fn&& fn) {
  if constexpr (std::is_same_v<T, float>) {
    return fn(Float32Storage{});
  } else {
    if constexpr (std::is_same_v<T, void>) {
      if (dtype == Dtype::kFloat32) return fn(Float32Storage{});
    }
    if (dtype == Dtype::kBfloat16) return fn(Bfloat16Storage{});
    return fn(Float16Storage{});
  }
}

}  // namespace posenc::kernels
