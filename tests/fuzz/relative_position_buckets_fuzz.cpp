// libFuzzer target: T5's relative position buckets on fuzzer-chosen shapes, bucket counts,
// maximum distances, directions and offsets (tests/fuzz/fuzz_input.h).
//
// For every input: check() agrees with the documented rules; the function returns what check()
// returned; a rejected call writes nothing. Ok (when small enough to run): every element is
// the bucket of j - (offset + i) by an independent statement of transformers' float32
// expression (T5Attention._relative_position_bucket), and lies in [0, num_buckets); the runs
// the core builds agree with it at the far ends too. Buffers are allocated to their exact
// sizes, so AddressSanitizer sees any stray access.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_expect.h"
#include "fuzz_input.h"
#include "posenc/relative_position_buckets.h"

namespace {

using namespace fuzz;
using posenc::Status;

constexpr std::uint32_t kMaxLen = 80;
constexpr std::uint32_t kMaxBuckets = 300;
constexpr std::uint32_t kMaxDistance = 5000;
constexpr std::uint64_t kRunElements = 1 << 14;
constexpr std::int32_t kUnwritten = -0x5a5a5a5b;

// transformers' expression, restated: float32 throughout, the Python scalars as float32.
std::int64_t reference_bucket(const posenc::RelativePositionBucketsSpec& spec, std::int64_t n) {
  std::int64_t num_buckets = spec.num_buckets;
  std::int64_t bucket = 0;
  std::int64_t d = 0;
  if (spec.bidirectional) {
    num_buckets /= 2;
    bucket += n > 0 ? num_buckets : 0;
    d = n < 0 ? -n : n;
  } else {
    d = n < 0 ? -n : 0;
  }
  const std::int64_t max_exact = num_buckets / 2;
  if (d < max_exact) return bucket + d;
  const float divisor = static_cast<float>(std::log(static_cast<double>(spec.max_distance) / max_exact));
  const float log_ratio =
      static_cast<float>(std::log(static_cast<double>(static_cast<float>(d) / static_cast<float>(max_exact))));
  const float scaled = log_ratio / divisor * static_cast<float>(num_buckets - max_exact);
  const std::int64_t large = max_exact + static_cast<std::int64_t>(scaled);
  return bucket + std::min(large, num_buckets - 1);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  posenc::RelativePositionBucketsSpec spec;
  spec.query_len = in.size(kMaxLen);
  spec.key_len = in.size(kMaxLen);
  spec.num_buckets = in.size(kMaxBuckets);
  spec.max_distance = in.size(kMaxDistance);
  spec.bidirectional = in.byte() % 2 == 1;
  spec.offset = in.offset(spec.query_len);

  Rules rules;
  const std::uint32_t half = spec.bidirectional ? spec.num_buckets / 2 : spec.num_buckets;
  rules.require(spec.query_len <= posenc::kMaxSeqLen, Status::kQueryLenTooLarge);
  rules.require(spec.key_len <= posenc::kMaxSeqLen, Status::kKeyLenTooLarge);
  rules.require(spec.num_buckets <= posenc::kMaxDim, Status::kNumBucketsTooLarge);
  rules.require(half >= 2, Status::kNumBucketsTooSmall);
  rules.require(spec.max_distance > half / 2, Status::kMaxDistanceTooSmall);
  const unsigned __int128 out_size = product(spec.query_len, spec.key_len);
  rules.require(fits(out_size), Status::kSizeTooLarge);
  rules.require(spec.query_len == 0 || std::uint64_t{spec.offset} + spec.query_len - 1 <= posenc::kMaxPosition,
                Status::kOffsetTooLarge);
  const Status status = posenc::check(spec);
  rules.expect_agrees("relative_position_buckets check", status);

  const bool runnable = out_size <= kRunElements;
  if (status == Status::kOk && !runnable) return 0;
  const std::size_t length = static_cast<std::size_t>(out_size < kRunElements ? out_size : kRunElements);
  std::vector<std::int32_t> out(length, kUnwritten);
  const Status got = posenc::relative_position_buckets(spec, out.data());
  FUZZ_EXPECT(got == status, "call returned '%s', check() '%s'", posenc::status_name(got), posenc::status_name(status));
  if (status != Status::kOk) {
    FUZZ_EXPECT(std::all_of(out.begin(), out.end(), [](std::int32_t v) { return v == kUnwritten; }),
                "a rejected call ('%s') wrote into its output", posenc::status_name(status));
    return 0;
  }
  for (std::uint32_t i = 0; i < spec.query_len; ++i) {
    for (std::uint32_t j = 0; j < spec.key_len; ++j) {
      const std::int64_t n = std::int64_t{j} - (std::int64_t{spec.offset} + i);
      const std::int32_t value = out[std::size_t{i} * spec.key_len + j];
      const std::int64_t want = reference_bucket(spec, n);
      FUZZ_EXPECT(value == want, "bucket[%u][%u] (n = %lld) is %d, want %lld", i, j, static_cast<long long>(n),
                  static_cast<int>(value), static_cast<long long>(want));
      FUZZ_EXPECT(value >= 0 && static_cast<std::uint32_t>(value) < spec.num_buckets, "bucket %d out of range",
                  static_cast<int>(value));
    }
  }
  const posenc::BucketRuns runs = posenc::bucket_runs(spec);
  for (const std::int64_t n : {-posenc::kMaxPosition, std::int64_t{-(1 << 24)}, std::int64_t{1 << 24}}) {
    FUZZ_EXPECT(runs.at(n) == reference_bucket(spec, n), "runs give %d at n = %lld, want %lld",
                static_cast<int>(runs.at(n)), static_cast<long long>(n),
                static_cast<long long>(reference_bucket(spec, n)));
  }
  return 0;
}
