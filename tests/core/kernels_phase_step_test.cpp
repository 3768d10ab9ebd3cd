// The float64 kernels behind PhaseBlock (kernels/phase_step.h): SinCos (xsimd's float64 sin/cos,
// used for anchors) against long double, and RotateStep (one recurrence step, plus its float32
// copy), SIMD against scalar bit for bit; every n 0..67 and a few large, at unaligned addresses.
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/generators/catch_generators_range.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/phase_step.h"
#include "reference.h"
#include "test_support.h"

namespace {

using namespace test_support;
using Arch = xsimd::default_arch;
using posenc::kernels::RotateStep;
using posenc::kernels::SinCos;

// A few float64 ulps of 1: the accuracy the anchors need (float32 rounding is 3e-8).
constexpr long double kSinCosBound = 0x1p-51L;

}  // namespace

TEST_CASE("SinCos: simd and scalar are float64-accurate for angles up to 2^31 rad", "[kernels]") {
  const std::size_t n = GENERATE(range<std::size_t>(0, 68), 1000);
  const double largest = GENERATE(1.0, 100.0, 0x1p24, 0x1p31);
  const std::size_t shift = GENERATE(0, 1);
  INFO("n " << n << ", angles up to " << largest << ", shift " << shift);
  const std::vector<double> angles = random_doubles(n, 21, 0.0, largest);
  Guarded<double> angle(n, shift), sin(n, shift), cos(n, shift);
  angle.assign(angles);
  SinCos::simd<Arch>(angle.data(), sin.data(), cos.data(), n);
  std::vector<double> scalar_sin(n), scalar_cos(n);
  SinCos::scalar(0, angles.data(), scalar_sin.data(), scalar_cos.data(), n);
  WorstError simd_error, scalar_error;
  for (std::size_t i = 0; i < n; ++i) {
    long double s, c;
    reference::sin_cos(angles[i], &s, &c);  // the double angle, reduced exactly in long double
    simd_error.update(std::max(std::fabs(sin.data()[i] - s), std::fabs(cos.data()[i] - c)), i);
    scalar_error.update(std::max(std::fabs(scalar_sin[i] - s), std::fabs(scalar_cos[i] - c)), i);
  }
  INFO("worst simd error " << static_cast<double>(simd_error.value) << " at angle "
                           << (n > 0 ? angles[simd_error.index] : 0.0) << ", worst scalar error "
                           << static_cast<double>(scalar_error.value));
  CHECK(simd_error.value <= kSinCosBound);
  CHECK(scalar_error.value <= kSinCosBound);
  record_precision("sincos (float64 anchors) |value - exact|", simd_error, "(bound 4.4e-16)");
  CHECK(angle.guards_intact());
  CHECK(sin.guards_intact());
  CHECK(cos.guards_intact());
}

TEST_CASE("RotateStep: simd equals scalar bit for bit, for every n", "[kernels]") {
  const std::size_t n = GENERATE(range<std::size_t>(0, 68), 128, 129, 1001);
  const std::size_t shift = GENERATE(0, 1);
  INFO("n " << n << ", shift " << shift);
  const std::vector<double> cos0 = random_doubles(n, 31), sin0 = random_doubles(n, 32);
  const std::vector<double> step_cos = random_doubles(n, 33), step_sin = random_doubles(n, 34);
  Guarded<double> cos(n, shift), sin(n, shift), wc(n, shift), ws(n, shift);
  GuardedBuffer cos32(n, shift), sin32(n, shift);
  cos.assign(cos0);
  sin.assign(sin0);
  wc.assign(step_cos);
  ws.assign(step_sin);
  RotateStep::simd<Arch>(cos.data(), sin.data(), wc.data(), ws.data(), cos32.data(), sin32.data(), n);

  std::vector<double> want_cos = cos0, want_sin = sin0;
  std::vector<float> want_cos32(n), want_sin32(n);
  RotateStep::scalar(0, want_cos.data(), want_sin.data(), step_cos.data(), step_sin.data(), want_cos32.data(),
                     want_sin32.data(), n);
  CHECK(first_difference(cos.values(), want_cos) == n);
  CHECK(first_difference(sin.values(), want_sin) == n);
  CHECK(first_difference(cos32.values(), want_cos32) == n);
  CHECK(first_difference(sin32.values(), want_sin32) == n);

  // The step is the rotation (c, s) -> (c wc - s ws, s wc + c ws), and the float32 copy its rounding.
  WorstError worst;
  for (std::size_t i = 0; i < n; ++i) {
    const long double c = cos0[i], s = sin0[i];
    const long double next_c = c * step_cos[i] - s * step_sin[i], next_s = s * step_cos[i] + c * step_sin[i];
    const long double scale = std::fabs(c) + std::fabs(s);  // times |step| <= 1
    worst.update(std::max(std::fabs(cos.data()[i] - next_c), std::fabs(sin.data()[i] - next_s)) / (0x1p-51L * scale),
                 i);
    worst.update(std::fabs(cos32.data()[i] - next_c) / (0x1p-24L * std::fabs(next_c) + 0x1p-51L * scale), i);
  }
  INFO("worst element " << worst.index << ": error / bound " << static_cast<double>(worst.value));
  CHECK(worst.value <= 1);
  for (const auto* guarded : {&cos, &sin, &wc, &ws}) CHECK(guarded->guards_intact());
  CHECK(cos32.guards_intact());
  CHECK(sin32.guards_intact());
}
