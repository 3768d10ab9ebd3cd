// The operations on half-precision arrays (float16 and bfloat16, the std::uint16_t overloads)
// against the precision contract, bit for bit: a rotation is the float32 overload's result on the
// widened input, rounded once (partial-rotary channels copied as stored); a table is the float64
// reference rounded once; add_sinusoidal is the float32 sum of the widened input and the float32
// table, rounded once. Also: every layout, order, positions form, batch, GQA, partial rotary,
// xPos, M-RoPE, inverse and scaling the float32 path has, head dims with SIMD tails, in place and
// out of place, and the dtype statuses (nothing written on error).
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>

#include <cstdint>
#include <vector>

#include "posenc/posenc.h"
#include "reference.h"
#include "test_support.h"

namespace {

using posenc::Dtype;
using posenc::RopePlan;
using posenc::Status;
using namespace test_support;
using Bits = std::vector<std::uint16_t>;

// A NaN with a payload in both formats, which no operation produces (they make canonical NaNs):
// a buffer filled with it shows what was written.
constexpr std::uint16_t kUnwritten = 0x7F81;

float widen(Dtype dtype, std::uint16_t bits) {
  return dtype == Dtype::kFloat16 ? posenc::half_to_float(bits) : posenc::bfloat16_to_float(bits);
}
std::uint16_t narrow(Dtype dtype, float value) {
  return dtype == Dtype::kFloat16 ? posenc::float_to_half(value) : posenc::float_to_bfloat16(value);
}
std::uint16_t narrow(Dtype dtype, double value) {
  return dtype == Dtype::kFloat16 ? posenc::double_to_half(value) : posenc::double_to_bfloat16(value);
}
// The reference's long double, as the float64 value it stands for, rounded once from there.
std::uint16_t narrow(Dtype dtype, long double value) { return narrow(dtype, static_cast<double>(value)); }

std::vector<float> widened(Dtype dtype, const Bits& bits) {
  std::vector<float> out(bits.size());
  for (std::size_t i = 0; i < bits.size(); ++i) out[i] = widen(dtype, bits[i]);
  return out;
}
template <class Real>
Bits narrowed(Dtype dtype, const std::vector<Real>& values) {
  Bits out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = narrow(dtype, values[i]);
  return out;
}

// Random half values in [-lo, hi], with some of the format's edges mixed in (subnormals, ±0,
// the largest finite values, ±Inf): the rotation must round them exactly as the float32 path.
Bits random_bits(Dtype dtype, std::size_t n, std::uint32_t seed, bool edges = true) {
  Bits bits = narrowed(dtype, random_floats(n, seed, -4.0f, 4.0f));
  if (!edges) return bits;
  const std::uint16_t half_edges[] = {0x0000, 0x8000, 0x0001, 0x83FF, 0x0400, 0x7BFF, 0xFBFF, 0x7C00, 0x3C00};
  const std::uint16_t bf16_edges[] = {0x0000, 0x8000, 0x0001, 0x807F, 0x0080, 0x7F7F, 0xFF7F, 0x7F80, 0x3F80};
  const std::uint16_t* edge = dtype == Dtype::kFloat16 ? half_edges : bf16_edges;
  for (std::size_t i = 0; i < n; i += 37) bits[i] = edge[(i / 37) % 9];
  return bits;
}

std::size_t first_bits_difference(const Bits& a, const Bits& b) {
  if (a.size() != b.size()) return 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return i;
  return a.size();
}

std::size_t written(const Bits& v) {
  std::size_t count = 0;
  for (const std::uint16_t bits : v) count += bits != kUnwritten;
  return count;
}

posenc::RopeSpec rope_spec(std::uint32_t seq_len, std::uint32_t num_heads, std::uint32_t head_dim,
                           posenc::RopeLayout layout, Dtype dtype) {
  posenc::RopeSpec spec;
  spec.seq_len = seq_len;
  spec.num_heads = num_heads;
  spec.head_dim = head_dim;
  spec.rotary_dim = head_dim;
  spec.layout = layout;
  spec.dtype = dtype;
  return spec;
}

posenc::RopeSpec as_float32(posenc::RopeSpec spec) {
  spec.dtype = Dtype::kFloat32;
  return spec;
}

// What a half rotation must give: the float32 rope of the widened input, rounded once; the
// channels from rotary_dim on copied as stored.
Bits expected_rope(const posenc::RopeSpec& spec, const posenc::BatchPositions& positions, const Bits& x,
                   std::size_t rotary_dim) {
  std::vector<float> wide = widened(spec.dtype, x);
  REQUIRE(posenc::rope(as_float32(spec), positions, wide.data(), wide.data()) == Status::kOk);
  Bits want = narrowed(spec.dtype, wide);
  for (std::size_t i = 0; i < x.size(); ++i)
    if (i % spec.head_dim >= rotary_dim) want[i] = x[i];
  return want;
}

// rope() on the half tensor, in place and out of place, against expected_rope().
void check_rope(const posenc::RopeSpec& spec, const posenc::BatchPositions& positions, std::uint32_t seed,
                std::size_t rotary_dim) {
  const std::size_t n = std::size_t{spec.batch} * spec.seq_len * spec.num_heads * spec.head_dim;
  const Bits x = random_bits(spec.dtype, n, seed);
  const Bits want = expected_rope(spec, positions, x, rotary_dim);
  Bits in_place = x, out(n, kUnwritten);
  REQUIRE(posenc::rope(spec, positions, in_place.data(), in_place.data()) == Status::kOk);
  REQUIRE(posenc::rope(spec, positions, x.data(), out.data()) == Status::kOk);
  CHECK(first_bits_difference(in_place, want) == n);
  CHECK(first_bits_difference(out, want) == n);
}

constexpr Dtype kHalfDtypes[] = {Dtype::kFloat16, Dtype::kBfloat16};

}  // namespace

