// Positions: offset, offset + 1, ... or an explicit int32 list, and their range check.
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <limits>
#include <vector>

#include "posenc/positions.h"
#include "test_support.h"

using test_support::from_offset;
using test_support::listed;

TEST_CASE("Positions::at gives offset + row, or the listed position", "[positions]") {
  const posenc::Positions shifted = from_offset(4000000000u);
  CHECK(shifted.at(0) == 4000000000LL);  // no uint32 wrap-around before the check
  CHECK(shifted.at(300000000) == 4300000000LL);
  const std::vector<std::int32_t> list = {7, 0, std::numeric_limits<std::int32_t>::max(), 7};
  const posenc::Positions explicit_positions = listed(list);
  CHECK(explicit_positions.at(0) == 7);
  CHECK(explicit_positions.at(1) == 0);
  CHECK(explicit_positions.at(2) == 2147483647);
  CHECK(explicit_positions.at(3) == 7);
}

TEST_CASE("Positions::check: the last row's position must not pass kMaxPosition", "[positions]") {
  const std::uint32_t max_position = static_cast<std::uint32_t>(posenc::kMaxPosition);
  CHECK(from_offset(max_position).check(1) == posenc::Status::kOk);
  CHECK(from_offset(max_position).check(2) == posenc::Status::kOffsetTooLarge);
  CHECK(from_offset(max_position - 9).check(10) == posenc::Status::kOk);
  CHECK(from_offset(max_position - 9).check(11) == posenc::Status::kOffsetTooLarge);
  CHECK(from_offset(max_position + 1).check(1) == posenc::Status::kOffsetTooLarge);
  CHECK(from_offset(0xffffffffu).check(1) == posenc::Status::kOffsetTooLarge);
  CHECK(from_offset(0).check(posenc::kMaxSeqLen) == posenc::Status::kOk);
  // No rows, no positions: any offset is fine.
  CHECK(from_offset(0xffffffffu).check(0) == posenc::Status::kOk);
}

TEST_CASE("Positions::check rejects negative listed positions", "[positions]") {
  std::vector<std::int32_t> list = {0, 1, std::numeric_limits<std::int32_t>::max(), 5};
  CHECK(listed(list).check(4) == posenc::Status::kOk);
  list.back() = -1;
  CHECK(listed(list).check(4) == posenc::Status::kPositionOutOfRange);
  CHECK(listed(list).check(3) == posenc::Status::kOk);  // only the first seq_len entries count
  list.front() = std::numeric_limits<std::int32_t>::min();
  CHECK(listed(list).check(1) == posenc::Status::kPositionOutOfRange);
}
