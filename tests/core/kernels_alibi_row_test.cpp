// One row of an ALiBi bias (kernels/alibi_row.h): the SIMD version against the scalar loop,
// bit for bit, for every length 0..67 and a few large (tails of every size for SSE2's, AVX2's
// and SIMD128's widths), at unaligned addresses, for slopes and starts of every kind.
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/generators/catch_generators_range.hpp>

#include <cmath>
#include <vector>

#include "kernels/alibi_row.h"
#include "test_support.h"

namespace {

using namespace test_support;
using Arch = xsimd::default_arch;
using posenc::kernels::AlibiRow;

}  // namespace

TEST_CASE("AlibiRow: simd equals scalar bit for bit, for every n", "[kernels]") {
  const std::size_t n = GENERATE(range<std::size_t>(0, 68), 128, 129, 1001);
  const std::size_t shift = GENERATE(0, 1, 3);
  const double slope = GENERATE(0.5, 0x1p-8, 0.7071067811865476, 1e-300, 3.0e38, 0.0);
  const double start = GENERATE(0.0, -1.0, -1000.0, 17.0, -2147483647.0, 2147483647.0 - 2000.0);
  INFO("n " << n << ", shift " << shift << ", slope " << slope << ", start " << start);
  GuardedBuffer out(n, shift);
  AlibiRow::simd<Arch>(slope, start, out.data(), n);
  std::vector<float> want(n);
  AlibiRow::scalar(0, slope, start, want.data(), n);
  CHECK(first_difference(out.values(), want) == n);
  CHECK(out.guards_intact());
}

TEST_CASE("AlibiRow: each value is the float64 product rounded once", "[kernels]") {
  const double slope = 0.35355339059327373;  // 2^-1.5
  const double start = -100.0;
  std::vector<float> out(300);
  AlibiRow::simd<Arch>(slope, start, out.data(), out.size());
  for (std::size_t j = 0; j < out.size(); ++j) {
    const float want = static_cast<float>(slope * (start + static_cast<double>(j)));
    CHECK(same_bits(out[j], want));
  }
  CHECK(out[100] == 0.0f);
  CHECK(!std::signbit(out[100]));  // distance 0 gives +0, never -0
}