TEST_CASE("half rope: the float32 rotation of the widened input, rounded once, for head dims 2..130", "[half][rope]") {
  const Dtype dtype = GENERATE(Dtype::kFloat16, Dtype::kBfloat16);
  const posenc::RopeLayout layout = GENERATE(posenc::RopeLayout::kInterleaved, posenc::RopeLayout::kHalf);
  const posenc::RopeOrder order = GENERATE(posenc::RopeOrder::kTokens, posenc::RopeOrder::kHeads);
  for (std::uint32_t head_dim = 2; head_dim <= 130; head_dim += 2) {
    INFO("head_dim " << head_dim);
    posenc::RopeSpec spec = rope_spec(5, 3, head_dim, layout, dtype);
    spec.order = order;
    check_rope(spec, from_offset(head_dim * 37), head_dim, head_dim);
  }
}

TEST_CASE("half rope: lists, per-sequence offsets, batches, partial rotary, inverse, scaling", "[half][rope]") {
  const Dtype dtype = GENERATE(Dtype::kFloat16, Dtype::kBfloat16);
  const posenc::RopeLayout layout = GENERATE(posenc::RopeLayout::kInterleaved, posenc::RopeLayout::kHalf);
  posenc::RopeSpec spec = rope_spec(7, 2, 70, layout, dtype);
  spec.batch = 3;
  spec.rotary_dim = 38;  // partial rotary, 19 pairs: tails in every SIMD width
  SECTION("offset") { check_rope(spec, from_offset(100000), 1, 38); }
  SECTION("a list of positions, jumps and repeats") {
    std::vector<std::int32_t> list(3 * 7);
    for (std::size_t i = 0; i < list.size(); ++i) list[i] = static_cast<std::int32_t>((i * 7919) % 5000);
    check_rope(spec, listed(list), 2, 38);
  }
  SECTION("offsets per sequence, heads order") {
    const std::int32_t offsets[] = {0, 40000, 7};
    spec.order = posenc::RopeOrder::kHeads;
    check_rope(spec, posenc::BatchPositions(from_offset(0), offsets), 3, 38);
  }
  SECTION("inverse") {
    spec.inverse = true;
    check_rope(spec, from_offset(12345), 4, 38);
  }
  SECTION("partial_rotary_factor") {
    spec.has_partial_rotary_factor = true;
    spec.partial_rotary_factor = 0.49;
    check_rope(spec, from_offset(3), 5, 34);  // int(70 * 0.49) = 34
  }
  SECTION("yarn scaling (an attention factor on cos/sin)") {
    spec.scaling.type = posenc::RopeScalingType::kYarn;
    spec.scaling.factor = 4.0;
    spec.scaling.original_max_position_embeddings = 4096;
    check_rope(spec, from_offset(9000), 6, 38);
  }
  SECTION("dynamic scaling (the schedule depends on the call's length)") {
    spec.scaling.type = posenc::RopeScalingType::kDynamic;
    spec.scaling.factor = 2.0;
    spec.scaling.original_max_position_embeddings = 64;
    check_rope(spec, from_offset(500), 7, 38);
  }
}

