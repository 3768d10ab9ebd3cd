// sinusoidal_table / add_sinusoidal against the long-double reference: both layouts, offsets,
// explicit positions, Jaitly's worked example, every small d_model, and the precision
// contract (|value - float64| <= kTableBound for positions < 2^24 and d_model <= 8192).
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/generators/catch_generators_range.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "posenc/posenc.h"
#include "precision.h"
#include "reference.h"
#include "test_support.h"

namespace {

using reference::TableLayout;
using namespace test_support;

constexpr std::int64_t kTableContractPositions = std::int64_t{1} << 24;

posenc::SinusoidalLayout core_layout(TableLayout layout) {
  return layout == TableLayout::kInterleaved ? posenc::SinusoidalLayout::kInterleaved
                                             : posenc::SinusoidalLayout::kConcat;
}

posenc::SinusoidalSpec spec_of(std::size_t seq_len, std::size_t d_model, TableLayout layout, double base = 10000.0) {
  posenc::SinusoidalSpec spec;
  spec.seq_len = static_cast<std::uint32_t>(seq_len);
  spec.d_model = static_cast<std::uint32_t>(d_model);
  spec.base = base;
  spec.layout = core_layout(layout);
  return spec;
}

// The core's table for explicit positions (passed as an int32 list).
std::vector<float> table_at(const std::vector<std::int64_t>& positions, std::size_t d_model, TableLayout layout,
                            double base = 10000.0) {
  const std::vector<std::int32_t> list = to_int32(positions);
  std::vector<float> out = sentinel_filled(positions.size() * d_model);
  REQUIRE(posenc::sinusoidal_table(spec_of(positions.size(), d_model, layout, base), listed(list), out.data()) ==
          posenc::Status::kOk);
  return out;
}

// The core's table for offset, offset + 1, ...
std::vector<float> table_from(std::uint32_t offset, std::size_t seq_len, std::size_t d_model, TableLayout layout,
                              double base = 10000.0) {
  std::vector<float> out = sentinel_filled(seq_len * d_model);
  REQUIRE(posenc::sinusoidal_table(spec_of(seq_len, d_model, layout, base), from_offset(offset), out.data()) ==
          posenc::Status::kOk);
  return out;
}

// Checks a core table against the reference phases within the contract bound and records the
// error. (Callers checking both layouts compute the reference phases once.)
void check_contract(const std::vector<float>& table, const reference::Phases& phases,
                    const std::vector<std::int64_t>& positions, std::size_t d_model, TableLayout layout,
                    double base = 10000.0) {
  const std::vector<reference::Real> want = reference::sinusoidal(phases, d_model, layout);
  REQUIRE(table.size() == want.size());
  const WorstError worst = worst_abs_error(table, want);
  INFO("d_model " << d_model << ", layout " << (layout == TableLayout::kInterleaved ? "interleaved" : "concat")
                  << ", base " << base << ", worst at row " << worst.index / d_model << " (position "
                  << positions[worst.index / d_model] << ") channel " << worst.index % d_model << ": error "
                  << static_cast<double>(worst.value));
  CHECK(worst.value <= kTableBound);
  record_precision("sinusoidal |value - float64|", worst, "(bound: kTableBound)");
}

void check_contract(const std::vector<float>& table, const std::vector<std::int64_t>& positions, std::size_t d_model,
                    TableLayout layout, double base = 10000.0) {
  check_contract(table, reference::phases(positions, d_model, base), positions, d_model, layout, base);
}

const auto kBothLayouts = {TableLayout::kInterleaved, TableLayout::kConcat};

}  // namespace

TEST_CASE("sinusoidal_table reproduces Jaitly's worked example (d = 4)", "[sinusoidal]") {
  // "The" at position 0, "cat" at position 1; pair 1 turns at 1/10000^(2/4) = 0.01.
  const std::vector<float> table = table_from(0, 2, 4, TableLayout::kInterleaved);
  // Position 0 is exact: sin 0 = 0, cos 0 = 1.
  CHECK(table[0] == 0.0f);
  CHECK(table[1] == 1.0f);
  CHECK(table[2] == 0.0f);
  CHECK(table[3] == 1.0f);
  // Position 1: [sin 1, cos 1, sin 0.01, cos 0.01] to float32 rounding (2^-24 relative).
  const double want[4] = {0.8414709848078965, 0.5403023058681398, 0.009999833334166664, 0.9999500004166653};
  for (int ch = 0; ch < 4; ++ch) {
    INFO("channel " << ch << ": got " << table[4 + ch] << ", want " << want[ch]);
    CHECK(std::fabs(table[4 + ch] - want[ch]) <= 0x1p-24 * std::fabs(want[ch]));
  }
}

