// float64 -> float32 conversion of arrays (kernels/narrow.h): the SIMD version against
// the scalar loop (bit for bit) and round-to-nearest, for every length 0..67 and a few large,
// at unaligned addresses, including ties, subnormals, overflow, signed zeros and NaN.
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/generators/catch_generators_range.hpp>

#include <cmath>
#include <iterator>
#include <limits>
#include <vector>

#include "kernels/narrow.h"
#include "test_support.h"

namespace {

using namespace test_support;
using Arch = xsimd::default_arch;
using posenc::kernels::Narrow;

// Random doubles of every magnitude plus the special cases, cycled.
std::vector<double> awkward_doubles(std::size_t n) {
  const double specials[] = {0.0,
                             -0.0,
                             1.0 + 0x1p-24,            // a tie: rounds to even (1.0)
                             1.0 + 3 * 0x1p-24,        // a tie: rounds to even (1 + 2^-22)
                             1.0 + 0x1p-24 + 0x1p-40,  // just above a tie
                             0x1p-140,
                             -0x1p-149,
                             0x1p-151,  // float subnormals, and below the smallest
                             3.5e38,
                             -1e39,
                             std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::quiet_NaN(),
                             0.1,
                             -2.0 / 3.0};
  const std::vector<double> random = random_doubles(n, 17, -1.0, 1.0);
  std::vector<double> values(n);
  for (std::size_t i = 0; i < n; ++i)
    values[i] = i % 3 == 0 ? specials[(i / 3) % std::size(specials)]
                           : random[i] * std::ldexp(1.0, static_cast<int>(i % 40) - 20);
  return values;
}

}  // namespace

TEST_CASE("Narrow: simd equals scalar bit for bit, for every n", "[kernels]") {
  const std::size_t n = GENERATE(range<std::size_t>(0, 68), 128, 129, 1001);
  const std::size_t shift = GENERATE(0, 1);
  INFO("n " << n << ", shift " << shift);
  const std::vector<double> in = awkward_doubles(n);
  Guarded<double> source(n, shift);
  GuardedBuffer out(n, shift);
  source.assign(in);
  Narrow::simd<Arch>(source.data(), out.data(), n);
  std::vector<float> want(n);
  Narrow::scalar(0, in.data(), want.data(), n);
  CHECK(first_difference(out.values(), want) == n);
  CHECK(out.guards_intact());
  CHECK(source.guards_intact());
  // Round to nearest: within half a float32 ulp (2^-24 relative) in the normal range.
  std::size_t off = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double v = in[i];
    if (std::isfinite(v) && std::fabs(v) >= 0x1p-126 && std::fabs(v) < 0x1p127)
      off += !(std::fabs(out.data()[i] - v) <= 0x1p-24 * std::fabs(v));
  }
  CHECK(off == 0);
}

TEST_CASE("narrow rounds the awkward cases as float32 conversion does", "[kernels]") {
  const std::vector<double> in = {1.0 + 0x1p-24, 1.0 + 3 * 0x1p-24, 0x1p-151, -0.0, 1e39, 0x1p-140};
  std::vector<float> out(in.size());
  Narrow::simd<Arch>(in.data(), out.data(), in.size());
  CHECK(out[0] == 1.0f);
  CHECK(out[1] == 1.0f + 0x1p-22f);
  CHECK(out[2] == 0.0f);
  CHECK(std::signbit(out[3]));
  CHECK(std::isinf(out[4]));
  CHECK(out[5] == 0x1p-140f);  // subnormal kept, not flushed
}
