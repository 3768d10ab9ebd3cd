// The SIMD half conversions (kernels/half_lanes.h, through the storage policies of
// kernels/storage.h) against half.h's scalar ones, bit for bit: widening every one of the 65,536
// patterns; narrowing dense sets of floats around every pattern, every tie between neighbours and
// the format's edges (subnormals, 65504/65520, bfloat16's largest, NaN payloads, ±0, ±Inf), one
// batch and two at a time (load_pair/store_pair, floats_to_half_pair); the table conversions
// from float64 (exact: round to odd, then to nearest even; quick: to nearest float32, then to
// the format, where it says it is right) against double_to_half and double_to_bfloat16 on
// millions of values, ties ± tiny offsets among them. Then the kernels of half data: rotations,
// the table rows and the sums of float32 rows, the xsimd versions equal to the scalar loops for
// every length (tails), in place and out of place. Built twice on x86-64 (SSE2 and AVX2).
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/generators/catch_generators_range.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "kernels/phase_rows.h"
#include "kernels/rotate.h"
#include "kernels/storage.h"
#include "kernels/store_floats.h"
#include "test_support.h"

namespace {

using namespace test_support;
using Arch = xsimd::default_arch;
using floats = xsimd::batch<float, Arch>;
using doubles = xsimd::batch<double, Arch>;
using posenc::kernels::Bfloat16Storage;
using posenc::kernels::Float16Storage;
using posenc::kernels::HeadOrder;
constexpr std::size_t kFloatLanes = floats::size;

float float_of(std::uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}
std::uint32_t bits_of(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

// The SIMD policy applied to whole arrays (n a multiple of 2 kFloatLanes): one batch at a time
// (load) or two (load_pair).
template <class Storage>
std::vector<std::uint32_t> simd_widened_bits(const std::vector<std::uint16_t>& in, bool pairs) {
  std::vector<std::uint32_t> out(in.size());
  for (std::size_t i = 0; i < in.size(); i += 2 * kFloatLanes) {
    alignas(64) float lanes[2 * kFloatLanes];
    if (pairs) {
      const auto [first, second] = Storage::template load_pair<Arch>(in.data() + i);
      first.store_aligned(lanes);
      second.store_aligned(lanes + kFloatLanes);
    } else {
      Storage::template load<Arch>(in.data() + i).store_aligned(lanes);
      Storage::template load<Arch>(in.data() + i + kFloatLanes).store_aligned(lanes + kFloatLanes);
    }
    for (std::size_t j = 0; j < 2 * kFloatLanes; ++j) out[i + j] = bits_of(lanes[j]);
  }
  return out;
}

// One batch at a time (store), or two (store_pair) written to their places in reverse order,
// apart (the second's patterns first, then a gap pattern left untouched, then the first's).
template <class Storage>
std::vector<std::uint16_t> simd_narrowed(const std::vector<float>& in, bool pairs) {
  std::vector<std::uint16_t> out(in.size() + 1, 0xABCD);  // one past: the store writes kFloatLanes patterns only
  for (std::size_t i = 0; i < in.size(); i += 2 * kFloatLanes) {
    const floats first = floats::load_unaligned(in.data() + i),
                 second = floats::load_unaligned(in.data() + i + kFloatLanes);
    if (pairs) {
      std::uint16_t apart[2 * kFloatLanes + 1];
      apart[kFloatLanes] = 0xABCD;
      Storage::template store_pair<Arch>(apart + kFloatLanes + 1, apart, first, second);
      CHECK(apart[kFloatLanes] == 0xABCD);
      std::memcpy(out.data() + i, apart + kFloatLanes + 1, sizeof(std::uint16_t) * kFloatLanes);
      std::memcpy(out.data() + i + kFloatLanes, apart, sizeof(std::uint16_t) * kFloatLanes);
    } else {
      Storage::template store<Arch>(out.data() + i, first);
      Storage::template store<Arch>(out.data() + i + kFloatLanes, second);
    }
  }
  CHECK(out.back() == 0xABCD);
  out.pop_back();
  return out;
}

// The exact table conversion (Storage::table) of each value, kFloatLanes neighbours at a time.
template <class Storage>
std::vector<std::uint16_t> simd_table(const std::vector<double>& in) {
  std::vector<std::uint16_t> out(in.size());
  for (std::size_t i = 0; i < in.size(); i += kFloatLanes) {
    const doubles lo = doubles::load_unaligned(in.data() + i),
                  hi = doubles::load_unaligned(in.data() + i + kFloatLanes / 2);
    posenc::kernels::store_u16<Arch>(out.data() + i, Storage::template table<Arch>(lo, hi));
  }
  return out;
}

// The quick table conversion (Storage::QuickTable) of each value in a batch of its own (the
// other lanes 0.3, no midpoint of either format, in binary16's normal range): the values it
// says it got right, and among them those it got wrong (against from_double).
template <class Storage>
std::pair<std::size_t, std::size_t> quick_table_right_and_wrong(const std::vector<double>& in) {
  std::size_t right = 0, wrong = 0;
  alignas(64) double lanes[kFloatLanes];
  alignas(64) std::uint16_t patterns[kFloatLanes];
  for (std::size_t i = 0; i < in.size(); ++i) {
    const std::size_t lane = i % kFloatLanes;
    for (std::size_t j = 0; j < kFloatLanes; ++j) lanes[j] = j == lane ? in[i] : 0.3;
    typename Storage::template QuickTable<Arch> quick;
    posenc::kernels::store_u16<Arch>(
        patterns, quick(doubles::load_aligned(lanes), doubles::load_aligned(lanes + kFloatLanes / 2)));
    if (!quick.right()) continue;
    ++right;
    if (patterns[lane] != Storage::from_double(in[i])) {
      if (wrong == 0) UNSCOPED_INFO("quick and wrong: " << in[i] << " gives " << patterns[lane]);
      ++wrong;
    }
  }
  return {right, wrong};
}

template <class T>
void pad_to_lanes(std::vector<T>& v) {
  while (v.size() % (2 * kFloatLanes) != 0) v.push_back(v.front());
}

template <class Storage, class T>
std::size_t scalar_mismatches(const std::vector<T>& in, const std::vector<std::uint16_t>& got, bool from_double) {
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const std::uint16_t want =
        from_double ? Storage::from_double(static_cast<double>(in[i])) : Storage::from_float(static_cast<float>(in[i]));
    if (got[i] != want) {
      if (mismatches == 0) UNSCOPED_INFO("first mismatch at " << i << ": got " << got[i] << ", want " << want);
      ++mismatches;
    }
  }
  return mismatches;
}

std::vector<std::uint16_t> all_patterns() {
  std::vector<std::uint16_t> patterns(65536);
  for (std::uint32_t i = 0; i < 65536; ++i) patterns[i] = static_cast<std::uint16_t>(i);
  return patterns;
}

// Floats around every value of a 16-bit format: each value, a few float32 steps either side, each
// midpoint to the next pattern and a few steps either side of it; NaNs with payloads; random bits.
template <class Storage>
std::vector<float> dense_floats() {
  std::vector<float> values;
  for (std::uint32_t h = 0; h < 65536; ++h) {
    const float x = Storage::to_float(static_cast<std::uint16_t>(h));
    if (std::isnan(x)) continue;
    const float next = Storage::to_float(static_cast<std::uint16_t>((h & 0x7FFF) == 0x7FFF ? h : h + 1));
    const float mid = std::isfinite(next) ? x + (next - x) / 2 : x;  // exact: 2 more bits in float32
    for (const float at : {x, mid})
      for (int step = -3; step <= 3; ++step) values.push_back(float_of(bits_of(at) + static_cast<std::uint32_t>(step)));
  }
  // 65504 + 16 = 65520 (the first to round to Inf in binary16) and the largest bfloat16's tie.
  for (const std::uint32_t bits :
       {0x477FEFFFu, 0x477FF000u, 0x477FF001u, 0x7F7F7FFFu, 0x7F7F8000u, 0x7F7F8001u, 0x7F7FFFFFu,
        0x7F800000u, 0xFF800000u, 0x7F800001u, 0x7FC00000u, 0xFFFFFFFFu, 0x7FA5A5A5u, 0xFF812345u,
        0x00000001u, 0x80000001u, 0x007FFFFFu, 0x33000000u, 0x33000001u, 0x32FFFFFFu, 0xB3000000u})
    values.push_back(float_of(bits));
  std::mt19937 generator(11);
  for (int i = 0; i < 1 << 20; ++i) values.push_back(float_of(generator()));
  pad_to_lanes(values);
  return values;
}

// Doubles for the table store: every tie between neighbouring patterns and tiny offsets from it
// (below a float32 step, where rounding through float32 to nearest would round twice), the
// patterns themselves, random doubles over the formats' ranges, huge and tiny ones, NaN and Inf.
template <class Storage>
std::vector<double> table_doubles() {
  std::vector<double> values;
  for (std::uint32_t h = 0; h < 65536; ++h) {
    const double x = Storage::to_float(static_cast<std::uint16_t>(h));
    if (std::isnan(x)) continue;
    const double next = Storage::to_float(static_cast<std::uint16_t>((h & 0x7FFF) == 0x7FFF ? h : h + 1));
    const double mid = std::isfinite(next) ? x + (next - x) / 2 : x;
    values.push_back(x);
    for (const double at : {mid, x}) {
      const double scale = at == 0 ? 0x1p-140 : std::fabs(at);
      for (const double offset : {0x1p-52, 0x1p-40, 0x1p-30, 0x1p-26, 0x1p-25, 0x1p-24})
        for (const double sign : {-1.0, 1.0}) values.push_back(at + sign * offset * scale);
      values.push_back(std::nextafter(at, 0.0));
      values.push_back(std::nextafter(at, std::numeric_limits<double>::infinity()));
      values.push_back(std::nextafter(at, -std::numeric_limits<double>::infinity()));
    }
  }
  for (const double special : {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                               std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::quiet_NaN(),
                               1e300, -1e300, 3.4028235677973366e38, 3.4028235677973362e38, 3.4e38, 1e-300, -1e-300,
                               0x1p-149, 0x1p-150, 0x1.0000000000001p-150, 0x1p-126, 0x1.8p-134, 0.0, -0.0})
    values.push_back(special);
  std::mt19937_64 generator(12);
  std::uniform_real_distribution<double> exponent(-150, 130);
  for (int i = 0; i < 1 << 21; ++i) {
    const double magnitude =
        std::ldexp(std::uniform_real_distribution<double>(1, 2)(generator), static_cast<int>(exponent(generator)));
    values.push_back(generator() % 2 ? magnitude : -magnitude);
  }
  pad_to_lanes(values);
  return values;
}

}  // namespace

