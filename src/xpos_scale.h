// xPos's per-pair scale as the rotation engine uses it (posenc/xpos.h says what xPos is): a
// geometric growth per pair, exp((position - center) * log_growth_i), which PhaseBlock folds
// into its anchors and its one-position step.
#pragma once

#include <cstdint>

#include "phases.h"
#include "posenc/batch_positions.h"
#include "posenc/xpos.h"

namespace posenc {

// The per-pair log growth of pairs [first, first + count) of a rotary_dim-wide rotation:
// sign * ln(zeta_i) / scale_base, sign +1 for queries and -1 for keys (negated again by the
// inverse rotation).
void xpos_log_growth(const XposSpec& spec, std::uint32_t rotary_dim, std::uint32_t first, std::uint32_t count,
                     double sign, double* out);

// Makes `phases` (pairs [first, first + phases->size()) of the rotation) grow as a tensor of
// `role` does about `center`.
void grow_as(PhaseBlock* phases, const XposSpec& spec, std::uint32_t rotary_dim, std::uint32_t first, XposRole role,
             bool inverse, std::int64_t center);

// The center of one call whose rows are `positions` (the batch checked), placed by `length`
// (the largest position + 1 of the whole sequence; 0: of these rows), once every row is found
// within xpos_max_distance() of it (else kXposDistanceTooLarge).
Status xpos_call_center(const XposSpec& spec, double attention_factor, const BatchPositions& positions,
                        std::uint32_t batch, std::uint32_t seq_len, std::uint64_t length, std::int64_t* center);

}  // namespace posenc
