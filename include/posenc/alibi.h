// ALiBi (Press et al., "Train Short, Test Long", 2021): no position enters the embeddings; each
// head h adds slope_h · (key position − query position) to its attention scores.
//
// Slopes, for n heads and max_bias B (8 in the paper and BLOOM; MPT's alibi_bias_max):
//   n a power of two:  slope_h = 2^(−B·(h+1)/n), h = 0..n−1;
//   otherwise, with c the largest power of two below n: the c slopes of that rule, then the
//   n − c odd-numbered slopes of the rule for 2c, 2^(−B·(2m+1)/(2c)), m = 0..n−c−1
//   (the paper's get_slopes, BLOOM's build_alibi_tensor and MPT's build_mpt_alibi_tensor all
//   give this order: MPT's concat(slopes[1::2], slopes[::2]) of the 2c rule is the same list).
// Computed in float64: each slope is exp2 of B·k/p (k/p exact), within 1 ulp when B·k/p is exact
// (B an integer such as 8 or 16); otherwise the exponent's rounding adds up to B·ln2/2 ulps.
#pragma once

#include <cstdint>

#include "defaults.h"
#include "status.h"

namespace posenc {

struct AlibiSlopesSpec {
  std::uint32_t num_heads = 0;
  double max_bias = kDefaultMaxBias;
};

Status check(const AlibiSlopesSpec& spec);

// out: [num_heads] float64 slopes.
Status alibi_slopes(const AlibiSlopesSpec& spec, double* out);

struct AlibiBiasSpec {
  std::uint32_t num_heads = 0;
  std::uint32_t query_len = 0;
  std::uint32_t key_len = 0;
  // Query row i sits at position offset + i, key column j at position j (the KV-cache case:
  // offset = key_len − query_len). Any integer in [−kMaxPosition, kMaxPosition].
  std::int64_t offset = 0;
  double max_bias = kDefaultMaxBias;
};

Status check(const AlibiBiasSpec& spec);

// out: [num_heads, query_len, key_len] float32, out[h][i][j] = slope_h · (j − (offset + i)),
// computed in float64 and rounded once. Not masked: it is positive above the causal diagonal
// (j > offset + i); causal masking is the caller's, as in the paper.
Status alibi_bias(const AlibiBiasSpec& spec, float* out);

}  // namespace posenc
