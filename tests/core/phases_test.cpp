// PhaseBlock (float64 rotation recurrence re-anchored every kAnchorInterval rows and at every
// jump, rounded once to float32): advance_to (per row) and write_rows (whole tables), and
// for_each_pair_block, against std::sin/std::cos in long double.
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

#include "phases.h"
#include "reference.h"
#include "test_support.h"

namespace {

using posenc::PhaseBlock;
using reference::Real;
using namespace test_support;

// Expected error of one float32 value of PhaseBlock: its float32 rounding (2^-24 relative),
// the float64 angle's error (inv_freq, the product and sin/cos: a few float64 roundings of
// the angle, 4 * 2^-53 * |angle|), and the recurrence's float64 drift: a few ulps of 1 per
// step, including the step rotation's own rounding, 1e-15 per step over at most
// kAnchorInterval steps.
Real tolerance(Real value, Real angle) {
  return 0x1p-24L * std::fabs(value) + 4 * 0x1p-53L * std::fabs(angle) + 1e-15L * PhaseBlock::kAnchorInterval;
}

// Running comparison of float32 (cos, sin) values with the reference.
struct PhaseErrors {
  WorstError relative;  // error / tolerance
  WorstError absolute;

  void compare(float cos, float sin, std::int64_t position, std::uint32_t pair, std::uint32_t dim, double base,
               std::size_t at) {
    const Real theta = reference::angle(position, pair, dim, base);
    const Real c = std::cos(theta), s = std::sin(theta);
    relative.update(std::fabs(cos - c) / tolerance(c, theta), at);
    relative.update(std::fabs(sin - s) / tolerance(s, theta), at);
    absolute.update(std::fabs(cos - c), at);
    absolute.update(std::fabs(sin - s), at);
  }
};

// Walks a block through `positions` with advance_to, comparing every value.
PhaseErrors walk(std::uint32_t first_pair, std::uint32_t count, std::uint32_t dim, double base,
                 const std::vector<std::int64_t>& positions) {
  PhaseBlock block(first_pair, count, dim, base);
  REQUIRE(block.size() == count);
  PhaseErrors errors;
  for (std::size_t row = 0; row < positions.size(); ++row) {
    block.advance_to(positions[row]);
    for (std::uint32_t i = 0; i < count; ++i)
      errors.compare(block.cos()[i], block.sin()[i], positions[row], first_pair + i, dim, base, row * count + i);
  }
  return errors;
}

void check_errors(const PhaseErrors& errors, std::uint32_t first_pair, std::uint32_t count, std::uint32_t dim,
                  double base, const std::vector<std::int64_t>& positions) {
  const std::size_t worst = errors.relative.index;
  INFO("pairs [" << first_pair << ", " << first_pair + count << ") of dim " << dim << ", base " << base
                 << ": worst at row " << worst / count << " (position " << positions[worst / count] << ") pair "
                 << first_pair + worst % count << ", error / tolerance " << static_cast<double>(errors.relative.value));
  CHECK(errors.relative.value <= 1);
  record_precision("PhaseBlock |value - exact| (positions < 2^24)", errors.absolute, "(float32 rounding ~3e-8)");
}

void check_walk(std::uint32_t first_pair, std::uint32_t count, std::uint32_t dim, double base,
                const std::vector<std::int64_t>& positions) {
  check_errors(walk(first_pair, count, dim, base, positions), first_pair, count, dim, base, positions);
}

std::vector<std::int64_t> concat(std::initializer_list<std::vector<std::int64_t>> parts) {
  std::vector<std::int64_t> all;
  for (const auto& part : parts) all.insert(all.end(), part.begin(), part.end());
  return all;
}

std::vector<std::int64_t> run_ending_at(std::int64_t last, std::size_t count) {
  return reference::consecutive(last + 1 - static_cast<std::int64_t>(count), count);
}

// A jump-and-run mix: repeats, backward steps, jumps, runs across the re-anchoring.
std::vector<std::int64_t> mixed_positions() {
  return concat({
      {5, 5, 6, 4, 3, 100000, 99999, 100001, 0, 0, 1},  // repeats, steps back, jumps
      reference::consecutive(10, kRunAcrossAnchor),     // a run with its re-anchor inside
      {1040, 1040, 1039},                               // back right after the run
      reference::consecutive(70000, 2 * kRunAcrossAnchor),
      {(1 << 24) - 1, 12, (1 << 24) - 2, (1 << 24) - 1},
  });
}

}  // namespace

