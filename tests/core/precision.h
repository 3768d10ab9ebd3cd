// The precision contract's bounds, from tests/precision.json (the one place they are written;
// CMake reads them into POSENC_TABLE_BOUND and POSENC_ROPE_BOUND).
#pragma once

namespace test_support {

// |value - float64 value| of every table and cos/sin cache value (positions < 2^24, d <= 8192).
inline constexpr double kTableBound = POSENC_TABLE_BOUND;
// |component - float64 component| / (|x_a| + |x_b|) of every rotated RoPE component.
inline constexpr double kRopeBound = POSENC_ROPE_BOUND;

}  // namespace test_support
