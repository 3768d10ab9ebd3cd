// rope against the long-double reference: both pairings, partial rotary, several heads,
// offsets and explicit positions, in place and out of place, every head_dim/rotary_dim from 2
// to 70, the precision contract (|x' - ref| <= kRopeBound (|x_a| + |x_b|) below position 2^24) and
// RoPE's relative property. rope_cache is tested in rope_cache_test.cpp, rope_frequencies in
// frequencies_test.cpp.
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/generators/catch_generators_range.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "posenc/posenc.h"
#include "precision.h"
#include "reference.h"
#include "test_support.h"

namespace {

using reference::Pairing;
using reference::Real;
using reference::RopeShape;
using namespace test_support;

constexpr std::int64_t kContractPositions = std::int64_t{1} << 24;

posenc::RopeSpec spec_of(const RopeShape& shape, Pairing pairing, double base = 10000.0) {
  posenc::RopeSpec spec;
  spec.seq_len = static_cast<std::uint32_t>(shape.seq_len);
  spec.num_heads = static_cast<std::uint32_t>(shape.num_heads);
  spec.head_dim = static_cast<std::uint32_t>(shape.head_dim);
  spec.rotary_dim = static_cast<std::uint32_t>(shape.rotary_dim);
  spec.base = base;
  spec.layout = pairing == Pairing::kInterleaved ? posenc::RopeLayout::kInterleaved : posenc::RopeLayout::kHalf;
  return spec;
}

std::size_t element_count(const RopeShape& shape) { return shape.seq_len * shape.num_heads * shape.head_dim; }

enum class Target { kInPlace, kSeparateOut };

// The core's rotation of x, in place (on a copy) or into a sentinel-filled out (x must then
// stay untouched).
std::vector<float> rotate(const std::vector<float>& x, const RopeShape& shape, const posenc::Positions& positions,
                          Pairing pairing, Target target, double base = 10000.0) {
  REQUIRE(x.size() == element_count(shape));
  if (target == Target::kInPlace) {
    std::vector<float> y = x;
    REQUIRE(posenc::rope(spec_of(shape, pairing, base), positions, y.data(), y.data()) == posenc::Status::kOk);
    return y;
  }
  const std::vector<float> x_before = x;
  std::vector<float> out = sentinel_filled(x.size());
  REQUIRE(posenc::rope(spec_of(shape, pairing, base), positions, x.data(), out.data()) == posenc::Status::kOk);
  CHECK(first_difference(x, x_before) == x.size());  // x is read only
  return out;
}

// How far a rotated x is from the reference: the worst |x' - ref| / (|x_a| + |x_b|) over the
// rotated channels (a zero pair must stay exactly zero), and the pass-through channels that
// are not bit-identical copies of x.
struct RopeErrors {
  WorstError relative;
  std::size_t passthrough_mismatches = 0;
};

RopeErrors rope_errors(const std::vector<float>& out, const std::vector<float>& x, const RopeShape& shape,
                       const std::vector<std::int64_t>& positions, Pairing pairing, double base = 10000.0) {
  const std::vector<Real> want = reference::rope(x, shape, positions, base, pairing);
  RopeErrors errors;
  for (std::size_t row_head = 0; row_head < shape.seq_len * shape.num_heads; ++row_head) {
    const std::size_t at = row_head * shape.head_dim;
    for (std::size_t pair = 0; pair < shape.rotary_dim / 2; ++pair) {
      const reference::PairChannels ch = reference::pair_channels(pair, shape.rotary_dim, pairing);
      const Real scale = std::fabs(static_cast<Real>(x[at + ch.a])) + std::fabs(static_cast<Real>(x[at + ch.b]));
      for (const std::size_t channel : {at + ch.a, at + ch.b}) {
        const Real error = std::fabs(out[channel] - want[channel]);
        errors.relative.update(scale > 0 ? error / scale : (error == 0 ? 0 : std::numeric_limits<Real>::infinity()),
                               channel);
      }
    }
    for (std::size_t channel = at + shape.rotary_dim; channel < at + shape.head_dim; ++channel)
      errors.passthrough_mismatches += !same_bits(out[channel], x[channel]);
  }
  return errors;
}

void check_rope(const std::vector<float>& out, const std::vector<float>& x, const RopeShape& shape,
                const std::vector<std::int64_t>& positions, Pairing pairing, double base = 10000.0) {
  const RopeErrors errors = rope_errors(out, x, shape, positions, pairing, base);
  const std::size_t worst = errors.relative.index;
  INFO("seq_len " << shape.seq_len << ", heads " << shape.num_heads << ", head_dim " << shape.head_dim
                  << ", rotary_dim " << shape.rotary_dim << ", "
                  << (pairing == Pairing::kInterleaved ? "interleaved" : "half") << ", base " << base
                  << "; worst at element " << worst << " (position "
                  << positions[worst / (shape.num_heads * shape.head_dim)]
                  << "): error / (|x_a| + |x_b|) = " << static_cast<double>(errors.relative.value));
  CHECK(errors.relative.value <= kRopeBound);
  CHECK(errors.passthrough_mismatches == 0);
  record_precision("rope |x' - float64| / (|x_a| + |x_b|)", errors.relative, "(bound: kRopeBound)");
}

}  // namespace

