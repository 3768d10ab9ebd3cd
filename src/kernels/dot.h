// Dot products of float32 vectors: the inner loops of the similarity matrices. The SIMD
// versions sum in another order than the scalar loops: they agree to float32 summation error,
// not bit for bit.
#pragma once

#include <cstddef>

#include "simd.h"

namespace posenc::kernels {
namespace {  // internal linkage, as for static functions: a kernel with one caller is inlined into it

struct Dot {
  static float scalar(std::size_t begin, const float* a, const float* b, std::size_t n) {
    float sum = 0.0f;
    for (std::size_t i = begin; i < n; ++i) sum += a[i] * b[i];
    return sum;
  }

#if POSENC_SIMD
  template <class Arch>
  static float simd(const float* a, const float* b, std::size_t n) {
    using batch = xsimd::batch<float, Arch>;
    const std::size_t whole = n - n % batch::size;
    batch acc(0.0f);
    for (std::size_t i = 0; i < whole; i += batch::size)
      acc += batch::load_unaligned(a + i) * batch::load_unaligned(b + i);
    return xsimd::reduce_add(acc) + scalar(whole, a, b, n);
  }
#endif
};
inline constexpr Kernel<Dot> dot{};

// One row of a similarity matrix: out[c] = dot(a, b_c) for the rows b_c of b ([cols, dim]).
struct DotRow {
  static void scalar(std::size_t begin, const float* a, const float* b, std::size_t dim, std::size_t cols, float* out) {
    for (std::size_t c = begin; c < cols; ++c) out[c] = Dot::scalar(0, a, b + c * dim, dim);
  }

#if POSENC_SIMD
  // A block of batch::size columns shares each load of `a`, and haddp sums the block's
  // accumulators in one go (a horizontal sum per column would cost more than the products).
  template <class Arch>
  static void simd(const float* a, const float* b, std::size_t dim, std::size_t cols, float* out) {
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
        for (std::size_t j = 0; j < width; ++j) tails[j] = Dot::scalar(whole_dim, a, block + j * dim, dim);
        sums += batch::load_aligned(tails);
      }
      sums.store_unaligned(out + c);
    }
    for (; c < cols; ++c) out[c] = Dot::simd<Arch>(a, b + c * dim, dim);
  }
#endif
};
inline constexpr Kernel<DotRow> dot_row{};

}  // namespace
}  // namespace posenc::kernels
