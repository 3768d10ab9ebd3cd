// libFuzzer target: RoPE as models run it (rope.h): batches of sequences at shared, per-sequence
// or explicit positions, tokens-major and heads-major tensors, the inverse rotation, Hugging
// Face's partial_rotary_factor, queries and keys in one call (rope_qk), the batched cache, and
// fuzzed long-context scaling configs (rope_scaling.h).
//
// For every input: check() agrees with the documented rules (for a scaling config other than
// "none" any scaling status is an acceptable refusal: those rules are the scaling tests'
// business); the function returns what check() returned; a rejected call writes nothing. Ok
// (when small enough to run), with inv_freq and the attention factor af from rope_schedule:
//   every pair of every head of every sequence, found by its own index arithmetic, is rotated
//   by (inverse ? -1 : 1) * position * inv_freq_i: its norm becomes af times the input's (within
//   float32 rounding), finite for finite inputs of moderate size, and within
//   5e-7 af (|x_a| + |x_b|) of the long-double rotation where angles stay below 2^24;
//   channels from rotary_dim on pass through bit for bit; inputs are unchanged out of place;
//   the cache holds af cos, af sin of the same angles (2.5e-7 af).
// Buffers have their exact sizes, so AddressSanitizer sees any access past a tensor.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "fuzz_expect.h"
#include "fuzz_input.h"
#include "posenc/rope.h"

namespace {

using namespace fuzz;
using posenc::Status;
using Real = long double;

constexpr std::uint32_t kMaxBatch = 3;
constexpr std::uint32_t kMaxRows = 70;
constexpr std::uint32_t kMaxHeads = 4;
constexpr std::uint32_t kMaxWidth = 66;
constexpr std::uint32_t kMaxListRows = 256;
constexpr std::uint64_t kRunElements = 1 << 14;
constexpr Real kSubnormalSlack = 4 * 0x1p-149L;

constexpr double kFactors[] = {1.0,
                               0.5,
                               0.25,
                               0.75,
                               0.3,
                               0.0,
                               -0.5,
                               1.5,
                               std::numeric_limits<double>::quiet_NaN(),
                               std::numeric_limits<double>::infinity(),
                               1e-10};
constexpr double kScalingValues[] = {1.0,
                                     2.0,
                                     4.0,
                                     8.0,
                                     32.0,
                                     0.5,
                                     0.1,
                                     0.0,
                                     -1.0,
                                     std::numeric_limits<double>::quiet_NaN(),
                                     std::numeric_limits<double>::infinity(),
                                     1e300,
                                     1e-300,
                                     16.0};

template <std::size_t N>
double pick(FuzzInput& in, const double (&table)[N]) {
  const std::uint8_t t = in.byte();
  return t < N ? table[t] : in.f64();
}

// A scaling config: the type (or an invalid one) and every field, fuzzed; longrope's factor
// lists live in `lists` (rotary_dim/2 entries, or a wrong count).
struct DecodedScaling {
  posenc::RopeScaling scaling;
  std::vector<double> short_factor, long_factor;
};

DecodedScaling decode_scaling(FuzzInput& in, std::uint32_t rotary_dim) {
  DecodedScaling d;
  const std::uint8_t type = in.byte();
  if (type % 4 != 0) return d;  // most inputs: no scaling, where every rule is checked exactly
  posenc::RopeScaling& s = d.scaling;
  constexpr int kBadTypes[] = {8, 7, -1, std::numeric_limits<int>::min(), 1000};
  const int kind = type / 4 % 8;  // 0-5 the first types, 7 proportional (6), 6 an invalid type
  s.type = static_cast<posenc::RopeScalingType>(kind < 6 ? kind : kind == 7 ? 6 : kBadTypes[in.byte() % 5]);
  const std::uint8_t flags = in.byte();
  s.has_factor = flags & 1;
  s.has_attention_factor = flags & 2;
  s.truncate = !(flags & 4);
  s.factor = pick(in, kScalingValues);
  s.original_max_position_embeddings = in.size(8192);
  s.max_position_embeddings = in.size(65536);
  s.attention_factor = pick(in, kScalingValues);
  s.beta_fast = pick(in, kScalingValues);
  s.beta_slow = pick(in, kScalingValues);
  s.mscale = pick(in, kScalingValues);
  s.mscale_all_dim = pick(in, kScalingValues);
  s.low_freq_factor = pick(in, kScalingValues);
  s.high_freq_factor = pick(in, kScalingValues);
  s.proportion = s.low_freq_factor;  // proportional's partial_rotary_factor (it reads no llama3 key)
  const std::size_t want = rotary_dim / 2 <= kMaxWidth ? rotary_dim / 2 : 0;
  for (std::vector<double>* list : {&d.short_factor, &d.long_factor}) {
    const std::size_t n = flags & 8 ? in.byte() % 40 : want;
    list->resize(n);
    for (double& v : *list) v = 1.0 + in.byte() / 32.0;  // positive, as real configs
    if (n > 0 && (flags & 16)) {
      const std::size_t index = in.u16() % n;
      (*list)[index] = pick(in, kScalingValues);
    }
  }
  s.short_factor = d.short_factor.data();
  s.long_factor = d.long_factor.data();
  s.short_factor_count = static_cast<std::uint32_t>(d.short_factor.size());
  s.long_factor_count = static_cast<std::uint32_t>(d.long_factor.size());
  return d;
}

// Positions of a batch: one shared offset, one offset per sequence, or one per row.
struct DecodedBatchPositions {
  DecodedPositions shared;            // shared offset, or the whole [batch, seq_len] list
  std::vector<std::int32_t> offsets;  // per sequence
  enum class Kind { kShared, kPerSequence, kList } kind = Kind::kShared;