TEST_CASE("half rope: partial-rotary channels are copied as stored, NaN payloads included", "[half][rope]") {
  const Dtype dtype = GENERATE(Dtype::kFloat16, Dtype::kBfloat16);
  posenc::RopeSpec spec = rope_spec(4, 2, 12, posenc::RopeLayout::kHalf, dtype);
  spec.rotary_dim = 8;
  Bits x = random_bits(dtype, 4 * 2 * 12, 9);
  for (std::size_t v = 0; v < 8; ++v) {
    x[v * 12 + 8] = 0x7D01;   // a signalling NaN in float16, finite in bfloat16
    x[v * 12 + 9] = 0xFFC1;   // a quiet NaN with a payload in both
    x[v * 12 + 10] = 0x8000;  // -0
  }
  Bits out(x.size(), kUnwritten);
  REQUIRE(posenc::rope(spec, from_offset(0), x.data(), out.data()) == Status::kOk);
  for (std::size_t i = 0; i < x.size(); ++i)
    if (i % 12 >= 8) CHECK(out[i] == x[i]);
  CHECK(first_bits_difference(out, expected_rope(spec, from_offset(0), x, 8)) == x.size());
}

TEST_CASE("half rope: xPos and M-RoPE rotate as the float32 path does", "[half][rope]") {
  const Dtype dtype = GENERATE(Dtype::kFloat16, Dtype::kBfloat16);
  const posenc::RopeLayout layout = GENERATE(posenc::RopeLayout::kInterleaved, posenc::RopeLayout::kHalf);
  SECTION("xPos, queries and keys") {
    posenc::RopeSpec spec = rope_spec(9, 2, 34, layout, dtype);
    spec.xpos.enabled = true;
    spec.xpos.role = GENERATE(posenc::XposRole::kQuery, posenc::XposRole::kKey);
    check_rope(spec, from_offset(20), 11, 34);
  }
  SECTION("M-RoPE with listed t, h, w rows") {
    posenc::RopeSpec spec = rope_spec(6, 2, 36, layout, dtype);
    spec.batch = 2;
    spec.mrope.enabled = true;
    spec.mrope.section[0] = 6;
    spec.mrope.section[1] = 6;
    spec.mrope.section[2] = 6;
    spec.mrope.interleaved = GENERATE(false, true);
    std::vector<std::int32_t> list(3 * 2 * 6);
    for (std::size_t i = 0; i < list.size(); ++i) list[i] = static_cast<std::int32_t>((i * 31) % 17);
    check_rope(spec, listed(list), 12, 36);
  }
}

TEST_CASE("half rope: a tensor beyond the in-cache size (rotated head by head) keeps the contract", "[half][rope]") {
  const Dtype dtype = GENERATE(Dtype::kFloat16, Dtype::kBfloat16);
  check_rope(rope_spec(40, 32, 128, posenc::RopeLayout::kHalf, dtype), from_offset(1000), 13, 128);  // 320 KiB
  check_rope(rope_spec(40, 32, 128, posenc::RopeLayout::kInterleaved, dtype), from_offset(1000), 14, 128);
}

