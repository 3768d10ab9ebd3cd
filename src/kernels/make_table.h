// Builds a KernelTable from the kernels of one architecture (SIMD) or from the scalar loops.
// Included by the translation units that own a table: dispatch.cpp and table_avx2.cpp.
#pragma once

#include "dispatch.h"
#include "dot.h"
#include "narrow.h"
#include "phase_rows.h"
#include "phase_step.h"
#include "rotate.h"

namespace posenc::kernels {
namespace {

inline KernelTable scalar_kernel_table() {
  KernelTable t{};
  t.name = "scalar";
  t.rotate_half = [](const float* c, const float* s, const float* a, const float* b, float* da,
                     float* db, std::size_t n) { rotate_half_scalar(c, s, a, b, da, db, 0, n); };
  t.rotate_interleaved = [](const float* c, const float* s, const float* src, float* dst,
                            std::size_t n) { rotate_interleaved_scalar(c, s, src, dst, 0, n); };
  t.dot = [](const float* a, const float* b, std::size_t n) { return dot_scalar(a, b, 0, n); };
  t.dot_row = [](const float* a, const float* b, std::size_t dim, std::size_t cols, float* out) {
    for (std::size_t c = 0; c < cols; ++c) out[c] = dot_scalar(a, b + c * dim, 0, dim);
  };
  t.narrow = [](const double* in, float* out, std::size_t n) { narrow_scalar(in, out, 0, n); };
  t.sincos = [](const double* angle, double* s, double* c, std::size_t n) {
    sincos_scalar(angle, s, c, 0, n);
  };
  t.rotate_step = [](double* c, double* s, const double* wc, const double* ws, float* c32,
                     float* s32, std::size_t n) { rotate_step_scalar(c, s, wc, ws, c32, s32, 0, n); };
  t.phase_rows_store = [](double* c, double* s, const double* wc, const double* ws,
                          std::size_t pairs, std::size_t rows, const RowsOut& out) {
    phase_rows_scalar<false>(c, s, wc, ws, 0, pairs, rows, out);
  };
  t.phase_rows_add = [](double* c, double* s, const double* wc, const double* ws,
                        std::size_t pairs, std::size_t rows, const RowsOut& out) {
    phase_rows_scalar<true>(c, s, wc, ws, 0, pairs, rows, out);
  };
  return t;
}

#if POSENC_SIMD

template <class Arch>
KernelTable simd_kernel_table() {
  KernelTable t{};
  t.name = Arch::name();
  t.rotate_half = &rotate_half_simd<Arch>;
  t.rotate_interleaved = &rotate_interleaved_simd<Arch>;
  t.dot = &dot_simd<Arch>;
  t.dot_row = &dot_row_simd<Arch>;
  t.narrow = &narrow_simd<Arch>;
  t.sincos = &sincos_simd<Arch>;
  t.rotate_step = &rotate_step_simd<Arch>;
  t.phase_rows_store = &phase_rows_simd<false, Arch>;
  t.phase_rows_add = &phase_rows_simd<true, Arch>;
  return t;
}

#endif  // POSENC_SIMD

}  // namespace
}  // namespace posenc::kernels
