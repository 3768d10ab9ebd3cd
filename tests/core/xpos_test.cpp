// xPos (xpos.h) against a long-double reference of its formula and against torchscale's XPOS
// run in float64 (tests/golden/xpos.json): the grown phases over the re-anchoring, every layout,
// partial rotary, batches, head orders and GQA; q·k a function of m − n; the inverse; pieces;
// the range rule and the option rules.
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "golden_json.h"
#include "phases.h"
#include "posenc/posenc.h"
#include "reference.h"
#include "test_support.h"
#include "xpos_scale.h"

namespace {

using posenc::RopeLayout;
using posenc::RopePlan;
using posenc::Status;
using posenc::XposRole;
using reference::Real;
using namespace test_support;

struct XposCase {
  std::size_t seq_len, num_heads, head_dim, rotary_dim;
  RopeLayout layout;
  double scale_base, gamma;
  std::int64_t center;
  double sign;  // +1 queries, −1 keys (and reversed by the inverse)
};

// The reference: RoPE with pair i of row t scaled by zeta_i^(sign (p_t − center) / scale_base).
std::vector<Real> reference_xpos(const std::vector<float>& x, const XposCase& c,
                                 const std::vector<std::int64_t>& positions, bool inverse) {
  const std::size_t half = c.rotary_dim / 2;
  const reference::Pairing pairing =
      c.layout == RopeLayout::kInterleaved ? reference::Pairing::kInterleaved : reference::Pairing::kHalf;
  const std::vector<Real> inv = reference::inverse_frequencies(c.rotary_dim, 10000.0L);
  std::vector<Real> out(x.begin(), x.end());
  for (std::size_t row = 0; row < c.seq_len; ++row) {
    const Real exponent =
        static_cast<Real>(c.sign) * static_cast<Real>(positions[row] - c.center) / static_cast<Real>(c.scale_base);
    for (std::size_t pair = 0; pair < half; ++pair) {
      Real s, co;
      reference::sin_cos(static_cast<Real>(positions[row]) * inv[pair] * (inverse ? -1 : 1), &s, &co);
      const Real scale = reference::xpos_scale(pair, c.rotary_dim, c.gamma, exponent);
      const reference::PairChannels ch = reference::pair_channels(pair, c.rotary_dim, pairing);
      for (std::size_t head = 0; head < c.num_heads; ++head) {
        const std::size_t at = (row * c.num_heads + head) * c.head_dim;
        const Real a = x[at + ch.a], b = x[at + ch.b];
        out[at + ch.a] = scale * (a * co - b * s);
        out[at + ch.b] = scale * (b * co + a * s);
      }
    }
  }
  return out;
}

// The largest error of a rotated component in float32 ulps of its pair's length
// (scale · |(x_a, x_b)|, what the rotation preserves), the measure docs/api.md quotes.
double worst_pair_ulps(const std::vector<float>& got, const std::vector<Real>& want, std::size_t rows_heads,
                       std::size_t head_dim, std::size_t rotary_dim, RopeLayout layout) {
  double worst = 0;
  for (std::size_t v = 0; v < rows_heads; ++v)
    for (std::size_t pair = 0; pair < rotary_dim / 2; ++pair) {
      const reference::PairChannels ch = reference::pair_channels(
          pair, rotary_dim,
          layout == RopeLayout::kInterleaved ? reference::Pairing::kInterleaved : reference::Pairing::kHalf);
      const std::size_t a = v * head_dim + ch.a, b = v * head_dim + ch.b;
      const Real length = std::sqrt(want[a] * want[a] + want[b] * want[b]);
      if (length == 0) continue;
      const Real ulp = std::ldexp(1.0L, std::ilogb(static_cast<double>(length)) - 23);
      for (const std::size_t at : {a, b}) {
        const double e = static_cast<double>(std::fabs(static_cast<Real>(got[at]) - want[at]) / ulp);
        worst = e > worst ? e : worst;
      }
    }
  return worst;
}

posenc::RopeSpec xpos_spec(const XposCase& c, XposRole role, bool inverse) {
  posenc::RopeSpec spec;
  spec.seq_len = static_cast<std::uint32_t>(c.seq_len);
  spec.num_heads = static_cast<std::uint32_t>(c.num_heads);
  spec.head_dim = static_cast<std::uint32_t>(c.head_dim);
  spec.rotary_dim = static_cast<std::uint32_t>(c.rotary_dim);
  spec.layout = c.layout;
  spec.inverse = inverse;
  spec.xpos.enabled = true;
  spec.xpos.scale_base = c.scale_base;
  spec.xpos.gamma = c.gamma;
  spec.xpos.role = role;
  spec.xpos.has_center = true;
  spec.xpos.center = static_cast<double>(c.center);
  return spec;
}

// Every component within 2 float32 ulps of its pair's length: the phases (scale included) are
// float64 rounded once, so what is left is the rotation's own float32 arithmetic.
constexpr double kPairUlps = 2.0;

}  // namespace

