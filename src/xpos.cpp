#include <cfloat>
#include <cmath>

#include "posenc/size_limits.h"
#include "xpos_scale.h"

namespace posenc {

Status check(const XposSpec& spec) {
  if (!spec.enabled) return spec.role == XposRole::kNone ? Status::kOk : Status::kXposRoleNotTaken;
  if (!(std::isfinite(spec.scale_base) && spec.scale_base > 0.0)) return Status::kXposScaleBaseInvalid;
  // gamma 0 would make zeta_0 = 0: pair 0 zeroed (or infinite) at every position but the center.
  if (!(std::isfinite(spec.gamma) && spec.gamma > 0.0)) return Status::kXposGammaInvalid;
  if (spec.role != XposRole::kNone && spec.role != XposRole::kQuery && spec.role != XposRole::kKey)
    return Status::kXposRoleInvalid;
  if (spec.has_center && !(spec.center >= 0.0 && spec.center <= static_cast<double>(kMaxPosition) &&
                           spec.center == std::floor(spec.center)))
    return Status::kXposCenterInvalid;
  return Status::kOk;
}

std::int64_t xpos_center(const XposSpec& spec, std::uint64_t length) {
  if (spec.has_center) return static_cast<std::int64_t>(spec.center);
  return static_cast<std::int64_t>((length + 1) / 2);  // -(-length // 2): Python's floor of -length / 2, negated
}

double xpos_max_distance(const XposSpec& spec, double attention_factor) {
  // |ln scale| may reach neither ln(FLT_MAX / factor) (growing) nor ln(factor / FLT_MIN) (shrinking).
  const double room = std::fmin(std::log(static_cast<double>(FLT_MAX) / attention_factor),
                                std::log(attention_factor / static_cast<double>(FLT_MIN)));
  const double steepest = std::log1p(1.0 / spec.gamma);  // -ln zeta_0 = ln((1 + gamma) / gamma)
  const double distance = std::floor(spec.scale_base * room / steepest);
  const double cap = static_cast<double>(kMaxPosition);
  return room <= 0.0 ? 0.0 : (distance < cap ? distance : cap);  // inf (huge gamma or base) is capped too
}

void xpos_log_growth(const XposSpec& spec, std::uint32_t rotary_dim, std::uint32_t first, std::uint32_t count,
                     double sign, double* out) {
  // zeta_i = 1 - (1 - 2i / d) / (1 + gamma). Near 1 (a large gamma) ln zeta_i is log1p of the
  // small part: ln of zeta_i rounded would keep few of its digits. Below 1/2 (a small gamma
  // at pair 0) zeta_i itself is the accurate one: 1 - small part may round to 0.
  for (std::uint32_t i = 0; i < count; ++i) {
    // (not over rotary_dim * (1 + gamma): that product overflows for a gamma near DBL_MAX)
    const double below_one = (rotary_dim - 2.0 * (first + i)) / rotary_dim / (1.0 + spec.gamma);
    const double ln_zeta = below_one <= 0.5
                               ? std::log1p(-below_one)
                               : std::log((2.0 * (first + i) / rotary_dim + spec.gamma) / (1.0 + spec.gamma));
    out[i] = sign * ln_zeta / spec.scale_base;
  }
}

void grow_as(PhaseBlock* phases, const XposSpec& spec, std::uint32_t rotary_dim, std::uint32_t first, XposRole role,
             bool inverse, std::int64_t center) {
  const double sign = (role == XposRole::kKey ? -1.0 : 1.0) * (inverse ? -1.0 : 1.0);
  double log_growth[PhaseBlock::kCapacity];
  xpos_log_growth(spec, rotary_dim, first, phases->size(), sign, log_growth);
  phases->grow(log_growth, center);
}

Status xpos_call_center(const XposSpec& spec, double attention_factor, const BatchPositions& positions,
                        std::uint32_t batch, std::uint32_t seq_len, std::uint64_t length, std::int64_t* center) {
  *center = xpos_center(spec, length != 0 ? length : positions.length(batch, seq_len));
  const double max_distance = xpos_max_distance(spec, attention_factor);
  for (std::size_t b = 0; b < batch; ++b) {
    const Positions sequence = positions.sequence(b, seq_len);
    for (std::size_t t = 0; t < seq_len; ++t) {
      const std::int64_t distance = sequence.at(t) - *center;
      if (static_cast<double>(distance < 0 ? -distance : distance) > max_distance) return Status::kXposDistanceTooLarge;
    }
  }
  return Status::kOk;
}

}  // namespace posenc
