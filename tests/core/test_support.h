// Shared test plumbing (not math: the float64 reference lives in reference.h): seeded random
// inputs, sentinel-filled buffers that reveal stray writes, bit-exact float comparison, the
// worst error of a comparison, and the precision figures printed at the end of the run.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch_tostring.hpp>

#include "phases.h"
#include "posenc/positions.h"
#include "posenc/rope.h"
#include "posenc/status.h"

namespace test_support {

// Rows of a consecutive run long enough to cross the core's re-anchoring of its float64
// recurrence (every kAnchorInterval rows) and to end off its 4-row tiles.
inline constexpr std::size_t kRunAcrossAnchor = posenc::PhaseBlock::kAnchorInterval + 7;

// A missing float32 array, for the float overloads (a bare nullptr matches the half ones too).
inline constexpr float* kNoFloats = nullptr;

// A RoPE spec of this shape, rotating the whole head (every other field at its default).
inline posenc::RopeSpec rope_spec(std::uint32_t seq_len, std::uint32_t num_heads, std::uint32_t head_dim,
                                  posenc::RopeLayout layout) {
  posenc::RopeSpec spec;
  spec.seq_len = seq_len;
  spec.num_heads = num_heads;
  spec.head_dim = head_dim;
  spec.rotary_dim = head_dim;
  spec.layout = layout;
  return spec;
}

// Uniform floats in [lo, hi], the same sequence for the same seed on every run.
inline std::vector<float> random_floats(std::size_t n, std::uint32_t seed, float lo = -1.0f, float hi = 1.0f) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> uniform(lo, hi);
  std::vector<float> values(n);
  for (float& v : values) v = uniform(generator);
  return values;
}

inline std::vector<double> random_doubles(std::size_t n, std::uint32_t seed, double lo = -1.0, double hi = 1.0) {
  std::mt19937_64 generator(seed);
  std::uniform_real_distribution<double> uniform(lo, hi);
  std::vector<double> values(n);
  for (double& v : values) v = uniform(generator);
  return values;
}

inline bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }
inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Index of the first element whose bits differ, or n when all n are identical.
template <class T>
std::size_t first_difference(const T* a, const T* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (!same_bits(a[i], b[i])) return i;
  return n;
}

template <class T>
std::size_t first_difference(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() ? first_difference(a.data(), b.data(), a.size()) : 0;
}

// A value no computation here produces (a quiet NaN with a payload): a buffer filled with it
// shows exactly which elements a function wrote.
template <class T = float>
T sentinel() {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "float or double");
  T v;
  if constexpr (sizeof(T) == 4) {
    const std::uint32_t pattern = 0x7fc0beefu;
    std::memcpy(&v, &pattern, sizeof v);
  } else {
    const std::uint64_t pattern = 0x7ff8deadbeef0001ull;
    std::memcpy(&v, &pattern, sizeof v);
  }
  return v;
}

inline std::vector<float> sentinel_filled(std::size_t n) { return std::vector<float>(n, sentinel()); }

// Number of elements of [begin, end) that no longer hold the sentinel.
template <class T>
std::size_t overwritten(const T* begin, const T* end) {
  std::size_t count = 0;
  for (const T* p = begin; p != end; ++p) count += !same_bits(*p, sentinel<T>());
  return count;
}

template <class T>
std::size_t overwritten(const std::vector<T>& v) {
  return overwritten(v.data(), v.data() + v.size());
}

// n usable values at a deliberately unaligned address (`shift` elements past the allocation's
// alignment), with kGuard sentinels on both sides to catch out-of-range writes.
template <class T>
class Guarded {
 public:
  static constexpr std::size_t kGuard = 16;

  Guarded(std::size_t n, std::size_t shift) : n_(n), shift_(shift), storage_(shift + n + 2 * kGuard, sentinel<T>()) {}

  T* data() { return storage_.data() + shift_ + kGuard; }
  const T* data() const { return storage_.data() + shift_ + kGuard; }
  std::size_t size() const { return n_; }
  std::vector<T> values() const { return std::vector<T>(data(), data() + n_); }

  void assign(const std::vector<T>& values) {
    if (n_ > 0) std::memcpy(data(), values.data(), n_ * sizeof(T));  // memcpy from null is UB even for 0 bytes
  }

  // Guards (and the shift padding) still hold the sentinel.
  bool guards_intact() const {
    const T* begin = storage_.data();
    return overwritten(begin, data()) == 0 && overwritten(data() + n_, begin + storage_.size()) == 0;
  }

 private:
  std::size_t n_, shift_;
  std::vector<T> storage_;
};

using GuardedBuffer = Guarded<float>;

// The largest error of a comparison and where it happened (for INFO messages).
struct WorstError {
  long double value = 0;
  std::size_t index = 0;
  std::size_t count = 0;  // comparisons made

  void update(long double error, std::size_t at) {
    ++count;
    if (!(error <= value)) {  // NaN errors are the worst of all
      value = error;
      index = at;
    }
  }
};

// Largest |got[i] - want[i]| over two equally long arrays.
template <class Want>
WorstError worst_abs_error(const std::vector<float>& got, const std::vector<Want>& want) {
  WorstError worst;
  for (std::size_t i = 0; i < got.size() && i < want.size(); ++i)
    worst.update(std::fabs(static_cast<long double>(got[i]) - static_cast<long double>(want[i])), i);
  return worst;
}

// Precision figures collected over the run, printed once at its end (precision_summary.cpp),
// so that the measured maxima can be quoted next to the documented contract.
struct PrecisionRecord {
  long double max_error = 0;
  std::size_t values = 0;
  std::string unit;
};

inline std::map<std::string, PrecisionRecord>& precision_records() {
  static std::map<std::string, PrecisionRecord> records;
  return records;
}

inline void record_precision(const std::string& name, const WorstError& worst, const std::string& unit) {
  PrecisionRecord& record = precision_records()[name];
  if (!(worst.value <= record.max_error)) record.max_error = worst.value;
  record.values += worst.count;
  record.unit = unit;
}

// Core-side positions: an int32 list (kept alive by the caller) or an offset.
inline std::vector<std::int32_t> to_int32(const std::vector<std::int64_t>& positions) {
  return std::vector<std::int32_t>(positions.begin(), positions.end());
}

inline posenc::Positions listed(const std::vector<std::int32_t>& list) { return posenc::Positions{list.data(), 0}; }
inline posenc::Positions from_offset(std::uint32_t offset) { return posenc::Positions{nullptr, offset}; }

}  // namespace test_support

// Failed status comparisons print the codes' names.
template <>
struct Catch::StringMaker<posenc::Status> {
  static std::string convert(posenc::Status status) { return posenc::status_name(status); }
};
