// float32 values stored into (or added to) an array of another storage type (storage.h), each
// rounded once: the last step of the half-precision tables, whose rows are made in float32 in a
// small tile first (phases.cpp), so that the table kernel exists once for every storage type.
#pragma once

#include <cstddef>

#include "simd.h"
#include "storage.h"

namespace posenc::kernels {
namespace {  // internal linkage, as for static functions

// out[i] = in[i] rounded to the storage type (Accumulate: out[i] widened, plus in[i] in float32,
// rounded once).
template <bool Accumulate, class Storage>
struct StoreFloats {
  using T = typename Storage::type;
  static void scalar(std::size_t begin, const float* in, T* out, std::size_t n) {
    for (std::size_t i = begin; i < n; ++i)
      out[i] = Storage::from_float(Accumulate ? Storage::to_float(out[i]) + in[i] : in[i]);
  }

#if POSENC_SIMD
  template <class Arch>
  static void simd(const float* in, T* out, std::size_t n) {
    using floats = xsimd::batch<float, Arch>;
    const std::size_t whole = n - n % floats::size;
    for (std::size_t i = 0; i < whole; i += floats::size) {
      const floats value = floats::load_unaligned(in + i);
      if constexpr (Accumulate)
        Storage::template store<Arch>(out + i, Storage::template load<Arch>(out + i) + value);
      else
        Storage::template store<Arch>(out + i, value);
    }
    scalar(whole, in, out, n);
  }
#endif
};
template <bool Accumulate, class Storage>
inline constexpr Kernel<StoreFloats<Accumulate, Storage>> store_floats{};

}  // namespace
}  // namespace posenc::kernels
