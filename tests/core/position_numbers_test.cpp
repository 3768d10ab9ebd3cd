// position_numbers (the naive "add the position number" encoding) against the
// reference: exact below 2^24, the nearest float32 above.
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>

#include <cstdint>
#include <vector>

#include "posenc/posenc.h"
#include "reference.h"
#include "test_support.h"

namespace {

using namespace test_support;

std::vector<float> numbers(std::uint32_t offset, std::size_t seq_len, std::size_t d_model) {
  posenc::PositionNumbersSpec spec;
  spec.seq_len = static_cast<std::uint32_t>(seq_len);
  spec.d_model = static_cast<std::uint32_t>(d_model);
  spec.offset = offset;
  GuardedBuffer out(seq_len * d_model, 1);
  REQUIRE(posenc::position_numbers(spec, out.data()) == posenc::Status::kOk);
  CHECK(out.guards_intact());
  return std::vector<float>(out.data(), out.data() + seq_len * d_model);
}

}  // namespace

TEST_CASE("position_numbers fills row p with offset + p, for any width", "[position_numbers]") {
  const std::size_t d_model = GENERATE(1, 2, 3, 7, 64, 1001);
  const std::uint32_t offset = GENERATE(0u, 1u, 999u, (1u << 24) - 70u);
  const std::size_t seq_len = 70;
  const std::vector<float> got = numbers(offset, seq_len, d_model);
  const std::vector<reference::Real> want = reference::position_numbers(offset, seq_len, d_model);
  // Exact: every value is below 2^24.
  std::vector<float> exact(want.begin(), want.end());
  INFO("d_model " << d_model << ", offset " << offset);
  CHECK(first_difference(got, exact) == got.size());
}

TEST_CASE("position_numbers above 2^24 give the nearest float32", "[position_numbers]") {
  const std::uint32_t offset = GENERATE((1u << 24) - 3u, (1u << 24) + 1u, 2147483647u - 5u);
  const std::vector<float> got = numbers(offset, 6, 3);
  const std::vector<reference::Real> want = reference::position_numbers(offset, 6, 3);
  std::vector<float> nearest(want.size());
  for (std::size_t i = 0; i < want.size(); ++i) nearest[i] = static_cast<float>(want[i]);  // one rounding
  INFO("offset " << offset);
  CHECK(first_difference(got, nearest) == got.size());
}

TEST_CASE("position_numbers with seq_len 0 is a no-op that accepts a null array", "[position_numbers]") {
  posenc::PositionNumbersSpec spec;
  spec.seq_len = 0;
  spec.d_model = 4;
  CHECK(posenc::position_numbers(spec, kNoFloats) == posenc::Status::kOk);
}