TEST_CASE("half rope_qk and plans: the float32 results on the widened inputs, rounded once", "[half][rope_plan]") {
  const Dtype dtype = GENERATE(Dtype::kFloat16, Dtype::kBfloat16);
  const posenc::RopeLayout layout = GENERATE(posenc::RopeLayout::kInterleaved, posenc::RopeLayout::kHalf);
  posenc::RopeSpec spec = rope_spec(5, 8, 66, layout, dtype);
  spec.rotary_dim = 50;
  const std::uint32_t kv_heads = 2;  // GQA
  const Bits q = random_bits(dtype, 5 * 8 * 66, 21), k = random_bits(dtype, 5 * 2 * 66, 22);
  std::vector<float> wq = widened(dtype, q), wk = widened(dtype, k);
  REQUIRE(posenc::rope_qk(as_float32(spec), kv_heads, from_offset(77), wq.data(), wq.data(), wk.data(), wk.data()) ==
          Status::kOk);
  Bits want_q = narrowed(dtype, wq), want_k = narrowed(dtype, wk);
  for (std::size_t i = 0; i < q.size(); ++i)
    if (i % 66 >= 50) want_q[i] = q[i];
  for (std::size_t i = 0; i < k.size(); ++i)
    if (i % 66 >= 50) want_k[i] = k[i];

  Bits q_out(q.size(), kUnwritten), k_out(k.size(), kUnwritten);
  REQUIRE(posenc::rope_qk(spec, kv_heads, from_offset(77), q.data(), q_out.data(), k.data(), k_out.data()) ==
          Status::kOk);
  CHECK(first_bits_difference(q_out, want_q) == q.size());
  CHECK(first_bits_difference(k_out, want_k) == k.size());

  RopePlan plan;
  REQUIRE(RopePlan::create(spec, kv_heads, &plan) == Status::kOk);
  Bits q_plan = q, k_plan = k;
  REQUIRE(plan.apply_qk(from_offset(77), q_plan.data(), q_plan.data(), k_plan.data(), k_plan.data()) == Status::kOk);
  CHECK(first_bits_difference(q_plan, want_q) == q.size());
  CHECK(first_bits_difference(k_plan, want_k) == k.size());
  Bits applied = q;
  REQUIRE(plan.apply(from_offset(77), applied.data(), applied.data()) == Status::kOk);
  CHECK(first_bits_difference(applied, want_q) == q.size());

  // Pieces of one sequence (tokens order) with the carried recurrence: one apply()'s bits.
  spec.order = posenc::RopeOrder::kTokens;
  posenc::RopeSpec long_spec = spec;
  long_spec.seq_len = 1100;  // across an anchor
  long_spec.num_heads = 1;
  REQUIRE(RopePlan::create(long_spec, 1, &plan) == Status::kOk);
  const Bits x = random_bits(dtype, 1100 * 66, 23);
  Bits whole = x, pieces = x;
  REQUIRE(plan.apply(from_offset(5), whole.data(), whole.data()) == Status::kOk);
  CHECK(first_bits_difference(whole, expected_rope(long_spec, from_offset(5), x, 50)) == x.size());
  std::vector<double> carry(plan.carry_doubles(), 0.0);
  std::uint32_t row = 0;
  for (const std::uint32_t rows : {1u, 600u, 499u}) {
    std::uint16_t* at = pieces.data() + std::size_t{row} * 66;
    REQUIRE(plan.apply_piece(from_offset(5 + row), rows, at, at, carry.data()) == Status::kOk);
    row += rows;
  }
  CHECK(first_bits_difference(pieces, whole) == x.size());
}

