// rope_cache (the [seq_len, rotary_dim/2] cos and sin tables) against the long-double
// reference, under the same precision contract as the sinusoidal table.
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/generators/catch_generators_range.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "posenc/posenc.h"
#include "precision.h"
#include "reference.h"
#include "test_support.h"

namespace {

using namespace test_support;

struct CoreCache {
  std::vector<float> cos, sin;
};

CoreCache core_cache(std::size_t seq_len, std::size_t rotary_dim, const posenc::Positions& positions,
                     double base = 10000.0) {
  posenc::RopeCacheSpec spec;
  spec.seq_len = static_cast<std::uint32_t>(seq_len);
  spec.rotary_dim = static_cast<std::uint32_t>(rotary_dim);
  spec.base = base;
  // Guards after each table catch writes past seq_len * rotary_dim / 2.
  const std::size_t n = seq_len * (rotary_dim / 2);
  GuardedBuffer cos(n, 1), sin(n, 3);
  REQUIRE(posenc::rope_cache(spec, positions, cos.data(), sin.data()) == posenc::Status::kOk);
  CHECK(cos.guards_intact());
  CHECK(sin.guards_intact());
  return {std::vector<float>(cos.data(), cos.data() + n), std::vector<float>(sin.data(), sin.data() + n)};
}

void check_cache(const CoreCache& got, const std::vector<std::int64_t>& positions, std::size_t rotary_dim,
                 double base = 10000.0) {
  const reference::Phases want = reference::phases(positions, rotary_dim, base);
  REQUIRE(got.cos.size() == want.cos.size());
  REQUIRE(got.sin.size() == want.sin.size());
  const WorstError cos_error = worst_abs_error(got.cos, want.cos);
  const WorstError sin_error = worst_abs_error(got.sin, want.sin);
  const std::size_t half = rotary_dim / 2;
  INFO("rotary_dim " << rotary_dim << ", base " << base << ": worst cos error " << static_cast<double>(cos_error.value)
                     << " at position " << positions[cos_error.index / half] << " pair " << cos_error.index % half
                     << ", worst sin error " << static_cast<double>(sin_error.value) << " at position "
                     << positions[sin_error.index / half] << " pair " << sin_error.index % half);
  CHECK(cos_error.value <= kTableBound);
  CHECK(sin_error.value <= kTableBound);
  record_precision("rope_cache |value - float64|", cos_error, "(bound: kTableBound)");
  record_precision("rope_cache |value - float64|", sin_error, "(bound: kTableBound)");
}

}  // namespace

TEST_CASE("rope_cache matches the reference for every rotary_dim from 2 to 70 and large ones", "[rope_cache]") {
  const std::size_t rotary_dim = GENERATE(range<std::size_t>(2, 72, 2), 254, 256, 258, 1000, 8192);
  const std::uint32_t offset = GENERATE(0u, 1000u, (1u << 24) - 140u);
  // Small widths: a run across the re-anchoring; large ones: 140 rows.
  const std::size_t seq_len = rotary_dim <= 70 ? kRunAcrossAnchor : 140;
  const std::vector<std::int64_t> positions =
      reference::consecutive(std::min<std::int64_t>(offset, (1 << 24) - seq_len), seq_len);
  const std::uint32_t first = static_cast<std::uint32_t>(positions.front());
  check_cache(core_cache(positions.size(), rotary_dim, from_offset(first)), positions, rotary_dim);
}

TEST_CASE("rope_cache with explicit positions: samples, jumps, repeats, descending", "[rope_cache][precision]") {
  const std::size_t rotary_dim = GENERATE(2, 6, 128, 8192);
  std::vector<std::int64_t> positions = {
      0, 1, 2, 63, 64, 65, 1023, 1024, 1025, 2047, 32767, (1 << 20) - 1, (1 << 24) - 1, 7, 7, 7, 6, 5, 500, 3};
  for (std::int64_t p = (1 << 24) - static_cast<std::int64_t>(kRunAcrossAnchor); p < (1 << 24); ++p)
    positions.push_back(p);
  for (std::int64_t p = 200; p >= 100; --p) positions.push_back(p);
  const std::vector<std::int32_t> list = to_int32(positions);
  check_cache(core_cache(positions.size(), rotary_dim, listed(list)), positions, rotary_dim);
}

TEST_CASE("rope_cache with other bases", "[rope_cache]") {
  const double base = GENERATE(1.0, 0.5, 500000.0, 1e12);
  const std::vector<std::int64_t> positions = reference::consecutive(20, 100);
  check_cache(core_cache(positions.size(), 40, from_offset(20), base), positions, 40, base);
}

TEST_CASE("rope_cache with seq_len 0 writes nothing and accepts null arrays", "[rope_cache]") {
  posenc::RopeCacheSpec spec;
  spec.seq_len = 0;
  spec.rotary_dim = 8;
  CHECK(posenc::rope_cache(spec, from_offset(0), kNoFloats, kNoFloats) == posenc::Status::kOk);
  std::vector<float> cos = sentinel_filled(4), sin = sentinel_filled(4);
  CHECK(posenc::rope_cache(spec, from_offset(0), cos.data(), sin.data()) == posenc::Status::kOk);
  CHECK(overwritten(cos) + overwritten(sin) == 0);
}
