// Writes (or adds) two arrays as alternating channels: out[2i] = a[i], out[2i+1] = b[i].
// The sinusoidal table's interleaved layout (sin at 2i, cos at 2i+1).
#pragma once

#include <cstddef>

#include "simd.h"

namespace posenc::kernels {

template <bool Accumulate>
void interleave_scalar(const float* a, const float* b, float* out, std::size_t begin,
                       std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) {
    if constexpr (Accumulate) {
      out[2 * i] += a[i];
      out[2 * i + 1] += b[i];
    } else {
      out[2 * i] = a[i];
      out[2 * i + 1] = b[i];
    }
  }
}

#if POSENC_SIMD

template <bool Accumulate, class Arch>
void interleave_simd(const float* a, const float* b, float* out, std::size_t n) {
  using batch = xsimd::batch<float, Arch>;
  const std::size_t whole = n - n % batch::size;
  for (std::size_t i = 0; i < whole; i += batch::size) {
    const batch x = batch::load_unaligned(a + i), y = batch::load_unaligned(b + i);
    batch lo = xsimd::zip_lo(x, y), hi = xsimd::zip_hi(x, y);
    float* o = out + 2 * i;
    if constexpr (Accumulate) {
      lo += batch::load_unaligned(o);
      hi += batch::load_unaligned(o + batch::size);
    }
    lo.store_unaligned(o);
    hi.store_unaligned(o + batch::size);
  }
  interleave_scalar<Accumulate>(a, b, out, whole, n);
}

#endif  // POSENC_SIMD

template <bool Accumulate>
void interleave(const float* a, const float* b, float* out, std::size_t n) {
#if POSENC_SIMD
  interleave_simd<Accumulate, xsimd::default_arch>(a, b, out, n);
#else
  interleave_scalar<Accumulate>(a, b, out, 0, n);
#endif
}

// out[i] = a[i] or out[i] += a[i]: the concat layout's halves.
template <bool Accumulate>
void store(const float* a, float* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (Accumulate) out[i] += a[i];
    else out[i] = a[i];
  }
}

}  // namespace posenc::kernels