TEST_CASE("half rope_cache: the float64 cos/sin (times the attention factor) rounded once", "[half][rope_cache]") {
  const Dtype dtype = GENERATE(Dtype::kFloat16, Dtype::kBfloat16);
  const bool yarn = GENERATE(false, true);
  posenc::RopeCacheSpec spec;
  spec.seq_len = 1030;    // across an anchor
  spec.rotary_dim = 270;  // 135 pairs: two pair blocks and tails
  spec.batch = 2;
  spec.dtype = dtype;
  if (yarn) {
    spec.scaling.type = posenc::RopeScalingType::kYarn;
    spec.scaling.factor = 8.0;
    spec.scaling.original_max_position_embeddings = 2048;
  }
  const std::int32_t offsets[] = {3, 60000};
  const posenc::BatchPositions positions(from_offset(0), offsets);
  const std::size_t half = 135, n = 2 * 1030 * half;
  Bits cos(n, kUnwritten), sin(n, kUnwritten);
  double factor = 0;
  REQUIRE(posenc::rope_cache(spec, positions, cos.data(), sin.data(), &factor) == Status::kOk);

  posenc::RopeScheduleSpec schedule;
  schedule.rotary_dim = 270;
  schedule.scaling = spec.scaling;
  std::vector<double> inv_freq(half);
  double attention_factor = 0;
  REQUIRE(posenc::rope_schedule(schedule, inv_freq.data(), &attention_factor) == Status::kOk);
  CHECK(factor == attention_factor);
  std::size_t mismatches = 0;
  for (std::size_t b = 0; b < 2; ++b)
    for (std::size_t t = 0; t < 1030; ++t)
      for (std::size_t i = 0; i < half; ++i) {
        reference::Real s = 0, c = 0;
        reference::sin_cos(static_cast<reference::Real>(offsets[b] + static_cast<std::int64_t>(t)) * inv_freq[i], &s,
                           &c);
        const std::size_t at = (b * 1030 + t) * half + i;
        mismatches += cos[at] != narrow(dtype, c * attention_factor);
        mismatches += sin[at] != narrow(dtype, s * attention_factor);
      }
  CHECK(mismatches == 0);
}

TEST_CASE("half sinusoidal_table: the float64 table rounded once, both layouts", "[half][sinusoidal]") {
  const Dtype dtype = GENERATE(Dtype::kFloat16, Dtype::kBfloat16);
  const posenc::SinusoidalLayout layout =
      GENERATE(posenc::SinusoidalLayout::kInterleaved, posenc::SinusoidalLayout::kConcat);
  const auto reference_layout = layout == posenc::SinusoidalLayout::kInterleaved ? reference::TableLayout::kInterleaved
                                                                                 : reference::TableLayout::kConcat;
  for (const std::uint32_t d_model : {2u, 6u, 34u, 262u}) {
    posenc::SinusoidalSpec spec;
    spec.seq_len = 1030;
    spec.d_model = d_model;
    spec.layout = layout;
    spec.dtype = dtype;
    Bits table(std::size_t{spec.seq_len} * d_model, kUnwritten);
    REQUIRE(posenc::sinusoidal_table(spec, from_offset(40000), table.data()) == Status::kOk);
    const Bits want = narrowed(
        dtype, reference::sinusoidal(reference::consecutive(40000, spec.seq_len), d_model, 10000.0, reference_layout));
    CHECK(first_bits_difference(table, want) == table.size());

    // Listed positions: jumps and repeats.
    std::vector<std::int64_t> list(spec.seq_len);
    for (std::size_t i = 0; i < list.size(); ++i) list[i] = static_cast<std::int64_t>((i * 104729) % 70000);
    const std::vector<std::int32_t> list32 = to_int32(list);
    REQUIRE(posenc::sinusoidal_table(spec, listed(list32), table.data()) == Status::kOk);
    CHECK(first_bits_difference(
              table, narrowed(dtype, reference::sinusoidal(list, d_model, 10000.0, reference_layout))) == table.size());
  }
}

