// float64 -> float32 conversion of whole arrays (each value rounded once, to nearest).
// Compilers scalarise this loop on WASM SIMD128, so the SIMD version converts two float64
// batches into one float32 batch with the architecture's own instruction.
#pragma once

#include <cstddef>
#include <type_traits>

#include "simd.h"

namespace posenc::kernels {
namespace {  // internal linkage, as for static functions: a kernel with one caller is inlined into it

#if POSENC_SIMD

// Two float64 batches (lo, hi) as one float32 batch of twice the lanes.
template <class Arch>
xsimd::batch<float, Arch> narrow_pair(const xsimd::batch<double, Arch>& lo, const xsimd::batch<double, Arch>& hi) {
#if XSIMD_WITH_WASM
  if constexpr (std::is_same_v<Arch, xsimd::wasm>) {
    return wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(lo), wasm_f32x4_demote_f64x2_zero(hi), 0, 1, 4, 5);
  }
#endif
#if XSIMD_WITH_AVX
  if constexpr (std::is_base_of_v<xsimd::avx, Arch>) {
    return _mm256_set_m128(_mm256_cvtpd_ps(hi), _mm256_cvtpd_ps(lo));
  }
#endif
#if XSIMD_WITH_SSE2
  if constexpr (std::is_base_of_v<xsimd::sse2, Arch>) {
    return _mm_movelh_ps(_mm_cvtpd_ps(lo), _mm_cvtpd_ps(hi));
  }
#endif
  // Other architectures: through memory.
  alignas(64) double d[2 * xsimd::batch<double, Arch>::size];
  lo.store_aligned(d);
  hi.store_aligned(d + xsimd::batch<double, Arch>::size);
  alignas(64) float f[xsimd::batch<float, Arch>::size];
  for (std::size_t i = 0; i < xsimd::batch<float, Arch>::size; ++i) f[i] = static_cast<float>(d[i]);
  return xsimd::batch<float, Arch>::load_aligned(f);
}

#endif  // POSENC_SIMD

struct Narrow {
  static void scalar(std::size_t begin, const double* in, float* out, std::size_t n) {
    for (std::size_t i = begin; i < n; ++i) out[i] = static_cast<float>(in[i]);
  }

#if POSENC_SIMD
  template <class Arch>
  static void simd(const double* in, float* out, std::size_t n) {
    using floats = xsimd::batch<float, Arch>;
    using doubles = xsimd::batch<double, Arch>;
    const std::size_t whole = n - n % floats::size;
    for (std::size_t i = 0; i < whole; i += floats::size) {
      narrow_pair<Arch>(doubles::load_unaligned(in + i), doubles::load_unaligned(in + i + doubles::size))
          .store_unaligned(out + i);
    }
    scalar(whole, in, out, n);
  }
#endif
};
inline constexpr Kernel<Narrow> narrow{};

}  // namespace
}  // namespace posenc::kernels
