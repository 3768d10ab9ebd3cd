// An independent reference for the core, written from the formulas (the tutorial posts, the
// "Attention Is All You Need" table, RoFormer's rotation), in long double (x87 80-bit on
// x86-64: 64-bit mantissa) so that its own error is far below float32 rounding. It shares no
// code with src/: the tests compare the core against it, never the core against itself.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace reference {

using Real = long double;

enum class TableLayout { kInterleaved, kConcat };  // sin at 2i, cos at 2i+1 | [sin... | cos...]
enum class Pairing { kInterleaved, kHalf };        // (x[2i], x[2i+1]) | (x[i], x[i + rd/2])

// Pair i of a dim-wide schedule turns at base^(-2i/dim) radians per position.
inline Real inverse_frequency(std::size_t pair, std::size_t dim, Real base) {
  return std::pow(base, -static_cast<Real>(2 * pair) / static_cast<Real>(dim));
}

inline Real angle(std::int64_t position, std::size_t pair, std::size_t dim, Real base) {
  return static_cast<Real>(position) * inverse_frequency(pair, dim, base);
}

// The dim/2 inverse frequencies, computed once per table (pow is the reference's slow part).
inline std::vector<Real> inverse_frequencies(std::size_t dim, Real base) {
  std::vector<Real> inv(dim / 2);
  for (std::size_t i = 0; i < inv.size(); ++i) inv[i] = inverse_frequency(i, dim, base);
  return inv;
}

inline void sin_cos(Real theta, Real* s, Real* c) {
#ifdef __GLIBC__
  ::sincosl(theta, s, c);  // one range reduction for both
#else
  *s = std::sin(theta);
  *c = std::cos(theta);
#endif
}

// xPos's scale of pair i: zeta_i^exponent, zeta_i = (2i / rotary_dim + gamma) / (1 + gamma)
// = 1 - (1 - 2i / rotary_dim) / (1 + gamma). Near 1 (a large gamma) its logarithm comes from
// log1p of the small part, which zeta_i rounded would lose; else from zeta_i itself, which
// a small gamma keeps. Exponent 0 is 1 even where zeta_i underflows.
inline Real xpos_scale(std::size_t pair, std::size_t rotary_dim, Real gamma, Real exponent) {
  if (exponent == 0) return 1;
  const Real d = static_cast<Real>(rotary_dim), i2 = static_cast<Real>(2 * pair);
  const Real below_one = (d - i2) / (d * (1 + gamma));
  const Real ln_zeta = below_one <= 0.5L ? std::log1p(-below_one) : std::log((i2 / d + gamma) / (1 + gamma));
  return std::exp(exponent * ln_zeta);
}

// offset, offset + 1, ...: the positions of rows without an explicit list.
inline std::vector<std::int64_t> consecutive(std::int64_t offset, std::size_t count) {
  std::vector<std::int64_t> positions(count);
  for (std::size_t row = 0; row < count; ++row) positions[row] = offset + static_cast<std::int64_t>(row);
  return positions;
}

// cos and sin of every (position, pair), [positions.size(), dim/2] each: the RoPE cache, and
// the sinusoidal table before its channels are laid out.
struct Phases {
  std::vector<Real> cos, sin;
};

inline Phases phases(const std::vector<std::int64_t>& positions, std::size_t dim, Real base) {
  const std::vector<Real> inv = inverse_frequencies(dim, base);
  const std::size_t half = inv.size();
  Phases out{std::vector<Real>(positions.size() * half), std::vector<Real>(positions.size() * half)};
  for (std::size_t row = 0; row < positions.size(); ++row)
    for (std::size_t i = 0; i < half; ++i)
      sin_cos(static_cast<Real>(positions[row]) * inv[i], &out.sin[row * half + i], &out.cos[row * half + i]);
  return out;
}

// The [rows, d_model] sinusoidal table laid out from its phases (d_model = 2 * pairs).
inline std::vector<Real> sinusoidal(const Phases& phases, std::size_t d_model, TableLayout layout) {
  const std::size_t half = d_model / 2, rows = phases.sin.size() / half;
  std::vector<Real> table(rows * d_model);
  for (std::size_t row = 0; row < rows; ++row) {
    Real* out = table.data() + row * d_model;
    for (std::size_t i = 0; i < half; ++i) {
      const std::size_t sin_channel = layout == TableLayout::kInterleaved ? 2 * i : i;
      const std::size_t cos_channel = layout == TableLayout::kInterleaved ? 2 * i + 1 : half + i;
      out[sin_channel] = phases.sin[row * half + i];
      out[cos_channel] = phases.cos[row * half + i];
    }
  }
  return table;
}

