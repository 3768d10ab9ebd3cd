// The frequency schedule shared by the sinusoidal table and RoPE: pair i of a dim-wide vector
// turns at inv_freq_i = 1 / base^(2i / dim) radians per position, so pair 0 oscillates fastest
// (wavelength 2*pi) and the last pair slowest (wavelength close to 2*pi*base).
#pragma once

#include <cmath>
#include <cstdint>

#include "posenc/size_limits.h"

namespace posenc {

// Float64, the same expression as Hugging Face's `1.0 / (base ** (arange(0, dim, 2) / dim))`.
inline double inverse_frequency(std::uint32_t pair, std::uint32_t dim, double base) {
  const double exponent = static_cast<double>(2 * static_cast<std::uint64_t>(pair)) / static_cast<double>(dim);
  return 1.0 / std::pow(base, exponent);
}

// A usable base: finite and > 0, and not so small that some inv_freq_i (for bases below 1 the
// last pair's is the largest) overflows or makes kMaxPosition * inv_freq_i infinite: every
// angle the core can compute stays finite.
inline bool base_is_usable(std::uint32_t dim, double base) {
  if (!std::isfinite(base) || !(base > 0.0)) return false;
  if (base >= 1.0 || dim < 2) return true;
  const double largest = inverse_frequency(dim / 2 - 1, dim, base);
  return std::isfinite(largest * static_cast<double>(kMaxPosition));
}

}  // namespace posenc
