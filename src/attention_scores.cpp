#include "posenc/attention_scores.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <vector>

#include "kernels/dispatch.h"
#include "posenc/alibi.h"
#include "posenc/relative_position_buckets.h"
#include "posenc/rope_plan.h"
#include "posenc/size_limits.h"
#include "xpos_scale.h"

namespace posenc {

namespace {

bool encoding_valid(AttentionEncoding e) {
  return e == AttentionEncoding::kNone || e == AttentionEncoding::kSinusoidal || e == AttentionEncoding::kRope ||
         e == AttentionEncoding::kAlibi || e == AttentionEncoding::kT5 || e == AttentionEncoding::kXpos;
}

// Encodings that change q and k (rather than add a bias to the scores).
bool encodes_rows(AttentionEncoding e) {
  return e == AttentionEncoding::kSinusoidal || e == AttentionEncoding::kRope || e == AttentionEncoding::kXpos;
}

// Encodings that rotate q and k (xPos is RoPE with a scale).
bool rotates(AttentionEncoding e) { return e == AttentionEncoding::kRope || e == AttentionEncoding::kXpos; }

// One side of the dot products: its role (rotations treat both alike; xPos scales queries up and
// keys down), its rows and where they start.
struct Side {
  XposRole role;
  std::uint32_t rows;
  std::uint32_t first_position;  // checked: encodings that place rows need offset >= 0
};

SinusoidalSpec sinusoidal_spec(const AttentionScoresSpec& spec, std::uint32_t rows) {
  return SinusoidalSpec{rows, spec.head_dim, spec.base, spec.sinusoidal_layout};
}

// One tensor's heads, [num_heads, rows, head_dim] in one RopeSpec (batch 1, order heads). xPos:
// this side's role, and one center for both sides (each would otherwise take its own rows').
RopeSpec rope_spec(const AttentionScoresSpec& spec, const Side& side) {
  const std::uint32_t rows = side.rows;
  RopeSpec r;
  r.seq_len = rows;
  r.num_heads = spec.num_heads;
  r.head_dim = spec.head_dim;
  r.rotary_dim = spec.rotary_dim;
  r.base = spec.base;
  r.layout = spec.rope_layout;
  r.order = RopeOrder::kHeads;
  r.has_partial_rotary_factor = spec.has_partial_rotary_factor;
  r.partial_rotary_factor = spec.partial_rotary_factor;
  r.scaling = spec.scaling;
  if (spec.encoding == AttentionEncoding::kXpos) {
    r.xpos = spec.xpos;
    r.xpos.enabled = true;
    r.xpos.role = side.role;
    if (!spec.xpos.has_center) {
      // The largest position either side holds + 1; offset >= 0 here (check_encoding).
      const std::uint64_t length = std::max<std::uint64_t>(spec.offset + std::uint64_t{spec.query_len}, spec.key_len);
      r.xpos.has_center = true;
      r.xpos.center = static_cast<double>(xpos_center(spec.xpos, length));
    }
  }
  return r;
}

Side query_side(const AttentionScoresSpec& spec) {
  return Side{XposRole::kQuery, spec.query_len, static_cast<std::uint32_t>(std::max<std::int64_t>(spec.offset, 0))};
}
Side key_side(const AttentionScoresSpec& spec) { return Side{XposRole::kKey, spec.key_len, 0}; }

RelativePositionBucketsSpec buckets_spec(const AttentionScoresSpec& spec) {
  RelativePositionBucketsSpec b;
  b.num_buckets = spec.num_buckets;
  b.max_distance = spec.max_distance;
  b.bidirectional = spec.bidirectional;
  return b;
}

// The attention factor of the rotation's schedule (the same at every length).
double rotation_attention_factor(const AttentionScoresSpec& spec) {
  std::uint32_t rotary_dim = 0;
  resolve_rotary_dim(spec.head_dim, spec.rotary_dim, spec.has_partial_rotary_factor, spec.partial_rotary_factor,
                     &rotary_dim);
  return FrequencySchedule(spec.scaling, rotary_dim, spec.base, 0).attention_factor();
}

// xPos: every row of both sides within reach of the shared center (xpos_max_distance()), found
// before any work, as the rotation would find it.
Status check_xpos_reach(const AttentionScoresSpec& spec) {
  const double attention_factor = rotation_attention_factor(spec);
  for (const Side& side : {query_side(spec), key_side(spec)}) {
    const BatchPositions rows(Positions{nullptr, side.first_position});
    std::int64_t center = 0;
    const Status status =
        xpos_call_center(rope_spec(spec, side).xpos, attention_factor, rows, 1, side.rows, 0, &center);
    if (status != Status::kOk) return status;
  }
  return Status::kOk;
}

// The encoding's own rules (its sub-spec's check, for the rows of both sides).
Status check_encoding(const AttentionScoresSpec& spec) {
  switch (spec.encoding) {
    case AttentionEncoding::kNone:
      return Status::kOk;
    case AttentionEncoding::kSinusoidal:
    case AttentionEncoding::kRope:
    case AttentionEncoding::kXpos: {
      if (spec.encoding == AttentionEncoding::kSinusoidal && spec.head_dim % 2 != 0) return Status::kHeadDimOdd;
      if (spec.offset < 0) return Status::kEncodedOffsetNegative;
      const Positions queries{nullptr, static_cast<std::uint32_t>(spec.offset)}, keys{nullptr, 0};
      if (spec.encoding == AttentionEncoding::kSinusoidal) {
        if (const Status s = check(sinusoidal_spec(spec, spec.query_len), queries); s != Status::kOk) return s;
        return check(sinusoidal_spec(spec, spec.key_len), keys);
      }
      if (const Status s = check(rope_spec(spec, query_side(spec)), queries); s != Status::kOk) return s;
      if (const Status s = check(rope_spec(spec, key_side(spec)), keys); s != Status::kOk) return s;
      return spec.encoding == AttentionEncoding::kXpos ? check_xpos_reach(spec) : Status::kOk;
    }
    case AttentionEncoding::kAlibi:
      return check(AlibiSlopesSpec{spec.num_heads, spec.max_bias});
    case AttentionEncoding::kT5: {
      if (spec.bias == nullptr) return Status::kBiasMissing;
      if (const Status s = check(buckets_spec(spec)); s != Status::kOk) return s;
      if (spec.bias_count != std::uint64_t{spec.num_buckets} * spec.num_heads) return Status::kBiasLength;
      return Status::kOk;
    }
  }
  return Status::kEncodingInvalid;
}

}  // namespace

double xpos_reach(const AttentionScoresSpec& spec) {
  return xpos_max_distance(spec.xpos, rotation_attention_factor(spec));
}

Status check(const AttentionScoresSpec& spec) {
  if (spec.num_heads < 1) return Status::kNumHeadsTooSmall;
  if (spec.num_heads > kMaxDim) return Status::kNumHeadsTooLarge;
  if (spec.query_len > kMaxSeqLen) return Status::kQueryLenTooLarge;
  if (spec.key_len > kMaxSeqLen) return Status::kKeyLenTooLarge;
  if (spec.head_dim < 1) return Status::kHeadDimTooSmall;
  if (spec.head_dim > kMaxDim) return Status::kHeadDimTooLarge;
  if (!encoding_valid(spec.encoding)) return Status::kEncodingInvalid;
  if (spec.order != RopeOrder::kTokens && spec.order != RopeOrder::kHeads) return Status::kOrderInvalid;
  if (spec.offset < -kMaxPosition || spec.offset > kMaxPosition) return Status::kAlibiOffsetInvalid;
  if (!std::isfinite(spec.scale)) return Status::kScaleInvalid;
  if (!fits(element_count(spec.num_heads, spec.query_len, spec.head_dim)) ||
      !fits(element_count(spec.num_heads, spec.key_len, spec.head_dim)) ||
      !fits(element_count(spec.num_heads, spec.query_len, spec.key_len)))
    return Status::kSizeTooLarge;
  if (spec.encoding != AttentionEncoding::kT5 && spec.bias != nullptr) return Status::kBiasUnused;
  return check_encoding(spec);
}

namespace {

// A side's rows as the dot products read them: [num_heads, rows, head_dim], the caller's array
// itself or an encoded copy (rows placed by the encoding, or tokens order made heads order).
class EncodedRows {
 public:
  const float* data() const { return data_; }

