// similarity (dot and cosine matrices) against the long-double reference, with error bounds
// derived from float32 summation; zero rows, empty matrices and writes past the output.
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/generators/catch_generators_range.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "posenc/posenc.h"
#include "precision.h"
#include "reference.h"
#include "test_support.h"

namespace {

using reference::Real;
using namespace test_support;

constexpr Real kUnit = 0x1p-24L;  // float32 unit roundoff

posenc::SimilaritySpec spec_of(std::size_t rows, std::size_t cols, std::size_t dim, posenc::Metric metric) {
  posenc::SimilaritySpec spec;
  spec.rows = static_cast<std::uint32_t>(rows);
  spec.cols = static_cast<std::uint32_t>(cols);
  spec.dim = static_cast<std::uint32_t>(dim);
  spec.metric = metric;
  return spec;
}

// The core's [rows, cols] matrix, written into a guarded unaligned buffer.
std::vector<float> similarity_of(const std::vector<float>& a, const std::vector<float>& b, std::size_t rows,
                                 std::size_t cols, std::size_t dim, posenc::Metric metric) {
  GuardedBuffer out(rows * cols, 1);
  REQUIRE(posenc::similarity(spec_of(rows, cols, dim, metric), a.data(), b.data(), out.data()) == posenc::Status::kOk);
  CHECK(out.guards_intact());
  return std::vector<float>(out.data(), out.data() + rows * cols);
}

// gamma_n = n u / (1 - n u): the relative bound of a float32 sum of n rounded terms.
Real gamma(std::size_t n) { return n * kUnit / (1 - n * kUnit); }

}  // namespace

TEST_CASE("similarity (dot) matches the reference within float32 summation error", "[similarity]") {
  const std::size_t dim = GENERATE(range<std::size_t>(1, 71), 127, 128, 4096);
  // Column counts below, at and above the kernels' column blocks (the vector width).
  const std::size_t rows = 3, cols = GENERATE(1, 5, 8, 11);
  const std::vector<float> a = random_floats(rows * dim, 91, -2.0f, 2.0f),
                           b = random_floats(cols * dim, 92, -2.0f, 2.0f);
  const std::vector<float> got = similarity_of(a, b, rows, cols, dim, posenc::Metric::kDot);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) {
      const float* a_row = a.data() + r * dim;
      const float* b_row = b.data() + c * dim;
      const Real want = reference::dot(a_row, b_row, dim);
      INFO("dim " << dim << ", row " << r << ", col " << c << ": got " << got[r * cols + c] << ", want "
                  << static_cast<double>(want));
      CHECK(std::fabs(got[r * cols + c] - want) <= gamma(dim) * reference::abs_dot(a_row, b_row, dim));
    }
}

TEST_CASE("similarity (cosine) matches the reference within float32 error", "[similarity]") {
  // cosine = fl(fl(dot / |a|) / |b|): the dot is within gamma_n |a| |b| (Cauchy-Schwarz), each
  // norm within (gamma_n / 2 + u) relative, and the divisions add u each: in all within
  // (2 gamma_n + 5u) of the exact cosine, to first order.
  const std::size_t dim = GENERATE(range<std::size_t>(1, 71), 128, 4096);
  const std::size_t rows = 4, cols = GENERATE(3, 9);
  const std::vector<float> a = random_floats(rows * dim, 93, -2.0f, 2.0f),
                           b = random_floats(cols * dim, 94, -2.0f, 2.0f);
  const std::vector<float> got = similarity_of(a, b, rows, cols, dim, posenc::Metric::kCosine);
  const std::vector<Real> want = reference::similarity(a, b, rows, cols, dim, true);
  const Real bound = (2 * gamma(dim) + 5 * kUnit) * 1.01L;
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("dim " << dim << ", element " << i << ": got " << got[i] << ", want " << static_cast<double>(want[i]));
    CHECK(std::fabs(got[i] - want[i]) <= bound);
  }
}

