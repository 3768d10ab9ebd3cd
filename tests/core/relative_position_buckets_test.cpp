// T5's relative position buckets (relative_position_buckets.h) against transformers'
// T5Attention._relative_position_bucket run by torch (tests/golden/t5-buckets.json, written by
// scripts/make_golden_t5_buckets.py): every relative position in [-2^20, 2^20] of every
// configuration there, through the float32 expression, the runs and the whole call.
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <limits>
#include <vector>

#include "golden_json.h"
#include "posenc/relative_position_buckets.h"
#include "posenc/size_limits.h"

namespace {

using posenc::RelativePositionBucketsSpec;
using posenc::Status;

const golden_json::Value& golden_file() {
  static const golden_json::Value file = golden_json::read_golden("t5-buckets.json");
  return file;
}

// The golden runs of one configuration, expanded: torch's bucket of every n in [-range, range].
std::vector<std::int32_t> expand(const golden_json::Value& runs, std::int64_t range) {
  std::vector<std::int32_t> out(static_cast<std::size_t>(2 * range + 1));
  const std::size_t count = runs.array.size();
  for (std::size_t r = 0; r < count; ++r) {
    const auto begin = static_cast<std::int64_t>(runs[r][0].number);
    const std::int64_t end = r + 1 < count ? static_cast<std::int64_t>(runs[r + 1][0].number) : range + 1;
    for (std::int64_t n = begin; n < end; ++n)
      out[static_cast<std::size_t>(n + range)] = static_cast<std::int32_t>(runs[r][1].number);
  }
  return out;
}

RelativePositionBucketsSpec spec_of(const golden_json::Value& g) {
  RelativePositionBucketsSpec spec;
  spec.num_buckets = static_cast<std::uint32_t>(g["numBuckets"].number);
  spec.max_distance = static_cast<std::uint32_t>(g["maxDistance"].number);
  spec.bidirectional = g["bidirectional"].boolean;
  return spec;
}

}  // namespace

TEST_CASE("relative_position_buckets equals torch's buckets for every n in [-2^20, 2^20]", "[t5_buckets]") {
  const auto range = static_cast<std::int64_t>(golden_file()["range"].number);
  for (const golden_json::Value& g : golden_file()["configs"].array) {
    RelativePositionBucketsSpec spec = spec_of(g);
    INFO("numBuckets " << spec.num_buckets << " maxDistance " << spec.max_distance << " bidirectional "
                       << spec.bidirectional);
    REQUIRE(check(spec) == Status::kOk);
    const std::vector<std::int32_t> want = expand(g["runs"], range);
    // One row holds every n: key j at offset `range` is n = j - range.
    spec.query_len = 1;
    spec.key_len = static_cast<std::uint32_t>(2 * range + 1);
    spec.offset = static_cast<std::uint32_t>(range);
    std::vector<std::int32_t> got(want.size(), -1);
    REQUIRE(posenc::relative_position_buckets(spec, got.data()) == Status::kOk);
    std::size_t formula_mismatches = 0;
    std::size_t call_mismatches = 0;
    for (std::int64_t n = -range; n <= range; ++n) {
      const std::int32_t expected = want[static_cast<std::size_t>(n + range)];
      if (posenc::relative_position_bucket_formula(spec, n) != expected) ++formula_mismatches;
      if (got[static_cast<std::size_t>(n + range)] != expected) ++call_mismatches;
    }
    CHECK(formula_mismatches == 0);
    CHECK(call_mismatches == 0);
  }
}

TEST_CASE("relative_position_buckets: rows are compute_bias's, with the KV cache's offset", "[t5_buckets]") {
  for (const golden_json::Value& g : golden_file()["computeBias"].array) {
    RelativePositionBucketsSpec spec;
    spec.query_len = static_cast<std::uint32_t>(g["queryLen"].number);
    spec.key_len = static_cast<std::uint32_t>(g["keyLen"].number);
    spec.offset = static_cast<std::uint32_t>(g["offset"].number);
    spec.bidirectional = g["bidirectional"].boolean;
    std::vector<std::int32_t> got(std::size_t{spec.query_len} * spec.key_len, -1);
    REQUIRE(posenc::relative_position_buckets(spec, got.data()) == Status::kOk);
    const std::vector<double> want = g["buckets"].numbers();
    REQUIRE(want.size() == got.size());
    for (std::size_t e = 0; e < got.size(); ++e) CHECK(got[e] == static_cast<std::int32_t>(want[e]));
  }
}

