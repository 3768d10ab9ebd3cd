// The RoPE rotation kernels (kernels/rotate.h): the xsimd versions against the scalar loops
// for every length 0..67 and a few large ones, at unaligned addresses, in place and out of
// place. The build uses -ffp-contract=off, so both must round identically: bit-identical
// results. Guards around every array catch writes past n.
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/generators/catch_generators_range.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "kernels/rotate.h"
#include "test_support.h"

namespace {

using namespace test_support;
using Arch = xsimd::default_arch;
using posenc::kernels::RotateHalf;
using posenc::kernels::RotateInterleaved;

constexpr std::size_t kLanes = xsimd::batch<float, Arch>::size;

enum class Target { kInPlace, kSeparateOut };

// fl(fl(p) +- fl(q)) is within 2 * 2^-24 * (|p| + |q|) of p +- q (three roundings, the last on a
// value no larger than |p| + |q|): the error of got / that bound.
long double rounding_ratio(float got, long double p, long double q, long double exact) {
  const long double bound = 0x1p-23L * (std::fabs(p) + std::fabs(q)) * (1 + 0x1p-20L);
  return bound > 0 ? std::fabs(got - exact) / bound : (got == 0 ? 0 : 1e30L);
}

}  // namespace

TEST_CASE("RotateHalf: simd equals scalar bit for bit, for every n", "[kernels]") {
  const std::size_t n = GENERATE(range<std::size_t>(0, 68), 127, 128, 129, 1000, 4099);
  const std::size_t shift = GENERATE(0, 1);  // 1: every pointer one float off the alignment
  const Target target = GENERATE(Target::kInPlace, Target::kSeparateOut);
  INFO("n " << n << ", shift " << shift << ", lanes " << kLanes << ", "
            << (target == Target::kInPlace ? "in place" : "out of place"));
  const std::vector<float> cos = random_floats(n, 1), sin = random_floats(n, 2);
  const std::vector<float> a = random_floats(n, 3, -4.0f, 4.0f), b = random_floats(n, 4, -4.0f, 4.0f);

  GuardedBuffer c(n, shift), s(n, shift), src_a(n, shift), src_b(n, shift), out_a(n, shift), out_b(n, shift);
  c.assign(cos);
  s.assign(sin);
  src_a.assign(a);
  src_b.assign(b);
  GuardedBuffer& dst_a = target == Target::kInPlace ? src_a : out_a;
  GuardedBuffer& dst_b = target == Target::kInPlace ? src_b : out_b;
  RotateHalf::simd<Arch>(c.data(), s.data(), src_a.data(), src_b.data(), dst_a.data(), dst_b.data(), n);

  std::vector<float> want_a(n), want_b(n);
  RotateHalf::scalar(0, cos.data(), sin.data(), a.data(), b.data(), want_a.data(), want_b.data(), n);
  CHECK(first_difference(dst_a.values(), want_a) == n);
  CHECK(first_difference(dst_b.values(), want_b) == n);

  // And both are the rotation a' = a cos - b sin, b' = b cos + a sin.
  WorstError worst;
  for (std::size_t i = 0; i < n; ++i) {
    const long double ac = static_cast<long double>(a[i]) * cos[i], bs = static_cast<long double>(b[i]) * sin[i];
    const long double bc = static_cast<long double>(b[i]) * cos[i], as = static_cast<long double>(a[i]) * sin[i];
    worst.update(rounding_ratio(dst_a.data()[i], ac, bs, ac - bs), i);
    worst.update(rounding_ratio(dst_b.data()[i], bc, as, bc + as), i);
  }
  INFO("worst element " << worst.index << ": error / bound " << static_cast<double>(worst.value));
  CHECK(worst.value <= 1);

  for (const GuardedBuffer* buffer : {&c, &s, &src_a, &src_b, &out_a, &out_b}) CHECK(buffer->guards_intact());
  if (target == Target::kSeparateOut) {  // the sources are read only
    CHECK(first_difference(src_a.values(), a) == n);
    CHECK(first_difference(src_b.values(), b) == n);
  }
}