TEST_CASE("similarity (cosine) of parallel vectors is +-1 and of all-zero rows is 0", "[similarity]") {
  const std::size_t dim = GENERATE(1, 3, 8, 67);
  const std::vector<float> v = random_floats(dim, 95);
  // a: v, 0, -v; b: 2.5 v, 0, v
  std::vector<float> a(3 * dim, 0.0f), b(3 * dim, 0.0f);
  for (std::size_t i = 0; i < dim; ++i) {
    a[i] = v[i];
    a[2 * dim + i] = -v[i];
    b[i] = 2.5f * v[i];
    b[2 * dim + i] = v[i];
  }
  const std::vector<float> cosine = similarity_of(a, b, 3, 3, dim, posenc::Metric::kCosine);
  const float bound = static_cast<float>((2 * gamma(dim) + 5 * kUnit) * 1.01L);
  const float want[9] = {1,  0, 1,  //
                         0,  0, 0,  // the zero row and column give 0, not NaN
                         -1, 0, -1};
  for (int i = 0; i < 9; ++i) {
    INFO("element " << i << ": got " << cosine[i]);
    CHECK(std::fabs(cosine[i] - want[i]) <= bound);
    if (want[i] == 0) CHECK(cosine[i] == 0.0f);
  }
  const std::vector<float> dot = similarity_of(a, b, 3, 3, dim, posenc::Metric::kDot);
  for (const int zero : {1, 3, 4, 5, 7}) CHECK(dot[zero] == 0.0f);
}

TEST_CASE("similarity with rows or cols 0 writes nothing and accepts null arrays", "[similarity]") {
  const posenc::Metric metric = GENERATE(posenc::Metric::kDot, posenc::Metric::kCosine);
  std::vector<float> out = sentinel_filled(8);
  const std::vector<float> a(16, 1.0f);
  CHECK(posenc::similarity(spec_of(0, 4, 4, metric), a.data(), a.data(), out.data()) == posenc::Status::kOk);
  CHECK(posenc::similarity(spec_of(4, 0, 4, metric), a.data(), a.data(), out.data()) == posenc::Status::kOk);
  CHECK(overwritten(out) == 0);
  CHECK(posenc::similarity(spec_of(0, 0, 4, metric), nullptr, nullptr, nullptr) == posenc::Status::kOk);
  CHECK(posenc::similarity(spec_of(3, 0, 4, metric), a.data(), nullptr, nullptr) == posenc::Status::kOk);
}

TEST_CASE("similarity of the sinusoidal table with itself: PE(m).PE(n) depends on m - n", "[similarity]") {
  // The tutorial's heatmap: for the sinusoidal table, PE(m).PE(n) = sum_i cos(w_i (m - n)).
  const std::size_t d_model = 64, seq_len = 41;
  posenc::SinusoidalSpec spec;
  spec.seq_len = seq_len;
  spec.d_model = d_model;
  std::vector<float> table(seq_len * d_model);
  REQUIRE(posenc::sinusoidal_table(spec, from_offset(0), table.data()) == posenc::Status::kOk);
  const std::vector<float> scores = similarity_of(table, table, seq_len, seq_len, d_model, posenc::Metric::kDot);
  const std::vector<Real> inv = reference::inverse_frequencies(d_model, 10000.0L);
  WorstError worst;
  for (std::size_t m = 0; m < seq_len; ++m)
    for (std::size_t n = 0; n < seq_len; ++n) {
      Real want = 0;
      for (const Real w : inv) want += std::cos((static_cast<Real>(m) - static_cast<Real>(n)) * w);
      worst.update(std::fabs(scores[m * seq_len + n] - want), m * seq_len + n);
    }
  // Table values are within kTableBound each and at most 1 in size: 2 kTableBound per product, plus
  // the float32 summation of d_model terms of size <= 1.
  INFO("worst score " << worst.index << ": error " << static_cast<double>(worst.value));
  CHECK(worst.value <= d_model * (2 * kTableBound + 1.01 * gamma(d_model)));
}

TEST_CASE("similarity (cosine) is scale-invariant where float32 can hold the rows", "[similarity]") {
  // Float32 sums of squares would overflow for |v| >~ 1.8e19 (NaN) and vanish for |v| <~ 1e-23
  // (0), although the rows are finite, non-zero and parallel (cosine 1): the core takes norms,
  // and dot products outside the safe range, in float64.
  const float scale = GENERATE(1e-25f, 1e-20f, 1.0f, 1e18f, 1e20f, 1e30f);
  const std::vector<float> a = {1 * scale, 2 * scale, 3 * scale}, b = {2 * scale, 4 * scale, 6 * scale};
  const std::vector<float> cosine = similarity_of(a, b, 1, 1, 3, posenc::Metric::kCosine);
  INFO("scale " << scale << ": cosine " << cosine[0]);
  CHECK(std::fabs(cosine[0] - 1.0f) <= 1e-6f);
}
