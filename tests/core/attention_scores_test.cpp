// Attention scores (attention_scores.h) against a long-double reference written from the
// formulas: q and k encoded exactly (sinusoidal table added, rotation by exact angles), dot
// products, scale and bias (ALiBi's slope · distance with the paper's slopes, T5's table at
// transformers' bucket) in long double; softmax from the call's own raw scores, so that its
// arithmetic (float32 exp) is measured on its own. Then the properties that tie the encodings
// to each other: alibi = none + bias, t5 = none + table[bucket] bit for bit, rope scores of
// constant rows depend on i − j only, causal masks, tokens order = heads order. And the golden
// vectors of scripts/make_golden_attention_scores.py (transformers' LLaMA rope, BLOOM alibi, T5
// bias, run by torch in float64).
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "golden_json.h"
#include "posenc/posenc.h"
#include "reference.h"
#include "test_support.h"

namespace {

using namespace test_support;
using posenc::AttentionEncoding;
using posenc::AttentionScoresSpec;
using posenc::Status;
using reference::Real;

constexpr Real kEps32 = 0x1p-24L;

struct Inputs {
  std::vector<float> q, k, bias;
};

Inputs inputs(const AttentionScoresSpec& s, std::uint32_t seed) {
  Inputs in{random_floats(std::size_t{s.num_heads} * s.query_len * s.head_dim, seed),
            random_floats(std::size_t{s.num_heads} * s.key_len * s.head_dim, seed + 1),
            {}};
  if (s.encoding == AttentionEncoding::kT5)
    in.bias = random_floats(std::size_t{s.num_buckets} * s.num_heads, seed + 2, -4.0f, 4.0f);
  return in;
}

std::vector<float> run(AttentionScoresSpec s, const Inputs& in, Status* status = nullptr) {
  if (s.encoding == AttentionEncoding::kT5) {
    s.bias = in.bias.data();
    s.bias_count = in.bias.size();
  }
  std::vector<float> out(std::size_t{s.num_heads} * s.query_len * s.key_len, sentinel<float>());
  const Status st = posenc::attention_scores(s, in.q.data(), in.k.data(), out.data());
  if (status != nullptr)
    *status = st;
  else
    REQUIRE(st == Status::kOk);
  return out;
}

// transformers' T5Attention._relative_position_bucket, restated (the log in float32, as torch).
std::int32_t t5_bucket(std::int64_t n, std::uint32_t num_buckets, std::uint32_t max_distance, bool bidirectional) {
  std::int32_t bucket = 0;
  if (bidirectional) {
    num_buckets /= 2;
    if (n > 0) bucket += static_cast<std::int32_t>(num_buckets);
    n = n < 0 ? -n : n;
  } else {
    n = n < 0 ? -n : 0;
  }
  const std::uint32_t max_exact = num_buckets / 2;
  if (n < max_exact) return bucket + static_cast<std::int32_t>(n);
  const float ratio = static_cast<float>(std::log(static_cast<float>(n) / static_cast<float>(max_exact)));
  const float span = static_cast<float>(std::log(static_cast<float>(max_distance) / static_cast<float>(max_exact)));
  const auto large = static_cast<std::int64_t>(ratio / span * static_cast<float>(num_buckets - max_exact));
  return bucket + static_cast<std::int32_t>(std::min<std::int64_t>(max_exact + large, num_buckets - 1));
}

// The paper's slopes (alibi_test.cpp states them recursively; here the closed form).
Real alibi_slope(std::uint32_t h, std::uint32_t n, Real max_bias) {
  std::uint32_t closest = 1;
  while (closest * 2 <= n) closest *= 2;
  if (h < closest) return std::exp2(-max_bias * (h + 1) / closest);
  return std::exp2(-max_bias * (2 * (h - closest) + 1) / (2 * closest));
}

// One side's rows encoded exactly: [heads, rows, dim].
std::vector<Real> encoded(const AttentionScoresSpec& s, const std::vector<float>& x, std::uint32_t rows,
                          std::int64_t first) {
  std::vector<Real> out(x.begin(), x.end());
  const std::size_t dim = s.head_dim;
  const auto positions = reference::consecutive(first, rows);
  if (s.encoding == AttentionEncoding::kSinusoidal) {
    const auto layout = s.sinusoidal_layout == posenc::SinusoidalLayout::kInterleaved
                            ? reference::TableLayout::kInterleaved
                            : reference::TableLayout::kConcat;
    const std::vector<Real> table = reference::sinusoidal(positions, dim, s.base, layout);
    for (std::size_t h = 0; h < s.num_heads; ++h)
      for (std::size_t e = 0; e < rows * dim; ++e) out[h * rows * dim + e] += table[e];
  } else if (s.encoding == AttentionEncoding::kRope) {
    const std::size_t rotary = s.rotary_dim;
    const auto pairing =
        s.rope_layout == posenc::RopeLayout::kHalf ? reference::Pairing::kHalf : reference::Pairing::kInterleaved;
    for (std::size_t h = 0; h < s.num_heads; ++h) {
      const std::vector<float> head(x.begin() + h * rows * dim, x.begin() + (h + 1) * rows * dim);
      const std::vector<Real> turned =
          reference::rope(head, reference::RopeShape{rows, 1, dim, rotary}, positions, s.base, pairing);
      std::copy(turned.begin(), turned.end(), out.begin() + h * rows * dim);
    }
  }
  return out;
}

struct Reference {
  std::vector<Real> scores;  // raw, unmasked
  std::vector<Real> bound;   // float32 error allowed for each: (dim + 16) eps · scale · |q| |k| + eps |bias|
};

Reference reference_scores(const AttentionScoresSpec& s, const Inputs& in) {
  const std::size_t heads = s.num_heads, rows = s.query_len, cols = s.key_len, dim = s.head_dim;
  const std::vector<Real> q = encoded(s, in.q, s.query_len, s.offset), k = encoded(s, in.k, s.key_len, 0);
  Reference r{std::vector<Real>(heads * rows * cols), std::vector<Real>(heads * rows * cols)};
  for (std::size_t h = 0; h < heads; ++h)
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < cols; ++j) {
        const Real* qi = q.data() + (h * rows + i) * dim;
        const Real* kj = k.data() + (h * cols + j) * dim;
        const std::int64_t n = static_cast<std::int64_t>(j) - (s.offset + static_cast<std::int64_t>(i));
        Real bias = 0;
        if (s.encoding == AttentionEncoding::kAlibi) bias = alibi_slope(h, heads, s.max_bias) * n;
        if (s.encoding == AttentionEncoding::kT5)
          bias = in.bias[t5_bucket(n, s.num_buckets, s.max_distance, s.bidirectional) * heads + h];
        const std::size_t at = (h * rows + i) * cols + j;
        r.scores[at] = s.scale * reference::dot(qi, kj, dim) + bias;
        const Real norms = std::sqrt(reference::dot(qi, qi, dim) * reference::dot(kj, kj, dim));
        r.bound[at] = (dim + 16) * kEps32 * std::fabs(s.scale) * norms + kEps32 * std::fabs(bias) + 0x1p-140L;
      }
  return r;
}

