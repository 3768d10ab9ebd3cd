// AxisPhases (src/axis_phases.cpp, with mrope_sections.cpp and rope_grid.cpp): RoPE whose pairs
// take their positions from several axes, through its two users: M-RoPE (rope() with
// RopeSpec::mrope: Qwen2-VL's sections, Qwen3-VL's interleaved ones) and 2-D image RoPE
// (rope_grid(): Pixtral, SAM 2 axial), against a long-double reference written here from the
// models' formulas (each pair's axis and frequency restated independently of src/), with the
// rope precision contract; their rules; M-RoPE pieces with the carried recurrence; the models'
// own code in float64 (tests/golden/axis-phases.json).
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "golden_json.h"
#include "posenc/posenc.h"
#include "precision.h"
#include "reference.h"
#include "test_support.h"

namespace {

using posenc::Status;
using reference::Pairing;
using reference::Real;
using namespace test_support;

// One pair of every head: its axis and inverse frequency.
struct PairTurn {
  std::size_t axis;
  Real inv_freq;
};

// x: [batch, seq_len, heads, head_dim] (tokens) rotated pair by pair at where[axis][b * seq_len + t].
std::vector<Real> reference_rotation(const std::vector<float>& x, std::size_t batch, std::size_t seq_len,
                                     std::size_t heads, std::size_t head_dim, const std::vector<PairTurn>& pairs,
                                     const std::vector<std::vector<std::int64_t>>& where, Pairing pairing) {
  std::vector<Real> out(x.begin(), x.end());
  const std::size_t rotary_dim = 2 * pairs.size();
  for (std::size_t row = 0; row < batch * seq_len; ++row) {
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      Real s, c;
      reference::sin_cos(static_cast<Real>(where[pairs[k].axis][row]) * pairs[k].inv_freq, &s, &c);
      const reference::PairChannels ch = reference::pair_channels(k, rotary_dim, pairing);
      for (std::size_t h = 0; h < heads; ++h) {
        const std::size_t at = (row * heads + h) * head_dim;
        const Real a = x[at + ch.a], b = x[at + ch.b];
        out[at + ch.a] = a * c - b * s;
        out[at + ch.b] = b * c + a * s;
      }
    }
  }
  return out;
}

// The worst |x' - ref| / (|x_a| + |x_b|) over the rotated channels (the rope contract).
long double worst_relative(const std::vector<float>& got, const std::vector<float>& x, const std::vector<Real>& want,
                           std::size_t head_dim, std::size_t rotary_dim, Pairing pairing) {
  long double worst = 0;
  for (std::size_t at = 0; at < x.size(); at += head_dim) {
    for (std::size_t k = 0; k < rotary_dim / 2; ++k) {
      const reference::PairChannels ch = reference::pair_channels(k, rotary_dim, pairing);
      const Real scale = std::fabs(static_cast<Real>(x[at + ch.a])) + std::fabs(static_cast<Real>(x[at + ch.b]));
      for (const std::size_t channel : {at + ch.a, at + ch.b}) {
        const Real error = std::fabs(got[channel] - want[channel]);
        const Real relative = scale > 0 ? error / scale : (error == 0 ? 0 : std::numeric_limits<Real>::infinity());
        if (!(relative <= worst)) worst = relative;
      }
    }
  }
  return worst;
}

// transformers' section rules, restated: three runs (Qwen2-VL), or h at k % 3 == 1 below 3 h and
// w at k % 3 == 2 below 3 w (Qwen3-VL).
std::vector<PairTurn> mrope_pairs(const std::uint32_t (&section)[3], bool interleaved, std::size_t rotary_dim,
                                  Real base) {
  std::vector<PairTurn> pairs(rotary_dim / 2);
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    std::size_t axis = 0;
    if (interleaved) {
      if (k % 3 == 1 && k < 3 * section[1]) axis = 1;
      if (k % 3 == 2 && k < 3 * section[2]) axis = 2;
    } else {
      axis = k < section[0] ? 0 : k < section[0] + section[1] ? 1 : 2;
    }
    pairs[k] = {axis, reference::inverse_frequency(k, rotary_dim, base)};
  }
  return pairs;
}

