// float32 -> float64 of one SIMD batch: the lanes of a float batch as two double batches
// (lo, hi), exact. The mirror of narrow_pair (narrow.h), for kernels that do their arithmetic
// in float64 on float32 data.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "simd.h"

namespace posenc::kernels {
namespace {  // internal linkage, as for static functions

#if POSENC_SIMD

template <class Arch>
std::pair<xsimd::batch<double, Arch>, xsimd::batch<double, Arch>> widen_pair(const xsimd::batch<float, Arch>& v) {
#if XSIMD_WITH_WASM
  if constexpr (std::is_same_v<Arch, xsimd::wasm>) {
    return {wasm_f64x2_promote_low_f32x4(v), wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(v, v, 2, 3, 2, 3))};
  }
#endif
#if XSIMD_WITH_AVX
  if constexpr (std::is_base_of_v<xsimd::avx, Arch>) {
    return {_mm256_cvtps_pd(_mm256_castps256_ps128(v)), _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1))};
  }
#endif
#if XSIMD_WITH_SSE2
  if constexpr (std::is_base_of_v<xsimd::sse2, Arch>) {
    return {_mm_cvtps_pd(v), _mm_cvtps_pd(_mm_movehl_ps(v, v))};
  }
#endif
  // Other architectures: through memory.
  using doubles = xsimd::batch<double, Arch>;
  alignas(64) float f[xsimd::batch<float, Arch>::size];
  v.store_aligned(f);
  alignas(64) double d[2 * doubles::size];
  for (std::size_t i = 0; i < 2 * doubles::size; ++i) d[i] = static_cast<double>(f[i]);
  return {doubles::load_aligned(d), doubles::load_aligned(d + doubles::size)};
}

#endif  // POSENC_SIMD

}  // namespace
}  // namespace posenc::kernels
