// The kernels the core calls. Native x86-64 builds (POSENC_AVX2_TABLE) go through a table
// chosen once per process for the best instruction set this CPU has (AVX2 or the SSE2
// baseline, see dispatch.cpp); WASM builds have one architecture and call its kernels
// directly, so they can be inlined into the loops that call them. Call sites are the same
// whatever the build. The tables exist in every build (tests compare them).
#pragma once

#include <cstddef>

#include "rows_out.h"

#if !POSENC_AVX2_TABLE
#include "scalar.h"
#endif

namespace posenc::kernels {

struct KernelTable {
  const char* name;  // "avx2", "sse2", "wasm", "scalar"
  void (*rotate_half)(const float* cos, const float* sin, const float* src_a, const float* src_b,
                      float* dst_a, float* dst_b, std::size_t n);
  void (*rotate_interleaved)(const float* cos_dup, const float* sin_signed, const float* src,
                             float* dst, std::size_t n);
  float (*dot)(const float* a, const float* b, std::size_t n);
  void (*dot_row)(const float* a, const float* b, std::size_t dim, std::size_t cols, float* out);
  void (*narrow)(const double* in, float* out, std::size_t n);
  void (*sincos)(const double* angle, double* sin, double* cos, std::size_t n);
  void (*rotate_step)(double* cos, double* sin, const double* step_cos, const double* step_sin,
                      float* cos32, float* sin32, std::size_t n);
  void (*phase_rows_store)(double* cos, double* sin, const double* step_cos,
                           const double* step_sin, std::size_t pairs, std::size_t rows,
                           const RowsOut& out);
  void (*phase_rows_add)(double* cos, double* sin, const double* step_cos, const double* step_sin,
                         std::size_t pairs, std::size_t rows, const RowsOut& out);
};

// The table in use (chosen on first call), and every table this CPU can run (for tests).
const KernelTable& active_kernels();
std::size_t available_kernel_tables(const KernelTable** tables, std::size_t capacity);

// The calls the core makes. Internal linkage keeps a copy compiled with AVX2 flags (in the
// AVX2 table's translation unit) from standing in for the baseline copy.
namespace {

// KERNEL(name): the table's entry (run-time dispatch), the SIMD kernel, or the scalar loop.
#if POSENC_AVX2_TABLE
#define POSENC_KERNEL(name) active_kernels().name
#elif POSENC_SIMD
#define POSENC_KERNEL(name) name##_simd<xsimd::default_arch>
#else
#define POSENC_KERNEL(name) scalar::name
#endif

inline void rotate_half(const float* cos, const float* sin, const float* src_a, const float* src_b,
                        float* dst_a, float* dst_b, std::size_t n) {
  POSENC_KERNEL(rotate_half)(cos, sin, src_a, src_b, dst_a, dst_b, n);
}
inline void rotate_interleaved(const float* cos_dup, const float* sin_signed, const float* src,
                               float* dst, std::size_t n) {
  POSENC_KERNEL(rotate_interleaved)(cos_dup, sin_signed, src, dst, n);
}
inline float dot(const float* a, const float* b, std::size_t n) { return POSENC_KERNEL(dot)(a, b, n); }
inline void dot_row(const float* a, const float* b, std::size_t dim, std::size_t cols, float* out) {
  POSENC_KERNEL(dot_row)(a, b, dim, cols, out);
}
inline void narrow(const double* in, float* out, std::size_t n) { POSENC_KERNEL(narrow)(in, out, n); }
inline void sincos(const double* angle, double* sin, double* cos, std::size_t n) {
  POSENC_KERNEL(sincos)(angle, sin, cos, n);
}
inline void rotate_step(double* cos, double* sin, const double* step_cos, const double* step_sin,
                        float* cos32, float* sin32, std::size_t n) {
  POSENC_KERNEL(rotate_step)(cos, sin, step_cos, step_sin, cos32, sin32, n);
}
template <bool Accumulate>
void phase_rows(double* cos, double* sin, const double* step_cos, const double* step_sin,
                std::size_t pairs, std::size_t rows, const RowsOut& out) {
#if POSENC_AVX2_TABLE
  const KernelTable& k = active_kernels();
  (Accumulate ? k.phase_rows_add : k.phase_rows_store)(cos, sin, step_cos, step_sin, pairs, rows, out);
#elif POSENC_SIMD
  phase_rows_simd<Accumulate, xsimd::default_arch>(cos, sin, step_cos, step_sin, pairs, rows, out);
#else
  scalar::phase_rows<Accumulate>(cos, sin, step_cos, step_sin, pairs, rows, out);
#endif
}

#undef POSENC_KERNEL

}  // namespace
}  // namespace posenc::kernels
