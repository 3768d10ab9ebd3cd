// libFuzzer target: the sinusoidal tables (sinusoidal_table, add_sinusoidal) and the naive
// position-number encoding, on fuzzer-chosen specs and positions (tests/fuzz/fuzz_input.h).
//
// For every input: check() agrees with the documented rules; the function returns what
// check() returned. Error: nothing is written. Ok (when the table is small enough to run):
// every value is finite and within [-1, 1] (a base check() accepts must give a usable
// table), within 2.5e-7 of the long-double reference where the precision contract applies
// (base >= 1, positions < 2^24), add_sinusoidal adds exactly that table, and nothing outside
// the exactly-sized buffers is touched (AddressSanitizer).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "../core/reference.h"
#include "fuzz_expect.h"
#include "fuzz_input.h"
#include "posenc/position_numbers.h"
#include "posenc/sinusoidal.h"

namespace {

using namespace fuzz;
using posenc::Status;

constexpr std::uint32_t kMaxRows = 1100;  // crosses the 1024-row re-anchoring interval
constexpr std::uint32_t kMaxWidth = 300;  // crosses the 128-pair PhaseBlock capacity
constexpr std::uint64_t kRunElements = 1 << 14;
constexpr double kTableBound = 2.5e-7;

Rules sinusoidal_rules(const posenc::SinusoidalSpec& spec, const DecodedPositions& positions) {
  Rules rules;
  rules.require(spec.seq_len <= posenc::kMaxSeqLen, Status::kSeqLenTooLarge);
  rules.require(spec.d_model >= 2, Status::kDModelTooSmall);
  rules.require(spec.d_model <= posenc::kMaxDim, Status::kDModelTooLarge);
  rules.require(spec.d_model % 2 == 0, Status::kDModelOdd);
  require_base(rules, spec.base);
  const int layout = static_cast<int>(spec.layout);
  rules.require(layout == 0 || layout == 1, Status::kLayoutInvalid);
  rules.require(fits(product(spec.seq_len, spec.d_model)), Status::kSizeTooLarge);
  require_positions(rules, positions, spec.seq_len);
  return rules;
}

bool precision_contract_applies(const posenc::SinusoidalSpec& spec, const DecodedPositions& positions) {
  if (!(spec.base >= 1.0) || spec.d_model > 8192) return false;
  for (std::size_t row = 0; row < spec.seq_len; ++row)
    if (positions.at(row) >= (1 << 24)) return false;
  return true;
}

void expect_valid_table(const posenc::SinusoidalSpec& spec, const DecodedPositions& positions,
                        const std::vector<float>& table) {
  for (std::size_t i = 0; i < table.size(); ++i) {
    FUZZ_EXPECT(std::isfinite(table[i]) && std::fabs(table[i]) <= 1.0f,
                "table[%zu] = %.9g (seq_len %u, d_model %u, base %.17g, row position %lld)", i, table[i], spec.seq_len,
                spec.d_model, spec.base, static_cast<long long>(positions.at(i / spec.d_model)));
  }
  if (!precision_contract_applies(spec, positions)) return;
  std::vector<std::int64_t> rows(spec.seq_len);
  for (std::size_t row = 0; row < spec.seq_len; ++row) rows[row] = positions.at(row);
  const auto layout = spec.layout == posenc::SinusoidalLayout::kInterleaved ? reference::TableLayout::kInterleaved
                                                                            : reference::TableLayout::kConcat;
  const std::vector<reference::Real> want = reference::sinusoidal(rows, spec.d_model, spec.base, layout);
  for (std::size_t i = 0; i < table.size(); ++i) {
    const double error = static_cast<double>(std::fabs(table[i] - want[i]));
    FUZZ_EXPECT(error <= kTableBound,
                "table[%zu] = %.9g is %.3g from the reference %.12Lg (base %.17g, d_model %u, position %lld)", i,
                table[i], error, want[i], spec.base, spec.d_model, static_cast<long long>(rows[i / spec.d_model]));
  }
}

void fuzz_table(FuzzInput& in, bool add) {
  posenc::SinusoidalSpec spec;
  spec.seq_len = in.size(kMaxRows);
  spec.d_model = in.size(kMaxWidth);
  spec.base = in.base();
  spec.layout = static_cast<posenc::SinusoidalLayout>(in.enum_value());
  const DecodedPositions positions = in.positions(spec.seq_len, kMaxRows);

  const Status status = posenc::check(spec, positions.positions);
  const Rules rules = sinusoidal_rules(spec, positions);
  rules.expect_agrees("sinusoidal check", status);

  const unsigned __int128 elements = product(spec.seq_len, spec.d_model);
  const std::size_t length = static_cast<std::size_t>(elements < kRunElements ? elements : kRunElements);
  if (status != Status::kOk) {
    // Even a buffer shorter than the shape: a rejected call must not write anything.
    std::vector<float> out(length, sentinel());
    const Status got = add ? posenc::add_sinusoidal(spec, positions.positions, out.data())
                           : posenc::sinusoidal_table(spec, positions.positions, out.data());
    FUZZ_EXPECT(got == status, "call returned '%s', check() '%s'", posenc::status_name(got),
                posenc::status_name(status));
    FUZZ_EXPECT(untouched(out), "a rejected call ('%s') wrote into its output", posenc::status_name(status));
    return;
  }
  if (elements > kRunElements) return;  // valid but too large to run here: check() was the test

  std::vector<float> table(length, sentinel());
  FUZZ_EXPECT(posenc::sinusoidal_table(spec, positions.positions, table.data()) == Status::kOk,
              "table failed after check ok");
  expect_valid_table(spec, positions, table);
  if (!add) return;

  std::vector<float> x = in.array<float>(length);
  const std::vector<float> before = x;
  FUZZ_EXPECT(posenc::add_sinusoidal(spec, positions.positions, x.data()) == Status::kOk, "add failed after check ok");
  for (std::size_t i = 0; i < length; ++i) {
    const float want = before[i] + table[i];
    FUZZ_EXPECT(same_value(x[i], want), "x[%zu] = %.9g after adding, want %.9g + %.9g", i, x[i], before[i], table[i]);
  }
}

void fuzz_position_numbers(FuzzInput& in) {
  posenc::PositionNumbersSpec spec;
  spec.seq_len = in.size(kMaxRows);
  spec.d_model = in.size(kMaxWidth);
  spec.offset = in.offset(spec.seq_len);

  Rules rules;
  rules.require(spec.seq_len <= posenc::kMaxSeqLen, Status::kSeqLenTooLarge);
  rules.require(spec.d_model >= 1, Status::kDModelTooSmall);
  rules.require(spec.d_model <= posenc::kMaxDim, Status::kDModelTooLarge);
  rules.require(fits(product(spec.seq_len, spec.d_model)), Status::kSizeTooLarge);
  rules.require(spec.seq_len == 0 || std::int64_t{spec.offset} + spec.seq_len - 1 <= posenc::kMaxPosition,
                Status::kOffsetTooLarge);
  const Status status = posenc::check(spec);
  rules.expect_agrees("position_numbers check", status);

  const unsigned __int128 elements = product(spec.seq_len, spec.d_model);
  const std::size_t length = static_cast<std::size_t>(elements < kRunElements ? elements : kRunElements);
  std::vector<float> out(length, sentinel());
  if (status != Status::kOk || elements <= kRunElements) {
    const Status got = posenc::position_numbers(spec, out.data());
    FUZZ_EXPECT(got == status, "call returned '%s', check() '%s'", posenc::status_name(got),
                posenc::status_name(status));
  }
  if (status != Status::kOk) {
    FUZZ_EXPECT(untouched(out), "a rejected call ('%s') wrote into its output", posenc::status_name(status));
    return;
  }
  if (elements > kRunElements) return;
  for (std::size_t i = 0; i < length; ++i) {
    const float want = static_cast<float>(std::int64_t{spec.offset} + static_cast<std::int64_t>(i / spec.d_model));
    FUZZ_EXPECT(same_value(out[i], want), "out[%zu] = %.9g, want %.9g", i, out[i], want);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  switch (in.byte() % 3) {
    case 0:
      fuzz_table(in, false);
      break;
    case 1:
      fuzz_table(in, true);
      break;
    default:
      fuzz_position_numbers(in);
      break;
  }
  return 0;
}
