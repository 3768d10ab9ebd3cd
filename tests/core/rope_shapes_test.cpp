// rope as models call it: batches whose sequences sit at their own positions (one list for
// all rows, or one offset per sequence), tokens-major and heads-major tensors, queries and keys
// with different head counts in one call (rope_qk), the inverse rotation; against the
// long-double reference, and against each other where they must agree bit for bit.
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "posenc/posenc.h"
#include "precision.h"
#include "reference.h"
#include "test_support.h"

namespace {

using posenc::RopeLayout;
using posenc::RopeOrder;
using posenc::Status;
using reference::Pairing;
using namespace test_support;

struct Shape {
  std::uint32_t batch, seq_len, heads, head_dim, rotary_dim;
  std::size_t size() const { return std::size_t{batch} * seq_len * heads * head_dim; }
};

posenc::RopeSpec spec_of(const Shape& s, RopeLayout layout, RopeOrder order = RopeOrder::kTokens,
                         bool inverse = false) {
  posenc::RopeSpec spec;
  spec.batch = s.batch;
  spec.seq_len = s.seq_len;
  spec.num_heads = s.heads;
  spec.head_dim = s.head_dim;
  spec.rotary_dim = s.rotary_dim;
  spec.layout = layout;
  spec.order = order;
  spec.inverse = inverse;
  return spec;
}

Pairing pairing_of(RopeLayout layout) { return layout == RopeLayout::kHalf ? Pairing::kHalf : Pairing::kInterleaved; }

// Where element (b, t, h, c) of a [batch, seq, heads, dim] or [batch, heads, seq, dim] tensor is.
std::size_t index_of(const Shape& s, RopeOrder order, std::size_t b, std::size_t t, std::size_t h, std::size_t c) {
  if (order == RopeOrder::kTokens) return ((b * s.seq_len + t) * s.heads + h) * s.head_dim + c;
  return ((b * s.heads + h) * s.seq_len + t) * s.head_dim + c;
}

// Tokens-major <-> heads-major.
std::vector<float> reorder(const std::vector<float>& x, const Shape& s, RopeOrder from, RopeOrder to) {
  std::vector<float> out(x.size());
  for (std::size_t b = 0; b < s.batch; ++b)
    for (std::size_t t = 0; t < s.seq_len; ++t)
      for (std::size_t h = 0; h < s.heads; ++h)
        for (std::size_t c = 0; c < s.head_dim; ++c)
          out[index_of(s, to, b, t, h, c)] = x[index_of(s, from, b, t, h, c)];
  return out;
}

// The worst |x' - ref| / (|x_a| + |x_b|) of a tokens-major result, sequence by sequence against
// reference::rope at that sequence's positions (sign -1: the inverse rotation, by negated
// positions), and whether every pass-through channel is a bit-identical copy.
struct ShapeErrors {
  WorstError relative;
  std::size_t passthrough_mismatches = 0;
};

ShapeErrors errors_of(const std::vector<float>& out, const std::vector<float>& x, const Shape& s,
                      const std::vector<std::vector<std::int64_t>>& positions, RopeLayout layout, int sign = 1) {
  ShapeErrors errors;
  const std::size_t per_sequence = std::size_t{s.seq_len} * s.heads * s.head_dim;
  for (std::size_t b = 0; b < s.batch; ++b) {
    const std::vector<float> xs(x.begin() + b * per_sequence, x.begin() + (b + 1) * per_sequence);
    std::vector<std::int64_t> signed_positions = positions[b];
    for (std::int64_t& p : signed_positions) p *= sign;
    const std::vector<reference::Real> want = reference::rope(xs, {s.seq_len, s.heads, s.head_dim, s.rotary_dim},
                                                              signed_positions, 10000.0L, pairing_of(layout));
    for (std::size_t v = 0; v < std::size_t{s.seq_len} * s.heads; ++v) {
      const std::size_t at = b * per_sequence + v * s.head_dim;
      for (std::size_t pair = 0; pair < s.rotary_dim / 2; ++pair) {
        const reference::PairChannels ch = reference::pair_channels(pair, s.rotary_dim, pairing_of(layout));
        const long double scale = std::fabs(x[at + ch.a]) + std::fabs(x[at + ch.b]);
        for (const std::size_t c : {ch.a, ch.b}) {
          const long double error = std::fabs(out[at + c] - want[v * s.head_dim + c]);
          errors.relative.update(scale > 0 ? error / scale : error, at + c);
        }
      }
      for (std::size_t c = s.rotary_dim; c < s.head_dim; ++c)
        errors.passthrough_mismatches += !same_bits(out[at + c], x[at + c]);
    }
  }
  return errors;
}

// Positions of a batch: explicit per row, per-sequence offsets, or one offset for all.
struct BatchWhere {
  std::vector<std::int32_t> list, offsets;
  std::uint32_t offset = 0;
  std::vector<std::vector<std::int64_t>> per_sequence;  // for the reference

