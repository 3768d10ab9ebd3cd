// Result codes of the posenc core. Each error names exactly one parameter, so the bindings can
// turn a code into an error message that says which argument broke which rule.
#pragma once

namespace posenc {

// Every status once: X(code, name in JS, what it means). The enum, status_name() and the
// Embind enum are generated from this list, so they cannot drift apart. New codes go at the
// end, so existing numbers stay.
#define POSENC_STATUS_LIST(X) \
  X(kOk, ok, "ok") \
  X(kSeqLenTooLarge, seqLenTooLarge, "seq_len above kMaxSeqLen") \
  X(kDModelOdd, dModelOdd, "d_model must be even (sin/cos come in pairs)") \
  X(kDModelTooSmall, dModelTooSmall, "d_model must be >= 2") \
  X(kDModelTooLarge, dModelTooLarge, "d_model above kMaxDim") \
  X(kHeadDimTooSmall, headDimTooSmall, "head_dim must be >= 2") \
  X(kHeadDimTooLarge, headDimTooLarge, "head_dim above kMaxDim") \
  X(kNumHeadsTooSmall, numHeadsTooSmall, "num_heads must be >= 1") \
  X(kNumHeadsTooLarge, numHeadsTooLarge, "num_heads above kMaxDim") \
  X(kRotaryDimOdd, rotaryDimOdd, "rotary_dim must be even") \
  X(kRotaryDimTooSmall, rotaryDimTooSmall, "rotary_dim must be >= 2") \
  X(kRotaryDimTooLarge, rotaryDimTooLarge, "rotary_dim must be <= head_dim") \
  X(kBaseInvalid, baseInvalid, "base must be finite, > 0 and keep position * inv_freq finite") \
  X(kOffsetTooLarge, offsetTooLarge, "offset + seq_len - 1 must be <= kMaxPosition") \
  X(kPositionOutOfRange, positionOutOfRange, "an explicit position is outside [0, kMaxPosition]") \
  X(kLayoutInvalid, layoutInvalid, "unknown layout value") \
  X(kMetricInvalid, metricInvalid, "unknown similarity metric") \
  X(kRowsTooLarge, rowsTooLarge, "similarity rows above kMaxSeqLen") \
  X(kColsTooLarge, colsTooLarge, "similarity cols above kMaxSeqLen") \
  X(kDimTooSmall, dimTooSmall, "similarity dim must be >= 1") \
  X(kDimTooLarge, dimTooLarge, "similarity dim above kMaxDim") \
  X(kSizeTooLarge, sizeTooLarge, "an array would hold more than kMaxElements values") \
  X(kNullPointer, nullPointer, "a required array is missing") \
  /* Batches, head orders, grouped-query attention, partial rotary (issue 5). */ \
  X(kBatchTooLarge, batchTooLarge, "batch * seq_len above kMaxSeqLen") \
  X(kNumKvHeadsTooSmall, numKvHeadsTooSmall, "num_kv_heads must be >= 1") \
  X(kNumKvHeadsTooLarge, numKvHeadsTooLarge, "num_kv_heads above kMaxDim") \
  X(kOrderInvalid, orderInvalid, "unknown head order") \
  X(kOffsetNegative, offsetNegative, "a per-sequence offset is negative") \
  X(kPartialRotaryFactorInvalid, partialRotaryFactorInvalid, "not in (0, 1], or int(head_dim * factor) not an even number >= 2") \
  X(kHiddenTooSmall, hiddenTooSmall, "pairing conversion of weights: hidden (row length) must be >= 1") \
  /* Long-context scaling (Hugging Face rope_type names; see rope_scaling.h). */ \
  X(kScalingTypeInvalid, scalingTypeInvalid, "unknown scaling type") \
  X(kScalingFactorInvalid, scalingFactorInvalid, "factor not finite or below 1") \
  X(kOriginalMaxPositionInvalid, originalMaxPositionInvalid, "original_max_position_embeddings below 2") \
  X(kMaxPositionEmbeddingsInvalid, maxPositionEmbeddingsInvalid, "longrope: max_position_embeddings below the original") \
  X(kAttentionFactorInvalid, attentionFactorInvalid, "attention_factor not finite or <= 0") \
  X(kBetaFastInvalid, betaFastInvalid, "yarn beta_fast not finite, <= 0 or below beta_slow") \
  X(kBetaSlowInvalid, betaSlowInvalid, "yarn beta_slow not finite or <= 0") \
  X(kMscaleInvalid, mscaleInvalid, "yarn mscale not finite or negative") \
  X(kMscaleAllDimInvalid, mscaleAllDimInvalid, "yarn mscale_all_dim not finite or negative") \
  X(kLowFreqFactorInvalid, lowFreqFactorInvalid, "llama3 low_freq_factor not finite or <= 0") \
  X(kHighFreqFactorInvalid, highFreqFactorInvalid, "llama3 high_freq_factor not finite or <= low_freq_factor") \
  X(kShortFactorLength, shortFactorLength, "longrope short_factor does not hold rotary_dim/2 entries") \
  X(kLongFactorLength, longFactorLength, "longrope long_factor does not hold rotary_dim/2 entries") \
  X(kShortFactorInvalid, shortFactorInvalid, "a short_factor entry not finite or <= 0") \
  X(kLongFactorInvalid, longFactorInvalid, "a long_factor entry not finite or <= 0") \
  X(kDynamicRotaryDimTooSmall, dynamicRotaryDimTooSmall, "dynamic scaling needs rotary_dim >= 4 (exponent d / (d - 2))") \
  X(kYarnBaseInvalid, yarnBaseInvalid, "yarn needs base != 1 (its correction range divides by ln(base))") \
  X(kOutOfMemory, outOfMemory, "a scratch allocation failed") \
  X(kScalingOverflow, scalingOverflow, "the scaling config makes an angle or the attention factor overflow")

enum class Status : int {
#define POSENC_STATUS_ENUM(code, js_name, meaning) code,
  POSENC_STATUS_LIST(POSENC_STATUS_ENUM)
#undef POSENC_STATUS_ENUM
};

const char* status_name(Status status);

}  // namespace posenc
