// Half-precision operations against PyTorch, bit for bit (tests/golden/half-ops.json, written by
// scripts/make_golden_half_ops.py): the sinusoidal table (both layouts, odd pair counts, positions
// to 60,000, a window of consecutive rows), the RoPE cache (plain and with YaRN's attention
// factor), position numbers past the formats' exact integers, as the float64 reference rounded
// once; rope (both pairings, partial rotary, positions to 65,536, overflow, subnormals, NaN and
// infinity passed through) as torch's float32 rotation of the widened input cast to the format.
#include <catch2/catch_test_macros.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "golden_json.h"
#include "posenc/posenc.h"

namespace {

const golden_json::Value& golden() {
  static const golden_json::Value file = golden_json::read_golden("half-ops.json");
  return file;
}

struct Format {
  const char* name;
  posenc::Dtype dtype;
};
constexpr Format kFormats[] = {{"float16", posenc::Dtype::kFloat16}, {"bfloat16", posenc::Dtype::kBfloat16}};

std::vector<std::uint16_t> patterns(const golden_json::Value& list) {
  std::vector<std::uint16_t> out;
  for (const double v : list.numbers()) out.push_back(static_cast<std::uint16_t>(v));
  return out;
}

std::vector<std::int32_t> integers(const golden_json::Value& list) {
  std::vector<std::int32_t> out;
  for (const double v : list.numbers()) out.push_back(static_cast<std::int32_t>(v));
  return out;
}

// The first index whose pattern differs (with both patterns, for the failure message), or "".
std::string first_difference(const std::vector<std::uint16_t>& got, const std::vector<std::uint16_t>& expected) {
  if (got.size() != expected.size()) return "length " + std::to_string(got.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != expected[i])
      return "[" + std::to_string(i) + "] " + std::to_string(got[i]) + " != " + std::to_string(expected[i]);
  return "";
}

std::uint32_t size_of(const golden_json::Value& v) { return static_cast<std::uint32_t>(v.number); }

}  // namespace

TEST_CASE("half sinusoidal tables equal the float64 reference rounded once (PyTorch goldens)", "[half][golden]") {
  for (const golden_json::Value& c : golden()["sinusoidal"].array) {
    const bool listed = c.has("positions");
    const std::vector<std::int32_t> list = listed ? integers(c["positions"]) : std::vector<std::int32_t>{};
    for (const Format& format : kFormats) {
      posenc::SinusoidalSpec spec;
      spec.seq_len = listed ? static_cast<std::uint32_t>(list.size()) : size_of(c["seqLen"]);
      spec.d_model = size_of(c["dModel"]);
      spec.layout =
          c["layout"].string == "concat" ? posenc::SinusoidalLayout::kConcat : posenc::SinusoidalLayout::kInterleaved;
      spec.dtype = format.dtype;
      const posenc::Positions positions =
          listed ? posenc::Positions{list.data(), 0} : posenc::Positions{nullptr, size_of(c["offset"])};
      std::vector<std::uint16_t> out(std::size_t{spec.seq_len} * spec.d_model);
      INFO(format.name << " " << c["layout"].string << " dModel " << spec.d_model << (listed ? "" : " window"));
      REQUIRE(posenc::sinusoidal_table(spec, positions, out.data()) == posenc::Status::kOk);
      CHECK(first_difference(out, patterns(c[format.name])) == "");
    }
  }
}

TEST_CASE("half RoPE caches equal the float64 cos/sin (times the attention factor) rounded once", "[half][golden]") {
  for (const golden_json::Value& c : golden()["ropeCache"].array) {
    const std::vector<std::int32_t> list = integers(c["positions"]);
    for (const Format& format : kFormats) {
      posenc::RopeCacheSpec spec;
      spec.seq_len = static_cast<std::uint32_t>(list.size());
      spec.rotary_dim = size_of(c["rotaryDim"]);
      spec.base = c["base"].number;
      if (!c["scaling"].is_null()) {  // YaRN (the only scaling the goldens use)
        spec.scaling.type = posenc::RopeScalingType::kYarn;
        spec.scaling.factor = c["scaling"]["factor"].number;
        spec.scaling.original_max_position_embeddings = size_of(c["scaling"]["originalMaxPositionEmbeddings"]);
      }
      spec.dtype = format.dtype;
      const std::size_t n = list.size() * (spec.rotary_dim / 2);
      std::vector<std::uint16_t> cos(n), sin(n);
      double attention_factor = 0;
      INFO(format.name << " rotaryDim " << spec.rotary_dim << " base " << spec.base);
      REQUIRE(posenc::rope_cache(spec, posenc::Positions{list.data(), 0}, cos.data(), sin.data(), &attention_factor) ==
              posenc::Status::kOk);
      CHECK(attention_factor == c["attentionFactor"].number);
      CHECK(first_difference(cos, patterns(c["cos"][format.name])) == "");
      CHECK(first_difference(sin, patterns(c["sin"][format.name])) == "");
    }
  }
}

TEST_CASE("half position numbers round offset + row once (spacing 2 past 2048, infinity past 65519)",
          "[half][golden]") {
  for (const golden_json::Value& c : golden()["positionNumbers"].array) {
    for (const Format& format : kFormats) {
      posenc::PositionNumbersSpec spec;
      spec.seq_len = size_of(c["seqLen"]);
      spec.d_model = size_of(c["dModel"]);
      spec.offset = size_of(c["offset"]);
      spec.dtype = format.dtype;
      std::vector<std::uint16_t> out(std::size_t{spec.seq_len} * spec.d_model);
      INFO(format.name << " offset " << spec.offset);
      REQUIRE(posenc::position_numbers(spec, out.data()) == posenc::Status::kOk);
      CHECK(first_difference(out, patterns(c[format.name])) == "");
    }
  }
}

TEST_CASE("half rope equals torch's float32 rotation of the widened input, cast once", "[half][golden]") {
  for (const golden_json::Value& c : golden()["rope"].array) {
    const std::vector<std::int32_t> list = integers(c["positions"]);
    for (const Format& format : kFormats) {
      posenc::RopeSpec spec;
      spec.seq_len = static_cast<std::uint32_t>(list.size());
      spec.num_heads = size_of(c["numHeads"]);
      spec.head_dim = size_of(c["headDim"]);
      spec.rotary_dim = size_of(c["rotaryDim"]);
      spec.layout = c["layout"].string == "half" ? posenc::RopeLayout::kHalf : posenc::RopeLayout::kInterleaved;
      spec.dtype = format.dtype;
      const std::vector<std::uint16_t> x = patterns(c["input"][format.name]);
      const std::vector<std::uint16_t> expected = patterns(c["output"][format.name]);
      INFO(format.name << " " << c["layout"].string << " headDim " << spec.head_dim << " rotaryDim "
                       << spec.rotary_dim);
      std::vector<std::uint16_t> out(x.size());
      REQUIRE(posenc::rope(spec, posenc::Positions{list.data(), 0}, x.data(), out.data()) == posenc::Status::kOk);
      CHECK(first_difference(out, expected) == "");
      std::vector<std::uint16_t> in_place = x;  // in place: the same bits
      REQUIRE(posenc::rope(spec, posenc::Positions{list.data(), 0}, in_place.data(), in_place.data()) ==
              posenc::Status::kOk);
      CHECK(first_difference(in_place, expected) == "");
    }
  }
}
