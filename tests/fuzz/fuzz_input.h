// Decodes libFuzzer's bytes into the arguments of the core's entry points: sizes, bases,
// layouts, float data and positions, each with a tag that can pick a hostile value (limits
// and limits + 1, zero, NaN, infinities, negative, huge, subnormal) so that the fuzzer
// reaches every rule of every check() in a few mutations.
//
// The byte format (mirrored by tests/fuzz/make_corpus.py, which writes the seed corpus):
//   byte   u8;  u16/u32/i32/f64 little-endian; missing bytes read as 0.
//   size   u16 v: v < 0xFF00 -> v % (small_max + 1); else k = v & 0xFF: kHostileSizes[k], or
//          (k past the table) a raw u32 that follows.
//   base   u8 t: kBases[t], or (t past the table) a raw f64 that follows.
//   enum   u8 t: t < 2 -> t; else kBadEnums[t % 5] (values no layout/metric has).
//   value  u8 t: kValues[t], or 255 -> raw f32 bits (u32), else (t - 140) / 8.
//   array  u32 seed, u8 scale tag (kScales), u8 count (% 17) of (u16 index, value) overrides;
//          the rest is splitmix64 noise uniform in [-scale, scale).
//   offset u8 t: t < kOffsetCount -> a table value near the limits for this seq_len, else u32.
//   positions  u8 mode: even -> offset; odd -> an explicit int32 list (only for seq_len up to
//          list_max_rows): u8 pattern (% 4: ascending from an offset, uniform in [0, 2^31),
//          uniform in [0, 64), descending from an offset), then u8 count (% 9) of
//          (u16 row, position) overrides, position: u8 t -> kPositions[t] or raw i32.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "posenc/positions.h"
#include "posenc/size_limits.h"

namespace fuzz {

inline constexpr std::uint32_t kHostileSizes[] = {0,
                                                  1,
                                                  2,
                                                  3,
                                                  127,
                                                  128,
                                                  129,
                                                  256,
                                                  257,
                                                  posenc::kMaxDim - 1,
                                                  posenc::kMaxDim,
                                                  posenc::kMaxDim + 1,
                                                  posenc::kMaxDim + 2,
                                                  posenc::kMaxSeqLen - 1,
                                                  posenc::kMaxSeqLen,
                                                  posenc::kMaxSeqLen + 1,
                                                  1u << 28,
                                                  (1u << 28) + 1,
                                                  46341,  // 46341^2 > 2^31
                                                  0x7fffffffu,
                                                  0x80000000u,
                                                  0xfffffffeu,
                                                  0xffffffffu};
inline constexpr std::size_t kHostileSizeCount = sizeof kHostileSizes / sizeof kHostileSizes[0];

inline constexpr double kBases[] = {10000.0,
                                    500000.0,
                                    1.0,
                                    2.0,
                                    0.5,
                                    1e-300,
                                    1e300,
                                    std::numeric_limits<double>::max(),
                                    std::numeric_limits<double>::min(),
                                    std::numeric_limits<double>::denorm_min(),
                                    0.0,
                                    -0.0,
                                    -1.0,
                                    -10000.0,
                                    std::numeric_limits<double>::quiet_NaN(),
                                    std::numeric_limits<double>::infinity(),
                                    -std::numeric_limits<double>::infinity(),
                                    1e-10,
                                    1e6,
                                    1.0000001};
inline constexpr std::size_t kBaseCount = sizeof kBases / sizeof kBases[0];

inline constexpr int kBadEnums[] = {2, -1, std::numeric_limits<int>::min(), std::numeric_limits<int>::max(), 256};

inline constexpr double kValues[] = {0.0,
                                     -0.0,
                                     1.0,
                                     -1.0,
                                     0.5,
                                     3.14159265,
                                     1e-45 /* float subnormal */,
                                     1.17549435e-38,
                                     1e30,
                                     -1e30,
                                     3.40282347e38,
                                     -3.40282347e38,
                                     std::numeric_limits<double>::quiet_NaN(),
                                     std::numeric_limits<double>::infinity(),
                                     -std::numeric_limits<double>::infinity(),
                                     1e300 /* doubles only: inf as float */,
                                     1e-310 /* double subnormal */,
                                     65504.0,
                                     1e-20,
                                     1e20};
inline constexpr std::size_t kValueCount = sizeof kValues / sizeof kValues[0];

inline constexpr double kScales[] = {1.0, 1e-3, 1e3, 1e-20, 1e20, 1e-40, 1e37, 0.0, 1e300, 4.0};
inline constexpr std::size_t kScaleCount = sizeof kScales / sizeof kScales[0];

inline constexpr std::int32_t kPositions[] = {-1,
                                              std::numeric_limits<std::int32_t>::min(),
                                              std::numeric_limits<std::int32_t>::max(),
                                              0,
                                              1 << 24,
                                              (1 << 24) - 1,
                                              (1 << 24) + 1,
                                              1 << 30,
                                              1023,
                                              1024,
                                              1025};
inline constexpr std::size_t kPositionCount = sizeof kPositions / sizeof kPositions[0];

inline constexpr std::size_t kOffsetCount = 12;

// Rounds to float; out-of-range values become infinities (a plain cast would be undefined).
inline float to_float(double v) {
  if (std::isfinite(v) && std::fabs(v) > std::numeric_limits<float>::max())
    return std::copysign(std::numeric_limits<float>::infinity(), v);
  return static_cast<float>(v);
}

template <class T>
T narrow_to(double v) {
  if constexpr (sizeof(T) == sizeof(float))
    return to_float(v);
  else
    return v;
}

// splitmix64: the noise behind arrays and position lists (cheap, seedable from 4 bytes).
class Noise {
 public:
  explicit Noise(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1p-53; }  // [0, 1)

