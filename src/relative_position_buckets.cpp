#include "posenc/relative_position_buckets.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include "posenc/positions.h"
#include "posenc/size_limits.h"

namespace posenc {

namespace {

// The buckets of one sign of n (num_buckets halved when bidirectional) and the exact ones.
std::uint32_t half_buckets(const RelativePositionBucketsSpec& spec) {
  return spec.bidirectional ? spec.num_buckets / 2 : spec.num_buckets;
}

// Past every |n| a call can ask for: offset + query_len - 1 < 2^31 and key_len <= 2^24.
constexpr std::int64_t kSearchLimit = std::int64_t{1} << 33;

// The reference's bucket of a distance d >= 0, in its float32 arithmetic:
//   max_exact + (log(float(d) / max_exact) / log(max_distance / max_exact) * (half - max_exact)).to(long)
// capped at half - 1. torch turns each Python scalar into a float32 of the tensor's type (the
// float64 math.log rounded once); its float32 log is the float64 log rounded to float32.
class DistanceBucket {
 public:
  explicit DistanceBucket(const RelativePositionBucketsSpec& spec)
      : half_(half_buckets(spec)),
        max_exact_(half_ / 2),
        max_exact_f_(static_cast<float>(max_exact_)),
        log_ratio_f_(
            static_cast<float>(std::log(static_cast<double>(spec.max_distance) / static_cast<double>(max_exact_)))),
        span_f_(static_cast<float>(half_ - max_exact_)) {}

  std::int64_t operator()(std::int64_t d) const {
    if (d < max_exact_) return d;
    const float ratio = static_cast<float>(d) / max_exact_f_;
    const float log_ratio = static_cast<float>(std::log(static_cast<double>(ratio)));
    const float scaled = log_ratio / log_ratio_f_ * span_f_;
    const std::int64_t large = max_exact_ + static_cast<std::int64_t>(scaled);
    return std::min<std::int64_t>(large, half_ - 1);
  }

  std::int64_t half() const { return half_; }
  std::int64_t max_exact() const { return max_exact_; }

 private:
  std::int64_t half_;
  std::int64_t max_exact_;
  float max_exact_f_;
  float log_ratio_f_;
  float span_f_;
};

}  // namespace

Status check(const RelativePositionBucketsSpec& spec) {
  if (spec.query_len > kMaxSeqLen) return Status::kQueryLenTooLarge;
  if (spec.key_len > kMaxSeqLen) return Status::kKeyLenTooLarge;
  if (spec.num_buckets > kMaxDim) return Status::kNumBucketsTooLarge;
  if (half_buckets(spec) < 2) return Status::kNumBucketsTooSmall;
  if (spec.max_distance <= half_buckets(spec) / 2) return Status::kMaxDistanceTooSmall;
  if (!fits(element_count(spec.query_len, spec.key_len))) return Status::kSizeTooLarge;
  return Positions{nullptr, spec.offset}.check(spec.query_len);
}

std::int32_t relative_position_bucket_formula(const RelativePositionBucketsSpec& spec, std::int64_t n) {
  const DistanceBucket distance_bucket(spec);
  if (spec.bidirectional) {
    const std::int64_t base = n > 0 ? distance_bucket.half() : 0;
    return static_cast<std::int32_t>(base + distance_bucket(n < 0 ? -n : n));
  }
  return static_cast<std::int32_t>(distance_bucket(n < 0 ? -n : 0));
}

std::int32_t BucketRuns::at(std::int64_t n) const {
  const auto after = std::upper_bound(first.begin(), first.end(), n);
  return bucket[static_cast<std::size_t>(after - first.begin()) - 1];
}

BucketRuns bucket_runs(const RelativePositionBucketsSpec& spec) {
  const DistanceBucket distance_bucket(spec);
  // Runs over the distance d >= 0: the exact buckets 0 .. max_exact - 1, then the first d of
  // each larger bucket, searched on the (monotone) expression itself.
  std::vector<std::int64_t> start;
  std::vector<std::int64_t> value;
  for (std::int64_t d = 0; d <= distance_bucket.max_exact(); ++d) {
    start.push_back(d);
    value.push_back(d);
  }
  for (std::int64_t b = distance_bucket.max_exact() + 1; b < distance_bucket.half(); ++b) {
    std::int64_t lo = start.back();  // distance_bucket(lo) < b
    std::int64_t hi = kSearchLimit;  // distance_bucket(hi) >= b, if any d reaches b
    if (distance_bucket(hi) < b) break;
    while (hi - lo > 1) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      (distance_bucket(mid) >= b ? hi : lo) = mid;
    }
    start.push_back(hi);
    value.push_back(distance_bucket(hi));
    b = value.back();  // above b where the expression jumps over a bucket
  }
  // Over n: negative n (d = -n) in increasing n, then n = 0, then positive n.
  BucketRuns runs;
  const std::size_t count = start.size();
  runs.first.push_back(std::numeric_limits<std::int64_t>::min());
  runs.bucket.push_back(static_cast<std::int32_t>(value[count - 1]));
  for (std::size_t k = count - 1; k-- > 0;) {
    runs.first.push_back(1 - start[k + 1]);
    runs.bucket.push_back(static_cast<std::int32_t>(value[k]));
  }
  if (spec.bidirectional) {
    for (std::size_t k = 1; k < count; ++k) {
      runs.first.push_back(start[k]);
      runs.bucket.push_back(static_cast<std::int32_t>(distance_bucket.half() + value[k]));
    }
  }
  return runs;
}

Status relative_position_buckets(const RelativePositionBucketsSpec& spec, std::int32_t* out) {
  if (const Status status = check(spec); status != Status::kOk) return status;
  const std::uint64_t elements = std::uint64_t{spec.query_len} * spec.key_len;
  if (elements == 0) return Status::kOk;
  if (out == nullptr) return Status::kNullPointer;
  const BucketRuns runs = bucket_runs(spec);
  const std::size_t run_count = runs.first.size();
  const std::int64_t key_len = spec.key_len;
  for (std::uint32_t i = 0; i < spec.query_len; ++i) {
    // Row i holds n = j - p for j in [0, key_len): runs of equal buckets, each one fill.
    const std::int64_t p = std::int64_t{spec.offset} + i;
    std::int32_t* row = out + std::size_t{i} * spec.key_len;
    std::size_t r =
        static_cast<std::size_t>(std::upper_bound(runs.first.begin(), runs.first.end(), -p) - runs.first.begin() - 1);
    std::int64_t j = 0;
    while (j < key_len) {
      const std::int64_t end = r + 1 < run_count ? std::min(key_len, runs.first[r + 1] + p) : key_len;
      std::fill(row + j, row + end, runs.bucket[r]);
      j = end;
      ++r;
    }
  }
  return Status::kOk;
}

}  // namespace posenc