TEST_CASE("xpos: queries and keys scaled by zeta^(+-(p - c) / B), across the re-anchoring, every layout", "[xpos]") {
  const RopeLayout layout = GENERATE(RopeLayout::kInterleaved, RopeLayout::kHalf);
  const XposRole role = GENERATE(XposRole::kQuery, XposRole::kKey);
  const std::size_t rotary_dim =
      GENERATE(std::size_t{36}, std::size_t{64}, std::size_t{128});  // 18 pairs: not a multiple of the vector width
  const std::int64_t offset = GENERATE(std::int64_t{0}, std::int64_t{30000});
  const XposCase c{kRunAcrossAnchor,
                   2,
                   rotary_dim + 6,
                   rotary_dim,
                   layout,
                   512.0,
                   0.4,
                   offset + 600,
                   role == XposRole::kQuery ? 1.0 : -1.0};
  INFO("rotary_dim " << rotary_dim << ", offset " << offset);
  const std::vector<float> x = random_floats(c.seq_len * c.num_heads * c.head_dim, 11);
  std::vector<float> out(x.size());
  REQUIRE(posenc::rope(xpos_spec(c, role, false), from_offset(static_cast<std::uint32_t>(offset)), x.data(),
                       out.data()) == Status::kOk);
  const std::vector<Real> want = reference_xpos(x, c, reference::consecutive(offset, c.seq_len), false);
  const double worst = worst_pair_ulps(out, want, c.seq_len * c.num_heads, c.head_dim, rotary_dim, layout);
  CHECK(worst <= kPairUlps);
  record_precision("xpos rope (float32 ulps of the pair's length)", WorstError{worst, 0, out.size()}, "ulps");
  for (std::size_t v = 0; v < c.seq_len * c.num_heads; ++v)  // partial rotary: the rest passes through
    for (std::size_t ch = rotary_dim; ch < c.head_dim; ++ch)
      REQUIRE(same_bits(out[v * c.head_dim + ch], x[v * c.head_dim + ch]));
}

TEST_CASE("xpos: a large gamma (every zeta within ulps of 1) keeps its scales' digits", "[xpos]") {
  // ln zeta_0 = -ln(1 + 1/gamma) is about -1/gamma: zeta_0 itself, rounded to float64, would keep
  // almost none of it. The scale base makes |exponent| reach 40 at 600 positions from the center.
  const double gamma = GENERATE(1e8, 1e15);
  const RopeLayout layout = GENERATE(RopeLayout::kInterleaved, RopeLayout::kHalf);
  const XposCase c{kRunAcrossAnchor, 1, 36, 36, layout, 600.0 / (40.0 * gamma), gamma, 30600, 1.0};
  INFO("gamma " << gamma);
  const std::vector<float> x = random_floats(c.seq_len * c.head_dim, 12);
  std::vector<float> out(x.size());
  REQUIRE(posenc::rope(xpos_spec(c, XposRole::kQuery, false), from_offset(30000), x.data(), out.data()) == Status::kOk);
  const std::vector<Real> want = reference_xpos(x, c, reference::consecutive(30000, c.seq_len), false);
  CHECK(worst_pair_ulps(out, want, c.seq_len, c.head_dim, c.rotary_dim, layout) <= kPairUlps);
}

