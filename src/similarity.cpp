#include "similarity.h"

#include <cmath>
#include <cstddef>

#include "kernels/dispatch.h"
#include "size_limits.h"

namespace posenc {

Status check(const SimilaritySpec& spec) {
  if (spec.rows > kMaxSeqLen) return Status::kRowsTooLarge;
  if (spec.cols > kMaxSeqLen) return Status::kColsTooLarge;
  if (spec.dim < 1) return Status::kDimTooSmall;
  if (spec.dim > kMaxDim) return Status::kDimTooLarge;
  if (spec.metric != Metric::kDot && spec.metric != Metric::kCosine) return Status::kMetricInvalid;
  if (!fits(element_count(spec.rows, spec.dim)) || !fits(element_count(spec.cols, spec.dim)) ||
      !fits(element_count(spec.rows, spec.cols)))
    return Status::kSizeTooLarge;
  return Status::kOk;
}

namespace {

float norm(const float* v, std::size_t dim) { return std::sqrt(kernels::dot(v, v, dim)); }

// x / n, or 0 for an all-zero row (cosine similarity is undefined there; PyTorch gives 0 too).
float divide_or_zero(float x, float n) { return n > 0.0f ? x / n : 0.0f; }

}  // namespace

Status similarity(const SimilaritySpec& spec, const float* a, const float* b, float* out) {
  if (const Status status = check(spec); status != Status::kOk) return status;
  if (spec.rows > 0 && spec.cols > 0 && (a == nullptr || b == nullptr || out == nullptr))
    return Status::kNullPointer;
  const std::size_t dim = spec.dim, cols = spec.cols;
  const bool cosine = spec.metric == Metric::kCosine;
  for (std::size_t r = 0; r < spec.rows; ++r) {
    const float* a_row = a + r * dim;
    float* out_row = out + r * cols;
    kernels::dot_row(a_row, b, dim, cols, out_row);
    if (cosine) {
      const float a_norm = norm(a_row, dim);
      for (std::size_t c = 0; c < cols; ++c) out_row[c] = divide_or_zero(out_row[c], a_norm);
    }
  }
  // Cosine, second pass: each column's norm is computed once (no scratch allocation).
  if (cosine) {
    for (std::size_t c = 0; c < cols; ++c) {
      const float b_norm = norm(b + c * dim, dim);
      for (std::size_t r = 0; r < spec.rows; ++r)
        out[r * cols + c] = divide_or_zero(out[r * cols + c], b_norm);
    }
  }
  return Status::kOk;
}

}  // namespace posenc
