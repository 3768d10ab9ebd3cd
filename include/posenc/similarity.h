// Pairwise similarity between the rows of two matrices: the attention-score heatmaps of the
// tutorial (PE(i)·PE(j), rot(q, m)·rot(k, n)) are built on it.
#pragma once

#include <cstdint>

#include "named_enum.h"
#include "status.h"

namespace posenc {

// X(enumerator, JS name), in value order (named_enum.h).
// clang-format off
#define POSENC_METRICS(X) \
  X(kDot, "dot") \
  X(kCosine, "cosine") /* dot / (|a| |b|); 0 where either row is all zeros */
// clang-format on
enum class Metric : int { POSENC_METRICS(POSENC_ENUMERATOR) };

struct SimilaritySpec {
  std::uint32_t rows = 0;
  std::uint32_t cols = 0;
  std::uint32_t dim = 0;
  Metric metric = Metric::kDot;
};

Status check(const SimilaritySpec& spec);

// a: [rows, dim], b: [cols, dim], out: [rows, cols].
Status similarity(const SimilaritySpec& spec, const float* a, const float* b, float* out);

}  // namespace posenc
