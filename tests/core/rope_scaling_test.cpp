// Long-context scaling (rope_scaling.h) against Hugging Face's formulas, twice over: the golden
// vectors of scripts/make_golden_scaling.py (torch float64) and hf_schedules.h (the formulas
// restated in C++), on the configs of real models (tests/golden/rope-scaling.json: Llama 3.1 8B
// and 3.2 1B llama3, Qwen2.5 YaRN, DeepSeek-V3 YaRN with mscale, a truncate-false YaRN,
// Phi-3.5-mini and Phi-3-vision LongRoPE, GPT-NeoX and Phi-2 partial rotary, linear, dynamic
// below/at/above the original length). Then the attention factor in cos/sin, rope with
// scaling, the length-dependent types, partial_rotary_factor and every scaling rule's Status.
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "golden_json.h"
#include "hf_schedules.h"
#include "posenc/posenc.h"
#include "precision.h"
#include "reference.h"
#include "test_support.h"

namespace {

using posenc::RopeScaling;
using posenc::RopeScalingType;
using posenc::Status;
using namespace test_support;

constexpr double kScheduleBound = 1e-12;  // relative, float64 formulas against float64 formulas

// One golden case: the model's config as posenc takes it, and Hugging Face's as hf:: takes it.
struct ModelCase {
  std::string name;
  double base;
  std::uint32_t head_dim, rotary_dim;
  double partial_rotary_factor;  // 0: none
  RopeScaling scaling;
  std::vector<double> short_factor, long_factor;  // RopeScaling points into these
  hf::Config hf;
  std::uint32_t seq_len;
  const golden_json::Value* golden;
};

RopeScalingType type_of(const std::string& name) {
  if (name == "linear") return RopeScalingType::kLinear;
  if (name == "dynamic") return RopeScalingType::kDynamic;
  if (name == "yarn") return RopeScalingType::kYarn;
  if (name == "llama3") return RopeScalingType::kLlama3;
  if (name == "longrope") return RopeScalingType::kLongrope;
  if (name == "proportional") return RopeScalingType::kProportional;
  return RopeScalingType::kNone;
}

const golden_json::Value& golden_file() {
  static const golden_json::Value file = golden_json::read_golden("rope-scaling.json");
  return file;
}

// The cases of the golden file, with the camelCase keys translated for both sides.
const std::vector<ModelCase>& model_cases() {
  static std::vector<ModelCase> cases = [] {
    std::vector<ModelCase> out;
    for (const golden_json::Value& g : golden_file()["cases"].array) {
      ModelCase c;
      c.name = g["name"].string;
      c.base = g["base"].number;
      c.head_dim = static_cast<std::uint32_t>(g["headDim"].number);
      c.rotary_dim = static_cast<std::uint32_t>(g["rotaryDim"].number);
      c.partial_rotary_factor = g["partialRotaryFactor"].is_null() ? 0 : g["partialRotaryFactor"].number;
      c.seq_len = static_cast<std::uint32_t>(g["seqLen"].number);
      c.golden = &g;
      c.hf.rope_theta = c.base;
      c.hf.dim = static_cast<int>(c.rotary_dim);
      const golden_json::Value& s = g["scaling"];
      if (!s.is_null()) {
        c.hf.rope_type = s["type"].string;
        c.scaling.type = type_of(c.hf.rope_type);
        auto number = [&](const char* key, double fallback) { return s.has(key) ? s[key].number : fallback; };
        c.scaling.factor = c.hf.factor = number("factor", 1.0);
        if (s.has("factor")) c.hf.factor_given = s["factor"].number;
        c.scaling.has_factor = s.has("factor");
        c.scaling.original_max_position_embeddings =
            static_cast<std::uint32_t>(number("originalMaxPositionEmbeddings", 0));
        c.hf.original_max_position_embeddings = static_cast<int>(number("originalMaxPositionEmbeddings", 0));
        c.scaling.max_position_embeddings = static_cast<std::uint32_t>(number("maxPositionEmbeddings", 0));
        c.hf.max_position_embeddings = static_cast<int>(number("maxPositionEmbeddings", 0));
        if (s.has("attentionFactor"))
          c.scaling.attention_factor = *(c.hf.attention_factor = s["attentionFactor"].number);
        c.scaling.has_attention_factor = s.has("attentionFactor");
        if (s.has("betaFast")) c.scaling.beta_fast = *(c.hf.beta_fast = s["betaFast"].number);
        if (s.has("betaSlow")) c.scaling.beta_slow = *(c.hf.beta_slow = s["betaSlow"].number);
        if (s.has("mscale")) c.scaling.mscale = *(c.hf.mscale = s["mscale"].number);
        if (s.has("mscaleAllDim")) c.scaling.mscale_all_dim = *(c.hf.mscale_all_dim = s["mscaleAllDim"].number);
        if (s.has("truncate")) c.scaling.truncate = c.hf.truncate = s["truncate"].boolean;
        c.scaling.low_freq_factor = c.hf.low_freq_factor = number("lowFreqFactor", 1.0);
        c.scaling.high_freq_factor = c.hf.high_freq_factor = number("highFreqFactor", 4.0);
        if (s.has("shortFactor")) c.short_factor = c.hf.short_factor = s["shortFactor"].numbers();
        if (s.has("longFactor")) c.long_factor = c.hf.long_factor = s["longFactor"].numbers();
        c.scaling.proportion = c.hf.partial_rotary_factor = number("partialRotaryFactor", 1.0);
      }
      out.push_back(std::move(c));
    }
    for (ModelCase& c : out) {  // pointers into the vectors once they stopped moving
      c.scaling.short_factor = c.short_factor.empty() ? nullptr : c.short_factor.data();
      c.scaling.long_factor = c.long_factor.empty() ? nullptr : c.long_factor.data();
      c.scaling.short_factor_count = static_cast<std::uint32_t>(c.short_factor.size());
      c.scaling.long_factor_count = static_cast<std::uint32_t>(c.long_factor.size());
    }
    return out;
  }();
  return cases;
}

posenc::RopeScheduleSpec schedule_spec(const ModelCase& c, std::uint32_t seq_len) {
  posenc::RopeScheduleSpec spec;
  if (c.partial_rotary_factor != 0) {
    spec.head_dim = c.head_dim;
    spec.has_partial_rotary_factor = true;
    spec.partial_rotary_factor = c.partial_rotary_factor;
  } else {
    spec.rotary_dim = c.rotary_dim;
  }
  spec.base = c.base;
  spec.scaling = c.scaling;
  spec.seq_len = seq_len;
  return spec;
}

struct Computed {
  std::vector<double> inv_freq;
  double attention_factor = 0;
};

Computed posenc_schedule(const ModelCase& c, std::uint32_t seq_len) {
  Computed out{std::vector<double>(c.rotary_dim / 2, std::numeric_limits<double>::quiet_NaN()), 0};
  REQUIRE(posenc::rope_schedule(schedule_spec(c, seq_len), out.inv_freq.data(), &out.attention_factor) == Status::kOk);
  return out;
}

double relative(double got, double want) {
  return want == 0 ? std::fabs(got) : std::fabs(got - want) / std::fabs(want);
}

// Largest relative deviation of a schedule from a reference; checks each against kScheduleBound.
WorstError compare_schedule(const Computed& got, const std::vector<double>& want_inv, double want_attention) {
  WorstError worst;
  REQUIRE(got.inv_freq.size() == want_inv.size());
  for (std::size_t i = 0; i < want_inv.size(); ++i) {
    INFO("pair " << i << ": " << got.inv_freq[i] << " vs " << want_inv[i]);
    CHECK(relative(got.inv_freq[i], want_inv[i]) <= kScheduleBound);
    worst.update(relative(got.inv_freq[i], want_inv[i]), i);
  }
  INFO("attention factor " << got.attention_factor << " vs " << want_attention);
  CHECK(relative(got.attention_factor, want_attention) <= kScheduleBound);
  worst.update(relative(got.attention_factor, want_attention), want_inv.size());
  return worst;
}

}  // namespace

