// binary16 and bfloat16 conversions of whole SIMD batches, in integer lanes (SIMD128 has no half
// instructions; SSE2 and AVX none either): the same results as half.h's scalar conversions, bit
// for bit, branch-free with selects. Widening is exact (NaN payloads kept); narrowing rounds to
// nearest even, with subnormals, overflow to Inf and the canonical quiet NaN with its sign.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "narrow.h"
#include "simd.h"
#include "widen.h"

namespace posenc::kernels {
namespace {  // internal linkage, as for static functions

#if POSENC_SIMD

template <class Arch>
using Int32s = xsimd::batch<std::int32_t, Arch>;

// A float batch's worth of 16-bit patterns, zero-extended to 32-bit lanes.
template <class Arch>
Int32s<Arch> load_u16(const std::uint16_t* at) {
#if XSIMD_WITH_WASM
  if constexpr (std::is_same_v<Arch, xsimd::wasm>) return wasm_u32x4_load16x4(at);
#endif
#if XSIMD_WITH_AVX2
  if constexpr (std::is_base_of_v<xsimd::avx2, Arch>)
    return _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(at)));
#endif
#if XSIMD_WITH_AVX
  if constexpr (std::is_base_of_v<xsimd::avx, Arch>) {
    const __m128i bits = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at)), zero = _mm_setzero_si128();
    return _mm256_set_m128i(_mm_unpackhi_epi16(bits, zero), _mm_unpacklo_epi16(bits, zero));
  }
#endif
#if XSIMD_WITH_SSE2
  if constexpr (std::is_base_of_v<xsimd::sse2, Arch>)
    return _mm_unpacklo_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(at)), _mm_setzero_si128());
#endif
  alignas(64) std::int32_t lanes[Int32s<Arch>::size];  // other architectures: through memory
  for (std::size_t i = 0; i < Int32s<Arch>::size; ++i) lanes[i] = at[i];
  return Int32s<Arch>::load_aligned(lanes);
}

// The low 16 bits of each lane (which holds a value in [0, 65535]) stored as one pattern each.
template <class Arch>
void store_u16(std::uint16_t* at, const Int32s<Arch>& bits) {
#if XSIMD_WITH_WASM
  if constexpr (std::is_same_v<Arch, xsimd::wasm>) {
    const std::uint64_t packed = wasm_i64x2_extract_lane(wasm_u16x8_narrow_i32x4(bits, bits), 0);
    std::memcpy(at, &packed, sizeof packed);
    return;
  }
#endif
#if XSIMD_WITH_AVX
  if constexpr (std::is_base_of_v<xsimd::avx, Arch>) {  // SSE4.1's unsigned pack comes with AVX
    const __m256i wide = bits;
    const __m128i packed = _mm_packus_epi32(_mm256_castsi256_si128(wide), _mm256_extractf128_si256(wide, 1));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(at), packed);
    return;
  }
#endif
#if XSIMD_WITH_SSE2
  if constexpr (std::is_base_of_v<xsimd::sse2, Arch>) {  // SSE2 packs signed: sign-extend the low halves first
    const __m128i low = _mm_srai_epi32(_mm_slli_epi32(bits, 16), 16);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(at), _mm_packs_epi32(low, low));
    return;
  }
#endif
  alignas(64) std::int32_t lanes[Int32s<Arch>::size];
  bits.store_aligned(lanes);
  for (std::size_t i = 0; i < Int32s<Arch>::size; ++i) at[i] = static_cast<std::uint16_t>(lanes[i]);
}

// Two float batches' worth of consecutive 16-bit patterns (2 * size), zero-extended: on SIMD128
// one 128-bit load split by the extend instructions, instead of two 64-bit loads.
template <class Arch>
std::pair<Int32s<Arch>, Int32s<Arch>> load_u16_pair(const std::uint16_t* at) {
#if XSIMD_WITH_WASM
  if constexpr (std::is_same_v<Arch, xsimd::wasm>) {
    const v128_t bits = wasm_v128_load(at);
    return {wasm_u32x4_extend_low_u16x8(bits), wasm_u32x4_extend_high_u16x8(bits)};
  }
#endif
  return {load_u16<Arch>(at), load_u16<Arch>(at + Int32s<Arch>::size)};
}

// The patterns of `first` stored at first_at, those of `second` at second_at (each as store_u16;
// contiguous or not): on SIMD128 one narrowing for both, then a 64-bit lane store each, with no
// trip through a scalar register.
template <class Arch>
void store_u16_pair(std::uint16_t* first_at, std::uint16_t* second_at, const Int32s<Arch>& first,
                    const Int32s<Arch>& second) {
#if XSIMD_WITH_WASM
  if constexpr (std::is_same_v<Arch, xsimd::wasm>) {
    const v128_t packed = wasm_u16x8_narrow_i32x4(first, second);
    wasm_v128_store64_lane(first_at, packed, 0);
    wasm_v128_store64_lane(second_at, packed, 1);
    return;
  }
#endif
  store_u16<Arch>(first_at, first);
  store_u16<Arch>(second_at, second);
}

