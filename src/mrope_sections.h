// M-RoPE's sections: which of the three position rows (0 temporal, 1 height, 2 width) each
// frequency pair of a head takes its position from.
//
// Qwen2-VL / Qwen2.5-VL (transformers' apply_multimodal_rotary_pos_emb): the pairs in three
// consecutive runs of section[0], section[1], section[2] pairs (t, then h, then w; in the half
// layout the partner channels at rotary_dim/2 on follow the same split, `mrope_section * 2`).
// Qwen3-VL (apply_interleaved_mrope): pair k is h when k % 3 == 1 and k < 3 * section[1], w
// when k % 3 == 2 and k < 3 * section[2], t otherwise.
#pragma once

#include <cstdint>

#include "posenc/rope.h"

namespace posenc {

// The sections give every pair an axis as the model intends: they sum to `pairs` and, when
// interleaved, the h and w pairs all fall below `pairs` (so section[0] pairs are left for t).
bool mrope_sections_fit(const MropeSpec& mrope, std::uint32_t pairs);

// axis_of[k] for the `pairs` pairs of sections that fit.
void mrope_pair_axes(const MropeSpec& mrope, std::uint32_t pairs, std::uint8_t* axis_of);

}  // namespace posenc