TEST_CASE("scaled schedules of real models match the golden vectors (Hugging Face's formulas, torch float64)",
          "[scaling]") {
  REQUIRE(model_cases().size() >= 15);
  for (const ModelCase& c : model_cases()) {
    INFO(c.name);
    const WorstError worst = compare_schedule(posenc_schedule(c, c.seq_len), (*c.golden)["invFreq"].numbers(),
                                              (*c.golden)["attentionFactor"].number);
    record_precision("scaled inv_freq and attention factor vs golden (relative)", worst, "(bound 1e-12)");
  }
}

TEST_CASE("scaled schedules of real models match Hugging Face's formulas restated in C++, at many lengths",
          "[scaling]") {
  for (const ModelCase& c : model_cases()) {
    for (const long long length :
         {0LL, 1LL, 1000LL, 2047LL, 2048LL, 2049LL, 4096LL, 4097LL, 8192LL, 32769LL, 131072LL, 2147483648LL}) {
      INFO(c.name << " at length " << length);
      const std::uint32_t seq_len = static_cast<std::uint32_t>(std::min<long long>(length, 0xffffffffLL));
      const hf::Schedule want = hf::schedule(c.hf, seq_len);
      const WorstError worst = compare_schedule(posenc_schedule(c, seq_len), want.inv_freq, want.attention_factor);
      record_precision("scaled inv_freq and attention factor vs hf_schedules.h (relative)", worst, "(bound 1e-12)");
    }
  }
}