// binary16 -> float32, exact: the exponent and fraction bits moved into place make a float
// 2^-112 times the value (subnormals included), which one exact multiplication rescales; Inf and
// NaN (exponent 31) then get float32's all-ones exponent, their payload kept bit for bit.
template <class Arch>
xsimd::batch<float, Arch> half_to_floats(const Int32s<Arch>& h) {
  using floats = xsimd::batch<float, Arch>;
  using ints = Int32s<Arch>;
  // The sign to bit 31, the exponent and fraction to bits 13-27 (an arithmetic shift copies the
  // sign into bits 28-30, which the mask clears); the multiplication keeps the sign.
  const ints moved = ((h << 16) >> 3) & ints(static_cast<std::int32_t>(0x8FFFE000u));
  const floats scaled = xsimd::bitwise_cast<float>(moved) * floats(0x1p112f);
  const ints exponent = moved & ints(0x0F800000);
  const ints special = xsimd::select(exponent == ints(0x0F800000), ints(0x7F800000), ints(0));  // Inf, NaN
  return xsimd::bitwise_cast<float>(xsimd::bitwise_cast<std::int32_t>(scaled) | special);
}

// float32 -> binary16, round to nearest even, by the float unit itself (Maratyszcza's FP16
// library, PyTorch's c10::Half): a float whose ulp is the binary16 step at the value's exponent
// (at least the subnormal step 2^-24) is added, so the addition rounds the value onto the
// binary16 grid; its bits then hold the exponent and fraction. The first multiplication sends
// what is too large to Inf, the second undoes it (exactly, below 2^16). NaN: 0x7E00 | sign.
template <class Arch>
Int32s<Arch> floats_to_half(const xsimd::batch<float, Arch>& value) {
  using floats = xsimd::batch<float, Arch>;
  using ints = Int32s<Arch>;
  const ints bits = xsimd::bitwise_cast<std::int32_t>(value);
  const ints magnitude = bits & ints(0x7FFFFFFF);
  const floats base = (xsimd::bitwise_cast<float>(magnitude) * floats(0x1p112f)) * floats(0x1p-110f);
  const ints exponent = xsimd::max(magnitude & ints(0x7F800000), ints(113 << 23));  // binary16's smallest normal
  const ints rounded = xsimd::bitwise_cast<std::int32_t>(xsimd::bitwise_cast<float>(exponent + ints(15 << 23)) + base);
  const ints finite = ((rounded >> 13) & ints(0x7C00)) + (rounded & ints(0x0FFF));
  const ints sign = (bits >> 16) & ints(0x8000);
  return sign | xsimd::select(xsimd::batch_bool_cast<std::int32_t>(xsimd::isnan(value)), ints(0x7E00), finite);
}

// Two float batches to binary16, as floats_to_half each, quicker where every lane of both is in
// binary16's normal range [2^-14, 65520) (no NaN, no Inf): there the magnitude re-biased to
// binary16's exponent, plus half a binary16 step less one plus its lowest kept bit (ties to
// even), cut to binary16's bits, is the rounding.
template <class Arch>
std::pair<Int32s<Arch>, Int32s<Arch>> floats_to_half_pair(const xsimd::batch<float, Arch>& first,
                                                          const xsimd::batch<float, Arch>& second) {
  using floats = xsimd::batch<float, Arch>;
  using ints = Int32s<Arch>;
  const auto normal = [](const floats& magnitude) {
    return (magnitude >= floats(0x1p-14f)) & (magnitude < floats(65520.0f));
  };
  // Magnitudes by an integer mask: V8 makes float abs three instructions on x86.
  const auto magnitude = [](const floats& value) {
    return xsimd::bitwise_cast<float>(xsimd::bitwise_cast<std::int32_t>(value) & ints(0x7FFFFFFF));
  };
  const floats first_magnitude = magnitude(first), second_magnitude = magnitude(second);
  if (!xsimd::all(normal(first_magnitude) & normal(second_magnitude)))
    return {floats_to_half<Arch>(first), floats_to_half<Arch>(second)};
  const auto quick = [](const floats& value, const floats& magnitude) {
    const ints bits = xsimd::bitwise_cast<std::int32_t>(magnitude);
    const ints stepped = bits + ints((15 - 127) * (1 << 23) + 0x0FFF) + ((bits >> 13) & ints(1));
    return (stepped >> 13) | ((xsimd::bitwise_cast<std::int32_t>(value) >> 16) & ints(0x8000));
  };
  return {quick(first, first_magnitude), quick(second, second_magnitude)};
}