// get_rope_index's ids of `text` tokens, an image of grid_h x grid_w merged patches, `text` more.
std::vector<std::vector<std::int64_t>> prompt_positions(std::int64_t text, std::int64_t grid_h, std::int64_t grid_w) {
  std::vector<std::vector<std::int64_t>> where(3);
  std::int64_t next = 0;
  for (std::int64_t i = 0; i < text; ++i, ++next)
    for (auto& axis : where) axis.push_back(next);
  for (std::int64_t r = 0; r < grid_h; ++r) {
    for (std::int64_t c = 0; c < grid_w; ++c) {
      where[0].push_back(next);
      where[1].push_back(next + r);
      where[2].push_back(next + c);
    }
  }
  next += std::max(grid_h, grid_w);
  for (std::int64_t i = 0; i < text; ++i, ++next)
    for (auto& axis : where) axis.push_back(next);
  return where;
}

std::vector<std::int32_t> flat(const std::vector<std::vector<std::int64_t>>& where) {
  std::vector<std::int32_t> list;
  for (const auto& axis : where)
    for (const std::int64_t p : axis) list.push_back(static_cast<std::int32_t>(p));
  return list;
}

posenc::RopeSpec mrope_spec(std::uint32_t seq_len, std::uint32_t heads, std::uint32_t head_dim,
                            const std::uint32_t (&section)[3], bool interleaved) {
  posenc::RopeSpec spec;
  spec.seq_len = seq_len;
  spec.num_heads = heads;
  spec.head_dim = head_dim;
  spec.rotary_dim = head_dim;
  spec.base = 1000000.0;
  spec.layout = posenc::RopeLayout::kHalf;
  spec.mrope.enabled = true;
  spec.mrope.interleaved = interleaved;
  for (int a = 0; a < 3; ++a) spec.mrope.section[a] = section[a];
  return spec;
}

}  // namespace

TEST_CASE("M-RoPE matches the reference: Qwen2-VL and Qwen3-VL sections, a small odd one", "[rope][mrope]") {
  struct Case {
    std::uint32_t head_dim, section[3];
    bool interleaved;
  };
  const Case c = GENERATE(Case{128, {16, 24, 24}, false}, Case{128, {24, 20, 20}, true}, Case{22, {3, 5, 3}, false},
                          Case{22, {5, 3, 3}, true}, Case{300, {50, 50, 50}, true});  // 300: two pair blocks
  const std::vector<std::vector<std::int64_t>> one = prompt_positions(9, 4, 6);
  const std::uint32_t seq_len = static_cast<std::uint32_t>(one[0].size()), heads = 3;
  // batch 2: the second sequence further on (a later turn of a chat).
  std::vector<std::vector<std::int64_t>> where = one;
  for (std::size_t a = 0; a < 3; ++a)
    for (const std::int64_t p : one[a]) where[a].push_back(p + 1000);
  posenc::RopeSpec spec = mrope_spec(seq_len, heads, c.head_dim, c.section, c.interleaved);
  spec.batch = 2;
  const std::vector<std::int32_t> list = flat(where);
  const std::vector<float> x = random_floats(std::size_t{2} * seq_len * heads * c.head_dim, 11);
  std::vector<float> out(x.size());
  REQUIRE(posenc::rope(spec, listed(list), x.data(), out.data()) == Status::kOk);
  const std::vector<Real> want =
      reference_rotation(x, 2, seq_len, heads, c.head_dim, mrope_pairs(c.section, c.interleaved, c.head_dim, spec.base),
                         where, Pairing::kHalf);
  const long double worst = worst_relative(out, x, want, c.head_dim, c.head_dim, Pairing::kHalf);
  INFO("head_dim " << c.head_dim << (c.interleaved ? " interleaved" : " sections") << ": "
                   << static_cast<double>(worst));
  CHECK(worst <= kRopeBound);
}

