#include "posenc/alibi.h"

#include <cmath>
#include <cstddef>

#include "kernels/dispatch.h"
#include "posenc/size_limits.h"

namespace posenc {

namespace {

bool max_bias_valid(double max_bias) { return std::isfinite(max_bias) && max_bias > 0.0; }

// Slope of head h of n: the exponent B·k/p with p a power of two, k/p exact, so the only
// roundings are the product and exp2.
double slope(std::uint32_t h, std::uint32_t n, double max_bias) {
  std::uint32_t closest = 1;
  while (closest <= n / 2) closest *= 2;  // the largest power of two <= n
  if (h < closest) return std::exp2(-(max_bias * (static_cast<double>(h + 1) / closest)));
  const std::uint32_t m = h - closest;  // the extra heads: odd steps of the rule for 2 · closest
  return std::exp2(-(max_bias * (static_cast<double>(2 * m + 1) / (2.0 * closest))));
}

}  // namespace

Status check(const AlibiSlopesSpec& spec) {
  if (spec.num_heads < 1) return Status::kNumHeadsTooSmall;
  if (spec.num_heads > kMaxDim) return Status::kNumHeadsTooLarge;
  if (!max_bias_valid(spec.max_bias)) return Status::kMaxBiasInvalid;
  return Status::kOk;
}

Status alibi_slopes(const AlibiSlopesSpec& spec, double* out) {
  if (const Status status = check(spec); status != Status::kOk) return status;
  if (out == nullptr) return Status::kNullPointer;
  for (std::uint32_t h = 0; h < spec.num_heads; ++h) out[h] = slope(h, spec.num_heads, spec.max_bias);
  return Status::kOk;
}

Status check(const AlibiBiasSpec& spec) {
  if (const Status status = check(AlibiSlopesSpec{spec.num_heads, spec.max_bias}); status != Status::kOk) return status;
  if (spec.query_len > kMaxSeqLen) return Status::kQueryLenTooLarge;
  if (spec.key_len > kMaxSeqLen) return Status::kKeyLenTooLarge;
  if (spec.offset < -kMaxPosition || spec.offset > kMaxPosition) return Status::kAlibiOffsetInvalid;
  if (!fits(element_count(spec.num_heads, spec.query_len, spec.key_len))) return Status::kSizeTooLarge;
  return Status::kOk;
}

Status alibi_bias(const AlibiBiasSpec& spec, float* out) {
  if (const Status status = check(spec); status != Status::kOk) return status;
  const std::size_t rows = spec.query_len, cols = spec.key_len;
  if (rows == 0 || cols == 0) return Status::kOk;
  if (out == nullptr) return Status::kNullPointer;
  for (std::uint32_t h = 0; h < spec.num_heads; ++h) {
    const double s = slope(h, spec.num_heads, spec.max_bias);
    for (std::size_t i = 0; i < rows; ++i) {
      // Distances j − (offset + i) are integers below 2^32 in magnitude: exact in float64.
      const double start = static_cast<double>(-(spec.offset + static_cast<std::int64_t>(i)));
      kernels::alibi_row(s, start, out + (h * rows + i) * cols, cols);
    }
  }
  return Status::kOk;
}

}  // namespace posenc
