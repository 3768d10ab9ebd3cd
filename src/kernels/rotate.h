// RoPE rotation kernels for one head's channels. The SIMD versions load and store unaligned
// (pointers come from JS). `src` may equal `dst` (in place); they must not otherwise overlap.
#pragma once

#include <cstddef>
#include <cstdint>

#include "simd.h"

namespace posenc::kernels {
namespace {  // internal linkage, as for static functions: a kernel with one caller is inlined into it

// Half pairing: a = x[i], b = x[i + rotary_dim/2].
//   a' = a cos - b sin,  b' = b cos + a sin
struct RotateHalf {
  static void scalar(std::size_t begin, const float* cos, const float* sin, const float* src_a,
                     const float* src_b, float* dst_a, float* dst_b, std::size_t n) {
    for (std::size_t i = begin; i < n; ++i) {
      const float a = src_a[i], b = src_b[i];
      dst_a[i] = a * cos[i] - b * sin[i];
      dst_b[i] = b * cos[i] + a * sin[i];
    }
  }

#if POSENC_SIMD
  template <class Arch>
  static void simd(const float* cos, const float* sin, const float* src_a, const float* src_b,
                   float* dst_a, float* dst_b, std::size_t n) {
    using batch = xsimd::batch<float, Arch>;
    const std::size_t whole = n - n % batch::size;
    for (std::size_t i = 0; i < whole; i += batch::size) {
      const batch c = batch::load_unaligned(cos + i), s = batch::load_unaligned(sin + i);
      const batch a = batch::load_unaligned(src_a + i), b = batch::load_unaligned(src_b + i);
      (a * c - b * s).store_unaligned(dst_a + i);
      (b * c + a * s).store_unaligned(dst_b + i);
    }
    scalar(whole, cos, sin, src_a, src_b, dst_a, dst_b, n);
  }
#endif
};
inline constexpr Kernel<RotateHalf> rotate_half{};

// Interleaved pairing on channels whose cos/sin were expanded per channel:
//   cos_dup = [c0, c0, c1, c1, ...], sin_signed = [-s0, s0, -s1, s1, ...], so that
//   x'[j] = x[j] cos_dup[j] + x[j ^ 1] sin_signed[j]  (the same rotation as above).
// n counts channels: whole pairs, so it is even.
struct RotateInterleaved {
  static void scalar(std::size_t begin, const float* cos_dup, const float* sin_signed,
                     const float* src, float* dst, std::size_t n) {
    for (std::size_t j = begin; j < n; j += 2) {
      const float a = src[j], b = src[j + 1];
      dst[j] = a * cos_dup[j] + b * sin_signed[j];
      dst[j + 1] = b * cos_dup[j + 1] + a * sin_signed[j + 1];
    }
  }

#if POSENC_SIMD
  // Lane i of a batch takes lane i ^ 1: swaps the two members of every pair.
  struct SwapPairs {
    static constexpr unsigned get(unsigned i, unsigned) { return i ^ 1u; }
  };

  template <class Arch>
  static void simd(const float* cos_dup, const float* sin_signed, const float* src, float* dst,
                   std::size_t n) {
    using batch = xsimd::batch<float, Arch>;
    constexpr auto swap_pairs = xsimd::make_batch_constant<std::uint32_t, Arch, SwapPairs>();
    const std::size_t whole = n - n % batch::size;  // batch sizes are even: pairs stay whole
    for (std::size_t j = 0; j < whole; j += batch::size) {
      const batch x = batch::load_unaligned(src + j);
      const batch c = batch::load_unaligned(cos_dup + j), s = batch::load_unaligned(sin_signed + j);
      (x * c + xsimd::swizzle(x, swap_pairs) * s).store_unaligned(dst + j);
    }
    scalar(whole, cos_dup, sin_signed, src, dst, n);
  }
#endif
};
inline constexpr Kernel<RotateInterleaved> rotate_interleaved{};

}  // namespace
}  // namespace posenc::kernels