TEST_CASE("M-RoPE with an offset, or with equal rows, is plain RoPE", "[rope][mrope]") {
  const std::uint32_t seq_len = 40, head_dim = 64, section[3] = {8, 12, 12};
  const posenc::RopeSpec spec = mrope_spec(seq_len, 2, head_dim, section, false);
  posenc::RopeSpec plain = spec;
  plain.mrope = posenc::MropeSpec{};
  const std::vector<float> x = random_floats(std::size_t{seq_len} * 2 * head_dim, 5);
  std::vector<float> by_mrope = x, by_plain = x, by_rows = x;
  REQUIRE(posenc::rope(spec, from_offset(77), by_mrope.data(), by_mrope.data()) == Status::kOk);
  REQUIRE(posenc::rope(plain, from_offset(77), by_plain.data(), by_plain.data()) == Status::kOk);
  std::vector<std::int32_t> rows;
  for (int a = 0; a < 3; ++a)
    for (std::uint32_t t = 0; t < seq_len; ++t) rows.push_back(static_cast<std::int32_t>(77 + t));
  REQUIRE(posenc::rope(spec, listed(rows), by_rows.data(), by_rows.data()) == Status::kOk);
  const std::vector<Real> want = reference_rotation(
      x, 1, seq_len, 2, head_dim, mrope_pairs(section, false, head_dim, spec.base),
      {reference::consecutive(77, seq_len), reference::consecutive(77, seq_len), reference::consecutive(77, seq_len)},
      Pairing::kHalf);
  for (const std::vector<float>* got : {&by_mrope, &by_plain, &by_rows})
    CHECK(worst_relative(*got, x, want, head_dim, head_dim, Pairing::kHalf) <= kRopeBound);
  CHECK(first_difference(by_mrope, by_rows) == by_rows.size());  // the same phases either way
}

TEST_CASE("M-RoPE composes with scaling (dynamic goes by the largest id of all three rows) and inverse",
          "[rope][mrope]") {
  const std::uint32_t section[3] = {4, 6, 6}, head_dim = 32;
  // Text, then an image as the prompt's end: its w ids run furthest.
  std::vector<std::vector<std::int64_t>> where = prompt_positions(3, 4, 10);
  for (auto& axis : where) axis.resize(axis.size() - 3);
  const std::uint32_t seq_len = static_cast<std::uint32_t>(where[0].size());
  const std::vector<std::int32_t> list = flat(where);
  std::int64_t largest = 0;
  for (const auto& axis : where)
    for (const std::int64_t p : axis) largest = std::max(largest, p);
  REQUIRE(largest > *std::max_element(where[0].begin(), where[0].end()));
  posenc::RopeSpec spec = mrope_spec(seq_len, 2, head_dim, section, false);
  spec.scaling.type = posenc::RopeScalingType::kDynamic;
  spec.scaling.factor = 2.0;
  spec.scaling.original_max_position_embeddings = 8;  // below the length: the base grows
  // The schedule at transformers' max(position_ids) + 1, over all three rows.
  posenc::RopeScheduleSpec schedule;
  schedule.rotary_dim = head_dim;
  schedule.base = spec.base;
  schedule.scaling = spec.scaling;
  schedule.seq_len = static_cast<std::uint32_t>(largest + 1);
  std::vector<double> inv_freq(head_dim / 2);
  double attention_factor = 0;
  REQUIRE(posenc::rope_schedule(schedule, inv_freq.data(), &attention_factor) == Status::kOk);
  std::vector<PairTurn> pairs = mrope_pairs(section, false, head_dim, spec.base);
  for (std::size_t k = 0; k < pairs.size(); ++k) pairs[k].inv_freq = inv_freq[k];
  const std::vector<float> x = random_floats(std::size_t{seq_len} * 2 * head_dim, 9);
  std::vector<float> out(x.size());
  REQUIRE(posenc::rope(spec, listed(list), x.data(), out.data()) == Status::kOk);
  const std::vector<Real> want = reference_rotation(x, 1, seq_len, 2, head_dim, pairs, where, Pairing::kHalf);
  CHECK(worst_relative(out, x, want, head_dim, head_dim, Pairing::kHalf) <= kRopeBound);

  // inverse undoes the rotation (within twice the contract).
  spec.inverse = true;
  std::vector<float> back(x.size());
  REQUIRE(posenc::rope(spec, listed(list), out.data(), back.data()) == Status::kOk);
  const std::vector<Real> original(x.begin(), x.end());
  CHECK(worst_relative(back, x, original, head_dim, head_dim, Pairing::kHalf) <= 2 * kRopeBound);
}

TEST_CASE("M-RoPE pieces with the carried recurrence give the bits of one apply()", "[rope_plan][mrope]") {
  const std::uint32_t seq_len = 1500, head_dim = 40, section[3] = {8, 6, 6};
  const posenc::RopeSpec spec = mrope_spec(seq_len, 1, head_dim, section, true);
  posenc::RopePlan plan;
  REQUIRE(posenc::RopePlan::create(spec, 1, &plan) == Status::kOk);
  const std::vector<float> x = random_floats(std::size_t{seq_len} * head_dim, 3);
  std::vector<float> whole = x, pieces = x;
  REQUIRE(plan.apply(from_offset(9000000), whole.data(), whole.data()) == Status::kOk);
  std::vector<double> carry(plan.carry_doubles(), 0.0);
  std::uint32_t row = 0;
  for (const std::uint32_t rows : {1u, 700u, 99u, 700u}) {
    float* at = pieces.data() + std::size_t{row} * head_dim;
    REQUIRE(plan.apply_piece(from_offset(9000000 + row), rows, at, at, carry.data()) == Status::kOk);
    row += rows;
  }
  CHECK(first_difference(pieces, whole) == whole.size());
}

