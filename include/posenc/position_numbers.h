// The naive encoding tutorials start from: add the position number itself to every channel.
// It grows without bound with position, which is why sinusoidal encodings replaced it; the
// tutorial plots it against the others.
#pragma once

#include <cstdint>

#include "half.h"
#include "status.h"

namespace posenc {

struct PositionNumbersSpec {
  std::uint32_t seq_len = 0;
  std::uint32_t d_model = 0;  // any width >= 1: there are no pairs here
  std::uint32_t offset = 0;
  Dtype dtype = Dtype::kFloat32;  // the arrays' storage: float32, or 16-bit float16/bfloat16 patterns
};

Status check(const PositionNumbersSpec& spec);

// out: [seq_len, d_model], row p filled with offset + p (exact below 2^24).
Status position_numbers(const PositionNumbersSpec& spec, float* out);
// Half precision: offset + p rounded once to the storage type (float16: exact to 2048, then
// every 2nd, 4th, ... integer; Inf from 65520 on).
Status position_numbers(const PositionNumbersSpec& spec, std::uint16_t* out);

}  // namespace posenc
