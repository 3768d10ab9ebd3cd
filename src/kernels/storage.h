// How the kernels read and write the element types a tensor or table is stored in: one policy
// per dtype (float32, binary16, bfloat16), so a loop written once over `Storage::type` serves
// all three. Arithmetic stays in float32 (rotations, sums) or float64 (tables); a policy only
// widens exactly on load and rounds once on store (half.h's conversions, round to nearest even).
//
// Each has a scalar side (to_float, from_float, from_double) and, in SIMD builds, the same on a
// batch of float32 lanes: load<Arch>(at) and store<Arch>(at, batch), the half data read and
// written once, converted in registers; float32's also table<Arch>(lo, hi), two float64 batches
// rounded into one float32 batch as from_double() rounds each value.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "half_lanes.h"
#include "posenc/half.h"
#include "simd.h"

namespace posenc::kernels {

struct Float32Storage {
  using type = float;
  static float to_float(float value) { return value; }
  static float from_float(float value) { return value; }
  static float from_double(double value) { return static_cast<float>(value); }
#if POSENC_SIMD
  template <class Arch>
  static xsimd::batch<float, Arch> load(const float* at) {
    return xsimd::batch<float, Arch>::load_unaligned(at);
  }
  template <class Arch>
  static void store(float* at, const xsimd::batch<float, Arch>& value) {
    value.store_unaligned(at);
  }
  template <class Arch>
  static xsimd::batch<float, Arch> table(const xsimd::batch<double, Arch>& lo, const xsimd::batch<double, Arch>& hi) {
    return narrow_pair<Arch>(lo, hi);
  }
#endif
};

// float32 rounded to odd from float64 (truncated, the last bit set when inexact): the float32
// tile a half-precision table is made in, which the 16-bit policies then round once more,
// exactly as rounding the float64 value once (half_lanes.h, round_to_odd_pair).
struct Float32RoundToOdd : Float32Storage {
  static float from_double(double value) {
    const float nearest = static_cast<float>(value);
    if (!(static_cast<double>(nearest) != value) || value != value) return nearest;  // exact, or NaN
    std::uint32_t bits;
    std::memcpy(&bits, &nearest, sizeof bits);
    if (std::fabs(static_cast<double>(nearest)) > std::fabs(value)) --bits;  // away from zero: one step back
    bits |= 1;
    float odd;
    std::memcpy(&odd, &bits, sizeof odd);
    return odd;
  }
#if POSENC_SIMD
  template <class Arch>
  static xsimd::batch<float, Arch> table(const xsimd::batch<double, Arch>& lo, const xsimd::batch<double, Arch>& hi) {
    return round_to_odd_pair<Arch>(lo, hi);
  }
#endif
};

// The batch side of the two 16-bit policies (a base of each): they differ in their lane
// conversions, Policy::widen and Policy::narrow, only.
template <class Policy>
struct SixteenBitLanes {
#if POSENC_SIMD
  template <class Arch>
  static xsimd::batch<float, Arch> load(const std::uint16_t* at) {
    return Policy::template widen<Arch>(load_u16<Arch>(at));
  }
  template <class Arch>
  static void store(std::uint16_t* at, const xsimd::batch<float, Arch>& value) {
    store_u16<Arch>(at, Policy::template narrow<Arch>(value));
  }
#endif
};

struct Float16Storage : SixteenBitLanes<Float16Storage> {
  using type = std::uint16_t;
  static float to_float(std::uint16_t bits) { return half_to_float(bits); }
  static std::uint16_t from_float(float value) { return float_to_half(value); }
  static std::uint16_t from_double(double value) { return double_to_half(value); }
#if POSENC_SIMD
  template <class Arch>
  static xsimd::batch<float, Arch> widen(const Int32s<Arch>& bits) {
    return half_to_floats<Arch>(bits);
  }
  template <class Arch>
  static Int32s<Arch> narrow(const xsimd::batch<float, Arch>& value) {
    return floats_to_half<Arch>(value);
  }
#endif
};

struct Bfloat16Storage : SixteenBitLanes<Bfloat16Storage> {
  using type = std::uint16_t;
  static float to_float(std::uint16_t bits) { return bfloat16_to_float(bits); }
  static std::uint16_t from_float(float value) { return float_to_bfloat16(value); }
  static std::uint16_t from_double(double value) { return double_to_bfloat16(value); }
#if POSENC_SIMD
  template <class Arch>
  static xsimd::batch<float, Arch> widen(const Int32s<Arch>& bits) {
    return bfloat16_to_floats<Arch>(bits);
  }
  template <class Arch>
  static Int32s<Arch> narrow(const xsimd::batch<float, Arch>& value) {
    return floats_to_bfloat16<Arch>(value);
  }
#endif
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
