// Pairing conversion (layout_conversion.h) against Hugging Face's permute of q/k weights,
// written here as the index map of view(n_heads, dim / n_heads / 2, 2, hidden).transpose(1, 2);
// the round trip; and the reason it exists: interleaved RoPE on x equals half RoPE on the
// converted x, converted back (activations), and W_half h equals the converted W_inter h
// (weights), bit for bit. Partial rotary keeps the channels past rotary_dim in place.
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <vector>

#include "posenc/posenc.h"
#include "test_support.h"

namespace {

using posenc::RopeLayout;
using posenc::Status;
using namespace test_support;

posenc::LayoutConversionSpec conversion(std::uint32_t heads, std::uint32_t head_dim, std::uint32_t rotary_dim,
                                        std::uint32_t hidden, RopeLayout from, RopeLayout to) {
  posenc::LayoutConversionSpec spec;
  spec.heads = heads;
  spec.head_dim = head_dim;
  spec.rotary_dim = rotary_dim;
  spec.hidden = hidden;
  spec.from = from;
  spec.to = to;
  return spec;
}

std::vector<float> convert(const std::vector<float>& x, const posenc::LayoutConversionSpec& spec) {
  std::vector<float> out = sentinel_filled(x.size());
  REQUIRE(posenc::convert_layout(spec, x.data(), out.data()) == Status::kOk);
  return out;
}

// Hugging Face's permute(w, n_heads, dim1, dim2): w.view(n_heads, dim1 // n_heads // 2, 2, dim2)
// .transpose(1, 2).reshape(dim1, dim2). The result's element (h, j, i, c) is w's (h, i, j, c).
std::vector<float> hf_permute(const std::vector<float>& w, std::size_t n_heads, std::size_t dim1, std::size_t dim2) {
  const std::size_t half = dim1 / n_heads / 2;
  std::vector<float> out(w.size());
  for (std::size_t h = 0; h < n_heads; ++h)
    for (std::size_t j = 0; j < 2; ++j)
      for (std::size_t i = 0; i < half; ++i)
        for (std::size_t c = 0; c < dim2; ++c)
          out[((h * 2 + j) * half + i) * dim2 + c] = w[((h * half + i) * 2 + j) * dim2 + c];
  return out;
}

posenc::RopeSpec rope_spec(std::uint32_t seq_len, std::uint32_t heads, std::uint32_t head_dim, std::uint32_t rotary_dim,
                           RopeLayout layout) {
  posenc::RopeSpec spec;
  spec.seq_len = seq_len;
  spec.num_heads = heads;
  spec.head_dim = head_dim;
  spec.rotary_dim = rotary_dim;
  spec.layout = layout;
  return spec;
}

}  // namespace

TEST_CASE("weights: interleaved -> half is Hugging Face's permute of Meta's q/k weights", "[conversion]") {
  for (const auto& [heads, head_dim, hidden] :
       {std::tuple{4u, 8u, 5u}, std::tuple{32u, 128u, 3u}, std::tuple{1u, 2u, 7u}}) {
    INFO(heads << " heads of " << head_dim << ", hidden " << hidden);
    const std::vector<float> w = random_floats(std::size_t{heads} * head_dim * hidden, heads + head_dim);
    const std::vector<float> got =
        convert(w, conversion(heads, head_dim, head_dim, hidden, RopeLayout::kInterleaved, RopeLayout::kHalf));
    CHECK(first_difference(got, hf_permute(w, heads, std::size_t{heads} * head_dim, hidden)) == w.size());
    // And back: the inverse permutation.
    const std::vector<float> back =
        convert(got, conversion(heads, head_dim, head_dim, hidden, RopeLayout::kHalf, RopeLayout::kInterleaved));
    CHECK(first_difference(back, w) == w.size());
  }
}

TEST_CASE("same pairing: a copy", "[conversion]") {
  const std::vector<float> x = random_floats(3 * 16, 9);
  for (const RopeLayout layout : {RopeLayout::kInterleaved, RopeLayout::kHalf})
    CHECK(first_difference(convert(x, conversion(3, 16, 10, 1, layout, layout)), x) == x.size());
}

