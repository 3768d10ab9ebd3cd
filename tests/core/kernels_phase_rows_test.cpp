// Table rows from the register-resident float64 recurrence (kernels/phase_rows.h): PhaseRows,
// SIMD against scalar, bit for bit, in the three layouts the core writes (interleaved sin/cos,
// [sin | cos] halves, separate cos and sin arrays), writing and adding, for every pair count
// 0..67 and a few large, any row count, at unaligned addresses.
// Every other slot of the table, and the guards around it, must stay untouched.
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/generators/catch_generators_range.hpp>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "kernels/phase_rows.h"
#include "test_support.h"

namespace {

using namespace test_support;
using Arch = xsimd::default_arch;
using posenc::kernels::PhaseRows;
using posenc::kernels::RowsOut;

enum class Layout { kInterleaved, kHalves, kSeparateArrays };

// A table (or, for kSeparateArrays, a sin table followed by a cos table) with spare columns
// and guards; RowsOut for it.
struct Table {
  Layout layout;
  std::size_t pairs, rows, row_stride;
  GuardedBuffer storage;

  Table(Layout layout_, std::size_t pairs_, std::size_t rows_, std::size_t shift)
      : layout(layout_),
        pairs(pairs_),
        rows(rows_),
        row_stride(layout_ == Layout::kSeparateArrays ? pairs_ + 1 : 2 * pairs_ + 3),
        storage((layout_ == Layout::kSeparateArrays ? 2 : 1) * rows_ * row_stride, shift) {}

  RowsOut out() {
    float* start = storage.data();
    switch (layout) {
      case Layout::kInterleaved:
        return {start, start + 1, row_stride, true};
      case Layout::kHalves:
        return {start, start + pairs, row_stride, false};
      case Layout::kSeparateArrays:
        return {start, start + rows * row_stride, row_stride, false};
    }
    return {};
  }

  // Where row r's sin and cos of pair i live within storage.
  std::size_t sin_at(std::size_t r, std::size_t i) const {
    return r * row_stride + (layout == Layout::kInterleaved ? 2 * i : i);
  }
  std::size_t cos_at(std::size_t r, std::size_t i) const {
    switch (layout) {
      case Layout::kInterleaved:
        return r * row_stride + 2 * i + 1;
      case Layout::kHalves:
        return r * row_stride + pairs + i;
      case Layout::kSeparateArrays:
        return (rows + r) * row_stride + i;
    }
    return 0;
  }
};

const char* name(Layout layout) {
  switch (layout) {
    case Layout::kInterleaved:
      return "interleaved";
    case Layout::kHalves:
      return "halves";
    case Layout::kSeparateArrays:
      return "separate arrays";
  }
  return "?";
}

}  // namespace

TEST_CASE("PhaseRows: simd equals scalar bit for bit and writes only its slots", "[kernels]") {
  const std::size_t pairs = GENERATE(range<std::size_t>(0, 68), 128);
  const std::size_t rows = GENERATE(0, 1, 3, 4, 7);
  const Layout layout = GENERATE(Layout::kInterleaved, Layout::kHalves, Layout::kSeparateArrays);
  const bool accumulate = GENERATE(false, true);
  const std::size_t shift = GENERATE(0, 1);
  INFO("pairs " << pairs << ", rows " << rows << ", " << name(layout) << (accumulate ? ", add" : ", write")
                << ", shift " << shift);

  // A state on the unit circle at angles theta0, stepping by w: row r must hold
  // (sin, cos)(theta0 + r w) rounded to float32.
  const std::vector<double> theta0 = random_doubles(pairs, 41, 0.0, 100.0), w = random_doubles(pairs, 42, 0.0, 1.0);
  std::vector<double> cos0(pairs), sin0(pairs), step_cos(pairs), step_sin(pairs);
  for (std::size_t i = 0; i < pairs; ++i) {
    cos0[i] = std::cos(theta0[i]);
    sin0[i] = std::sin(theta0[i]);
    step_cos[i] = std::cos(w[i]);
    step_sin[i] = std::sin(w[i]);
  }
  Table simd(layout, pairs, rows, shift), scalar(layout, pairs, rows, 0);
  if (accumulate) {  // adding: start from known values everywhere
    const std::vector<float> start = random_floats(simd.storage.size(), 43);
    simd.storage.assign(start);
    scalar.storage.assign(start);
  }
  const std::vector<float> before = simd.storage.values();

  Guarded<double> cos(pairs, shift), sin(pairs, shift), wc(pairs, shift), ws(pairs, shift);
  cos.assign(cos0);
  sin.assign(sin0);
  wc.assign(step_cos);
  ws.assign(step_sin);
  std::vector<double> scalar_cos = cos0, scalar_sin = sin0;
  if (accumulate) {
    PhaseRows<true>::simd<Arch>(cos.data(), sin.data(), wc.data(), ws.data(), pairs, rows, simd.out());
    PhaseRows<true>::scalar(0, scalar_cos.data(), scalar_sin.data(), step_cos.data(), step_sin.data(), pairs, rows,
                            scalar.out());
  } else {
    PhaseRows<false>::simd<Arch>(cos.data(), sin.data(), wc.data(), ws.data(), pairs, rows, simd.out());
    PhaseRows<false>::scalar(0, scalar_cos.data(), scalar_sin.data(), step_cos.data(), step_sin.data(), pairs, rows,
                             scalar.out());
  }

  // Same table (every slot, written or not) and same final state.
  CHECK(first_difference(simd.storage.values(), scalar.storage.values()) == simd.storage.size());
  CHECK(first_difference(cos.values(), scalar_cos) == pairs);
  CHECK(first_difference(sin.values(), scalar_sin) == pairs);
  for (const auto* guarded : {&cos, &sin, &wc, &ws}) CHECK(guarded->guards_intact());
  CHECK(simd.storage.guards_intact());

  // The values are the rotations, and nothing else changed.
  const std::vector<float> after = simd.storage.values();
  std::vector<bool> owned(after.size(), false);
  WorstError worst;  // error / (float32 rounding of the value and the sum, plus recurrence drift)
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t i = 0; i < pairs; ++i) {
      const long double theta = theta0[i] + static_cast<long double>(r) * w[i];
      for (const auto& [at, exact] :
           {std::pair{simd.sin_at(r, i), std::sin(theta)}, std::pair{simd.cos_at(r, i), std::cos(theta)}}) {
        owned[at] = true;
        const long double want = accumulate ? before[at] + exact : exact;
        const long double bound = 0x1p-24L * (std::fabs(exact) + std::fabs(want)) + 1e-14L;
        worst.update(std::fabs(after[at] - want) / bound, at);
      }
    }
  std::size_t stray = 0;
  for (std::size_t at = 0; at < after.size(); ++at) stray += !owned[at] && !same_bits(after[at], before[at]);
  INFO("worst slot " << worst.index << ": error / bound " << static_cast<double>(worst.value));
  CHECK(worst.value <= 1);
  CHECK(stray == 0);
  // The state moved on by `rows` steps.
  WorstError state;
  for (std::size_t i = 0; i < pairs; ++i) {
    const long double theta = theta0[i] + static_cast<long double>(rows) * w[i];
    state.update(std::max(std::fabs(cos.data()[i] - std::cos(theta)), std::fabs(sin.data()[i] - std::sin(theta))), i);
  }
  CHECK(state.value <= 1e-14L);
}