TEST_CASE("rope matches the reference for every head_dim and rotary_dim from 2 to 70", "[rope]") {
  const std::size_t head_dim = GENERATE(range<std::size_t>(2, 71));
  const Pairing pairing = GENERATE(Pairing::kInterleaved, Pairing::kHalf);
  const std::vector<std::int64_t> positions = {0, 1, 1000, 70000};
  const std::vector<std::int32_t> list = to_int32(positions);
  for (std::size_t rotary_dim = 2; rotary_dim <= head_dim; rotary_dim += 2) {
    const RopeShape shape{positions.size(), 2, head_dim, rotary_dim};
    const std::vector<float> x =
        random_floats(element_count(shape), static_cast<std::uint32_t>(head_dim * 100 + rotary_dim));
    const std::vector<float> out = rotate(x, shape, listed(list), pairing, Target::kSeparateOut);
    check_rope(out, x, shape, positions, pairing);
    // In place gives the very same bits.
    const std::vector<float> in_place = rotate(x, shape, listed(list), pairing, Target::kInPlace);
    CHECK(first_difference(in_place, out) == out.size());
  }
}

TEST_CASE("rope precision contract: |x' - float64| <= kRopeBound (|x_a| + |x_b|) below position 2^24",
          "[rope][precision]") {
  const Pairing pairing = GENERATE(Pairing::kInterleaved, Pairing::kHalf);
  const std::vector<std::int64_t> samples = {
      0, 1, 2, 63, 64, 65, 1023, 1024, 1025, 2047, 32767, (1 << 20) - 1, kContractPositions - 1};
  const std::vector<std::int32_t> sample_list = to_int32(samples);
  struct Dims {
    std::size_t head_dim, rotary_dim;
  };
  for (const Dims dims :
       {Dims{64, 64}, Dims{128, 128}, Dims{128, 32}, Dims{80, 64}, Dims{258, 258}, Dims{520, 516}, Dims{8192, 8192}}) {
    const std::size_t heads = dims.head_dim > 1024 ? 1 : 3;
    const RopeShape sampled{samples.size(), heads, dims.head_dim, dims.rotary_dim};
    const std::vector<float> x = random_floats(element_count(sampled), 11, -4.0f, 4.0f);
    check_rope(rotate(x, sampled, listed(sample_list), pairing, Target::kSeparateOut), x, sampled, samples, pairing);
    // A consecutive run across the re-anchoring, up to the last contract position.
    const std::vector<std::int64_t> run =
        reference::consecutive(kContractPositions - static_cast<std::int64_t>(kRunAcrossAnchor), kRunAcrossAnchor);
    const RopeShape run_shape{run.size(), heads, dims.head_dim, dims.rotary_dim};
    const std::vector<float> y = random_floats(element_count(run_shape), 12, -4.0f, 4.0f);
    check_rope(rotate(y, run_shape, from_offset(static_cast<std::uint32_t>(run.front())), pairing, Target::kInPlace), y,
               run_shape, run, pairing);
  }
}

