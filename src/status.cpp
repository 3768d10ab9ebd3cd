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
    case Status::kBaseInvalid: return "base not finite and positive";
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
  }
  return "unknown status";
}

}  // namespace posenc
