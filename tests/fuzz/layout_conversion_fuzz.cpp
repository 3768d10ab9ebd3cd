// libFuzzer target: converting heads between the two RoPE pairings (layout_conversion.h) on
// fuzzer-chosen shapes, row lengths (activations: 1, weight rows: hidden) and data.
//
// For every input: check() agrees with the documented rules; the function returns what
// check() returned; a rejected call writes nothing. Ok (when small enough to run): out is x
// with channel 2i + j of each head's rotary part moved to j * rotary_dim/2 + i (interleaved to
// half; the reverse for half to interleaved; identity for equal pairings), other channels in
// place, bit for bit; converting back restores x; and for activations, rotating interleaved
// pairs equals converting, rotating half pairs and converting back, bit for bit.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_expect.h"
#include "fuzz_input.h"
#include "posenc/layout_conversion.h"
#include "posenc/rope.h"

namespace {

using namespace fuzz;
using posenc::RopeLayout;
using posenc::Status;

constexpr std::uint32_t kMaxHeads = 6;
constexpr std::uint32_t kMaxWidth = 70;
constexpr std::uint32_t kMaxRowLength = 5;
constexpr std::uint64_t kRunElements = 1 << 14;

// The channel that channel c of the rotary part moves to (documented mapping).
std::size_t moved(std::size_t c, std::size_t rotary_dim, RopeLayout from, RopeLayout to) {
  const std::size_t half = rotary_dim / 2;
  if (from == to || c >= rotary_dim) return c;
  if (from == RopeLayout::kInterleaved) return (c % 2 == 0 ? 0 : half) + c / 2;  // 2i + j -> j half + i
  return c < half ? 2 * c : 2 * (c - half) + 1;                                  // j half + i -> 2i + j
}

Status convert(const posenc::LayoutConversionSpec& spec, const std::vector<float>& x, std::vector<float>& out) {
  return posenc::convert_layout(spec, x.data(), out.data());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  posenc::LayoutConversionSpec spec;
  spec.heads = in.size(kMaxHeads);
  spec.head_dim = in.size(kMaxWidth);
  spec.rotary_dim = in.byte() % 2 == 0 ? spec.head_dim : in.size(kMaxWidth);
  spec.hidden = in.size(kMaxRowLength);
  spec.from = static_cast<RopeLayout>(in.enum_value());
  spec.to = static_cast<RopeLayout>(in.enum_value());

  Rules rules;
  rules.require(spec.head_dim >= 2, Status::kHeadDimTooSmall);
  rules.require(spec.head_dim <= posenc::kMaxDim, Status::kHeadDimTooLarge);
  rules.require(spec.rotary_dim <= spec.head_dim, Status::kRotaryDimTooLarge);
  rules.require(spec.rotary_dim >= 2, Status::kRotaryDimTooSmall);
  rules.require(spec.rotary_dim % 2 == 0, Status::kRotaryDimOdd);
  rules.require(spec.hidden >= 1, Status::kHiddenTooSmall);
  const int from = static_cast<int>(spec.from), to = static_cast<int>(spec.to);
  rules.require((from == 0 || from == 1) && (to == 0 || to == 1), Status::kLayoutInvalid);
  const unsigned __int128 elements = product(spec.heads, spec.head_dim, spec.hidden);
  rules.require(fits(elements), Status::kSizeTooLarge);
  const Status status = posenc::check(spec);
  rules.expect_agrees("layout conversion check", status);
  if (status == Status::kOk && elements > kRunElements) return 0;

  const std::size_t length = static_cast<std::size_t>(elements < kRunElements ? elements : kRunElements);
  const std::vector<float> x = in.array<float>(length);
  std::vector<float> out(length, sentinel());
  const Status got = convert(spec, x, out);
  FUZZ_EXPECT(got == status, "call returned '%s', check() '%s'", posenc::status_name(got), posenc::status_name(status));
  if (status != Status::kOk) {
    FUZZ_EXPECT(untouched(out), "a rejected call ('%s') wrote", posenc::status_name(status));
    return 0;
  }
  const std::size_t head_dim = spec.head_dim, row = spec.hidden;
  for (std::size_t h = 0; h < spec.heads; ++h) {
    for (std::size_t c = 0; c < head_dim; ++c) {
      const std::size_t target = moved(c, spec.rotary_dim, spec.from, spec.to);
      for (std::size_t r = 0; r < row; ++r) {
        const std::size_t at = (h * head_dim + c) * row + r, want_at = (h * head_dim + target) * row + r;
        FUZZ_EXPECT(bits_of(out[want_at]) == bits_of(x[at]),
                    "head %zu channel %zu (row element %zu) is not at channel %zu", h, c, r, target);
      }
    }
  }
  posenc::LayoutConversionSpec back = spec;
  back.from = spec.to;
  back.to = spec.from;
  std::vector<float> restored(length, sentinel());
  FUZZ_EXPECT(convert(back, out, restored) == Status::kOk && same_bits(restored, x),
              "converting back did not restore x");

  // Activations: rope(interleaved) = back(rope(half, converted)), with the same rotations.
  if (row != 1 || spec.from != RopeLayout::kInterleaved || spec.to != RopeLayout::kHalf || spec.heads == 0) return 0;
  posenc::RopeSpec rope;
  rope.seq_len = 1;
  rope.num_heads = spec.heads;
  rope.head_dim = spec.head_dim;
  rope.rotary_dim = spec.rotary_dim;
  const posenc::Positions position{nullptr, in.offset(1)};
  if (posenc::check(rope, position) != Status::kOk) return 0;
  std::vector<float> rotated = x, rotated_half = out, result(length, sentinel());
  rope.layout = RopeLayout::kInterleaved;
  FUZZ_EXPECT(posenc::rope(rope, position, rotated.data(), rotated.data()) == Status::kOk, "rope interleaved failed");
  rope.layout = RopeLayout::kHalf;
  FUZZ_EXPECT(posenc::rope(rope, position, rotated_half.data(), rotated_half.data()) == Status::kOk,
              "rope half failed");
  FUZZ_EXPECT(convert(back, rotated_half, result) == Status::kOk, "converting back failed");
  for (std::size_t i = 0; i < length; ++i) {
    FUZZ_EXPECT(same_value(result[i], rotated[i]), "element %zu: interleaved rotation %.9g, via the half pairing %.9g",
                i, rotated[i], result[i]);
  }
  return 0;
}
