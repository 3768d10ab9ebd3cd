// Where the rows of a batch of sequences sit: one explicit position per row of the whole batch
// (KV-cache decoding, where each sequence is at its own place), one offset per sequence, or
// one offset shared by every sequence. A plain Positions converts implicitly: batch 1, or
// every sequence at the same offset.
#pragma once

#include <cstddef>
#include <cstdint>

#include "positions.h"
#include "size_limits.h"
#include "status.h"

namespace posenc {

struct BatchPositions {
  Positions rows;                         // list: batch * seq_len entries, row-major [batch, seq_len]
  const std::int32_t* offsets = nullptr;  // else, when set: sequence b starts at offsets[b]

  BatchPositions(const Positions& rows) : rows(rows) {}  // NOLINT(google-explicit-constructor)
  BatchPositions(const Positions& rows, const std::int32_t* offsets) : rows(rows), offsets(offsets) {}

  // The positions of sequence b's seq_len rows.
  Positions sequence(std::size_t b, std::size_t seq_len) const {
    if (rows.list != nullptr) return Positions{rows.list + b * seq_len, 0};
    if (offsets != nullptr) return Positions{nullptr, static_cast<std::uint32_t>(offsets[b])};
    return rows;
  }

  // Every position lies in [0, kMaxPosition]; batch * seq_len must already be checked.
  Status check(std::uint32_t batch, std::uint32_t seq_len) const {
    if (rows.list != nullptr || offsets == nullptr) {
      return rows.check(rows.list != nullptr ? batch * seq_len : seq_len);
    }
    for (std::uint32_t b = 0; b < batch; ++b) {
      if (offsets[b] < 0) return Status::kOffsetNegative;
      if (seq_len > 0 && static_cast<std::int64_t>(offsets[b]) + seq_len - 1 > kMaxPosition)
        return Status::kOffsetTooLarge;
    }
    return Status::kOk;
  }

  // The current sequence length of long-context scaling: the largest position + 1 (Hugging
  // Face's max(position_ids) + 1), 0 without rows.
  std::uint64_t length(std::uint32_t batch, std::uint32_t seq_len) const {
    if (batch == 0 || seq_len == 0) return 0;
    std::int64_t largest = 0;
    if (rows.list != nullptr) {
      for (std::size_t i = 0; i < std::size_t{batch} * seq_len; ++i)
        largest = rows.list[i] > largest ? rows.list[i] : largest;
    } else if (offsets != nullptr) {
      for (std::uint32_t b = 0; b < batch; ++b) largest = offsets[b] > largest ? offsets[b] : largest;
      largest += seq_len - 1;
    } else {
      largest = static_cast<std::int64_t>(rows.offset) + seq_len - 1;
    }
    return static_cast<std::uint64_t>(largest) + 1;
  }
};

}  // namespace posenc