  posenc::BatchPositions get() const {
    if (!list.empty()) return posenc::BatchPositions{listed(list)};
    if (!offsets.empty()) return posenc::BatchPositions{from_offset(0), offsets.data()};
    return posenc::BatchPositions{from_offset(offset)};
  }
};

BatchWhere listed_positions(const Shape& s, std::uint32_t seed) {
  BatchWhere w;
  const std::vector<double> r = random_doubles(std::size_t{s.batch} * s.seq_len, seed, 0, 1e6);
  w.per_sequence.resize(s.batch);
  for (std::size_t b = 0; b < s.batch; ++b)
    for (std::size_t t = 0; t < s.seq_len; ++t) {
      // Runs of consecutive positions with jumps, as in KV-cache decoding with padding.
      const std::int32_t p = t % 5 == 0 ? static_cast<std::int32_t>(r[b * s.seq_len + t]) : w.list.back() + 1;
      w.list.push_back(p);
      w.per_sequence[b].push_back(p);
    }
  return w;
}

BatchWhere offset_positions(const Shape& s, std::vector<std::int32_t> offsets) {
  BatchWhere w;
  w.offsets = std::move(offsets);
  for (std::size_t b = 0; b < s.batch; ++b) w.per_sequence.push_back(reference::consecutive(w.offsets[b], s.seq_len));
  return w;
}

BatchWhere shared_offset(const Shape& s, std::uint32_t offset) {
  BatchWhere w;
  w.offset = offset;
  for (std::size_t b = 0; b < s.batch; ++b) w.per_sequence.push_back(reference::consecutive(offset, s.seq_len));
  return w;
}

}  // namespace

TEST_CASE("batches: positions per row, offsets per sequence, a shared offset; both orders and pairings",
          "[rope][shapes]") {
  const Shape shapes[] = {{3, 7, 2, 16, 16}, {2, 130, 3, 64, 24}, {4, 1, 5, 8, 8}, {2, 9, 1, 300, 258}};
  std::uint32_t seed = 1;
  for (const Shape& s : shapes) {
    const BatchWhere wheres[] = {listed_positions(s, seed),
                                 offset_positions(s,
                                                  [&] {
                                                    std::vector<std::int32_t> o;
                                                    for (std::uint32_t b = 0; b < s.batch; ++b)
                                                      o.push_back(static_cast<std::int32_t>(1000 * b + 3 * b * b));
                                                    return o;
                                                  }()),
                                 shared_offset(s, 4090)};
    for (const BatchWhere& where : wheres) {
      for (const RopeLayout layout : {RopeLayout::kInterleaved, RopeLayout::kHalf}) {
        INFO("batch " << s.batch << " seq " << s.seq_len << " heads " << s.heads << " dim " << s.head_dim << "/"
                      << s.rotary_dim << (layout == RopeLayout::kHalf ? " half" : " interleaved")
                      << (where.list.empty() ? (where.offsets.empty() ? " shared offset" : " offsets") : " list"));
        const std::vector<float> x = random_floats(s.size(), seed++);
        std::vector<float> tokens = x;
        REQUIRE(posenc::rope(spec_of(s, layout), where.get(), tokens.data(), tokens.data()) == Status::kOk);
        const ShapeErrors errors = errors_of(tokens, x, s, where.per_sequence, layout);
        CHECK(errors.relative.value <= kRopeBound);
        CHECK(errors.passthrough_mismatches == 0);
        record_precision("batched rope |x' - ref| / (|x_a| + |x_b|)", errors.relative, "(bound: kRopeBound)");

        // Heads-major: the same numbers in the other order, bit for bit, in place and into out.
        const std::vector<float> heads_x = reorder(x, s, RopeOrder::kTokens, RopeOrder::kHeads);
        std::vector<float> heads = heads_x;
        REQUIRE(posenc::rope(spec_of(s, layout, RopeOrder::kHeads), where.get(), heads.data(), heads.data()) ==
                Status::kOk);
        CHECK(first_difference(reorder(heads, s, RopeOrder::kHeads, RopeOrder::kTokens), tokens) == x.size());
        std::vector<float> heads_out = sentinel_filled(x.size());
        REQUIRE(posenc::rope(spec_of(s, layout, RopeOrder::kHeads), where.get(), heads_x.data(), heads_out.data()) ==
                Status::kOk);
        CHECK(first_difference(heads_out, heads) == x.size());
      }
    }
  }
}

