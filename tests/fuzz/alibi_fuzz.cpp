// libFuzzer target: ALiBi slopes and bias (alibi.h) on fuzzer-chosen head counts, shapes,
// offsets and max_bias values (tests/fuzz/fuzz_input.h).
//
// For every input: check() agrees with the documented rules; the function returns what check()
// returned; a rejected call writes nothing. Ok (when small enough to run): every slope is in
// (0, 1] and within 2 + B·ln2/2 ulps of the long-double reference (the paper's rule: 2^(-B (h+1)/c), then
// 2^(-B (2m+1)/(2c))); every bias value is the float64 product slope · (j − (offset + i)) rounded
// once to float32, bit for bit, and its sign is that of the distance (+0 on the diagonal). Buffers are allocated to
// their exact sizes, so AddressSanitizer sees any stray access.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "fuzz_expect.h"
#include "fuzz_input.h"
#include "posenc/alibi.h"

namespace {

using namespace fuzz;
using posenc::Status;

constexpr std::uint32_t kMaxSmall = 300;
constexpr std::uint64_t kRunElements = 1 << 15;

std::int64_t decode_offset(FuzzInput& in) {
  const std::int64_t max = posenc::kMaxPosition;
  const std::int64_t table[] = {0,
                                1,
                                -1,
                                33,
                                -1000,
                                max,
                                max + 1,
                                -max,
                                -max - 1,
                                std::numeric_limits<std::int64_t>::min(),
                                std::numeric_limits<std::int64_t>::max(),
                                std::int64_t{1} << 40};
  const std::uint8_t t = in.byte();
  return t < sizeof table / sizeof table[0] ? table[t] : in.i32();
}

long double reference_slope(std::uint32_t h, std::uint32_t n, long double max_bias) {
  std::uint32_t closest = 1;
  while (closest * 2ull <= n) closest *= 2;
  if (h < closest) return std::exp2(-max_bias * (h + 1) / closest);
  return std::exp2(-max_bias * (2.0L * (h - closest) + 1) / (2.0L * closest));
}

void expect_slopes(const std::vector<double>& got, std::uint32_t n, double max_bias) {
  for (std::uint32_t h = 0; h < n; ++h) {
    const long double want = reference_slope(h, n, max_bias);
    const long double error = std::fabs(static_cast<long double>(got[h]) - want);
    FUZZ_EXPECT(got[h] >= 0.0 && got[h] <= 1.0, "slope %u of %u (max_bias %g) is %g", h, n, max_bias, got[h]);
    // exp2's rounding, plus the exponent's when B·k/p is inexact (up to B·ln2/2 ulps: alibi.h).
    const long double ulps = 2.0L + 0.35L * max_bias;
    FUZZ_EXPECT(error <= ulps * 0x1p-52L * want + 0x1p-1073L, "slope %u of %u (max_bias %g): %.17g, reference %.20Lg",
                h, n, max_bias, got[h], want);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  const bool bias = in.byte() % 2 == 1;
  posenc::AlibiBiasSpec spec;
  spec.num_heads = in.size(kMaxSmall);
  spec.max_bias = in.base();
  if (bias) {
    spec.query_len = in.size(kMaxSmall);
    spec.key_len = in.size(kMaxSmall);
    spec.offset = decode_offset(in);
  }

  Rules rules;
  rules.require(spec.num_heads >= 1, Status::kNumHeadsTooSmall);
  rules.require(spec.num_heads <= posenc::kMaxDim, Status::kNumHeadsTooLarge);
  rules.require(std::isfinite(spec.max_bias) && spec.max_bias > 0, Status::kMaxBiasInvalid);
  if (!bias) {
    const posenc::AlibiSlopesSpec slopes_spec{spec.num_heads, spec.max_bias};
    const Status checked = posenc::check(slopes_spec);
    rules.expect_agrees("alibi_slopes", checked);
    const bool run = checked != Status::kOk || spec.num_heads <= kRunElements;
    if (!run) return 0;
    std::vector<double> out(checked == Status::kOk ? spec.num_heads : 4, static_cast<double>(sentinel()));
    const Status status = posenc::alibi_slopes(slopes_spec, out.data());
    FUZZ_EXPECT(status == checked, "alibi_slopes returned '%s', check() '%s'", posenc::status_name(status),
                posenc::status_name(checked));
    if (status != Status::kOk) {
      for (const double v : out) FUZZ_EXPECT(same_value(v, static_cast<double>(sentinel())), "a rejected call wrote");
      return 0;
    }
    expect_slopes(out, spec.num_heads, spec.max_bias);
    return 0;
  }

  rules.require(spec.query_len <= posenc::kMaxSeqLen, Status::kQueryLenTooLarge);
  rules.require(spec.key_len <= posenc::kMaxSeqLen, Status::kKeyLenTooLarge);
  rules.require(spec.offset >= -posenc::kMaxPosition && spec.offset <= posenc::kMaxPosition,
                Status::kAlibiOffsetInvalid);
  rules.require(fits(product(spec.num_heads, spec.query_len, spec.key_len)), Status::kSizeTooLarge);
  const Status checked = posenc::check(spec);
  rules.expect_agrees("alibi_bias", checked);

  const unsigned __int128 elements = product(spec.num_heads, spec.query_len, spec.key_len);
  if (checked == Status::kOk && elements > kRunElements) return 0;
  const std::size_t n = checked == Status::kOk ? static_cast<std::size_t>(elements) : 16;
  std::vector<float> out(n, sentinel());
  const Status status = posenc::alibi_bias(spec, out.data());
  FUZZ_EXPECT(status == checked, "alibi_bias returned '%s', check() '%s'", posenc::status_name(status),
              posenc::status_name(checked));
  if (status != Status::kOk) {
    FUZZ_EXPECT(untouched(out), "a rejected alibi_bias call wrote");
    return 0;
  }
  if (elements == 0) return 0;  // (the loops below would still walk num_heads · query_len empty rows)
  std::vector<double> slopes(spec.num_heads);
  FUZZ_EXPECT(posenc::alibi_slopes({spec.num_heads, spec.max_bias}, slopes.data()) == Status::kOk,
              "alibi_slopes refused what alibi_bias took");
  expect_slopes(slopes, spec.num_heads, spec.max_bias);
  for (std::uint32_t h = 0; h < spec.num_heads; ++h)
    for (std::uint32_t i = 0; i < spec.query_len; ++i)
      for (std::uint32_t j = 0; j < spec.key_len; ++j) {
        const std::int64_t distance = static_cast<std::int64_t>(j) - (spec.offset + i);
        const float got = out[(std::size_t{h} * spec.query_len + i) * spec.key_len + j];
        const float want = static_cast<float>(slopes[h] * static_cast<double>(distance));
        FUZZ_EXPECT(same_value(got, want), "bias[%u][%u][%u] = %.9g, want %.9g (slope %.17g, distance %lld)", h, i, j,
                    got, want, slopes[h], static_cast<long long>(distance));
        // The sign of the distance (−0 where a tiny slope underflows), and +0 on the diagonal.
        const bool sign_ok = distance > 0   ? !std::signbit(got)
                             : distance < 0 ? std::signbit(got)
                                            : same_value(got, 0.0f);
        FUZZ_EXPECT(std::isfinite(got) && sign_ok, "bias[%u][%u][%u] = %g has the wrong sign for distance %lld", h, i,
                    j, got, static_cast<long long>(distance));
      }
  return 0;
}