TEST_CASE("for_each_pair_block covers the pairs in blocks of kCapacity", "[phases]") {
  const std::uint32_t pairs = GENERATE(0u, 1u, 5u, 127u, 128u, 129u, 256u, 4096u, 4097u, 32768u);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> blocks;
  posenc::for_each_pair_block(pairs,
                              [&](std::uint32_t first, std::uint32_t count) { blocks.emplace_back(first, count); });
  const std::uint32_t capacity = PhaseBlock::kCapacity;
  REQUIRE(blocks.size() == (pairs + capacity - 1) / capacity);
  std::uint32_t next = 0;
  for (const auto& [first, count] : blocks) {
    CHECK(first == next);
    CHECK(count >= 1);
    CHECK(count <= capacity);
    if (first + capacity < pairs) CHECK(count == capacity);  // only the last block is short
    next = first + count;
  }
  CHECK(next == pairs);
}

TEST_CASE("PhaseBlock::advance_to over consecutive runs across the re-anchoring", "[phases]") {
  const std::int64_t start = GENERATE(std::int64_t{0}, std::int64_t{1}, std::int64_t{1000003},
                                      (std::int64_t{1} << 24) - 2 * static_cast<std::int64_t>(kRunAcrossAnchor));
  const std::uint32_t dim = GENERATE(2u, 14u, 256u);
  check_walk(0, std::min<std::uint32_t>(dim / 2, PhaseBlock::kCapacity), dim, 10000.0,
             reference::consecutive(start, 2 * kRunAcrossAnchor));
}

TEST_CASE("PhaseBlock::advance_to after jumps, backward moves and repeats", "[phases]") {
  const std::vector<std::int64_t> positions = mixed_positions();
  check_walk(0, 64, 128, 10000.0, positions);
  check_walk(3, 5, 16, 500000.0, positions);
}

TEST_CASE("PhaseBlock blocks not starting at pair 0: dim 8192 split into blocks of 128", "[phases]") {
  const std::uint32_t dim = 8192;
  const std::vector<std::int64_t> positions = concat({
      {0, 1, 2047, 32767, (1 << 20) - 1},
      run_ending_at((1 << 24) - 1, 70),
  });
  std::size_t blocks = 0;
  posenc::for_each_pair_block(dim / 2, [&](std::uint32_t first, std::uint32_t count) {
    REQUIRE(count == PhaseBlock::kCapacity);
    check_walk(first, count, dim, 10000.0, positions);
    ++blocks;
  });
  CHECK(blocks == 32);
}

TEST_CASE("PhaseBlock up to the largest position keeps the float64 angle's accuracy", "[phases]") {
  const std::int64_t last = 2147483647;
  const std::vector<std::int64_t> positions = concat({run_ending_at(last, 131), {1LL << 30, (1LL << 24) + 7, last}});
  const PhaseErrors errors = walk(0, 64, 128, 10000.0, positions);
  INFO("worst error / tolerance " << static_cast<double>(errors.relative.value) << " at row "
                                  << errors.relative.index / 64);
  CHECK(errors.relative.value <= 1);
}

TEST_CASE("PhaseBlock with other bases and partial blocks", "[phases]") {
  const double base = GENERATE(1.0, 0.5, 1e6);
  const std::uint32_t first = GENERATE(0u, 7u, 120u);
  check_walk(first, 8, 256, base, concat({reference::consecutive(60, 140), {3, 2, 1, 0}}));
}

