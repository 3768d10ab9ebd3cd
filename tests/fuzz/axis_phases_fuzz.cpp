// libFuzzer target: AxisPhases (src/axis_phases.cpp), RoPE whose pairs take their positions
// from several axes, through M-RoPE (RopeSpec::mrope) and 2-D image RoPE (rope_grid.h), on
// fuzzer-chosen sections, grids, head sizes and positions (tests/fuzz/fuzz_input.h).
//
// The multi-axis rules, restated independently: M-RoPE's sections fit when they sum to
// rotary_dim/2 and (interleaved) 3h - 2 and 3w - 1 fall below it; a grid needs rows·cols <=
// kMaxSeqLen (frames·rows·cols too: each frame repeats the grid), a known variant and a head_dim
// that variant splits (axial: a multiple of 4, pixtral: even, >= 4). check() must agree with them on top of the plain
// rope rules (which rope_fuzz checks); the function returns what check() returned and a rejected call writes nothing.
// Ok and small: every rotated component of finite inputs within the rope contract of a long-double reference that gives
// each pair its own axis and frequency; the channels beyond rotary_dim pass through unchanged. Buffers are allocated to
// their exact sizes for AddressSanitizer.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "../core/reference.h"
#include "fuzz_expect.h"
#include "fuzz_input.h"
#include "posenc/rope.h"
#include "posenc/rope_grid.h"

