// Tables written in pieces of rows with a carry (table_pieces.h): sinusoidal_table,
// add_sinusoidal and rope_cache cut anywhere (inside a run of consecutive positions, at a jump,
// one row at a time, at the 1024-row anchor and next to it) hold the bits of one call of all the
// rows, for offsets and position lists, both layouts, two pair blocks, float32 and 16-bit storage.
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

#include "posenc/posenc.h"

namespace {

// Cuts of `rows` rows: single rows, pieces ending at and around the 1024-row anchor, a long
// piece across it, then pieces of 37.
std::vector<std::size_t> cuts_of(std::size_t rows) {
  std::vector<std::size_t> cuts;
  for (std::size_t at : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{500}, std::size_t{1023},
                         std::size_t{1024}, std::size_t{1025}, std::size_t{2600}})
    if (at < rows) cuts.push_back(at);
  for (std::size_t at = 2637; at < rows; at += 37) cuts.push_back(at);
  cuts.push_back(rows);
  return cuts;
}

// Consecutive positions from 5, a jump, a repeat, and a run longer than 1024 rows.
std::vector<std::int32_t> jumpy_positions(std::size_t rows) {
  std::vector<std::int32_t> positions(rows);
  for (std::size_t i = 0; i < rows; ++i) {
    const std::int64_t p = i < 700 ? 5 + i : i < 701 ? 9000 : i < 702 ? 9000 : 20000 + i;
    positions[i] = static_cast<std::int32_t>(p);
  }
  return positions;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// The table of `spec` at `offset` or `list`, in one call and in pieces: every cut of cuts_of().
template <class T>
void check_table(posenc::SinusoidalSpec spec, std::uint32_t offset, const std::vector<std::int32_t>* list, bool add) {
  const std::size_t rows = spec.seq_len, d = spec.d_model;
  std::vector<T> whole(rows * d), pieces(rows * d);
  for (std::size_t i = 0; i < whole.size(); ++i) whole[i] = pieces[i] = static_cast<T>(i % 251);  // add's x
  const posenc::Positions all{list ? list->data() : nullptr, offset};
  REQUIRE((add ? posenc::add_sinusoidal(spec, all, whole.data()) : posenc::sinusoidal_table(spec, all, whole.data())) ==
          posenc::Status::kOk);
  std::vector<double> carry(posenc::table_carry_doubles(spec.d_model / 2), 0.0);
  std::size_t first = 0;
  for (const std::size_t end : cuts_of(rows)) {
    posenc::SinusoidalSpec piece = spec;
    piece.seq_len = static_cast<std::uint32_t>(end - first);
    const posenc::Positions where{list ? list->data() + first : nullptr, offset + static_cast<std::uint32_t>(first)};
    T* out = pieces.data() + first * d;
    REQUIRE((add ? posenc::add_sinusoidal(piece, where, out, carry.data())
                 : posenc::sinusoidal_table(piece, where, out, carry.data())) == posenc::Status::kOk);
    first = end;
  }
  CHECK(same_bits(whole, pieces));
}

}  // namespace

TEST_CASE("sinusoidal tables and sums written in pieces hold the bits of one call", "[table_pieces]") {
  const bool add = GENERATE(false, true);
  const bool listed = GENERATE(false, true);
  const auto layout = GENERATE(posenc::SinusoidalLayout::kInterleaved, posenc::SinusoidalLayout::kConcat);
  posenc::SinusoidalSpec spec;
  spec.seq_len = 3000;
  spec.d_model = 300;  // 150 pairs: two blocks of the recurrence
  spec.layout = layout;
  const std::vector<std::int32_t> positions = jumpy_positions(spec.seq_len);
  INFO("add " << add << ", positions listed " << listed << ", layout " << static_cast<int>(layout));
  check_table<float>(spec, 17, listed ? &positions : nullptr, add);
  spec.dtype = GENERATE(posenc::Dtype::kFloat16, posenc::Dtype::kBfloat16);
  check_table<std::uint16_t>(spec, 17, listed ? &positions : nullptr, add);
}