AttentionScoresSpec spec_of(AttentionEncoding e, std::uint32_t heads, std::uint32_t rows, std::uint32_t cols,
                            std::uint32_t dim) {
  AttentionScoresSpec s;
  s.encoding = e;
  s.num_heads = heads;
  s.query_len = rows;
  s.key_len = cols;
  s.head_dim = dim;
  s.rotary_dim = dim;
  s.offset = static_cast<std::int64_t>(cols) - rows;
  s.scale = 1.0 / std::sqrt(static_cast<double>(dim));
  return s;
}

// Largest |got − want| / bound over the unmasked scores (<= 1 passes).
Real worst_ratio(const std::vector<float>& got, const Reference& want) {
  Real worst = 0;
  for (std::size_t at = 0; at < got.size(); ++at) {
    const Real ratio = std::fabs(got[at] - want.scores[at]) / want.bound[at];
    if (!(ratio <= worst)) worst = ratio;
  }
  return worst;
}

}  // namespace

TEST_CASE("attention_scores: every encoding against the long-double reference", "[attention_scores]") {
  const AttentionEncoding e = GENERATE(AttentionEncoding::kNone, AttentionEncoding::kSinusoidal,
                                       AttentionEncoding::kRope, AttentionEncoding::kAlibi, AttentionEncoding::kT5);
  // dims off the SIMD widths (tails), key/query lengths off them too, heads that are not powers of 2
  const std::uint32_t dim = GENERATE(2u, 6u, 64u, 70u);
  const std::uint32_t heads = GENERATE(1u, 3u);
  const std::uint32_t rows = GENERATE(1u, 9u), cols = GENERATE(9u, 37u);
  AttentionScoresSpec s = spec_of(e, heads, rows, cols, dim);
  if (e == AttentionEncoding::kRope && dim == 70) {
    s.rope_layout = posenc::RopeLayout::kHalf;
    s.rotary_dim = 32;  // partial rotary
  }
  if (e == AttentionEncoding::kSinusoidal && dim == 6) s.sinusoidal_layout = posenc::SinusoidalLayout::kConcat;
  if (e == AttentionEncoding::kT5) {
    s.num_buckets = 8;
    s.max_distance = 20;
    s.bidirectional = dim != 6;
  }
  INFO("encoding " << static_cast<int>(e) << ", dim " << dim << ", heads " << heads << ", " << rows << "x" << cols);
  const Inputs in = inputs(s, 7 * dim + heads);
  const Reference want = reference_scores(s, in);
  const std::vector<float> got = run(s, in);
  CHECK(worst_ratio(got, want) <= 1);
  WorstError err = worst_abs_error(got, want.scores);
  record_precision("attention scores vs long double (|q|,|k| <= 1)", err, "absolute");
}

