#include "posenc/similarity.h"

#include <cmath>
#include <cstddef>
#include <memory>
#include <new>

#include "kernels/dispatch.h"
#include "posenc/size_limits.h"

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

// Norms and fallback dot products in float64: float32 squares overflow above |v| ~ 1.8e19 and
// vanish below ~1e-23, which would break cosines of rows float32 itself holds well.
double dot64(const float* a, const float* b, std::size_t dim) {
  double sum = 0.0;
  for (std::size_t i = 0; i < dim; ++i) sum += static_cast<double>(a[i]) * b[i];
  return sum;
}

double norm64(const float* v, std::size_t dim) { return std::sqrt(dot64(v, v, dim)); }

// Where |a| |b| lies in [2^-60, 2^60], no float32 product or partial sum of the dot product can
// overflow, and underflowed products are negligible against |a| |b|: the SIMD float32 dot is
// then as good as any. Outside it, the dot is redone in float64.
constexpr double kSafeLow = 0x1p-60, kSafeHigh = 0x1p60;

}  // namespace

Status similarity(const SimilaritySpec& spec, const float* a, const float* b, float* out) {
  if (const Status status = check(spec); status != Status::kOk) return status;
  if (spec.rows > 0 && spec.cols > 0 && (a == nullptr || b == nullptr || out == nullptr)) return Status::kNullPointer;
  const std::size_t dim = spec.dim, cols = spec.cols;
  const bool cosine = spec.metric == Metric::kCosine;
  std::unique_ptr<double[]> b_norms;
  if (cosine && cols > 0) {
    b_norms.reset(new (std::nothrow) double[cols]);
    if (!b_norms) return Status::kOutOfMemory;
    for (std::size_t c = 0; c < cols; ++c) b_norms[c] = norm64(b + c * dim, dim);
  }
  for (std::size_t r = 0; r < spec.rows; ++r) {
    const float* a_row = a + r * dim;
    float* out_row = out + r * cols;
    kernels::dot_row(a_row, b, dim, cols, out_row);
    if (!cosine) continue;
    const double a_norm = norm64(a_row, dim);
    for (std::size_t c = 0; c < cols; ++c) {
      const double denominator = a_norm * b_norms[c];
      if (denominator == 0.0) {
        out_row[c] = 0.0f;  // an all-zero row: undefined cosine, 0 as in PyTorch
        continue;
      }
      const double dot = denominator >= kSafeLow && denominator <= kSafeHigh ? static_cast<double>(out_row[c])
                                                                             : dot64(a_row, b + c * dim, dim);
      out_row[c] = static_cast<float>(dot / denominator);
    }
  }
  return Status::kOk;
}

}  // namespace posenc