TEST_CASE("half add_sinusoidal: the float32 sum on the widened input, rounded once", "[half][sinusoidal]") {
  const Dtype dtype = GENERATE(Dtype::kFloat16, Dtype::kBfloat16);
  const posenc::SinusoidalLayout layout =
      GENERATE(posenc::SinusoidalLayout::kInterleaved, posenc::SinusoidalLayout::kConcat);
  posenc::SinusoidalSpec spec;
  spec.seq_len = 1030;
  spec.d_model = 262;
  spec.layout = layout;
  spec.dtype = dtype;
  const Bits x = random_bits(dtype, std::size_t{spec.seq_len} * spec.d_model, 31);
  std::vector<float> wide = widened(dtype, x);
  posenc::SinusoidalSpec float_spec = spec;
  float_spec.dtype = Dtype::kFloat32;
  REQUIRE(posenc::add_sinusoidal(float_spec, from_offset(9), wide.data()) == Status::kOk);
  Bits sum = x;
  REQUIRE(posenc::add_sinusoidal(spec, from_offset(9), sum.data()) == Status::kOk);
  CHECK(first_bits_difference(sum, narrowed(dtype, wide)) == sum.size());
}

TEST_CASE("half position_numbers: offset + p rounded once", "[half][position_numbers]") {
  const Dtype dtype = GENERATE(Dtype::kFloat16, Dtype::kBfloat16);
  posenc::PositionNumbersSpec spec;
  spec.seq_len = 70000;
  spec.d_model = 3;
  spec.offset = 1000;
  spec.dtype = dtype;
  Bits out(std::size_t{spec.seq_len} * 3, kUnwritten);
  REQUIRE(posenc::position_numbers(spec, out.data()) == Status::kOk);
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < out.size(); ++i) mismatches += out[i] != narrow(dtype, static_cast<double>(1000 + i / 3));
  CHECK(mismatches == 0);
  if (dtype == Dtype::kFloat16) {
    CHECK(out[3 * (2049 - 1000)] == posenc::double_to_half(2048.0));  // 2049 is a tie: to even
    CHECK(out.back() == 0x7C00);                                      // 70999 >= 65520: Inf
  }
}

