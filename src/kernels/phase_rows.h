// Table rows straight from the float64 rotation recurrence: for a group of pairs, the
// (cos, sin) state stays in registers while rows are produced one after another, each
// rounded once to float32 and written (or added) in the table's layout. Keeping the state
// in registers avoids a load and a store of it per row and pair: the table kernels then do
// little more than the recurrence's multiply-adds and the conversion. Half-precision tables
// (Storage, storage.h) round the float64 value once to their type; adding into one is the
// float32 sum of the widened element and the float32 value, rounded once.
#pragma once

#include <cstddef>

#include "narrow.h"
#include "rows_out.h"
#include "simd.h"
#include "storage.h"

namespace posenc::kernels {
namespace {  // internal linkage, as for static functions: a kernel with one caller is inlined into it

// Rows at consecutive positions, starting from the state in cos/sin (one entry per pair);
// the state is left at the position after the last row.
template <bool Accumulate, class Storage = Float32Storage>
struct PhaseRows {
  using T = typename Storage::type;
  static void scalar(std::size_t begin, double* cos, double* sin, const double* step_cos, const double* step_sin,
                     std::size_t pairs, std::size_t rows, const RowsOutOf<T>& out) {
    const std::size_t pair_stride = out.interleaved ? 2 : 1;
    for (std::size_t i = begin; i < pairs; ++i) {
      double c = cos[i], s = sin[i];
      const double wc = step_cos[i], ws = step_sin[i];
      T* s_at = out.sin + i * pair_stride;
      T* c_at = out.cos + i * pair_stride;
      for (std::size_t r = 0; r < rows; ++r, s_at += out.row_stride, c_at += out.row_stride) {
        put(s_at, s);
        put(c_at, c);
        const double next_c = c * wc - s * ws;
        s = s * wc + c * ws;
        c = next_c;
      }
      cos[i] = c;
      sin[i] = s;
    }
  }

  // Writes one value into the table, or adds its float32 rounding to what is there.
  static void put(T* at, double value) {
    if constexpr (Accumulate)
      *at = Storage::from_float(Storage::to_float(*at) + static_cast<float>(value));
    else
      *at = Storage::from_double(value);
  }

#if POSENC_SIMD
  template <class Arch>
  static void simd(double* cos, double* sin, const double* step_cos, const double* step_sin, std::size_t pairs,
                   std::size_t rows, const RowsOutOf<T>& out) {
    using doubles = xsimd::batch<double, Arch>;
    using floats = xsimd::batch<float, Arch>;
    constexpr std::size_t group = floats::size;  // pairs per group: two float64 batches
    constexpr std::size_t half = doubles::size;
    const std::size_t whole = pairs - pairs % group;
    for (std::size_t i = 0; i < whole; i += group) {
      doubles c0 = doubles::load_unaligned(cos + i), c1 = doubles::load_unaligned(cos + i + half);
      doubles s0 = doubles::load_unaligned(sin + i), s1 = doubles::load_unaligned(sin + i + half);
      const doubles wc0 = doubles::load_unaligned(step_cos + i);
      const doubles wc1 = doubles::load_unaligned(step_cos + i + half);
      const doubles ws0 = doubles::load_unaligned(step_sin + i);
      const doubles ws1 = doubles::load_unaligned(step_sin + i + half);
      T* s_at = out.sin + (out.interleaved ? 2 * i : i);
      T* c_at = out.cos + i;
      for (std::size_t r = 0; r < rows; ++r, s_at += out.row_stride, c_at += out.row_stride) {
        const auto s = rounded<Arch>(s0, s1), c = rounded<Arch>(c0, c1);
        // Interleaved: sin/cos pairs alternate over two batches; else each goes to its own row.
        // One pair of stores either way: the storage's conversion is inlined once.
        put<Arch>(s_at, out.interleaved ? s_at + group : c_at, out.interleaved ? xsimd::zip_lo(s, c) : s,
                  out.interleaved ? xsimd::zip_hi(s, c) : c);
        const doubles n0 = c0 * wc0 - s0 * ws0, n1 = c1 * wc1 - s1 * ws1;
        s0 = s0 * wc0 + c0 * ws0;
        s1 = s1 * wc1 + c1 * ws1;
        c0 = n0;
        c1 = n1;
      }
      c0.store_unaligned(cos + i);
      c1.store_unaligned(cos + i + half);
      s0.store_unaligned(sin + i);
      s1.store_unaligned(sin + i + half);
    }
    scalar(whole, cos, sin, step_cos, step_sin, pairs, rows, out);
  }

  // Two float64 batches as the table takes them: a sum adds their float32 values; a table stores
  // them rounded as once from float64 (Storage::table: float32 lanes, or 16-bit patterns).
  template <class Arch>
  static auto rounded(const xsimd::batch<double, Arch>& lo, const xsimd::batch<double, Arch>& hi) {
    if constexpr (Accumulate)
      return narrow_pair<Arch>(lo, hi);
    else
      return Storage::template table<Arch>(lo, hi);
  }

  template <class Arch, class Values>
  static void put(T* first_at, T* second_at, const Values& first, const Values& second) {
    if constexpr (Accumulate) {
      Storage::template store<Arch>(first_at, Storage::template load<Arch>(first_at) + first);
      Storage::template store<Arch>(second_at, Storage::template load<Arch>(second_at) + second);
    } else {
      Storage::template store_table_pair<Arch>(first_at, second_at, first, second);
    }
  }
#endif
};
template <bool Accumulate, class Storage = Float32Storage>
inline constexpr Kernel<PhaseRows<Accumulate, Storage>> phase_rows{};

}  // namespace
}  // namespace posenc::kernels