TEST_CASE("PhaseBlock::write_rows writes (or adds) exactly its pairs' slots of a table", "[phases]") {
  // A block of pairs [first, first + count) of a dim-wide schedule, written into a wider table
  // whose other slots hold sentinels (write) or known values (add): the layouts the core uses
  // (interleaved sin/cos, [sin | cos] halves) plus a stride with spare columns.
  const bool interleaved = GENERATE(true, false);
  const bool accumulate = GENERATE(false, true);
  const std::uint32_t count = GENERATE(1u, 3u, 8u, 13u, 128u);
  const std::uint32_t first = 5, dim = 2 * (first + count) + 6;
  const std::vector<std::int64_t> positions = concat({mixed_positions(), {9, 10, 11, 12, 13}});
  const std::size_t seq_len = positions.size();
  const std::size_t row_stride = 2 * count + 3;
  const std::vector<std::int32_t> list = to_int32(positions);

  const std::size_t size = 1 + seq_len * row_stride + 8;  // one float before, eight after the rows
  std::vector<float> table = accumulate ? random_floats(size, 3) : sentinel_filled(size);
  const std::vector<float> before = table;
  float* start = table.data() + 1;  // unaligned
  const posenc::kernels::RowsOut out = interleaved ? posenc::kernels::RowsOut{start, start + 1, row_stride, true}
                                                   : posenc::kernels::RowsOut{start, start + count, row_stride, false};
  PhaseBlock block(first, count, dim, 10000.0);
  if (accumulate)
    block.write_rows<true>(listed(list), seq_len, out);
  else
    block.write_rows<false>(listed(list), seq_len, out);

  PhaseErrors errors;
  std::size_t stray = 0;  // slots outside the block's that changed
  for (std::size_t row = 0; row < seq_len; ++row) {
    std::vector<bool> owned(row_stride, false);
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::size_t sin_at = interleaved ? 2 * i : i, cos_at = interleaved ? 2 * i + 1 : count + i;
      owned[sin_at] = owned[cos_at] = true;
      const std::size_t at = 1 + row * row_stride;
      if (!accumulate) {
        errors.compare(table[at + cos_at], table[at + sin_at], positions[row], first + i, dim, 10000.0,
                       row * count + i);
        continue;
      }
      // Added: the value's own tolerance plus the rounding of the float32 sum.
      const Real theta = reference::angle(positions[row], first + i, dim, 10000.0L);
      const Real sin_sum = before[at + sin_at] + std::sin(theta), cos_sum = before[at + cos_at] + std::cos(theta);
      errors.relative.update(
          std::fabs(table[at + sin_at] - sin_sum) / (tolerance(std::sin(theta), theta) + 0x1p-24L * std::fabs(sin_sum)),
          row * count + i);
      errors.relative.update(
          std::fabs(table[at + cos_at] - cos_sum) / (tolerance(std::cos(theta), theta) + 0x1p-24L * std::fabs(cos_sum)),
          row * count + i);
    }
    for (std::size_t ch = 0; ch < row_stride; ++ch)
      if (!owned[ch]) stray += !same_bits(table[1 + row * row_stride + ch], before[1 + row * row_stride + ch]);
  }
  stray += !same_bits(table[0], before[0]);
  for (std::size_t i = 1 + seq_len * row_stride; i < size; ++i) stray += !same_bits(table[i], before[i]);
  INFO((interleaved ? "interleaved" : "halves")
       << (accumulate ? ", add" : ", write") << ", count " << count << ": worst error / tolerance "
       << static_cast<double>(errors.relative.value) << " at row " << errors.relative.index / count);
  CHECK(errors.relative.value <= 1);
  CHECK(stray == 0);
}

TEST_CASE("PhaseBlock::advance_to after write_rows starts afresh", "[phases]") {
  // write_rows leaves the recurrence state at the end of its last run: a following
  // advance_to must not step from it as if it still held cos()/sin()'s position.
  PhaseBlock block(0, 16, 32, 10000.0);
  block.advance_to(99);
  std::vector<float> table(10 * 32);
  block.write_rows<false>(test_support::from_offset(500), 10, {table.data(), table.data() + 1, 32, true});
  const std::vector<std::int64_t> after = {100, 101, 510, 511};
  PhaseErrors errors;
  for (std::size_t row = 0; row < after.size(); ++row) {
    block.advance_to(after[row]);
    for (std::uint32_t i = 0; i < 16; ++i)
      errors.compare(block.cos()[i], block.sin()[i], after[row], i, 32, 10000.0, row * 16 + i);
  }
  INFO("worst error / tolerance " << static_cast<double>(errors.relative.value) << " at row "
                                  << errors.relative.index / 16);
  CHECK(errors.relative.value <= 1);
}
