// The arguments of each operation as the JS layer hands them over, its operands: float64 slots in
// WASM memory, written once per call after the JS layer has snapshotted and type-checked the
// caller's options. A slot holds a number, an enum value, a boolean (0/1) or an address; every
// array comes with its length in elements, so the length rules are checked here, in the same
// call that computes. Output slots (expectedLength, plan, resolvedRotaryDim,
// appliedAttentionFactor) are written back.
//
// Each operation's operands are listed once: the C++ struct and the slot names the JS layer reads at load time
// (describe.cpp) are generated from the same list. Slot names are the JS API's own words.
#pragma once

// (The slot lists are kept as written.)
// clang-format off
// Rows at offset, offset + 1, ... or at an explicit list of int32 positions.
#define POSENC_OPERANDS_POSITIONS(X) X(offset) X(positions) X(positionsLength)
// One offset per sequence of a batch (an int32 list), instead of a shared offset.
#define POSENC_OPERANDS_OFFSETS(X) X(offsets) X(offsetsLength)

// A RopeScaling config; the longrope factor lists are float64 arrays. Bit i of scalingGiven says
// the i-th slot of this list was given; a value not given keeps RopeScaling's default (the
// defaults live in the core only). scalingPartialRotaryFactor is the key partialRotaryFactor of
// proportional scaling (its slot name apart from the rope spec's own partialRotaryFactor).
#define POSENC_OPERANDS_SCALING(X)                                                                            \
  X(scalingType) X(scalingGiven) X(factor) X(originalMaxPositionEmbeddings) X(maxPositionEmbeddings)     \
  X(attentionFactor) X(betaFast) X(betaSlow) X(mscale) X(mscaleAllDim) X(truncate) X(lowFreqFactor)      \
  X(highFreqFactor) X(shortFactor) X(shortFactorLength) X(longFactor) X(longFactorLength)                \
  X(scalingPartialRotaryFactor)

// An XposSpec: xpos is the 0/1 flag, xposRole an enum (0: not given), xposCenter read when
// xposHasCenter is 1.
#define POSENC_OPERANDS_XPOS(X) X(xpos) X(xposScaleBase) X(xposGamma) X(xposRole) X(xposHasCenter) X(xposCenter)
// M-RoPE's sections (mrope: 0 or 1; a listed position then holds 3 rows per sequence).
#define POSENC_OPERANDS_MROPE(X) X(mrope) X(mropeSectionT) X(mropeSectionH) X(mropeSectionW) X(mropeInterleaved)

// A RopeSpec.
#define POSENC_OPERANDS_ROPE_SPEC(X)                                                                     \
  X(seqLen) X(numHeads) X(headDim) X(rotaryDim) X(hasPartialRotaryFactor) X(partialRotaryFactor) X(base) \
  X(layout) X(batch) X(order) X(inverse) X(dtype) POSENC_OPERANDS_SCALING(X) POSENC_OPERANDS_XPOS(X) POSENC_OPERANDS_MROPE(X)

// Queries and keys of one rope_qk call, with their outputs.
#define POSENC_OPERANDS_QK(X) X(q) X(qLength) X(outQ) X(outQLength) X(k) X(kLength) X(outK) X(outKLength)