TEST_CASE("rope with partial rotary passes the other channels through bit-exactly", "[rope]") {
  const Pairing pairing = GENERATE(Pairing::kInterleaved, Pairing::kHalf);
  const Target target = GENERATE(Target::kInPlace, Target::kSeparateOut);
  // GPT-NeoX (25%) and Phi-2 (40%) style: 64 of 256, 32 of 80; plus odd head_dims.
  struct Dims {
    std::size_t head_dim, rotary_dim;
  };
  const Dims dims = GENERATE(Dims{256, 64}, Dims{80, 32}, Dims{7, 2}, Dims{33, 30}, Dims{300, 258});
  const RopeShape shape{5, 3, dims.head_dim, dims.rotary_dim};
  std::vector<float> x = random_floats(element_count(shape), 21, -2.0f, 2.0f);
  // Values arithmetic could alter: NaN payloads, -0, infinities, subnormals.
  const float specials[] = {sentinel(), -0.0f, std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::denorm_min(), -std::numeric_limits<float>::max()};
  for (std::size_t row_head = 0; row_head < shape.seq_len * shape.num_heads; ++row_head)
    for (std::size_t ch = dims.rotary_dim; ch < dims.head_dim; ++ch)
      if ((row_head + ch) % 3 == 0) x[row_head * dims.head_dim + ch] = specials[(row_head + ch) % 5];
  const std::vector<float> out = rotate(x, shape, from_offset(40), pairing, target);
  check_rope(out, x, shape, reference::consecutive(40, shape.seq_len), pairing);
}

TEST_CASE("rope rotates every head of a row by the row's position", "[rope]") {
  const Pairing pairing = GENERATE(Pairing::kInterleaved, Pairing::kHalf);
  const std::size_t num_heads = GENERATE(1, 2, 5, 32);
  const RopeShape shape{70, num_heads, 24, 24};
  // Every head holds the same vector, so every head's output must be the same.
  const std::vector<float> head = random_floats(shape.seq_len * shape.head_dim, 31);
  std::vector<float> x(element_count(shape));
  for (std::size_t row = 0; row < shape.seq_len; ++row)
    for (std::size_t h = 0; h < num_heads; ++h)
      for (std::size_t ch = 0; ch < shape.head_dim; ++ch)
        x[(row * num_heads + h) * shape.head_dim + ch] = head[row * shape.head_dim + ch];
  const std::vector<float> out = rotate(x, shape, from_offset(100), pairing, Target::kSeparateOut);
  check_rope(out, x, shape, reference::consecutive(100, shape.seq_len), pairing);
  std::size_t differing_heads = 0;
  for (std::size_t row = 0; row < shape.seq_len; ++row)
    for (std::size_t h = 1; h < num_heads; ++h) {
      const float* first_head = &out[row * num_heads * shape.head_dim];
      differing_heads +=
          first_difference(first_head + h * shape.head_dim, first_head, shape.head_dim) != shape.head_dim;
    }
  CHECK(differing_heads == 0);
}

TEST_CASE("rope with offsets and explicit positions: jumps, repeats, descending", "[rope]") {
  const Pairing pairing = GENERATE(Pairing::kInterleaved, Pairing::kHalf);
  const Target target = GENERATE(Target::kInPlace, Target::kSeparateOut);
  const std::size_t head_dim = GENERATE(6, 64, 300);
  SECTION("offsets") {
    const std::uint32_t offset = GENERATE(1u, 64u, 4095u, (1u << 24) - 100u);
    const RopeShape shape{100, 2, head_dim, head_dim};
    const std::vector<float> x = random_floats(element_count(shape), 41);
    const std::vector<std::int64_t> positions = reference::consecutive(offset, shape.seq_len);
    const std::vector<float> out = rotate(x, shape, from_offset(offset), pairing, target);
    check_rope(out, x, shape, positions, pairing);
    const std::vector<std::int32_t> list = to_int32(positions);
    CHECK(first_difference(rotate(x, shape, listed(list), pairing, target), out) == out.size());
  }
  SECTION("explicit positions") {
    std::vector<std::int64_t> positions = {9, 3, 3, 3, 4, 1000000, 1000001, 0, 65, 64, 63, 62};
    for (std::int64_t p = 12000; p < 12000 + static_cast<std::int64_t>(kRunAcrossAnchor); ++p) positions.push_back(p);
    for (std::int64_t p = 90; p >= 0; p -= 3) positions.push_back(p);
    positions.push_back(kContractPositions - 1);
    const std::vector<std::int32_t> list = to_int32(positions);
    const RopeShape shape{positions.size(), 2, head_dim, head_dim};
    const std::vector<float> x = random_floats(element_count(shape), 42);
    check_rope(rotate(x, shape, listed(list), pairing, target), x, shape, positions, pairing);
  }
}