TEST_CASE("attention_scores: beyond a training length, rope and sinusoidal at far positions", "[attention_scores]") {
  const AttentionEncoding e = GENERATE(AttentionEncoding::kSinusoidal, AttentionEncoding::kRope);
  AttentionScoresSpec s = spec_of(e, 2, 5, 7, 16);
  s.offset = 100000;  // query rows far past the keys
  const Inputs in = inputs(s, 3);
  CHECK(worst_ratio(run(s, in), reference_scores(s, in)) <= 1);
}

TEST_CASE("attention_scores: alibi is none + slope · distance, t5 none + table[bucket], bit for bit at scale 1",
          "[attention_scores]") {
  const std::uint32_t heads = 5, rows = 6, cols = 41, dim = 13;
  const std::int64_t offset = GENERATE(-3, 0, 35, 1000);
  AttentionScoresSpec none = spec_of(AttentionEncoding::kNone, heads, rows, cols, dim);
  none.scale = 1.0;
  none.offset = offset;
  const Inputs in = inputs(none, 11);
  const std::vector<float> plain = run(none, in);

  AttentionScoresSpec alibi = none;
  alibi.encoding = AttentionEncoding::kAlibi;
  alibi.max_bias = 8.0;
  std::vector<double> slopes(heads);
  REQUIRE(posenc::alibi_slopes(posenc::AlibiSlopesSpec{heads, 8.0}, slopes.data()) == Status::kOk);
  const std::vector<float> with_alibi = run(alibi, in);

  AttentionScoresSpec t5 = none;
  t5.encoding = AttentionEncoding::kT5;
  Inputs t5_in = in;
  t5_in.bias = random_floats(std::size_t{32} * heads, 5, -3.0f, 3.0f);
  const std::vector<float> with_t5 = run(t5, t5_in);

  std::size_t alibi_mismatches = 0, t5_mismatches = 0;
  for (std::size_t h = 0; h < heads; ++h)
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < cols; ++j) {
        const std::size_t at = (h * rows + i) * cols + j;
        const std::int64_t n = static_cast<std::int64_t>(j) - (offset + static_cast<std::int64_t>(i));
        const float alibi_want = static_cast<float>(static_cast<double>(plain[at]) + slopes[h] * n);
        const float t5_want =
            static_cast<float>(static_cast<double>(plain[at]) + t5_in.bias[t5_bucket(n, 32, 128, true) * heads + h]);
        alibi_mismatches += !same_bits(with_alibi[at], alibi_want);
        t5_mismatches += !same_bits(with_t5[at], t5_want);
      }
  CHECK(alibi_mismatches == 0);
  CHECK(t5_mismatches == 0);
}

