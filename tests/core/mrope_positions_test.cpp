// M-RoPE position ids (mrope_positions.h) against the golden vectors of
// scripts/make_golden_mrope_positions.py: transformers' Qwen2-VL and Qwen2.5-VL get_rope_index,
// transcribed verbatim and run on the input_ids the models' processors make for each prompt.
// Then every rule's Status, the segment it names, and nothing written on an error.
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "golden_json.h"
#include "posenc/posenc.h"

namespace {

using posenc::MropeModel;
using posenc::MropePositionsSpec;
using posenc::Status;

constexpr double kNotGiven = std::numeric_limits<double>::quiet_NaN();

// A golden case's segments as the flat table the core takes.
std::vector<double> table_of(const golden_json::Value& segments) {
  std::vector<double> table;
  for (const golden_json::Value& s : segments.array) {
    if (s.has("text")) {
      table.insert(table.end(), {0.0, s["text"].number, 0.0, 0.0, kNotGiven});
      continue;
    }
    const bool image = s.has("image");
    const std::vector<double> grid = s[image ? "image" : "video"].numbers();
    table.insert(table.end(), {image ? 1.0 : 2.0, grid[0], grid[1], grid[2],
                               s.has("secondsPerGrid") ? s["secondsPerGrid"].number : kNotGiven});
  }
  return table;
}

struct Result {
  Status status;
  std::vector<std::int32_t> ids;
  std::int64_t next = -1;
  std::uint32_t bad = 0xffffffffu;
};

Result run(const std::vector<double>& table, std::uint32_t merge = 2, MropeModel model = MropeModel::kQwen2Vl,
           std::uint32_t tokens_per_second = 2) {
  MropePositionsSpec spec;
  spec.segments = table.data();
  spec.segment_count = static_cast<std::uint32_t>(table.size() / posenc::kMropeSegmentFields);
  spec.spatial_merge_size = merge;
  spec.model = model;
  spec.tokens_per_second = tokens_per_second;
  Result r;
  std::uint64_t seq_len = 0;
  r.status = posenc::check(spec, &seq_len, &r.bad);
  if (r.status != Status::kOk) seq_len = 4;
  r.ids.assign(3 * seq_len, -7);
  const Status computed = posenc::mrope_positions(spec, r.ids.data(), r.ids.size(), &r.next, &r.bad);
  CHECK(computed == r.status);
  return r;
}

}  // namespace

TEST_CASE("M-RoPE ids match transformers' get_rope_index of Qwen2-VL and Qwen2.5-VL (golden)", "[mrope]") {
  const golden_json::Value file = golden_json::read_golden("mrope-positions.json");
  REQUIRE(file["cases"].array.size() >= 20);
  for (const golden_json::Value& c : file["cases"].array) {
    INFO(c["name"].string);
    const MropeModel model = c["model"].string == "qwen2.5-vl" ? MropeModel::kQwen25Vl : MropeModel::kQwen2Vl;
    const Result r = run(table_of(c["segments"]), static_cast<std::uint32_t>(c["spatialMergeSize"].number), model,
                         static_cast<std::uint32_t>(c["tokensPerSecond"].number));
    REQUIRE(r.status == Status::kOk);
    const auto& rows = c["positions"].array;
    const std::size_t seq_len = rows[0].array.size();
    REQUIRE(r.ids.size() == 3 * seq_len);
    for (std::size_t axis = 0; axis < 3; ++axis) {
      const std::vector<double> want = rows[axis].numbers();
      for (std::size_t k = 0; k < seq_len; ++k) {
        INFO("axis " << axis << " token " << k);
        CHECK(r.ids[axis * seq_len + k] == static_cast<std::int32_t>(want[k]));
      }
    }
    CHECK(r.next == static_cast<std::int64_t>(c["nextPosition"].number));
    CHECK(r.next - static_cast<std::int64_t>(seq_len) == static_cast<std::int64_t>(c["ropeDelta"].number));
  }
}

