// xPos (Sun et al., "A Length-Extrapolatable Transformer"; microsoft/torchscale's XPOS): RoPE
// whose pair i is also scaled by zeta_i^(+-(position - center) / scale_base), with
// zeta_i = (2i / rotary_dim + gamma) / (1 + gamma) < 1. Queries are scaled up with the distance
// from the center and keys down (the inverse rotation takes the reciprocal), so a rotated
// query at m and key at n meet with zeta_i^((m - n) / scale_base): their dot product still
// depends on m - n only, and decays with it. The center cancels in that product; it only keeps
// the scales inside float32's range, which is why the positions must stay within
// xpos_max_distance() of it.
#pragma once

#include <cstdint>

#include "defaults.h"
#include "named_enum.h"
#include "status.h"

namespace posenc {

// X(enumerator, JS name), in value order (named_enum.h).
// clang-format off
#define POSENC_XPOS_ROLES(X) \
  X(kNone, "none")   /* not given: rope_qk (queries up, keys down), or no xPos */ \
  X(kQuery, "query") /* scaled by zeta^((position - center) / scale_base) */ \
  X(kKey, "key")     /* scaled by zeta^(-(position - center) / scale_base) */
// clang-format on
enum class XposRole : int { POSENC_XPOS_ROLES(POSENC_ENUMERATOR) };

struct XposSpec {
  bool enabled = false;
  double scale_base = kDefaultXposScaleBase;
  double gamma = kDefaultXposGamma;
  XposRole role = XposRole::kNone;
  // torchscale's center: ceil(length / 2), length = the largest position of the call + 1
  // (its min_pos = -(length) // 2). An explicit center (an integer in [0, kMaxPosition]) keeps
  // keys rotated by an earlier call (a KV cache) comparable with later queries.
  bool has_center = false;
  double center = 0.0;
};

// scale_base and gamma finite and > 0, a known role, an integer center in [0, kMaxPosition].
Status check(const XposSpec& spec);

// The center of a call whose largest position is length - 1.
std::int64_t xpos_center(const XposSpec& spec, std::uint64_t length);

// The largest |position - center| at which every pair's scale, times the attention factor,
// stays a normal float32 (in [FLT_MIN, FLT_MAX]): the steepest pair is pair 0, zeta_0 =
// gamma / (1 + gamma) (|p - c| <= 36,531 for gamma 0.4, scale_base 512). Capped at kMaxPosition.
double xpos_max_distance(const XposSpec& spec, double attention_factor);

}  // namespace posenc