  Status encode(const AttentionScoresSpec& spec, const Side& side, const float* x) {
    const bool tokens = spec.order == RopeOrder::kTokens;
    if (!tokens && !encodes_rows(spec.encoding)) {
      data_ = x;
      return Status::kOk;
    }
    const std::size_t heads = spec.num_heads, rows = side.rows, dim = spec.head_dim;
    copy_.reset(new (std::nothrow) float[heads * rows * dim]);
    if (!copy_) return Status::kOutOfMemory;
    data_ = copy_.get();
    if (tokens) {  // [rows, heads, dim] -> [heads, rows, dim]
      for (std::size_t h = 0; h < heads; ++h)
        for (std::size_t r = 0; r < rows; ++r)
          std::memcpy(copy_.get() + (h * rows + r) * dim, x + (r * heads + h) * dim, dim * sizeof(float));
    } else {
      std::memcpy(copy_.get(), x, heads * rows * dim * sizeof(float));
    }
    const Positions at{nullptr, side.first_position};
    if (spec.encoding == AttentionEncoding::kSinusoidal) {
      for (std::size_t h = 0; h < heads; ++h)
        if (const Status s = add_sinusoidal(sinusoidal_spec(spec, side.rows), at, copy_.get() + h * rows * dim);
            s != Status::kOk)
          return s;
    } else if (rotates(spec.encoding)) {
      return rotate(spec, side, at);
    }
    return Status::kOk;
  }