  posenc::BatchPositions get() const {
    if (kind == Kind::kPerSequence) return posenc::BatchPositions(posenc::Positions{nullptr, 0}, offsets.data());
    return posenc::BatchPositions(shared.positions);
  }

  std::int64_t at(std::size_t b, std::size_t t, std::size_t seq_len) const {
    switch (kind) {
      case Kind::kPerSequence:
        return static_cast<std::int64_t>(offsets[b]) + static_cast<std::int64_t>(t);
      case Kind::kList:
        return shared.at(b * seq_len + t);
      default:
        return shared.at(t);
    }
  }
};

DecodedBatchPositions decode_batch_positions(FuzzInput& in, std::uint32_t batch, std::uint32_t seq_len) {
  DecodedBatchPositions d;
  const std::uint8_t kind = in.byte() % 3;
  const std::uint64_t rows = std::uint64_t{batch} * seq_len;
  if (kind == 1 && batch <= kMaxBatch) {
    d.kind = DecodedBatchPositions::Kind::kPerSequence;
    d.offsets.resize(std::max<std::uint32_t>(batch, 1));  // never a null list
    for (std::int32_t& o : d.offsets) {
      const std::uint8_t t = in.byte();
      o = t < kPositionCount ? kPositions[t] : static_cast<std::int32_t>(in.offset(seq_len));
    }
  } else if (kind == 2 && rows > 0 && rows <= kMaxListRows) {
    d.kind = DecodedBatchPositions::Kind::kList;
    d.shared = in.positions(static_cast<std::uint32_t>(rows), kMaxListRows);
    if (!d.shared.is_list) d.kind = DecodedBatchPositions::Kind::kShared;  // an offset after all
  } else {
    d.shared.positions = posenc::Positions{nullptr, in.offset(seq_len)};
  }
  return d;
}

void require_batch_positions(Rules& rules, const DecodedBatchPositions& p, std::uint32_t batch, std::uint32_t seq_len) {
  using Kind = DecodedBatchPositions::Kind;
  if (p.kind == Kind::kPerSequence) {
    for (std::uint32_t b = 0; b < batch; ++b) {
      rules.require(p.offsets[b] >= 0, Status::kOffsetNegative);
      rules.require(seq_len == 0 || std::int64_t{p.offsets[b]} + seq_len - 1 <= posenc::kMaxPosition,
                    Status::kOffsetTooLarge);
    }
  } else if (p.kind == Kind::kList) {
    require_positions(rules, p.shared, batch * seq_len);
  } else {
    require_positions(rules, p.shared, seq_len);
  }
}

// Statuses a scaling config may be refused with (its own rules, not restated here).
void may_reject_scaling(Rules& rules, const posenc::RopeScaling& s) {
  if (s.type == posenc::RopeScalingType::kNone) return;
  const int type = static_cast<int>(s.type);
  rules.require(type >= 0 && type <= 6, Status::kScalingTypeInvalid);
  if (s.type == posenc::RopeScalingType::kProportional)
    rules.require(s.proportion >= 0.0 && s.proportion <= 1.0, Status::kProportionInvalid);
  for (int code = static_cast<int>(Status::kScalingTypeInvalid); code <= static_cast<int>(Status::kYarnBaseInvalid);
       ++code)
    rules.may_reject(true, static_cast<Status>(code));
  // Configs whose angles or attention factor would overflow (subnormal betas or factor entries,
  // factors near 2^53): the outputs of accepted configs are checked for finiteness instead.
  rules.may_reject(true, Status::kScalingOverflow);
}

// The rotary dimension by the documented rule (Hugging Face's int(head_dim * factor)).
bool resolve(const posenc::RopeSpec& spec, std::uint32_t* rotary_dim) {
  if (!spec.has_partial_rotary_factor) {
    *rotary_dim = spec.rotary_dim;
    return true;
  }
  const double f = spec.partial_rotary_factor;
  if (!(std::isfinite(f) && f > 0 && f <= 1)) return false;
  *rotary_dim = static_cast<std::uint32_t>(std::floor(static_cast<double>(spec.head_dim) * f));
  return *rotary_dim >= 2 && *rotary_dim % 2 == 0;
}

struct Schedule {
  std::vector<double> inv_freq;
  double attention_factor = 1;
};

// inv_freq and the attention factor the core uses for these rows (rope_schedule at the
// current length, largest position + 1).
Schedule schedule_of(const posenc::RopeSpec& spec, std::uint32_t rotary_dim, std::uint64_t length) {
  posenc::RopeScheduleSpec s;
  s.rotary_dim = spec.rotary_dim;
  s.head_dim = spec.head_dim;
  s.has_partial_rotary_factor = spec.has_partial_rotary_factor;
  s.partial_rotary_factor = spec.partial_rotary_factor;
  s.base = spec.base;
  s.scaling = spec.scaling;
  s.seq_len = static_cast<std::uint32_t>(length);
  Schedule schedule;
  schedule.inv_freq.resize(rotary_dim / 2);
  const Status status = posenc::rope_schedule(s, schedule.inv_freq.data(), &schedule.attention_factor);
  FUZZ_EXPECT(status == Status::kOk, "rope_schedule refused a spec rope accepted: '%s'", posenc::status_name(status));
  return schedule;
}

std::uint64_t current_length(const DecodedBatchPositions& p, std::uint32_t batch, std::uint32_t seq_len) {
  if (batch == 0 || seq_len == 0) return 0;  // (a huge batch of empty sequences: no loop over it)
  std::int64_t largest = -1;
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t t = 0; t < seq_len; ++t) largest = std::max(largest, p.at(b, t, seq_len));
  return static_cast<std::uint64_t>(largest + 1);
}

