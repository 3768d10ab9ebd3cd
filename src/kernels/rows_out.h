// Where the table kernels write rows (kernels/phase_rows.h).
#pragma once

#include <cstddef>

namespace posenc::kernels {

// Where rows go: row r's sin of pair i is at sin[r * row_stride + i * pair_stride], likewise
// cos; interleaved tables use sin = row start, cos = row start + 1 and pair_stride 2.
struct RowsOut {
  float* sin;
  float* cos;
  std::size_t row_stride;
  bool interleaved;  // pair_stride 2 (sin/cos alternate), else 1 (separate halves or arrays)
};

}  // namespace posenc::kernels
