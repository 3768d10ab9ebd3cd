// libFuzzer target: the kernels the core calls (kernels/dispatch.h: the xsimd versions for the
// build's architecture, SSE2 natively and SIMD128 in the wasm replay; the scalar loops
// themselves in the scalar wasm replay) against their scalar loops, on fuzzer-chosen lengths,
// data (NaN, infinities, subnormals, huge values) and addresses that are off the vector
// alignment by 0..7 elements, in place and out of place.
//
// The core is built with -ffp-contract=off, so the SIMD paths and the scalar loops must round
// identically: rotations, narrowing, the recurrence step and the table rows (phase_rows, every
// layout, written or added) are compared bit for bit (NaN matching NaN), and table elements
// between rows (strides wider than a row) must keep their values. So are the float16 and
// bfloat16 versions of the rotations and of the written table rows (16-bit patterns; a NaN
// matching a NaN of the format). dot and dot_row sum in a
// different order: they are held to the float32 summation bound. alibi_row (an ALiBi bias row)
// is compared bit for bit, and so are the score rows (scale_row, scale_add_row); row_max by value.
// sincos is compared with
// std::sin/std::cos: within 1e-15 for |angle| <= 2^31 (the largest angle the core produces for
// base >= 1), within [-1, 1] for any finite angle, NaN for NaN or infinite angles.
//
// Every array ends exactly at the end of its allocation (AddressSanitizer catches a read or
// write past n); the misalignment is a prefix of sentinel elements that must stay untouched.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "fuzz_expect.h"
#include "fuzz_input.h"
#include "kernels/dispatch.h"

namespace {

using namespace fuzz;
namespace k = posenc::kernels;

// The version k::rotate_half(...) and the others run, for messages.
#if POSENC_SIMD
constexpr const char* kVersion = xsimd::default_arch::name();
#else
constexpr const char* kVersion = "scalar";
#endif

constexpr std::size_t kMaxLength = 259;

// n elements at a fuzzer-chosen misalignment: [shift sentinels | n elements], nothing after.
// What an unwritten element holds: the sentinel NaN, or for 16-bit patterns a NaN payload no
// conversion produces.
template <class T>
T unwritten() {
  if constexpr (std::is_same_v<T, std::uint16_t>)
    return 0x7F81;
  else
    return static_cast<T>(sentinel());
}

template <class T>
class Shifted {
 public:
  Shifted(std::size_t n, std::size_t shift) : shift_(shift), storage_(shift + n, unwritten<T>()) {}
  T* data() { return storage_.data() + shift_; }
  const T* data() const { return storage_.data() + shift_; }
  std::size_t size() const { return storage_.size() - shift_; }
  T& operator[](std::size_t i) { return data()[i]; }
  const T& operator[](std::size_t i) const { return data()[i]; }

  // A copy of the values at another misalignment (what the other implementation gets).
  Shifted moved(std::size_t shift) const {
    Shifted copy(size(), shift);
    for (std::size_t i = 0; i < size(); ++i) copy[i] = (*this)[i];
    return copy;
  }

  bool prefix_intact() const {
    for (std::size_t i = 0; i < shift_; ++i)
      if (bits_of(storage_[i]) != bits_of(unwritten<T>())) return false;
    return true;
  }