TEST_CASE("add_sinusoidal reproduces Jaitly's 'The' and 'cat' sums, untruncated", "[sinusoidal]") {
  std::vector<float> x = {0.5f, 0.1f, 0.8f, 0.3f,   // "The", position 0
                          0.2f, 0.9f, 0.4f, 0.6f};  // "cat", position 1
  REQUIRE(posenc::add_sinusoidal(spec_of(2, 4, TableLayout::kInterleaved), from_offset(0), x.data()) ==
          posenc::Status::kOk);
  // Jaitly's post prints 0.999 and 1.599 for cos(0.01) and 0.6 + cos(0.01); the exact values are
  // 0.99995 and 1.59995. fl(fl(x) + fl(pe)) is within 2 roundings (2 * 2^-24 relative) of x + pe.
  const double want[8] = {
      0.5, 1.1, 0.8, 1.3, 1.0414709848078965, 1.4403023058681398, 0.4099998333341667, 1.5999500004166653};
  for (int i = 0; i < 8; ++i) {
    INFO("element " << i << ": got " << x[i] << ", want " << want[i]);
    CHECK(std::fabs(x[i] - want[i]) <= 0x1p-23 * std::fabs(want[i]));
  }
  CHECK(std::fabs(x[7] - 1.599) > 1e-5);  // not the post's truncated value
}

TEST_CASE("sinusoidal_table matches the reference for every even d_model from 2 to 70 and large ones", "[sinusoidal]") {
  const std::size_t d_model = GENERATE(range<std::size_t>(2, 72, 2), 126, 128, 130, 254, 256, 258, 510, 1000, 4098);
  // Small widths: a run across the re-anchoring; large ones (many pair blocks): 70 rows.
  const std::size_t seq_len = d_model <= 70 ? kRunAcrossAnchor : 70;
  const std::vector<std::int64_t> positions = reference::consecutive(0, seq_len);
  const reference::Phases phases = reference::phases(positions, d_model, 10000.0L);
  for (const TableLayout layout : kBothLayouts)
    check_contract(table_from(0, positions.size(), d_model, layout), phases, positions, d_model, layout);
}

TEST_CASE("sinusoidal precision contract: |value - float64| <= kTableBound below position 2^24, d_model <= 8192",
          "[sinusoidal][precision]") {
  const std::vector<std::int64_t> samples = {
      0, 1, 2, 63, 64, 65, 1023, 1024, 1025, 2047, 32767, (1 << 20) - 1, kTableContractPositions - 1};
  // Consecutive runs: across the re-anchoring up to the last contract position, and shorter
  // ones around 2^20 and 2^15.
  const std::vector<std::int64_t> runs[] = {
      reference::consecutive(kTableContractPositions - static_cast<std::int64_t>(kRunAcrossAnchor), kRunAcrossAnchor),
      reference::consecutive((1 << 20) - 100, 200), reference::consecutive(32700, 200)};
  for (const std::size_t d_model : {2, 4, 6, 128, 512, 1024, 8192}) {
    const reference::Phases sample_phases = reference::phases(samples, d_model, 10000.0L);
    for (const TableLayout layout : kBothLayouts)
      check_contract(table_at(samples, d_model, layout), sample_phases, samples, d_model, layout);
    for (const std::vector<std::int64_t>& run : runs) {
      const reference::Phases run_phases = reference::phases(run, d_model, 10000.0L);
      for (const TableLayout layout : kBothLayouts)
        check_contract(table_from(static_cast<std::uint32_t>(run.front()), run.size(), d_model, layout), run_phases,
                       run, d_model, layout);
    }
  }
}

