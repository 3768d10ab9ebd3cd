// xPos's per-pair scale as the rotation engine uses it (posenc/xpos.h says what xPos is): a
// geometric growth per pair, exp((position - center) * log_growth_i), which PhaseBlock folds
// into its anchors and its one-position step.
#pragma once

#include <cstdint>

#include "posenc/batch_positions.h"
#include "posenc/xpos.h"

namespace posenc {

// The per-pair log growth of pairs [first, first + count) of a rotary_dim-wide rotation:
// sign * ln(zeta_i) / scale_base, sign +1 for queries and -1 for keys (negated again by the
// inverse rotation).
void xpos_log_growth(const XposSpec& spec, std::uint32_t rotary_dim, std::uint32_t first, std::uint32_t count,
                     double sign, double* out);

// The growth sign of a tensor of `role` (+1 queries, -1 keys), reversed when undoing a rotation.
double xpos_sign(XposRole role, bool inverse);

// kXposDistanceTooLarge unless every row of the (checked) batch lies within max_distance of center.
Status check_xpos_distance(const BatchPositions& positions, std::uint32_t batch, std::uint32_t seq_len,
                           std::int64_t center, double max_distance);

}  // namespace posenc
