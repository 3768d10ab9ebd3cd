// The per-element float64 steps of a row of attention scores, each value rounded once to
// float32: out[j] = float(op(double(out[j]), j)) for an op such as Scale (a score scale, or a
// softmax row's 1 / sum) or ScaleAdd (scale · x plus a float64 bias: ALiBi's slope · distance,
// T5's table entry). The SIMD version widens a float32 batch into two float64 batches (widen.h),
// applies the op, and narrows back (narrow.h): the same operations, so the scalar loop's bits.
#pragma once

#include <cstddef>

#include "narrow.h"
#include "simd.h"
#include "widen.h"

namespace posenc::kernels {
namespace {  // internal linkage, as for static functions: a kernel with one caller is inlined into it

// x · factor.
struct Scale {
  double factor;
  template <class T>
  T operator()(T x, std::size_t) const {
    return x * T(factor);
  }
};

// x · scale + bias[j].
struct ScaleAdd {
  double scale;
  const double* bias;
  double operator()(double x, std::size_t j) const { return x * scale + bias[j]; }
  template <class Doubles>
  Doubles operator()(Doubles x, std::size_t j) const {
    return x * Doubles(scale) + Doubles::load_unaligned(bias + j);
  }
};

template <class Op>
struct MapRow64 {
  static void scalar(std::size_t begin, float* out, std::size_t n, Op op) {
    for (std::size_t j = begin; j < n; ++j) out[j] = static_cast<float>(op(static_cast<double>(out[j]), j));
  }

#if POSENC_SIMD
  template <class Arch>
  static void simd(float* out, std::size_t n, Op op) {
    using floats = xsimd::batch<float, Arch>;
    using doubles = xsimd::batch<double, Arch>;
    const std::size_t whole = n - n % floats::size;
    for (std::size_t j = 0; j < whole; j += floats::size) {
      const auto [lo, hi] = widen_pair<Arch>(floats::load_unaligned(out + j));
      narrow_pair<Arch>(op(lo, j), op(hi, j + doubles::size)).store_unaligned(out + j);
    }
    scalar(whole, out, n, op);
  }
#endif
};
inline constexpr Kernel<MapRow64<Scale>> scale_row{};
inline constexpr Kernel<MapRow64<ScaleAdd>> scale_add_row{};

}  // namespace
}  // namespace posenc::kernels
