// The reductions of a softmax row (kernels/softmax_row.h): RowMax equal to the scalar loop's
// result (NaNs skipped, -infinity for an empty row), and ExpShiftSum's float32 exp measured
// against exp in long double: its error bound, quoted in docs/api.md, is asserted here over every
// float32 argument step in [-104, 0] that the row's maximum can leave.
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/generators/catch_generators_range.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "kernels/softmax_row.h"
#include "test_support.h"

namespace {

using namespace test_support;
using Arch = xsimd::default_arch;
using posenc::kernels::ExpShiftSum;
using posenc::kernels::RowMax;

}  // namespace

TEST_CASE("RowMax: simd equals scalar for every n, NaNs skipped", "[kernels]") {
  const std::size_t n = GENERATE(range<std::size_t>(0, 40), 1001);
  std::vector<float> v = random_floats(n, 5 + static_cast<std::uint32_t>(n), -30.0f, 30.0f);
  if (n > 2) v[n / 2] = std::numeric_limits<float>::quiet_NaN();
  if (n > 5) v[1] = -std::numeric_limits<float>::infinity();
  CHECK(RowMax::simd<Arch>(v.data(), n) == RowMax::scalar(0, v.data(), n));  // (+0 and -0 may trade places)
}

TEST_CASE(
    "ExpShiftSum: float32 exp within 1.5 ulps (2^-126 absolute below 2^-126), and the float64 sum of what it wrote",
    "[kernels]") {
  // Arguments s - m over [-104, 0] (below about -103.3 exp is 0 in float32), every 2^-12.
  const float m = 3.0f;
  std::vector<float> row;
  for (float x = 0.0f; x >= -104.0f; x -= 0x1p-12f) row.push_back(m + x);
  std::vector<float> args(row.size());
  for (std::size_t j = 0; j < row.size(); ++j) args[j] = row[j] - m;  // the difference the kernel takes
  const double sum = ExpShiftSum::simd<Arch>(row.data(), row.size(), m);
  long double worst_ulps = 0, worst_tiny = 0, total = 0;
  for (std::size_t j = 0; j < row.size(); ++j) {
    const long double want = std::exp(static_cast<long double>(args[j]));
    const long double error = std::fabs(row[j] - want);
    if (want >= 0x1p-126L) {  // normal results: in ulps of the result
      worst_ulps = std::max(worst_ulps, error / std::ldexp(1.0L, std::ilogb(static_cast<float>(want)) - 23));
    } else {  // subnormal results (arguments below about -87.3) may flush to 0
      worst_tiny = std::max(worst_tiny, error);
    }
    total += row[j];
  }
  INFO("worst error " << static_cast<double>(worst_ulps) << " ulps, " << static_cast<double>(worst_tiny)
                      << " below 2^-126");
  CHECK(worst_ulps <= 1.5L);  // 1.41 measured (SSE2, AVX2)
  CHECK(worst_tiny <= 0x1p-126L);
  CHECK(std::fabs(static_cast<long double>(sum) - total) <= total * 0x1p-40L);
}