TEST_CASE("sinusoidal_table: an offset shifts the positions of every row", "[sinusoidal]") {
  const std::uint32_t offset = GENERATE(1u, 63u, 64u, 1000u, (1u << 24) - 130u);
  const TableLayout layout = GENERATE(TableLayout::kInterleaved, TableLayout::kConcat);
  const std::size_t d_model = 36;
  const std::vector<std::int64_t> positions = reference::consecutive(offset, 130);
  const std::vector<float> from_offset_table = table_from(offset, positions.size(), d_model, layout);
  check_contract(from_offset_table, positions, d_model, layout);
  // The same rows given as an explicit list are the same table.
  CHECK(first_difference(table_at(positions, d_model, layout), from_offset_table) == from_offset_table.size());
}

TEST_CASE("sinusoidal_table with explicit positions: jumps, repeats, descending", "[sinusoidal]") {
  const TableLayout layout = GENERATE(TableLayout::kInterleaved, TableLayout::kConcat);
  const std::size_t d_model = GENERATE(2, 10, 64, 300);
  std::vector<std::int64_t> positions = {5, 6, 7, 1000, 1001, 3, 0, 0, 0, 42, 42, 43, 44, 2047, 2046, 2045};
  for (std::int64_t p = 150; p >= 0; --p) positions.push_back(p);  // descending
  for (std::int64_t p = 70000; p < 70000 + static_cast<std::int64_t>(kRunAcrossAnchor); ++p)
    positions.push_back(p);  // a run across the re-anchoring, after a jump
  positions.push_back(kTableContractPositions - 1);
  positions.push_back(12);
  const std::vector<float> table = table_at(positions, d_model, layout);
  check_contract(table, positions, d_model, layout);
  // A repeated position gives bit-identical rows.
  for (std::size_t row = 1; row < positions.size(); ++row)
    if (positions[row] == positions[row - 1]) {
      INFO("row " << row);
      CHECK(first_difference(&table[row * d_model], &table[(row - 1) * d_model], d_model) == d_model);
    }
}

TEST_CASE("sinusoidal_table with other bases", "[sinusoidal]") {
  const double base = GENERATE(1.0, 0.5, 2.0, 500000.0, 1e6, 1e12);
  const TableLayout layout = GENERATE(TableLayout::kInterleaved, TableLayout::kConcat);
  const std::vector<std::int64_t> positions = reference::consecutive(0, 100);
  check_contract(table_from(0, positions.size(), 64, layout, base), positions, 64, layout, base);
}

TEST_CASE("sinusoidal layouts are permutations of each other", "[sinusoidal]") {
  const std::size_t d_model = GENERATE(2, 6, 258);
  const std::vector<float> interleaved = table_from(10, 70, d_model, TableLayout::kInterleaved);
  const std::vector<float> concat = table_from(10, 70, d_model, TableLayout::kConcat);
  const std::size_t half = d_model / 2;
  std::vector<float> regrouped(interleaved.size());  // interleaved rows rearranged as [sin | cos]
  for (std::size_t row = 0; row < 70; ++row)
    for (std::size_t i = 0; i < half; ++i) {
      regrouped[row * d_model + i] = interleaved[row * d_model + 2 * i];
      regrouped[row * d_model + half + i] = interleaved[row * d_model + 2 * i + 1];
    }
  CHECK(first_difference(regrouped, concat) == concat.size());
}

TEST_CASE("sinusoidal_table beyond 2^24: positions up to 2^31 - 1 stay within float64 angle error", "[sinusoidal]") {
  // No contract here, but the float64 angle keeps the error at about 4 * 2^-53 * position.
  const std::int64_t last = posenc::kMaxPosition;
  const std::vector<std::int64_t> positions = {last, last - 1, 1LL << 30, (1LL << 24) + 1, 123456789};
  const std::size_t d_model = 128;
  for (const TableLayout layout : kBothLayouts) {
    const std::vector<float> table = table_at(positions, d_model, layout);
    const std::vector<reference::Real> want = reference::sinusoidal(positions, d_model, 10000.0L, layout);
    WorstError worst;  // error / bound
    for (std::size_t i = 0; i < table.size(); ++i) {
      const double position = static_cast<double>(positions[i / d_model]);
      worst.update(std::fabs(table[i] - want[i]) / (kTableBound + 4 * 0x1p-53 * position), i);
    }
    INFO("worst element " << worst.index << ", error / bound " << static_cast<double>(worst.value));
    CHECK(worst.value <= 1);
  }
  // The last position is also reachable through an offset.
  const std::vector<float> last_row =
      table_from(static_cast<std::uint32_t>(last), 1, d_model, TableLayout::kInterleaved);
  CHECK(overwritten(last_row) == last_row.size());
}