// x86 builds that target F16C (-mf16c, -march=haswell and later): binary16 stores by the
// conversion instruction, which rounds to nearest even as floats_to_half does; NaN lanes then get
// the canonical 0x7E00 | sign (the instruction keeps part of the payload). Widening stays in
// integer lanes: the instruction would quiet signalling NaNs, which half_to_float keeps.
#if defined(__F16C__) && (XSIMD_WITH_AVX || XSIMD_WITH_SSE2)
template <class Arch>
inline constexpr bool kHalfStoreInstruction =
    std::is_base_of_v<xsimd::avx, Arch> || std::is_base_of_v<xsimd::sse2, Arch>;

// Canonical NaNs where `nan` (16-bit lanes, all ones) is set, else the converted patterns.
inline __m128i with_canonical_nans(__m128i half, __m128i nan) {
  const __m128i canonical = _mm_or_si128(_mm_and_si128(half, _mm_set1_epi16(-0x8000)), _mm_set1_epi16(0x7E00));
  return _mm_or_si128(_mm_andnot_si128(nan, half), _mm_and_si128(nan, canonical));
}

template <class Arch>
void store_half_instruction(std::uint16_t* at, const xsimd::batch<float, Arch>& value) {
  if constexpr (std::is_base_of_v<xsimd::avx, Arch>) {
    const __m256 v = value;
    const __m256 nan = _mm256_cmp_ps(v, v, _CMP_UNORD_Q);
    const __m128i nan16 =
        _mm_packs_epi32(_mm_castps_si128(_mm256_castps256_ps128(nan)), _mm_castps_si128(_mm256_extractf128_ps(nan, 1)));
    const __m128i half = _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(at), with_canonical_nans(half, nan16));
  } else {
    const __m128 v = value;
    const __m128i nan = _mm_castps_si128(_mm_cmpunord_ps(v, v));
    const __m128i half = _mm_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(at), with_canonical_nans(half, _mm_packs_epi32(nan, nan)));
  }
}
#else
template <class Arch>
inline constexpr bool kHalfStoreInstruction = false;

template <class Arch>
void store_half_instruction(std::uint16_t*, const xsimd::batch<float, Arch>&) {}
#endif

// bfloat16 -> float32: the upper half of the float.
template <class Arch>
xsimd::batch<float, Arch> bfloat16_to_floats(const Int32s<Arch>& h) {
  return xsimd::bitwise_cast<float>(h << 16);
}

// float32 -> bfloat16, round to nearest even: add 0x7FFF plus the kept part's lowest bit and
// keep the upper half (a carry rounds up into the exponent, up to Inf); NaN is 0x7FC0 | sign.
template <class Arch>
Int32s<Arch> floats_to_bfloat16(const xsimd::batch<float, Arch>& value) {
  using ints = Int32s<Arch>;
  using uints = xsimd::batch<std::uint32_t, Arch>;
  const uints bits = xsimd::bitwise_cast<std::uint32_t>(value);
  const uints upper = bits >> 16;  // a logical shift: no sign bits to clear
  const ints rounded = xsimd::bitwise_cast<std::int32_t>((bits + uints(0x7FFF) + (upper & uints(1))) >> 16);
  const ints nan = xsimd::bitwise_cast<std::int32_t>((upper & uints(0x8000)) | uints(0x7FC0));
  return xsimd::select(xsimd::batch_bool_cast<std::int32_t>(xsimd::isnan(value)), nan, rounded);
}

// Two float64 batches as one float32 batch rounded to odd: truncated towards zero, with the last
// bit set when anything was cut off. A half table rounds this to its type: that is the float64
// value rounded once (to nearest even), because float32 keeps at least 2 more bits than binary16
// or bfloat16 wherever they have values (16 more in bfloat16's subnormals, 13 or more elsewhere).
// Proof: the target's grid points and the midpoints between them are floats with an even last
// bit (they are multiples of 4 float32 steps). If x is a float, nothing changes. Otherwise
// round_to_odd(x) is the odd float strictly between x's two float neighbours, so it is no
// midpoint or grid point itself, and none lies between it and x (one would be a float inside
// that interval): both sit on the same side of every midpoint and round to the same value.
// Beyond float32's range, FLT_MAX (odd) stands for every larger finite value: binary16 and
// bfloat16 round it, like them, to Inf. NaN stays NaN (its sign kept).
template <class Arch>
xsimd::batch<float, Arch> round_to_odd_pair(const xsimd::batch<double, Arch>& lo,
                                            const xsimd::batch<double, Arch>& hi) {
  using doubles = xsimd::batch<double, Arch>;
  using ints = Int32s<Arch>;
  const xsimd::batch<float, Arch> nearest = narrow_pair<Arch>(lo, hi);
  const auto back = widen_pair<Arch>(nearest);
  // Per lane, as small exact values: 1 if rounding was inexact, 3 if it also went away from zero.
  const auto code = [](const doubles& x, const doubles& rounded) {
    return xsimd::select(rounded != x, xsimd::select(xsimd::abs(rounded) > xsimd::abs(x), doubles(3.0), doubles(1.0)),
                         doubles(0.0));
  };
  const ints inexact = xsimd::batch_cast<std::int32_t>(narrow_pair<Arch>(code(lo, back.first), code(hi, back.second)));
  // Away from zero: one step back towards zero in the magnitude bits, then the sticky last bit.
  return xsimd::bitwise_cast<float>((xsimd::bitwise_cast<std::int32_t>(nearest) - (inexact >> 1)) |
                                    (inexact & ints(1)));
}