TEST_CASE("attention_scores: rope scores of constant rows depend on i - j only", "[attention_scores]") {
  AttentionScoresSpec s = spec_of(AttentionEncoding::kRope, 1, 40, 40, 32);
  s.offset = 0;
  std::vector<float> v = random_floats(32, 21), w = random_floats(32, 22);
  Inputs in;
  for (std::size_t r = 0; r < 40; ++r) {
    in.q.insert(in.q.end(), v.begin(), v.end());
    in.k.insert(in.k.end(), w.begin(), w.end());
  }
  const std::vector<float> got = run(s, in);
  const Real bound = 40 * kEps32 * reference::abs_dot(v.data(), w.data(), 32) * s.scale;
  Real worst = 0;
  for (std::size_t i = 0; i < 40; ++i)
    for (std::size_t j = 0; j < 40; ++j) {
      const std::size_t d = i >= j ? i - j : 0;
      if (i < j) continue;
      worst = std::max<Real>(worst, std::fabs(static_cast<Real>(got[i * 40 + j]) - got[d * 40]));
    }
  CHECK(worst <= bound);
}

TEST_CASE("attention_scores: softmax from the raw scores, with float32 exp, rows summing to 1", "[attention_scores]") {
  const AttentionEncoding e = GENERATE(AttentionEncoding::kNone, AttentionEncoding::kRope, AttentionEncoding::kAlibi);
  const std::uint32_t cols = GENERATE(1u, 5u, 64u, 131u);
  AttentionScoresSpec s = spec_of(e, 2, 7, cols, 24);
  s.causal = GENERATE(false, true);
  if (s.offset < 0 && e == AttentionEncoding::kRope) s.offset = 0;  // rope places rows at positions >= 0
  Inputs in = inputs(s, 31);
  for (float& x : in.q) x *= 6.0f;  // scores spread over tens: exp's argument range matters
  const std::vector<float> raw = run(s, in);
  s.softmax = true;
  const std::vector<float> weights = run(s, in);
  WorstError err;
  Real worst_sum = 0;
  for (std::size_t row = 0; row < 2 * 7; ++row) {
    const float* r = raw.data() + row * cols;
    const float* w = weights.data() + row * cols;
    Real m = -INFINITY, sum = 0, total = 0;
    for (std::size_t j = 0; j < cols; ++j)
      if (!std::isinf(r[j])) m = std::max<Real>(m, r[j]);
    for (std::size_t j = 0; j < cols; ++j) sum += std::isinf(r[j]) ? 0 : std::exp(static_cast<Real>(r[j]) - m);
    for (std::size_t j = 0; j < cols; ++j) {
      total += w[j];
      if (std::isinf(r[j])) {  // masked
        CHECK(same_bits(w[j], 0.0f));
        continue;
      }
      const Real want = std::exp(static_cast<Real>(r[j]) - m) / sum;
      // float32 exp of a float32 difference: (|s - max| + 4) eps relative, plus the sum's rounding
      const Real bound = want * (std::fabs(r[j] - m) + 4 + cols * 0x1p-29L) * kEps32 + 0x1p-126L;
      CHECK(std::fabs(w[j] - want) <= bound);
      err.update(std::fabs(w[j] - want), row * cols + j);
    }
    worst_sum = std::max<Real>(worst_sum, std::fabs(total - (std::isinf(m) ? 0 : 1)));
  }
  CHECK(worst_sum <= (cols + 4) * kEps32);
  record_precision("attention softmax weights vs long double (from the raw scores)", err, "absolute");
}

TEST_CASE("attention_scores: causal masks keys after offset + i; a row with none left is 0, not NaN",
          "[attention_scores]") {
  AttentionScoresSpec s = spec_of(AttentionEncoding::kAlibi, 2, 6, 4, 8);
  s.offset = -3;  // rows 0..2 see no key; row 3 sees key 0, ...
  s.causal = true;
  const Inputs in = inputs(s, 41);
  const std::vector<float> raw = run(s, in);
  s.softmax = true;
  const std::vector<float> weights = run(s, in);
  for (std::size_t h = 0; h < 2; ++h)
    for (std::int64_t i = 0; i < 6; ++i) {
      Real total = 0;
      for (std::int64_t j = 0; j < 4; ++j) {
        const std::size_t at = (h * 6 + i) * 4 + j;
        const bool masked = j > s.offset + i;
        CHECK((raw[at] == -INFINITY) == masked);
        if (masked) CHECK(same_bits(weights[at], 0.0f));
        CHECK(!std::isnan(weights[at]));
        total += weights[at];
      }
      CHECK(std::fabs(total - (s.offset + i >= 0 ? 1 : 0)) <= 8 * kEps32);
    }
}

