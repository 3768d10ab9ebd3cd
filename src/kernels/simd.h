// SIMD or scalar kernels, chosen when the core is compiled. POSENC_SIMD is set by CMake: on for
// native builds (SSE/AVX through xsimd) and for the wasm SIMD128 build, off for the scalar wasm
// build, where xsimd cannot be used at all (its wasm backend assumes simd128).
//
// A kernel is a struct with two versions of one loop: `static R scalar(begin, params...)`, the
// loop from element `begin` on, and, in SIMD builds, `template <class Arch> static R
// simd(params...)`: whole xsimd batches, then scalar(whole, params...) for the rest. The core
// calls it through a Kernel<K> object, e.g. `inline constexpr Kernel<RotateHalf> rotate_half{};`
// next to the struct.
#pragma once

#include <cstddef>

#ifndef POSENC_SIMD
#define POSENC_SIMD 0
#endif

#if POSENC_SIMD
#include <xsimd/xsimd.hpp>
#endif

namespace posenc::kernels {

template <class K, class Signature = decltype(&K::scalar)>
struct Kernel;

// Calls the kernel's xsimd template for the architecture this build targets, or its scalar
// loop from 0. The parameters are the scalar loop's after `begin` (which comes first so that
// they can be read off its type), so arguments convert as for a plain function (a braced
// RowsOut, say).
template <class K, class Result, class... Params>
struct Kernel<K, Result (*)(std::size_t begin, Params...)> {
  Result operator()(Params... args) const {
#if POSENC_SIMD
    return K::template simd<xsimd::default_arch>(args...);
#else
    return K::scalar(0, args...);
#endif
  }
};

}  // namespace posenc::kernels