TEST_CASE("the golden cases are what they say: scaled where they should be, unscaled where not", "[scaling]") {
  for (const ModelCase& c : model_cases()) {
    INFO(c.name);
    const std::vector<double> plain = hf::default_inv_freq(c.base, static_cast<int>(c.rotary_dim));
    const std::vector<double> got = posenc_schedule(c, c.seq_len).inv_freq;
    const bool unscaled =
        c.scaling.type == RopeScalingType::kNone ||
        (c.scaling.type == RopeScalingType::kDynamic && c.seq_len <= c.scaling.original_max_position_embeddings);
    std::size_t changed = 0;
    for (std::size_t i = 0; i < plain.size(); ++i) changed += relative(got[i], plain[i]) > 1e-12;
    if (unscaled)
      CHECK(changed == 0);
    else
      CHECK(changed > 0);
  }
}

TEST_CASE("rope_cache at the golden positions: cos and sin times the attention factor", "[scaling]") {
  for (const ModelCase& c : model_cases()) {
    INFO(c.name);
    const std::vector<double> positions = (*c.golden)["positions"].numbers();
    std::vector<std::int32_t> list(positions.begin(), positions.end());
    posenc::RopeCacheSpec spec;
    spec.seq_len = static_cast<std::uint32_t>(list.size());
    spec.rotary_dim = c.rotary_dim;
    spec.base = c.base;
    spec.scaling = c.scaling;
    const std::size_t half = c.rotary_dim / 2;
    std::vector<float> cos = sentinel_filled(list.size() * half), sin = sentinel_filled(list.size() * half);
    double attention_factor = 0;
    REQUIRE(posenc::rope_cache(spec, listed(list), cos.data(), sin.data(), &attention_factor) == Status::kOk);
    CHECK(relative(attention_factor, (*c.golden)["attentionFactor"].number) <= kScheduleBound);
    // Float32 rounding of values up to the attention factor (and the float64 angle's error).
    const double bound = kTableBound * std::max(1.0, attention_factor);
    WorstError worst;
    for (std::size_t row = 0; row < list.size(); ++row) {
      const std::vector<double> want_cos = (*c.golden)["cos"][row].numbers(),
                                want_sin = (*c.golden)["sin"][row].numbers();
      for (std::size_t i = 0; i < half; ++i) {
        INFO("position " << list[row] << " pair " << i);
        CHECK(std::fabs(cos[row * half + i] - want_cos[i]) <= bound);
        CHECK(std::fabs(sin[row * half + i] - want_sin[i]) <= bound);
        worst.update(std::fabs(cos[row * half + i] - want_cos[i]), row * half + i);
        worst.update(std::fabs(sin[row * half + i] - want_sin[i]), row * half + i);
      }
    }
    record_precision("scaled rope_cache |value - golden|", worst, "(bound: kTableBound x attention factor)");
  }
}