TEST_CASE("dtype statuses: the other overload is a mismatch, a value outside the enum invalid, nothing written",
          "[half][status]") {
  const Dtype half = GENERATE(Dtype::kFloat16, Dtype::kBfloat16);
  const Dtype invalid = static_cast<Dtype>(GENERATE(3, -1, 99));
  std::vector<float> floats = sentinel_filled(4 * 2 * 8);
  Bits bits(4 * 2 * 8, kUnwritten);
  const auto nothing_written = [&] { return overwritten(floats) == 0 && written(bits) == 0; };

  posenc::RopeSpec rope = rope_spec(4, 2, 8, posenc::RopeLayout::kHalf, half);
  CHECK(posenc::rope(rope, from_offset(0), floats.data(), floats.data()) == Status::kDtypeMismatch);
  CHECK(posenc::rope_qk(rope, 2, from_offset(0), floats.data(), floats.data(), floats.data(), floats.data()) ==
        Status::kDtypeMismatch);
  rope.dtype = Dtype::kFloat32;
  CHECK(posenc::rope(rope, from_offset(0), bits.data(), bits.data()) == Status::kDtypeMismatch);
  CHECK(posenc::rope_qk(rope, 2, from_offset(0), bits.data(), bits.data(), bits.data(), bits.data()) ==
        Status::kDtypeMismatch);
  rope.dtype = invalid;
  CHECK(posenc::rope(rope, from_offset(0), bits.data(), bits.data()) == Status::kDtypeInvalid);
  CHECK(posenc::rope(rope, from_offset(0), floats.data(), floats.data()) == Status::kDtypeInvalid);
  CHECK(posenc::check(rope, from_offset(0)) == Status::kDtypeInvalid);
  RopePlan plan;
  CHECK(RopePlan::create(rope, 2, &plan) == Status::kDtypeInvalid);

  rope.dtype = half;
  REQUIRE(RopePlan::create(rope, 2, &plan) == Status::kOk);
  std::vector<double> carry(plan.carry_doubles(), 0.0);
  CHECK(plan.apply(from_offset(0), floats.data(), floats.data()) == Status::kDtypeMismatch);
  CHECK(plan.apply_qk(from_offset(0), floats.data(), floats.data(), floats.data(), floats.data()) ==
        Status::kDtypeMismatch);
  CHECK(plan.apply_piece(from_offset(0), 4, floats.data(), floats.data(), carry.data()) == Status::kDtypeMismatch);
  rope.dtype = Dtype::kFloat32;
  REQUIRE(RopePlan::create(rope, 2, &plan) == Status::kOk);
  CHECK(plan.apply(from_offset(0), bits.data(), bits.data()) == Status::kDtypeMismatch);
  CHECK(plan.apply_qk(from_offset(0), bits.data(), bits.data(), bits.data(), bits.data()) == Status::kDtypeMismatch);
  CHECK(plan.apply_piece(from_offset(0), 4, bits.data(), bits.data(), carry.data()) == Status::kDtypeMismatch);

  posenc::RopeCacheSpec cache;
  cache.seq_len = 4;
  cache.rotary_dim = 8;
  cache.dtype = half;
  double factor = -1;
  CHECK(posenc::rope_cache(cache, from_offset(0), floats.data(), floats.data(), &factor) == Status::kDtypeMismatch);
  cache.dtype = Dtype::kFloat32;
  CHECK(posenc::rope_cache(cache, from_offset(0), bits.data(), bits.data(), &factor) == Status::kDtypeMismatch);
  cache.dtype = invalid;
  CHECK(posenc::rope_cache(cache, from_offset(0), bits.data(), bits.data(), &factor) == Status::kDtypeInvalid);
  CHECK(factor == -1);

  posenc::SinusoidalSpec table;
  table.seq_len = 4;
  table.d_model = 8;
  table.dtype = half;
  CHECK(posenc::sinusoidal_table(table, from_offset(0), floats.data()) == Status::kDtypeMismatch);
  CHECK(posenc::add_sinusoidal(table, from_offset(0), floats.data()) == Status::kDtypeMismatch);
  table.dtype = Dtype::kFloat32;
  CHECK(posenc::sinusoidal_table(table, from_offset(0), bits.data()) == Status::kDtypeMismatch);
  CHECK(posenc::add_sinusoidal(table, from_offset(0), bits.data()) == Status::kDtypeMismatch);
  table.dtype = invalid;
  CHECK(posenc::sinusoidal_table(table, from_offset(0), bits.data()) == Status::kDtypeInvalid);
  CHECK(posenc::check(table, from_offset(0)) == Status::kDtypeInvalid);

  posenc::PositionNumbersSpec numbers;
  numbers.seq_len = 4;
  numbers.d_model = 8;
  numbers.dtype = half;
  CHECK(posenc::position_numbers(numbers, floats.data()) == Status::kDtypeMismatch);
  numbers.dtype = Dtype::kFloat32;
  CHECK(posenc::position_numbers(numbers, bits.data()) == Status::kDtypeMismatch);
  numbers.dtype = invalid;
  CHECK(posenc::position_numbers(numbers, bits.data()) == Status::kDtypeInvalid);
  CHECK(posenc::check(numbers) == Status::kDtypeInvalid);

  CHECK(nothing_written());
}

TEST_CASE("half operations with no rows write nothing and accept null arrays", "[half][status]") {
  for (const Dtype dtype : kHalfDtypes) {
    posenc::SinusoidalSpec table;
    table.d_model = 8;
    table.dtype = dtype;
    CHECK(posenc::sinusoidal_table(table, from_offset(0), static_cast<std::uint16_t*>(nullptr)) == Status::kOk);
    posenc::RopeSpec rope = rope_spec(0, 2, 8, posenc::RopeLayout::kHalf, dtype);
    CHECK(posenc::rope(rope, from_offset(0), static_cast<const std::uint16_t*>(nullptr),
                       static_cast<std::uint16_t*>(nullptr)) == Status::kOk);
    rope.seq_len = 2;
    CHECK(posenc::rope(rope, from_offset(0), static_cast<const std::uint16_t*>(nullptr),
                       static_cast<std::uint16_t*>(nullptr)) == Status::kNullPointer);
  }
}