TEST_CASE("xpos: the grown recurrence over kAnchorInterval steps stays at direct evaluation's accuracy", "[xpos]") {
  // A PhaseBlock stepped 1024 times against the anchor computed directly at each position.
  const std::uint32_t pairs = 64;
  std::vector<double> inv(pairs), growth(pairs);
  posenc::XposSpec xpos;
  xpos.enabled = true;
  for (std::uint32_t i = 0; i < pairs; ++i) inv[i] = std::pow(10000.0, -2.0 * i / (2.0 * pairs));
  posenc::xpos_log_growth(xpos, 2 * pairs, 0, pairs, -1.0, growth.data());
  const std::int64_t center = 20000, start = 100;
  posenc::PhaseBlock stepped(inv.data(), pairs), direct(inv.data(), pairs);
  stepped.grow(growth.data(), center);
  direct.grow(growth.data(), center);
  long double worst = 0;
  for (std::int64_t p = start; p < start + posenc::PhaseBlock::kAnchorInterval; ++p) {
    stepped.advance_to(p);
    direct.advance_to(p + 1);  // a jump: re-anchored directly
    direct.advance_to(p);      // (backwards: another anchor)
    for (std::uint32_t i = 0; i < pairs; ++i) {
      const Real scale = std::exp(static_cast<Real>(p - center) * static_cast<Real>(growth[i]));
      worst = std::fmax(worst, std::fabs(static_cast<Real>(stepped.cos()[i]) - direct.cos()[i]) / scale);
      worst = std::fmax(worst, std::fabs(static_cast<Real>(stepped.sin()[i]) - direct.sin()[i]) / scale);
    }
  }
  CHECK(worst <= std::ldexp(1.0L, -24));  // the two differ by float32 rounding at most
}

TEST_CASE("xpos: rope_qk's q·k depends on m - n only, whatever the center, with GQA and heads order", "[xpos]") {
  const RopeLayout layout = GENERATE(RopeLayout::kInterleaved, RopeLayout::kHalf);
  posenc::RopeSpec spec;
  spec.seq_len = 1;
  spec.num_heads = 4;
  spec.head_dim = 64;
  spec.rotary_dim = 48;
  spec.layout = layout;
  spec.order = posenc::RopeOrder::kHeads;
  spec.xpos.enabled = true;
  spec.xpos.scale_base = 256;
  spec.xpos.has_center = true;
  const std::vector<float> q = random_floats(4 * 64, 21), k = random_floats(2 * 64, 22);
  // score(m, n, center): query head 3 against its key head 1 (GQA: two query heads per key head)
  const auto score = [&](std::int32_t m, std::int32_t n, double center) {
    spec.xpos.center = center;
    std::vector<float> q_at_m = q, k_at_m = k, q_at_n = q, k_at_n = k;
    const std::vector<std::int32_t> at_m{m}, at_n{n};
    REQUIRE(posenc::rope_qk(spec, 2, listed(at_m), q_at_m.data(), q_at_m.data(), k_at_m.data(), k_at_m.data()) ==
            Status::kOk);
    REQUIRE(posenc::rope_qk(spec, 2, listed(at_n), q_at_n.data(), q_at_n.data(), k_at_n.data(), k_at_n.data()) ==
            Status::kOk);
    return reference::dot(q_at_m.data() + 3 * 64, k_at_n.data() + 64, 64);
  };
  for (const std::int32_t delta : {0, 1, 7, 300, -40}) {
    const Real first = score(1000 + delta, 1000, 1000);
    for (const auto& [m, center] : {std::pair{5000, 0.0}, std::pair{20000, 19000.0}, std::pair{50, 3000.0}}) {
      const Real other = score(m + delta, m, center);
      CHECK(std::fabs(other - first) <= 1e-5L * reference::abs_dot(q.data() + 3 * 64, k.data() + 64, 64));
    }
  }
}

TEST_CASE("xpos: the inverse rotation undoes it (reciprocal scale, -theta)", "[xpos]") {
  const RopeLayout layout = GENERATE(RopeLayout::kInterleaved, RopeLayout::kHalf);
  const XposRole role = GENERATE(XposRole::kQuery, XposRole::kKey);
  const double sign = role == XposRole::kQuery ? 1.0 : -1.0;
  const std::vector<std::int64_t> positions = reference::consecutive(9000, 40);
  const std::vector<float> x = random_floats(40 * 3 * 32, 5);
  std::vector<float> y(x.size()), back(x.size());
  REQUIRE(posenc::rope(xpos_spec({40, 3, 32, 32, layout, 512.0, 0.4, 7000, sign}, role, false), from_offset(9000),
                       x.data(), y.data()) == Status::kOk);
  REQUIRE(posenc::rope(xpos_spec({40, 3, 32, 32, layout, 512.0, 0.4, 7000, sign}, role, true), from_offset(9000),
                       y.data(), back.data()) == Status::kOk);
  // the inverse of y is y turned by -theta and scaled by the reciprocal
  const std::vector<Real> want = reference_xpos(y, {40, 3, 32, 32, layout, 512.0, 0.4, 7000, -sign}, positions, true);
  CHECK(worst_pair_ulps(back, want, 120, 32, 32, layout) <= kPairUlps);
  for (std::size_t i = 0; i < x.size(); ++i) CHECK(std::fabs(back[i] - x[i]) <= 1e-5f);
}