TEST_CASE("batch 1 with a Positions behaves as before: rope of one sequence", "[rope][shapes]") {
  const Shape s{1, 33, 2, 12, 12};
  const std::vector<float> x = random_floats(s.size(), 3);
  std::vector<float> a = x, b = x;
  posenc::RopeSpec plain = spec_of(s, RopeLayout::kHalf);
  REQUIRE(posenc::rope(plain, from_offset(17), a.data(), a.data()) == Status::kOk);
  const std::vector<std::int32_t> offsets = {17};
  REQUIRE(posenc::rope(plain, posenc::BatchPositions{from_offset(0), offsets.data()}, b.data(), b.data()) ==
          Status::kOk);
  CHECK(first_difference(a, b) == x.size());
}

TEST_CASE("rope_qk: queries and keys with different head counts equal two separate rope calls", "[rope][shapes]") {
  for (const RopeOrder order : {RopeOrder::kTokens, RopeOrder::kHeads}) {
    for (const RopeLayout layout : {RopeLayout::kInterleaved, RopeLayout::kHalf}) {
      // Llama 3 8B's grouping (32 query heads, 8 key heads) at a smaller head size.
      const Shape q_shape{2, 11, 32, 16, 16}, k_shape{2, 11, 8, 16, 16};
      const BatchWhere where = offset_positions(q_shape, {5, 900});
      const std::vector<float> q = random_floats(q_shape.size(), 11), k = random_floats(k_shape.size(), 12);
      std::vector<float> q_alone = q, k_alone = k;
      REQUIRE(posenc::rope(spec_of(q_shape, layout, order), where.get(), q_alone.data(), q_alone.data()) ==
              Status::kOk);
      REQUIRE(posenc::rope(spec_of(k_shape, layout, order), where.get(), k_alone.data(), k_alone.data()) ==
              Status::kOk);
      std::vector<float> q_out = sentinel_filled(q.size()), k_out = sentinel_filled(k.size());
      REQUIRE(posenc::rope_qk(spec_of(q_shape, layout, order), 8, where.get(), q.data(), q_out.data(), k.data(),
                              k_out.data()) == Status::kOk);
      CHECK(first_difference(q_out, q_alone) == q.size());
      CHECK(first_difference(k_out, k_alone) == k.size());
      std::vector<float> q_in_place = q, k_in_place = k;
      REQUIRE(posenc::rope_qk(spec_of(q_shape, layout, order), 8, where.get(), q_in_place.data(), q_in_place.data(),
                              k_in_place.data(), k_in_place.data()) == Status::kOk);
      CHECK(first_difference(q_in_place, q_alone) == q.size());
      CHECK(first_difference(k_in_place, k_alone) == k.size());
    }
  }
}

TEST_CASE("inverse rotates by -theta: it undoes rope, and re-positions cached keys", "[rope][shapes]") {
  const Shape s{2, 40, 3, 32, 24};
  for (const RopeLayout layout : {RopeLayout::kInterleaved, RopeLayout::kHalf}) {
    INFO((layout == RopeLayout::kHalf ? "half" : "interleaved"));
    const BatchWhere where = listed_positions(s, 21);
    const std::vector<float> x = random_floats(s.size(), 22);
    std::vector<float> back = x;
    REQUIRE(posenc::rope(spec_of(s, layout, RopeOrder::kTokens, true), where.get(), back.data(), back.data()) ==
            Status::kOk);
    const ShapeErrors errors = errors_of(back, x, s, where.per_sequence, layout, -1);
    CHECK(errors.relative.value <= kRopeBound);
    CHECK(errors.passthrough_mismatches == 0);
    record_precision("inverse rope |x' - ref(-theta)| / (|x_a| + |x_b|)", errors.relative, "(bound: kRopeBound)");

    // Undo: rope then inverse gives x back to float32 rounding of two rotations.
    std::vector<float> round_trip = x;
    REQUIRE(posenc::rope(spec_of(s, layout), where.get(), round_trip.data(), round_trip.data()) == Status::kOk);
    REQUIRE(posenc::rope(spec_of(s, layout, RopeOrder::kTokens, true), where.get(), round_trip.data(),
                         round_trip.data()) == Status::kOk);
    for (std::size_t i = 0; i < x.size(); ++i) CHECK(std::fabs(round_trip[i] - x[i]) <= 2e-6f);

    // Keys cached at offset 100 moved to offset 7: inverse at 100, then rope at 7.
    const BatchWhere old_place = shared_offset(s, 100), new_place = shared_offset(s, 7);
    std::vector<float> moved = x, direct = x;
    REQUIRE(posenc::rope(spec_of(s, layout), old_place.get(), moved.data(), moved.data()) == Status::kOk);
    REQUIRE(posenc::rope(spec_of(s, layout, RopeOrder::kTokens, true), old_place.get(), moved.data(), moved.data()) ==
            Status::kOk);
    REQUIRE(posenc::rope(spec_of(s, layout), new_place.get(), moved.data(), moved.data()) == Status::kOk);
    REQUIRE(posenc::rope(spec_of(s, layout), new_place.get(), direct.data(), direct.data()) == Status::kOk);
    for (std::size_t i = 0; i < x.size(); ++i) CHECK(std::fabs(moved[i] - direct[i]) <= 3e-6f);
  }
}