TEST_CASE("interleaved RoPE on x equals half RoPE on the converted x, converted back (full and partial rotary)",
          "[conversion][rope]") {
  for (const auto& [head_dim, rotary_dim] :
       {std::pair{64u, 64u}, std::pair{96u, 24u}, std::pair{80u, 32u}, std::pair{6u, 2u}}) {
    INFO(head_dim << "/" << rotary_dim);
    const std::uint32_t seq_len = 37, heads = 3;
    const std::vector<float> x = random_floats(std::size_t{seq_len} * heads * head_dim, head_dim + rotary_dim);
    std::vector<float> interleaved = x;
    REQUIRE(posenc::rope(rope_spec(seq_len, heads, head_dim, rotary_dim, RopeLayout::kInterleaved), from_offset(3000),
                         interleaved.data(), interleaved.data()) == Status::kOk);
    const auto to_half =
        conversion(seq_len * heads, head_dim, rotary_dim, 1, RopeLayout::kInterleaved, RopeLayout::kHalf);
    const auto to_interleaved =
        conversion(seq_len * heads, head_dim, rotary_dim, 1, RopeLayout::kHalf, RopeLayout::kInterleaved);
    std::vector<float> half = convert(x, to_half);
    REQUIRE(posenc::rope(rope_spec(seq_len, heads, head_dim, rotary_dim, RopeLayout::kHalf), from_offset(3000),
                         half.data(), half.data()) == Status::kOk);
    CHECK(first_difference(convert(half, to_interleaved), interleaved) == x.size());
    // The channels past rotary_dim never move.
    const std::vector<float> moved = convert(x, to_half);
    for (std::size_t v = 0; v < std::size_t{seq_len} * heads; ++v)
      for (std::size_t c = rotary_dim; c < head_dim; ++c)
        CHECK(same_bits(moved[v * head_dim + c], x[v * head_dim + c]));
  }
}

TEST_CASE("converted weights give converted projections: W_half h = convert(W_interleaved h)", "[conversion]") {
  const std::uint32_t heads = 4, head_dim = 16, hidden = 24;
  const std::vector<float> w = random_floats(std::size_t{heads} * head_dim * hidden, 41);
  const std::vector<float> h = random_floats(hidden, 42);
  auto project = [&](const std::vector<float>& weights) {
    std::vector<float> y(std::size_t{heads} * head_dim, 0.0f);
    for (std::size_t r = 0; r < y.size(); ++r)
      for (std::size_t c = 0; c < hidden; ++c) y[r] += weights[r * hidden + c] * h[c];
    return y;
  };
  const std::vector<float> w_half =
      convert(w, conversion(heads, head_dim, head_dim, hidden, RopeLayout::kInterleaved, RopeLayout::kHalf));
  const std::vector<float> y_half =
      convert(project(w), conversion(heads, head_dim, head_dim, 1, RopeLayout::kInterleaved, RopeLayout::kHalf));
  CHECK(first_difference(project(w_half), y_half) == y_half.size());
}

TEST_CASE("pairing conversion rules have their Status; nothing is written on an error", "[conversion][status]") {
  struct Case {
    const char* name;
    posenc::LayoutConversionSpec spec;
    Status want;
  };
  const Case cases[] = {
      {"head_dim 1", conversion(2, 1, 0, 1, RopeLayout::kInterleaved, RopeLayout::kHalf), Status::kHeadDimTooSmall},
      {"head_dim 2^16 + 2", conversion(0, (1u << 16) + 2, 2, 1, RopeLayout::kInterleaved, RopeLayout::kHalf),
       Status::kHeadDimTooLarge},
      {"rotary_dim > head_dim", conversion(2, 8, 10, 1, RopeLayout::kInterleaved, RopeLayout::kHalf),
       Status::kRotaryDimTooLarge},
      {"rotary_dim 0", conversion(2, 8, 0, 1, RopeLayout::kInterleaved, RopeLayout::kHalf), Status::kRotaryDimTooSmall},
      {"rotary_dim odd", conversion(2, 8, 5, 1, RopeLayout::kInterleaved, RopeLayout::kHalf), Status::kRotaryDimOdd},
      {"hidden 0", conversion(2, 8, 8, 0, RopeLayout::kInterleaved, RopeLayout::kHalf), Status::kHiddenTooSmall},
      {"from 3", conversion(2, 8, 8, 1, static_cast<RopeLayout>(3), RopeLayout::kHalf), Status::kLayoutInvalid},
      {"to -1", conversion(2, 8, 8, 1, RopeLayout::kHalf, static_cast<RopeLayout>(-1)), Status::kLayoutInvalid},
      {"2^20 heads of 2^9 x 2^9",
       conversion(1u << 20, 1u << 9, 2, 1u << 9, RopeLayout::kHalf, RopeLayout::kInterleaved), Status::kSizeTooLarge},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    std::vector<float> x(16, 1.0f), out = sentinel_filled(16);
    CHECK(posenc::convert_layout(c.spec, x.data(), out.data()) == c.want);
    CHECK(overwritten(out) == 0);
  }
  CHECK(posenc::convert_layout(conversion(2, 8, 8, 1, RopeLayout::kHalf, RopeLayout::kInterleaved), nullptr, nullptr) ==
        Status::kNullPointer);
  CHECK(posenc::convert_layout(conversion(0, 8, 8, 1, RopeLayout::kHalf, RopeLayout::kInterleaved), nullptr, nullptr) ==
        Status::kOk);
}
