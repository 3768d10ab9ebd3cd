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
  kBaseInvalid,            // base must be finite and > 0
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
};

const char* status_name(Status status);

}  // namespace posenc
