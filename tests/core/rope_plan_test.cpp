// RopePlan: made once, applied many times with the bits of rope() and rope_qk(); pieces of one
// long sequence (apply_piece with a carried recurrence) with the bits of one apply(); its rules.
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "posenc/posenc.h"
#include "test_support.h"

namespace {

using posenc::RopePlan;
using posenc::Status;
using namespace test_support;

}  // namespace

TEST_CASE("a plan applied again and again gives the bits of rope() and rope_qk()", "[rope_plan]") {
  const posenc::RopeLayout layout = GENERATE(posenc::RopeLayout::kInterleaved, posenc::RopeLayout::kHalf);
  posenc::RopeSpec spec = rope_spec(3, 4, 70, layout);
  spec.rotary_dim = 64;  // two pair blocks would need > 128 pairs; partial rotary and a tail here
  RopePlan plan;
  REQUIRE(RopePlan::create(spec, 2, &plan) == Status::kOk);
  CHECK(plan.rotary_dim() == 64);
  CHECK(plan.num_kv_heads() == 2);
  for (const std::uint32_t offset : {0u, 1u, 5000u, 2000000000u}) {
    const std::vector<float> q = random_floats(3 * 4 * 70, offset + 1);
    const std::vector<float> k = random_floats(3 * 2 * 70, offset + 2);
    std::vector<float> by_plan = q, by_rope = q;
    REQUIRE(plan.apply(from_offset(offset), by_plan.data(), by_plan.data()) == Status::kOk);
    REQUIRE(posenc::rope(spec, from_offset(offset), by_rope.data(), by_rope.data()) == Status::kOk);
    CHECK(first_difference(by_plan, by_rope) == by_plan.size());

    std::vector<float> q_plan = q, k_plan = k, q_call = q, k_call = k;
    REQUIRE(plan.apply_qk(from_offset(offset), q_plan.data(), q_plan.data(), k_plan.data(), k_plan.data()) ==
            Status::kOk);
    REQUIRE(posenc::rope_qk(spec, 2, from_offset(offset), q_call.data(), q_call.data(), k_call.data(), k_call.data()) ==
            Status::kOk);
    CHECK(first_difference(q_plan, q_call) == q_plan.size());
    CHECK(first_difference(k_plan, k_call) == k_plan.size());
  }
}

TEST_CASE("pieces of one sequence, with the carried recurrence, give the bits of one apply()", "[rope_plan]") {
  // 300 pairs make three pair blocks; 2600 rows cross two anchors (every 1024 rows); pieces of
  // uneven sizes start anywhere between anchors. Far from position 0 a piece that re-anchors
  // instead of carrying on rounds some values differently: the check below shows the carry is
  // what makes the pieces agree.
  const posenc::RopeLayout layout = GENERATE(posenc::RopeLayout::kInterleaved, posenc::RopeLayout::kHalf);
  const bool inverse = GENERATE(false, true);
  const std::uint32_t seq_len = 2600, head_dim = 600, offset = 16000000;
  posenc::RopeSpec spec = rope_spec(seq_len, 1, head_dim, layout);
  spec.inverse = inverse;
  RopePlan plan;
  REQUIRE(RopePlan::create(spec, 1, &plan) == Status::kOk);
  const std::vector<float> x = random_floats(std::size_t{seq_len} * head_dim, 7);
  std::vector<float> whole = x;
  REQUIRE(plan.apply(from_offset(offset), whole.data(), whole.data()) == Status::kOk);

  const auto in_pieces = [&](bool carried) {
    std::vector<float> y = x;
    std::vector<double> carry(plan.carry_doubles(), 0.0);
    std::uint32_t row = 0;
    for (const std::uint32_t rows : {1u, 333u, 700u, 1u, 1000u, 565u}) {
      if (!carried) std::fill(carry.begin(), carry.end(), 0.0);
      float* at = y.data() + std::size_t{row} * head_dim;
      REQUIRE(plan.apply_piece(from_offset(offset + row), rows, at, at, carry.data()) == Status::kOk);
      row += rows;
    }
    REQUIRE(row == seq_len);
    return y;
  };
  CHECK(first_difference(in_pieces(true), whole) == whole.size());
  CHECK(first_difference(in_pieces(false), whole) < whole.size());  // without the carry: not the same bits
}

