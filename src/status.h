// Result codes of the posenc core. Each error names exactly one parameter, so the bindings can
// turn a code into an error message that says which argument broke which rule.
#pragma once

namespace posenc {

enum class Status : int {
  kOk = 0,
  kSeqLenTooLarge,         // seq_len above kMaxSeqLen
  kDModelOdd,              // d_model must be even (sin/cos come in pairs)
  kDModelTooSmall,         // d_model must be >= 2
  kDModelTooLarge,         // d_model above kMaxDim
  kHeadDimTooSmall,        // head_dim must be >= 2
  kHeadDimTooLarge,        // head_dim above kMaxDim
  kNumHeadsTooSmall,       // num_heads must be >= 1
  kNumHeadsTooLarge,       // num_heads above kMaxDim
  kRotaryDimOdd,           // rotary_dim must be even
  kRotaryDimTooSmall,      // rotary_dim must be >= 2
  kRotaryDimTooLarge,      // rotary_dim must be <= head_dim
  kBaseInvalid,            // base must be finite, > 0 and keep position * inv_freq finite
  kOffsetTooLarge,         // offset + seq_len - 1 must be <= kMaxPosition
  kPositionOutOfRange,     // an explicit position is outside [0, kMaxPosition]
  kLayoutInvalid,          // unknown layout value
  kMetricInvalid,          // unknown similarity metric
  kRowsTooLarge,           // similarity rows above kMaxSeqLen
  kColsTooLarge,           // similarity cols above kMaxSeqLen
  kDimTooSmall,            // similarity dim must be >= 1
  kDimTooLarge,            // similarity dim above kMaxDim
  kSizeTooLarge,           // an array would hold more than kMaxElements values
  kNullPointer,            // a required array is missing
  // Batches, head orders, grouped-query attention, partial rotary (issue 5).
  kBatchTooLarge,               // batch * seq_len above kMaxSeqLen
  kNumKvHeadsTooSmall,          // num_kv_heads must be >= 1
  kNumKvHeadsTooLarge,          // num_kv_heads above kMaxDim
  kOrderInvalid,                // unknown head order
  kOffsetNegative,              // a per-sequence offset is negative
  kPartialRotaryFactorInvalid,  // not in (0, 1], or int(head_dim * factor) not an even number >= 2
  kHiddenTooSmall,              // pairing conversion of weights: hidden (row length) must be >= 1
  // Long-context scaling (Hugging Face rope_type names; see rope_scaling.h).
  kScalingTypeInvalid,            // unknown scaling type
  kScalingFactorInvalid,          // factor not finite or below 1
  kOriginalMaxPositionInvalid,    // original_max_position_embeddings below 2
  kMaxPositionEmbeddingsInvalid,  // longrope: max_position_embeddings below the original
  kAttentionFactorInvalid,        // attention_factor not finite or <= 0
  kBetaFastInvalid,               // yarn beta_fast not finite, <= 0 or below beta_slow
  kBetaSlowInvalid,               // yarn beta_slow not finite or <= 0
  kMscaleInvalid,                 // yarn mscale not finite or negative
  kMscaleAllDimInvalid,           // yarn mscale_all_dim not finite or negative
  kLowFreqFactorInvalid,          // llama3 low_freq_factor not finite or <= 0
  kHighFreqFactorInvalid,         // llama3 high_freq_factor not finite or <= low_freq_factor
  kShortFactorLength,             // longrope short_factor does not hold rotary_dim/2 entries
  kLongFactorLength,              // longrope long_factor does not hold rotary_dim/2 entries
  kShortFactorInvalid,            // a short_factor entry not finite or <= 0
  kLongFactorInvalid,             // a long_factor entry not finite or <= 0
  kDynamicRotaryDimTooSmall,      // dynamic scaling needs rotary_dim >= 4 (exponent d / (d - 2))
  kYarnBaseInvalid,               // yarn needs base != 1 (its correction range divides by ln(base))
  kOutOfMemory,                   // a scratch allocation failed
  kScalingOverflow,               // the scaling config makes an angle or the attention factor overflow
};

const char* status_name(Status status);

}  // namespace posenc