namespace {

// x: [seq_len, heads, head_dim] rotated by the given float64 schedule times `scale` (long double).
std::vector<reference::Real> rotate_reference(const std::vector<float>& x, std::size_t heads, std::size_t head_dim,
                                              const std::vector<std::int64_t>& positions,
                                              const std::vector<double>& inv_freq, double scale,
                                              reference::Pairing pairing) {
  const std::size_t rotary_dim = 2 * inv_freq.size();
  std::vector<reference::Real> out(x.begin(), x.end());
  for (std::size_t row = 0; row < positions.size(); ++row) {
    for (std::size_t pair = 0; pair < inv_freq.size(); ++pair) {
      reference::Real s, c;
      reference::sin_cos(static_cast<reference::Real>(positions[row]) * inv_freq[pair], &s, &c);
      s *= scale;
      c *= scale;
      const reference::PairChannels ch = reference::pair_channels(pair, rotary_dim, pairing);
      for (std::size_t h = 0; h < heads; ++h) {
        const std::size_t at = (row * heads + h) * head_dim;
        const reference::Real a = x[at + ch.a], b = x[at + ch.b];
        out[at + ch.a] = a * c - b * s;
        out[at + ch.b] = b * c + a * s;
      }
    }
  }
  return out;
}

}  // namespace

TEST_CASE("rope with scaling rotates by the scaled schedule, times the attention factor", "[scaling]") {
  for (const ModelCase& c : model_cases()) {
    for (const auto pairing : {reference::Pairing::kInterleaved, reference::Pairing::kHalf}) {
      INFO(c.name << (pairing == reference::Pairing::kHalf ? " (half)" : " (interleaved)"));
      // A run of consecutive rows ending at the case's length (the recurrence), 2 heads.
      const std::size_t rows = 40, heads = 2;
      const std::int64_t last = c.seq_len > 0 ? c.seq_len - 1 : 5000;
      const std::vector<std::int64_t> positions =
          reference::consecutive(last - static_cast<std::int64_t>(rows) + 1, rows);
      const std::vector<float> x = random_floats(rows * heads * c.head_dim, 77);
      posenc::RopeSpec spec;
      spec.seq_len = rows;
      spec.num_heads = heads;
      spec.head_dim = c.head_dim;
      spec.rotary_dim = c.rotary_dim;
      spec.base = c.base;
      spec.layout = pairing == reference::Pairing::kHalf ? posenc::RopeLayout::kHalf : posenc::RopeLayout::kInterleaved;
      spec.scaling = c.scaling;
      std::vector<float> out = x;
      REQUIRE(posenc::rope(spec, from_offset(static_cast<std::uint32_t>(positions.front())), out.data(), out.data()) ==
              Status::kOk);
      const hf::Schedule want_schedule = hf::schedule(c.hf, last + 1);
      const std::vector<reference::Real> want = rotate_reference(
          x, heads, c.head_dim, positions, want_schedule.inv_freq, want_schedule.attention_factor, pairing);
      WorstError worst;
      for (std::size_t v = 0; v < rows * heads; ++v) {
        for (std::size_t pair = 0; pair < c.rotary_dim / 2; ++pair) {
          const reference::PairChannels ch = reference::pair_channels(pair, c.rotary_dim, pairing);
          const std::size_t a = v * c.head_dim + ch.a, b = v * c.head_dim + ch.b;
          const long double scale = std::fabs(x[a]) + std::fabs(x[b]);
          for (const std::size_t at : {a, b}) {
            const long double error = std::fabs(out[at] - want[at]);
            INFO("channel " << at);
            CHECK(error <= kRopeBound * want_schedule.attention_factor * scale);
            worst.update(scale > 0 ? error / scale / want_schedule.attention_factor : 0, at);
          }
        }
        for (std::size_t ch = c.rotary_dim; ch < c.head_dim; ++ch)
          CHECK(same_bits(out[v * c.head_dim + ch], x[v * c.head_dim + ch]));
      }
      record_precision("scaled rope |x' - ref| / (af (|x_a| + |x_b|))", worst, "(bound: kRopeBound)");
    }
  }
}

