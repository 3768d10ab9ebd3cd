// Whether this build has SIMD kernels. POSENC_SIMD is set by CMake: on for native builds
// (SSE/AVX through xsimd) and for the wasm SIMD128 build, off for the scalar wasm build,
// where xsimd cannot be used at all (its wasm backend assumes simd128).
#pragma once

#ifndef POSENC_SIMD
#define POSENC_SIMD 0
#endif

#if POSENC_SIMD
#include <xsimd/xsimd.hpp>
#endif
