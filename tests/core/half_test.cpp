// Half-precision conversions (half.h) against an independent reference: every one of the 65,536
// binary16 and bfloat16 patterns widened (from the format's definition), and narrowing checked
// at every tie between neighbours, beside each tie, and on random float32 and float64 values,
// against round-to-nearest-even done in integer arithmetic on the double's significand.
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

#include "golden_json.h"
#include "posenc/posenc.h"

namespace {

struct HalfFormat {
  int fraction_bits;  // 10 (binary16), 7 (bfloat16)
  int exponent_bits;  // 5, 8
  int bias() const { return (1 << (exponent_bits - 1)) - 1; }
  int min_exponent() const { return 1 - bias(); }
  int max_exponent() const { return bias(); }
  std::uint16_t infinity() const { return static_cast<std::uint16_t>(((1 << exponent_bits) - 1) << fraction_bits); }
};

constexpr HalfFormat kHalf{10, 5};
constexpr HalfFormat kBfloat16{7, 8};

// The value of a pattern, from the format's definition.
double widen(const HalfFormat& f, std::uint16_t bits) {
  const int field = (bits >> f.fraction_bits) & ((1 << f.exponent_bits) - 1);
  const int mantissa = bits & ((1 << f.fraction_bits) - 1);
  const double sign = (bits & 0x8000) != 0 ? -1.0 : 1.0;
  if (field == (1 << f.exponent_bits) - 1)
    return mantissa == 0 ? sign * std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  if (field == 0) return sign * std::ldexp(mantissa, f.min_exponent() - f.fraction_bits);
  return sign * std::ldexp(mantissa + (1 << f.fraction_bits), field - f.bias() - f.fraction_bits);
}

// Round-to-nearest-even of a finite double onto the format, in integers: |x| = M · 2^E with M the
// 53-bit significand (2^52 <= M < 2^53); the grid step is 2^G; q = |x| / 2^G rounded by the bits shifted out.
std::uint16_t narrow(const HalfFormat& f, double x) {
  const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  if (std::isinf(x)) return sign | f.infinity();
  if (x == 0) return sign;
  int e = 0;
  const double fraction = std::frexp(std::fabs(x), &e);  // |x| in [2^(e-1), 2^e)
  const std::uint64_t M = static_cast<std::uint64_t>(std::ldexp(fraction, 53));
  const int E = e - 53;
  int G = std::max(e - 1, f.min_exponent()) - f.fraction_bits;
  const int shift = G - E;  // > 0: a double has more significant bits than either format
  std::uint64_t q = 0;      // M < 2^53: from a shift of 54 on, |x| is below half a step and rounds to 0
  if (shift < 64) {
    q = M >> shift;
    const std::uint64_t rest = M & ((std::uint64_t{1} << shift) - 1), half = std::uint64_t{1} << (shift - 1);
    if (rest > half || (rest == half && (q & 1) != 0)) ++q;
  }
  const std::uint64_t one = std::uint64_t{1} << f.fraction_bits;
  if (q >= 2 * one) {  // rounded up into the next binade: q = 2^(fraction_bits + 1)
    q >>= 1;
    ++G;
  }
  if (q < one) return sign | static_cast<std::uint16_t>(q);  // subnormal (or zero)
  const int exponent = G + f.fraction_bits;
  if (exponent > f.max_exponent()) return sign | f.infinity();
  return sign | static_cast<std::uint16_t>(((exponent + f.bias()) << f.fraction_bits) | (q - one));
}

std::uint32_t bits_of(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

// torch's c10::BFloat16 round_to_nearest_even, restated: the float32 bits plus a bias, shifted
// (for numbers: NaN is not its business here).
std::uint16_t torch_bfloat16(float value) {
  const std::uint32_t bits = bits_of(value);
  return static_cast<std::uint16_t>((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);
}

bool same_float(float a, float b) { return bits_of(a) == bits_of(b); }

}  // namespace

TEST_CASE("half: every binary16 and bfloat16 pattern widens to its value", "[half]") {
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    const auto bits = static_cast<std::uint16_t>(b);
    const double half = widen(kHalf, bits), bf = widen(kBfloat16, bits);
    const float got_half = posenc::half_to_float(bits), got_bf = posenc::bfloat16_to_float(bits);
    if (std::isnan(half)) {
      REQUIRE(std::isnan(got_half));
      REQUIRE((bits_of(got_half) & 0x8000'0000u) == (b & 0x8000u) << 16);  // the sign stays
    } else {
      REQUIRE(same_float(got_half, static_cast<float>(half)));  // exact (±0 by its bits)
    }
    if (std::isnan(bf)) {
      REQUIRE(std::isnan(got_bf));
    } else {
      REQUIRE(same_float(got_bf, static_cast<float>(bf)));
    }
  }
}

TEST_CASE("half: narrowing the widened pattern gives it back; NaN becomes the canonical quiet NaN", "[half]") {
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    const auto bits = static_cast<std::uint16_t>(b);
    const float h = posenc::half_to_float(bits), bf = posenc::bfloat16_to_float(bits);
    if (std::isnan(h)) {
      REQUIRE(posenc::float_to_half(h) == ((bits & 0x8000) | 0x7E00));
      REQUIRE(posenc::double_to_half(h) == ((bits & 0x8000) | 0x7E00));
    } else {
      REQUIRE(posenc::float_to_half(h) == bits);
      REQUIRE(posenc::double_to_half(h) == bits);
    }
    if (std::isnan(bf)) {
      REQUIRE(posenc::float_to_bfloat16(bf) == ((bits & 0x8000) | 0x7FC0));
      REQUIRE(posenc::double_to_bfloat16(bf) == ((bits & 0x8000) | 0x7FC0));
    } else {
      REQUIRE(posenc::float_to_bfloat16(bf) == bits);
      REQUIRE(posenc::double_to_bfloat16(bf) == bits);
    }
  }
}

TEST_CASE("half: every tie between neighbours, and the values beside it, round to nearest even", "[half]") {
  for (const HalfFormat* f : {&kHalf, &kBfloat16}) {
    const bool is_half = f == &kHalf;
    const auto to16 = [&](double x) { return is_half ? posenc::double_to_half(x) : posenc::double_to_bfloat16(x); };
    const auto to16f = [&](float x) { return is_half ? posenc::float_to_half(x) : posenc::float_to_bfloat16(x); };
    for (std::uint32_t b = 0; b < 0x7FFF; ++b) {  // positive finite patterns and their successors
      const double a = widen(*f, static_cast<std::uint16_t>(b)), next = widen(*f, static_cast<std::uint16_t>(b + 1));
      if (!std::isfinite(a)) continue;
      // The tie (with Inf: the value 2^emax · (2 − 2^-(p+1)) where overflow starts).
      const double tie =
          std::isfinite(next) ? (a + next) / 2 : a + (a - widen(*f, static_cast<std::uint16_t>(b - 1))) / 2;
      for (const double x :
           {tie, std::nextafter(tie, 0.0), std::nextafter(tie, 1e300), -tie, -std::nextafter(tie, 1e300)}) {
        INFO("format " << (is_half ? "binary16" : "bfloat16") << ", x = " << x);
        REQUIRE(to16(x) == narrow(*f, x));
        const auto xf = static_cast<float>(x);  // float32 inputs near the tie too
        if (std::isfinite(xf)) REQUIRE(to16f(xf) == narrow(*f, xf));
        if (!is_half) REQUIRE(posenc::float_to_bfloat16(xf) == torch_bfloat16(xf));
      }
    }
  }
}

TEST_CASE("half: random float32 and float64 values over every exponent", "[half]") {
  std::mt19937_64 random(20261201);
  std::uniform_int_distribution<std::uint64_t> any;
  for (int n = 0; n < 2'000'000; ++n) {
    // float64: a random significand at an exponent where the formats live (and beyond).
    const double x = std::ldexp(0.5 + std::ldexp(static_cast<double>(any(random) >> 11), -54),
                                static_cast<int>(any(random) % 300) - 160) *
                     ((any(random) & 1) != 0 ? -1 : 1);
    REQUIRE(posenc::double_to_half(x) == narrow(kHalf, x));
    REQUIRE(posenc::double_to_bfloat16(x) == narrow(kBfloat16, x));
    // float32: every bit pattern is as likely (subnormals, huge values, NaN included).
    const auto bits = static_cast<std::uint32_t>(any(random));
    float xf;
    std::memcpy(&xf, &bits, sizeof xf);
    if (std::isnan(xf)) {
      REQUIRE((posenc::float_to_half(xf) & 0x7FFF) == 0x7E00);
      REQUIRE((posenc::float_to_bfloat16(xf) & 0x7FFF) == 0x7FC0);
      continue;
    }
    REQUIRE(posenc::float_to_half(xf) == narrow(kHalf, xf));
    REQUIRE(posenc::float_to_bfloat16(xf) == narrow(kBfloat16, xf));
    REQUIRE(posenc::float_to_bfloat16(xf) == torch_bfloat16(xf));
  }
}

TEST_CASE("half: from float64 the rounding is direct, not through float32 (no double rounding)", "[half]") {
  // 1 + 2^-11 is the tie between binary16's 1 and 1 + 2^-10; just above it rounds up. Through
  // float32 the value just above (1 + 2^-11 + 2^-40) becomes the tie itself, then rounds to even (1).
  const double above = 1 + 0x1p-11 + 0x1p-40;
  REQUIRE(posenc::double_to_half(above) == 0x3C01);
  REQUIRE(posenc::float_to_half(static_cast<float>(above)) == 0x3C00);
  // The same for bfloat16: 1 + 2^-8 is its tie after 1.
  const double above_bf = 1 + 0x1p-8 + 0x1p-40;
  REQUIRE(posenc::double_to_bfloat16(above_bf) == 0x3F81);
  REQUIRE(posenc::float_to_bfloat16(static_cast<float>(above_bf)) == 0x3F80);
}

TEST_CASE("half: torch's casts of float32 and the exact rounding of float64 (tests/golden/half.json)", "[half]") {
  const golden_json::Value file = golden_json::read_golden("half.json");
  const golden_json::Value& floats = file["float32"];
  for (std::size_t i = 0; i < floats.array.size(); ++i) {
    const auto x = static_cast<float>(floats[i]["x"].number);
    INFO("float32 " << x);
    REQUIRE(posenc::float_to_half(x) == static_cast<std::uint16_t>(floats[i]["float16"].number));
    REQUIRE(posenc::float_to_bfloat16(x) == static_cast<std::uint16_t>(floats[i]["bfloat16"].number));
  }
  const golden_json::Value& doubles = file["float64"];
  std::size_t torch_differs = 0;
  for (std::size_t i = 0; i < doubles.array.size(); ++i) {
    const double x = doubles[i]["x"].number;
    INFO("float64 " << x);
    REQUIRE(posenc::double_to_half(x) == static_cast<std::uint16_t>(doubles[i]["float16"].number));
    REQUIRE(posenc::double_to_bfloat16(x) == static_cast<std::uint16_t>(doubles[i]["bfloat16"].number));
    // torch rounds float64 to float32 first: it agrees except just above a tie.
    if (posenc::double_to_half(x) != static_cast<std::uint16_t>(doubles[i]["torch_float16"].number) ||
        posenc::double_to_bfloat16(x) != static_cast<std::uint16_t>(doubles[i]["torch_bfloat16"].number)) {
      ++torch_differs;
      REQUIRE(posenc::float_to_half(static_cast<float>(x)) ==
              static_cast<std::uint16_t>(doubles[i]["torch_float16"].number));
      REQUIRE(posenc::float_to_bfloat16(static_cast<float>(x)) ==
              static_cast<std::uint16_t>(doubles[i]["torch_bfloat16"].number));
    }
  }
  REQUIRE(torch_differs == static_cast<std::size_t>(file["double_rounding_differences"].number));
  // torch's NaNs are quiet NaNs; posenc's binary16 NaN is the same pattern.
  REQUIRE(posenc::float_to_half(std::numeric_limits<float>::quiet_NaN()) ==
          static_cast<std::uint16_t>(file["nan"]["float16"][0].number));
}
