// The dot-product kernels (kernels/dot.h): Dot and DotRow (one similarity row, a block of
// columns at a time), SIMD and scalar, against the long-double dot, for every length 0..67 and
// a few large ones, at unaligned addresses. They sum in different orders, so they agree to
// float32 summation error, not bit for bit.
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/generators/catch_generators_range.hpp>

#include <cmath>
#include <vector>

#include "kernels/dot.h"
#include "reference.h"
#include "test_support.h"

namespace {

using namespace test_support;
using Arch = xsimd::default_arch;
using posenc::kernels::Dot;
using posenc::kernels::DotRow;

constexpr std::size_t kDotLanes = xsimd::batch<float, Arch>::size;

}  // namespace

TEST_CASE("Dot: simd agrees with scalar and the exact dot, for every n", "[kernels]") {
  const std::size_t n = GENERATE(range<std::size_t>(0, 68), 127, 128, 129, 1000, 4099, 65536);
  const std::size_t shift_a = GENERATE(0, 1), shift_b = GENERATE(0, 3);
  INFO("n " << n << ", shifts " << shift_a << "/" << shift_b << ", lanes " << kDotLanes);
  const std::vector<float> a_values = random_floats(n, 11, -2.0f, 2.0f), b_values = random_floats(n, 12, -2.0f, 2.0f);
  // The guards after the end are NaN: reading them would make the result NaN.
  GuardedBuffer a(n, shift_a), b(n, shift_b);
  a.assign(a_values);
  b.assign(b_values);

  const float simd = Dot::simd<Arch>(a.data(), b.data(), n);
  const float scalar = Dot::scalar(0, a_values.data(), b_values.data(), n);
  const long double exact = reference::dot(a_values.data(), b_values.data(), n);
  // Any float32 evaluation order of sum a_i b_i is within gamma_n sum |a_i b_i| of the exact
  // value (gamma_n = n u / (1 - n u), u = 2^-24): one rounding per product and per addition.
  const long double unit = 0x1p-24L, gamma = n * unit / (1 - n * unit);
  const long double scale = reference::abs_dot(a_values.data(), b_values.data(), n);
  INFO("simd " << simd << ", scalar " << scalar << ", exact " << static_cast<double>(exact));
  CHECK(std::isfinite(simd));
  CHECK(std::fabs(simd - exact) <= gamma * scale);
  CHECK(std::fabs(scalar - exact) <= gamma * scale);
  CHECK(std::fabs(simd - static_cast<long double>(scalar)) <= 2 * gamma * scale);
  CHECK(a.guards_intact());
  CHECK(b.guards_intact());
  if (n == 0) CHECK(simd == 0.0f);
}

TEST_CASE("DotRow: simd and scalar give every column's dot product, for every dim and column count", "[kernels]") {
  const std::size_t dim = GENERATE(range<std::size_t>(0, 68), 127, 1000);
  const std::size_t cols = GENERATE(range<std::size_t>(0, 14), 33);
  const std::size_t shift = GENERATE(0, 1);
  INFO("dim " << dim << ", cols " << cols << ", shift " << shift << ", lanes " << kDotLanes);
  const std::vector<float> a_values = random_floats(dim, 13, -2.0f, 2.0f),
                           b_values = random_floats(cols * dim, 14, -2.0f, 2.0f);
  // NaN guards after a and b: reading past them would poison the sums.
  GuardedBuffer a(dim, shift), b(cols * dim, shift), out(cols, shift);
  a.assign(a_values);
  b.assign(b_values);
  DotRow::simd<Arch>(a.data(), b.data(), dim, cols, out.data());
  std::vector<float> scalar(cols);
  DotRow::scalar(0, a_values.data(), b_values.data(), dim, cols, scalar.data());

  const long double unit = 0x1p-24L, gamma = dim * unit / (1 - dim * unit);
  WorstError worst;  // error / bound, of both versions
  for (std::size_t c = 0; c < cols; ++c) {
    const float* column = b_values.data() + c * dim;
    const long double exact = reference::dot(a_values.data(), column, dim);
    const long double bound = gamma * reference::abs_dot(a_values.data(), column, dim);
    for (const float got : {out.data()[c], scalar[c]}) {
      const long double error = std::fabs(got - exact);
      worst.update(bound > 0 ? error / bound : (error == 0 ? 0 : 1e30L), c);
    }
  }
  INFO("worst column " << worst.index << ": error / bound " << static_cast<double>(worst.value));
  CHECK(worst.value <= 1);
  CHECK(out.guards_intact());
  CHECK(a.guards_intact());
  CHECK(b.guards_intact());
}

TEST_CASE("dot of a short vector with itself is exact when every step is", "[kernels]") {
  // Small integers: every product and partial sum is exact in float32, whatever the order.
  std::vector<float> v(67);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(static_cast<int>(i % 7) - 3);
  float want = 0;
  for (const float x : v) want += x * x;
  for (std::size_t n = 0; n <= v.size(); ++n) {
    float prefix = 0;
    for (std::size_t i = 0; i < n; ++i) prefix += v[i] * v[i];
    REQUIRE(Dot::simd<Arch>(v.data(), v.data(), n) == prefix);
  }
  CHECK(Dot::simd<Arch>(v.data(), v.data(), v.size()) == want);
}