namespace {

using namespace fuzz;
using posenc::Status;
using reference::Real;

constexpr std::uint32_t kMaxRows = 40;
constexpr std::uint32_t kMaxWidth = 140;
constexpr std::uint64_t kRunElements = 1 << 14;
constexpr long double kRopeEps = 5e-7L;
constexpr long double kSubnormalSlack = 4 * 0x1p-149L;

struct Turn {
  std::uint32_t axis;
  Real inv_freq;
};

// x [rows, heads, head_dim] (token order) rotated pair by pair at where[axis][row]; every rotated
// component within kRopeEps (|x_a| + |x_b|), pass-through channels unchanged.
void expect_rotation(const std::vector<float>& x, const std::vector<float>& out, std::size_t rows, std::size_t heads,
                     std::size_t head_dim, const std::vector<Turn>& pairs,
                     const std::vector<std::vector<std::int64_t>>& where, bool interleaved) {
  const std::size_t rotary_dim = 2 * pairs.size();
  const reference::Pairing pairing = interleaved ? reference::Pairing::kInterleaved : reference::Pairing::kHalf;
  for (std::size_t row = 0; row < rows; ++row) {
    for (std::size_t h = 0; h < heads; ++h) {
      const std::size_t at = (row * heads + h) * head_dim;
      for (std::size_t k = 0; k < pairs.size(); ++k) {
        Real s, c;
        reference::sin_cos(static_cast<Real>(where[pairs[k].axis][row]) * pairs[k].inv_freq, &s, &c);
        const reference::PairChannels ch = reference::pair_channels(k, rotary_dim, pairing);
        const Real a = x[at + ch.a], b = x[at + ch.b];
        if (!std::isfinite(a) || !std::isfinite(b)) continue;  // no promise for NaN/inf inputs
        if (!std::isfinite(out[at + ch.a]) || !std::isfinite(out[at + ch.b])) {
          // Only where the exact result leaves float32's range (a pair near FLT_MAX).
          FUZZ_EXPECT(std::fabs(a) + std::fabs(b) > 0x1p127L, "row %zu pair %zu: a finite pair rotated to (%g, %g)",
                      row, k, out[at + ch.a], out[at + ch.b]);
          continue;
        }
        const Real bound = kRopeEps * (std::fabs(a) + std::fabs(b)) + kSubnormalSlack;
        const Real want_a = a * c - b * s, want_b = b * c + a * s;
        FUZZ_EXPECT(std::fabs(out[at + ch.a] - want_a) <= bound && std::fabs(out[at + ch.b] - want_b) <= bound,
                    "row %zu head %zu pair %zu (axis %u, position %lld): (%.9g, %.9g), reference (%.12Lg, %.12Lg)", row,
                    h, k, pairs[k].axis, static_cast<long long>(where[pairs[k].axis][row]), out[at + ch.a],
                    out[at + ch.b], want_a, want_b);
      }
      for (std::size_t i = rotary_dim; i < head_dim; ++i)
        FUZZ_EXPECT(same_value(out[at + i], x[at + i]), "pass-through channel %zu of row %zu changed", i, row);
    }
  }
}

void fuzz_mrope(FuzzInput& in) {
  posenc::RopeSpec spec;
  spec.seq_len = in.size(kMaxRows);
  spec.num_heads = in.size(3);
  spec.head_dim = in.size(kMaxWidth);
  spec.rotary_dim = in.size(kMaxWidth);
  spec.base = in.base();
  spec.layout = static_cast<posenc::RopeLayout>(in.enum_value());
  spec.mrope.enabled = true;
  for (std::uint32_t& s : spec.mrope.section) s = in.size(80);
  spec.mrope.interleaved = in.byte() % 2 == 1;
  // Three rows of positions (t, h, w), or an offset for every axis.
  const bool listed = in.byte() % 2 == 1 && spec.seq_len > 0 && spec.seq_len <= kMaxRows;
  std::vector<std::int32_t> list;
  std::uint32_t offset = 0;
  if (listed) {
    Noise noise(in.u32());
    const std::uint32_t spread = 1u << (in.byte() % 31);
    for (std::uint32_t i = 0; i < 3 * spec.seq_len; ++i)
      list.push_back(static_cast<std::int32_t>(noise.next() % spread));
    if (in.byte() % 4 == 0) list[in.u16() % list.size()] = in.i32();  // perhaps negative
  } else {
    offset = in.offset(spec.seq_len);
  }
  const posenc::BatchPositions where(posenc::Positions{listed ? list.data() : nullptr, offset});

  posenc::RopeSpec plain = spec;
  plain.mrope = posenc::MropeSpec{};
  const Status plain_status = posenc::check(plain, posenc::Positions{nullptr, 0});
  const std::uint64_t pairs = spec.rotary_dim / 2, t = spec.mrope.section[0], h = spec.mrope.section[1],
                      w = spec.mrope.section[2];
  const bool fits = t + h + w == pairs &&
                    (!spec.mrope.interleaved || ((h == 0 || 3 * h - 2 < pairs) && (w == 0 || 3 * w - 1 < pairs)));
  bool positions_ok = listed || spec.seq_len == 0 || std::int64_t{offset} + spec.seq_len - 1 <= posenc::kMaxPosition;
  for (const std::int32_t p : list) positions_ok = positions_ok && p >= 0;
  const Status checked = posenc::check(spec, where);
  if (plain_status == Status::kOk) {
    const Status want = !fits          ? Status::kMropeSectionInvalid
                        : positions_ok ? Status::kOk
                        : listed       ? Status::kPositionOutOfRange
                                       : Status::kOffsetTooLarge;
    FUZZ_EXPECT(checked == want, "check(mrope) says '%s', the rules '%s'", posenc::status_name(checked),
                posenc::status_name(want));
  } else {
    FUZZ_EXPECT(checked == plain_status || (checked == Status::kMropeSectionInvalid && !fits),
                "check(mrope) says '%s' where plain rope says '%s'", posenc::status_name(checked),
                posenc::status_name(plain_status));
  }

  const std::uint64_t elements = std::uint64_t{spec.seq_len} * spec.num_heads * spec.head_dim;
  if (checked == Status::kOk && elements > kRunElements) return;
  const std::size_t n = checked == Status::kOk ? static_cast<std::size_t>(elements) : 8;
  const std::vector<float> x = in.array<float>(n);
  std::vector<float> out(n, sentinel());
  const Status status = posenc::rope(spec, where, x.data(), out.data());
  FUZZ_EXPECT(status == checked, "rope returned '%s', check() '%s'", posenc::status_name(status),
              posenc::status_name(checked));
  if (status != Status::kOk) {
    FUZZ_EXPECT(untouched(out), "a rejected rope call wrote");
    return;
  }
  if (!(spec.base >= 1.0)) return;  // the contract's range (rope_fuzz covers the rest)
  std::vector<std::vector<std::int64_t>> rows(3, std::vector<std::int64_t>(spec.seq_len));
  for (std::uint32_t a = 0; a < 3; ++a)
    for (std::uint32_t r = 0; r < spec.seq_len; ++r)
      rows[a][r] = listed ? list[a * spec.seq_len + r] : std::int64_t{offset} + r;
  for (std::uint32_t r = 0; r < spec.seq_len; ++r)
    for (std::uint32_t a = 0; a < 3; ++a)
      if (rows[a][r] >= (1 << 24)) return;  // beyond the contract's positions
  std::vector<Turn> turns(pairs);
  for (std::uint64_t k = 0; k < pairs; ++k) {
    std::uint32_t axis = 0;
    if (spec.mrope.interleaved) {
      if (k % 3 == 1 && k < 3 * h) axis = 1;
      if (k % 3 == 2 && k < 3 * w) axis = 2;
    } else {
      axis = k < t ? 0 : k < t + h ? 1 : 2;
    }
    turns[k] = {axis, reference::inverse_frequency(k, spec.rotary_dim, spec.base)};
  }
  expect_rotation(x, out, spec.seq_len, spec.num_heads, spec.head_dim, turns, rows,
                  spec.layout == posenc::RopeLayout::kInterleaved);
}

void fuzz_grid(FuzzInput& in) {
  posenc::RopeGridSpec spec;
  spec.rows = in.size(12);
  spec.cols = in.size(12);
  spec.num_heads = in.size(3);
  spec.head_dim = in.size(kMaxWidth);
  spec.base = in.base();
  spec.variant = static_cast<posenc::RopeGridVariant>(in.enum_value());
  spec.layout = static_cast<posenc::RopeLayout>(in.enum_value());
  spec.order = posenc::RopeOrder::kTokens;
  spec.batch = in.size(2);
  spec.frames = in.size(3);

  Rules rules;
  rules.require(product(spec.rows, spec.cols) <= posenc::kMaxSeqLen, Status::kGridTooLarge);
  rules.require(product(spec.frames, spec.rows, spec.cols) <= posenc::kMaxSeqLen, Status::kGridFramesTooLarge);
  const bool pixtral = spec.variant == posenc::RopeGridVariant::kPixtral;
  const bool axial = spec.variant == posenc::RopeGridVariant::kAxial;
  rules.require(pixtral || axial, Status::kGridVariantInvalid);
  rules.require(spec.head_dim <= posenc::kMaxDim, Status::kHeadDimTooLarge);
  rules.require(spec.head_dim >= 4 && spec.head_dim % (axial ? 4 : 2) == 0, Status::kGridHeadDimInvalid);
  rules.require(spec.num_heads >= 1, Status::kNumHeadsTooSmall);
  rules.require(spec.num_heads <= posenc::kMaxDim, Status::kNumHeadsTooLarge);
  require_base(rules, spec.base);
  rules.require(spec.layout == posenc::RopeLayout::kInterleaved || spec.layout == posenc::RopeLayout::kHalf,
                Status::kLayoutInvalid);
  // Rows of the whole batch; past kMaxSeqLen the element count is not needed (and could overflow).
  const unsigned __int128 tokens = product(spec.frames, spec.rows, spec.cols);
  const unsigned __int128 rows_all = tokens > posenc::kMaxSeqLen ? tokens : tokens * spec.batch;
  const unsigned __int128 elements =
      rows_all > posenc::kMaxSeqLen ? ~static_cast<unsigned __int128>(0) : rows_all * spec.num_heads * spec.head_dim;
  rules.require(rows_all <= posenc::kMaxSeqLen, Status::kBatchTooLarge);
  rules.require(fits(elements), Status::kSizeTooLarge);
  const Status checked = posenc::check(spec);
  rules.expect_agrees("rope_grid", checked);

  if (checked == Status::kOk && elements > kRunElements) return;
  const std::size_t n = checked == Status::kOk ? static_cast<std::size_t>(elements) : 8;
  const std::vector<float> x = in.array<float>(n);
  std::vector<float> out(n, sentinel());
  const Status status = posenc::rope_grid(spec, x.data(), out.data());
  FUZZ_EXPECT(status == checked, "rope_grid returned '%s', check() '%s'", posenc::status_name(status),
              posenc::status_name(checked));
  if (status != Status::kOk) {
    FUZZ_EXPECT(untouched(out), "a rejected rope_grid call wrote");
    return;
  }
  if (!(spec.base >= 1.0)) return;
  // Pixtral: freqs[0::2] by the row, then freqs[1::2] by the column; axial: freqs_x by the
  // column, then freqs_y by the row, at 1 / base^(4j / head_dim).
  const std::uint32_t dim = spec.head_dim;
  std::vector<Turn> turns;
  const auto freq = [&](std::uint32_t step, std::uint32_t j) {
    return std::pow(static_cast<Real>(spec.base), -static_cast<Real>(step * j) / dim);
  };
  if (pixtral) {
    for (std::uint32_t j = 0; j < dim / 2; j += 2) turns.push_back({0, freq(2, j)});
    for (std::uint32_t j = 1; j < dim / 2; j += 2) turns.push_back({1, freq(2, j)});
  } else {
    for (std::uint32_t j = 0; j < dim / 4; ++j) turns.push_back({1, freq(4, j)});
    for (std::uint32_t j = 0; j < dim / 4; ++j) turns.push_back({0, freq(4, j)});
  }
  const std::size_t rows = static_cast<std::size_t>(rows_all);
  std::vector<std::vector<std::int64_t>> where(2);
  for (std::size_t r = 0; r < rows; ++r) {
    const std::size_t p = r % (std::size_t{spec.rows} * spec.cols);
    where[0].push_back(static_cast<std::int64_t>(p / spec.cols));
    where[1].push_back(static_cast<std::int64_t>(p % spec.cols));
  }
  expect_rotation(x, out, rows, spec.num_heads, dim, turns, where, spec.layout == posenc::RopeLayout::kInterleaved);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  if (in.byte() % 2 == 0)
    fuzz_mrope(in);
  else
    fuzz_grid(in);
  return 0;
}
