// Converting q/k projections and activations between the two RoPE layouts (which channels form
// a rotating pair), so a checkpoint can run with either convention. Within the first rotary_dim channels of each head,
// interleaved pair i sits at channels (2i, 2i+1) and half pair i at (i, i + rotary_dim/2);
// the conversion moves channel 2i + j to j * rotary_dim/2 + i (interleaved -> half) or back.
//
// For q/k projection weights [num_heads * head_dim, hidden] a "channel" is a whole row of
// `hidden` floats: this is the permutation Hugging Face's convert_llama_weights_to_hf.py applies
// to Meta's checkpoints (view(n_heads, dim/n_heads/2, 2, hidden).transpose(1, 2)). Rotating
// interleaved pairs of x equals converting x, rotating half pairs, and converting back.
#pragma once

#include <cstdint>

#include "rope.h"
#include "status.h"

namespace posenc {

struct LayoutConversionSpec {
  std::uint32_t heads = 0;  // head vectors (activations: every head of every row; weights: num_heads)
  std::uint32_t head_dim = 0;
  std::uint32_t rotary_dim = 0;  // even, <= head_dim; channels from rotary_dim on keep their place
  std::uint32_t hidden = 1;      // floats per channel: the weights' hidden size; 1 for activations
  RopeLayout from = RopeLayout::kInterleaved;
  RopeLayout to = RopeLayout::kHalf;
};

Status check(const LayoutConversionSpec& spec);

// x, out: [heads, head_dim, hidden]; out must not overlap x.
Status convert_layout(const LayoutConversionSpec& spec, const float* x, float* out);

}  // namespace posenc