TEST_CASE("rope_cache written in pieces holds the bits of one call", "[table_pieces]") {
  const bool listed = GENERATE(false, true);
  posenc::RopeCacheSpec spec;
  spec.seq_len = 2900;
  spec.rotary_dim = 260;  // 130 pairs: two blocks
  spec.scaling.type = posenc::RopeScalingType::kYarn;
  spec.scaling.has_factor = true;
  spec.scaling.factor = 4.0;
  spec.scaling.original_max_position_embeddings = 2048;
  const std::vector<std::int32_t> positions = jumpy_positions(spec.seq_len);
  const std::size_t half = spec.rotary_dim / 2, n = spec.seq_len * half;
  std::vector<float> cos(n), sin(n), piece_cos(n), piece_sin(n);
  const posenc::Positions all{listed ? positions.data() : nullptr, 3};
  REQUIRE(posenc::rope_cache(spec, all, cos.data(), sin.data()) == posenc::Status::kOk);
  std::vector<double> carry(posenc::table_carry_doubles(static_cast<std::uint32_t>(half)), 0.0);
  std::size_t first = 0;
  for (const std::size_t end : cuts_of(spec.seq_len)) {
    posenc::RopeCacheSpec piece = spec;
    piece.seq_len = static_cast<std::uint32_t>(end - first);
    const posenc::Positions where{listed ? positions.data() + first : nullptr, 3 + static_cast<std::uint32_t>(first)};
    REQUIRE(posenc::rope_cache(piece, where, piece_cos.data() + first * half, piece_sin.data() + first * half, nullptr,
                               carry.data()) == posenc::Status::kOk);
    first = end;
  }
  CHECK(same_bits(cos, piece_cos));
  CHECK(same_bits(sin, piece_sin));
}

TEST_CASE("rope_cache pieces of a schedule that goes by the length, told the call's length, hold one call's bits",
          "[table_pieces]") {
  const bool longrope = GENERATE(false, true);
  posenc::RopeCacheSpec spec;
  spec.seq_len = 2900;
  spec.rotary_dim = 64;
  std::vector<double> short_factor(32), long_factor(32);
  for (std::size_t i = 0; i < 32; ++i) {
    short_factor[i] = 1.0 + 0.01 * static_cast<double>(i);
    long_factor[i] = 1.5 + 0.1 * static_cast<double>(i);
  }
  spec.scaling.type = longrope ? posenc::RopeScalingType::kLongrope : posenc::RopeScalingType::kDynamic;
  spec.scaling.factor = 2.0;
  spec.scaling.original_max_position_embeddings = 1024;  // below the call's length: the schedule moves
  spec.scaling.max_position_embeddings = 4096;
  spec.scaling.short_factor = short_factor.data();
  spec.scaling.long_factor = long_factor.data();
  spec.scaling.short_factor_count = spec.scaling.long_factor_count = 32;
  const std::size_t half = 32, n = spec.seq_len * half;
  std::vector<float> cos(n), sin(n), piece_cos(n), piece_sin(n);
  REQUIRE(posenc::rope_cache(spec, posenc::Positions{nullptr, 3}, cos.data(), sin.data()) == posenc::Status::kOk);
  std::vector<double> carry(posenc::table_carry_doubles(32), 0.0);
  std::size_t first = 0;
  for (const std::size_t end : cuts_of(spec.seq_len)) {
    posenc::RopeCacheSpec piece = spec;
    piece.seq_len = static_cast<std::uint32_t>(end - first);
    const posenc::Positions where{nullptr, 3 + static_cast<std::uint32_t>(first)};
    REQUIRE(posenc::rope_cache(piece, where, piece_cos.data() + first * half, piece_sin.data() + first * half, nullptr,
                               carry.data(), 3 + spec.seq_len) == posenc::Status::kOk);
    first = end;
  }
  CHECK(same_bits(cos, piece_cos));
  CHECK(same_bits(sin, piece_sin));
}

TEST_CASE("a rope_cache piece is of one sequence; one of a schedule that goes by the length is told the length",
          "[table_pieces]") {
  posenc::RopeCacheSpec spec;
  spec.seq_len = 4;
  spec.rotary_dim = 8;
  std::vector<float> cos(2 * 4 * 4), sin(2 * 4 * 4);
  std::vector<double> carry(posenc::table_carry_doubles(4), 0.0);
  spec.batch = 2;
  CHECK(posenc::rope_cache(spec, posenc::Positions{}, cos.data(), sin.data(), nullptr, carry.data()) ==
        posenc::Status::kBatchTooLarge);
  spec.batch = 1;
  spec.scaling.type = posenc::RopeScalingType::kDynamic;
  spec.scaling.has_factor = true;
  spec.scaling.factor = 2.0;
  spec.scaling.original_max_position_embeddings = 2048;
  CHECK(posenc::rope_cache(spec, posenc::Positions{}, cos.data(), sin.data(), nullptr, carry.data()) ==
        posenc::Status::kScalingTypeInvalid);
}
