// How the kernels read and write the element types a tensor or table is stored in: one policy
// per dtype (float32, binary16, bfloat16), so a loop written once over `Storage::type` serves
// all three. Arithmetic stays in float32 (rotations, sums) or float64 (tables); a policy only
// widens exactly on load and rounds once on store (half.h's conversions, round to nearest even).
//
// Each has a scalar side (to_float, from_float, from_double) and, in SIMD builds, the same on a
// batch of float32 lanes: load<Arch>(at) and store<Arch>(at, batch), the half data read and
// written once, converted in registers; load_pair/store_pair, two batches at once (one 128-bit
// access of 16-bit data on SIMD128); and table<Arch>(lo, hi), two float64 batches rounded as
// from_double() rounds each value, in the form store_table_pair() writes (float32 lanes, or the
// 16-bit patterns), which the 16-bit policies also make quickly (QuickTable<Arch>: right for
// nearly every value, and able to tell; half_lanes.h).
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

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
  static std::pair<xsimd::batch<float, Arch>, xsimd::batch<float, Arch>> load_pair(const float* at) {
    return {load<Arch>(at), load<Arch>(at + xsimd::batch<float, Arch>::size)};
  }
  template <class Arch>
  static void store_pair(float* first_at, float* second_at, const xsimd::batch<float, Arch>& first,
                         const xsimd::batch<float, Arch>& second) {
    store<Arch>(first_at, first);
    store<Arch>(second_at, second);
  }
  template <class Arch>
  static xsimd::batch<float, Arch> table(const xsimd::batch<double, Arch>& lo, const xsimd::batch<double, Arch>& hi) {
    return narrow_pair<Arch>(lo, hi);
  }
  template <class Arch>
  static void store_table_pair(float* first_at, float* second_at, const xsimd::batch<float, Arch>& first,
                               const xsimd::batch<float, Arch>& second) {
    store_pair<Arch>(first_at, second_at, first, second);
  }
#endif
};

// The batch side of the two 16-bit policies (a base of each): they differ in their lane
// conversions only, Policy::widen, Policy::narrow and Policy::QuickTable.
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
  template <class Arch>
  static std::pair<xsimd::batch<float, Arch>, xsimd::batch<float, Arch>> load_pair(const std::uint16_t* at) {
    const auto [first, second] = load_u16_pair<Arch>(at);
    return {Policy::template widen<Arch>(first), Policy::template widen<Arch>(second)};
  }
  template <class Arch>
  static void store_pair(std::uint16_t* first_at, std::uint16_t* second_at, const xsimd::batch<float, Arch>& first,
                         const xsimd::batch<float, Arch>& second) {
    store_u16_pair<Arch>(first_at, second_at, Policy::template narrow<Arch>(first),
                         Policy::template narrow<Arch>(second));
  }
  // Table values: the patterns, rounded once from float64 (the exact way: the round-to-odd
  // float32 narrowed; Policy::QuickTable is the quick one).
  template <class Arch>
  static Int32s<Arch> table(const xsimd::batch<double, Arch>& lo, const xsimd::batch<double, Arch>& hi) {
    return Policy::template narrow<Arch>(round_to_odd_pair<Arch>(lo, hi));
  }
  template <class Arch>
  static void store_table_pair(std::uint16_t* first_at, std::uint16_t* second_at, const Int32s<Arch>& first,
                               const Int32s<Arch>& second) {
    store_u16_pair<Arch>(first_at, second_at, first, second);
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
  template <class Arch>
  static void store(std::uint16_t* at, const xsimd::batch<float, Arch>& value) {
    if constexpr (kHalfStoreInstruction<Arch>)
      store_half_instruction<Arch>(at, value);  // F16C
    else
      SixteenBitLanes::store<Arch>(at, value);
  }
  template <class Arch>
  static void store_pair(std::uint16_t* first_at, std::uint16_t* second_at, const xsimd::batch<float, Arch>& first,
                         const xsimd::batch<float, Arch>& second) {
    if constexpr (kHalfStoreInstruction<Arch>) {
      store<Arch>(first_at, first);
      store<Arch>(second_at, second);
    } else {
      const auto [first_bits, second_bits] = floats_to_half_pair<Arch>(first, second);
      store_u16_pair<Arch>(first_at, second_at, first_bits, second_bits);
    }
  }
  template <class Arch>
  using QuickTable = QuickHalf<Arch>;
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
  template <class Arch>
  using QuickTable = QuickBfloat16<Arch>;
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
