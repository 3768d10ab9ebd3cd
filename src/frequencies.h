// The frequency schedule shared by the sinusoidal table and RoPE: pair i of a dim-wide vector
// turns at inv_freq_i = 1 / base^(2i / dim) radians per position, so pair 0 oscillates fastest
// (wavelength 2*pi) and the last pair slowest (wavelength close to 2*pi*base).
#pragma once

#include <cmath>
#include <cstdint>

namespace posenc {

// Float64, the same expression as Hugging Face's `1.0 / (base ** (arange(0, dim, 2) / dim))`.
inline double inverse_frequency(std::uint32_t pair, std::uint32_t dim, double base) {
  const double exponent = static_cast<double>(2 * static_cast<std::uint64_t>(pair)) /
                          static_cast<double>(dim);
  return 1.0 / std::pow(base, exponent);
}

}  // namespace posenc