inline std::vector<Real> sinusoidal(const std::vector<std::int64_t>& positions, std::size_t d_model, Real base,
                                    TableLayout layout) {
  return sinusoidal(phases(positions, d_model, base), d_model, layout);
}

// The two channels of rotary pair i within a head (the first is rotated by +theta towards the
// second): (2i, 2i+1) interleaved, (i, i + rotary_dim/2) half.
struct PairChannels {
  std::size_t a, b;
};

inline PairChannels pair_channels(std::size_t pair, std::size_t rotary_dim, Pairing pairing) {
  if (pairing == Pairing::kInterleaved) return {2 * pair, 2 * pair + 1};
  return {pair, pair + rotary_dim / 2};
}

struct RopeShape {
  std::size_t seq_len, num_heads, head_dim, rotary_dim;
};

// x: [seq_len, num_heads, head_dim]; pair (a, b) at angle theta becomes
// (a cos - b sin, b cos + a sin); channels from rotary_dim on are copied.
inline std::vector<Real> rope(const std::vector<float>& x, const RopeShape& shape,
                              const std::vector<std::int64_t>& positions, Real base, Pairing pairing) {
  const Phases angles = phases(positions, shape.rotary_dim, base);
  const std::size_t half = shape.rotary_dim / 2;
  std::vector<Real> out(x.begin(), x.end());
  for (std::size_t row = 0; row < shape.seq_len; ++row) {
    for (std::size_t pair = 0; pair < half; ++pair) {
      const Real c = angles.cos[row * half + pair], s = angles.sin[row * half + pair];
      const PairChannels ch = pair_channels(pair, shape.rotary_dim, pairing);
      for (std::size_t head = 0; head < shape.num_heads; ++head) {
        const std::size_t at = (row * shape.num_heads + head) * shape.head_dim;
        const Real a = x[at + ch.a], b = x[at + ch.b];
        out[at + ch.a] = a * c - b * s;
        out[at + ch.b] = b * c + a * s;
      }
    }
  }
  return out;
}

template <class A, class B>
Real dot(const A* a, const B* b, std::size_t n) {
  Real sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += static_cast<Real>(a[i]) * static_cast<Real>(b[i]);
  return sum;
}

// sum |a_i b_i|: the scale of the rounding error of any float32 evaluation of dot(a, b).
template <class A, class B>
Real abs_dot(const A* a, const B* b, std::size_t n) {
  Real sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += std::fabs(static_cast<Real>(a[i]) * static_cast<Real>(b[i]));
  return sum;
}

// dot / (|a| |b|), 0 when either vector is all zeros.
template <class A, class B>
Real cosine(const A* a, const B* b, std::size_t n) {
  const Real norms = std::sqrt(dot(a, a, n)) * std::sqrt(dot(b, b, n));
  return norms > 0 ? dot(a, b, n) / norms : 0;
}

// [rows, cols] matrix of dot products (or cosines) between rows of a [rows, dim] and b [cols, dim].
inline std::vector<Real> similarity(const std::vector<float>& a, const std::vector<float>& b, std::size_t rows,
                                    std::size_t cols, std::size_t dim, bool cosine_metric) {
  std::vector<Real> out(rows * cols);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) {
      const float* a_row = a.data() + r * dim;
      const float* b_row = b.data() + c * dim;
      out[r * cols + c] = cosine_metric ? cosine(a_row, b_row, dim) : dot(a_row, b_row, dim);
    }
  return out;
}

// The naive encoding: every channel of row p holds the position number offset + p.
inline std::vector<Real> position_numbers(std::int64_t offset, std::size_t seq_len, std::size_t d_model) {
  std::vector<Real> out(seq_len * d_model);
  for (std::size_t row = 0; row < seq_len; ++row)
    for (std::size_t ch = 0; ch < d_model; ++ch)
      out[row * d_model + ch] = static_cast<Real>(offset + static_cast<std::int64_t>(row));
  return out;
}

}  // namespace reference
