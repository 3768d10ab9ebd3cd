// 2-D RoPE over an image grid: rows * cols patches in row-major order (patch p at row p / cols,
// column p % cols), each pair of a head turned by the patch's row or its column, as the vision
// encoders that use it compute it:
//
// - kPixtral (transformers' PixtralRotaryEmbedding): freqs_j = 1 / base^(2j / head_dim); the
//   first ceil(head_dim/4) pairs turn by the row at freqs[0::2], the others by the column at
//   freqs[1::2]; the half layout (rotate_half).
// - kAxial (SAM 2's compute_axial_cis): freqs_j = 1 / base^(4j / head_dim), j < head_dim/4; the
//   first head_dim/4 pairs turn by the column (x), the others by the row (y), at the same
//   frequencies; interleaved pairs (view_as_complex).
#pragma once

#include <cstdint>

#include "defaults.h"
#include "named_enum.h"
#include "rope.h"
#include "status.h"

namespace posenc {

// X(enumerator, JS name), in value order (named_enum.h).
// clang-format off
#define POSENC_ROPE_GRID_VARIANTS(X) \
  X(kPixtral, "pixtral") \
  X(kAxial, "axial")
// clang-format on
enum class RopeGridVariant : int { POSENC_ROPE_GRID_VARIANTS(POSENC_ENUMERATOR) };

struct RopeGridSpec {
  std::uint32_t rows = 0;
  std::uint32_t cols = 0;
  std::uint32_t num_heads = 1;
  std::uint32_t head_dim = 0;  // pixtral: even, >= 4; axial: a multiple of 4
  double base = kDefaultBase;
  RopeGridVariant variant = RopeGridVariant::kPixtral;
  RopeLayout layout = RopeLayout::kHalf;  // the variant's own: kHalf for pixtral, kInterleaved for axial
  RopeOrder order = RopeOrder::kTokens;
  std::uint32_t batch = 1;
  // Each sequence holds `frames` copies of the grid, each patch p at p's row and column (SAM 2's
  // repeat_freqs_k: memory-attention keys of several frames of one grid).
  std::uint32_t frames = 1;
};

Status check(const RopeGridSpec& spec);

// The head_dim/2 pairs of a checked spec: their inverse frequencies (float64) and axes (0: the
// patch's row, 1: its column).
void rope_grid_pairs(const RopeGridSpec& spec, double* inv_freq, std::uint8_t* axis_of);

// x, out: [batch, frames * rows * cols, num_heads, head_dim] (kTokens) or [batch, num_heads,
// frames * rows * cols, head_dim] (kHeads). out may equal x (in place) but must not otherwise
// overlap it.
Status rope_grid(const RopeGridSpec& spec, const float* x, float* out);

}  // namespace posenc