TEST_CASE("RotateInterleaved: simd equals scalar bit for bit, for every even n", "[kernels]") {
  // n counts channels of whole (x[2i], x[2i+1]) pairs, so it is even.
  const std::size_t n = GENERATE(range<std::size_t>(0, 68, 2), 126, 128, 130, 1000, 4098);
  const std::size_t shift = GENERATE(0, 1);
  const Target target = GENERATE(Target::kInPlace, Target::kSeparateOut);
  INFO("n " << n << ", shift " << shift << ", lanes " << kLanes << ", "
            << (target == Target::kInPlace ? "in place" : "out of place"));
  // Arbitrary values rather than the [c, c] / [-s, s] expansion: the kernels must agree on
  // the formula x'[j] = x[j] cos_dup[j] + x[j ^ 1] sin_signed[j] for any inputs.
  const std::vector<float> cos_dup = random_floats(n, 5), sin_signed = random_floats(n, 6);
  const std::vector<float> x = random_floats(n, 7, -4.0f, 4.0f);

  GuardedBuffer c(n, shift), s(n, shift), src(n, shift), out(n, shift);
  c.assign(cos_dup);
  s.assign(sin_signed);
  src.assign(x);
  GuardedBuffer& dst = target == Target::kInPlace ? src : out;
  RotateInterleaved::simd<Arch>(c.data(), s.data(), src.data(), dst.data(), n);

  std::vector<float> want(n);
  RotateInterleaved::scalar(0, cos_dup.data(), sin_signed.data(), x.data(), want.data(), n);
  CHECK(first_difference(dst.values(), want) == n);

  WorstError worst;
  for (std::size_t j = 0; j < n; ++j) {
    const long double p = static_cast<long double>(x[j]) * cos_dup[j];
    const long double q = static_cast<long double>(x[j ^ 1]) * sin_signed[j];
    worst.update(rounding_ratio(dst.data()[j], p, q, p + q), j);
  }
  INFO("worst channel " << worst.index << ": error / bound " << static_cast<double>(worst.value));
  CHECK(worst.value <= 1);

  for (const GuardedBuffer* buffer : {&c, &s, &src, &out}) CHECK(buffer->guards_intact());
  if (target == Target::kSeparateOut) CHECK(first_difference(src.values(), x) == n);
}

TEST_CASE("rotate_interleaved with expanded cos/sin is the half kernel's rotation", "[kernels]") {
  // cos_dup = [c0, c0, c1, c1, ...], sin_signed = [-s0, s0, -s1, s1, ...] as rope.cpp builds
  // them: x[j] c + x[j^1] (-s) rounds exactly like a c - b s, so the two pairings agree.
  const std::size_t pairs = 37;
  const std::vector<float> cos = random_floats(pairs, 8), sin = random_floats(pairs, 9);
  const std::vector<float> x = random_floats(2 * pairs, 10, -3.0f, 3.0f);
  std::vector<float> cos_dup(2 * pairs), sin_signed(2 * pairs), out(2 * pairs);
  for (std::size_t i = 0; i < pairs; ++i) {
    cos_dup[2 * i] = cos_dup[2 * i + 1] = cos[i];
    sin_signed[2 * i] = -sin[i];
    sin_signed[2 * i + 1] = sin[i];
  }
  RotateInterleaved::simd<Arch>(cos_dup.data(), sin_signed.data(), x.data(), out.data(), 2 * pairs);
  std::vector<float> a(pairs), b(pairs), half_a(pairs), half_b(pairs);
  for (std::size_t i = 0; i < pairs; ++i) {
    a[i] = x[2 * i];
    b[i] = x[2 * i + 1];
  }
  RotateHalf::scalar(0, cos.data(), sin.data(), a.data(), b.data(), half_a.data(), half_b.data(), pairs);
  std::vector<float> regrouped(2 * pairs);  // half kernel's output interleaved again
  for (std::size_t i = 0; i < pairs; ++i) {
    regrouped[2 * i] = half_a[i];
    regrouped[2 * i + 1] = half_b[i];
  }
  CHECK(first_difference(out, regrouped) == out.size());
}
