// The two reductions of a numerically stable softmax over a row of float32 scores: the row's
// maximum, then e_j = exp(s_j − max) written in place with their float64 sum (normalising is
// ScaleRow by 1 / sum, score_row.h). The SIMD version takes exp in float32 (xsimd's exp; its
// error is measured in attention_scores_test.cpp), the scalar loop in float64 rounded once:
// they agree to a few float32 ulps, not bit for bit.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>

#include "simd.h"
#include "widen.h"

namespace posenc::kernels {
namespace {  // internal linkage, as for static functions: a kernel with one caller is inlined into it

// The largest value of out[0..n) (NaNs skipped), −infinity for n = 0.
struct RowMax {
  static float scalar(std::size_t begin, const float* out, std::size_t n) {
    float m = -std::numeric_limits<float>::infinity();
    for (std::size_t j = begin; j < n; ++j) m = out[j] > m ? out[j] : m;
    return m;
  }

#if POSENC_SIMD
  template <class Arch>
  static float simd(const float* out, std::size_t n) {
    using floats = xsimd::batch<float, Arch>;
    const std::size_t whole = n - n % floats::size;
    floats acc(-std::numeric_limits<float>::infinity());
    for (std::size_t j = 0; j < whole; j += floats::size) {
      const floats v = floats::load_unaligned(out + j);
      acc = xsimd::select(v > acc, v, acc);  // NaN compares false: skipped, as in the scalar loop
    }
    const float m = xsimd::reduce_max(acc), tail = scalar(whole, out, n);
    return tail > m ? tail : m;
  }
#endif
};
inline constexpr Kernel<RowMax> row_max{};

// out[j] = exp(out[j] − m) for j < n, m the row's finite maximum (so out[j] − m <= 0 or NaN);
// returns the float64 sum of the values written.
struct ExpShiftSum {
  // exp(−104) < 2^−150: 0 in float32, as for every argument below it.
  static constexpr float kLowestArgument = -104.0f;

  static double scalar(std::size_t begin, float* out, std::size_t n, float m) {
    double sum = 0.0;
    for (std::size_t j = begin; j < n; ++j) {
      out[j] = static_cast<float>(std::exp(static_cast<double>(out[j]) - static_cast<double>(m)));
      sum += out[j];
    }
    return sum;
  }

#if POSENC_SIMD
  template <class Arch>
  static double simd(float* out, std::size_t n, float m) {
    using floats = xsimd::batch<float, Arch>;
    using doubles = xsimd::batch<double, Arch>;
    const floats shift(m), lowest(kLowestArgument);
    const std::size_t whole = n - n % floats::size;
    doubles acc_lo(0.0), acc_hi(0.0);
    for (std::size_t j = 0; j < whole; j += floats::size) {
      const floats x = floats::load_unaligned(out + j) - shift;
      // xsimd's exp converts x / ln2 to int32 lane by lane (undefined beyond int32, and for NaN,
      // on SIMD128): x is clamped where exp is 0 in float32 anyway, and a NaN is put back after.
      const floats clamped = xsimd::select(x >= lowest, x, lowest);
      const floats e = xsimd::select(x != x, x, xsimd::exp(clamped));
      e.store_unaligned(out + j);
      const auto [lo, hi] = widen_pair<Arch>(e);
      acc_lo += lo;
      acc_hi += hi;
    }
    return xsimd::reduce_add(acc_lo + acc_hi) + scalar(whole, out, n, m);
  }
#endif
};
inline constexpr Kernel<ExpShiftSum> exp_shift_sum{};

}  // namespace
}  // namespace posenc::kernels
