// The frequency schedule: inverse_frequency (frequencies.h) and its public face
// rope_frequencies, against base^(-2i/dim) in long double, to 1e-15 relative.
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/generators/catch_generators_range.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "posenc/posenc.h"
#include "reference.h"
#include "test_support.h"

namespace {

using reference::Real;
using namespace test_support;

constexpr Real kRelativeBound = 1e-15;

// Relative error of every value of the core's rope_frequencies; guards catch writes past dim/2.
WorstError frequency_errors(std::size_t rotary_dim, double base) {
  const std::size_t half = rotary_dim / 2;
  std::vector<double> storage(half + 8, -1.0);
  REQUIRE(posenc::rope_frequencies(static_cast<std::uint32_t>(rotary_dim), base, storage.data()) ==
          posenc::Status::kOk);
  for (std::size_t i = half; i < storage.size(); ++i) REQUIRE(storage[i] == -1.0);
  WorstError worst;
  for (std::size_t i = 0; i < half; ++i) {
    const Real want = reference::inverse_frequency(i, rotary_dim, base);
    worst.update(std::fabs(storage[i] - want) / want, i);
  }
  return worst;
}

}  // namespace

TEST_CASE("rope_frequencies match base^(-2i/dim) to 1e-15 relative", "[frequencies]") {
  const double base = GENERATE(10000.0, 500000.0, 1.0, 0.5, 10.0, 1e6);
  const std::size_t rotary_dim = GENERATE(range<std::size_t>(2, 72, 2), 96, 100, 128, 258, 1000, 8192, 65536);
  const WorstError worst = frequency_errors(rotary_dim, base);
  INFO("rotary_dim " << rotary_dim << ", base " << base << ": worst pair " << worst.index << ", relative error "
                     << static_cast<double>(worst.value));
  CHECK(worst.value <= kRelativeBound);
  record_precision("rope_frequencies relative error", worst, "(bound 1e-15)");
}

TEST_CASE("the frequency schedule: pair 0 turns at 1 rad/position, later pairs slower", "[frequencies]") {
  // Low channels oscillate fastest ('Positional Embeddings Explained' gets this right, Jaitly's
  // 'Absolute Positional Embeddings' post the other way round).
  const std::uint32_t dim = 512;
  CHECK(posenc::inverse_frequency(0, dim, 10000.0) == 1.0);
  for (std::uint32_t i = 1; i < dim / 2; ++i)
    REQUIRE(posenc::inverse_frequency(i, dim, 10000.0) < posenc::inverse_frequency(i - 1, dim, 10000.0));
  // Jaitly's d = 4 example: pair 1 turns at 1/10000^(2/4) = 0.01.
  CHECK(std::fabs(posenc::inverse_frequency(1, 4, 10000.0) - 0.01) <= 0.01 * 1e-15);
  // Base 1 makes every pair turn at the same rate.
  for (std::uint32_t i = 0; i < 8; ++i) REQUIRE(posenc::inverse_frequency(i, 16, 1.0) == 1.0);
}

TEST_CASE("inverse_frequency for huge pair indices does not overflow its exponent", "[frequencies]") {
  // 2 * pair is formed in 64 bits: pair 2^31 of dim 2^32 - 1 would wrap in 32.
  const std::uint32_t pair = 1u << 31, dim = 0xffffffffu;
  const Real want = reference::inverse_frequency(pair, dim, 10000.0L);
  CHECK(std::fabs(posenc::inverse_frequency(pair, dim, 10000.0) - want) <= kRelativeBound * want);
}