TEST_CASE("rope with other bases", "[rope]") {
  const double base = GENERATE(1.0, 0.5, 500000.0, 1e6, 1e12);
  const Pairing pairing = GENERATE(Pairing::kInterleaved, Pairing::kHalf);
  const RopeShape shape{100, 2, 64, 48};
  const std::vector<float> x = random_floats(element_count(shape), 51);
  check_rope(rotate(x, shape, from_offset(7), pairing, Target::kSeparateOut, base), x, shape,
             reference::consecutive(7, shape.seq_len), pairing, base);
}

TEST_CASE("rope's relative property: rot(q, m).rot(k, n) = rot(q, m + t).rot(k, n + t)", "[rope]") {
  // Each rotated component is within eps (|a| + |b|) of the exact rotation (eps = kRopeBound, the
  // contract), and |rotated component| <= |a| + |b|. So pair p's contribution q'_a k'_a +
  // q'_b k'_b is within 2 (2 eps + eps^2) Q_p K_p of the exact one (Q_p = |q_a| + |q_b|,
  // K_p likewise), the exact dot products at (m, n) and (m + t, n + t) are equal, and the two
  // computed ones (summed in long double, so the sum adds no error) differ by at most
  // 8 eps (1 + eps/2) sum_p Q_p K_p. Pass-through channels are identical in both and cancel.
  const Pairing pairing = GENERATE(Pairing::kInterleaved, Pairing::kHalf);
  struct Dims {
    std::size_t head_dim, rotary_dim;
  };
  const Dims dims = GENERATE(Dims{128, 128}, Dims{64, 16}, Dims{6, 6});
  const RopeShape one{1, 1, dims.head_dim, dims.rotary_dim};
  const std::vector<float> q = random_floats(dims.head_dim, 61, -2.0f, 2.0f);
  const std::vector<float> k = random_floats(dims.head_dim, 62, -2.0f, 2.0f);
  Real pair_scale = 0;  // sum_p Q_p K_p
  for (std::size_t p = 0; p < dims.rotary_dim / 2; ++p) {
    const reference::PairChannels ch = reference::pair_channels(p, dims.rotary_dim, pairing);
    pair_scale += (std::fabs(static_cast<Real>(q[ch.a])) + std::fabs(q[ch.b])) *
                  (std::fabs(static_cast<Real>(k[ch.a])) + std::fabs(k[ch.b]));
  }
  const Real tolerance = 8 * kRopeBound * (1 + kRopeBound) * pair_scale;
  auto score = [&](std::int64_t m, std::int64_t n) {
    const std::vector<float> qm =
        rotate(q, one, from_offset(static_cast<std::uint32_t>(m)), pairing, Target::kSeparateOut);
    const std::vector<float> kn =
        rotate(k, one, from_offset(static_cast<std::uint32_t>(n)), pairing, Target::kSeparateOut);
    return reference::dot(qm.data(), kn.data(), dims.head_dim);
  };
  struct Shift {
    std::int64_t m, n, t;
  };
  WorstError worst;
  for (const Shift s : {Shift{0, 0, 1}, Shift{3, 10, 1}, Shift{10, 3, 64}, Shift{100, 7, 1000}, Shift{5, 5, 1 << 20},
                        Shift{0, 1000, (1 << 24) - 1001}, Shift{77, 12, (1 << 24) - 78}, Shift{4096, 0, 123457}}) {
    const Real before = score(s.m, s.n), after = score(s.m + s.t, s.n + s.t);
    // Both also match the exact score, which depends on m - n only.
    const std::vector<Real> exact_q = reference::rope(q, one, {s.m}, 10000.0L, pairing);
    const std::vector<Real> exact_k = reference::rope(k, one, {s.n}, 10000.0L, pairing);
    const Real exact = reference::dot(exact_q.data(), exact_k.data(), dims.head_dim);
    INFO("m " << s.m << ", n " << s.n << ", t " << s.t << ": " << static_cast<double>(before) << " vs "
              << static_cast<double>(after) << " (exact " << static_cast<double>(exact) << "), tolerance "
              << static_cast<double>(tolerance));
    CHECK(std::fabs(before - after) <= tolerance);
    CHECK(std::fabs(before - exact) <= tolerance / 2);
    CHECK(std::fabs(after - exact) <= tolerance / 2);
    worst.update(std::fabs(before - after) / pair_scale, 0);
  }
  record_precision("rope relative property |s(m,n) - s(m+t,n+t)| / sum Q_p K_p", worst, "(bound 4e-6)");
}