 private:
  // Rotated in place by a plan of this side's rows (the shape is the side's; every frequency
  // rule is the spec's; xPos: the side's role and the shared center).
  Status rotate(const AttentionScoresSpec& spec, const Side& side, const Positions& at) {
    RopePlan plan;
    if (const Status s = RopePlan::create(rope_spec(spec, side), spec.num_heads, &plan); s != Status::kOk) return s;
    return plan.apply(at, copy_.get(), copy_.get());
  }

  const float* data_ = nullptr;
  std::unique_ptr<float[]> copy_;
};

// The bias of one head over every relative position n = j − (offset + i) the scores meet, from
// n_min = −(offset + query_len − 1) to key_len − 1 − offset: row i reads the window from
// query_len − 1 − i. Float64 (ALiBi's slope · n is exact there; T5's entries are float32).
class BiasLine {
 public:
  Status prepare(const AttentionScoresSpec& spec) {
    if (spec.encoding != AttentionEncoding::kAlibi && spec.encoding != AttentionEncoding::kT5) return Status::kOk;
    length_ = std::size_t{spec.query_len} + spec.key_len - 1;
    n_min_ = -(spec.offset + static_cast<std::int64_t>(spec.query_len) - 1);
    line_.reset(new (std::nothrow) double[length_]);
    if (!line_) return Status::kOutOfMemory;
    if (spec.encoding == AttentionEncoding::kAlibi) {
      slopes_.reset(new (std::nothrow) double[spec.num_heads]);
      if (!slopes_) return Status::kOutOfMemory;
      return alibi_slopes(AlibiSlopesSpec{spec.num_heads, spec.max_bias}, slopes_.get());
    }
    buckets_.reset(new (std::nothrow) std::int32_t[length_]);
    if (!buckets_) return Status::kOutOfMemory;
    const BucketRuns runs = bucket_runs(buckets_spec(spec));
    for (std::size_t t = 0; t < length_; ++t) buckets_[t] = runs.at(n_min_ + static_cast<std::int64_t>(t));
    return Status::kOk;
  }

