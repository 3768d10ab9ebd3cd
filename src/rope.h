// Rotary position embeddings (RoPE, Su et al. "RoFormer"): each pair of the first rotary_dim
// channels of a query/key head is rotated by position * inv_freq_i, so that the dot product
// of a rotated query at m and a rotated key at n depends only on m - n.
#pragma once

#include <cstdint>

#include "positions.h"
#include "status.h"

namespace posenc {

enum class RopeLayout : int {
  kInterleaved = 0,  // pairs (x[2i], x[2i+1]): RoFormer, Meta LLaMA, GPT-J, ggml NORMAL
  kHalf = 1,         // pairs (x[i], x[i + rotary_dim/2]): GPT-NeoX, Hugging Face, vLLM
};

struct RopeSpec {
  std::uint32_t seq_len = 0;
  std::uint32_t num_heads = 1;
  std::uint32_t head_dim = 0;
  std::uint32_t rotary_dim = 0;  // even, <= head_dim; channels from rotary_dim on pass through
  double base = 10000.0;
  RopeLayout layout = RopeLayout::kInterleaved;
};

struct RopeCacheSpec {
  std::uint32_t seq_len = 0;
  std::uint32_t rotary_dim = 0;
  double base = 10000.0;
};

Status check_frequencies(std::uint32_t rotary_dim, double base);
Status check(const RopeSpec& spec, const Positions& positions);
Status check(const RopeCacheSpec& spec, const Positions& positions);

// The rotary_dim/2 inverse frequencies, float64.
Status rope_frequencies(std::uint32_t rotary_dim, double base, double* out);

// cos and sin, each [seq_len, rotary_dim/2] (the layout ONNX's RotaryEmbedding takes).
Status rope_cache(const RopeCacheSpec& spec, const Positions& positions, float* cos, float* sin);

// x, out: [seq_len, num_heads, head_dim]. out may equal x (in place) but must not otherwise
// overlap it.
Status rope(const RopeSpec& spec, const Positions& positions, const float* x, float* out);

}  // namespace posenc
