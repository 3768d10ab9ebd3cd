// libFuzzer target: xPos (xpos.h) through rope() and rope_qk(): fuzzer-chosen scale bases,
// gammas, roles, centers (valid, hostile or raw), offsets and position lists, partial rotary,
// both layouts, the inverse.
//
// For every input: the status is the documented one, in the core's order (the xpos options,
// then the role, then the positions, then their distance from the center against
// xpos_max_distance()); a rejected call writes nothing. Ok: every pair of every head is the
// long-double rotation scaled by zeta_i^(+-(p - c) / scale_base), within 4 float32 ulps of
// scale · (|x_a| + |x_b|) (and subnormal slack), finite for finite moderate inputs; channels
// from rotary_dim on pass through bit for bit. Buffers have their exact sizes.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "../core/reference.h"
#include "fuzz_expect.h"
#include "fuzz_input.h"
#include "posenc/rope.h"

namespace {

using namespace fuzz;
using posenc::Status;
using posenc::XposRole;
using Real = long double;

constexpr std::uint32_t kMaxRows = 40;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

constexpr double kScaleBases[] = {512, 1, 64, 0, -1, kNaN, kInf, 1e-300, 1e300, 4096, 0.01};
constexpr double kGammas[] = {0.4, 0.1, 2, 0, -0.4, kNaN, kInf, 1e-300, 1e300, 1e-9};
constexpr double kCenters[] = {0, 1, 1000, 35694, 2147483647.0, 2147483648.0, -1, 1.5, kNaN, 100000, 17847};

template <std::size_t N>
double pick(FuzzInput& in, const double (&table)[N]) {
  const std::uint8_t t = in.byte();
  return t < N ? table[t] : in.f64();
}

bool valid_role(XposRole role) { return role == XposRole::kQuery || role == XposRole::kKey; }

// The status rope()/rope_qk() must return, in the core's order; *center receives the center.
Status expected_status(const posenc::XposSpec& x, bool qk, const DecodedPositions& rows, std::uint32_t seq_len,
                       std::int64_t* center) {
  if (!(std::isfinite(x.scale_base) && x.scale_base > 0)) return Status::kXposScaleBaseInvalid;
  if (!(std::isfinite(x.gamma) && x.gamma > 0)) return Status::kXposGammaInvalid;
  if (x.role != XposRole::kNone && !valid_role(x.role)) return Status::kXposRoleInvalid;
  if (x.has_center && !(x.center >= 0 && x.center <= 2147483647.0 && x.center == std::floor(x.center)))
    return Status::kXposCenterInvalid;
  if (qk && x.role != XposRole::kNone) return Status::kXposRoleNotTaken;
  if (!qk && x.role == XposRole::kNone) return Status::kXposRoleMissing;
  std::int64_t largest = 0;
  for (std::size_t row = 0; row < seq_len; ++row) {
    const std::int64_t p = rows.at(row);
    if (rows.is_list && p < 0) return Status::kPositionOutOfRange;
    if (!rows.is_list && p > posenc::kMaxPosition) return Status::kOffsetTooLarge;
    largest = p > largest ? p : largest;
  }
  if (seq_len == 0) return Status::kOk;
  *center = x.has_center ? static_cast<std::int64_t>(x.center) : (largest + 2) / 2;  // ceil((largest + 1) / 2)
  const double limit = posenc::xpos_max_distance(x, 1.0);
  for (std::size_t row = 0; row < seq_len; ++row) {
    const std::int64_t d = rows.at(row) - *center;
    if (static_cast<double>(d < 0 ? -d : d) > limit) return Status::kXposDistanceTooLarge;
  }
  return Status::kOk;
}

// x rotated (or its inverse) and scaled, checked against the long-double reference.
void expect_rotated(const std::vector<float>& x, const std::vector<float>& out, const posenc::RopeSpec& spec,
                    std::uint32_t heads, const DecodedPositions& rows, std::int64_t center, double sign) {
  const std::uint32_t half = spec.rotary_dim / 2;
  for (std::uint32_t t = 0; t < spec.seq_len; ++t) {
    const Real p = static_cast<Real>(rows.at(t));
    for (std::uint32_t pair = 0; pair < half; ++pair) {
      const Real inv = std::pow(10000.0L, -static_cast<Real>(2 * pair) / spec.rotary_dim);
      const Real theta = (spec.inverse ? -1 : 1) * p * inv;
      const Real scale =
          reference::xpos_scale(pair, spec.rotary_dim, spec.xpos.gamma, sign * (p - center) / spec.xpos.scale_base);
      const std::uint32_t a = spec.layout == posenc::RopeLayout::kHalf ? pair : 2 * pair;
      const std::uint32_t b = spec.layout == posenc::RopeLayout::kHalf ? pair + half : 2 * pair + 1;
      for (std::uint32_t h = 0; h < heads; ++h) {
        const std::size_t at = (std::size_t{t} * heads + h) * spec.head_dim;
        const Real xa = x[at + a], xb = x[at + b];
        if (!(std::fabs(xa) <= 1e20L && std::fabs(xb) <= 1e20L)) continue;  // non-finite or huge inputs
        const Real wa = scale * (xa * std::cos(theta) - xb * std::sin(theta));
        const Real wb = scale * (xb * std::cos(theta) + xa * std::sin(theta));
        // float32 rounding of the scaled cos/sin and of the rotation; a scaled cos/sin below
        // FLT_MIN is subnormal (absolute rounding 2^-150), which x then multiplies
        const Real bound = 4 * 0x1p-24L * scale * (std::fabs(xa) + std::fabs(xb)) +
                           0x1p-149L * (std::fabs(xa) + std::fabs(xb)) + 4 * 0x1p-149L;
        if (scale * (std::fabs(xa) + std::fabs(xb)) > 1e37L) continue;  // near float32's top: rounding dominates
        // angles beyond 2^24 rad: the long-double sin/cos is the reference's own limit
        if (std::fabs(theta) > 0x1p24L) continue;
        FUZZ_EXPECT(std::fabs(out[at + a] - wa) <= bound && std::fabs(out[at + b] - wb) <= bound,
                    "row %u (position %lld, center %lld) head %u pair %u: got (%g, %g), want (%Lg, %Lg), bound %Lg", t,
                    static_cast<long long>(rows.at(t)), static_cast<long long>(center), h, pair, out[at + a],
                    out[at + b], wa, wb, bound);
      }
    }
    for (std::uint32_t h = 0; h < heads; ++h)
      for (std::uint32_t c = spec.rotary_dim; c < spec.head_dim; ++c) {
        const std::size_t at = (std::size_t{t} * heads + h) * spec.head_dim + c;
        FUZZ_EXPECT(same_value(out[at], x[at]), "pass-through channel %u changed", c);
      }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  const bool qk = in.byte() % 2 == 1;
  const std::uint8_t flags = in.byte();
  posenc::RopeSpec spec;
  spec.seq_len = in.byte() % (kMaxRows + 1);
  spec.num_heads = 1 + in.byte() % 3;
  spec.head_dim = 2 * (1 + in.byte() % 33);
  spec.rotary_dim = flags & 1 ? 2 * (1 + in.byte() % (spec.head_dim / 2)) : spec.head_dim;
  spec.inverse = flags & 2;
  spec.layout = flags & 4 ? posenc::RopeLayout::kHalf : posenc::RopeLayout::kInterleaved;
  spec.xpos.enabled = true;
  spec.xpos.scale_base = pick(in, kScaleBases);
  spec.xpos.gamma = pick(in, kGammas);
  const std::uint8_t role = in.byte() % 5;
  spec.xpos.role = static_cast<XposRole>(role < 3 ? role : role == 3 ? 7 : -1);
  spec.xpos.has_center = flags & 8;
  spec.xpos.center = pick(in, kCenters);
  const DecodedPositions rows = in.positions(spec.seq_len, kMaxRows);
  const std::uint32_t kv_heads = qk ? 1 : spec.num_heads;
  const std::vector<float> q = in.array<float>(std::size_t{spec.seq_len} * spec.num_heads * spec.head_dim);
  const std::vector<float> k = in.array<float>(std::size_t{spec.seq_len} * kv_heads * spec.head_dim);

  std::int64_t center = 0;
  const Status expected = expected_status(spec.xpos, qk, rows, spec.seq_len, &center);
  std::vector<float> q_out(q.size(), sentinel()), k_out(k.size(), sentinel());
  const Status status =
      qk ? posenc::rope_qk(spec, kv_heads, rows.positions, q.data(), q_out.data(), k.data(), k_out.data())
         : posenc::rope(spec, rows.positions, q.data(), q_out.data());
  FUZZ_EXPECT(status == expected, "returned '%s', expected '%s'", posenc::status_name(status),
              posenc::status_name(expected));
  if (status != Status::kOk) {
    FUZZ_EXPECT(untouched(q_out) && untouched(k_out), "a rejected call wrote");
    return 0;
  }
  const double sign = spec.inverse ? -1.0 : 1.0;  // queries (rope: the given role) grow, keys shrink
  const double q_sign = !qk && spec.xpos.role == XposRole::kKey ? -sign : sign;
  expect_rotated(q, q_out, spec, spec.num_heads, rows, center, q_sign);
  if (qk) expect_rotated(k, k_out, spec, kv_heads, rows, center, -sign);
  return 0;
}