TEST_CASE("SIMD widening of all 65,536 binary16 and bfloat16 patterns equals the scalar one", "[kernels][half]") {
  const std::vector<std::uint16_t> patterns = all_patterns();
  for (const bool pairs : {false, true}) {
    INFO("pairs " << pairs);
    const std::vector<std::uint32_t> half = simd_widened_bits<Float16Storage>(patterns, pairs);
    const std::vector<std::uint32_t> bf16 = simd_widened_bits<Bfloat16Storage>(patterns, pairs);
    std::size_t mismatches = 0;
    for (std::uint32_t h = 0; h < 65536; ++h) {
      mismatches += half[h] != bits_of(posenc::half_to_float(static_cast<std::uint16_t>(h)));
      mismatches += bf16[h] != bits_of(posenc::bfloat16_to_float(static_cast<std::uint16_t>(h)));
    }
    CHECK(mismatches == 0);
  }
}

TEST_CASE("SIMD narrowing of dense float32 sets equals float_to_half and float_to_bfloat16", "[kernels][half]") {
  const std::vector<float> half_values = dense_floats<Float16Storage>();
  const std::vector<float> bf16_values = dense_floats<Bfloat16Storage>();
  // floats_to_half_pair itself (an F16C build stores by the instruction instead): its quick
  // path where both batches are in binary16's normal range, the general one elsewhere.
  std::vector<std::uint16_t> paired(half_values.size());
  for (std::size_t i = 0; i < half_values.size(); i += 2 * kFloatLanes) {
    const auto [first, second] = posenc::kernels::floats_to_half_pair<Arch>(
        floats::load_unaligned(half_values.data() + i), floats::load_unaligned(half_values.data() + i + kFloatLanes));
    posenc::kernels::store_u16<Arch>(paired.data() + i, first);
    posenc::kernels::store_u16<Arch>(paired.data() + i + kFloatLanes, second);
  }
  CHECK(scalar_mismatches<Float16Storage>(half_values, paired, false) == 0);
  for (const bool pairs : {false, true}) {
    INFO("pairs " << pairs);
    CHECK(scalar_mismatches<Float16Storage>(half_values, simd_narrowed<Float16Storage>(half_values, pairs), false) ==
          0);
    CHECK(scalar_mismatches<Bfloat16Storage>(bf16_values, simd_narrowed<Bfloat16Storage>(bf16_values, pairs), false) ==
          0);
  }
}

