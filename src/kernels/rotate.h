// RoPE rotation kernels for one head's channels. Each kernel is a scalar loop (the tail of
// the SIMD loop and the whole scalar build) plus an xsimd version templated on the
// architecture: whole batches with unaligned loads (pointers come from JS), then the tail.
// `src` may equal `dst` (in place); they must not otherwise overlap.
#pragma once

#include <cstddef>
#include <cstdint>

#include "simd.h"

namespace posenc::kernels {
namespace {  // internal linkage: each architecture's translation unit keeps its own copy

// Half pairing: a = x[i], b = x[i + rotary_dim/2].
//   a' = a cos - b sin,  b' = b cos + a sin
inline void rotate_half_scalar(const float* cos, const float* sin, const float* src_a,
                               const float* src_b, float* dst_a, float* dst_b,
                               std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) {
    const float a = src_a[i], b = src_b[i];
    dst_a[i] = a * cos[i] - b * sin[i];
    dst_b[i] = b * cos[i] + a * sin[i];
  }
}

// Interleaved pairing on channels whose cos/sin were expanded per channel:
//   cos_dup = [c0, c0, c1, c1, ...], sin_signed = [-s0, s0, -s1, s1, ...], so that
//   x'[j] = x[j] cos_dup[j] + x[j ^ 1] sin_signed[j]  (the same rotation as above).
inline void rotate_interleaved_scalar(const float* cos_dup, const float* sin_signed,
                                      const float* src, float* dst, std::size_t begin,
                                      std::size_t end) {
  for (std::size_t j = begin; j < end; j += 2) {
    const float a = src[j], b = src[j + 1];
    dst[j] = a * cos_dup[j] + b * sin_signed[j];
    dst[j + 1] = b * cos_dup[j + 1] + a * sin_signed[j + 1];
  }
}

#if POSENC_SIMD

template <class Arch>
void rotate_half_simd(const float* cos, const float* sin, const float* src_a, const float* src_b,
                      float* dst_a, float* dst_b, std::size_t n) {
  using batch = xsimd::batch<float, Arch>;
  const std::size_t whole = n - n % batch::size;
  for (std::size_t i = 0; i < whole; i += batch::size) {
    const batch c = batch::load_unaligned(cos + i), s = batch::load_unaligned(sin + i);
    const batch a = batch::load_unaligned(src_a + i), b = batch::load_unaligned(src_b + i);
    (a * c - b * s).store_unaligned(dst_a + i);
    (b * c + a * s).store_unaligned(dst_b + i);
  }
  rotate_half_scalar(cos, sin, src_a, src_b, dst_a, dst_b, whole, n);
}

// Lane i of a batch takes lane i ^ 1: swaps the two members of every pair.
struct SwapPairs {
  static constexpr unsigned get(unsigned i, unsigned) { return i ^ 1u; }
};

template <class Arch>
void rotate_interleaved_simd(const float* cos_dup, const float* sin_signed, const float* src,
                             float* dst, std::size_t n) {
  using batch = xsimd::batch<float, Arch>;
  constexpr auto swap_pairs = xsimd::make_batch_constant<std::uint32_t, Arch, SwapPairs>();
  const std::size_t whole = n - n % batch::size;  // batch sizes are even: pairs stay whole
  for (std::size_t j = 0; j < whole; j += batch::size) {
    const batch x = batch::load_unaligned(src + j);
    const batch c = batch::load_unaligned(cos_dup + j), s = batch::load_unaligned(sin_signed + j);
    (x * c + xsimd::swizzle(x, swap_pairs) * s).store_unaligned(dst + j);
  }
  rotate_interleaved_scalar(cos_dup, sin_signed, src, dst, whole, n);
}

#endif  // POSENC_SIMD

}  // namespace
}  // namespace posenc::kernels
