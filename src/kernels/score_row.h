// The per-element float64 steps of a row of attention scores, each value rounded once to
// float32: out[j] = float(double(out[j]) · factor) (a score scale, or a softmax row's
// 1 / sum), and out[j] = float(double(out[j]) · scale + bias[j]) (a float64 bias: ALiBi's
// slope · distance, T5's table entry). The SIMD versions widen a float32 batch into two float64
// batches (widen.h), compute, and narrow back (narrow.h): the same operations, so the same bits
// as the scalar loops.
#pragma once

#include <cstddef>

#include "narrow.h"
#include "simd.h"
#include "widen.h"

namespace posenc::kernels {
namespace {  // internal linkage, as for static functions: a kernel with one caller is inlined into it

struct ScaleRow {
  static void scalar(std::size_t begin, float* out, std::size_t n, double factor) {
    for (std::size_t j = begin; j < n; ++j) out[j] = static_cast<float>(static_cast<double>(out[j]) * factor);
  }

#if POSENC_SIMD
  template <class Arch>
  static void simd(float* out, std::size_t n, double factor) {
    using floats = xsimd::batch<float, Arch>;
    using doubles = xsimd::batch<double, Arch>;
    const doubles f(factor);
    const std::size_t whole = n - n % floats::size;
    for (std::size_t j = 0; j < whole; j += floats::size) {
      const auto [lo, hi] = widen_pair<Arch>(floats::load_unaligned(out + j));
      narrow_pair<Arch>(lo * f, hi * f).store_unaligned(out + j);
    }
    scalar(whole, out, n, factor);
  }
#endif
};
inline constexpr Kernel<ScaleRow> scale_row{};

struct ScaleAddRow {
  static void scalar(std::size_t begin, float* out, std::size_t n, double scale, const double* bias) {
    for (std::size_t j = begin; j < n; ++j) out[j] = static_cast<float>(static_cast<double>(out[j]) * scale + bias[j]);
  }

#if POSENC_SIMD
  template <class Arch>
  static void simd(float* out, std::size_t n, double scale, const double* bias) {
    using floats = xsimd::batch<float, Arch>;
    using doubles = xsimd::batch<double, Arch>;
    const doubles s(scale);
    const std::size_t whole = n - n % floats::size;
    for (std::size_t j = 0; j < whole; j += floats::size) {
      const auto [lo, hi] = widen_pair<Arch>(floats::load_unaligned(out + j));
      const doubles bias_lo = doubles::load_unaligned(bias + j);
      const doubles bias_hi = doubles::load_unaligned(bias + j + doubles::size);
      narrow_pair<Arch>(lo * s + bias_lo, hi * s + bias_hi).store_unaligned(out + j);
    }
    scalar(whole, out, n, scale, bias);
  }
#endif
};
inline constexpr Kernel<ScaleAddRow> scale_add_row{};

}  // namespace
}  // namespace posenc::kernels