TEST_CASE("SIMD table conversions round float64 once: equal double_to_half and double_to_bfloat16", "[kernels][half]") {
  const std::vector<double> half_values = table_doubles<Float16Storage>();
  const std::vector<double> bf16_values = table_doubles<Bfloat16Storage>();
  // The exact way, every value.
  CHECK(scalar_mismatches<Float16Storage>(half_values, simd_table<Float16Storage>(half_values), true) == 0);
  CHECK(scalar_mismatches<Bfloat16Storage>(bf16_values, simd_table<Bfloat16Storage>(bf16_values), true) == 0);
  // The quick way: never wrong where it says right, and right for most values (half of these
  // are midpoints or near them; binary16's subnormals and beyond are outside its range).
  const auto [half_right, half_wrong] = quick_table_right_and_wrong<Float16Storage>(half_values);
  CHECK(half_wrong == 0);
  CHECK(half_right > half_values.size() / 4);
  const auto [bf16_right, bf16_wrong] = quick_table_right_and_wrong<Bfloat16Storage>(bf16_values);
  CHECK(bf16_wrong == 0);
  CHECK(bf16_right > bf16_values.size() / 2);
  // Through float32 to nearest would round twice: the tie plus a tiny offset is the case.
  const double above_tie = 1.0 + 0x1p-11 + 0x1p-40;  // just above the tie between 1 and 1 + 2^-10
  CHECK(posenc::float_to_half(static_cast<float>(above_tie)) != posenc::double_to_half(above_tie));
}