namespace {

RopeScaling dynamic_scaling(double factor, std::uint32_t original) {
  RopeScaling s;
  s.type = RopeScalingType::kDynamic;
  s.factor = factor;
  s.original_max_position_embeddings = original;
  return s;
}

// cos of a [rows, rotary_dim/2] cache at the given positions.
std::vector<float> cache_cos(const RopeScaling& scaling, std::uint32_t rotary_dim, const posenc::BatchPositions& where,
                             std::uint32_t seq_len, std::uint32_t batch = 1) {
  posenc::RopeCacheSpec spec;
  spec.seq_len = seq_len;
  spec.rotary_dim = rotary_dim;
  spec.batch = batch;
  spec.scaling = scaling;
  std::vector<float> cos(std::size_t{batch} * seq_len * rotary_dim / 2), sin(cos.size());
  REQUIRE(posenc::rope_cache(spec, where, cos.data(), sin.data()) == Status::kOk);
  return cos;
}

}  // namespace

TEST_CASE("dynamic: the unscaled schedule up to the original length, a grown base beyond it", "[scaling]") {
  const RopeScaling dynamic = dynamic_scaling(2.0, 64);
  const RopeScaling none;
  // 64 rows at positions 0..63: length 64 = L0, bit-identical to no scaling.
  CHECK(first_difference(cache_cos(dynamic, 16, from_offset(0), 64), cache_cos(none, 16, from_offset(0), 64)) ==
        64 * 8);
  // One more row: the base grows, every pair but the first turns more slowly.
  const std::vector<float> grown = cache_cos(dynamic, 16, from_offset(0), 65);
  const std::vector<float> plain = cache_cos(none, 16, from_offset(0), 65);
  CHECK(first_difference(grown, plain) < grown.size());
  // The length is the largest position + 1, wherever it sits: in a list, in per-sequence offsets.
  const std::vector<std::int32_t> list = {3, 200, 7};
  hf::Config config;
  config.rope_type = "dynamic";
  config.dim = 16;
  config.factor = 2.0;
  config.original_max_position_embeddings = 64;
  const hf::Schedule at_201 = hf::schedule(config, 201);
  const std::vector<float> from_list = cache_cos(dynamic, 16, listed(list), 3);
  for (std::size_t row = 0; row < list.size(); ++row)
    for (std::size_t i = 0; i < 8; ++i)
      CHECK(std::fabs(from_list[row * 8 + i] - std::cos(static_cast<long double>(list[row]) * at_201.inv_freq[i])) <=
            kTableBound);
  const std::vector<std::int32_t> offsets = {10, 190};  // batch 2 of 11 rows: largest position 200
  const std::vector<float> from_offsets =
      cache_cos(dynamic, 16, posenc::BatchPositions{from_offset(0), offsets.data()}, 11, 2);
  for (std::size_t b = 0; b < 2; ++b)
    for (std::size_t t = 0; t < 11; ++t)
      for (std::size_t i = 0; i < 8; ++i)
        CHECK(std::fabs(from_offsets[(b * 11 + t) * 8 + i] -
                        std::cos(static_cast<long double>(offsets[b] + t) * at_201.inv_freq[i])) <= kTableBound);
}

TEST_CASE("longrope: short factors while the largest position + 1 is at most L0, long factors beyond", "[scaling]") {
  const std::vector<double> short_factor = {1.0, 2.0, 3.0, 4.0}, long_factor = {5.0, 6.0, 7.0, 8.0};
  RopeScaling s;
  s.type = RopeScalingType::kLongrope;
  s.short_factor = short_factor.data();
  s.long_factor = long_factor.data();
  s.short_factor_count = s.long_factor_count = 4;
  s.original_max_position_embeddings = 32;
  s.max_position_embeddings = 128;
  const double attention = std::sqrt(1 + std::log(4.0) / std::log(32.0));
  for (const std::uint32_t rows : {32u, 33u}) {
    INFO(rows << " rows from position 0");
    const std::vector<float> cos = cache_cos(s, 8, from_offset(0), rows);
    const std::vector<double>& ext = rows > 32 ? long_factor : short_factor;
    const std::size_t row = rows - 1;
    for (std::size_t i = 0; i < 4; ++i) {
      const long double inv = 1.0L / (ext[i] * std::pow(10000.0L, (2.0L * i) / 8));
      CHECK(std::fabs(cos[row * 4 + i] - attention * std::cos(row * inv)) <= kTableBound * attention);
    }
  }
}

