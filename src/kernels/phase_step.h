// The float64 kernels behind PhaseBlock: direct sin/cos of angles (anchors) and one step of
// the rotation recurrence (cos, sin)(a + w) = (cos a cos w - sin a sin w, sin a cos w + cos a sin w).
// Both stay in float64; the step also writes its results rounded once to float32, in the
// same pass, since every step's values are consumed as float32.
#pragma once

#include <cmath>
#include <cstddef>

#include "narrow.h"
#include "simd.h"

namespace posenc::kernels {
namespace {  // internal linkage, as for static functions: a kernel with one caller is inlined into it

struct SinCos {
  static void scalar(std::size_t begin, const double* angle, double* sin, double* cos, std::size_t n) {
    for (std::size_t i = begin; i < n; ++i) {
      sin[i] = std::sin(angle[i]);
      cos[i] = std::cos(angle[i]);
    }
  }

#if POSENC_SIMD
  // xsimd's float64 sin/cos reduce large arguments exactly (errors ~1e-16 up to 2^31 rad).
  template <class Arch>
  static void simd(const double* angle, double* sin, double* cos, std::size_t n) {
    using batch = xsimd::batch<double, Arch>;
    const std::size_t whole = n - n % batch::size;
    for (std::size_t i = 0; i < whole; i += batch::size) {
      const auto [s, c] = xsimd::sincos(batch::load_unaligned(angle + i));
      s.store_unaligned(sin + i);
      c.store_unaligned(cos + i);
    }
    scalar(whole, angle, sin, cos, n);
  }
#endif
};
inline constexpr Kernel<SinCos> sincos{};

struct RotateStep {
  static void scalar(std::size_t begin, double* cos, double* sin, const double* step_cos, const double* step_sin,
                     float* cos32, float* sin32, std::size_t n) {
    for (std::size_t i = begin; i < n; ++i) {
      const double c = cos[i], s = sin[i];
      cos[i] = c * step_cos[i] - s * step_sin[i];
      sin[i] = s * step_cos[i] + c * step_sin[i];
      cos32[i] = static_cast<float>(cos[i]);
      sin32[i] = static_cast<float>(sin[i]);
    }
  }

#if POSENC_SIMD
  // Two float64 batches per iteration make one float32 batch of each output.
  template <class Arch>
  static void simd(double* cos, double* sin, const double* step_cos, const double* step_sin, float* cos32, float* sin32,
                   std::size_t n) {
    using batch = xsimd::batch<double, Arch>;
    constexpr std::size_t width = 2 * batch::size;
    const std::size_t whole = n - n % width;
    for (std::size_t i = 0; i < whole; i += width) {
      batch c[2], s[2];
      for (std::size_t h = 0; h < 2; ++h) {
        const std::size_t at = i + h * batch::size;
        const batch c0 = batch::load_unaligned(cos + at), s0 = batch::load_unaligned(sin + at);
        const batch wc = batch::load_unaligned(step_cos + at), ws = batch::load_unaligned(step_sin + at);
        c[h] = c0 * wc - s0 * ws;
        s[h] = s0 * wc + c0 * ws;
        c[h].store_unaligned(cos + at);
        s[h].store_unaligned(sin + at);
      }
      narrow_pair<Arch>(c[0], c[1]).store_unaligned(cos32 + i);
      narrow_pair<Arch>(s[0], s[1]).store_unaligned(sin32 + i);
    }
    scalar(whole, cos, sin, step_cos, step_sin, cos32, sin32, n);
  }
#endif
};
inline constexpr Kernel<RotateStep> rotate_step{};

}  // namespace
}  // namespace posenc::kernels
