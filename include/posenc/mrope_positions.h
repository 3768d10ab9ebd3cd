// M-RoPE position ids (Qwen2-VL, Qwen2.5-VL): for a prompt of text runs, images and videos,
// the three rows (temporal, height, width) of position ids transformers' get_rope_index gives
// the language model (models/qwen2_vl/modeling_qwen2_vl.py, models/qwen2_5_vl/
// modeling_qwen2_5_vl.py, Qwen2VLModel / Qwen2_5_VLModel.get_rope_index).
//
//   text n         n tokens at s, s + 1, ..., the same id on all three rows
//   image/video    a grid [t, h, w] in patches before the spatial merge: t · (h/m) · (w/m)
//                  tokens, frame-major then row-major, at s + (ti', hi, wi), where ti' is the
//                  frame index ti (Qwen2-VL), or for Qwen2.5-VL ti · int(seconds_per_grid) ·
//                  tokens_per_second for video (seconds_per_grid truncated to an integer, as
//                  transformers' torch.as_tensor(..., dtype=int64) does) and 0 for images
//
// s, where each segment starts, is the largest id so far + 1 (0 for the first). The <|vision_
// start|> / <|vision_end|> tokens around a vision segment are text. next_position, the largest
// id + 1, is what the first generated token gets on all three rows (Hugging Face's
// mrope_position_deltas = next_position - seq_len, added to the cache position while decoding).
//
// The segments arrive as a flat table of float64 rows (kMropeSegmentFields each): kind, then
// text: (tokens, 0, 0); image/video: (t, h, w); then seconds_per_grid (video; NaN: not given,
// 1.0 as in transformers). Plain loops, integer work only.
#pragma once

#include <cstdint>

#include "named_enum.h"
#include "status.h"

namespace posenc {

enum class MropeSegmentKind : int { kText = 0, kImage = 1, kVideo = 2 };
// X(enumerator, JS name), in value order (named_enum.h).
// clang-format off
#define POSENC_MROPE_MODELS(X) \
  X(kQwen2Vl, "qwen2-vl") \
  X(kQwen25Vl, "qwen2.5-vl")
// clang-format on
enum class MropeModel : int { POSENC_MROPE_MODELS(POSENC_ENUMERATOR) };

inline constexpr std::uint32_t kMropeSegmentFields = 5;

struct MropePositionsSpec {
  const double* segments = nullptr;  // segment_count rows of kMropeSegmentFields
  std::uint32_t segment_count = 0;
  std::uint32_t spatial_merge_size = 2;
  MropeModel model = MropeModel::kQwen2Vl;
  std::uint32_t tokens_per_second = 2;  // Qwen2.5-VL's vision_config.tokens_per_second
};

// Every rule; on success *seq_len is the prompt's token count. On an error naming a segment,
// *bad_segment is its index (else untouched).
Status check(const MropePositionsSpec& spec, std::uint64_t* seq_len, std::uint32_t* bad_segment);

// Writes the [3, seq_len] ids into out (out_length = 3 · seq_len elements) and *next_position.
// Checks again; on an error writes nothing but *bad_segment.
Status mrope_positions(const MropePositionsSpec& spec, std::int32_t* out, std::uint64_t out_length,
                       std::int64_t* next_position, std::uint32_t* bad_segment);

}  // namespace posenc