TEST_CASE("relative_position_buckets: far positions and every row agree with the formula", "[t5_buckets]") {
  RelativePositionBucketsSpec spec;
  for (const bool bidirectional : {true, false}) {
    for (const std::uint32_t num_buckets : {4u, 5u, 7u, 32u, 33u, 100u}) {
      for (const std::uint32_t max_distance : {num_buckets, 3 * num_buckets + 1, 128u, 100000u}) {
        spec.bidirectional = bidirectional;
        spec.num_buckets = num_buckets;
        spec.max_distance = max_distance;
        if (check(spec) != Status::kOk) continue;
        const posenc::BucketRuns runs = posenc::bucket_runs(spec);
        for (const std::int64_t n : {std::int64_t{-posenc::kMaxPosition}, std::int64_t{-(1 << 30)}, std::int64_t{-5},
                                     std::int64_t{0}, std::int64_t{3}, std::int64_t{1} << 24, std::int64_t{1} << 30}) {
          CHECK(runs.at(n) == posenc::relative_position_bucket_formula(spec, n));
        }
        spec.query_len = 37;
        spec.key_len = 301;
        spec.offset = 200;
        std::vector<std::int32_t> got(std::size_t{spec.query_len} * spec.key_len);
        REQUIRE(posenc::relative_position_buckets(spec, got.data()) == Status::kOk);
        for (std::uint32_t i = 0; i < spec.query_len; ++i) {
          for (std::uint32_t j = 0; j < spec.key_len; ++j) {
            const std::int64_t n = std::int64_t{j} - (std::int64_t{spec.offset} + i);
            REQUIRE(got[i * spec.key_len + j] == posenc::relative_position_bucket_formula(spec, n));
          }
        }
        // The last query row of the largest offset: n down to -kMaxPosition.
        spec.query_len = 2;
        spec.key_len = 3;
        spec.offset = static_cast<std::uint32_t>(posenc::kMaxPosition) - 1;
        got.assign(6, -1);
        REQUIRE(posenc::relative_position_buckets(spec, got.data()) == Status::kOk);
        CHECK(got[5] == posenc::relative_position_bucket_formula(spec, 2 - posenc::kMaxPosition));
        spec.query_len = 0;
        spec.key_len = 0;
        spec.offset = 0;
      }
    }
  }
}

TEST_CASE("relative_position_buckets: each rule names its parameter, and nothing is written", "[t5_buckets]") {
  const auto status_of = [](RelativePositionBucketsSpec spec) {
    std::vector<std::int32_t> out(4, -7);
    const Status status = posenc::relative_position_buckets(spec, out.data());
    if (status != Status::kOk) CHECK(out == std::vector<std::int32_t>(4, -7));
    return status;
  };
  RelativePositionBucketsSpec ok;
  ok.query_len = 2;
  ok.key_len = 2;
  CHECK(status_of(ok) == Status::kOk);
  auto s = ok;
  s.query_len = posenc::kMaxSeqLen + 1;
  CHECK(status_of(s) == Status::kQueryLenTooLarge);
  s = ok;
  s.key_len = posenc::kMaxSeqLen + 1;
  CHECK(status_of(s) == Status::kKeyLenTooLarge);
  s = ok;
  s.num_buckets = 3;  // halved: 1
  CHECK(status_of(s) == Status::kNumBucketsTooSmall);
  s.bidirectional = false;
  s.max_distance = 2;
  CHECK(status_of(s) == Status::kOk);
  s.num_buckets = 1;
  CHECK(status_of(s) == Status::kNumBucketsTooSmall);
  s = ok;
  s.num_buckets = posenc::kMaxDim + 1;
  CHECK(status_of(s) == Status::kNumBucketsTooLarge);
  s = ok;
  s.max_distance = 8;  // max_exact of 32 bidirectional buckets
  CHECK(status_of(s) == Status::kMaxDistanceTooSmall);
  s.max_distance = 0;
  CHECK(status_of(s) == Status::kMaxDistanceTooSmall);
  s = ok;
  s.query_len = 1u << 15;
  s.key_len = 1u << 14;
  CHECK(status_of(s) == Status::kSizeTooLarge);
  s = ok;
  s.offset = static_cast<std::uint32_t>(posenc::kMaxPosition);
  CHECK(status_of(s) == Status::kOffsetTooLarge);
  CHECK(posenc::relative_position_buckets(ok, nullptr) == Status::kNullPointer);
  s = ok;
  s.query_len = 0;
  CHECK(posenc::relative_position_buckets(s, nullptr) == Status::kOk);
}