TEST_CASE("empty batches and sequences do nothing and need no arrays", "[rope][shapes]") {
  for (const Shape& s : {Shape{0, 5, 2, 8, 8}, Shape{3, 0, 2, 8, 8}}) {
    CHECK(posenc::rope(spec_of(s, RopeLayout::kHalf), from_offset(0), kNoFloats, kNoFloats) == Status::kOk);
    CHECK(posenc::rope_qk(spec_of(s, RopeLayout::kHalf), 1, from_offset(0), kNoFloats, kNoFloats, kNoFloats,
                          kNoFloats) == Status::kOk);
  }
}

TEST_CASE("the shape rules have their Status; nothing is written on an error", "[rope][shapes][status]") {
  struct Case {
    const char* name;
    posenc::RopeSpec spec;
    std::uint32_t kv_heads;
    std::vector<std::int32_t> offsets;
    Status want;
  };
  const Shape s{2, 3, 2, 8, 8};
  posenc::RopeSpec huge_batch = spec_of(s, RopeLayout::kHalf);
  huge_batch.batch = (1u << 23) + 1;  // times seq_len 2: above 2^24 rows
  huge_batch.seq_len = 2;
  posenc::RopeSpec bad_order = spec_of(s, RopeLayout::kHalf);
  bad_order.order = static_cast<RopeOrder>(7);
  posenc::RopeSpec big_kv = spec_of(s, RopeLayout::kHalf);
  big_kv.seq_len = 1u << 10;
  big_kv.head_dim = 1u << 14;
  big_kv.rotary_dim = 2;
  big_kv.num_heads = 1;
  const Case cases[] = {
      {"batch * seq_len above 2^24", huge_batch, 1, {}, Status::kBatchTooLarge},
      {"order 7", bad_order, 1, {}, Status::kOrderInvalid},
      {"num_kv_heads 0", spec_of(s, RopeLayout::kHalf), 0, {}, Status::kNumKvHeadsTooSmall},
      {"num_kv_heads 2^16 + 1", spec_of(s, RopeLayout::kHalf), (1u << 16) + 1, {}, Status::kNumKvHeadsTooLarge},
      {"keys above 2^28 values", big_kv, 1u << 5, {}, Status::kSizeTooLarge},
      {"an offset negative", spec_of(s, RopeLayout::kHalf), 1, {0, -1}, Status::kOffsetNegative},
      {"an offset + seq_len - 1 above 2^31 - 1",
       spec_of(s, RopeLayout::kHalf),
       1,
       {2147483646, 0},
       Status::kOffsetTooLarge},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const posenc::BatchPositions where = c.offsets.empty() ? posenc::BatchPositions{from_offset(0)}
                                                           : posenc::BatchPositions{from_offset(0), c.offsets.data()};
    std::vector<float> q(64 * 16, 1.25f), k(64 * 16, 1.25f);
    CHECK(posenc::rope_qk(c.spec, c.kv_heads, where, q.data(), q.data(), k.data(), k.data()) == c.want);
    CHECK(first_difference(q, std::vector<float>(q.size(), 1.25f)) == q.size());
    CHECK(first_difference(k, std::vector<float>(k.size(), 1.25f)) == k.size());
    if (c.kv_heads == 1 && c.want != Status::kSizeTooLarge) {
      CHECK(posenc::rope(c.spec, where, q.data(), q.data()) == c.want);
      posenc::RopeCacheSpec cache;
      cache.seq_len = c.spec.seq_len;
      cache.batch = c.spec.batch;
      cache.rotary_dim = 8;
      std::vector<float> cos = sentinel_filled(64), sin = sentinel_filled(64);
      if (c.want != Status::kOrderInvalid) {
        CHECK(posenc::rope_cache(cache, where, cos.data(), sin.data()) == c.want);
        CHECK(overwritten(cos) + overwritten(sin) == 0);
      }
    }
  }
}
