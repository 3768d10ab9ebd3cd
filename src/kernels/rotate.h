// RoPE rotation kernels: the same channels of `heads` head vectors, `stride` elements apart (the
// heads of one row), rotated by one row's cos/sin, in the HeadOrder given. Elements are stored as
// the Storage policy says (storage.h): widened exactly to float32, rotated in float32, rounded
// once on store, so a half tensor's result is the float32 one on the widened input, rounded. The SIMD versions load and
// store unaligned (pointers come from JS). `src` may equal `dst` (in place); they must not otherwise overlap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "simd.h"
#include "storage.h"

namespace posenc::kernels {

// The order the rotation kernels visit `heads` heads (the products are the same either way):
// across heads, each batch of cos/sin loaded once for all of them, for rows in cache; a head at
// a time, for large tensors, so memory is read in order (many heads at once, a head apart,
// defeat the hardware prefetcher).
enum class HeadOrder { kAcrossHeads, kHeadByHead };

namespace {  // internal linkage, as for static functions: a kernel with one caller is inlined into it

// Float32 tensors take the order asked for. Half ones always go head by head: their conversions,
// not the cos/sin loads that the other order shares, bound the loop, and one loop per kernel
// keeps the WebAssembly module small.
template <class Storage>
bool across_heads_for(HeadOrder order) {
  return std::is_same_v<Storage, Float32Storage> && order == HeadOrder::kAcrossHeads;
}

// Half pairing: a = x[i], b = x[i + rotary_dim/2].
//   a' = a cos - b sin,  b' = b cos + a sin
// n channels a of each head, and their partners b at `half` channels on.
template <class Storage>
struct RotateHalfOf {
  using T = typename Storage::type;
  static void scalar(std::size_t begin, const float* cos, const float* sin, const T* src, T* dst, std::size_t half,
                     std::size_t heads, std::size_t stride, HeadOrder, std::size_t n) {
    for (std::size_t h = 0; h < heads; ++h) {
      const T* x = src + h * stride;
      T* y = dst + h * stride;
      for (std::size_t i = begin; i < n; ++i) {
        const float a = Storage::to_float(x[i]), b = Storage::to_float(x[i + half]);
        y[i] = Storage::from_float(a * cos[i] - b * sin[i]);
        y[i + half] = Storage::from_float(b * cos[i] + a * sin[i]);
      }
    }
  }

#if POSENC_SIMD
  // Channels per step: a batch of float32; two batches of 16-bit data, one 128-bit access each
  // for a and b (load_pair, store_pair). Float32 takes two no faster (Chromium: 7% slower).
  template <class Arch>
  static void simd(const float* cos, const float* sin, const T* src, T* dst, std::size_t half, std::size_t heads,
                   std::size_t stride, HeadOrder order, std::size_t n) {
    using batch = xsimd::batch<float, Arch>;
    constexpr std::size_t lanes = batch::size, batches = std::is_same_v<Storage, Float32Storage> ? 1 : 2;
    constexpr std::size_t width = batches * lanes;
    const std::size_t whole = n - n % width;
    struct Angles {  // cos/sin of a step's channels
      batch c[batches], s[batches];
    };
    const auto angles = [&](std::size_t i) {
      Angles w;
      for (std::size_t k = 0; k < batches; ++k) {
        w.c[k] = batch::load_unaligned(cos + i + k * lanes);
        w.s[k] = batch::load_unaligned(sin + i + k * lanes);
      }
      return w;
    };
    const auto rotate = [&](std::size_t h, std::size_t i, const Angles& w) {
      const T* x = src + h * stride + i;
      T* y = dst + h * stride + i;
      if constexpr (batches == 1) {
        const batch a = Storage::template load<Arch>(x), b = Storage::template load<Arch>(x + half);
        Storage::template store<Arch>(y, a * w.c[0] - b * w.s[0]);
        Storage::template store<Arch>(y + half, b * w.c[0] + a * w.s[0]);
      } else {
        const auto [a0, a1] = Storage::template load_pair<Arch>(x);
        const auto [b0, b1] = Storage::template load_pair<Arch>(x + half);
        Storage::template store_pair<Arch>(y, y + lanes, a0 * w.c[0] - b0 * w.s[0], a1 * w.c[1] - b1 * w.s[1]);
        Storage::template store_pair<Arch>(y + half, y + half + lanes, b0 * w.c[0] + a0 * w.s[0],
                                           b1 * w.c[1] + a1 * w.s[1]);
      }
    };
    if (across_heads_for<Storage>(order)) {
      for (std::size_t i = 0; i < whole; i += width) {
        const Angles w = angles(i);
        for (std::size_t h = 0; h < heads; ++h) rotate(h, i, w);
      }
    } else {
      for (std::size_t h = 0; h < heads; ++h)
        for (std::size_t i = 0; i < whole; i += width) rotate(h, i, angles(i));
    }
    scalar(whole, cos, sin, src, dst, half, heads, stride, order, n);
  }
#endif
};
using RotateHalf = RotateHalfOf<Float32Storage>;
template <class Storage>
inline constexpr Kernel<RotateHalfOf<Storage>> rotate_half_of{};
inline constexpr Kernel<RotateHalf> rotate_half{};

// Interleaved pairing: pair i is (x[2i], x[2i+1]), rotated as above; n counts pairs. The SIMD
// version loads a batch of cos and sin and spreads them over two batches of channels:
//   [c0, c0, c1, c1], [c2, c2, c3, c3] and [-s0, s0, -s1, s1], [-s2, s2, -s3, s3], so that
//   x'[j] = x[j] c + x[j ^ 1] (-s or s), the same products and sums as the scalar loop.
template <class Storage>
struct RotateInterleavedOf {
  using T = typename Storage::type;
  static void scalar(std::size_t begin, const float* cos, const float* sin, const T* src, T* dst, std::size_t heads,
                     std::size_t stride, HeadOrder, std::size_t n) {
    for (std::size_t h = 0; h < heads; ++h) {
      const T* x = src + h * stride;
      T* y = dst + h * stride;
      for (std::size_t i = begin; i < n; ++i) {
        const float a = Storage::to_float(x[2 * i]), b = Storage::to_float(x[2 * i + 1]);
        y[2 * i] = Storage::from_float(a * cos[i] + b * -sin[i]);
        y[2 * i + 1] = Storage::from_float(b * cos[i] + a * sin[i]);
      }
    }
  }

#if POSENC_SIMD
  // Lane i of a batch takes lane i ^ 1: swaps the two members of every pair.
  struct SwapPairs {
    static constexpr unsigned get(unsigned i, unsigned) { return i ^ 1u; }
  };