TEST_CASE("attention_scores: an overflowing score shares the weight; NaN makes its row NaN", "[attention_scores]") {
  AttentionScoresSpec s = spec_of(AttentionEncoding::kNone, 1, 1, 3, 1);
  s.scale = 1.0;
  s.softmax = true;
  Inputs in{{3e38f}, {3e38f, 1.0f, 3e38f}, {}};  // two scores overflow to +infinity
  std::vector<float> w = run(s, in);
  CHECK(w == std::vector<float>{0.5f, 0.0f, 0.5f});
  in.k[1] = std::numeric_limits<float>::quiet_NaN();
  w = run(s, in);
  for (float x : w) CHECK(std::isnan(x));
}

TEST_CASE("attention_scores: order tokens gives the bits of order heads", "[attention_scores]") {
  const AttentionEncoding e = GENERATE(AttentionEncoding::kNone, AttentionEncoding::kSinusoidal,
                                       AttentionEncoding::kRope, AttentionEncoding::kT5);
  AttentionScoresSpec s = spec_of(e, 3, 5, 9, 10);
  const Inputs heads_in = inputs(s, 51);
  const std::vector<float> want = run(s, heads_in);
  Inputs tokens_in = heads_in;
  const auto to_tokens = [](const std::vector<float>& x, std::size_t heads, std::size_t rows, std::size_t dim) {
    std::vector<float> out(x.size());
    for (std::size_t h = 0; h < heads; ++h)
      for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < dim; ++c) out[(r * heads + h) * dim + c] = x[(h * rows + r) * dim + c];
    return out;
  };
  tokens_in.q = to_tokens(heads_in.q, 3, 5, 10);
  tokens_in.k = to_tokens(heads_in.k, 3, 9, 10);
  s.order = posenc::RopeOrder::kTokens;
  CHECK(first_difference(run(s, tokens_in), want) == want.size());
}

TEST_CASE("attention_scores: each rule names its parameter, and nothing is written", "[attention_scores]") {
  const AttentionScoresSpec good = spec_of(AttentionEncoding::kRope, 2, 3, 4, 8);
  const Inputs in = inputs(good, 61);
  const std::vector<float> t5_table(32 * 2, 0.5f);
  const auto status_of = [&](AttentionScoresSpec s) {
    std::vector<float> out(std::size_t{2} * 3 * 4, sentinel<float>());
    const Status st = posenc::attention_scores(s, in.q.data(), in.k.data(), out.data());
    CHECK(overwritten(out) == 0);
    return st;
  };
  AttentionScoresSpec s = good;
  s.num_heads = 0;
  CHECK(status_of(s) == Status::kNumHeadsTooSmall);
  s = good;
  s.query_len = posenc::kMaxSeqLen + 1;
  CHECK(status_of(s) == Status::kQueryLenTooLarge);
  s = good;
  s.key_len = posenc::kMaxSeqLen + 1;
  CHECK(status_of(s) == Status::kKeyLenTooLarge);
  s = good;
  s.head_dim = 0;
  CHECK(status_of(s) == Status::kHeadDimTooSmall);
  s = good;
  s.encoding = static_cast<AttentionEncoding>(99);
  CHECK(status_of(s) == Status::kEncodingInvalid);
  s = good;
  s.order = static_cast<posenc::RopeOrder>(7);
  CHECK(status_of(s) == Status::kOrderInvalid);
  s = good;
  s.scale = std::numeric_limits<double>::infinity();
  CHECK(status_of(s) == Status::kScaleInvalid);
  s.scale = std::numeric_limits<double>::quiet_NaN();
  CHECK(status_of(s) == Status::kScaleInvalid);
  s = good;
  s.offset = -1;
  CHECK(status_of(s) == Status::kEncodedOffsetNegative);
  s.offset = posenc::kMaxPosition + 1;
  CHECK(status_of(s) == Status::kAlibiOffsetInvalid);
  s.offset = posenc::kMaxPosition;
  CHECK(status_of(s) == Status::kOffsetTooLarge);
  s = good;
  s.rotary_dim = 3;
  CHECK(status_of(s) == Status::kRotaryDimOdd);
  s = good;
  s.encoding = AttentionEncoding::kSinusoidal;
  s.head_dim = 7;
  CHECK(status_of(s) == Status::kHeadDimOdd);
  s = good;
  s.encoding = AttentionEncoding::kAlibi;
  s.max_bias = 0;
  CHECK(status_of(s) == Status::kMaxBiasInvalid);
  s.max_bias = 8;
  s.bias = t5_table.data();
  s.bias_count = t5_table.size();
  CHECK(status_of(s) == Status::kBiasUnused);
  s = good;
  s.encoding = AttentionEncoding::kT5;
  CHECK(status_of(s) == Status::kBiasMissing);
  s.bias = t5_table.data();
  s.bias_count = t5_table.size() - 1;
  CHECK(status_of(s) == Status::kBiasLength);
  s.bias_count = t5_table.size();
  s.max_distance = 4;
  CHECK(status_of(s) == Status::kMaxDistanceTooSmall);
  s = good;
  s.num_heads = 1 << 12;
  s.query_len = 1 << 9;
  s.key_len = 1 << 9;
  CHECK(status_of(s) == Status::kSizeTooLarge);
}