TEST_CASE("M-RoPE rules: sections and the three rows of positions", "[rope][mrope][status]") {
  const std::uint32_t good[3] = {16, 24, 24};
  posenc::RopeSpec spec = mrope_spec(4, 1, 128, good, false);
  std::vector<float> x(4 * 128, 1.0f);
  const std::uint32_t wrong_sum[3] = {16, 24, 23};
  CHECK(posenc::rope(mrope_spec(4, 1, 128, wrong_sum, false), from_offset(0), x.data(), x.data()) ==
        Status::kMropeSectionInvalid);
  // Interleaved: the sum fits, but h's pairs (k % 3 == 1, k < 3 h) would run past pair 63.
  const std::uint32_t h_too_long[3] = {2, 22, 40};
  CHECK(posenc::rope(mrope_spec(4, 1, 128, h_too_long, true), from_offset(0), x.data(), x.data()) ==
        Status::kMropeSectionInvalid);
  CHECK(posenc::rope(mrope_spec(4, 1, 128, h_too_long, false), from_offset(0), x.data(), x.data()) == Status::kOk);
  spec.rotary_dim = 64;  // the sections now sum to twice the 32 pairs
  CHECK(posenc::rope(spec, from_offset(0), x.data(), x.data()) == Status::kMropeSectionInvalid);
  spec.rotary_dim = 128;
  std::vector<std::int32_t> rows(12, 3);
  rows[11] = -1;  // the w row's last entry
  CHECK(posenc::rope(spec, listed(rows), x.data(), x.data()) == Status::kPositionOutOfRange);
  rows[11] = 3;
  CHECK(posenc::rope(spec, listed(rows), x.data(), x.data()) == Status::kOk);
}

namespace {

// Pixtral (PixtralRotaryEmbedding) and SAM 2 (compute_axial_cis), restated: axis 0 the row, 1 the column.
std::vector<PairTurn> grid_pairs(posenc::RopeGridVariant variant, std::size_t dim, Real base) {
  std::vector<PairTurn> pairs;
  if (variant == posenc::RopeGridVariant::kPixtral) {
    const auto freq = [&](std::size_t j) { return std::pow(base, -static_cast<Real>(2 * j) / dim); };
    for (std::size_t j = 0; j < dim / 2; j += 2) pairs.push_back({0, freq(j)});  // freqs[::2], by the row
    for (std::size_t j = 1; j < dim / 2; j += 2) pairs.push_back({1, freq(j)});  // freqs[1::2], by the column
  } else {
    const auto freq = [&](std::size_t j) { return std::pow(base, -static_cast<Real>(4 * j) / dim); };
    for (std::size_t j = 0; j < dim / 4; ++j) pairs.push_back({1, freq(j)});  // freqs_x by the column
    for (std::size_t j = 0; j < dim / 4; ++j) pairs.push_back({0, freq(j)});  // freqs_y by the row
  }
  return pairs;
}

}  // namespace