TEST_CASE("the attention factor scales cos and sin: cos^2 + sin^2 = factor^2 at every position", "[scaling]") {
  RopeScaling yarn;
  yarn.type = RopeScalingType::kYarn;
  yarn.factor = 16.0;
  yarn.original_max_position_embeddings = 4096;
  const double factor = 0.1 * std::log(16.0) + 1.0;
  posenc::RopeCacheSpec spec;
  spec.seq_len = 2000;
  spec.rotary_dim = 64;
  spec.scaling = yarn;
  std::vector<float> cos(2000 * 32), sin(2000 * 32);
  double got_factor = 0;
  REQUIRE(posenc::rope_cache(spec, from_offset(60000), cos.data(), sin.data(), &got_factor) == Status::kOk);
  CHECK(relative(got_factor, factor) <= kScheduleBound);
  for (std::size_t i = 0; i < cos.size(); ++i)
    CHECK(std::fabs(std::hypot(static_cast<double>(cos[i]), static_cast<double>(sin[i])) - factor) <= 4e-7 * factor);
}

TEST_CASE("partial_rotary_factor gives Hugging Face's int(head_dim * factor)", "[scaling]") {
  struct Case {
    std::uint32_t head_dim;
    double factor;
    Status want;
    std::uint32_t rotary_dim;
  };
  const Case cases[] = {
      {96, 0.25, Status::kOk, 24},  // GPT-NeoX-20B
      {80, 0.4, Status::kOk, 32},   // Phi-2 (80 * 0.4 = 32.000000000000004 in float64)
      {128, 0.5, Status::kOk, 64},  // ChatGLM-style half rotary
      {128, 1.0, Status::kOk, 128},
      {100, 0.3, Status::kOk, 30},
      {10, 0.3, Status::kPartialRotaryFactorInvalid, 0},  // int(3.0) = 3: odd
      {8, 0.2, Status::kPartialRotaryFactorInvalid, 0},   // int(1.6) = 1
      {64, 0.0, Status::kPartialRotaryFactorInvalid, 0},
      {64, -0.5, Status::kPartialRotaryFactorInvalid, 0},
      {64, 1.5, Status::kPartialRotaryFactorInvalid, 0},
      {64, std::numeric_limits<double>::quiet_NaN(), Status::kPartialRotaryFactorInvalid, 0},
      {64, std::numeric_limits<double>::infinity(), Status::kPartialRotaryFactorInvalid, 0},
  };
  for (const Case& c : cases) {
    INFO(c.head_dim << " * " << c.factor);
    std::uint32_t rotary_dim = 0;
    CHECK(posenc::resolve_rotary_dim(c.head_dim, 999, true, c.factor, &rotary_dim) == c.want);
    if (c.want == Status::kOk) CHECK(rotary_dim == c.rotary_dim);
    // rope resolves the same way, and rotates exactly what rotary_dim would.
    posenc::RopeSpec spec;
    spec.seq_len = 3;
    spec.head_dim = c.head_dim;
    spec.has_partial_rotary_factor = true;
    spec.partial_rotary_factor = c.factor;
    std::vector<float> x = random_floats(3 * c.head_dim, 5), y = x;
    CHECK(posenc::rope(spec, from_offset(9), x.data(), x.data()) == c.want);
    if (c.want == Status::kOk) {
      posenc::RopeSpec explicit_dim = spec;
      explicit_dim.has_partial_rotary_factor = false;
      explicit_dim.rotary_dim = c.rotary_dim;
      REQUIRE(posenc::rope(explicit_dim, from_offset(9), y.data(), y.data()) == Status::kOk);
      CHECK(first_difference(x, y) == x.size());
    }
  }
}

