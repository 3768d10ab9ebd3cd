// Dot products of float32 vectors: the inner loops of the similarity matrices.
// Scalar loops (tails and scalar build) plus xsimd versions templated on the architecture.
#pragma once

#include <cstddef>

#include "simd.h"

namespace posenc::kernels {
namespace {  // internal linkage: each architecture's translation unit keeps its own copy

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

// One row of a similarity matrix: out[j] = dot(a, b_j) for the rows b_j of b ([cols, dim]).
// A block of batch::size columns shares each load of `a`, and haddp sums the block's
// accumulators in one go (a horizontal sum per column would cost more than the products).
template <class Arch>
void dot_row_simd(const float* a, const float* b, std::size_t dim, std::size_t cols, float* out) {
  using batch = xsimd::batch<float, Arch>;
  constexpr std::size_t width = batch::size;
  const std::size_t whole_dim = dim - dim % width;
  std::size_t c = 0;
  for (; c + width <= cols; c += width) {
    const float* block = b + c * dim;
    batch acc[width];
    for (auto& v : acc) v = batch(0.0f);
    for (std::size_t k = 0; k < whole_dim; k += width) {
      const batch av = batch::load_unaligned(a + k);
      for (std::size_t j = 0; j < width; ++j) acc[j] += av * batch::load_unaligned(block + j * dim + k);
    }
    batch sums = xsimd::haddp(acc);
    if (whole_dim < dim) {
      alignas(64) float tails[width];
      for (std::size_t j = 0; j < width; ++j) tails[j] = dot_scalar(a, block + j * dim, whole_dim, dim);
      sums += batch::load_aligned(tails);
    }
    sums.store_unaligned(out + c);
  }
  for (; c < cols; ++c) out[c] = dot_simd<Arch>(a, b + c * dim, dim);
}

#endif  // POSENC_SIMD

}  // namespace
}  // namespace posenc::kernels