struct Tensor {
  const char* name;
  std::uint32_t heads;
  std::vector<float> original, data, out;  // out empty when rotated in place
  const std::vector<float>& result() const { return out.empty() ? data : out; }
};

void expect_rotated(const posenc::RopeSpec& spec, std::uint32_t rotary_dim, const DecodedBatchPositions& positions,
                    const Schedule& schedule, const Tensor& tensor) {
  const std::size_t batch = spec.batch, seq_len = spec.seq_len, heads = tensor.heads, d = spec.head_dim;
  if (batch == 0 || seq_len == 0) return;
  const std::size_t half = rotary_dim / 2;
  const bool tokens = spec.order == posenc::RopeOrder::kTokens;
  const Real af = schedule.attention_factor, sign = spec.inverse ? -1 : 1;
  bool checkable = true;  // the contract's domain: angles below 2^24
  for (std::size_t i = 0; i < half; ++i) checkable = checkable && std::fabs(schedule.inv_freq[i]) <= 1.0;
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t t = 0; t < seq_len; ++t) checkable = checkable && positions.at(b, t, seq_len) < (1 << 24);
  const std::vector<float>& x = tensor.original;
  const std::vector<float>& out = tensor.result();

  const auto offset_of = [&](std::size_t b, std::size_t t, std::size_t h) {
    return tokens ? ((b * seq_len + t) * heads + h) * d : ((b * heads + h) * seq_len + t) * d;
  };
  for (std::size_t b = 0; b < batch; ++b) {
    for (std::size_t t = 0; t < seq_len; ++t) {
      const std::int64_t p = positions.at(b, t, seq_len);
      for (std::size_t i = 0; i < half; ++i) {
        Real c = 0, s = 0;  // the exact rotation, once per (row, pair) for every head
        if (checkable) {
          const Real theta = sign * static_cast<Real>(p) * schedule.inv_freq[i];
          c = af * std::cos(theta);
          s = af * std::sin(theta);
        }
        const std::size_t ca = spec.layout == posenc::RopeLayout::kInterleaved ? 2 * i : i;
        const std::size_t cb = spec.layout == posenc::RopeLayout::kInterleaved ? 2 * i + 1 : i + half;
        for (std::size_t h = 0; h < heads; ++h) {
          const std::size_t at = offset_of(b, t, h);
          const Real a = x[at + ca], bv = x[at + cb], ra = out[at + ca], rb = out[at + cb];
          if (!std::isfinite(a) || !std::isfinite(bv)) continue;
          const Real scale = std::fabs(a) + std::fabs(bv);
          if (std::fabs(a) <= 1e30L && std::fabs(bv) <= 1e30L && af <= 1e6L) {
            FUZZ_EXPECT(std::isfinite(ra) && std::isfinite(rb),
                        "%s b%zu t%zu h%zu pair %zu: (%.9Lg, %.9Lg) -> (%.9Lg, %.9Lg), position %lld", tensor.name, b,
                        t, h, i, a, bv, ra, rb, static_cast<long long>(p));
          }
          if (!std::isfinite(ra) || !std::isfinite(rb)) continue;
          // af cos, af sin are rounded to float32, where a tiny af can leave only subnormals.
          const Real cos_sin_slack = 2 * 0x1p-149L * scale + kSubnormalSlack;
          const Real norm_change = std::fabs(std::hypot(ra, rb) - af * std::hypot(a, bv));
          FUZZ_EXPECT(norm_change <= 1e-6L * af * scale + cos_sin_slack,
                      "%s b%zu t%zu h%zu pair %zu: norm %.9Lg, want af %.9Lg times %.9Lg", tensor.name, b, t, h, i,
                      std::hypot(ra, rb), af, std::hypot(a, bv));
          if (!checkable) continue;
          const Real bound = 5e-7L * af * scale + cos_sin_slack;
          const Real error = std::max(std::fabs(ra - (a * c - bv * s)), std::fabs(rb - (bv * c + a * s)));
          FUZZ_EXPECT(error <= bound, "%s b%zu t%zu h%zu pair %zu: error %.3Lg above %.3Lg (position %lld, inverse %d)",
                      tensor.name, b, t, h, i, error, bound, static_cast<long long>(p), spec.inverse);
        }
      }
      for (std::size_t h = 0; h < heads; ++h) {
        const std::size_t at = offset_of(b, t, h);
        for (std::size_t ch = rotary_dim; ch < d; ++ch) {
          FUZZ_EXPECT(bits_of(out[at + ch]) == bits_of(x[at + ch]), "%s: pass-through channel %zu changed", tensor.name,
                      ch);
        }
      }
    }
  }
  if (!tensor.out.empty()) FUZZ_EXPECT(same_bits(tensor.data, tensor.original), "%s: input changed", tensor.name);
}