 private:
  std::uint64_t state_;
};

// Positions decoded from the input; owns the list that Positions points to.
struct DecodedPositions {
  std::vector<std::int32_t> list;
  posenc::Positions positions;
  bool is_list = false;

  // Row p's position, as the rules see it (offset + p is computed without wrapping).
  std::int64_t at(std::size_t row) const {
    return is_list ? list[row] : static_cast<std::int64_t>(positions.offset) + static_cast<std::int64_t>(row);
  }
};

class FuzzInput {
 public:
  FuzzInput(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  std::uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  // Each part is read in its own statement: the order of operands in one expression is unspecified.
  std::uint16_t u16() {
    const unsigned lo = byte();
    return static_cast<std::uint16_t>(lo | byte() << 8);
  }
  std::uint32_t u32() {
    const std::uint32_t lo = u16();
    return lo | static_cast<std::uint32_t>(u16()) << 16;
  }
  std::int32_t i32() {
    const std::uint32_t bits = u32();
    std::int32_t v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
  double f64() {
    const std::uint64_t lo = u32();
    const std::uint64_t bits = lo | static_cast<std::uint64_t>(u32()) << 32;
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }

  std::uint32_t size(std::uint32_t small_max) {
    const std::uint16_t v = u16();
    if (v < 0xFF00) return v % (small_max + 1);
    const std::size_t k = v & 0xFF;
    return k < kHostileSizeCount ? kHostileSizes[k] : u32();
  }

  double base() {
    const std::uint8_t t = byte();
    return t < kBaseCount ? kBases[t] : f64();
  }

  int enum_value() {
    const std::uint8_t t = byte();
    return t < 2 ? t : kBadEnums[t % 5];
  }

  double value() {
    const std::uint8_t t = byte();
    if (t < kValueCount) return kValues[t];
    if (t == 255) {
      const std::uint32_t bits = u32();
      float v;
      std::memcpy(&v, &bits, sizeof v);
      return v;
    }
    return (static_cast<int>(t) - 140) / 8.0;
  }

  template <class T>
  void fill(T* v, std::size_t n) {
    Noise noise(u32());
    const double scale = kScales[byte() % kScaleCount];
    for (std::size_t i = 0; i < n; ++i) v[i] = narrow_to<T>((2.0 * noise.uniform() - 1.0) * scale);
    const int overrides = byte() % 17;
    for (int k = 0; k < overrides; ++k) {
      const std::uint16_t index = u16();
      const double x = value();
      if (n > 0) v[index % n] = narrow_to<T>(x);
    }
  }

  template <class T>
  std::vector<T> array(std::size_t n) {
    std::vector<T> v(n);
    fill(v.data(), n);
    return v;
  }

  // Offsets around the largest valid one for seq_len rows (kMaxPosition - seq_len + 1).
  std::uint32_t offset(std::uint32_t seq_len) {
    const std::uint8_t t = byte();
    const std::uint32_t last_valid = static_cast<std::uint32_t>(posenc::kMaxPosition) - (seq_len > 0 ? seq_len - 1 : 0);
    const std::uint32_t table[kOffsetCount] = {
        0,           1,           1023,           1024,
        1u << 24,    last_valid,  last_valid + 1, static_cast<std::uint32_t>(posenc::kMaxPosition),
        0x80000000u, 0xffffffffu, 100000,         65535};
    return t < kOffsetCount ? table[t] : u32();
  }

  DecodedPositions positions(std::uint32_t seq_len, std::uint32_t list_max_rows) {
    DecodedPositions decoded;
    const bool list = byte() % 2 == 1 && seq_len > 0 && seq_len <= list_max_rows;
    if (!list) {
      decoded.positions = posenc::Positions{nullptr, offset(seq_len)};
      return decoded;
    }
    decoded.is_list = true;
    decoded.list.resize(seq_len);
    const std::uint8_t pattern = byte() % 4;
    const std::int64_t start = pattern == 0 || pattern == 3 ? offset(seq_len) : 0;
    Noise noise(pattern == 1 || pattern == 2 ? u32() : 0);
    for (std::size_t row = 0; row < seq_len; ++row) {
      std::int64_t p = 0;
      switch (pattern) {
        case 0:
          p = start + static_cast<std::int64_t>(row);
          break;
        case 1:
          p = static_cast<std::int64_t>(noise.next() & 0x7fffffff);
          break;
        case 2:
          p = static_cast<std::int64_t>(noise.next() % 64);
          break;
        default:
          p = start - static_cast<std::int64_t>(row);
          break;
      }
      decoded.list[row] = static_cast<std::int32_t>(static_cast<std::uint32_t>(p));  // wraps like int32
    }
    const int overrides = byte() % 9;
    for (int k = 0; k < overrides; ++k) {
      const std::uint16_t row = u16();
      const std::uint8_t t = byte();
      decoded.list[row % seq_len] = t < kPositionCount ? kPositions[t] : i32();
    }
    // The offset of a list call must be ignored: make it one that would be invalid.
    decoded.positions = posenc::Positions{decoded.list.data(), 0xffffffffu};
    return decoded;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

}  // namespace fuzz