 private:
  std::size_t shift_;
  std::vector<T> storage_;
};

template <class T>
Shifted<T> input(FuzzInput& in, std::size_t n) {
  Shifted<T> a(n, in.byte() % 8);
  in.fill(a.data(), n);
  return a;
}

template <class T>
void expect_same(const char* what, const Shifted<T>& simd, const Shifted<T>& scalar) {
  FUZZ_EXPECT(simd.prefix_intact() && scalar.prefix_intact(), "%s %s wrote before its array", kVersion, what);
  for (std::size_t i = 0; i < simd.size(); ++i) {
    FUZZ_EXPECT(same_value(simd[i], scalar[i]), "%s %s: element %zu of %zu: simd %.17g, scalar %.17g", kVersion, what,
                i, simd.size(), static_cast<double>(simd[i]), static_cast<double>(scalar[i]));
  }
}

// The misalignment of the kernel's copies of the arrays.
std::size_t simd_shift(FuzzInput& in) { return in.byte() % 8; }

// The heads of one row as the rotation kernels take them: 1..4 heads, a fuzzed gap between.
struct Heads {
  std::size_t count, stride;
  k::HeadOrder order;
};
Heads heads_of(FuzzInput& in, std::size_t used) {
  const std::size_t count = 1 + in.byte() % 4u;
  const std::size_t stride = used + in.byte() % 5u;
  return {count, stride, in.byte() % 2 == 0 ? k::HeadOrder::kAcrossHeads : k::HeadOrder::kHeadByHead};
}

// The elements a kernel of Storage's type reads: fuzzed floats, rounded to the 16-bit formats.
template <class Storage>
Shifted<typename Storage::type> element_input(FuzzInput& in, std::size_t n) {
  const Shifted<float> values = input<float>(in, n);
  if constexpr (std::is_same_v<typename Storage::type, float>) {
    return values;
  } else {
    Shifted<std::uint16_t> patterns(n, in.byte() % 8);
    for (std::size_t i = 0; i < n; ++i) patterns[i] = Storage::from_float(values[i]);
    return patterns;
  }
}

// expect_same for Storage's elements. 16-bit patterns: the same, or NaN on both sides (its sign
// may differ: IEEE 754 leaves an arithmetic NaN's sign unspecified, and SIMD lanes and the scalar
// loops order operands differently).
template <class Storage, class T>
void expect_same_elements(const char* what, const Shifted<T>& simd, const Shifted<T>& scalar) {
  if constexpr (std::is_same_v<T, float>) {
    expect_same(what, simd, scalar);
  } else {
    FUZZ_EXPECT(simd.prefix_intact() && scalar.prefix_intact(), "%s %s wrote before its array", kVersion, what);
    for (std::size_t i = 0; i < simd.size(); ++i) {
      const bool both_nan = std::isnan(Storage::to_float(simd[i])) && std::isnan(Storage::to_float(scalar[i]));
      FUZZ_EXPECT(simd[i] == scalar[i] || both_nan, "%s %s: element %zu of %zu: simd 0x%04x, scalar 0x%04x", kVersion,
                  what, i, simd.size(), simd[i], scalar[i]);
    }
  }
}

// The 16-bit kernels: float16 or bfloat16 by a byte, as the core chooses them (storage.h).
template <class Fn>
void with_half_storage(FuzzInput& in, Fn&& fn) {
  if (in.byte() % 2 == 0)
    fn(k::Float16Storage{});
  else
    fn(k::Bfloat16Storage{});
}

// rotate_half_of (half pairing) or rotate_interleaved_of on Storage's elements.
template <class Storage>
void fuzz_rotation(FuzzInput& in, std::size_t n, bool interleaved, bool in_place) {
  using T = typename Storage::type;
  const Heads heads = heads_of(in, 2 * n);
  const std::size_t length = heads.count * heads.stride;
  const Shifted<float> cos = input<float>(in, n), sin = input<float>(in, n);
  const Shifted<T> x = element_input<Storage>(in, length);
  Shifted<T> want = x.moved(0);
  const T* want_from = in_place ? want.data() : x.data();
  if (interleaved)
    k::RotateInterleavedOf<Storage>::scalar(0, cos.data(), sin.data(), want_from, want.data(), heads.count,
                                            heads.stride, heads.order, n);
  else
    k::RotateHalfOf<Storage>::scalar(0, cos.data(), sin.data(), want_from, want.data(), n, heads.count, heads.stride,
                                     heads.order, n);
  const std::size_t shift = simd_shift(in);
  Shifted<T> src = x.moved(shift);
  Shifted<T> out = x.moved(shift);  // out of place: the gaps must keep x's values too
  const T* from = in_place ? out.data() : src.data();
  if (interleaved)
    k::rotate_interleaved_of<Storage>(cos.data(), sin.data(), from, out.data(), heads.count, heads.stride, heads.order,
                                      n);
  else
    k::rotate_half_of<Storage>(cos.data(), sin.data(), from, out.data(), n, heads.count, heads.stride, heads.order, n);
  expect_same_elements<Storage>(interleaved ? "rotate_interleaved" : "rotate_half", out, want);
  if (!in_place)
    expect_same_elements<Storage>(interleaved ? "rotate_interleaved source" : "rotate_half source", src, x);
}

// |simd - scalar| for two sums of the same n products in different orders: each is within
// (n + 1) u sum|a_i b_i| of the exact sum (plus subnormal rounding).
void expect_dot_close(const float* a, const float* b, std::size_t n, float simd, float scalar) {
  long double scale = 0;
  bool finite = true, nan = false;
  for (std::size_t i = 0; i < n; ++i) {
    finite = finite && std::isfinite(a[i]) && std::isfinite(b[i]);
    nan = nan || std::isnan(a[i]) || std::isnan(b[i]);
    scale += std::fabs(static_cast<long double>(a[i]) * b[i]);
  }
  if (nan)
    FUZZ_EXPECT(std::isnan(simd) && std::isnan(scalar), "%s dot with a NaN input: simd %.9g, scalar %.9g", kVersion,
                simd, scalar);
  if (!finite || scale > 1e37L) return;  // infinities, or a sum that may overflow float32
  const long double bound = 2 * (n + 1) * 0x1p-24L * scale + 2 * n * 0x1p-149L;
  FUZZ_EXPECT(std::fabs(static_cast<long double>(simd) - scalar) <= bound,
              "%s dot of %zu: simd %.9g, scalar %.9g, bound %.3Lg", kVersion, n, simd, scalar, bound);
}

void fuzz_dot(FuzzInput& in, std::size_t n) {
  const Shifted<float> a = input<float>(in, n), b = input<float>(in, n);
  const float want = k::Dot::scalar(0, a.data(), b.data(), n);
  const std::size_t shift = simd_shift(in);
  const Shifted<float> a2 = a.moved(shift), b2 = b.moved(shift);
  expect_dot_close(a.data(), b.data(), n, k::dot(a2.data(), b2.data(), n), want);
}

// One similarity row: a against `cols` rows of b, blocks of lanes columns at a time.
void fuzz_dot_row(FuzzInput& in, std::size_t dim) {
  const std::size_t cols = in.byte() % 20;
  const Shifted<float> a = input<float>(in, dim), b = input<float>(in, cols * dim);
  Shifted<float> want(cols, 0);
  k::DotRow::scalar(0, a.data(), b.data(), dim, cols, want.data());
  Shifted<float> out(cols, simd_shift(in));
  k::dot_row(a.data(), b.data(), dim, cols, out.data());
  FUZZ_EXPECT(out.prefix_intact(), "%s dot_row wrote before its output", kVersion);
  for (std::size_t c = 0; c < cols; ++c) expect_dot_close(a.data(), b.data() + c * dim, dim, out[c], want[c]);
}

void fuzz_narrow(FuzzInput& in, std::size_t n) {
  const Shifted<double> source = input<double>(in, n);
  Shifted<float> want(n, 0);
  k::Narrow::scalar(0, source.data(), want.data(), n);
  Shifted<float> out(n, simd_shift(in));
  k::narrow(source.data(), out.data(), n);
  expect_same("narrow", out, want);
}

void fuzz_sincos(FuzzInput& in, std::size_t n) {
  const Shifted<double> angle = input<double>(in, n);
  const std::size_t shift = simd_shift(in);
  Shifted<double> sin(n, shift), cos(n, (shift + 3) % 8);
  k::sincos(angle.data(), sin.data(), cos.data(), n);
  FUZZ_EXPECT(sin.prefix_intact() && cos.prefix_intact(), "%s sincos wrote before its array", kVersion);
  for (std::size_t i = 0; i < n; ++i) {
    const double x = angle[i];
    if (!std::isfinite(x)) {
      FUZZ_EXPECT(std::isnan(sin[i]) && std::isnan(cos[i]), "%s sincos(%.17g) = (%.17g, %.17g), want NaN", kVersion, x,
                  sin[i], cos[i]);
      continue;
    }
    FUZZ_EXPECT(std::fabs(sin[i]) <= 1 && std::fabs(cos[i]) <= 1, "%s sincos(%.17g) = (%.17g, %.17g)", kVersion, x,
                sin[i], cos[i]);
    if (std::fabs(x) > 0x1p31) continue;
    const double error = std::fmax(std::fabs(sin[i] - std::sin(x)), std::fabs(cos[i] - std::cos(x)));
    FUZZ_EXPECT(error <= 1e-15, "%s sincos(%.17g) = (%.17g, %.17g), std (%.17g, %.17g)", kVersion, x, sin[i], cos[i],
                std::sin(x), std::cos(x));
  }
}

void fuzz_rotate_step(FuzzInput& in, std::size_t n) {
  const Shifted<double> cos = input<double>(in, n), sin = input<double>(in, n);
  const Shifted<double> step_cos = input<double>(in, n), step_sin = input<double>(in, n);
  Shifted<double> want_cos = cos.moved(0), want_sin = sin.moved(0);
  Shifted<float> want_cos32(n, 0), want_sin32(n, 0);
  k::RotateStep::scalar(0, want_cos.data(), want_sin.data(), step_cos.data(), step_sin.data(), want_cos32.data(),
                        want_sin32.data(), n);
  const std::size_t shift = simd_shift(in);
  Shifted<double> c = cos.moved(shift), s = sin.moved((shift + 1) % 8);
  Shifted<float> c32(n, (shift + 2) % 8), s32(n, (shift + 5) % 8);
  k::rotate_step(c.data(), s.data(), step_cos.data(), step_sin.data(), c32.data(), s32.data(), n);
  expect_same("rotate_step cos", c, want_cos);
  expect_same("rotate_step sin", s, want_sin);
  expect_same("rotate_step cos32", c32, want_cos32);
  expect_same("rotate_step sin32", s32, want_sin32);
}

// Where phase_rows writes: the table layouts of sinusoidal (interleaved, concat halves of
// one row) and of rope_cache (separate cos and sin arrays), with row strides at least a row.
enum class RowsLayout { kInterleaved, kConcat, kSeparate };

// Storage's table rows (16-bit ones: written only, as the core makes them).
template <class Storage>
void fuzz_phase_rows(FuzzInput& in, std::size_t pairs, bool accumulate) {
  using T = typename Storage::type;
  pairs = pairs == 0 ? 1 : pairs;
  const std::uint8_t shape = in.byte();
  const std::size_t rows = 1 + shape % 8;  // the core never asks for 0 rows
  const auto layout = static_cast<RowsLayout>(shape / 8 % 3);
  const std::size_t row_width = layout == RowsLayout::kSeparate ? pairs : 2 * pairs;
  const std::size_t stride = row_width + in.byte() % 4;
  const std::size_t size = (rows - 1) * stride + row_width;

  const Shifted<double> cos = input<double>(in, pairs), sin = input<double>(in, pairs);
  const Shifted<double> step_cos = input<double>(in, pairs), step_sin = input<double>(in, pairs);
  const Shifted<T> first = element_input<Storage>(in, size), second = element_input<Storage>(in, size);
  const auto out = [&](Shifted<T>& t, Shifted<T>& u) {
    T* row = t.data();
    switch (layout) {
      case RowsLayout::kInterleaved:
        return k::RowsOutOf<T>{row, row + 1, stride, true};
      case RowsLayout::kConcat:
        return k::RowsOutOf<T>{row, row + pairs, stride, false};
      default:
        return k::RowsOutOf<T>{row, u.data(), stride, false};
    }
  };
  Shifted<double> want_cos = cos.moved(0), want_sin = sin.moved(0);
  Shifted<T> want_first = first.moved(0), want_second = second.moved(0);
  (accumulate ? k::PhaseRows<true, Storage>::scalar : k::PhaseRows<false, Storage>::scalar)(
      0, want_cos.data(), want_sin.data(), step_cos.data(), step_sin.data(), pairs, rows, out(want_first, want_second));
  // Elements past a row's width (stride gaps) and an unused second array keep their values.
  for (std::size_t i = 0; i < size; ++i) {
    const bool gap = i % stride >= row_width;
    const bool first_kept = bits_of(want_first[i]) == bits_of(first[i]);
    const bool second_kept = bits_of(want_second[i]) == bits_of(second[i]);
    FUZZ_EXPECT(!gap || (first_kept && second_kept), "phase_rows wrote between rows at %zu (stride %zu, row width %zu)",
                i, stride, row_width);
    FUZZ_EXPECT(layout == RowsLayout::kSeparate || second_kept, "phase_rows wrote into an unused array at %zu", i);
  }
  const std::size_t shift = simd_shift(in);
  Shifted<double> c = cos.moved(shift), s = sin.moved((shift + 1) % 8);
  Shifted<T> t = first.moved((shift + 2) % 8), u = second.moved((shift + 3) % 8);
  if (accumulate) {
    k::phase_rows<true, Storage>(c.data(), s.data(), step_cos.data(), step_sin.data(), pairs, rows, out(t, u));
  } else {
    k::phase_rows<false, Storage>(c.data(), s.data(), step_cos.data(), step_sin.data(), pairs, rows, out(t, u));
  }
  expect_same("phase_rows cos state", c, want_cos);
  expect_same("phase_rows sin state", s, want_sin);
  expect_same_elements<Storage>("phase_rows table", t, want_first);
  expect_same_elements<Storage>("phase_rows second table", u, want_second);
}

// One ALiBi bias row: slope · (start + j), start an integer distance (or a hostile double).
void fuzz_alibi_row(FuzzInput& in, std::size_t n) {
  const double slope = in.value();
  const double start = in.byte() % 2 ? static_cast<double>(in.i32()) : in.value();
  Shifted<float> want(n, 0);
  k::AlibiRow::scalar(0, slope, start, want.data(), n);
  Shifted<float> out(n, simd_shift(in));
  k::alibi_row(slope, start, out.data(), n);
  expect_same("alibi_row", out, want);
}

// A row of attention scores' float64 steps (score_row.h): x · factor, or x · scale + bias[j].
void fuzz_score_row(FuzzInput& in, std::size_t n, bool with_bias) {
  const Shifted<float> x = input<float>(in, n);
  const double scale = in.value();
  Shifted<double> bias = input<double>(in, n);
  Shifted<float> want(n, 0), out(n, simd_shift(in));
  for (std::size_t i = 0; i < n; ++i) want[i] = out[i] = x[i];
  if (with_bias) {
    k::MapRow64<k::ScaleAdd>::scalar(0, want.data(), n, k::ScaleAdd{scale, bias.data()});
    k::scale_add_row(out.data(), n, k::ScaleAdd{scale, bias.data()});
  } else {
    k::MapRow64<k::Scale>::scalar(0, want.data(), n, k::Scale{scale});
    k::scale_row(out.data(), n, k::Scale{scale});
  }
  expect_same(with_bias ? "scale_add_row" : "scale_row", out, want);
}

// A softmax row's maximum (NaNs skipped).
void fuzz_row_max(FuzzInput& in, std::size_t n) {
  const Shifted<float> x = input<float>(in, n);
  const float simd = k::row_max(x.data(), n), scalar = k::RowMax::scalar(0, x.data(), n);
  // Equal values (+0 and −0 may trade places: either is the maximum, and exp(s − max) is the same).
  FUZZ_EXPECT(simd == scalar, "%s row_max of %zu: simd %.9g, scalar %.9g", kVersion, n, simd, scalar);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  const std::uint8_t kernel = in.byte() % 18;
  const std::size_t n = in.u16() % (kMaxLength + 1);
  switch (kernel) {
    case 0:
    case 1:
      fuzz_rotation<k::Float32Storage>(in, n, false, kernel == 1);
      break;
    case 2:
    case 3:
      fuzz_rotation<k::Float32Storage>(in, n, true, kernel == 3);
      break;
    case 4:
      fuzz_dot(in, n);
      break;
    case 5:
      fuzz_narrow(in, n);
      break;
    case 6:
      fuzz_sincos(in, n);
      break;
    case 7:
      fuzz_rotate_step(in, n);
      break;
    case 8:
    case 9:
      fuzz_phase_rows<k::Float32Storage>(in, n, kernel == 9);
      break;
    case 10:
      fuzz_dot_row(in, n);
      break;
    case 11:
      fuzz_alibi_row(in, n);
      break;
    case 12:
    case 13:
      fuzz_score_row(in, n, kernel == 13);
      break;
    case 14:
      fuzz_row_max(in, n);
      break;
    case 15:
    case 16:  // 16-bit rotations: the storage byte, then the in-place byte
      with_half_storage(in, [&](auto storage) {
        const bool in_place = in.byte() % 2 == 0;
        fuzz_rotation<decltype(storage)>(in, n, kernel == 16, in_place);
      });
      break;
    default:  // 16-bit table rows: the storage byte first
      with_half_storage(in, [&](auto storage) { fuzz_phase_rows<decltype(storage)>(in, n, false); });
      break;
  }
  return 0;
}