TEST_CASE("attention_scores: empty shapes write nothing and accept null arrays", "[attention_scores]") {
  AttentionScoresSpec s = spec_of(AttentionEncoding::kRope, 2, 0, 4, 8);
  s.offset = 0;
  CHECK(posenc::attention_scores(s, nullptr, nullptr, nullptr) == Status::kOk);
  s.query_len = 3;
  s.key_len = 0;
  CHECK(posenc::attention_scores(s, nullptr, nullptr, nullptr) == Status::kOk);
}

TEST_CASE("attention_scores: torch's float64 scores and weights (tests/golden/attention-scores.json)",
          "[attention_scores]") {
  const golden_json::Value file = golden_json::read_golden("attention-scores.json");
  const auto floats = [](const golden_json::Value& v) {
    std::vector<float> out;
    for (const auto& x : v.array) out.push_back(static_cast<float>(x.number));
    return out;
  };
  for (const golden_json::Value& c : file["cases"].array) {
    const std::string& name = c["encoding"].string;
    const AttentionEncoding e = name == "rope"    ? AttentionEncoding::kRope
                                : name == "alibi" ? AttentionEncoding::kAlibi
                                                  : AttentionEncoding::kT5;
    const auto u32 = [&](const char* key) { return static_cast<std::uint32_t>(c[key].number); };
    AttentionScoresSpec s = spec_of(e, u32("numHeads"), u32("queryLen"), u32("keyLen"), u32("headDim"));
    s.offset = static_cast<std::int64_t>(c["offset"].number);
    Inputs in{floats(c["q"]), floats(c["k"]), {}};
    if (e == AttentionEncoding::kRope) {
      s.rope_layout = posenc::RopeLayout::kHalf;
      s.base = c["base"].number;
    }
    if (e == AttentionEncoding::kT5) {
      s.scale = 1.0;
      s.num_buckets = u32("numBuckets");
      s.max_distance = u32("maxDistance");
      s.bidirectional = c["bidirectional"].boolean;
      in.bias = floats(c["bias"]);
    }
    INFO(name << " " << s.num_heads << "x" << s.query_len << "x" << s.key_len << " offset " << s.offset);
    if (e != AttentionEncoding::kAlibi) {  // BLOOM's raw scores differ by a constant per row
      const Reference want = reference_scores(s, in);
      const std::vector<float> raw = run(s, in);
      const golden_json::Value& torch = c["scores64"];
      Real worst = 0;
      for (std::size_t at = 0; at < raw.size(); ++at)
        worst = std::max(worst, std::fabs(raw[at] - static_cast<Real>(torch[at].number)) / want.bound[at]);
      CHECK(worst <= 1);
    }
    s.causal = c["causal"].boolean;
    s.softmax = true;
    const std::vector<float> weights = run(s, in);
    const golden_json::Value& torch = c["weights64"];
    WorstError err;
    for (std::size_t at = 0; at < weights.size(); ++at) {
      const Real want = torch[at].number;
      CHECK(std::fabs(weights[at] - want) <= 1e-5L * want + 0x1p-126L);
      err.update(std::fabs(weights[at] - want), at);
    }
    record_precision("attention softmax weights vs torch float64 (golden)", err, "absolute");
  }
}
