// Documented size limits and overflow-checked size arithmetic. Every array size the core
// touches is computed here, so no product of user-given sizes can wrap around.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>

namespace posenc {

inline constexpr std::uint32_t kMaxSeqLen = 1u << 24;      // rows of any table or batch
inline constexpr std::uint32_t kMaxDim = 1u << 16;         // d_model, head_dim, heads, dim
inline constexpr std::uint64_t kMaxElements = 1ull << 28;  // 1 GiB of float32 per array
inline constexpr std::int64_t kMaxPosition = 2147483647;   // positions are int32

// The product of the factors as an element count, saturated at kMaxElements + 1 so that no
// product of user-given sizes can wrap around. Any zero factor gives 0.
inline std::uint64_t element_count(std::uint64_t a, std::uint64_t b, std::uint64_t c = 1, std::uint64_t d = 1) {
  if (a == 0 || b == 0 || c == 0 || d == 0) return 0;
  std::uint64_t n = 1;
  for (const std::uint64_t factor : {a, b, c, d}) {
    if (n > kMaxElements / factor) return kMaxElements + 1;
    n *= factor;
  }
  return n;
}

inline bool fits(std::uint64_t elements) { return elements <= kMaxElements; }

}  // namespace posenc
