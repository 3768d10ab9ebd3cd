// libFuzzer target: attention scores (attention_scores.h) on fuzzer-chosen shapes, encodings,
// offsets, scales, masks and data (tests/fuzz/fuzz_input.h), hostile values included.
//
// For every input: check() agrees with the documented rules; the function returns what check()
// returned; a rejected call writes nothing. Ok (when small enough to run): masked keys are
// −infinity (raw) or +0 (softmax); a row with no key left is all +0, never NaN; where a row's
// scores are finite, its weights lie in [0, 1], sum to 1 and are the softmax of the call's own
// raw scores within float32 exp's bound; for the encodings that leave q and k as they are (none,
// alibi, t5) each finite raw score is within (head_dim + 16) u |scale| |q| |k| + u |bias| of the
// long-double scale · q·k + bias. Buffers are allocated to their exact sizes (AddressSanitizer).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "fuzz_expect.h"
#include "fuzz_input.h"
#include "posenc/alibi.h"
#include "posenc/attention_scores.h"
#include "posenc/relative_position_buckets.h"

namespace {

using namespace fuzz;
using posenc::AttentionEncoding;
using posenc::Status;

constexpr std::uint64_t kRunElements = 1 << 14;
constexpr long double kU = 0x1p-24L;

std::int64_t decode_offset(FuzzInput& in) {
  const std::int64_t max = posenc::kMaxPosition;
  const std::int64_t table[] = {0, 1, -1, -5, 40, 100000, max, max - 3, max + 1, -max, -max - 1, 1ll << 40};
  const std::uint8_t t = in.byte();
  return t < sizeof table / sizeof table[0] ? table[t] : in.i32();
}

// The rules of check(), as attention_scores.h states them (the encodings' own: their checks').
void require_rules(Rules& rules, const posenc::AttentionScoresSpec& s) {
  using E = AttentionEncoding;
  rules.require(s.num_heads >= 1, Status::kNumHeadsTooSmall);
  rules.require(s.num_heads <= posenc::kMaxDim, Status::kNumHeadsTooLarge);
  rules.require(s.query_len <= posenc::kMaxSeqLen, Status::kQueryLenTooLarge);
  rules.require(s.key_len <= posenc::kMaxSeqLen, Status::kKeyLenTooLarge);
  rules.require(s.head_dim >= 1, Status::kHeadDimTooSmall);
  rules.require(s.head_dim <= posenc::kMaxDim, Status::kHeadDimTooLarge);
  const int e = static_cast<int>(s.encoding);
  rules.require(e >= 0 && e <= 5, Status::kEncodingInvalid);
  rules.require(s.order == posenc::RopeOrder::kTokens || s.order == posenc::RopeOrder::kHeads, Status::kOrderInvalid);
  rules.require(s.offset >= -posenc::kMaxPosition && s.offset <= posenc::kMaxPosition, Status::kAlibiOffsetInvalid);
  rules.require(std::isfinite(s.scale), Status::kScaleInvalid);
  rules.require(fits(product(s.num_heads, s.query_len, s.head_dim)) &&
                    fits(product(s.num_heads, s.key_len, s.head_dim)) &&
                    fits(product(s.num_heads, s.query_len, s.key_len)),
                Status::kSizeTooLarge);
  rules.require(s.encoding == E::kT5 || s.bias == nullptr, Status::kBiasUnused);
  const bool rotates = s.encoding == E::kRope || s.encoding == E::kXpos;
  if (s.encoding == E::kSinusoidal || rotates) {
    rules.require(s.encoding != E::kSinusoidal || s.head_dim % 2 == 0, Status::kHeadDimOdd);
    rules.require(!rotates || s.head_dim >= 2, Status::kHeadDimTooSmall);
    rules.require(s.offset >= 0, Status::kEncodedOffsetNegative);
    rules.require(s.offset + static_cast<std::int64_t>(s.query_len) - 1 <= posenc::kMaxPosition || s.query_len == 0,
                  Status::kOffsetTooLarge);
    require_base(rules, s.base);  // (and the encoding's own rules on rotary_dim and layout:)
    for (const Status other : {Status::kRotaryDimOdd, Status::kRotaryDimTooSmall, Status::kRotaryDimTooLarge,
                               Status::kLayoutInvalid, Status::kBaseInvalid})
      rules.may_reject(true, other);
    // xPos: a row beyond reach of the center (xpos_max_distance; the default xpos spec is valid).
    rules.may_reject(s.encoding == E::kXpos, Status::kXposDistanceTooLarge);
  }
  if (s.encoding == E::kAlibi) rules.require(std::isfinite(s.max_bias) && s.max_bias > 0, Status::kMaxBiasInvalid);
  if (s.encoding == E::kT5) {
    rules.require(s.bias != nullptr, Status::kBiasMissing);
    const std::uint32_t half = s.bidirectional ? s.num_buckets / 2 : s.num_buckets;
    rules.require(half / 2 >= 1, Status::kNumBucketsTooSmall);
    rules.require(s.num_buckets <= posenc::kMaxDim, Status::kNumBucketsTooLarge);
    rules.require(s.max_distance > half / 2, Status::kMaxDistanceTooSmall);
    rules.require(s.bias_count == std::uint64_t{s.num_buckets} * s.num_heads, Status::kBiasLength);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  posenc::AttentionScoresSpec s;
  const std::uint8_t e = in.byte();
  const int bad_encodings[] = {6, -1, std::numeric_limits<int>::min(), std::numeric_limits<int>::max(), 256};
  s.encoding = static_cast<AttentionEncoding>(e % 8 < 6 ? e % 8 : bad_encodings[e % 5]);
  s.num_heads = in.size(6);
  s.query_len = in.size(12);
  s.key_len = in.size(24);
  s.head_dim = in.size(20);
  s.offset = decode_offset(in);
  s.scale = in.value();
  const std::uint8_t flags = in.byte();
  s.causal = (flags & 1) != 0;
  s.order = static_cast<posenc::RopeOrder>(in.enum_value());
  s.base = in.base();
  s.sinusoidal_layout = static_cast<posenc::SinusoidalLayout>(in.enum_value());
  s.rope_layout = static_cast<posenc::RopeLayout>(in.enum_value());
  s.rotary_dim = in.size(20);
  s.max_bias = in.base();
  s.num_buckets = in.size(40);
  s.max_distance = in.size(200);
  s.bidirectional = (flags & 2) != 0;
  // T5's table: given (of its length, or one off) for t5, given by mistake otherwise when flag 8.
  std::vector<float> table;
  const bool table_given = s.encoding == AttentionEncoding::kT5 ? (flags & 4) == 0 : (flags & 8) != 0;
  if (table_given) {
    const std::uint64_t want = std::min<std::uint64_t>(std::uint64_t{s.num_buckets} * s.num_heads, 1 << 16);
    table = in.array<float>(static_cast<std::size_t>(want + ((flags & 16) != 0 ? 1 : 0)));
    s.bias = table.data();
    s.bias_count = table.size();
    if (table.empty()) s.bias = reinterpret_cast<const float*>(&s);  // non-null, never read
  }

  Rules rules;
  require_rules(rules, s);
  const Status checked = posenc::check(s);
  rules.expect_agrees("attention_scores", checked);

  const unsigned __int128 q_count = product(s.num_heads, s.query_len, s.head_dim);
  const unsigned __int128 k_count = product(s.num_heads, s.key_len, s.head_dim);
  const unsigned __int128 out_count = product(s.num_heads, s.query_len, s.key_len);
  if (checked == Status::kOk && (q_count > kRunElements || k_count > kRunElements || out_count > kRunElements))
    return 0;
  const bool ok = checked == Status::kOk;
  const std::vector<float> q = in.array<float>(ok ? static_cast<std::size_t>(q_count) : 4);
  const std::vector<float> k = in.array<float>(ok ? static_cast<std::size_t>(k_count) : 4);
  std::vector<float> raw(ok ? static_cast<std::size_t>(out_count) : 16, sentinel());
  const Status status = posenc::attention_scores(s, q.data(), k.data(), raw.data());
  FUZZ_EXPECT(status == checked, "attention_scores returned '%s', check() '%s'", posenc::status_name(status),
              posenc::status_name(checked));
  if (status != Status::kOk) {
    FUZZ_EXPECT(untouched(raw), "a rejected attention_scores call wrote");
    return 0;
  }
  posenc::AttentionScoresSpec soft = s;
  soft.softmax = true;
  std::vector<float> weights(raw.size(), sentinel());
  FUZZ_EXPECT(posenc::attention_scores(soft, q.data(), k.data(), weights.data()) == Status::kOk,
              "softmax refused what raw took");

  const std::size_t rows = s.query_len, cols = s.key_len, dim = s.head_dim, heads = s.num_heads;
  const bool plain = s.encoding == AttentionEncoding::kNone || s.encoding == AttentionEncoding::kAlibi ||
                     s.encoding == AttentionEncoding::kT5;
  std::vector<double> slopes(heads);
  if (s.encoding == AttentionEncoding::kAlibi) posenc::alibi_slopes({s.num_heads, s.max_bias}, slopes.data());
  posenc::RelativePositionBucketsSpec buckets_spec;
  buckets_spec.num_buckets = s.num_buckets;
  buckets_spec.max_distance = s.max_distance;
  buckets_spec.bidirectional = s.bidirectional;
  for (std::size_t h = 0; h < heads; ++h) {
    for (std::size_t i = 0; i < rows; ++i) {
      const float* r = raw.data() + (h * rows + i) * cols;
      const float* w = weights.data() + (h * rows + i) * cols;
      const std::int64_t last = s.offset + static_cast<std::int64_t>(i);
      const std::size_t seen = !s.causal ? cols : last < 0 ? 0 : std::min<std::size_t>(cols, last + 1);
      bool finite = true;
      float max = -std::numeric_limits<float>::infinity();
      for (std::size_t j = 0; j < cols; ++j) {
        if (j >= seen) {
          FUZZ_EXPECT(r[j] == -std::numeric_limits<float>::infinity(), "masked raw [%zu][%zu][%zu] = %g", h, i, j,
                      r[j]);
          FUZZ_EXPECT(same_value(w[j], 0.0f), "masked weight [%zu][%zu][%zu] = %g", h, i, j, w[j]);
          continue;
        }
        finite = finite && std::isfinite(r[j]);
        max = std::max(max, r[j]);
        if (!plain || !std::isfinite(r[j])) continue;
        // the long-double score of q and k as given
        const std::size_t q_at = s.order == posenc::RopeOrder::kHeads ? (h * rows + i) * dim : (i * heads + h) * dim;
        const std::size_t k_at = s.order == posenc::RopeOrder::kHeads ? (h * cols + j) * dim : (j * heads + h) * dim;
        long double dot = 0, qq = 0, kk = 0;
        for (std::size_t c = 0; c < dim; ++c) {
          dot += static_cast<long double>(q[q_at + c]) * k[k_at + c];
          qq += static_cast<long double>(q[q_at + c]) * q[q_at + c];
          kk += static_cast<long double>(k[k_at + c]) * k[k_at + c];
        }
        const std::int64_t n = static_cast<std::int64_t>(j) - last;
        long double bias = 0;
        if (s.encoding == AttentionEncoding::kAlibi) bias = static_cast<long double>(slopes[h]) * n;
        if (s.encoding == AttentionEncoding::kT5)
          bias = table[static_cast<std::size_t>(posenc::relative_position_bucket_formula(buckets_spec, n)) * heads + h];
        const long double want = static_cast<long double>(s.scale) * dot + bias;
        const long double bound =
            (dim + 16) * kU * std::fabs(static_cast<long double>(s.scale)) * std::sqrt(qq * kk) + kU * std::fabs(bias) +
            (dim + 1) * 0x1p-149L * (1 + std::fabs(static_cast<long double>(s.scale)));  // underflow
        if (std::isfinite(static_cast<double>(want)) && std::fabs(want) < 1e38L)
          FUZZ_EXPECT(std::fabs(r[j] - want) <= bound, "raw [%zu][%zu][%zu] = %.9g, reference %.12Lg (bound %Lg)", h, i,
                      j, r[j], want, bound);
      }
      if (seen == 0) continue;  // (checked above: every weight +0)
      if (!finite) continue;
      long double sum = 0, total = 0;
      for (std::size_t j = 0; j < seen; ++j) sum += std::exp(static_cast<long double>(r[j]) - max);
      for (std::size_t j = 0; j < seen; ++j) {
        const long double want = std::exp(static_cast<long double>(r[j]) - max) / sum;
        const long double bound =
            want * (std::fabs(static_cast<long double>(r[j]) - max) + 4 + seen * 0x1p-29L) * kU + 0x1p-126L;
        FUZZ_EXPECT(w[j] >= 0.0f && w[j] <= 1.0f && std::fabs(w[j] - want) <= bound,
                    "weight [%zu][%zu][%zu] = %.9g, softmax of the raw row %.12Lg", h, i, j, w[j], want);
        total += w[j];
      }
      FUZZ_EXPECT(std::fabs(total - 1) <= (seen + 4) * kU, "row [%zu][%zu] sums to %.12Lg", h, i, total);
    }
  }
  return 0;
}
