#include "status.h"

namespace posenc {

const char* status_name(Status status) {
  switch (status) {
    case Status::kOk: return "ok";
    case Status::kSeqLenTooLarge: return "seq_len too large";
    case Status::kDModelOdd: return "d_model odd";
    case Status::kDModelTooSmall: return "d_model too small";
    case Status::kDModelTooLarge: return "d_model too large";
    case Status::kHeadDimTooSmall: return "head_dim too small";
    case Status::kHeadDimTooLarge: return "head_dim too large";
    case Status::kNumHeadsTooSmall: return "num_heads too small";
    case Status::kNumHeadsTooLarge: return "num_heads too large";
    case Status::kRotaryDimOdd: return "rotary_dim odd";
    case Status::kRotaryDimTooSmall: return "rotary_dim too small";
    case Status::kRotaryDimTooLarge: return "rotary_dim larger than head_dim";
    case Status::kBaseInvalid: return "base not finite and positive, or so small that angles overflow";
    case Status::kOffsetTooLarge: return "offset + seq_len - 1 above the largest position";
    case Status::kPositionOutOfRange: return "position out of range";
    case Status::kLayoutInvalid: return "layout invalid";
    case Status::kMetricInvalid: return "metric invalid";
    case Status::kRowsTooLarge: return "rows too large";
    case Status::kColsTooLarge: return "cols too large";
    case Status::kDimTooSmall: return "dim too small";
    case Status::kDimTooLarge: return "dim too large";
    case Status::kSizeTooLarge: return "array too large";
    case Status::kNullPointer: return "null array";
    case Status::kBatchTooLarge: return "batch * seq_len too large";
    case Status::kNumKvHeadsTooSmall: return "num_kv_heads too small";
    case Status::kNumKvHeadsTooLarge: return "num_kv_heads too large";
    case Status::kOrderInvalid: return "order invalid";
    case Status::kOffsetNegative: return "offset negative";
    case Status::kPartialRotaryFactorInvalid: return "partial_rotary_factor invalid";
    case Status::kHiddenTooSmall: return "hidden too small";
    case Status::kScalingTypeInvalid: return "scaling type invalid";
    case Status::kScalingFactorInvalid: return "scaling factor invalid";
    case Status::kOriginalMaxPositionInvalid: return "original_max_position_embeddings invalid";
    case Status::kMaxPositionEmbeddingsInvalid: return "max_position_embeddings invalid";
    case Status::kAttentionFactorInvalid: return "attention_factor invalid";
    case Status::kBetaFastInvalid: return "beta_fast invalid";
    case Status::kBetaSlowInvalid: return "beta_slow invalid";
    case Status::kMscaleInvalid: return "mscale invalid";
    case Status::kMscaleAllDimInvalid: return "mscale_all_dim invalid";
    case Status::kLowFreqFactorInvalid: return "low_freq_factor invalid";
    case Status::kHighFreqFactorInvalid: return "high_freq_factor invalid";
    case Status::kShortFactorLength: return "short_factor length";
    case Status::kLongFactorLength: return "long_factor length";
    case Status::kShortFactorInvalid: return "short_factor entry invalid";
    case Status::kLongFactorInvalid: return "long_factor entry invalid";
    case Status::kDynamicRotaryDimTooSmall: return "rotary_dim too small for dynamic scaling";
    case Status::kYarnBaseInvalid: return "base 1 with yarn scaling";
    case Status::kOutOfMemory: return "out of memory";
    case Status::kScalingOverflow: return "scaling makes angles or the attention factor overflow";
  }
  return "unknown status";
}

}  // namespace posenc
