// libFuzzer target: M-RoPE position ids (mrope_positions.h) for fuzzer-chosen segment tables
// (kinds, grids, seconds per grid: small integers or hostile doubles), merge sizes, models and
// tokens per second.
//
// For every input: mrope_positions() returns what check() returned, with the same seq_len; a
// rejected call writes nothing. Ok (when small enough to run): the ids equal a reference
// written the way transformers' get_rope_index walks the prompt (each segment starts at the
// largest id so far + 1; Qwen2.5-VL video frames step by int(seconds) * tokens_per_second),
// and next_position is the largest id + 1. Buffers are allocated to their exact sizes.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "fuzz_expect.h"
#include "fuzz_input.h"
#include "posenc/mrope_positions.h"

namespace {

using namespace fuzz;
using posenc::Status;

constexpr std::uint32_t kMaxSegments = 6;
constexpr std::uint64_t kRunElements = 1 << 15;
constexpr double kFieldValues[] = {0.0,  1.0,  2.0,     3.0,  4.0,        6.0, 0.5, -1.0,
                                   -0.0, 16.0, 1 << 24, 1e30, 2147483647, 2.7, 3.0, 1e300};
constexpr std::size_t kFieldCount = sizeof kFieldValues / sizeof kFieldValues[0];

double field(FuzzInput& in) {
  const std::uint8_t t = in.byte();
  if (t < 128) return t % 9;  // small integers, the common case
  if (t < 128 + kFieldCount) return kFieldValues[t - 128];
  if (t == 255) return std::numeric_limits<double>::quiet_NaN();
  return in.f64();
}

// The ids as get_rope_index builds them, for a valid table (written apart from src/).
void reference(const posenc::MropePositionsSpec& spec, std::vector<std::int64_t> rows[3], std::int64_t* next) {
  std::int64_t st_idx = 0;
  for (std::uint32_t i = 0; i < spec.segment_count; ++i) {
    const double* row = spec.segments + i * posenc::kMropeSegmentFields;
    std::int64_t largest = -1;
    if (row[0] == 0.0) {
      for (std::int64_t k = 0; k < static_cast<std::int64_t>(row[1]); ++k) {
        for (auto& r : {0, 1, 2}) rows[r].push_back(st_idx + k);
        largest = st_idx + k;
      }
    } else {
      const std::int64_t m = spec.spatial_merge_size;
      const std::int64_t t = static_cast<std::int64_t>(row[1]), h = static_cast<std::int64_t>(row[2]) / m,
                         w = static_cast<std::int64_t>(row[3]) / m;
      // Frame ti's temporal offset, in long double: only frames the core accepted are formed
      // (ti * step then fits int32; a huge step with a single frame is never multiplied out).
      long double step = 1;
      if (spec.model == posenc::MropeModel::kQwen25Vl)
        step = row[0] == 1.0 ? 0
                             : (std::isnan(row[4]) ? 1.0L : std::trunc(static_cast<long double>(row[4]))) *
                                   spec.tokens_per_second;
      for (std::int64_t ti = 0; ti < t; ++ti)
        for (std::int64_t hi = 0; hi < h; ++hi)
          for (std::int64_t wi = 0; wi < w; ++wi) {
            const std::int64_t time = ti == 0 ? 0 : static_cast<std::int64_t>(ti * step);
            rows[0].push_back(st_idx + time);
            rows[1].push_back(st_idx + hi);
            rows[2].push_back(st_idx + wi);
            largest = std::max({largest, st_idx + time, st_idx + hi, st_idx + wi});
          }
    }
    if (largest >= 0) st_idx = largest + 1;
  }
  *next = st_idx;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  posenc::MropePositionsSpec spec;
  const std::uint32_t count = in.byte() % (kMaxSegments + 1);
  std::vector<double> table(std::size_t{count} * posenc::kMropeSegmentFields);
  for (double& v : table) v = field(in);
  spec.segments = table.empty() ? nullptr : table.data();
  spec.segment_count = count;
  spec.spatial_merge_size = in.size(8);
  spec.model = static_cast<posenc::MropeModel>(in.enum_value());
  const std::uint8_t tps = in.byte();
  spec.tokens_per_second = tps < 200 ? tps % 30 : in.u32();

  std::uint64_t seq_len = 0;
  std::uint32_t bad = 0xffffffffu;
  const Status checked = posenc::check(spec, &seq_len, &bad);
  const bool names_segment = checked != Status::kOk && checked != Status::kSpatialMergeSizeInvalid &&
                             checked != Status::kMropeModelInvalid && checked != Status::kNullPointer;
  FUZZ_EXPECT(!names_segment || bad < count, "status '%s' names segment %u of %u", posenc::status_name(checked), bad,
              count);
  if (checked == Status::kOk) FUZZ_EXPECT(seq_len <= posenc::kMaxSeqLen, "seq_len %llu", (unsigned long long)seq_len);

  const std::uint64_t length = checked == Status::kOk ? 3 * seq_len : 3 * 4;
  if (length > kRunElements) return 0;
  std::vector<std::int32_t> out(length, -7);
  std::int64_t next = -7;
  std::uint32_t bad_again = 0xffffffffu;
  const Status computed = posenc::mrope_positions(spec, out.data(), length, &next, &bad_again);
  FUZZ_EXPECT(computed == checked, "mrope_positions says '%s', check says '%s'", posenc::status_name(computed),
              posenc::status_name(checked));
  if (computed != Status::kOk) {
    FUZZ_EXPECT(std::all_of(out.begin(), out.end(), [](std::int32_t v) { return v == -7; }) && next == -7,
                "a rejected call wrote its output");
    return 0;
  }
  std::vector<std::int64_t> rows[3];
  std::int64_t want_next = 0;
  reference(spec, rows, &want_next);
  FUZZ_EXPECT(rows[0].size() == seq_len, "reference holds %zu ids, seq_len %llu", rows[0].size(),
              (unsigned long long)seq_len);
  for (int r = 0; r < 3; ++r)
    for (std::uint64_t k = 0; k < seq_len && k < rows[r].size(); ++k)
      FUZZ_EXPECT(out[r * seq_len + k] == rows[r][k], "row %d id %llu is %d, want %lld", r, (unsigned long long)k,
                  out[r * seq_len + k], (long long)rows[r][k]);
  FUZZ_EXPECT(next == want_next, "next_position %lld, want %lld", (long long)next, (long long)want_next);
  // A wrong output length is refused without writing.
  std::vector<std::int32_t> short_out(length + 1, -7);
  FUZZ_EXPECT(posenc::mrope_positions(spec, short_out.data(), length + 1, &next, &bad) == Status::kOutLength,
              "a wrong out length is accepted");
  return 0;
}
