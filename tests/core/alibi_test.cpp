// ALiBi slopes and bias (alibi.h) against a long-double reference: the slopes as the paper's
// get_slopes defines them (power-of-two rule, then the odd steps of the rule for twice the
// closest power of two), the bias as slope · (j − (offset + i)), rounded once to float32.
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "posenc/posenc.h"
#include "test_support.h"

namespace {

using namespace test_support;
using posenc::Status;

// The paper's get_slopes (ofirpress/attention_with_linear_biases, fairseq/models/transformer.py),
// recursively, in long double, with 8 generalised to max_bias.
std::vector<long double> paper_slopes(std::uint32_t n, long double max_bias) {
  const auto power_of_2 = [max_bias](std::uint32_t p) {
    std::vector<long double> s(p);
    // start · ratio^i with start = ratio = 2^(-2^-(log2(p) - 3)) (= 2^(-8/p)): 2^(-8 (i+1)/p),
    // computed as one exp2 (powers of a rounded start would lose i ulps).
    for (std::uint32_t i = 0; i < p; ++i) s[i] = std::exp2(-max_bias * (i + 1) / p);
    return s;
  };
  std::uint32_t closest = 1;
  while (closest * 2 <= n) closest *= 2;
  if (closest == n) return power_of_2(n);
  std::vector<long double> s = power_of_2(closest);
  const std::vector<long double> twice = paper_slopes(2 * closest, max_bias);
  for (std::uint32_t k = 0; s.size() < n; k += 2) s.push_back(twice[k]);
  return s;
}

std::vector<double> slopes(std::uint32_t n, double max_bias) {
  std::vector<double> out(n, std::numeric_limits<double>::quiet_NaN());
  REQUIRE(posenc::alibi_slopes(posenc::AlibiSlopesSpec{n, max_bias}, out.data()) == Status::kOk);
  return out;
}

double ulps(double got, long double want) {
  const double w = static_cast<double>(want);
  return static_cast<double>(std::fabs(static_cast<long double>(got) - want) /
                             (std::nextafter(std::fabs(w), std::numeric_limits<double>::infinity()) - std::fabs(w)));
}

}  // namespace

TEST_CASE("alibi_slopes: the paper's slopes for any head count, within 1 ulp for integer max_bias", "[alibi]") {
  const std::uint32_t n =
      GENERATE(1u, 2u, 3u, 5u, 6u, 7u, 8u, 12u, 16u, 24u, 31u, 32u, 40u, 64u, 80u, 96u, 112u, 1000u, 65536u);
  const double max_bias = GENERATE(8.0, 16.0, 0.5, 3.7);
  INFO("n " << n << ", max_bias " << max_bias);
  const std::vector<double> got = slopes(n, max_bias);
  const std::vector<long double> want = paper_slopes(n, max_bias);
  double worst = 0;
  for (std::uint32_t h = 0; h < n; ++h) worst = std::fmax(worst, ulps(got[h], want[h]));
  // With max_bias B an integer (8, 16) or a small power of two the exponent B·k/p is exact and
  // only exp2 rounds; otherwise the exponent's rounding adds up to B·ln2/2 ulps.
  const bool exact_exponent = max_bias == std::trunc(max_bias) || max_bias == 0.5;
  CHECK(worst <= (exact_exponent ? 1.0 : 1.0 + max_bias * 0.6931471805599453 / 2));
}

TEST_CASE("alibi_slopes: powers of two with max_bias 8 are exact powers of 2", "[alibi]") {
  const std::vector<double> s8 = slopes(8, 8.0);
  for (std::uint32_t h = 0; h < 8; ++h) CHECK(s8[h] == std::ldexp(1.0, -static_cast<int>(h + 1)));
  const std::vector<double> s12 = slopes(12, 8.0);
  // 12 heads: the 8-head slopes 2^-1..2^-8, then 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5.
  for (std::uint32_t h = 0; h < 8; ++h) CHECK(s12[h] == s8[h]);
  for (std::uint32_t m = 0; m < 4; ++m) CHECK(s12[8 + m] == std::exp2(-(2.0 * m + 1) / 2.0));
}

