// Dot product of two float32 vectors: the inner loop of the similarity matrices.
// Scalar loop (tail and scalar build) plus an xsimd version templated on the architecture.
#pragma once

#include <cstddef>

#include "simd.h"

namespace posenc::kernels {

inline float dot_scalar(const float* a, const float* b, std::size_t begin, std::size_t end) {
  float sum = 0.0f;
  for (std::size_t i = begin; i < end; ++i) sum += a[i] * b[i];
  return sum;
}

#if POSENC_SIMD

template <class Arch>
float dot_simd(const float* a, const float* b, std::size_t n) {
  using batch = xsimd::batch<float, Arch>;
  const std::size_t whole = n - n % batch::size;
  batch acc(0.0f);
  for (std::size_t i = 0; i < whole; i += batch::size)
    acc += batch::load_unaligned(a + i) * batch::load_unaligned(b + i);
  return xsimd::reduce_add(acc) + dot_scalar(a, b, whole, n);
}

#endif  // POSENC_SIMD

inline float dot(const float* a, const float* b, std::size_t n) {
#if POSENC_SIMD
  return dot_simd<xsimd::default_arch>(a, b, n);
#else
  return dot_scalar(a, b, 0, n);
#endif
}

}  // namespace posenc::kernels
