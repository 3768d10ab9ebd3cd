// The scalar loops over whole arrays, with the same signatures as the SIMD kernels: the
// scalar kernel table and the scalar WASM build call these.
#pragma once

#include <cstddef>

#include "dot.h"
#include "narrow.h"
#include "phase_rows.h"
#include "phase_step.h"
#include "rotate.h"

namespace posenc::kernels::scalar {
namespace {

inline void rotate_half(const float* cos, const float* sin, const float* src_a, const float* src_b,
                        float* dst_a, float* dst_b, std::size_t n) {
  rotate_half_scalar(cos, sin, src_a, src_b, dst_a, dst_b, 0, n);
}
inline void rotate_interleaved(const float* cos_dup, const float* sin_signed, const float* src,
                               float* dst, std::size_t n) {
  rotate_interleaved_scalar(cos_dup, sin_signed, src, dst, 0, n);
}
inline float dot(const float* a, const float* b, std::size_t n) { return dot_scalar(a, b, 0, n); }
inline void dot_row(const float* a, const float* b, std::size_t dim, std::size_t cols, float* out) {
  for (std::size_t c = 0; c < cols; ++c) out[c] = dot_scalar(a, b + c * dim, 0, dim);
}
inline void narrow(const double* in, float* out, std::size_t n) { narrow_scalar(in, out, 0, n); }
inline void sincos(const double* angle, double* sin, double* cos, std::size_t n) {
  sincos_scalar(angle, sin, cos, 0, n);
}
inline void rotate_step(double* cos, double* sin, const double* step_cos, const double* step_sin,
                        float* cos32, float* sin32, std::size_t n) {
  rotate_step_scalar(cos, sin, step_cos, step_sin, cos32, sin32, 0, n);
}
template <bool Accumulate>
void phase_rows(double* cos, double* sin, const double* step_cos, const double* step_sin,
                std::size_t pairs, std::size_t rows, const RowsOut& out) {
  phase_rows_scalar<Accumulate>(cos, sin, step_cos, step_sin, 0, pairs, rows, out);
}

}  // namespace
}  // namespace posenc::kernels::scalar