TEST_CASE("M-RoPE rules: each Status names the segment, nothing is written", "[mrope]") {
  const auto text = [](double n) { return std::vector<double>{0, n, 0, 0, kNotGiven}; };
  const auto image = [](double t, double h, double w) { return std::vector<double>{1, t, h, w, kNotGiven}; };
  const auto video = [](double t, double h, double w, double s) { return std::vector<double>{2, t, h, w, s}; };
  const auto join = [](std::vector<std::vector<double>> rows) {
    std::vector<double> table;
    for (const auto& row : rows) table.insert(table.end(), row.begin(), row.end());
    return table;
  };
  struct Case {
    const char* name;
    std::vector<double> table;
    std::uint32_t merge;
    MropeModel model;
    Status want;
    std::uint32_t bad;
  };
  const double huge = 1 << 24;
  const std::vector<Case> cases = {
      {"kind 3", join({text(2), {3, 1, 2, 2, kNotGiven}}), 2, MropeModel::kQwen2Vl, Status::kSegmentKindInvalid, 1},
      {"text 0.5", join({text(0.5)}), 2, MropeModel::kQwen2Vl, Status::kSegmentTextInvalid, 0},
      {"text -1", join({text(2), text(-1)}), 2, MropeModel::kQwen2Vl, Status::kSegmentTextInvalid, 1},
      {"t 0", join({text(2), image(0, 2, 2)}), 2, MropeModel::kQwen2Vl, Status::kGridTInvalid, 1},
      {"h odd", join({text(2), image(1, 3, 2)}), 2, MropeModel::kQwen2Vl, Status::kGridHInvalid, 1},
      {"h 0", join({image(1, 0, 2)}), 2, MropeModel::kQwen2Vl, Status::kGridHInvalid, 0},
      {"w NaN", join({image(1, 2, kNotGiven)}), 2, MropeModel::kQwen2Vl, Status::kGridWInvalid, 0},
      {"w not a multiple of 4", join({image(1, 4, 6)}), 4, MropeModel::kQwen2Vl, Status::kGridWInvalid, 0},
      {"seconds -1", join({text(1), video(2, 2, 2, -1)}), 2, MropeModel::kQwen25Vl, Status::kSecondsPerGridInvalid, 1},
      {"seconds inf", join({video(2, 2, 2, INFINITY)}), 2, MropeModel::kQwen2Vl, Status::kSecondsPerGridInvalid, 0},
      {"merge 0", join({text(1)}), 0, MropeModel::kQwen2Vl, Status::kSpatialMergeSizeInvalid, 0xffffffffu},
      {"model 2", join({text(1)}), 2, static_cast<MropeModel>(2), Status::kMropeModelInvalid, 0xffffffffu},
      {"too many tokens", join({text(huge), text(1)}), 2, MropeModel::kQwen2Vl, Status::kMropeTokensTooMany, 1},
      {"grid beyond 2^64", join({image(huge, huge, huge)}), 1, MropeModel::kQwen2Vl, Status::kMropeTokensTooMany, 0},
      {"time step beyond int32", join({text(1), video(3, 2, 2, 1e9)}), 2, MropeModel::kQwen25Vl,
       Status::kMropePositionTooLarge, 1},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const Result r = run(c.table, c.merge, c.model, 2);
    CHECK(r.status == c.want);
    CHECK(r.bad == c.bad);
    for (const std::int32_t v : r.ids) CHECK(v == -7);
    CHECK(r.next == -1);
  }
}

TEST_CASE("M-RoPE edge cases: empty prompts, empty text, a wrong output length", "[mrope]") {
  const Result empty = run({});
  CHECK(empty.status == Status::kOk);
  CHECK(empty.ids.empty());
  CHECK(empty.next == 0);
  const Result zero_text = run({0, 0, 0, 0, kNotGiven, 0, 2, 0, 0, kNotGiven});
  CHECK(zero_text.ids == std::vector<std::int32_t>{0, 1, 0, 1, 0, 1});
  CHECK(zero_text.next == 2);
  // Qwen2.5-VL: seconds per grid is truncated (0.5 -> 0, so every frame shares index 0).
  const std::vector<double> half = {0, 1, 0, 0, kNotGiven, 2, 3, 2, 2, 0.5};
  const Result truncated = run(half, 2, MropeModel::kQwen25Vl, 2);
  CHECK(truncated.ids == std::vector<std::int32_t>{0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1});
  CHECK(truncated.next == 2);
  MropePositionsSpec spec;
  spec.segments = half.data();
  spec.segment_count = 2;
  std::vector<std::int32_t> out(7, -7);
  std::int64_t next = -1;
  std::uint32_t bad = 0;
  CHECK(posenc::mrope_positions(spec, out.data(), out.size(), &next, &bad) == Status::kOutLength);
  for (const std::int32_t v : out) CHECK(v == -7);
}