namespace {

RopeScaling valid_of(RopeScalingType type, const std::vector<double>& list) {
  RopeScaling s;
  s.type = type;
  s.factor = 4.0;
  s.original_max_position_embeddings = 64;
  s.max_position_embeddings = 256;
  s.short_factor = s.long_factor = list.data();
  s.short_factor_count = s.long_factor_count = static_cast<std::uint32_t>(list.size());
  return s;
}

}  // namespace

TEST_CASE("every scaling rule has its Status, from rope, rope_cache and rope_schedule alike; nothing is written",
          "[scaling][status]") {
  const std::vector<double> list(4, 1.5);  // rotary_dim 8: 4 pairs
  const std::vector<double> bad_list = {1.0, 2.0, 0.0, 1.0};
  const std::vector<double> nan_list = {1.0, std::numeric_limits<double>::quiet_NaN(), 1.0, 1.0};
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  struct Case {
    const char* name;
    RopeScaling scaling;
    Status want;
    std::uint32_t rotary_dim = 8;
    double base = 10000.0;
  };
  std::vector<Case> cases;
  auto with = [&](const char* name, RopeScalingType type, Status want, auto&& edit) {
    RopeScaling s = valid_of(type, list);
    edit(s);
    cases.push_back({name, s, want});
  };
  with("type 99", RopeScalingType::kLinear, Status::kScalingTypeInvalid,
       [](RopeScaling& s) { s.type = static_cast<RopeScalingType>(99); });
  for (const RopeScalingType type :
       {RopeScalingType::kLinear, RopeScalingType::kDynamic, RopeScalingType::kYarn, RopeScalingType::kLlama3}) {
    with("factor 0.5", type, Status::kScalingFactorInvalid, [](RopeScaling& s) { s.factor = 0.5; });
    with("factor NaN", type, Status::kScalingFactorInvalid, [&](RopeScaling& s) { s.factor = nan; });
    with("factor inf", type, Status::kScalingFactorInvalid, [&](RopeScaling& s) { s.factor = inf; });
  }
  with("longrope factor 0.9 given", RopeScalingType::kLongrope, Status::kScalingFactorInvalid, [](RopeScaling& s) {
    s.has_factor = true;
    s.factor = 0.9;
  });
  for (const RopeScalingType type :
       {RopeScalingType::kDynamic, RopeScalingType::kYarn, RopeScalingType::kLlama3, RopeScalingType::kLongrope}) {
    with("original 0", type, Status::kOriginalMaxPositionInvalid,
         [](RopeScaling& s) { s.original_max_position_embeddings = 0; });
    with("original 1", type, Status::kOriginalMaxPositionInvalid,
         [](RopeScaling& s) { s.original_max_position_embeddings = 1; });
  }
  with("longrope max below original", RopeScalingType::kLongrope, Status::kMaxPositionEmbeddingsInvalid,
       [](RopeScaling& s) { s.max_position_embeddings = 63; });
  with("longrope max missing", RopeScalingType::kLongrope, Status::kMaxPositionEmbeddingsInvalid,
       [](RopeScaling& s) { s.max_position_embeddings = 0; });
  with("yarn attention factor 0", RopeScalingType::kYarn, Status::kAttentionFactorInvalid, [](RopeScaling& s) {
    s.has_attention_factor = true;
    s.attention_factor = 0;
  });
  with("longrope attention factor NaN", RopeScalingType::kLongrope, Status::kAttentionFactorInvalid,
       [&](RopeScaling& s) {
         s.has_attention_factor = true;
         s.attention_factor = nan;
       });
  with("beta_fast 0", RopeScalingType::kYarn, Status::kBetaFastInvalid, [](RopeScaling& s) { s.beta_fast = 0; });
  with("beta_fast below beta_slow", RopeScalingType::kYarn, Status::kBetaFastInvalid, [](RopeScaling& s) {
    s.beta_fast = 2;
    s.beta_slow = 3;
  });
  with("beta_slow negative", RopeScalingType::kYarn, Status::kBetaSlowInvalid,
       [](RopeScaling& s) { s.beta_slow = -1; });
  with("beta_slow inf", RopeScalingType::kYarn, Status::kBetaSlowInvalid, [&](RopeScaling& s) { s.beta_slow = inf; });
  with("mscale negative", RopeScalingType::kYarn, Status::kMscaleInvalid, [](RopeScaling& s) { s.mscale = -1; });
  with("mscale_all_dim NaN", RopeScalingType::kYarn, Status::kMscaleAllDimInvalid,
       [&](RopeScaling& s) { s.mscale_all_dim = nan; });
  with("low_freq_factor 0", RopeScalingType::kLlama3, Status::kLowFreqFactorInvalid,
       [](RopeScaling& s) { s.low_freq_factor = 0; });
  with("high_freq_factor below low", RopeScalingType::kLlama3, Status::kHighFreqFactorInvalid,
       [](RopeScaling& s) { s.high_freq_factor = s.low_freq_factor / 2; });
  with("short_factor 3 entries", RopeScalingType::kLongrope, Status::kShortFactorLength,
       [](RopeScaling& s) { s.short_factor_count = 3; });
  with("long_factor 5 entries", RopeScalingType::kLongrope, Status::kLongFactorLength,
       [](RopeScaling& s) { s.long_factor_count = 5; });
  with("short_factor holding 0", RopeScalingType::kLongrope, Status::kShortFactorInvalid,
       [&](RopeScaling& s) { s.short_factor = bad_list.data(); });
  with("long_factor holding NaN", RopeScalingType::kLongrope, Status::kLongFactorInvalid,
       [&](RopeScaling& s) { s.long_factor = nan_list.data(); });
  {
    RopeScaling s = valid_of(RopeScalingType::kDynamic, list);
    cases.push_back({"dynamic with rotary_dim 2", s, Status::kDynamicRotaryDimTooSmall, 2});
    RopeScaling y = valid_of(RopeScalingType::kYarn, list);
    cases.push_back({"yarn with base 1", y, Status::kYarnBaseInvalid, 8, 1.0});
  }

  for (const Case& c : cases) {
    INFO(c.name);
    posenc::RopeSpec rope;
    rope.seq_len = 2;
    rope.head_dim = 8;
    rope.rotary_dim = c.rotary_dim;
    rope.base = c.base;
    rope.scaling = c.scaling;
    std::vector<float> x(16, 1.25f);
    CHECK(posenc::rope(rope, from_offset(0), x.data(), x.data()) == c.want);
    CHECK(first_difference(x, std::vector<float>(16, 1.25f)) == 16);

    posenc::RopeCacheSpec cache;
    cache.seq_len = 2;
    cache.rotary_dim = c.rotary_dim;
    cache.base = c.base;
    cache.scaling = c.scaling;
    std::vector<float> cos = sentinel_filled(8), sin = sentinel_filled(8);
    CHECK(posenc::rope_cache(cache, from_offset(0), cos.data(), sin.data()) == c.want);
    CHECK(overwritten(cos) + overwritten(sin) == 0);

    posenc::RopeScheduleSpec schedule;
    schedule.rotary_dim = c.rotary_dim;
    schedule.base = c.base;
    schedule.scaling = c.scaling;
    std::vector<double> inv(4, sentinel<double>());
    double attention = sentinel<double>();
    CHECK(posenc::rope_schedule(schedule, inv.data(), &attention) == c.want);
    CHECK(overwritten(inv) == 0);
  }

  // Lists are checked by value only once they are in memory (null: length only).
  RopeScaling unread = valid_of(RopeScalingType::kLongrope, list);
  unread.short_factor = unread.long_factor = nullptr;
  CHECK(posenc::check(unread, 8, 10000.0) == Status::kOk);
}

TEST_CASE("the scaling and batch codes have their own names", "[status]") {
  std::vector<std::string> names;
  for (int code = static_cast<int>(Status::kBatchTooLarge); code <= static_cast<int>(Status::kYarnBaseInvalid);
       ++code) {
    const std::string name = posenc::status_name(static_cast<Status>(code));
    INFO("code " << code << ": " << name);
    CHECK(name != "unknown status");
    for (const std::string& other : names) CHECK(name != other);
    names.push_back(name);
  }
  CHECK(names.size() == 24);
}