namespace {

template <class Storage>
std::vector<std::uint16_t> random_patterns(std::size_t n, std::uint32_t seed) {
  const std::vector<float> values = random_floats(n, seed, -4.0f, 4.0f);
  std::vector<std::uint16_t> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = Storage::from_float(values[i]);
  return out;
}

template <class Storage>
void check_rotations(std::size_t n, HeadOrder order, bool in_place) {
  using posenc::kernels::RotateHalfOf;
  using posenc::kernels::RotateInterleavedOf;
  const std::size_t heads = 3, stride = 2 * n + 3, length = heads * stride;
  const std::vector<float> cos = random_floats(n, 1), sin = random_floats(n, 2);
  const std::vector<std::uint16_t> x = random_patterns<Storage>(length, 3);
  for (const bool interleaved : {false, true}) {
    std::vector<std::uint16_t> src = x, out(length, 0x7F81), want(length, 0x7F81);
    std::vector<std::uint16_t>& dst = in_place ? src : out;
    if (in_place) want = x;
    if (interleaved) {
      RotateInterleavedOf<Storage>::template simd<Arch>(cos.data(), sin.data(), src.data(), dst.data(), heads, stride,
                                                        order, n);
      RotateInterleavedOf<Storage>::scalar(0, cos.data(), sin.data(), x.data(), want.data(), heads, stride, order, n);
    } else {
      RotateHalfOf<Storage>::template simd<Arch>(cos.data(), sin.data(), src.data(), dst.data(), n, heads, stride,
                                                 order, n);
      RotateHalfOf<Storage>::scalar(0, cos.data(), sin.data(), x.data(), want.data(), n, heads, stride, order, n);
    }
    CHECK(dst == want);
  }
}

// The rows of a half table, written by the table kernel in the storage type. `with_zero`: one
// pair's sin starts at 0, which the quick rounding leaves to the exact one.
template <class Storage>
void check_half_phase_rows(std::size_t pairs, bool interleaved, bool with_zero) {
  const std::size_t rows = 5, stride = 2 * pairs + 1;
  std::vector<double> c = random_doubles(pairs, 4), s = random_doubles(pairs, 5);
  const std::vector<double> wc = random_doubles(pairs, 6, 0.9, 1.0), ws = random_doubles(pairs, 7, -0.4, 0.4);
  if (with_zero && pairs > 0) s[pairs / 2] = 0.0;
  std::vector<double> c2 = c, s2 = s;
  std::vector<std::uint16_t> got(rows * stride, 0x7F81), want = got;
  const auto out = [&](std::vector<std::uint16_t>& t) {
    return interleaved ? posenc::kernels::RowsOutOf<std::uint16_t>{t.data(), t.data() + 1, stride, true}
                       : posenc::kernels::RowsOutOf<std::uint16_t>{t.data(), t.data() + pairs, stride, false};
  };
  using Kernel = posenc::kernels::PhaseRows<false, Storage>;
  Kernel::template simd<Arch>(c.data(), s.data(), wc.data(), ws.data(), pairs, rows, out(got));
  Kernel::scalar(0, c2.data(), s2.data(), wc.data(), ws.data(), pairs, rows, out(want));
  CHECK(got == want);
  CHECK(first_difference(c, c2) == pairs);
  CHECK(first_difference(s, s2) == pairs);
}

template <class Storage, bool Accumulate>
void check_store_floats(std::size_t n) {
  const std::vector<float> values = random_floats(n, 9, -3.0f, 3.0f);
  std::vector<std::uint16_t> got = random_patterns<Storage>(n + 1, 10), want = got;
  using Kernel = posenc::kernels::StoreFloats<Accumulate, Storage>;
  Kernel::template simd<Arch>(values.data(), got.data(), n);
  Kernel::scalar(0, values.data(), want.data(), n);
  CHECK(got == want);  // the element past n included: untouched
}

}  // namespace