  // Fills the line of head h; nullptr when the encoding has no bias.
  const double* head(const AttentionScoresSpec& spec, std::uint32_t h) {
    if (!line_) return nullptr;
    if (spec.encoding == AttentionEncoding::kAlibi) {
      // alibi_bias's float64 product slope · n, before its rounding (n is an exact integer)
      const double slope = slopes_[h], n_min = static_cast<double>(n_min_);
      for (std::size_t t = 0; t < length_; ++t) line_[t] = slope * (n_min + static_cast<double>(t));
    } else {
      for (std::size_t t = 0; t < length_; ++t)
        line_[t] =
            static_cast<double>(spec.bias[std::size_t{static_cast<std::uint32_t>(buckets_[t])} * spec.num_heads + h]);
    }
    return line_.get();
  }

 private:
  std::size_t length_ = 0;
  std::int64_t n_min_ = 0;
  std::unique_ptr<double[]> line_;
  std::unique_ptr<double[]> slopes_;
  std::unique_ptr<std::int32_t[]> buckets_;
};

// Softmax of row[0..n) in place. A row whose maximum is infinite (scores overflowed float32)
// gives its maximal entries equal shares, its limit; a NaN score makes the row NaN, as in torch.
void softmax(float* row, std::size_t n) {
  const float m = kernels::row_max(row, n);
  if (std::isinf(m)) {
    std::size_t ties = 0;
    bool nan = false;
    for (std::size_t j = 0; j < n; ++j) {
      ties += row[j] == m;
      nan = nan || std::isnan(row[j]);
    }
    const float share = nan ? std::numeric_limits<float>::quiet_NaN() : static_cast<float>(1.0 / ties);
    for (std::size_t j = 0; j < n; ++j) row[j] = nan || row[j] == m ? share : 0.0f;
    return;
  }
  const double sum = kernels::exp_shift_sum(row, n, m);  // >= 1: the maximum contributes exp(0)
  kernels::scale_row(row, n, kernels::Scale{1.0 / sum});
}

}  // namespace

Status attention_scores(const AttentionScoresSpec& spec, const float* q, const float* k, float* out) {
  if (const Status status = check(spec); status != Status::kOk) return status;
  const std::size_t rows = spec.query_len, cols = spec.key_len, dim = spec.head_dim;
  if (rows == 0 || cols == 0) return Status::kOk;
  if (q == nullptr || k == nullptr || out == nullptr) return Status::kNullPointer;
  EncodedRows queries, keys;
  if (const Status s = queries.encode(spec, query_side(spec), q); s != Status::kOk) return s;
  if (const Status s = keys.encode(spec, key_side(spec), k); s != Status::kOk) return s;
  BiasLine bias;
  if (const Status s = bias.prepare(spec); s != Status::kOk) return s;
  const float masked = spec.softmax ? 0.0f : -std::numeric_limits<float>::infinity();
  for (std::uint32_t h = 0; h < spec.num_heads; ++h) {
    const double* line = bias.head(spec, h);
    const float* k_head = keys.data() + h * cols * dim;
    for (std::size_t i = 0; i < rows; ++i) {
      float* row = out + (h * rows + i) * cols;
      // Causal: keys up to position offset + i, none when that is negative.
      const std::int64_t last = spec.offset + static_cast<std::int64_t>(i);
      const std::size_t n = !spec.causal ? cols : last < 0 ? 0 : std::min<std::size_t>(cols, last + 1);
      kernels::dot_row(queries.data() + (h * rows + i) * dim, k_head, dim, n, row);
      if (line != nullptr) {
        kernels::scale_add_row(row, n, kernels::ScaleAdd{spec.scale, line + (rows - 1 - i)});
      } else if (spec.scale != 1.0) {
        kernels::scale_row(row, n, kernels::Scale{spec.scale});
      }
      if (spec.softmax && n > 0) softmax(row, n);
      std::fill(row + n, row + cols, masked);
    }
  }
  return Status::kOk;
}

}  // namespace posenc
