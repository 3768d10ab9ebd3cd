// Attention scores under one positional encoding, so that encodings can be compared on equal
// terms: for each head h, query row i (at position offset + i) and key row j (at position j),
//   score[h][i][j] = scale · (enc(q[h][i]) · enc(k[h][j])) + bias_h(j − (offset + i))
// where enc and bias are the encoding's:
//   none        q and k as given, no bias;
//   sinusoidal  the sinusoidal table of width head_dim at each row's position added to q and k
//               (add_sinusoidal, as the tutorial's seeds do), no bias;
//   rope        q and k rotated at their positions by a RopePlan (rope options as rope() takes them);
//   xpos        rope with xPos's scale (xpos.h): queries scaled up, keys down, about one center
//               for both sides (the given one, else ceil(L / 2), L = the largest position + 1);
//   alibi       q and k as given, bias slope_h · (j − (offset + i)) (alibi.h's slopes and form);
//   t5          q and k as given, bias = table[bucket(j − (offset + i))][h], T5's learned
//               relative_attention_bias weight indexed by relative_position_buckets.h.
// Optionally masked (causal: keys j > offset + i) and normalised (softmax over each row).
//
// Arithmetic: encoded q and k are float32, as a model holds them (one rounding after the
// rotation or addition); dot products are similarity()'s float32 kernel; scale · dot + bias is
// computed in float64 and rounded once (the ALiBi bias is exact in float64 and T5's is a float32
// value, so the sum is rounded once rather than twice). Softmax subtracts the row's maximum, then
// takes exp in float32 (xsimd's exp in SIMD builds, float64 exp rounded in the scalar build;
// attention_scores_test.cpp measures the bound) and normalises by a float64 sum.
#pragma once

#include <cstdint>

#include "defaults.h"
#include "named_enum.h"
#include "rope.h"
#include "rope_scaling.h"
#include "sinusoidal.h"
#include "status.h"
#include "xpos.h"

namespace posenc {

// X(enumerator, JS name), in value order (named_enum.h).
// clang-format off
#define POSENC_ATTENTION_ENCODINGS(X) \
  X(kNone, "none") \
  X(kSinusoidal, "sinusoidal") \
  X(kRope, "rope") \
  X(kAlibi, "alibi") \
  X(kT5, "t5") \
  X(kXpos, "xpos")
// clang-format on
enum class AttentionEncoding : int { POSENC_ATTENTION_ENCODINGS(POSENC_ENUMERATOR) };

struct AttentionScoresSpec {
  std::uint32_t num_heads = 1;
  std::uint32_t query_len = 0;
  std::uint32_t key_len = 0;
  std::uint32_t head_dim = 0;
  AttentionEncoding encoding = AttentionEncoding::kNone;
  // q: [num_heads, query_len, head_dim] and k: [num_heads, key_len, head_dim] (kHeads), or
  // [query_len, num_heads, head_dim] and [key_len, num_heads, head_dim] (kTokens, as rope takes).
  RopeOrder order = RopeOrder::kHeads;
  // Query row i sits at position offset + i, key row j at j; any integer in [−kMaxPosition,
  // kMaxPosition] (sinusoidal and rope: offset >= 0 and offset + query_len − 1 <= kMaxPosition).
  std::int64_t offset = 0;
  double scale = 1.0;    // finite; 1/sqrt(head_dim) in most models, 1 in T5
  bool causal = false;   // keys j > offset + i: score −infinity, weight 0
  bool softmax = false;  // weights (each row sums to 1; a row with every key masked is all 0)

  // sinusoidal and rope
  double base = kDefaultBase;
  SinusoidalLayout sinusoidal_layout = SinusoidalLayout::kInterleaved;
  // rope (the fields of RopeSpec that are not the shape)
  RopeLayout rope_layout = RopeLayout::kInterleaved;
  std::uint32_t rotary_dim = 0;  // as RopeSpec's: given (the JS layer's default is head_dim)
  bool has_partial_rotary_factor = false;
  double partial_rotary_factor = 1.0;
  RopeScaling scaling;
  // xpos: scale_base, gamma and the center (role: none; each side has its own)
  XposSpec xpos;
  // alibi
  double max_bias = kDefaultMaxBias;
  // t5: the [num_buckets, num_heads] float32 bias table (bias_count values), and its buckets
  const float* bias = nullptr;
  std::uint64_t bias_count = 0;
  std::uint32_t num_buckets = kDefaultNumBuckets;
  std::uint32_t max_distance = kDefaultMaxDistance;
  bool bidirectional = true;
};

Status check(const AttentionScoresSpec& spec);

// The xpos encoding's reach: the largest distance of a row from the center that float32 holds
// (xpos_max_distance() with the schedule's attention factor); check() refuses rows beyond it
// with kXposDistanceTooLarge. For a spec whose rotation rules check() accepts.
double xpos_reach(const AttentionScoresSpec& spec);

// q, k as above; out: [num_heads, query_len, key_len] float32, the layout of alibi_bias. out must
// not overlap q, k or the bias table. kOutOfMemory if the encoded copies cannot be allocated.
Status attention_scores(const AttentionScoresSpec& spec, const float* q, const float* k, float* out);

}  // namespace posenc
