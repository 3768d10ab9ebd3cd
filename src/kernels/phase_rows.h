// Table rows straight from the float64 rotation recurrence: for a group of pairs, the
// (cos, sin) state stays in registers while rows are produced one after another, each
// rounded once to float32 and written (or added) in the table's layout. Keeping the state
// in registers avoids a load and a store of it per row and pair: the table kernels then do
// little more than the recurrence's multiply-adds and the conversion. Half-precision tables
// (Storage, storage.h) round the float64 value once to their type; adding into one is the
// float32 sum of the widened element and the float32 value, rounded once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

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
  // cos and sin of a group of pairs (or their one-row steps), two float64 batches each.
  template <class Arch>
  struct Group {
    xsimd::batch<double, Arch> c0, c1, s0, s1;
  };

  template <class Arch>
  static void simd(double* cos, double* sin, const double* step_cos, const double* step_sin, std::size_t pairs,
                   std::size_t rows, const RowsOutOf<T>& out) {
    using doubles = xsimd::batch<double, Arch>;
    constexpr std::size_t group = xsimd::batch<float, Arch>::size;  // pairs per group: two float64 batches
    constexpr std::size_t half = doubles::size;
    const std::size_t whole = pairs - pairs % group;
    const auto load = [](const double* c, const double* s) {
      return Group<Arch>{doubles::load_unaligned(c), doubles::load_unaligned(c + half), doubles::load_unaligned(s),
                         doubles::load_unaligned(s + half)};
    };
    for (std::size_t i = 0; i < whole; i += group) {
      const Group<Arch> start = load(cos + i, sin + i), step = load(step_cos + i, step_sin + i);
      T* s_at = out.sin + (out.interleaved ? 2 * i : i);
      T* c_at = out.cos + i;
      Group<Arch> end;
      if constexpr (std::is_same_v<T, float> || Accumulate) {
        end = write<Arch>(start, step, rows, s_at, c_at, out,
                          [](const doubles& lo, const doubles& hi) { return rounded<Arch>(lo, hi); });
      } else {
        // 16-bit tables: the quick rounding, then the exact one if a lane was not right in it
        // (the same recurrence from the same state: the same float64 values).
        typename Storage::template QuickTable<Arch> quick;
        end = write<Arch>(start, step, rows, s_at, c_at, out,
                          [&quick](const doubles& lo, const doubles& hi) { return quick(lo, hi); });
        if (!quick.right())
          write<Arch>(start, step, rows, s_at, c_at, out,
                      [](const doubles& lo, const doubles& hi) { return Storage::template table<Arch>(lo, hi); });
      }
      end.c0.store_unaligned(cos + i);
      end.c1.store_unaligned(cos + i + half);
      end.s0.store_unaligned(sin + i);
      end.s1.store_unaligned(sin + i + half);
    }
    scalar(whole, cos, sin, step_cos, step_sin, pairs, rows, out);
  }

  // A group's rows from state `at`, each pair of float64 batches made table values by `round`;
  // returns the state after the last row.
  template <class Arch, class Round>
  static Group<Arch> write(Group<Arch> at, const Group<Arch>& step, std::size_t rows, T* s_at, T* c_at,
                           const RowsOutOf<T>& out, Round round) {
    constexpr std::size_t group = xsimd::batch<float, Arch>::size;
    for (std::size_t r = 0; r < rows; ++r, s_at += out.row_stride, c_at += out.row_stride) {
      const auto s = round(at.s0, at.s1), c = round(at.c0, at.c1);
      // Interleaved: sin/cos pairs alternate over two batches; else each goes to its own row.
      // One pair of stores either way: the storage's conversion is inlined once.
      put<Arch>(s_at, out.interleaved ? s_at + group : c_at, out.interleaved ? xsimd::zip_lo(s, c) : s,
                out.interleaved ? xsimd::zip_hi(s, c) : c);
      const auto c0 = at.c0 * step.c0 - at.s0 * step.s0, c1 = at.c1 * step.c1 - at.s1 * step.s1;
      at.s0 = at.s0 * step.c0 + at.c0 * step.s0;
      at.s1 = at.s1 * step.c1 + at.c1 * step.s1;
      at.c0 = c0;
      at.c1 = c1;
    }
    return at;
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