void fuzz_rope(FuzzInput& in, bool qk) {
  posenc::RopeSpec spec;
  spec.batch = in.size(kMaxBatch);
  spec.seq_len = in.size(kMaxRows);
  spec.num_heads = in.size(kMaxHeads);
  const std::uint32_t kv_heads = qk ? in.size(kMaxHeads) : 0;
  spec.head_dim = in.size(kMaxWidth);
  const std::uint8_t flags = in.byte();
  spec.rotary_dim = flags & 1 ? in.size(kMaxWidth) : spec.head_dim;
  spec.has_partial_rotary_factor = flags & 2;
  if (spec.has_partial_rotary_factor) spec.partial_rotary_factor = pick(in, kFactors);
  spec.inverse = flags & 4;
  const bool in_place = flags & 8;
  spec.base = in.base();
  spec.layout = static_cast<posenc::RopeLayout>(in.enum_value());
  spec.order = static_cast<posenc::RopeOrder>(in.enum_value());
  std::uint32_t rotary_dim = 0;
  const bool resolved = resolve(spec, &rotary_dim);
  const DecodedScaling scaling = decode_scaling(in, resolved ? rotary_dim : 0);
  spec.scaling = scaling.scaling;
  const DecodedBatchPositions positions = decode_batch_positions(in, spec.batch, spec.seq_len);

  Rules rules;
  rules.require(spec.seq_len <= posenc::kMaxSeqLen, Status::kSeqLenTooLarge);
  rules.require(spec.num_heads >= 1, Status::kNumHeadsTooSmall);
  rules.require(spec.num_heads <= posenc::kMaxDim, Status::kNumHeadsTooLarge);
  rules.require(spec.head_dim >= 2, Status::kHeadDimTooSmall);
  rules.require(spec.head_dim <= posenc::kMaxDim, Status::kHeadDimTooLarge);
  rules.require(resolved, Status::kPartialRotaryFactorInvalid);
  if (resolved) {
    rules.require(rotary_dim <= spec.head_dim, Status::kRotaryDimTooLarge);
    rules.require(rotary_dim >= 2, Status::kRotaryDimTooSmall);
    rules.require(rotary_dim <= posenc::kMaxDim, Status::kRotaryDimTooLarge);
    rules.require(rotary_dim % 2 == 0, Status::kRotaryDimOdd);
  }
  require_base(rules, spec.base);
  const int layout = static_cast<int>(spec.layout), order = static_cast<int>(spec.order);
  rules.require(layout == 0 || layout == 1, Status::kLayoutInvalid);
  rules.require(order == 0 || order == 1, Status::kOrderInvalid);
  rules.require(product(spec.batch, spec.seq_len) <= posenc::kMaxSeqLen, Status::kBatchTooLarge);
  may_reject_scaling(rules, spec.scaling);
  const unsigned __int128 rows = product(spec.batch, spec.seq_len);
  const unsigned __int128 q_size = rows * spec.num_heads * spec.head_dim, k_size = rows * kv_heads * spec.head_dim;
  rules.require(fits(q_size), Status::kSizeTooLarge);
  if (qk) {
    rules.require(kv_heads >= 1, Status::kNumKvHeadsTooSmall);
    rules.require(kv_heads <= posenc::kMaxDim, Status::kNumKvHeadsTooLarge);
    rules.require(fits(k_size), Status::kSizeTooLarge);
  }
  require_batch_positions(rules, positions, spec.batch, spec.seq_len);
  const posenc::BatchPositions batch_positions = positions.get();
  const Status status = qk ? posenc::check_qk(spec, kv_heads, batch_positions) : posenc::check(spec, batch_positions);
  rules.expect_agrees(qk ? "rope_qk check" : "rope check", status);
  if (status == Status::kOk && q_size + k_size > kRunElements) return;

  const auto capped = [](unsigned __int128 n) { return static_cast<std::size_t>(n < kRunElements ? n : kRunElements); };
  Tensor q{"q", spec.num_heads, {}, in.array<float>(capped(q_size)), {}};
  Tensor k{"k", kv_heads, {}, in.array<float>(capped(k_size)), {}};
  for (Tensor* tensor : {&q, &k}) {
    tensor->original = tensor->data;
    if (!in_place) tensor->out.assign(tensor->data.size(), sentinel());
  }
  float* q_out = in_place ? q.data.data() : q.out.data();
  float* k_out = in_place ? k.data.data() : k.out.data();
  const Status got = qk ? posenc::rope_qk(spec, kv_heads, batch_positions, q.data.data(), q_out, k.data.data(), k_out)
                        : posenc::rope(spec, batch_positions, q.data.data(), q_out);
  FUZZ_EXPECT(got == status, "call returned '%s', check() '%s'", posenc::status_name(got), posenc::status_name(status));
  if (status != Status::kOk) {
    for (const Tensor* tensor : {&q, &k}) {
      FUZZ_EXPECT(same_bits(tensor->data, tensor->original) && untouched(tensor->out),
                  "a rejected call ('%s') wrote into %s", posenc::status_name(status), tensor->name);
    }
    return;
  }
  const Schedule schedule = schedule_of(spec, rotary_dim, current_length(positions, spec.batch, spec.seq_len));
  expect_rotated(spec, rotary_dim, positions, schedule, q);
  if (qk) expect_rotated(spec, rotary_dim, positions, schedule, k);
}