  template <class Arch>
  static void simd(const float* cos, const float* sin, const T* src, T* dst, std::size_t heads, std::size_t stride,
                   HeadOrder order, std::size_t n) {
    using batch = xsimd::batch<float, Arch>;
    constexpr std::size_t lanes = batch::size;
    constexpr auto swap_pairs = xsimd::make_batch_constant<std::uint32_t, Arch, SwapPairs>();
    const std::size_t whole = n - n % lanes;  // pairs in whole batches of cos/sin
    struct Spread {                           // a batch of cos/sin over two batches of channels
      batch c_low, c_high, s_low, s_high;
    };
    const auto spread = [&](std::size_t i) {
      const batch c = batch::load_unaligned(cos + i), s = batch::load_unaligned(sin + i), minus_s = -s;
      return Spread{xsimd::zip_lo(c, c), xsimd::zip_hi(c, c), xsimd::zip_lo(minus_s, s), xsimd::zip_hi(minus_s, s)};
    };
    const auto rotate = [&](std::size_t h, std::size_t i, const Spread& p) {
      const T* x = src + h * stride + 2 * i;
      T* y = dst + h * stride + 2 * i;
      const auto [low, high] = Storage::template load_pair<Arch>(x);
      Storage::template store_pair<Arch>(y, y + lanes, low * p.c_low + xsimd::swizzle(low, swap_pairs) * p.s_low,
                                         high * p.c_high + xsimd::swizzle(high, swap_pairs) * p.s_high);
    };
    if (across_heads_for<Storage>(order)) {
      for (std::size_t i = 0; i < whole; i += lanes) {
        const Spread p = spread(i);
        for (std::size_t h = 0; h < heads; ++h) rotate(h, i, p);
      }
    } else {
      for (std::size_t h = 0; h < heads; ++h)
        for (std::size_t i = 0; i < whole; i += lanes) rotate(h, i, spread(i));
    }
    scalar(whole, cos, sin, src, dst, heads, stride, order, n);
  }
#endif
};
using RotateInterleaved = RotateInterleavedOf<Float32Storage>;
template <class Storage>
inline constexpr Kernel<RotateInterleavedOf<Storage>> rotate_interleaved_of{};
inline constexpr Kernel<RotateInterleaved> rotate_interleaved{};

}  // namespace
}  // namespace posenc::kernels
