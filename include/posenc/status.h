// Result codes of the posenc core. Each error names exactly one parameter, so the bindings can
// turn a code into an error message that says which argument broke which rule.
#pragma once

namespace posenc {

// Every status once: X(code, name in JS, the JS parameter it names, what it means). The enum,
// status_name() and the table the JS layer words its errors from are generated from this list,
// so they cannot drift apart. New codes go at the end, so existing numbers stay.
// (A table: one code a line, kept as written.)
// clang-format off
#define POSENC_STATUS_LIST(X) \
  X(kOk, ok, "", "ok") \
  X(kSeqLenTooLarge, seqLenTooLarge, "seqLen", "seq_len above kMaxSeqLen") \
  X(kDModelOdd, dModelOdd, "dModel", "d_model must be even (sin/cos come in pairs)") \
  X(kDModelTooSmall, dModelTooSmall, "dModel", "d_model must be >= 2") \
  X(kDModelTooLarge, dModelTooLarge, "dModel", "d_model above kMaxDim") \
  X(kHeadDimTooSmall, headDimTooSmall, "headDim", "head_dim must be >= 2") \
  X(kHeadDimTooLarge, headDimTooLarge, "headDim", "head_dim above kMaxDim") \
  X(kNumHeadsTooSmall, numHeadsTooSmall, "numHeads", "num_heads must be >= 1") \
  X(kNumHeadsTooLarge, numHeadsTooLarge, "numHeads", "num_heads above kMaxDim") \
  X(kRotaryDimOdd, rotaryDimOdd, "rotaryDim", "rotary_dim must be even") \
  X(kRotaryDimTooSmall, rotaryDimTooSmall, "rotaryDim", "rotary_dim must be >= 2") \
  X(kRotaryDimTooLarge, rotaryDimTooLarge, "rotaryDim", "rotary_dim must be <= head_dim") \
  X(kBaseInvalid, baseInvalid, "base", "base must be finite, > 0 and keep position * inv_freq finite") \
  X(kOffsetTooLarge, offsetTooLarge, "offset", "offset + seq_len - 1 must be <= kMaxPosition") \
  X(kPositionOutOfRange, positionOutOfRange, "positions", "an explicit position is outside [0, kMaxPosition]") \
  X(kLayoutInvalid, layoutInvalid, "layout", "unknown layout value") \
  X(kMetricInvalid, metricInvalid, "metric", "unknown similarity metric") \
  X(kRowsTooLarge, rowsTooLarge, "rows", "similarity rows above kMaxSeqLen") \
  X(kColsTooLarge, colsTooLarge, "cols", "similarity cols above kMaxSeqLen") \
  X(kDimTooSmall, dimTooSmall, "dim", "similarity dim must be >= 1") \
  X(kDimTooLarge, dimTooLarge, "dim", "similarity dim above kMaxDim") \
  X(kSizeTooLarge, sizeTooLarge, "shape", "an array would hold more than kMaxElements values") \
  X(kNullPointer, nullPointer, "array", "a required array is missing") \
  /* Batches, head orders, grouped-query attention, partial rotary. */ \
  X(kBatchTooLarge, batchTooLarge, "batch", "batch * seq_len above kMaxSeqLen") \
  X(kNumKvHeadsTooSmall, numKvHeadsTooSmall, "numKvHeads", "num_kv_heads must be >= 1") \
  X(kNumKvHeadsTooLarge, numKvHeadsTooLarge, "numKvHeads", "num_kv_heads above kMaxDim") \
  X(kOrderInvalid, orderInvalid, "order", "unknown head order") \
  X(kOffsetNegative, offsetNegative, "offset", "a per-sequence offset is negative") \
  X(kPartialRotaryFactorInvalid, partialRotaryFactorInvalid, "partialRotaryFactor", "not in (0, 1], or int(head_dim * factor) not an even number >= 2") \
  X(kHiddenTooSmall, hiddenTooSmall, "hidden", "pairing conversion of weights: hidden (row length) must be >= 1") \
  /* Long-context scaling (Hugging Face rope_type names; see rope_scaling.h). */ \
  X(kScalingTypeInvalid, scalingTypeInvalid, "scaling.type", "unknown scaling type") \
  X(kScalingFactorInvalid, scalingFactorInvalid, "scaling.factor", "factor not finite or below 1") \
  X(kOriginalMaxPositionInvalid, originalMaxPositionInvalid, "scaling.originalMaxPositionEmbeddings", "original_max_position_embeddings below 2") \
  X(kMaxPositionEmbeddingsInvalid, maxPositionEmbeddingsInvalid, "scaling.maxPositionEmbeddings", "longrope: max_position_embeddings below the original") \
  X(kAttentionFactorInvalid, attentionFactorInvalid, "scaling.attentionFactor", "attention_factor not finite, <= 0, or so large that cos or sin times it overflows float32") \
  X(kBetaFastInvalid, betaFastInvalid, "scaling.betaFast", "yarn beta_fast not finite, <= 0 or below beta_slow") \
  X(kBetaSlowInvalid, betaSlowInvalid, "scaling.betaSlow", "yarn beta_slow not finite or <= 0") \
  X(kMscaleInvalid, mscaleInvalid, "scaling.mscale", "yarn mscale not finite or negative") \
  X(kMscaleAllDimInvalid, mscaleAllDimInvalid, "scaling.mscaleAllDim", "yarn mscale_all_dim not finite or negative") \
  X(kLowFreqFactorInvalid, lowFreqFactorInvalid, "scaling.lowFreqFactor", "llama3 low_freq_factor not finite or <= 0") \
  X(kHighFreqFactorInvalid, highFreqFactorInvalid, "scaling.highFreqFactor", "llama3 high_freq_factor not finite or < low_freq_factor") \
  X(kShortFactorLength, shortFactorLength, "scaling.shortFactor", "longrope short_factor does not hold rotary_dim/2 entries") \
  X(kLongFactorLength, longFactorLength, "scaling.longFactor", "longrope long_factor does not hold rotary_dim/2 entries") \
  X(kShortFactorInvalid, shortFactorInvalid, "scaling.shortFactor", "a short_factor entry not finite or <= 0") \
  X(kLongFactorInvalid, longFactorInvalid, "scaling.longFactor", "a long_factor entry not finite or <= 0") \
  X(kDynamicRotaryDimTooSmall, dynamicRotaryDimTooSmall, "rotaryDim", "dynamic scaling needs rotary_dim >= 4 (exponent d / (d - 2))") \
  X(kYarnBaseInvalid, yarnBaseInvalid, "base", "yarn needs base != 1 (its correction range divides by ln(base))") \
  X(kOutOfMemory, outOfMemory, "memory", "a scratch allocation failed") \
  X(kScalingOverflow, scalingOverflow, "scaling", "the scaling config makes an angle or the attention factor overflow") \
  /* Array lengths against the shape, checked where arrays arrive with their lengths (the WASM seam). */ \
  X(kXLength, xLength, "x", "x does not hold the elements the shape describes") \
  X(kOutLength, outLength, "out", "out does not hold the elements the shape describes") \
  X(kQLength, qLength, "q", "q does not hold the elements the shape describes") \
  X(kKLength, kLength, "k", "k does not hold the elements the shape describes") \
  X(kOutQLength, outQLength, "out.q", "out.q does not hold the elements the shape describes") \
  X(kOutKLength, outKLength, "out.k", "out.k does not hold the elements the shape describes") \
  X(kOutCosLength, outCosLength, "out.cos", "out.cos does not hold the elements the shape describes") \
  X(kOutSinLength, outSinLength, "out.sin", "out.sin does not hold the elements the shape describes") \
  X(kALength, aLength, "a", "a does not hold the elements the shape describes") \
  X(kBLength, bLength, "b", "b does not hold the elements the shape describes") \
  X(kWLength, wLength, "w", "w does not hold the elements the shape describes") \
  X(kPositionsLength, positionsLength, "positions", "positions does not hold one position per row") \
  X(kOffsetsLength, offsetsLength, "offset", "the per-sequence offset list does not hold one offset per sequence") \
  /* Proportional RoPE (Gemma 4). */ \
  X(kProportionInvalid, proportionInvalid, "scaling.partialRotaryFactor", "proportional partial_rotary_factor not in [0, 1]") \
  /* M-RoPE position ids (mrope_positions.h); [i] is the segment the call reports (badSegment), grid its image or video. */ \
  X(kSegmentKindInvalid, segmentKindInvalid, "segments[i]", "a segment row's kind is not text, image or video") \
  X(kSegmentTextInvalid, segmentTextInvalid, "segments[i].text", "a text segment's token count is not an integer in [0, kMaxSeqLen]") \
  X(kGridTInvalid, gridTInvalid, "segments[i].grid[0]", "a grid's t is not an integer in [1, kMaxSeqLen]") \
  X(kGridHInvalid, gridHInvalid, "segments[i].grid[1]", "a grid's h is not a positive integer multiple of spatial_merge_size") \
  X(kGridWInvalid, gridWInvalid, "segments[i].grid[2]", "a grid's w is not a positive integer multiple of spatial_merge_size") \
  X(kSecondsPerGridInvalid, secondsPerGridInvalid, "segments[i].secondsPerGrid", "a video's seconds_per_grid is not finite or is negative") \
  X(kSpatialMergeSizeInvalid, spatialMergeSizeInvalid, "spatialMergeSize", "spatial_merge_size below 1 or above kMaxDim") \
  X(kMropeModelInvalid, mropeModelInvalid, "model", "unknown M-RoPE model") \
  X(kMropeTokensTooMany, mropeTokensTooMany, "segments[i]", "the segments up to this one hold more than kMaxSeqLen tokens") \
  X(kMropePositionTooLarge, mropePositionTooLarge, "segments[i]", "an id of this segment would exceed kMaxPosition") \
  X(kSegmentsLength, segmentsLength, "segments", "the segment table does not hold kMropeSegmentFields numbers per segment") \
  /* ALiBi (alibi.h); query/key lengths shared with T5 buckets. */ \
  X(kQueryLenTooLarge, queryLenTooLarge, "queryLen", "query_len above kMaxSeqLen") \
  X(kKeyLenTooLarge, keyLenTooLarge, "keyLen", "key_len above kMaxSeqLen") \
  X(kMaxBiasInvalid, maxBiasInvalid, "maxBias", "max_bias not finite or <= 0") \
  X(kAlibiOffsetInvalid, alibiOffsetInvalid, "offset", "ALiBi offset not an integer in [-kMaxPosition, kMaxPosition]") \
  /* T5 relative position buckets (relative_position_buckets.h). */ \
  X(kNumBucketsTooSmall, numBucketsTooSmall, "numBuckets", "num_buckets below 2 (below 4 when bidirectional, which halves it)") \
  X(kNumBucketsTooLarge, numBucketsTooLarge, "numBuckets", "num_buckets above kMaxDim") \
  X(kMaxDistanceTooSmall, maxDistanceTooSmall, "maxDistance", "max_distance not above max_exact (a quarter of num_buckets when bidirectional, a half otherwise)") \
  /* xPos (xpos.h). */ \
  X(kXposScaleBaseInvalid, xposScaleBaseInvalid, "xpos.scaleBase", "xpos scale_base not finite or <= 0") \
  X(kXposGammaInvalid, xposGammaInvalid, "xpos.gamma", "xpos gamma not finite or <= 0") \
  X(kXposRoleInvalid, xposRoleInvalid, "xpos.role", "unknown xpos role") \
  X(kXposRoleMissing, xposRoleMissing, "xpos.role", "rope (one tensor) with xpos needs the role: query or key") \
  X(kXposRoleNotTaken, xposRoleNotTaken, "xpos.role", "a role where none is taken: rope_qk implies them (queries up, keys down); no role without xpos") \
  X(kXposCenterInvalid, xposCenterInvalid, "xpos.center", "xpos center not an integer in [0, kMaxPosition]") \
  X(kXposDistanceTooLarge, xposDistanceTooLarge, "positions", "a position farther from the xpos center than xpos_max_distance(): its scale would leave float32's normal range") \
  /* Multi-axis RoPE: M-RoPE's sections (RopeSpec::mrope), 2-D image RoPE (rope_grid.h). */ \
  X(kMropeSectionInvalid, mropeSectionInvalid, "mrope.section", "the sections do not sum to rotary_dim/2, or (interleaved) an h or w pair falls beyond it") \
  X(kGridTooLarge, gridTooLarge, "rows", "rows * cols above kMaxSeqLen") \
  X(kGridVariantInvalid, gridVariantInvalid, "variant", "unknown 2-D RoPE variant") \
  X(kGridHeadDimInvalid, gridHeadDimInvalid, "headDim", "axial needs head_dim a multiple of 4; pixtral an even head_dim >= 4") \
  X(kGridFramesTooLarge, gridFramesTooLarge, "frames", "frames * rows * cols above kMaxSeqLen") \
  /* M-RoPE with xPos: no model uses both. */ \
  X(kMropeWithXpos, mropeWithXpos, "mrope", "M-RoPE and xPos together (no model rotates by both)") \
  /* Attention scores (attention_scores.h). */ \
  X(kEncodingInvalid, encodingInvalid, "encoding", "unknown positional encoding of attention scores") \
  X(kScaleInvalid, scaleInvalid, "scale", "the score scale is not finite") \
  X(kHeadDimOdd, headDimOdd, "headDim", "the sinusoidal encoding needs an even head_dim (sin/cos pairs)") \
  X(kEncodedOffsetNegative, encodedOffsetNegative, "offset", "sinusoidal and rope encode query row i at offset + i, which must be >= 0") \
  X(kBiasMissing, biasMissing, "bias", "the t5 encoding needs its learned bias table") \
  X(kBiasUnused, biasUnused, "bias", "a bias table is given for an encoding other than t5") \
  X(kBiasLength, biasLength, "bias", "bias does not hold num_buckets * num_heads values") \
  /* Half-precision storage (half.h). */ \
  X(kDtypeInvalid, dtypeInvalid, "dtype", "unknown dtype value") \
  X(kDtypeMismatch, dtypeMismatch, "dtype", "the arrays' element type is not the spec's dtype (float for float32, 16-bit patterns for float16 and bfloat16)")

// clang-format on

enum class Status : int {
#define POSENC_STATUS_ENUM(code, js_name, parameter, meaning) code,
  POSENC_STATUS_LIST(POSENC_STATUS_ENUM)
#undef POSENC_STATUS_ENUM
};

const char* status_name(Status status);

}  // namespace posenc
