// Rotary position embeddings (RoPE, Su et al. "RoFormer"): each pair of the first rotary_dim
// channels of a query/key head is rotated by position * inv_freq_i, so that the dot product
// of a rotated query at m and a rotated key at n depends only on m - n.
//
// As models run it: batches of sequences (each at its own positions), tokens-major or
// heads-major tensors, queries and keys with different head counts (grouped-query attention)
// in one call, the inverse rotation, Hugging Face's partial_rotary_factor and long-context
// scaling of the frequencies (rope_scaling.h), whose attention factor multiplies cos and sin,
// and xPos's per-pair scale (xpos.h), which composes with all of them.
#pragma once

#include <cstdint>

#include "batch_positions.h"
#include "defaults.h"
#include "half.h"
#include "named_enum.h"
#include "positions.h"
#include "rope_scaling.h"
#include "status.h"
#include "xpos.h"

namespace posenc {

// X(enumerator, JS name), in value order (named_enum.h).
// clang-format off
#define POSENC_ROPE_LAYOUTS(X) \
  X(kInterleaved, "interleaved") /* pairs (x[2i], x[2i+1]): RoFormer, Meta LLaMA, GPT-J, ggml NORMAL */ \
  X(kHalf, "half")               /* pairs (x[i], x[i + rotary_dim/2]): GPT-NeoX, Hugging Face, vLLM */
// clang-format on
enum class RopeLayout : int { POSENC_ROPE_LAYOUTS(POSENC_ENUMERATOR) };

// X(enumerator, JS name), in value order (named_enum.h).
// clang-format off
#define POSENC_ROPE_ORDERS(X) \
  X(kTokens, "tokens") /* [batch, seq_len, num_heads, head_dim]: ONNX 3-D input, onnxruntime */ \
  X(kHeads, "heads")   /* [batch, num_heads, seq_len, head_dim]: Hugging Face after the transpose */
// clang-format on
enum class RopeOrder : int { POSENC_ROPE_ORDERS(POSENC_ENUMERATOR) };

// M-RoPE (Qwen2-VL, Qwen2.5-VL, Qwen3-VL): each frequency pair takes its position from one of
// three rows of positions [3, batch, seq_len] (temporal, height, width), by sections of pairs.
struct MropeSpec {
  bool enabled = false;
  std::uint32_t section[3] = {};  // pairs of t, h and w; they sum to rotary_dim / 2
  bool interleaved = false;       // Qwen3-VL's t,h,w,t,h,w,... order instead of three runs
};

struct RopeSpec {
  std::uint32_t seq_len = 0;
  std::uint32_t num_heads = 1;
  std::uint32_t head_dim = 0;
  std::uint32_t rotary_dim = 0;  // even, <= head_dim; channels from rotary_dim on pass through
  double base = kDefaultBase;
  RopeLayout layout = RopeLayout::kInterleaved;
  std::uint32_t batch = 1;
  RopeOrder order = RopeOrder::kTokens;
  bool inverse = false;                    // rotate by -theta (undo a rotation)
  bool has_partial_rotary_factor = false;  // rotary_dim = int(head_dim * factor); rotary_dim ignored
  double partial_rotary_factor = 1.0;
  RopeScaling scaling;
  XposSpec xpos;                  // xPos's scale on the rotated pairs; rope() needs its role, rope_qk() takes none
  MropeSpec mrope;                // positions, when listed, are then [3, batch, seq_len]
  Dtype dtype = Dtype::kFloat32;  // the arrays' storage: float32, or 16-bit float16/bfloat16 patterns
};

struct RopeCacheSpec {
  std::uint32_t seq_len = 0;
  std::uint32_t rotary_dim = 0;
  double base = kDefaultBase;
  std::uint32_t batch = 1;  // rows: batch * seq_len, [batch, seq_len, rotary_dim/2]
  RopeScaling scaling;
  Dtype dtype = Dtype::kFloat32;  // the arrays' storage: float32, or 16-bit float16/bfloat16 patterns
};

// The frequency schedule alone, at a given current sequence length (dynamic, longrope).
struct RopeScheduleSpec {
  std::uint32_t rotary_dim = 0;
  std::uint32_t head_dim = 0;  // needed with partial_rotary_factor; else, when set, rotary_dim <= head_dim
  bool has_partial_rotary_factor = false;
  double partial_rotary_factor = 1.0;
  double base = kDefaultBase;
  RopeScaling scaling;
  std::uint32_t seq_len = 0;  // current sequence length; 0 = not given (no length-based scaling)
};

// The rotary dimension asked for: rotary_dim, or Hugging Face's int(head_dim * factor) when a
// partial rotary factor is given, which must then be in (0, 1] and give an even number >= 2.
Status resolve_rotary_dim(std::uint32_t head_dim, std::uint32_t rotary_dim, bool has_partial_rotary_factor,
                          double partial_rotary_factor, std::uint32_t* out);

Status check_frequencies(std::uint32_t rotary_dim, double base);
Status check(const RopeSpec& spec, const BatchPositions& positions);
Status check(const RopeCacheSpec& spec, const BatchPositions& positions);
Status check(const RopeScheduleSpec& spec);
Status check_qk(const RopeSpec& spec, std::uint32_t num_kv_heads, const BatchPositions& positions);
// The positions of a checked spec alone (an M-RoPE list holds three rows per sequence).
Status check_rows(const RopeSpec& spec, const BatchPositions& positions);

// The rotary_dim/2 inverse frequencies, float64.
Status rope_frequencies(std::uint32_t rotary_dim, double base, double* out);

// The resolved rotary_dim/2 inverse frequencies (float64) and the attention factor.
Status rope_schedule(const RopeScheduleSpec& spec, double* inv_freq, double* attention_factor);

// cos and sin, each [batch, seq_len, rotary_dim/2] (the layout ONNX's RotaryEmbedding takes),
// times the attention factor, which is also written to *attention_factor when given. With
// `carry` (table_carry_doubles(rotary_dim / 2) doubles) the rows are a piece of one longer
// sequence (table_pieces.h): batch 1 (else kBatchTooLarge); a schedule that goes by the call's
// positions (dynamic, longrope) takes `length`, the whole call's largest position + 1 (0, a
// piece's own rows: kScalingTypeInvalid).
Status rope_cache(const RopeCacheSpec& spec, const BatchPositions& positions, float* cos, float* sin,
                  double* attention_factor = nullptr, double* carry = nullptr, std::uint64_t length = 0);

// x, out: [batch, seq_len, num_heads, head_dim] (order kTokens) or [batch, num_heads, seq_len,
// head_dim] (kHeads). out may equal x (in place) but must not otherwise overlap it. With
// spec.mrope, a position list holds 3 * batch * seq_len entries (t rows, then h, then w); an
// offset puts every axis at offset + row, which is plain RoPE.
Status rope(const RopeSpec& spec, const BatchPositions& positions, const float* x, float* out);

// Queries (spec.num_heads heads) and keys (num_kv_heads heads) of the same rows rotated in one
// pass: each position's cos/sin are computed once for both. Each output may equal its input;
// otherwise no two of q, q_out, k, k_out may overlap.
Status rope_qk(const RopeSpec& spec, std::uint32_t num_kv_heads, const BatchPositions& positions, const float* q,
               float* q_out, const float* k, float* k_out);

// Half precision (spec.dtype float16 or bfloat16; the other pointer type, or the other spec, is
// kDtypeMismatch). Angles and cos/sin as in float32; a rotation widens its inputs exactly,
// rotates in float32 as the float overloads do, and rounds once to the storage type, so every
// output is the float overload's result on the widened input, rounded. The cache is the float64
// value (times the attention factor) rounded once to the storage type.
Status rope_cache(const RopeCacheSpec& spec, const BatchPositions& positions, std::uint16_t* cos, std::uint16_t* sin,
                  double* attention_factor = nullptr, double* carry = nullptr, std::uint64_t length = 0);
Status rope(const RopeSpec& spec, const BatchPositions& positions, const std::uint16_t* x, std::uint16_t* out);
Status rope_qk(const RopeSpec& spec, std::uint32_t num_kv_heads, const BatchPositions& positions,
               const std::uint16_t* q, std::uint16_t* q_out, const std::uint16_t* k, std::uint16_t* k_out);

}  // namespace posenc
