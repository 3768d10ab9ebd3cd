// element_count (overflow-checked size products, saturating at kMaxElements + 1) and fits.
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <limits>

#include "posenc/size_limits.h"

namespace {

constexpr std::uint64_t kSaturated = posenc::kMaxElements + 1;
constexpr std::uint64_t kHuge = std::numeric_limits<std::uint64_t>::max();

}  // namespace

TEST_CASE("the documented limits", "[size_limits]") {
  CHECK(posenc::kMaxSeqLen == (1u << 24));
  CHECK(posenc::kMaxDim == (1u << 16));
  CHECK(posenc::kMaxElements == (1ull << 28));
  CHECK(posenc::kMaxPosition == std::numeric_limits<std::int32_t>::max());
}

TEST_CASE("element_count multiplies exactly up to kMaxElements", "[size_limits]") {
  CHECK(posenc::element_count(1, 1) == 1);
  CHECK(posenc::element_count(3, 5, 7) == 105);
  CHECK(posenc::element_count(2, 3, 5, 7) == 210);
  CHECK(posenc::element_count(1u << 14, 1u << 14) == posenc::kMaxElements);
  CHECK(posenc::element_count(1u << 23, 32) == posenc::kMaxElements);
  CHECK(posenc::element_count(1, 1, 1, posenc::kMaxElements) == posenc::kMaxElements);
  CHECK(posenc::element_count(posenc::kMaxElements, 1, 1, 1) == posenc::kMaxElements);
}

TEST_CASE("element_count saturates at kMaxElements + 1 instead of wrapping around", "[size_limits]") {
  CHECK(posenc::element_count(posenc::kMaxElements, 2) == kSaturated);
  CHECK(posenc::element_count(posenc::kMaxElements + 1, 1) == kSaturated);
  CHECK(posenc::element_count(1u << 14, 1u << 14, 2) == kSaturated);
  // 2^24 * 2^16 = 2^40 wraps a 32-bit product; 2^32 * 2^32 wraps a 64-bit one to 0.
  CHECK(posenc::element_count(1u << 24, 1u << 16) == kSaturated);
  CHECK(posenc::element_count(1ull << 32, 1ull << 32) == kSaturated);
  CHECK(posenc::element_count(1ull << 32, 1ull << 32, 1ull << 32, 1ull << 32) == kSaturated);
  CHECK(posenc::element_count(kHuge, kHuge, kHuge, kHuge) == kSaturated);
  CHECK(posenc::element_count(kHuge, 1) == kSaturated);
  CHECK(posenc::element_count(1u << 24, 1u << 16, 1u << 16) == kSaturated);
  // Saturation in the last factor, after a large partial product.
  CHECK(posenc::element_count(1u << 14, 1u << 13, 1, 3) == kSaturated);
}

TEST_CASE("element_count of anything with a zero factor is 0", "[size_limits]") {
  CHECK(posenc::element_count(0, 5) == 0);
  CHECK(posenc::element_count(kHuge, 0) == 0);
  CHECK(posenc::element_count(kHuge, kHuge, 0) == 0);
  CHECK(posenc::element_count(kHuge, kHuge, kHuge, 0) == 0);
}

TEST_CASE("fits accepts exactly kMaxElements", "[size_limits]") {
  CHECK(posenc::fits(0));
  CHECK(posenc::fits(posenc::kMaxElements));
  CHECK_FALSE(posenc::fits(posenc::kMaxElements + 1));
  CHECK_FALSE(posenc::fits(kHuge));
}