TEST_CASE("add_sinusoidal adds the table to the embeddings in place", "[sinusoidal]") {
  const TableLayout layout = GENERATE(TableLayout::kInterleaved, TableLayout::kConcat);
  const std::size_t d_model = GENERATE(2, 12, 66, 512);
  const std::uint32_t offset = GENERATE(0u, 5000u);
  const std::size_t seq_len = 80;
  const std::vector<float> embeddings = random_floats(seq_len * d_model, 7, -3.0f, 3.0f);
  std::vector<float> x = embeddings;
  REQUIRE(posenc::add_sinusoidal(spec_of(seq_len, d_model, layout), from_offset(offset), x.data()) ==
          posenc::Status::kOk);
  const std::vector<reference::Real> table =
      reference::sinusoidal(reference::consecutive(offset, seq_len), d_model, 10000.0L, layout);
  WorstError worst;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const reference::Real want = embeddings[i] + table[i];
    // table error (contract) plus the rounding of the float32 sum
    const reference::Real bound = kTableBound + 0x1p-24 * std::fabs(want);
    worst.update(std::fabs(x[i] - want) / bound, i);
  }
  INFO("worst element " << worst.index << ", error / bound " << static_cast<double>(worst.value));
  CHECK(worst.value <= 1);
}

TEST_CASE("sinusoidal with seq_len 0 writes nothing and accepts null arrays", "[sinusoidal]") {
  std::vector<float> out = sentinel_filled(8);
  CHECK(posenc::sinusoidal_table(spec_of(0, 4, TableLayout::kInterleaved), from_offset(0), out.data()) ==
        posenc::Status::kOk);
  CHECK(posenc::add_sinusoidal(spec_of(0, 4, TableLayout::kConcat), from_offset(9), out.data()) == posenc::Status::kOk);
  CHECK(overwritten(out) == 0);
  CHECK(posenc::sinusoidal_table(spec_of(0, 4, TableLayout::kInterleaved), from_offset(0), kNoFloats) ==
        posenc::Status::kOk);
}

TEST_CASE("every base is either rejected or gives finite values everywhere", "[sinusoidal]") {
  // For tiny bases the float64 inverse frequency base^(-2i/d) overflows (subnormal bases), or
  // position * inv_freq does (base 1e-300 with d_model 8192 at the largest positions), and
  // sin/cos of inf are NaN: check() must refuse those bases with kBaseInvalid.
  const double base = GENERATE(std::numeric_limits<double>::denorm_min(), 1e-310, 1e-300, 1e-30, 0.5, 1.0, 1e300);
  const std::size_t d_model = 8192;
  const std::vector<std::int64_t> positions = {0, 1, posenc::kMaxPosition};
  posenc::SinusoidalSpec spec = spec_of(positions.size(), d_model, TableLayout::kInterleaved, base);
  const std::vector<std::int32_t> list = to_int32(positions);
  const posenc::Status status = posenc::check(spec, listed(list));
  INFO("base " << base << ": status " << posenc::status_name(status));
  if (base < 1e-290) {
    CHECK(status == posenc::Status::kBaseInvalid);
    return;
  }
  REQUIRE(status == posenc::Status::kOk);
  std::vector<float> table(positions.size() * d_model);
  REQUIRE(posenc::sinusoidal_table(spec, listed(list), table.data()) == posenc::Status::kOk);
  std::size_t not_finite = 0;
  for (const float v : table) not_finite += !std::isfinite(v);
  INFO(not_finite << " of " << table.size() << " values are not finite");
  CHECK(not_finite == 0);
}