TEST_CASE("alibi_slopes and alibi_bias: the rules", "[alibi]") {
  std::vector<double> out(4, 7.0);
  CHECK(posenc::alibi_slopes({0, 8.0}, out.data()) == Status::kNumHeadsTooSmall);
  CHECK(posenc::alibi_slopes({posenc::kMaxDim + 1, 8.0}, out.data()) == Status::kNumHeadsTooLarge);
  for (const double bad :
       {0.0, -0.0, -1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()})
    CHECK(posenc::alibi_slopes({4, bad}, out.data()) == Status::kMaxBiasInvalid);
  CHECK(posenc::alibi_slopes({4, 8.0}, nullptr) == Status::kNullPointer);
  CHECK(out == std::vector<double>(4, 7.0));  // rejected calls write nothing

  using Spec = posenc::AlibiBiasSpec;
  CHECK(posenc::check(Spec{1, posenc::kMaxSeqLen, 1, 0, 8.0}) == Status::kOk);
  CHECK(posenc::check(Spec{1, posenc::kMaxSeqLen + 1, 1, 0, 8.0}) == Status::kQueryLenTooLarge);
  CHECK(posenc::check(Spec{1, 1, posenc::kMaxSeqLen + 1, 0, 8.0}) == Status::kKeyLenTooLarge);
  CHECK(posenc::check(Spec{1, 4, 4, posenc::kMaxPosition, 8.0}) == Status::kOk);
  CHECK(posenc::check(Spec{1, 4, 4, -posenc::kMaxPosition, 8.0}) == Status::kOk);
  CHECK(posenc::check(Spec{1, 4, 4, posenc::kMaxPosition + 1, 8.0}) == Status::kAlibiOffsetInvalid);
  CHECK(posenc::check(Spec{1, 4, 4, -posenc::kMaxPosition - 1, 8.0}) == Status::kAlibiOffsetInvalid);
  CHECK(posenc::check(Spec{16, 4096, 4096, 0, 8.0}) == Status::kOk);  // 2^28 elements: the limit
  CHECK(posenc::check(Spec{17, 4096, 4096, 0, 8.0}) == Status::kSizeTooLarge);
  CHECK(posenc::check(Spec{posenc::kMaxDim, posenc::kMaxSeqLen, posenc::kMaxSeqLen, 0, 8.0}) == Status::kSizeTooLarge);
  CHECK(posenc::check(Spec{0, 4, 4, 0, 8.0}) == Status::kNumHeadsTooSmall);
  CHECK(posenc::check(Spec{2, 4, 4, 0, -2.0}) == Status::kMaxBiasInvalid);
  CHECK(posenc::alibi_bias(Spec{2, 0, 5, 0, 8.0}, nullptr) == Status::kOk);  // nothing to write
  CHECK(posenc::alibi_bias(Spec{2, 3, 5, 0, 8.0}, nullptr) == Status::kNullPointer);
  std::vector<float> bias(4, 9.0f);
  CHECK(posenc::alibi_bias(Spec{1, 2, 2, posenc::kMaxPosition + 1, 8.0}, bias.data()) == Status::kAlibiOffsetInvalid);
  CHECK(bias == std::vector<float>(4, 9.0f));
}

TEST_CASE("alibi_bias: slope · (j − (offset + i)), rounded once, against the reference", "[alibi]") {
  const std::uint32_t heads = GENERATE(1u, 3u, 8u, 12u);
  const std::uint32_t query_len = GENERATE(1u, 5u, 37u);
  const std::uint32_t key_len = GENERATE(1u, 7u, 37u, 70u);
  const std::int64_t offset = GENERATE(0, 33, -4, 2147483647 - 40);
  const double max_bias = GENERATE(8.0, 16.0);
  INFO(heads << " heads, " << query_len << " x " << key_len << ", offset " << offset << ", max_bias " << max_bias);
  const std::size_t n = std::size_t{heads} * query_len * key_len;
  Guarded<float> out(n, 1);
  REQUIRE(posenc::alibi_bias({heads, query_len, key_len, offset, max_bias}, out.data()) == Status::kOk);
  CHECK(out.guards_intact());
  const std::vector<long double> s = paper_slopes(heads, max_bias);
  const std::vector<double> s64 = slopes(heads, max_bias);
  long double worst = 0;  // relative to the exact value, in float32 ulps (2^-23)
  std::size_t bits_off = 0;
  for (std::uint32_t h = 0; h < heads; ++h)
    for (std::uint32_t i = 0; i < query_len; ++i)
      for (std::uint32_t j = 0; j < key_len; ++j) {
        const std::int64_t distance = static_cast<std::int64_t>(j) - (offset + i);
        const float got = out.data()[(std::size_t{h} * query_len + i) * key_len + j];
        const long double exact = s[h] * static_cast<long double>(distance);
        if (exact != 0)
          worst = std::fmax(worst, std::fabs((got - exact) / exact) * 0x1p23L);
        else
          CHECK(same_bits(got, 0.0f));
        // Bit for bit the float64 product of the float64 slope, rounded to float32.
        bits_off += !same_bits(got, static_cast<float>(s64[h] * static_cast<double>(distance)));
      }
  CHECK(bits_off == 0);
  CHECK(worst <= 0.5000001L);  // the one float32 rounding (the float64 error is 2^-29 of that)
}

TEST_CASE("alibi_bias equals the paper's matrix, and is BLOOM's per-key form up to a per-row constant", "[alibi]") {
  // The paper's decoder adds slope · (j − i) below the diagonal (self-attention, offset 0), in
  // float64: bias[i][j] − slope · j depends on the row only, so softmax rows agree with BLOOM's
  // slope · j per key.
  const std::uint32_t heads = 6, len = 33;
  std::vector<float> out(std::size_t{heads} * len * len);
  REQUIRE(posenc::alibi_bias({heads, len, len, 0, 8.0}, out.data()) == Status::kOk);
  const std::vector<double> s = slopes(heads, 8.0);
  for (std::uint32_t h = 0; h < heads; ++h)
    for (std::uint32_t i = 0; i < len; ++i) {
      const float* row = out.data() + (std::size_t{h} * len + i) * len;
      for (std::uint32_t j = 0; j <= i; ++j)
        CHECK(same_bits(row[j], static_cast<float>(s[h] * (static_cast<double>(j) - i))));
      // softmax(row) == softmax(slope · j) over the causal prefix, in float64.
      double z_ours = 0, z_bloom = 0;
      for (std::uint32_t j = 0; j <= i; ++j) {
        z_ours += std::exp(static_cast<double>(row[j]));
        z_bloom += std::exp(s[h] * j);
      }
      for (std::uint32_t j = 0; j <= i; ++j) {
        const double p_ours = std::exp(static_cast<double>(row[j])) / z_ours;
        const double p_bloom = std::exp(s[h] * j) / z_bloom;
        CHECK(std::fabs(p_ours - p_bloom) <= 1e-5 * p_bloom);  // float32 rounding of values up to 16
      }
    }
}
