// Where the table kernels write rows (kernels/phase_rows.h).
#pragma once

#include <cstddef>

namespace posenc::kernels {

// Where rows go: row r's sin of pair i is at sin[r * row_stride + i * pair_stride], likewise
// cos; interleaved tables use sin = row start, cos = row start + 1 and pair_stride 2. T is the
// table's element type (float, or the 16-bit patterns of a half-precision table).
template <class T>
struct RowsOutOf {
  T* sin;
  T* cos;
  std::size_t row_stride;
  bool interleaved;  // pair_stride 2 (sin/cos alternate), else 1 (separate halves or arrays)
};
using RowsOut = RowsOutOf<float>;

}  // namespace posenc::kernels
