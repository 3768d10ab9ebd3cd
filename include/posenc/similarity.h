// Pairwise similarity between the rows of two matrices: the attention-score heatmaps of the
// tutorial (PE(i)·PE(j), rot(q, m)·rot(k, n)) are built on it.
#pragma once

#include <cstdint>

#include "status.h"

namespace posenc {

enum class Metric : int {
  kDot = 0,
  kCosine = 1,  // dot / (|a| |b|); 0 where either row is all zeros
};

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
