// libFuzzer target: rotary embeddings (rope in place and into a separate output, rope_cache,
// rope_frequencies) on fuzzer-chosen specs, positions and data (tests/fuzz/fuzz_input.h).
//
// For every input: check() agrees with the documented rules; the function returns what
// check() returned; a rejected call writes nothing. Ok (when small enough to run):
//   rope        every rotated pair keeps its norm (within float32 rounding) and, for finite
//               inputs of moderate size, is finite; within 5e-7 (|x_a| + |x_b|) of the
//               long-double rotation where the contract is checkable (base >= 1, positions
//               < 2^24); channels from rotary_dim on pass through bit for bit.
//   rope_cache  cos, sin finite, in [-1, 1], cos^2 + sin^2 = 1 within float32 rounding,
//               within 2.5e-7 of the reference (same condition).
//   frequencies positive, finite, within 4 ulps of the long-double 1 / base^(2i/d).
//   half rope   (a dtype byte after the layout: float32, float16, bfloat16 or a value outside
//               the enum) rope's std::uint16_t overload: kDtypeInvalid / kDtypeMismatch and
//               nothing written where they apply; else bit for bit the float32 rope of the
//               widened input, rounded once, pass-through channels copied as stored.
// Buffers are allocated to their exact sizes, so AddressSanitizer sees any stray access.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "../core/reference.h"
#include "fuzz_expect.h"
#include "fuzz_input.h"
#include "posenc/half.h"
#include "posenc/rope.h"

