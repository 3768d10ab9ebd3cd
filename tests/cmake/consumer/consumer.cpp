// Uses posenc::core as another project would (only the installed headers) and checks one
// sinusoidal table and one RoPE rotation against their closed forms, in float64.
#include <cmath>
#include <cstdio>

#include "posenc/posenc.h"

namespace {

double worst = 0.0;  // the largest error as a fraction of its bound
int failures = 0;

void expect_near(const char* what, double got, double want, double bound) {
  const double error = std::fabs(got - want);
  if (error / bound > worst) worst = error / bound;
  if (!(error <= bound)) {
    std::printf("%s: %.9g, closed form %.9g (error %.3g, bound %.3g)\n", what, got, want, error, bound);
    ++failures;
  }
}

}  // namespace

int main() {
  // PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(pos / 10000^(2i/d)), rows 0..3.
  constexpr unsigned kRows = 4, kDModel = 8;
  float table[kRows * kDModel] = {};
  posenc::SinusoidalSpec sinusoidal;
  sinusoidal.seq_len = kRows;
  sinusoidal.d_model = kDModel;
  if (posenc::sinusoidal_table(sinusoidal, posenc::Positions{}, table) != posenc::Status::kOk) {
    std::printf("sinusoidal_table failed\n");
    return 1;
  }
  for (unsigned pos = 0; pos < kRows; ++pos) {
    for (unsigned i = 0; i < kDModel / 2; ++i) {
      const double angle = pos / std::pow(10000.0, 2.0 * i / kDModel);
      expect_near("sinusoidal sin", table[pos * kDModel + 2 * i], std::sin(angle), TABLE_BOUND);
      expect_near("sinusoidal cos", table[pos * kDModel + 2 * i + 1], std::cos(angle), TABLE_BOUND);
    }
  }

  // RoPE, interleaved pairs (x[2i], x[2i+1]) of one head at position 7, rotated by
  // 7 * 10000^(-2i/d): (a cos - b sin, a sin + b cos).
  constexpr unsigned kHeadDim = 4, kPosition = 7;
  const float x[kHeadDim] = {1.0f, -2.0f, 0.5f, 3.0f};
  float out[kHeadDim] = {};
  posenc::RopeSpec rope;
  rope.seq_len = 1;
  rope.head_dim = kHeadDim;
  rope.rotary_dim = kHeadDim;
  if (posenc::rope(rope, posenc::Positions{nullptr, kPosition}, x, out) != posenc::Status::kOk) {
    std::printf("rope failed\n");
    return 1;
  }
  for (unsigned i = 0; i < kHeadDim / 2; ++i) {
    const double angle = kPosition / std::pow(10000.0, 2.0 * i / kHeadDim);
    const double a = x[2 * i], b = x[2 * i + 1];
    const double bound = ROPE_BOUND * (std::fabs(a) + std::fabs(b));
    expect_near("rope first", out[2 * i], a * std::cos(angle) - b * std::sin(angle), bound);
    expect_near("rope second", out[2 * i + 1], a * std::sin(angle) + b * std::cos(angle), bound);
  }

  if (failures > 0) return 1;
  std::printf("consumer: sinusoidal table and RoPE rotation match the closed form (worst error %.2f of the bound)\n",
              worst);
  return 0;
}