// X(operation, its slots). An output array whose length slot is -1 is allocated by the call
// and handed to the JS layer, which copies it out and frees it. Every operation's operands end with
// expectedLength: on a length error, the length the shape wants (on an xPos distance error,
// the largest distance from the center allowed). ropePlanApply with a carry rotates a piece of
// pieceRows rows of one long sequence (RopePlan::apply_piece), whose largest position + 1 is
// sequenceLength; its xposRole is the apply's. sinusoidal, addSinusoidal and ropeCache (batch 1)
// with a carry write a piece of the rows of a longer table (table_pieces.h); ropeCache's
// sequenceLength is then its call's largest position + 1 (0: the piece's own).
// mropePositions' segments are a float64 table of kMropeSegmentFields numbers per segment
// (mrope_positions.h: kind, t or tokens, h, w, secondsPerGrid or NaN); out receives the int32
// [3, seqLen] ids, nextPosition the next id, badSegment the segment an error names.
// attentionScores' layout is the encoding's (sinusoidal or rope layout enum); bias is T5's table.
#define POSENC_OPERANDS(X)                                                                                         \
  X(sinusoidal, X_(seqLen) X_(dModel) X_(base) X_(layout) X_(dtype) POSENC_OPERANDS_POSITIONS(X_) X_(out) X_(outLength)        \
                    X_(carry) X_(carryLength) X_(expectedLength))                                                                          \
  X(addSinusoidal, X_(seqLen) X_(dModel) X_(base) X_(layout) X_(dtype) POSENC_OPERANDS_POSITIONS(X_) X_(x) X_(xLength)         \
                       X_(carry) X_(carryLength) X_(expectedLength))                                                                       \
  X(positionNumbers, X_(seqLen) X_(dModel) X_(offset) X_(dtype) X_(out) X_(outLength) X_(expectedLength))                  \
  X(ropeSchedule, X_(rotaryDim) X_(headDim) X_(hasPartialRotaryFactor) X_(partialRotaryFactor) X_(base)           \
                      POSENC_OPERANDS_SCALING(X_) X_(seqLen) X_(invFreq) X_(invFreqLength) X_(resolvedRotaryDim)                      \
                          X_(appliedAttentionFactor) X_(expectedLength))                                                            \
  X(ropeCache, X_(seqLen) X_(rotaryDim) X_(base) X_(batch) X_(dtype) X_(sequenceLength) POSENC_OPERANDS_POSITIONS(X_) POSENC_OPERANDS_OFFSETS(X_)   \
                   POSENC_OPERANDS_SCALING(X_) X_(outCos) X_(outCosLength) X_(outSin) X_(outSinLength)              \
                       X_(appliedAttentionFactor) X_(carry) X_(carryLength) X_(expectedLength))                                            \
  X(rope, POSENC_OPERANDS_ROPE_SPEC(X_) POSENC_OPERANDS_POSITIONS(X_) POSENC_OPERANDS_OFFSETS(X_) X_(x) X_(xLength)        \
              X_(out) X_(outLength) X_(expectedLength))                                                          \
  X(ropeQK, POSENC_OPERANDS_ROPE_SPEC(X_) X_(numKvHeads) POSENC_OPERANDS_POSITIONS(X_) POSENC_OPERANDS_OFFSETS(X_)        \
                POSENC_OPERANDS_QK(X_) X_(expectedLength))                                                          \
  X(ropePlanCreate, POSENC_OPERANDS_ROPE_SPEC(X_) X_(numKvHeads) X_(plan) X_(resolvedRotaryDim)                     \
                        X_(appliedAttentionFactor) X_(carryLength) X_(expectedLength))                                                              \
  X(ropePlanApply, X_(plan) POSENC_OPERANDS_POSITIONS(X_) POSENC_OPERANDS_OFFSETS(X_) X_(x) X_(xLength) X_(out)        \
                       X_(outLength) X_(xposRole) X_(pieceRows) X_(sequenceLength) X_(carry) X_(carryLength)   \
                           X_(expectedLength))                                                         \
  X(ropePlanApplyQK, X_(plan) POSENC_OPERANDS_POSITIONS(X_) POSENC_OPERANDS_OFFSETS(X_) POSENC_OPERANDS_QK(X_)            \
                         X_(expectedLength))                                                                     \
  X(convertLayout, X_(from) X_(to) X_(headDim) X_(rotaryDim) X_(weights) X_(numHeads) X_(hidden) X_(x)           \
                       X_(xLength) X_(out) X_(outLength) X_(expectedLength))                                     \
  X(similarity, X_(rows) X_(cols) X_(dim) X_(metric) X_(a) X_(aLength) X_(b) X_(bLength) X_(out) X_(outLength)   \
                    X_(expectedLength))                                                                          \
  X(mropePositions, X_(segments) X_(segmentsLength) X_(spatialMergeSize) X_(model) X_(tokensPerSecond) X_(out)   \
                        X_(outLength) X_(nextPosition) X_(badSegment) X_(expectedLength))     \
  X(alibiSlopes, X_(numHeads) X_(maxBias) X_(slopes) X_(slopesLength) X_(expectedLength))                        \
  X(alibiBias, X_(numHeads) X_(queryLen) X_(keyLen) X_(offset) X_(maxBias) X_(out) X_(outLength)                  \
                   X_(expectedLength)) \
  X(relativePositionBuckets, X_(queryLen) X_(keyLen) X_(numBuckets) X_(maxDistance) X_(bidirectional) X_(offset) \
                                 X_(out) X_(outLength) X_(expectedLength)) \
  X(ropeGrid, X_(rows) X_(cols) X_(numHeads) X_(headDim) X_(base) X_(variant) X_(layout) X_(order) X_(batch)     \
                  X_(frames) X_(x) X_(xLength) X_(out) X_(outLength) X_(expectedLength)) \
  X(attentionScores, X_(numHeads) X_(queryLen) X_(keyLen) X_(headDim) X_(encoding) X_(order) X_(offset) X_(scale)  \
                         X_(causal) X_(softmax) X_(base) X_(layout) X_(rotaryDim) X_(hasPartialRotaryFactor)     \
                             X_(partialRotaryFactor) POSENC_OPERANDS_SCALING(X_) POSENC_OPERANDS_XPOS(X_) X_(maxBias) X_(bias) X_(biasLength) \
                                 X_(numBuckets) X_(maxDistance) X_(bidirectional) X_(q) X_(qLength) X_(k)        \
                                     X_(kLength) X_(out) X_(outLength) X_(expectedLength))

// clang-format on

// operands::rope are the operands of the JS layer's rope call, and so on.
namespace posenc::bindings::operands {

#define POSENC_OPERANDS_SLOT(name) double name;
#define POSENC_OPERANDS_STRUCT(operation, slots) \
  struct operation {                             \
    slots                                        \
  };
#define X_ POSENC_OPERANDS_SLOT
POSENC_OPERANDS(POSENC_OPERANDS_STRUCT)
#undef X_
#undef POSENC_OPERANDS_STRUCT
#undef POSENC_OPERANDS_SLOT

}  // namespace posenc::bindings::operands