TEST_CASE("ropeGrid matches Pixtral's and SAM 2's 2-D RoPE on a non-square grid", "[rope_grid]") {
  const posenc::RopeGridVariant variant = GENERATE(posenc::RopeGridVariant::kPixtral, posenc::RopeGridVariant::kAxial);
  const std::uint32_t head_dim = GENERATE(20u, 36u, 64u, 260u);  // 5 and 9 pairs an axis: SIMD tails
  const std::uint32_t rows = 5, cols = 7, heads = 2, batch = 2;
  posenc::RopeGridSpec spec;
  spec.rows = rows;
  spec.cols = cols;
  spec.num_heads = heads;
  spec.head_dim = head_dim;
  spec.variant = variant;
  spec.batch = batch;
  spec.layout =
      variant == posenc::RopeGridVariant::kPixtral ? posenc::RopeLayout::kHalf : posenc::RopeLayout::kInterleaved;
  const std::vector<float> x = random_floats(std::size_t{batch} * rows * cols * heads * head_dim, 21);
  std::vector<float> out(x.size());
  REQUIRE(posenc::rope_grid(spec, x.data(), out.data()) == Status::kOk);
  std::vector<std::vector<std::int64_t>> where(2);
  for (std::uint32_t b = 0; b < batch; ++b) {
    for (std::uint32_t p = 0; p < rows * cols; ++p) {
      where[0].push_back(p / cols);
      where[1].push_back(p % cols);
    }
  }
  const Pairing pairing = variant == posenc::RopeGridVariant::kPixtral ? Pairing::kHalf : Pairing::kInterleaved;
  const std::vector<Real> want = reference_rotation(x, batch, rows * cols, heads, head_dim,
                                                    grid_pairs(variant, head_dim, 10000.0), where, pairing);
  CHECK(worst_relative(out, x, want, head_dim, head_dim, pairing) <= kRopeBound);

  // Heads-major rows give the same values, moved.
  spec.order = posenc::RopeOrder::kHeads;
  std::vector<float> heads_major(x.size()), out_heads(x.size());
  const std::size_t seq = rows * cols;
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t t = 0; t < seq; ++t)
      for (std::size_t h = 0; h < heads; ++h)
        for (std::size_t i = 0; i < head_dim; ++i)
          heads_major[((b * heads + h) * seq + t) * head_dim + i] = x[((b * seq + t) * heads + h) * head_dim + i];
  REQUIRE(posenc::rope_grid(spec, heads_major.data(), out_heads.data()) == Status::kOk);
  std::size_t moved = 0;
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t t = 0; t < seq; ++t)
      for (std::size_t h = 0; h < heads; ++h)
        for (std::size_t i = 0; i < head_dim; ++i)
          moved += same_bits(out_heads[((b * heads + h) * seq + t) * head_dim + i],
                             out[((b * seq + t) * heads + h) * head_dim + i]);
  CHECK(moved == x.size());
}

TEST_CASE("ropeGrid rules: grid size, variant, head_dim per variant", "[rope_grid][status]") {
  posenc::RopeGridSpec spec;
  spec.rows = 4;
  spec.cols = 4;
  spec.head_dim = 8;
  CHECK(posenc::check(spec) == Status::kOk);
  spec.head_dim = 6;  // pixtral: even is enough (the row axis gets the odd pair)
  CHECK(posenc::check(spec) == Status::kOk);
  spec.variant = posenc::RopeGridVariant::kAxial;
  CHECK(posenc::check(spec) == Status::kGridHeadDimInvalid);
  spec.head_dim = 2;
  CHECK(posenc::check(spec) == Status::kGridHeadDimInvalid);
  spec.variant = posenc::RopeGridVariant::kPixtral;
  CHECK(posenc::check(spec) == Status::kGridHeadDimInvalid);
  spec.head_dim = 7;
  CHECK(posenc::check(spec) == Status::kGridHeadDimInvalid);
  spec.head_dim = 8;
  spec.variant = static_cast<posenc::RopeGridVariant>(2);
  CHECK(posenc::check(spec) == Status::kGridVariantInvalid);
  spec.variant = posenc::RopeGridVariant::kAxial;
  spec.rows = 1u << 13;
  spec.cols = (1u << 11) + 1;
  CHECK(posenc::check(spec) == Status::kGridTooLarge);
  spec.rows = 1u << 12;
  spec.cols = 1u << 12;
  CHECK(posenc::check(spec) == Status::kOk);
  spec.frames = 2;  // 2^25 tokens
  CHECK(posenc::check(spec) == Status::kGridFramesTooLarge);
  spec.rows = 0;
  CHECK(posenc::check(spec) == Status::kOk);
  CHECK(posenc::rope_grid(spec, nullptr, nullptr) == Status::kOk);  // no patches, nothing to touch
}