void fuzz_cache(FuzzInput& in) {
  posenc::RopeCacheSpec spec;
  spec.batch = in.size(kMaxBatch);
  spec.seq_len = in.size(kMaxRows);
  spec.rotary_dim = in.size(kMaxWidth);
  spec.base = in.base();
  const DecodedScaling scaling = decode_scaling(in, spec.rotary_dim);
  spec.scaling = scaling.scaling;
  const DecodedBatchPositions positions = decode_batch_positions(in, spec.batch, spec.seq_len);

  Rules rules;
  rules.require(spec.seq_len <= posenc::kMaxSeqLen, Status::kSeqLenTooLarge);
  rules.require(spec.rotary_dim >= 2, Status::kRotaryDimTooSmall);
  rules.require(spec.rotary_dim <= posenc::kMaxDim, Status::kRotaryDimTooLarge);
  rules.require(spec.rotary_dim % 2 == 0, Status::kRotaryDimOdd);
  require_base(rules, spec.base);
  rules.require(product(spec.batch, spec.seq_len) <= posenc::kMaxSeqLen, Status::kBatchTooLarge);
  may_reject_scaling(rules, spec.scaling);
  const std::size_t half = spec.rotary_dim / 2;
  const unsigned __int128 elements = product(spec.batch, spec.seq_len, half);
  rules.require(fits(elements), Status::kSizeTooLarge);
  require_batch_positions(rules, positions, spec.batch, spec.seq_len);
  const posenc::BatchPositions batch_positions = positions.get();
  const Status status = posenc::check(spec, batch_positions);
  rules.expect_agrees("rope_cache check", status);
  if (status == Status::kOk && elements > kRunElements) return;

  const std::size_t length = static_cast<std::size_t>(elements < kRunElements ? elements : kRunElements);
  std::vector<float> cos(length, sentinel()), sin(length, sentinel());
  double attention_factor = -1;
  const Status got = posenc::rope_cache(spec, batch_positions, cos.data(), sin.data(), &attention_factor);
  FUZZ_EXPECT(got == status, "call returned '%s', check() '%s'", posenc::status_name(got), posenc::status_name(status));
  if (status != Status::kOk) {
    FUZZ_EXPECT(untouched(cos) && untouched(sin) && attention_factor == -1, "a rejected call wrote");
    return;
  }
  posenc::RopeSpec as_rope;  // the same schedule, through rope_schedule
  as_rope.rotary_dim = spec.rotary_dim;
  as_rope.base = spec.base;
  as_rope.scaling = spec.scaling;
  const Schedule schedule = schedule_of(as_rope, spec.rotary_dim, current_length(positions, spec.batch, spec.seq_len));
  FUZZ_EXPECT(attention_factor == schedule.attention_factor, "rope_cache attention factor %.17g, schedule %.17g",
              attention_factor, schedule.attention_factor);
  const Real af = attention_factor;
  if (spec.seq_len == 0) return;
  for (std::size_t b = 0; b < spec.batch; ++b) {
    for (std::size_t t = 0; t < spec.seq_len; ++t) {
      const std::int64_t p = positions.at(b, t, spec.seq_len);
      for (std::size_t i = 0; i < half; ++i) {
        const std::size_t at = (b * spec.seq_len + t) * half + i;
        const Real c = cos[at], s = sin[at];
        // af cos and af sin are finite while af is (af above FLT_MAX overflows, rightly).
        if (af > 1e38L) continue;
        FUZZ_EXPECT(
            std::isfinite(c) && std::isfinite(s) && std::fabs(std::hypot(c, s) - af) <= 2.5e-7L * af + kSubnormalSlack,
            "cache b%zu t%zu pair %zu = (%.9Lg, %.9Lg), attention factor %.9Lg, position %lld", b, t, i, c, s, af,
            static_cast<long long>(p));
        if (p >= (1 << 24) || std::fabs(schedule.inv_freq[i]) > 1.0) continue;
        const Real theta = static_cast<Real>(p) * schedule.inv_freq[i];
        const Real error = std::max(std::fabs(c - af * std::cos(theta)), std::fabs(s - af * std::sin(theta)));
        FUZZ_EXPECT(error <= 2.5e-7L * af + kSubnormalSlack, "cache b%zu t%zu pair %zu: error %.3Lg (position %lld)", b,
                    t, i, error, static_cast<long long>(p));
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  switch (in.byte() % 3) {
    case 0:
      fuzz_rope(in, false);
      break;
    case 1:
      fuzz_rope(in, true);
      break;
    default:
      fuzz_cache(in);
      break;
  }
  return 0;
}
