// One row of an ALiBi bias: out[j] = float(slope · (start + j)), the product in float64 and
// rounded once (start + j is an integer below 2^53, exact). The SIMD version computes two
// float64 batches of j's and narrows them into one float32 batch (narrow.h).
#pragma once

#include <cstddef>

#include "narrow.h"
#include "simd.h"

namespace posenc::kernels {
namespace {  // internal linkage, as for static functions: a kernel with one caller is inlined into it

struct AlibiRow {
  static void scalar(std::size_t begin, double slope, double start, float* out, std::size_t n) {
    for (std::size_t j = begin; j < n; ++j) out[j] = static_cast<float>(slope * (start + static_cast<double>(j)));
  }

#if POSENC_SIMD
  template <class Arch>
  static void simd(double slope, double start, float* out, std::size_t n) {
    using floats = xsimd::batch<float, Arch>;
    using doubles = xsimd::batch<double, Arch>;
    alignas(64) double lanes[doubles::size];
    for (std::size_t k = 0; k < doubles::size; ++k) lanes[k] = static_cast<double>(k);
    const doubles iota = doubles::load_aligned(lanes);
    const doubles s(slope);
    const doubles step(static_cast<double>(floats::size));
    doubles lo = iota + doubles(start);  // start + j for the first half of the batch
    doubles hi = lo + doubles(static_cast<double>(doubles::size));
    const std::size_t whole = n - n % floats::size;
    for (std::size_t j = 0; j < whole; j += floats::size) {
      narrow_pair<Arch>(s * lo, s * hi).store_unaligned(out + j);
      lo += step;  // integers below 2^53: every step exact
      hi += step;
    }
    scalar(whole, slope, start, out, n);
  }
#endif
};
inline constexpr Kernel<AlibiRow> alibi_row{};

}  // namespace
}  // namespace posenc::kernels