namespace {

// |got - want| in float32 ulps of the pair's |x_a| + |x_b|, the worst over a rotated tensor.
double worst_ulps(const std::vector<float>& got, const std::vector<float>& x, const std::vector<double>& want,
                  std::size_t head_dim, Pairing pairing) {
  double worst = 0;
  for (std::size_t at = 0; at < x.size(); at += head_dim) {
    for (std::size_t k = 0; k < head_dim / 2; ++k) {
      const reference::PairChannels ch = reference::pair_channels(k, head_dim, pairing);
      const double scale = std::fabs(static_cast<double>(x[at + ch.a])) + std::fabs(static_cast<double>(x[at + ch.b]));
      const double ulp = std::ldexp(1.0, std::ilogb(scale) - 23);
      for (const std::size_t channel : {at + ch.a, at + ch.b})
        worst = std::max(worst, std::fabs(got[channel] - want[channel]) / ulp);
    }
  }
  return worst;
}

std::vector<float> floats_of(const golden_json::Value& list) {
  std::vector<float> out;
  for (const double v : list.numbers()) out.push_back(static_cast<float>(v));
  return out;
}

}  // namespace

TEST_CASE("M-RoPE and ropeGrid against the models' own code in float64 (tests/golden/axis-phases.json)",
          "[rope][mrope][rope_grid][golden]") {
  const golden_json::Value file = golden_json::read_golden("axis-phases.json");
  double worst = 0;
  for (const golden_json::Value& c : file["mrope"].array) {
    posenc::RopeSpec spec;
    spec.seq_len = static_cast<std::uint32_t>(c["seqLen"].number);
    spec.num_heads = static_cast<std::uint32_t>(c["numHeads"].number);
    spec.head_dim = spec.rotary_dim = static_cast<std::uint32_t>(c["headDim"].number);
    spec.base = c["base"].number;
    spec.layout = posenc::RopeLayout::kHalf;
    spec.order = posenc::RopeOrder::kHeads;
    spec.mrope.enabled = true;
    spec.mrope.interleaved = c["interleaved"].boolean;
    for (std::size_t a = 0; a < 3; ++a) spec.mrope.section[a] = static_cast<std::uint32_t>(c["section"][a].number);
    std::vector<std::int32_t> positions;
    for (const double p : c["positions"].numbers()) positions.push_back(static_cast<std::int32_t>(p));
    const std::vector<float> q = floats_of(c["q"]), k = floats_of(c["k"]);
    std::vector<float> q_out(q.size()), k_out(k.size());
    REQUIRE(posenc::rope_qk(spec, static_cast<std::uint32_t>(c["numKvHeads"].number), listed(positions), q.data(),
                            q_out.data(), k.data(), k_out.data()) == Status::kOk);
    const double q_ulps = worst_ulps(q_out, q, c["float64"]["q"].numbers(), spec.head_dim, Pairing::kHalf);
    const double k_ulps = worst_ulps(k_out, k, c["float64"]["k"].numbers(), spec.head_dim, Pairing::kHalf);
    INFO(c["name"].string << ": " << q_ulps << ", " << k_ulps << " ulps");
    CHECK(std::max(q_ulps, k_ulps) <= 2.0);
    worst = std::max({worst, q_ulps, k_ulps});
  }
  for (const golden_json::Value& c : file["grid"].array) {
    posenc::RopeGridSpec spec;
    spec.rows = static_cast<std::uint32_t>(c["rows"].number);
    spec.cols = static_cast<std::uint32_t>(c["cols"].number);
    spec.num_heads = static_cast<std::uint32_t>(c["numHeads"].number);
    spec.head_dim = static_cast<std::uint32_t>(c["headDim"].number);
    spec.base = c["base"].number;
    const bool pixtral = c["variant"].string == "pixtral";
    spec.variant = pixtral ? posenc::RopeGridVariant::kPixtral : posenc::RopeGridVariant::kAxial;
    spec.layout = pixtral ? posenc::RopeLayout::kHalf : posenc::RopeLayout::kInterleaved;
    spec.order = posenc::RopeOrder::kHeads;
    spec.frames = static_cast<std::uint32_t>(c["frames"].number);
    const std::vector<float> x = floats_of(c["x"]);
    std::vector<float> out(x.size());
    REQUIRE(posenc::rope_grid(spec, x.data(), out.data()) == Status::kOk);
    const double ulps =
        worst_ulps(out, x, c["float64"].numbers(), spec.head_dim, pixtral ? Pairing::kHalf : Pairing::kInterleaved);
    INFO(c["variant"].string << " " << spec.rows << "x" << spec.cols << " head_dim " << spec.head_dim << ": " << ulps);
    CHECK(ulps <= 2.0);
    worst = std::max(worst, ulps);
  }
  WorstError record;
  record.update(worst, 0);
  record_precision("M-RoPE / ropeGrid vs the models' float64 code, float32 ulps of |x_a| + |x_b|", record, "ulps");
}