TEST_CASE("pieces of a schedule that goes by the length, told the call's length, give the bits of one apply()",
          "[rope_plan]") {
  // dynamic and longrope: the frequencies come from the whole sequence's length, which every
  // piece is told; a piece left to its own rows (length 0) is refused.
  const bool longrope = GENERATE(false, true);
  const std::uint32_t seq_len = 1500, head_dim = 64, offset = 700;
  posenc::RopeSpec spec = rope_spec(seq_len, 2, head_dim, posenc::RopeLayout::kHalf);
  std::vector<double> short_factor(head_dim / 2), long_factor(head_dim / 2);
  for (std::size_t i = 0; i < short_factor.size(); ++i) {
    short_factor[i] = 1.0 + 0.01 * static_cast<double>(i);
    long_factor[i] = 1.5 + 0.1 * static_cast<double>(i);
  }
  spec.scaling.type = longrope ? posenc::RopeScalingType::kLongrope : posenc::RopeScalingType::kDynamic;
  spec.scaling.factor = 2.0;
  spec.scaling.original_max_position_embeddings = 1024;  // below the call's length: the schedule moves
  spec.scaling.max_position_embeddings = 4096;
  spec.scaling.short_factor = short_factor.data();
  spec.scaling.long_factor = long_factor.data();
  spec.scaling.short_factor_count = spec.scaling.long_factor_count = head_dim / 2;
  RopePlan plan;
  REQUIRE(RopePlan::create(spec, 2, &plan) == Status::kOk);
  const std::size_t row = std::size_t{2} * head_dim;
  const std::vector<float> x = random_floats(seq_len * row, 11);
  std::vector<float> whole = x;
  REQUIRE(plan.apply(from_offset(offset), whole.data(), whole.data()) == Status::kOk);

  std::vector<float> y = x;
  std::vector<double> carry(plan.carry_doubles(), 0.0);
  std::uint32_t first = 0;
  for (const std::uint32_t rows : {300u, 1u, 699u, 500u}) {
    float* at = y.data() + first * row;
    REQUIRE(plan.apply_piece(from_offset(offset + first), rows, at, at, carry.data(), posenc::XposRole::kNone,
                             offset + seq_len) == Status::kOk);
    first += rows;
  }
  REQUIRE(first == seq_len);
  CHECK(first_difference(y, whole) == whole.size());
  CHECK(plan.apply_piece(from_offset(offset), 300, y.data(), y.data(), carry.data()) == Status::kScalingTypeInvalid);
}

TEST_CASE("plan rules: the spec's, kv heads, and pieces only where the schedule does not depend on the length",
          "[rope_plan][status]") {
  RopePlan plan;
  posenc::RopeSpec spec = rope_spec(4, 2, 8, posenc::RopeLayout::kHalf);
  CHECK(RopePlan::create(spec, 0, &plan) == Status::kNumKvHeadsTooSmall);
  spec.rotary_dim = 7;
  CHECK(RopePlan::create(spec, 2, &plan) == Status::kRotaryDimOdd);
  spec.rotary_dim = 8;
  REQUIRE(RopePlan::create(spec, 2, &plan) == Status::kOk);

  std::vector<float> x(4 * 2 * 8, 1.0f);
  std::vector<double> carry(plan.carry_doubles(), 0.0);
  const std::vector<std::int32_t> negative = {0, -1, 2, 3};
  CHECK(plan.apply(listed(negative), x.data(), x.data()) == Status::kPositionOutOfRange);
  CHECK(plan.apply(from_offset(0), nullptr, x.data()) == Status::kNullPointer);
  CHECK(plan.apply_piece(from_offset(0), 4, x.data(), x.data(), nullptr) == Status::kNullPointer);
  CHECK(plan.apply_piece(from_offset(0), 0, kNoFloats, kNoFloats, nullptr) == Status::kOk);

  spec.scaling.type = posenc::RopeScalingType::kDynamic;
  spec.scaling.factor = 2.0;
  spec.scaling.original_max_position_embeddings = 16;
  RopePlan dynamic;
  REQUIRE(RopePlan::create(spec, 2, &dynamic) == Status::kOk);
  CHECK(dynamic.apply_piece(from_offset(0), 4, x.data(), x.data(), carry.data()) == Status::kScalingTypeInvalid);
  CHECK(dynamic.apply(from_offset(100), x.data(), x.data()) == Status::kOk);
}
