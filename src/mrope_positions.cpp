#include "posenc/mrope_positions.h"

#include <algorithm>
#include <cmath>

#include "posenc/size_limits.h"

namespace posenc {

namespace {

struct Segment {
  MropeSegmentKind kind;
  std::uint64_t t = 0, h = 0, w = 0;  // text: t tokens; vision: the merged grid (h, w divided by m)
  std::uint64_t time_step = 1;        // Qwen2.5-VL: int(seconds_per_grid) · tokens_per_second (image: 0)
  std::uint64_t tokens() const { return kind == MropeSegmentKind::kText ? t : t * h * w; }
  // The largest offset of an id within the segment (text: n - 1).
  std::uint64_t span() const {
    if (kind == MropeSegmentKind::kText) return t - 1;
    return std::max({(t - 1) * time_step, h - 1, w - 1});
  }
};

bool whole(double v, double lowest, double highest) {
  return std::isfinite(v) && v == std::floor(v) && v >= lowest && v <= highest;
}

// Row i of the table, checked; the grid's h and w already divided by the merge size.
Status read_segment(const MropePositionsSpec& spec, std::uint32_t i, Segment* out) {
  const double* row = spec.segments + static_cast<std::uint64_t>(i) * kMropeSegmentFields;
  const double kind = row[0];
  if (!(kind == 0.0 || kind == 1.0 || kind == 2.0)) return Status::kSegmentKindInvalid;
  Segment s{static_cast<MropeSegmentKind>(static_cast<int>(kind))};
  constexpr double kLimit = kMaxSeqLen;
  if (s.kind == MropeSegmentKind::kText) {
    if (!whole(row[1], 0.0, kLimit)) return Status::kSegmentTextInvalid;
    s.t = static_cast<std::uint64_t>(row[1]);
    *out = s;
    return Status::kOk;
  }
  const double m = spec.spatial_merge_size;
  if (!whole(row[1], 1.0, kLimit)) return Status::kGridTInvalid;
  if (!whole(row[2], 1.0, kLimit) || std::fmod(row[2], m) != 0.0) return Status::kGridHInvalid;
  if (!whole(row[3], 1.0, kLimit) || std::fmod(row[3], m) != 0.0) return Status::kGridWInvalid;
  s.t = static_cast<std::uint64_t>(row[1]);
  s.h = static_cast<std::uint64_t>(row[2] / m);
  s.w = static_cast<std::uint64_t>(row[3] / m);
  const double seconds = row[4];
  if (s.kind == MropeSegmentKind::kVideo && !std::isnan(seconds) && !(std::isfinite(seconds) && seconds >= 0.0))
    return Status::kSecondsPerGridInvalid;
  if (spec.model == MropeModel::kQwen25Vl) {
    if (s.kind == MropeSegmentKind::kImage) {
      s.time_step = 0;  // second_per_grid_t = 0 for images
    } else {
      // torch.as_tensor(second_per_grid_t, dtype=int64): truncated; not given: 1.0.
      const double whole_seconds = std::isnan(seconds) ? 1.0 : std::trunc(seconds);
      const double step = whole_seconds * spec.tokens_per_second;
      if (step > static_cast<double>(kMaxPosition)) {
        s.time_step = static_cast<std::uint64_t>(kMaxPosition) + 1;  // any second frame is out of range
      } else {
        s.time_step = static_cast<std::uint64_t>(step);
      }
    }
  }
  *out = s;
  return Status::kOk;
}

// Walks the segments: visit(segment, start) for each, start = the largest id so far + 1.
template <class Visit>
Status walk(const MropePositionsSpec& spec, std::uint32_t* bad_segment, std::uint64_t* tokens,
            std::uint64_t* next_position, Visit&& visit) {
  if (spec.spatial_merge_size < 1 || spec.spatial_merge_size > kMaxDim) return Status::kSpatialMergeSizeInvalid;
  if (spec.model != MropeModel::kQwen2Vl && spec.model != MropeModel::kQwen25Vl) return Status::kMropeModelInvalid;
  if (spec.segment_count > 0 && spec.segments == nullptr) return Status::kNullPointer;
  std::uint64_t total = 0, next = 0;
  for (std::uint32_t i = 0; i < spec.segment_count; ++i) {
    Segment s{MropeSegmentKind::kText};
    if (const Status status = read_segment(spec, i, &s); status != Status::kOk) {
      *bad_segment = i;
      return status;
    }
    // t, h, w are each at most kMaxSeqLen: t · h is checked before it is multiplied by w.
    const bool too_many = s.kind != MropeSegmentKind::kText && s.t * s.h > kMaxSeqLen;
    const std::uint64_t count = too_many ? std::uint64_t{kMaxSeqLen} + 1 : s.tokens();
    if (count == 0) continue;
    total += count;
    if (total > kMaxSeqLen) {
      *bad_segment = i;
      return Status::kMropeTokensTooMany;
    }
    if (s.span() > static_cast<std::uint64_t>(kMaxPosition) - next) {
      *bad_segment = i;
      return Status::kMropePositionTooLarge;
    }
    visit(s, next);
    next += s.span() + 1;
  }
  *tokens = total;
  *next_position = next;
  return Status::kOk;
}

}  // namespace

Status check(const MropePositionsSpec& spec, std::uint64_t* seq_len, std::uint32_t* bad_segment) {
  std::uint64_t next = 0;
  return walk(spec, bad_segment, seq_len, &next, [](const Segment&, std::uint64_t) {});
}

Status mrope_positions(const MropePositionsSpec& spec, std::int32_t* out, std::uint64_t out_length,
                       std::int64_t* next_position, std::uint32_t* bad_segment) {
  std::uint64_t seq_len = 0;
  if (const Status status = check(spec, &seq_len, bad_segment); status != Status::kOk) return status;
  if (out == nullptr && seq_len > 0) return Status::kNullPointer;
  if (out_length != 3 * seq_len) return Status::kOutLength;
  std::int32_t* t_row = out;
  std::int32_t* h_row = out + seq_len;
  std::int32_t* w_row = out + 2 * seq_len;
  std::uint64_t at = 0, next = 0;
  walk(spec, bad_segment, &seq_len, &next, [&](const Segment& s, std::uint64_t start) {
    if (s.kind == MropeSegmentKind::kText) {
      for (std::uint64_t k = 0; k < s.t; ++k, ++at)
        t_row[at] = h_row[at] = w_row[at] = static_cast<std::int32_t>(start + k);
      return;
    }
    for (std::uint64_t ti = 0; ti < s.t; ++ti)
      for (std::uint64_t hi = 0; hi < s.h; ++hi)
        for (std::uint64_t wi = 0; wi < s.w; ++wi, ++at) {
          t_row[at] = static_cast<std::int32_t>(start + ti * s.time_step);
          h_row[at] = static_cast<std::int32_t>(start + hi);
          w_row[at] = static_cast<std::int32_t>(start + wi);
        }
  });
  *next_position = static_cast<std::int64_t>(next);
  return Status::kOk;
}

}  // namespace posenc
