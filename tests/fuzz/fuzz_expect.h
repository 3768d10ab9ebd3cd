// What the fuzz targets assert, and how a failure is reported: a message on stderr, then
// abort(), which libFuzzer records as a crash with its reproducer (crash-<sha1>).
//
// Rules: an independent statement of the documented argument rules (size_limits.h, status.h)
// that check() must agree with: check() is ok exactly when no rule is broken, and an error
// names a rule that really is broken. A few inputs are marked "may be rejected": valid by the
// documented rules but degenerate (see base_may_be_rejected); check() may accept them (then
// the outputs are held to the usual invariants) or refuse them with the given status.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_input.h"
#include "posenc/size_limits.h"
#include "posenc/status.h"

#define FUZZ_EXPECT(condition, ...)                                                                  \
  do {                                                                                               \
    if (!(condition)) {                                                                              \
      std::fprintf(stderr, "\nFUZZ_EXPECT failed at %s:%d: %s\n  ", __FILE__, __LINE__, #condition); \
      std::fprintf(stderr, __VA_ARGS__);                                                             \
      std::fprintf(stderr, "\n");                                                                    \
      std::abort();                                                                                  \
    }                                                                                                \
  } while (0)

namespace fuzz {

template <class T>
std::uint64_t bits_of(T v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof v);
  return b;
}

// Bit-identical, or NaN on both sides (NaN payloads may differ between instruction sets).
template <class T>
bool same_value(T a, T b) {
  return bits_of(a) == bits_of(b) || (std::isnan(a) && std::isnan(b));
}

// A quiet NaN with a payload no computation produces: shows which elements were written.
inline float sentinel() {
  const std::uint32_t pattern = 0x7fc0beefu;
  float v;
  std::memcpy(&v, &pattern, sizeof v);
  return v;
}

inline bool untouched(const std::vector<float>& v) {
  for (const float x : v)
    if (bits_of(x) != bits_of(sentinel())) return false;
  return true;
}

inline bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

class Rules {
 public:
  // Records `status` as broken unless `holds`.
  void require(bool holds, posenc::Status status) {
    if (!holds) broken_.push_back(status);
  }

  // Records `status` as an acceptable refusal when `degenerate`, without requiring it.
  void may_reject(bool degenerate, posenc::Status status) {
    if (degenerate) optional_.push_back(status);
  }

  bool all_hold() const { return broken_.empty(); }

  void expect_agrees(const char* what, posenc::Status got) const {
    bool allowed = false;
    for (const posenc::Status s : optional_) allowed = allowed || s == got;
    if (all_hold()) {
      FUZZ_EXPECT(got == posenc::Status::kOk || allowed, "%s: every rule holds but check() says '%s'", what,
                  posenc::status_name(got));
      return;
    }
    for (const posenc::Status s : broken_) allowed = allowed || s == got;
    FUZZ_EXPECT(allowed, "%s: check() says '%s' but the broken rules are: %s", what, posenc::status_name(got),
                list().c_str());
  }

 private:
  std::string list() const {
    std::string names;
    for (const posenc::Status s : broken_) names += std::string(names.empty() ? "" : ", ") + posenc::status_name(s);
    return names;
  }

  std::vector<posenc::Status> broken_;
  std::vector<posenc::Status> optional_;
};

// The product of sizes, exact (no wrap-around), for the kMaxElements rule.
inline unsigned __int128 product(std::uint64_t a, std::uint64_t b, std::uint64_t c = 1) {
  return static_cast<unsigned __int128>(a) * b * c;
}

inline bool fits(unsigned __int128 elements) { return elements <= posenc::kMaxElements; }

// The position rules shared by every function that takes positions.
inline void require_positions(Rules& rules, const DecodedPositions& decoded, std::uint32_t seq_len) {
  if (decoded.is_list) {
    bool in_range = true;
    for (std::size_t row = 0; row < seq_len; ++row) in_range = in_range && decoded.at(row) >= 0;
    rules.require(in_range, posenc::Status::kPositionOutOfRange);
  } else {
    rules.require(seq_len == 0 || decoded.at(seq_len - 1) <= posenc::kMaxPosition, posenc::Status::kOffsetTooLarge);
  }
}

inline bool base_valid(double base) { return std::isfinite(base) && base > 0; }

// Documented rule: base finite and > 0. But for bases far below 1 (under ~1e-299) the angle
// position * base^(-2i/d) overflows float64 and the outputs become NaN, which the fuzz targets
// report; a fix may reject such bases, so any base below 1 may be refused.
inline void require_base(Rules& rules, double base) {
  rules.require(base_valid(base), posenc::Status::kBaseInvalid);
  rules.may_reject(base < 1.0, posenc::Status::kBaseInvalid);
}

}  // namespace fuzz