TEST_CASE("rope preserves pair norms at any position up to 2^31 - 1", "[rope]") {
  // Beyond 2^24 there is no contract, but a rotation must stay a rotation.
  const Pairing pairing = GENERATE(Pairing::kInterleaved, Pairing::kHalf);
  const std::vector<std::int64_t> positions = {posenc::kMaxPosition, posenc::kMaxPosition - 1, 1LL << 30,
                                               (1LL << 24) + 3, 987654321};
  const std::vector<std::int32_t> list = to_int32(positions);
  const RopeShape shape{positions.size(), 2, 64, 64};
  const std::vector<float> x = random_floats(element_count(shape), 71);
  const std::vector<float> out = rotate(x, shape, listed(list), pairing, Target::kSeparateOut);
  WorstError norm_change;  // relative
  for (std::size_t row_head = 0; row_head < shape.seq_len * shape.num_heads; ++row_head)
    for (std::size_t p = 0; p < 32; ++p) {
      const reference::PairChannels ch = reference::pair_channels(p, 64, pairing);
      const std::size_t at = row_head * 64;
      const Real before = std::hypot(static_cast<Real>(x[at + ch.a]), static_cast<Real>(x[at + ch.b]));
      const Real after = std::hypot(static_cast<Real>(out[at + ch.a]), static_cast<Real>(out[at + ch.b]));
      norm_change.update(std::fabs(after - before) / before, at + ch.a);
    }
  INFO("worst relative change of a pair's norm " << static_cast<double>(norm_change.value) << " at element "
                                                 << norm_change.index);
  CHECK(norm_change.value <= 1e-6);
  // Still close to the exact rotation: the float64 angle is off by about 4 * 2^-53 * position.
  const RopeErrors errors = rope_errors(out, x, shape, positions, pairing);
  CHECK(errors.relative.value <= kRopeBound + 2 * 4 * 0x1p-53 * static_cast<double>(posenc::kMaxPosition));
}

TEST_CASE("rope equals rotating by rope_cache's cos and sin", "[rope]") {
  // The cache is the ONNX RotaryEmbedding input: rotating with it by hand (float32, no FMA)
  // gives the same bits as rope, for both pairings, while both run the same float64
  // recurrence (within one anchor interval: beyond it they may re-anchor on different rows).
  const Pairing pairing = GENERATE(Pairing::kInterleaved, Pairing::kHalf);
  const RopeShape shape{90, 3, 40, 36};
  REQUIRE(shape.seq_len < posenc::PhaseBlock::kAnchorInterval);
  const std::size_t half = shape.rotary_dim / 2;
  posenc::RopeCacheSpec cache_spec;
  cache_spec.seq_len = static_cast<std::uint32_t>(shape.seq_len);
  cache_spec.rotary_dim = static_cast<std::uint32_t>(shape.rotary_dim);
  std::vector<float> cos(shape.seq_len * half), sin(shape.seq_len * half);
  REQUIRE(posenc::rope_cache(cache_spec, from_offset(500), cos.data(), sin.data()) == posenc::Status::kOk);
  const std::vector<float> x = random_floats(element_count(shape), 81);
  std::vector<float> by_hand = x;
  for (std::size_t row = 0; row < shape.seq_len; ++row)
    for (std::size_t h = 0; h < shape.num_heads; ++h)
      for (std::size_t p = 0; p < half; ++p) {
        const reference::PairChannels ch = reference::pair_channels(p, shape.rotary_dim, pairing);
        const std::size_t at = (row * shape.num_heads + h) * shape.head_dim;
        const float a = x[at + ch.a], b = x[at + ch.b], c = cos[row * half + p], s = sin[row * half + p];
        by_hand[at + ch.a] = a * c - b * s;
        by_hand[at + ch.b] = b * c + a * s;
      }
  const std::vector<float> out = rotate(x, shape, from_offset(500), pairing, Target::kSeparateOut);
  CHECK(first_difference(out, by_hand) == out.size());
}

TEST_CASE("rope with seq_len 0 is a no-op that accepts null arrays", "[rope]") {
  const RopeShape shape{0, 2, 8, 8};
  CHECK(posenc::rope(spec_of(shape, Pairing::kHalf), from_offset(0), kNoFloats, kNoFloats) == posenc::Status::kOk);
  std::vector<float> out = sentinel_filled(16);
  const std::vector<float> x(16, 1.0f);
  CHECK(posenc::rope(spec_of(shape, Pairing::kInterleaved), from_offset(3), x.data(), out.data()) ==
        posenc::Status::kOk);
  CHECK(overwritten(out) == 0);
}
