// Tables of cos/sin rows (sinusoidal_table, add_sinusoidal, rope_cache of one sequence) written
// in pieces of consecutive rows, as a caller streams a large table through a small buffer. Each
// piece is a call of its own rows (their positions, or offset + the piece's first row) with a
// carry: the state of the recurrence where the last piece stopped, so a piece that starts
// inside a run of consecutive positions steps on from it instead of anchoring anew, and the
// pieces hold the bits of one call of all the rows. Zero the carry before the first piece.
#pragma once

#include <cstddef>
#include <cstdint>

namespace posenc {

// Pairs per block of the table's recurrence (PhaseBlock::kCapacity): each block keeps its state.
inline constexpr std::uint32_t kTablePairBlock = 128;

// The carry's length in doubles, for a table of `pairs` sin/cos pairs per row.
constexpr std::size_t table_carry_doubles(std::uint32_t pairs) {
  return std::size_t{(pairs + kTablePairBlock - 1) / kTablePairBlock} * (2 + 2 * std::size_t{kTablePairBlock});
}

}  // namespace posenc
