// Builds a KernelTable from the kernels of one architecture (SIMD) or from the scalar loops.
// Included by the translation units that own a table: dispatch.cpp and table_avx2.cpp.
#pragma once

#include "dispatch.h"
#include "scalar.h"

namespace posenc::kernels {
namespace {

inline KernelTable scalar_kernel_table() {
  KernelTable t{};
  t.name = "scalar";
  t.rotate_half = &scalar::rotate_half;
  t.rotate_interleaved = &scalar::rotate_interleaved;
  t.dot = &scalar::dot;
  t.dot_row = &scalar::dot_row;
  t.narrow = &scalar::narrow;
  t.sincos = &scalar::sincos;
  t.rotate_step = &scalar::rotate_step;
  t.phase_rows_store = &scalar::phase_rows<false>;
  t.phase_rows_add = &scalar::phase_rows<true>;
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