namespace {

using namespace fuzz;
using posenc::Status;

constexpr std::uint32_t kMaxRows = 1100;
constexpr std::uint32_t kMaxHeads = 4;
constexpr std::uint32_t kMaxWidth = 300;
constexpr std::uint64_t kRunElements = 1 << 14;
constexpr double kTableBound = 2.5e-7;
constexpr long double kRopeEps = 5e-7L;
// Subnormal results carry an absolute rounding error of up to 2^-149 per operation.
constexpr long double kSubnormalSlack = 4 * 0x1p-149L;

void require_frequencies(Rules& rules, std::uint32_t rotary_dim, double base) {
  rules.require(rotary_dim >= 2, Status::kRotaryDimTooSmall);
  rules.require(rotary_dim <= posenc::kMaxDim, Status::kRotaryDimTooLarge);
  rules.require(rotary_dim % 2 == 0, Status::kRotaryDimOdd);
  require_base(rules, base);
}

bool contract_checkable(double base, std::uint32_t seq_len, const DecodedPositions& positions) {
  if (!(base >= 1.0)) return false;
  for (std::size_t row = 0; row < seq_len; ++row)
    if (positions.at(row) >= (1 << 24)) return false;
  return true;
}

std::vector<std::int64_t> row_positions(std::uint32_t seq_len, const DecodedPositions& positions) {
  std::vector<std::int64_t> rows(seq_len);
  for (std::size_t row = 0; row < seq_len; ++row) rows[row] = positions.at(row);
  return rows;
}

std::size_t run_length(unsigned __int128 elements) {
  return static_cast<std::size_t>(elements < kRunElements ? elements : kRunElements);
}

void expect_same(Status got, Status want) {
  FUZZ_EXPECT(got == want, "call returned '%s', check() '%s'", posenc::status_name(got), posenc::status_name(want));
}

// ---- rope ---------------------------------------------------------------------------------

void expect_rotated(const posenc::RopeSpec& spec, const DecodedPositions& positions, const std::vector<float>& x,
                    const std::vector<float>& out) {
  const auto pairing =
      spec.layout == posenc::RopeLayout::kInterleaved ? reference::Pairing::kInterleaved : reference::Pairing::kHalf;
  const bool checkable = contract_checkable(spec.base, spec.seq_len, positions);
  std::vector<reference::Real> want;
  if (checkable) {
    want = reference::rope(x, {spec.seq_len, spec.num_heads, spec.head_dim, spec.rotary_dim},
                           row_positions(spec.seq_len, positions), spec.base, pairing);
  }
  for (std::size_t row_head = 0; row_head < std::size_t{spec.seq_len} * spec.num_heads; ++row_head) {
    const std::size_t at = row_head * spec.head_dim;
    for (std::size_t pair = 0; pair < spec.rotary_dim / 2; ++pair) {
      const reference::PairChannels ch = reference::pair_channels(pair, spec.rotary_dim, pairing);
      const long double a = x[at + ch.a], b = x[at + ch.b];
      const long double ra = out[at + ch.a], rb = out[at + ch.b];
      if (!std::isfinite(a) || !std::isfinite(b)) continue;  // no promise for NaN/inf inputs
      const long double scale = std::fabs(a) + std::fabs(b);
      if (std::fabs(a) <= 1e30L && std::fabs(b) <= 1e30L) {
        FUZZ_EXPECT(std::isfinite(ra) && std::isfinite(rb),
                    "row*head %zu pair %zu: (%.9Lg, %.9Lg) -> (%.9Lg, %.9Lg), base %.17g, position %lld", row_head,
                    pair, a, b, ra, rb, spec.base, static_cast<long long>(positions.at(row_head / spec.num_heads)));
      }
      if (!std::isfinite(ra) || !std::isfinite(rb)) continue;  // overflow near FLT_MAX
      const long double norm_change = std::fabs(std::hypot(ra, rb) - std::hypot(a, b));
      FUZZ_EXPECT(norm_change <= 1e-6L * scale + kSubnormalSlack,
                  "row*head %zu pair %zu: norm changed by %.3Lg: (%.9Lg, %.9Lg) -> (%.9Lg, %.9Lg)", row_head, pair,
                  norm_change, a, b, ra, rb);
      if (!checkable) continue;
      const long double bound = kRopeEps * scale + kSubnormalSlack;
      const long double error_a = std::fabs(ra - want[at + ch.a]), error_b = std::fabs(rb - want[at + ch.b]);
      FUZZ_EXPECT(error_a <= bound && error_b <= bound,
                  "row*head %zu pair %zu: errors %.3Lg, %.3Lg exceed %.3Lg (base %.17g, rotary_dim %u, position %lld)",
                  row_head, pair, error_a, error_b, bound, spec.base, spec.rotary_dim,
                  static_cast<long long>(positions.at(row_head / spec.num_heads)));
    }
    for (std::size_t ch = spec.rotary_dim; ch < spec.head_dim; ++ch) {
      FUZZ_EXPECT(bits_of(out[at + ch]) == bits_of(x[at + ch]), "pass-through channel %zu of row*head %zu changed", ch,
                  row_head);
    }
  }
}

void fuzz_half_rope(const posenc::RopeSpec& spec, const DecodedPositions& positions, Status status, FuzzInput& in,
                    std::size_t length, bool in_place);

// half: the std::uint16_t overload, with the dtype byte that follows the layout.
void fuzz_rope(FuzzInput& in, bool in_place, bool half = false) {
  posenc::RopeSpec spec;
  spec.seq_len = in.size(kMaxRows);
  spec.num_heads = in.size(kMaxHeads);
  spec.head_dim = in.size(kMaxWidth);
  spec.rotary_dim = in.byte() % 2 == 0 ? spec.head_dim : in.size(kMaxWidth);
  spec.base = in.base();
  spec.layout = static_cast<posenc::RopeLayout>(in.enum_value());
  if (half) {  // 0: float32 (the wrong overload), 1: float16, 2: bfloat16, 3: outside the enum
    const std::uint8_t t = in.byte();
    spec.dtype = static_cast<posenc::Dtype>(t % 4 == 3 ? 3 + t / 4 : t % 4);
  }
  const DecodedPositions positions = in.positions(spec.seq_len, kMaxRows);

  Rules rules;
  rules.require(posenc::dtype_size(spec.dtype) != 0, Status::kDtypeInvalid);
  rules.require(spec.seq_len <= posenc::kMaxSeqLen, Status::kSeqLenTooLarge);
  rules.require(spec.num_heads >= 1, Status::kNumHeadsTooSmall);
  rules.require(spec.num_heads <= posenc::kMaxDim, Status::kNumHeadsTooLarge);
  rules.require(spec.head_dim >= 2, Status::kHeadDimTooSmall);
  rules.require(spec.head_dim <= posenc::kMaxDim, Status::kHeadDimTooLarge);
  rules.require(spec.rotary_dim <= spec.head_dim, Status::kRotaryDimTooLarge);
  require_frequencies(rules, spec.rotary_dim, spec.base);
  const int layout = static_cast<int>(spec.layout);
  rules.require(layout == 0 || layout == 1, Status::kLayoutInvalid);
  const unsigned __int128 elements = product(spec.seq_len, spec.num_heads, spec.head_dim);
  rules.require(fits(elements), Status::kSizeTooLarge);
  require_positions(rules, positions, spec.seq_len);
  const Status status = posenc::check(spec, positions.positions);
  rules.expect_agrees("rope check", status);
  if (status == Status::kOk && elements > kRunElements) return;

  const std::size_t length = run_length(elements);
  if (half) return fuzz_half_rope(spec, positions, status, in, length, in_place);
  std::vector<float> x = in.array<float>(length);
  const std::vector<float> original = x;
  std::vector<float> separate(in_place ? 0 : length, sentinel());
  float* out = in_place ? x.data() : separate.data();
  expect_same(posenc::rope(spec, positions.positions, x.data(), out), status);
  if (status != Status::kOk) {
    FUZZ_EXPECT(same_bits(x, original) && untouched(separate), "a rejected call ('%s') wrote",
                posenc::status_name(status));
    return;
  }
  if (!in_place) FUZZ_EXPECT(same_bits(x, original), "rope into a separate output changed its input");
  expect_rotated(spec, positions, original, in_place ? x : separate);
}

// ---- rope on float16 / bfloat16 patterns -----------------------------------------------------

float widen(posenc::Dtype dtype, std::uint16_t bits) {
  return dtype == posenc::Dtype::kBfloat16 ? posenc::bfloat16_to_float(bits) : posenc::half_to_float(bits);
}
std::uint16_t narrow(posenc::Dtype dtype, float value) {
  return dtype == posenc::Dtype::kBfloat16 ? posenc::float_to_bfloat16(value) : posenc::float_to_half(value);
}

void fuzz_half_rope(const posenc::RopeSpec& spec, const DecodedPositions& positions, Status status, FuzzInput& in,
                    std::size_t length, bool in_place) {
  constexpr std::uint16_t kUnwritten = 0x7F81;  // a NaN payload no call produces
  const std::vector<float> values = in.array<float>(length);
  std::vector<std::uint16_t> x(length);
  for (std::size_t i = 0; i < length; ++i) x[i] = narrow(spec.dtype, values[i]);
  const std::vector<std::uint16_t> original = x;
  std::vector<std::uint16_t> separate(in_place ? 0 : length, kUnwritten);
  std::uint16_t* out = in_place ? x.data() : separate.data();
  const Status got = posenc::rope(spec, positions.positions, x.data(), out);
  const bool float32 = spec.dtype == posenc::Dtype::kFloat32;
  expect_same(got, status == Status::kOk && float32 ? Status::kDtypeMismatch : status);
  if (got != Status::kOk) {
    const bool unwritten =
        std::all_of(separate.begin(), separate.end(), [](std::uint16_t v) { return v == kUnwritten; });
    FUZZ_EXPECT(x == original && unwritten, "a rejected half call ('%s') wrote", posenc::status_name(got));
    return;
  }
  if (!in_place) FUZZ_EXPECT(x == original, "half rope into a separate output changed its input");
  std::vector<float> wide(length);
  for (std::size_t i = 0; i < length; ++i) wide[i] = widen(spec.dtype, original[i]);
  posenc::RopeSpec float_spec = spec;
  float_spec.dtype = posenc::Dtype::kFloat32;
  FUZZ_EXPECT(posenc::rope(float_spec, positions.positions, wide.data(), wide.data()) == Status::kOk,
              "the float32 rope failed where the half one did not");
  const std::vector<std::uint16_t>& rotated = in_place ? x : separate;
  for (std::size_t i = 0; i < length; ++i) {
    const bool passes = i % spec.head_dim >= spec.rotary_dim;
    const std::uint16_t want = passes ? original[i] : narrow(spec.dtype, wide[i]);
    // A rotated NaN is the canonical quiet NaN of either sign: IEEE 754 leaves the sign of a NaN
    // that arithmetic produces unspecified, and the SIMD lanes and the scalar loop order their
    // operands differently (the magnitude bits must still be the canonical NaN's).
    const bool both_nan = !passes && wide[i] != wide[i] && (rotated[i] & 0x7FFF) == (want & 0x7FFF);
    FUZZ_EXPECT(rotated[i] == want || both_nan, "half rope [%zu] = 0x%04x, want 0x%04x (dtype %d, %s, input 0x%04x)", i,
                rotated[i], want, static_cast<int>(spec.dtype), passes ? "pass-through" : "rotated", original[i]);
  }
}

// ---- rope_cache -----------------------------------------------------------------------------

void fuzz_rope_cache(FuzzInput& in) {
  posenc::RopeCacheSpec spec;
  spec.seq_len = in.size(kMaxRows);
  spec.rotary_dim = in.size(kMaxWidth);
  spec.base = in.base();
  const DecodedPositions positions = in.positions(spec.seq_len, kMaxRows);

  Rules rules;
  rules.require(spec.seq_len <= posenc::kMaxSeqLen, Status::kSeqLenTooLarge);
  require_frequencies(rules, spec.rotary_dim, spec.base);
  const std::size_t half = spec.rotary_dim / 2;
  const unsigned __int128 elements = product(spec.seq_len, half);
  rules.require(fits(elements), Status::kSizeTooLarge);
  require_positions(rules, positions, spec.seq_len);
  const Status status = posenc::check(spec, positions.positions);
  rules.expect_agrees("rope_cache check", status);
  if (status == Status::kOk && elements > kRunElements) return;

  const std::size_t length = run_length(elements);
  std::vector<float> cos(length, sentinel()), sin(length, sentinel());
  expect_same(posenc::rope_cache(spec, positions.positions, cos.data(), sin.data()), status);
  if (status != Status::kOk) {
    FUZZ_EXPECT(untouched(cos) && untouched(sin), "a rejected call ('%s') wrote", posenc::status_name(status));
    return;
  }
  for (std::size_t i = 0; i < length; ++i) {
    const double c = cos[i], s = sin[i];
    FUZZ_EXPECT(std::isfinite(c) && std::isfinite(s) && std::fabs(c) <= 1 && std::fabs(s) <= 1 &&
                    std::fabs(c * c + s * s - 1) <= 2.5e-7,
                "cache[%zu] = (%.9g, %.9g), base %.17g, rotary_dim %u, position %lld", i, c, s, spec.base,
                spec.rotary_dim, static_cast<long long>(positions.at(i / half)));
  }
  if (!contract_checkable(spec.base, spec.seq_len, positions)) return;
  const reference::Phases want = reference::phases(row_positions(spec.seq_len, positions), spec.rotary_dim, spec.base);
  for (std::size_t i = 0; i < length; ++i) {
    const double error =
        static_cast<double>(std::fmax(std::fabs(cos[i] - want.cos[i]), std::fabs(sin[i] - want.sin[i])));
    FUZZ_EXPECT(error <= kTableBound, "cache[%zu] is %.3g from the reference (base %.17g, position %lld)", i, error,
                spec.base, static_cast<long long>(positions.at(i / half)));
  }
}

// ---- rope_frequencies ------------------------------------------------------------------------

void fuzz_frequencies(FuzzInput& in) {
  const std::uint32_t rotary_dim = in.size(kMaxWidth);
  const double base = in.base();
  Rules rules;
  require_frequencies(rules, rotary_dim, base);
  const Status status = posenc::check_frequencies(rotary_dim, base);
  rules.expect_agrees("rope_frequencies check", status);

  // Valid: exactly rotary_dim / 2 (at most 2^15); rejected: a short buffer that must stay as is.
  const std::size_t half = status == Status::kOk ? rotary_dim / 2 : std::min<std::size_t>(rotary_dim / 2, kRunElements);
  std::vector<double> out(half, 0.25);
  expect_same(posenc::rope_frequencies(rotary_dim, base, out.data()), status);
  if (status != Status::kOk) {
    for (const double v : out) FUZZ_EXPECT(v == 0.25, "a rejected call ('%s') wrote", posenc::status_name(status));
    return;
  }
  for (std::size_t i = 0; i < half; ++i) {
    const long double want = reference::inverse_frequency(i, rotary_dim, base);
    FUZZ_EXPECT(std::isfinite(out[i]) && out[i] > 0, "inv_freq[%zu] = %.17g (base %.17g, rotary_dim %u)", i, out[i],
                base, rotary_dim);
    if (std::fabs(want) >= 0x1p-1022L && std::fabs(want) <= 0x1p1023L) {
      // pow and the division round (a few ulps); the float64 exponent 2i/d rounds by up to
      // 2^-53 relative, which base^(2i/d) turns into |ln base| * 2^-53.
      const long double relative = std::fabs(out[i] - want) / want;
      FUZZ_EXPECT(relative <= (4 + std::fabs(std::log(static_cast<long double>(base)))) * 0x1p-53L,
                  "inv_freq[%zu] = %.17g, reference %.20Lg (base %.17g, rotary_dim %u)", i, out[i], want, base,
                  rotary_dim);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  switch (in.byte() % 6) {
    case 0:
      fuzz_rope(in, true);
      break;
    case 1:
      fuzz_rope(in, false);
      break;
    case 4:
      fuzz_rope(in, true, true);
      break;
    case 5:
      fuzz_rope(in, false, true);
      break;
    case 2:
      fuzz_rope_cache(in);
      break;
    default:
      fuzz_frequencies(in);
      break;
  }
  return 0;
}