// Pairs of float64 batches rounded once to a 16-bit format, as double_to_half and
// double_to_bfloat16 round each value, in two ways. The exact one converts the round-to-odd
// float32 (round_to_odd_pair, then floats_to_half or floats_to_bfloat16). The quick one (QuickHalf, QuickBfloat16)
// rounds to nearest float32, then to the format by a few integer operations, and keeps, across all the batches it
// converts, what right() needs to tell whether all its lanes were right: none may be a float32
// that is exactly a midpoint between two neighbours of the format, the only place where rounding
// twice differs from rounding once (a midpoint strictly between the float64 and its float32
// would be a float32 nearer still), nor what the few operations do not cover. A table is made
// the quick way, and again the exact way where right() says no (rare: a binary16 midpoint is
// about 1 lane in 8192, a bfloat16 one 1 in 65536; zeros count too). The running minima and
// maxima cost an operation per check and batch, less than testing every batch.

// Right in binary16's normal range [2^-14, 65520) (no NaN, no Inf), midpoints aside: there the
// float32's magnitude re-biased to binary16's exponent plus half a binary16 step, cut to
// binary16's bits, is the float32 rounded to nearest. After the half step, a midpoint's 13 bits
// below binary16's are 0.
template <class Arch>
class QuickHalf {
  using ints = Int32s<Arch>;

 public:
  Int32s<Arch> operator()(const xsimd::batch<double, Arch>& lo, const xsimd::batch<double, Arch>& hi) {
    const ints bits = xsimd::bitwise_cast<std::int32_t>(narrow_pair<Arch>(lo, hi));
    // The magnitude by an integer mask: V8 makes float abs three instructions on x86.
    const ints stepped = (bits & ints(0x7FFFFFFF)) + ints(kRebias + 0x1000);
    const ints magnitude = stepped >> 13;  // negative below 2^-14 - 2^-25 (zero included)
    below_ = xsimd::min(below_, stepped & ints(0x1FFF));
    smallest_ = xsimd::min(smallest_, magnitude);
    largest_ = xsimd::max(largest_, magnitude);
    return magnitude | ((bits >> 16) & ints(0x8000));
  }
  bool right() const {
    return xsimd::all((below_ != ints(0)) & (smallest_ >= ints(0x0400)) & (largest_ < ints(0x7C00)));
  }

 private:
  static constexpr std::int32_t kRebias = (15 - 127) * (1 << 23);  // float32's exponent bias to binary16's
  ints below_ = ints(0x1FFF), smallest_ = ints(0x7C00), largest_ = ints(0);
};

// Right for every number, midpoints aside: bfloat16 is float32's upper half, so adding half its
// step to the bits rounds the magnitude to nearest, up to Inf, the sign bit untouched. After
// the half step, a midpoint's lower half is 0.
template <class Arch>
class QuickBfloat16 {
  using ints = Int32s<Arch>;

 public:
  Int32s<Arch> operator()(const xsimd::batch<double, Arch>& lo, const xsimd::batch<double, Arch>& hi) {
    const ints bits = xsimd::bitwise_cast<std::int32_t>(narrow_pair<Arch>(lo, hi));
    const ints stepped = bits + ints(0x8000);
    below_ = xsimd::min(below_, stepped & ints(0xFFFF));
    largest_ = xsimd::max(largest_, bits & ints(0x7FFFFFFF));
    return xsimd::bitwise_cast<std::int32_t>(xsimd::bitwise_cast<std::uint32_t>(stepped) >> 16);
  }
  bool right() const { return xsimd::all((below_ != ints(0)) & (largest_ <= ints(0x7F800000))); }  // no NaN

 private:
  ints below_ = ints(0xFFFF), largest_ = ints(0);
};

#endif  // POSENC_SIMD

}  // namespace
}  // namespace posenc::kernels
