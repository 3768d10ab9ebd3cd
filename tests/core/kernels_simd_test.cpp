// The compile-time choice of kernel version (kernels/simd.h): the names the core calls run the
// xsimd version for xsimd::default_arch in SIMD builds (this suite's build), with the scalar
// loop's parameters.
#include <catch2/catch_test_macros.hpp>

#include <cstddef>
#include <type_traits>

#include "kernels/dispatch.h"

namespace {

using posenc::kernels::Kernel;
using posenc::kernels::RowsOut;

// Reports which version ran and what it was given.
struct Probe {
  static std::size_t scalar(std::size_t begin, const RowsOut& out, std::size_t n) { return begin + out.row_stride + n; }
  template <class Arch>
  static std::size_t simd(const RowsOut& out, std::size_t n) {
    return std::is_same_v<Arch, xsimd::default_arch> ? 1000 + out.row_stride + n : 0;
  }
};

}  // namespace

TEST_CASE("a Kernel object runs the xsimd version for the build's architecture", "[kernels]") {
  constexpr Kernel<Probe> probe{};
  float row[2];
  // A braced RowsOut converts, as for a plain function (phases.cpp passes one).
  CHECK(probe({row, row + 1, 7, true}, 3) == 1010);
}
