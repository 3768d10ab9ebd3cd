// The float64 steps of a row of attention scores (kernels/score_row.h): MapRow64's SIMD version
// with each op against its scalar loop, bit for bit, for every length 0..67 and a few large
// (tails of every size for SSE2's, AVX2's and SIMD128's widths), at unaligned addresses.
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/generators/catch_generators_range.hpp>

#include <vector>

#include "kernels/score_row.h"
#include "test_support.h"

namespace {

using namespace test_support;
using Arch = xsimd::default_arch;
using ScaleRow = posenc::kernels::MapRow64<posenc::kernels::Scale>;
using ScaleAddRow = posenc::kernels::MapRow64<posenc::kernels::ScaleAdd>;
using posenc::kernels::Scale;
using posenc::kernels::ScaleAdd;

}  // namespace

TEST_CASE("ScaleRow and ScaleAddRow: simd equals scalar bit for bit, for every n", "[kernels]") {
  const std::size_t n = GENERATE(range<std::size_t>(0, 68), 128, 1001);
  const std::size_t shift = GENERATE(0, 1, 3);
  const double scale = GENERATE(0.125, 0.1767766952966369, -3.0, 1e-30);
  INFO("n " << n << ", shift " << shift << ", scale " << scale);
  const std::vector<float> values = random_floats(n, 7 + static_cast<std::uint32_t>(n), -50.0f, 50.0f);
  const std::vector<double> bias = random_doubles(n + 1, 11, -1000.0, 1000.0);

  GuardedBuffer out(n, shift);
  out.assign(values);
  ScaleRow::simd<Arch>(out.data(), n, Scale{scale});
  std::vector<float> want = values;
  ScaleRow::scalar(0, want.data(), n, Scale{scale});
  CHECK(first_difference(out.values(), want) == n);
  CHECK(out.guards_intact());

  out.assign(values);
  ScaleAddRow::simd<Arch>(out.data(), n, ScaleAdd{scale, bias.data() + 1});  // bias unaligned too
  want = values;
  ScaleAddRow::scalar(0, want.data(), n, ScaleAdd{scale, bias.data() + 1});
  CHECK(first_difference(out.values(), want) == n);
  CHECK(out.guards_intact());
}

TEST_CASE("ScaleAddRow: each value is the float64 scale · x + bias rounded once", "[kernels]") {
  std::vector<float> out = random_floats(100, 3);
  const std::vector<float> x = out;
  const std::vector<double> bias = random_doubles(100, 4, -8.0, 8.0);
  ScaleAddRow::simd<Arch>(out.data(), out.size(), ScaleAdd{0.125, bias.data()});
  for (std::size_t j = 0; j < out.size(); ++j)
    CHECK(same_bits(out[j], static_cast<float>(static_cast<double>(x[j]) * 0.125 + bias[j])));
}
