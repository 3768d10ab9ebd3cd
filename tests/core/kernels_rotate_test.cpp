// The RoPE rotation kernels (kernels/rotate.h): the xsimd versions against the scalar loops
// for every length 0..67 and a few large ones, over one head and over several heads apart, at
// unaligned addresses, in place and out of place. The build uses -ffp-contract=off, so both must round identically:
// bit-identical results. Guards around every array catch writes past n.
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
using posenc::kernels::HeadOrder;
using posenc::kernels::RotateHalf;
using posenc::kernels::RotateInterleaved;

constexpr std::size_t kRotateLanes = xsimd::batch<float, Arch>::size;

enum class Target { kInPlace, kSeparateOut };

// fl(fl(p) +- fl(q)) is within 2 * 2^-24 * (|p| + |q|) of p +- q (three roundings, the last on a
// value no larger than |p| + |q|): the error of got / that bound.
long double rounding_ratio(float got, long double p, long double q, long double exact) {
  const long double bound = 0x1p-23L * (std::fabs(p) + std::fabs(q)) * (1 + 0x1p-20L);
  return bound > 0 ? std::fabs(got - exact) / bound : (got == 0 ? 0 : 1e30L);
}

}  // namespace

// The heads of one row as the kernels take them: `heads` vectors `stride` floats apart. The
// gaps between them (stride > what a head uses) hold sentinels: the kernels must leave them.
struct Rows {
  std::size_t heads, stride;
};

TEST_CASE("RotateHalf: simd equals scalar bit for bit, for every n, over several heads", "[kernels]") {
  const std::size_t n = GENERATE(range<std::size_t>(0, 68), 127, 128, 129, 1000, 4099);
  const std::size_t shift = GENERATE(0, 1);            // 1: every pointer one float off the alignment
  const Rows rows = GENERATE(Rows{1, 0}, Rows{3, 3});  // stride: extra floats past a head's 2n
  const HeadOrder order = GENERATE(HeadOrder::kAcrossHeads, HeadOrder::kHeadByHead);
  const Target target = GENERATE(Target::kInPlace, Target::kSeparateOut);
  const std::size_t half = n, stride = 2 * n + rows.stride, length = rows.heads * stride;
  INFO("n " << n << ", heads " << rows.heads << ", stride " << stride << ", shift " << shift << ", lanes "
            << kRotateLanes << (order == HeadOrder::kAcrossHeads ? ", across heads" : ", head by head") << ", "
            << (target == Target::kInPlace ? "in place" : "out of place"));
  const std::vector<float> cos = random_floats(n, 1), sin = random_floats(n, 2);
  std::vector<float> x = random_floats(length, 3, -4.0f, 4.0f);
  std::vector<float> want(length, sentinel());  // the gaps keep the sentinel
  for (std::size_t h = 0; h < rows.heads; ++h)
    for (std::size_t i = h * stride + 2 * n; i < (h + 1) * stride; ++i) x[i] = sentinel();

  GuardedBuffer c(n, shift), s(n, shift), src(length, shift), out(length, shift);
  c.assign(cos);
  s.assign(sin);
  src.assign(x);
  GuardedBuffer& dst = target == Target::kInPlace ? src : out;
  RotateHalf::simd<Arch>(c.data(), s.data(), src.data(), dst.data(), half, rows.heads, stride, order, n);
  if (target == Target::kInPlace) want = x;
  RotateHalf::scalar(0, cos.data(), sin.data(), x.data(), want.data(), half, rows.heads, stride, order, n);
  CHECK(first_difference(dst.values(), want) == length);

  // And both are the rotation a' = a cos - b sin, b' = b cos + a sin.
  WorstError worst;
  for (std::size_t h = 0; h < rows.heads; ++h) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t at = h * stride + i;
      const long double a = x[at], b = x[at + half];
      const long double ac = a * cos[i], bs = b * sin[i], bc = b * cos[i], as = a * sin[i];
      worst.update(rounding_ratio(dst.data()[at], ac, bs, ac - bs), at);
      worst.update(rounding_ratio(dst.data()[at + half], bc, as, bc + as), at + half);
    }
  }
  INFO("worst element " << worst.index << ": error / bound " << static_cast<double>(worst.value));
  CHECK(worst.value <= 1);

  for (const GuardedBuffer* buffer : {&c, &s, &src, &out}) CHECK(buffer->guards_intact());
  if (target == Target::kSeparateOut) CHECK(first_difference(src.values(), x) == length);  // the source is read only
}

