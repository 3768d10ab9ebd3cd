// Where the rows of a table or sequence sit: either offset, offset + 1, ... or an explicit
// list of int32 positions (one per row), as passed by KV-cache decoders.
#pragma once

#include <cstddef>
#include <cstdint>

#include "size_limits.h"
#include "status.h"

namespace posenc {

struct Positions {
  const std::int32_t* list = nullptr;  // seq_len entries when set; offset is then unused
  std::uint32_t offset = 0;

  std::int64_t at(std::size_t row) const {
    return list != nullptr ? static_cast<std::int64_t>(list[row])
                           : static_cast<std::int64_t>(offset) + static_cast<std::int64_t>(row);
  }

  // Every position of rows [0, seq_len) lies in [0, kMaxPosition].
  Status check(std::uint32_t seq_len) const {
    if (list == nullptr) {
      if (seq_len > 0 && static_cast<std::int64_t>(offset) + seq_len - 1 > kMaxPosition) return Status::kOffsetTooLarge;
      return Status::kOk;
    }
    for (std::size_t row = 0; row < seq_len; ++row)
      if (list[row] < 0) return Status::kPositionOutOfRange;
    return Status::kOk;
  }
};

}  // namespace posenc