TEST_CASE("rotation kernels on half storage: simd equals scalar bit for bit, every n", "[kernels][half]") {
  const std::size_t n = GENERATE(range<std::size_t>(0, 40), 127, 1000);
  const HeadOrder order = GENERATE(HeadOrder::kAcrossHeads, HeadOrder::kHeadByHead);
  const bool in_place = GENERATE(false, true);
  INFO("n " << n << ", lanes " << kFloatLanes);
  check_rotations<Float16Storage>(n, order, in_place);
  check_rotations<Bfloat16Storage>(n, order, in_place);
}

TEST_CASE("table rows of half tables: simd equals scalar bit for bit, every width", "[kernels][half]") {
  const std::size_t n = GENERATE(range<std::size_t>(0, 40), 128);
  const bool interleaved = GENERATE(false, true);
  INFO("n " << n << ", lanes " << kFloatLanes);
  for (const bool with_zero : {false, true}) {
    check_half_phase_rows<Float16Storage>(n, interleaved, with_zero);
    check_half_phase_rows<Bfloat16Storage>(n, interleaved, with_zero);
  }
  check_store_floats<Float16Storage, false>(n);
  check_store_floats<Float16Storage, true>(n);
  check_store_floats<Bfloat16Storage, false>(n);
  check_store_floats<Bfloat16Storage, true>(n);
}