TEST_CASE("xpos: torchscale's XPOS in float64 (tests/golden/xpos.json), default center", "[xpos][golden]") {
  const golden_json::Value golden = golden_json::read_golden("xpos.json");
  double worst = 0;
  std::size_t compared = 0;
  for (const golden_json::Value& g : golden["cases"].array) {
    const auto head_dim = static_cast<std::uint32_t>(g["headDim"].number);
    const auto rows = static_cast<std::uint32_t>(g["rows"].number);
    const auto length = static_cast<std::uint32_t>(g["length"].number);
    const auto offset = static_cast<std::uint32_t>(g["offset"].number);
    std::vector<float> x;
    for (const golden_json::Value& v : g["x"].array) x.push_back(static_cast<float>(v.number));
    // torchscale's [rows, length, head_dim] is posenc's [batch, seq_len, 1 head, head_dim]
    posenc::RopeSpec spec;
    spec.seq_len = length;
    spec.batch = rows;
    spec.head_dim = head_dim;
    spec.rotary_dim = head_dim;
    spec.xpos.enabled = true;
    spec.xpos.scale_base = g["scaleBase"].number;
    spec.xpos.gamma = golden["gamma"].number;
    spec.xpos.role = g["downscale"].boolean ? XposRole::kKey : XposRole::kQuery;
    std::vector<float> out(x.size());
    REQUIRE(posenc::rope(spec, from_offset(offset), x.data(), out.data()) == Status::kOk);
    std::vector<Real> want;
    for (const golden_json::Value& v : g["exact"].array) want.push_back(v.number);
    const double ulps =
        worst_pair_ulps(out, want, std::size_t{rows} * length, head_dim, head_dim, RopeLayout::kInterleaved);
    INFO("head_dim " << head_dim << ", length " << length << ", offset " << offset);
    CHECK(ulps <= kPairUlps);
    worst = ulps > worst ? ulps : worst;
    compared += out.size();
  }
  record_precision("xpos vs torchscale float64 (float32 ulps of the pair's length)", WorstError{worst, 0, compared},
                   "ulps");
}

TEST_CASE("xpos: pieces with the whole sequence's length give the bits of one apply()", "[xpos]") {
  posenc::RopeSpec spec;
  spec.seq_len = 2100;
  spec.head_dim = 40;
  spec.rotary_dim = 40;
  spec.xpos.enabled = true;
  RopePlan plan;
  REQUIRE(RopePlan::create(spec, 1, &plan) == Status::kOk);
  const std::vector<float> x = random_floats(2100 * 40, 9);
  std::vector<float> whole = x, pieces = x;
  REQUIRE(plan.apply(from_offset(3000), whole.data(), whole.data(), XposRole::kKey) == Status::kOk);
  std::vector<double> carry(plan.carry_doubles(), 0.0);
  std::uint32_t row = 0;
  for (const std::uint32_t rows : {700u, 1u, 1399u}) {
    float* at = pieces.data() + std::size_t{row} * 40;
    REQUIRE(plan.apply_piece(from_offset(3000 + row), rows, at, at, carry.data(), XposRole::kKey, 3000 + 2100) ==
            Status::kOk);
    row += rows;
  }
  CHECK(first_difference(whole, pieces) == whole.size());
}

