// T5's relative position buckets: for query row i and key column j, the bucket of the relative
// position n = j - (offset + i) (memory position minus context position), as transformers'
// T5Attention._relative_position_bucket computes it (models/t5/modeling_t5.py), bit for bit.
//
// The reference computes, for a distance d >= max_exact, in float32:
//   max_exact + int(log(float(d) / max_exact) / float(log(max_distance / max_exact)) * (num_buckets - max_exact))
// (torch converts its Python scalars to float32; the division is float32; its float32 log is
// matched by the float64 log rounded to float32, which golden vectors from torch confirm). That
// expression is monotone in d, so each configuration has one smallest distance per bucket: these
// thresholds are found once per call by a binary search on the expression itself, and every
// element is then a lookup. A row of the output is a window of one line of buckets over n.
#pragma once

#include <cstdint>
#include <vector>

#include "defaults.h"
#include "status.h"

namespace posenc {

struct RelativePositionBucketsSpec {
  std::uint32_t query_len = 0;
  std::uint32_t key_len = 0;
  std::uint32_t num_buckets = kDefaultNumBuckets;  // halved when bidirectional (negative and positive n)
  std::uint32_t max_distance =
      kDefaultMaxDistance;    // must be above max_exact (a quarter of num_buckets, bidirectional)
  bool bidirectional = true;  // T5's encoder; its decoder (causal) is unidirectional
  std::uint32_t offset = 0;   // the position of query row 0: the KV cache's past length
};

Status check(const RelativePositionBucketsSpec& spec);

// The bucket of one relative position n (spec's num_buckets, max_distance, bidirectional), by the
// reference's own float32 expression: what the thresholds are searched on, and what tests compare.
// Requires check(spec) == kOk.
std::int32_t relative_position_bucket_formula(const RelativePositionBucketsSpec& spec, std::int64_t n);

// A configuration's buckets as runs over n: bucket `bucket[r]` for first[r] <= n < first[r + 1]
// (the first run starts at INT64_MIN). Requires check(spec) == kOk.
struct BucketRuns {
  std::vector<std::int64_t> first;
  std::vector<std::int32_t> bucket;
  std::int32_t at(std::int64_t n) const;
};
BucketRuns bucket_runs(const RelativePositionBucketsSpec& spec);

// out: [query_len, key_len] int32, out[i * key_len + j] = bucket of j - (offset + i).
Status relative_position_buckets(const RelativePositionBucketsSpec& spec, std::int32_t* out);

}  // namespace posenc
