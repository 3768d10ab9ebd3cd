// libFuzzer target: the similarity matrices (dot, cosine) on fuzzer-chosen shapes, metrics
// and data (tests/fuzz/fuzz_input.h).
//
// For every input: check() agrees with the documented rules; the function returns what
// check() returned; a rejected call writes nothing. Ok (when small enough to run): the inputs
// are unchanged; every dot product of finite rows is within the float32 summation bound
// (dim + 2) 2^-24 sum|a_i b_i| of the long-double reference; every cosine of well-scaled rows
// (entries 0 or of magnitude in [2^-60, 2^59], so no square over- or underflows float32) is
// within (3 dim + 8) 2^-24 of the reference, and exactly 0 for an all-zero row. Buffers are
// allocated to their exact sizes, so AddressSanitizer sees any stray access.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "../core/reference.h"
#include "fuzz_expect.h"
#include "fuzz_input.h"
#include "posenc/similarity.h"

namespace {

using namespace fuzz;
using posenc::Status;

constexpr std::uint32_t kMaxRows = 40;
constexpr std::uint32_t kMaxDim = 300;
constexpr std::uint64_t kRunElements = 1 << 14;
constexpr long double kUnitRoundoff = 0x1p-24L;

bool all_finite(const float* v, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(v[i])) return false;
  return true;
}

bool well_scaled(const float* v, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const float m = std::fabs(v[i]);
    if (m != 0.0f && !(m >= 0x1p-60f && m <= 0x1p59f)) return false;
  }
  return true;
}

bool all_zero(const float* v, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (v[i] != 0.0f) return false;
  return true;
}

// Per-row facts, computed once per row rather than once per (row, column).
struct RowFacts {
  bool finite, well_scaled, zero;
  reference::Real norm;
};

std::vector<RowFacts> row_facts(const std::vector<float>& m, std::size_t rows, std::size_t dim) {
  std::vector<RowFacts> facts(rows);
  for (std::size_t r = 0; r < rows; ++r) {
    const float* row = m.data() + r * dim;
    facts[r] = {all_finite(row, dim), well_scaled(row, dim), all_zero(row, dim),
                std::sqrt(reference::dot(row, row, dim))};
  }
  return facts;
}

void expect_similarity(const posenc::SimilaritySpec& spec, const std::vector<float>& a, const std::vector<float>& b,
                       const std::vector<float>& out) {
  const std::size_t dim = spec.dim;
  const bool cosine = spec.metric == posenc::Metric::kCosine;
  const std::vector<RowFacts> a_facts = row_facts(a, spec.rows, dim), b_facts = row_facts(b, spec.cols, dim);
  for (std::size_t r = 0; r < spec.rows; ++r) {
    const float* a_row = a.data() + r * dim;
    for (std::size_t c = 0; c < spec.cols; ++c) {
      const float* b_row = b.data() + c * dim;
      const float got = out[r * spec.cols + c];
      if (!cosine) {
        if (!a_facts[r].finite || !b_facts[c].finite) continue;
        const long double scale = reference::abs_dot(a_row, b_row, dim);
        if (scale > 1e37L) continue;  // the sum may legitimately overflow float32
        const long double error = std::fabs(got - reference::dot(a_row, b_row, dim));
        const long double bound = (dim + 2) * kUnitRoundoff * scale + dim * 0x1p-149L;
        FUZZ_EXPECT(error <= bound, "dot[%zu][%zu] = %.9g is %.3Lg from the reference (bound %.3Lg, dim %zu)", r, c,
                    got, error, bound, dim);
        continue;
      }
      if (!a_facts[r].well_scaled || !b_facts[c].well_scaled) continue;
      if (a_facts[r].zero || b_facts[c].zero) {
        FUZZ_EXPECT(got == 0.0f, "cosine[%zu][%zu] of an all-zero row is %.9g, want 0", r, c, got);
        continue;
      }
      const reference::Real want = reference::dot(a_row, b_row, dim) / (a_facts[r].norm * b_facts[c].norm);
      const long double error = std::fabs(got - want);
      const long double bound = (3 * dim + 8) * kUnitRoundoff;
      FUZZ_EXPECT(error <= bound, "cosine[%zu][%zu] = %.9g is %.3Lg from the reference %.9Lg (bound %.3Lg, dim %zu)", r,
                  c, got, error, want, bound, dim);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  posenc::SimilaritySpec spec;
  spec.rows = in.size(kMaxRows);
  spec.cols = in.size(kMaxRows);
  spec.dim = in.size(kMaxDim);
  spec.metric = static_cast<posenc::Metric>(in.enum_value());

  Rules rules;
  rules.require(spec.rows <= posenc::kMaxSeqLen, Status::kRowsTooLarge);
  rules.require(spec.cols <= posenc::kMaxSeqLen, Status::kColsTooLarge);
  rules.require(spec.dim >= 1, Status::kDimTooSmall);
  rules.require(spec.dim <= posenc::kMaxDim, Status::kDimTooLarge);
  const int metric = static_cast<int>(spec.metric);
  rules.require(metric == 0 || metric == 1, Status::kMetricInvalid);
  const unsigned __int128 a_size = product(spec.rows, spec.dim), b_size = product(spec.cols, spec.dim),
                          out_size = product(spec.rows, spec.cols);
  rules.require(fits(a_size) && fits(b_size) && fits(out_size), Status::kSizeTooLarge);
  const Status status = posenc::check(spec);
  rules.expect_agrees("similarity check", status);

  const bool runnable = a_size + b_size + out_size <= kRunElements;
  if (status == Status::kOk && !runnable) return 0;
  // A rejected spec gets (at most) small buffers: the call must not touch them at all.
  const auto capped = [](unsigned __int128 n) { return static_cast<std::size_t>(n < kRunElements ? n : kRunElements); };
  const std::vector<float> a = in.array<float>(capped(a_size)), b = in.array<float>(capped(b_size));
  const std::vector<float> a_before = a, b_before = b;
  std::vector<float> out(capped(out_size), sentinel());
  const Status got = posenc::similarity(spec, a.data(), b.data(), out.data());
  FUZZ_EXPECT(got == status, "call returned '%s', check() '%s'", posenc::status_name(got), posenc::status_name(status));
  FUZZ_EXPECT(same_bits(a, a_before) && same_bits(b, b_before), "similarity changed an input");
  if (status != Status::kOk) {
    FUZZ_EXPECT(untouched(out), "a rejected call ('%s') wrote into its output", posenc::status_name(status));
    return 0;
  }
  expect_similarity(spec, a, b, out);
  return 0;
}