TEST_CASE("xpos: the distance limit and the option rules", "[xpos]") {
  posenc::XposSpec xpos;
  xpos.enabled = true;
  // ln(1/FLT_MIN) / ln(1.4 / 0.4) · 512
  CHECK(posenc::xpos_max_distance(xpos, 1.0) ==
        std::floor(512 * std::log(1 / static_cast<double>(FLT_MIN)) / std::log(1.4 / 0.4)));
  CHECK(posenc::xpos_max_distance(xpos, 1.0) == 35694);
  const double limit = posenc::xpos_max_distance(xpos, 1.0);

  posenc::RopeSpec spec;
  spec.seq_len = 1;
  spec.head_dim = 8;
  spec.rotary_dim = 8;
  spec.xpos = xpos;
  spec.xpos.has_center = true;
  spec.xpos.role = XposRole::kQuery;
  std::vector<float> x = random_floats(8, 1), out(8);
  const auto at = [&](std::uint32_t position) {
    return posenc::rope(spec, from_offset(position), x.data(), out.data());
  };
  spec.xpos.center = 100;
  CHECK(at(100 + static_cast<std::uint32_t>(limit)) == Status::kOk);
  for (const float v : out) CHECK(std::isfinite(v));
  CHECK(std::fabs(out[0]) + std::fabs(out[1]) >= 0.1f * FLT_MIN);  // pair 0 at its smallest: not flushed to 0
  CHECK(at(101 + static_cast<std::uint32_t>(limit)) == Status::kXposDistanceTooLarge);
  spec.xpos.center = limit + 100;
  CHECK(at(100) == Status::kOk);
  CHECK(at(99) == Status::kXposDistanceTooLarge);

  const auto status_with = [&](auto change) {
    posenc::RopeSpec s = spec;
    s.xpos.center = 0;
    change(s);
    return posenc::rope(s, from_offset(0), x.data(), out.data());
  };
  CHECK(status_with([](posenc::RopeSpec& s) { s.xpos.scale_base = 0; }) == Status::kXposScaleBaseInvalid);
  CHECK(status_with([](posenc::RopeSpec& s) { s.xpos.scale_base = std::nan(""); }) == Status::kXposScaleBaseInvalid);
  CHECK(status_with([](posenc::RopeSpec& s) { s.xpos.scale_base = INFINITY; }) == Status::kXposScaleBaseInvalid);
  CHECK(status_with([](posenc::RopeSpec& s) { s.xpos.gamma = 0; }) == Status::kXposGammaInvalid);
  CHECK(status_with([](posenc::RopeSpec& s) { s.xpos.gamma = -1; }) == Status::kXposGammaInvalid);
  CHECK(status_with([](posenc::RopeSpec& s) { s.xpos.gamma = std::nan(""); }) == Status::kXposGammaInvalid);
  CHECK(status_with([](posenc::RopeSpec& s) { s.xpos.role = XposRole::kNone; }) == Status::kXposRoleMissing);
  CHECK(status_with([](posenc::RopeSpec& s) { s.xpos.role = static_cast<XposRole>(7); }) == Status::kXposRoleInvalid);
  CHECK(status_with([](posenc::RopeSpec& s) { s.xpos.center = 1.5; }) == Status::kXposCenterInvalid);
  CHECK(status_with([](posenc::RopeSpec& s) { s.xpos.center = -1; }) == Status::kXposCenterInvalid);
  CHECK(status_with([](posenc::RopeSpec& s) { s.xpos.enabled = false; }) == Status::kXposRoleNotTaken);
  // a scale_base so small that the growth rate overflows allows the center alone, scaled by 1
  spec.xpos.center = 7;
  spec.xpos.scale_base = 1e-310;
  CHECK(posenc::xpos_max_distance(spec.xpos, 1.0) == 0);
  CHECK(at(7) == Status::kOk);
  std::vector<float> plain(8);
  posenc::RopeSpec without = spec;
  without.xpos = posenc::XposSpec{};
  REQUIRE(posenc::rope(without, from_offset(7), x.data(), plain.data()) == Status::kOk);
  CHECK(first_difference(out, plain) == out.size());
  CHECK(at(8) == Status::kXposDistanceTooLarge);
  spec.xpos.scale_base = 512;

  std::vector<float> k = random_floats(8, 2), k_out(8);
  spec.xpos.center = 0;
  CHECK(posenc::rope_qk(spec, 1, from_offset(0), x.data(), out.data(), k.data(), k_out.data()) ==
        Status::kXposRoleNotTaken);
  spec.xpos.role = XposRole::kNone;
  CHECK(posenc::rope_qk(spec, 1, from_offset(0), x.data(), out.data(), k.data(), k_out.data()) == Status::kOk);
}