TEST_CASE("RotateInterleaved: simd equals scalar bit for bit, for every n, over several heads", "[kernels]") {
  // n counts pairs (x[2i], x[2i+1]).
  const std::size_t n = GENERATE(range<std::size_t>(0, 68), 127, 128, 129, 1000, 2049);
  const std::size_t shift = GENERATE(0, 1);
  const Rows rows = GENERATE(Rows{1, 0}, Rows{3, 5});
  const HeadOrder order = GENERATE(HeadOrder::kAcrossHeads, HeadOrder::kHeadByHead);
  const Target target = GENERATE(Target::kInPlace, Target::kSeparateOut);
  const std::size_t stride = 2 * n + rows.stride, length = rows.heads * stride;
  INFO("n " << n << ", heads " << rows.heads << ", stride " << stride << ", shift " << shift << ", lanes "
            << kRotateLanes << (order == HeadOrder::kAcrossHeads ? ", across heads" : ", head by head") << ", "
            << (target == Target::kInPlace ? "in place" : "out of place"));
  const std::vector<float> cos = random_floats(n, 5), sin = random_floats(n, 6);
  std::vector<float> x = random_floats(length, 7, -4.0f, 4.0f);
  std::vector<float> want(length, sentinel());
  for (std::size_t h = 0; h < rows.heads; ++h)
    for (std::size_t i = h * stride + 2 * n; i < (h + 1) * stride; ++i) x[i] = sentinel();

  GuardedBuffer c(n, shift), s(n, shift), src(length, shift), out(length, shift);
  c.assign(cos);
  s.assign(sin);
  src.assign(x);
  GuardedBuffer& dst = target == Target::kInPlace ? src : out;
  RotateInterleaved::simd<Arch>(c.data(), s.data(), src.data(), dst.data(), rows.heads, stride, order, n);
  if (target == Target::kInPlace) want = x;
  RotateInterleaved::scalar(0, cos.data(), sin.data(), x.data(), want.data(), rows.heads, stride, order, n);
  CHECK(first_difference(dst.values(), want) == length);

  WorstError worst;
  for (std::size_t h = 0; h < rows.heads; ++h) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t at = h * stride + 2 * i;
      const long double a = x[at], b = x[at + 1];
      const long double ac = a * cos[i], bs = b * sin[i], bc = b * cos[i], as = a * sin[i];
      worst.update(rounding_ratio(dst.data()[at], ac, bs, ac - bs), at);
      worst.update(rounding_ratio(dst.data()[at + 1], bc, as, bc + as), at + 1);
    }
  }
  INFO("worst channel " << worst.index << ": error / bound " << static_cast<double>(worst.value));
  CHECK(worst.value <= 1);

  for (const GuardedBuffer* buffer : {&c, &s, &src, &out}) CHECK(buffer->guards_intact());
  if (target == Target::kSeparateOut) CHECK(first_difference(src.values(), x) == length);
}

TEST_CASE("the interleaved and half kernels rotate a pair the same way, bit for bit", "[kernels]") {
  // x[2i] c + x[2i+1] (-s) rounds exactly like a c - b s: the two layouts agree.
  const std::size_t pairs = 37;
  const std::vector<float> cos = random_floats(pairs, 8), sin = random_floats(pairs, 9);
  const std::vector<float> x = random_floats(2 * pairs, 10, -3.0f, 3.0f);
  std::vector<float> out(2 * pairs), split(2 * pairs), half(2 * pairs);
  RotateInterleaved::simd<Arch>(cos.data(), sin.data(), x.data(), out.data(), 1, 0, HeadOrder::kAcrossHeads, pairs);
  for (std::size_t i = 0; i < pairs; ++i) {
    split[i] = x[2 * i];
    split[pairs + i] = x[2 * i + 1];
  }
  RotateHalf::scalar(0, cos.data(), sin.data(), split.data(), half.data(), pairs, 1, 0, HeadOrder::kAcrossHeads, pairs);
  std::vector<float> regrouped(2 * pairs);  // the half kernel's output interleaved again
  for (std::size_t i = 0; i < pairs; ++i) {
    regrouped[2 * i] = half[i];
    regrouped[2 * i + 1] = half[pairs + i];
  }
  CHECK(first_difference(out, regrouped) == out.size());
}
