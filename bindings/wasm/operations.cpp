#include "operations.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <type_traits>

#include "posenc/posenc.h"

namespace posenc::bindings {

namespace {

// ---- reading slots ----------------------------------------------------------------------------

template <class T>
T* address_of(double slot) {
  return reinterpret_cast<T*>(static_cast<std::uintptr_t>(slot));
}

// The JS layer sends integers in [0, 2^32); anything else saturates, so the core's limits refuse it.
std::uint32_t u32(double slot) { return slot >= 0.0 && slot <= 4294967295.0 ? static_cast<std::uint32_t>(slot) : ~0u; }

template <class Enum>
Enum enum_of(double slot) {
  return static_cast<Enum>(static_cast<int>(u32(slot)));  // out-of-range values fail the core's enum checks
}

bool flag(double slot) { return slot != 0.0; }

// A signed integer slot as it is; anything else (a fraction, NaN, beyond 2^53) as INT64_MIN,
// outside every range the core accepts.
std::int64_t signed_integer(double slot) {
  const bool integral = slot == slot && std::fabs(slot) <= 0x1p53 && std::trunc(slot) == slot;
  return integral ? static_cast<std::int64_t>(slot) : INT64_MIN;
}

template <class Operands>
Positions positions_of(const Operands& f) {
  return Positions{address_of<const std::int32_t>(f.positions), u32(f.offset)};
}

template <class Operands>
BatchPositions batch_positions_of(const Operands& f) {
  return BatchPositions{positions_of(f), address_of<const std::int32_t>(f.offsets)};
}

// The slots of a scaling config in slot order: bit ScalingSlot::x of scalingGiven is x's.
#define POSENC_SCALING_SLOT(name) name,
enum class ScalingSlot : unsigned { POSENC_OPERANDS_SCALING(POSENC_SCALING_SLOT) };
#undef POSENC_SCALING_SLOT

template <class Operands>
RopeScaling scaling_of(const Operands& f) {
  const std::uint32_t given_bits = u32(f.scalingGiven);
  const auto given = [given_bits](ScalingSlot slot) { return ((given_bits >> static_cast<unsigned>(slot)) & 1u) != 0; };
  RopeScaling s;  // its defaults stand for what was not given
  s.type = enum_of<RopeScalingType>(f.scalingType);
  s.has_factor = given(ScalingSlot::factor);
  if (s.has_factor) s.factor = f.factor;
  s.has_attention_factor = given(ScalingSlot::attentionFactor);
  if (s.has_attention_factor) s.attention_factor = f.attentionFactor;
  if (given(ScalingSlot::originalMaxPositionEmbeddings))
    s.original_max_position_embeddings = u32(f.originalMaxPositionEmbeddings);
  if (given(ScalingSlot::maxPositionEmbeddings)) s.max_position_embeddings = u32(f.maxPositionEmbeddings);
  if (given(ScalingSlot::betaFast)) s.beta_fast = f.betaFast;
  if (given(ScalingSlot::betaSlow)) s.beta_slow = f.betaSlow;
  if (given(ScalingSlot::mscale)) s.mscale = f.mscale;
  if (given(ScalingSlot::mscaleAllDim)) s.mscale_all_dim = f.mscaleAllDim;
  if (given(ScalingSlot::truncate)) s.truncate = flag(f.truncate);
  if (given(ScalingSlot::lowFreqFactor)) s.low_freq_factor = f.lowFreqFactor;
  if (given(ScalingSlot::highFreqFactor)) s.high_freq_factor = f.highFreqFactor;
  if (given(ScalingSlot::scalingPartialRotaryFactor)) s.proportion = f.scalingPartialRotaryFactor;
  s.short_factor = address_of<const double>(f.shortFactor);
  s.short_factor_count = u32(f.shortFactorLength);
  s.long_factor = address_of<const double>(f.longFactor);
  s.long_factor_count = u32(f.longFactorLength);
  return s;
}

// The POSENC_OPERANDS_XPOS slots of an operation's operands.
template <class Operands>
XposSpec xpos_of(const Operands& f) {
  XposSpec xpos;
  xpos.enabled = flag(f.xpos);
  if (xpos.enabled) {
    xpos.scale_base = f.xposScaleBase;
    xpos.gamma = f.xposGamma;
    xpos.has_center = flag(f.xposHasCenter);
    xpos.center = f.xposCenter;
  }
  xpos.role = enum_of<XposRole>(f.xposRole);
  return xpos;
}

template <class Operands>
RopeSpec rope_spec_of(const Operands& f) {
  RopeSpec spec;
  spec.seq_len = u32(f.seqLen);
  spec.num_heads = u32(f.numHeads);
  spec.head_dim = u32(f.headDim);
  spec.rotary_dim = u32(f.rotaryDim);
  spec.has_partial_rotary_factor = flag(f.hasPartialRotaryFactor);
  spec.partial_rotary_factor = f.partialRotaryFactor;
  spec.base = f.base;
  spec.layout = enum_of<RopeLayout>(f.layout);
  spec.batch = u32(f.batch);
  spec.order = enum_of<RopeOrder>(f.order);
  spec.inverse = flag(f.inverse);
  spec.scaling = scaling_of(f);
  spec.xpos = xpos_of(f);
  spec.mrope.enabled = flag(f.mrope);
  spec.mrope.section[0] = u32(f.mropeSectionT);
  spec.mrope.section[1] = u32(f.mropeSectionH);
  spec.mrope.section[2] = u32(f.mropeSectionW);
  spec.mrope.interleaved = flag(f.mropeInterleaved);
  spec.dtype = enum_of<Dtype>(f.dtype);
  return spec;
}

// Calls body with a value of the arrays' element type of `dtype`: 16-bit patterns for the half
// types, float otherwise (a value outside the enum takes float, and the core's check refuses it).
// An address slot is just an address: the dtype alone says what it points at.
template <class Body>
int with_element(Dtype dtype, Body&& body) {
  if (dtype == Dtype::kFloat16 || dtype == Dtype::kBfloat16) return body(std::uint16_t{});
  return body(float{});
}

// ---- lengths and outputs ----------------------------------------------------------------------

// An array of the call: `given` elements, `wanted` by the (checked) shape. On a mismatch the
// operands' expectedLength receives what was wanted, for the JS layer's message.
template <class Operands>
Status check_length(Operands& f, double given, std::uint64_t wanted, Status wrong) {
  if (given == static_cast<double>(wanted)) return Status::kOk;
  f.expectedLength = static_cast<double>(wanted);
  return wrong;
}

// A list of positions, where the operands give one: one per row of the batch on each axis
// (M-RoPE's three).
template <class Operands>
Status check_positions_length(Operands& f, std::uint32_t batch, std::uint32_t seq_len, std::uint32_t axes = 1) {
  if (f.positions == 0.0) return Status::kOk;
  return check_length(f, f.positionsLength, std::uint64_t{axes} * batch * seq_len, Status::kPositionsLength);
}

// Positions or per-sequence offsets, where the operands give them.
template <class Operands>
Status check_batch_positions_length(Operands& f, std::uint32_t batch, std::uint32_t seq_len, std::uint32_t axes = 1) {
  if (const Status s = check_positions_length(f, batch, seq_len, axes); s != Status::kOk) return s;
  if (f.offsets == 0.0) return Status::kOk;
  return check_length(f, f.offsetsLength, batch, Status::kOffsetsLength);
}

// The outputs a call allocates (a length slot of -1 asks for one): freed again unless the call
// succeeds, when the JS layer takes them over.
class Outputs {
 public:
  Outputs() = default;
  Outputs(const Outputs&) = delete;
  Outputs& operator=(const Outputs&) = delete;
  ~Outputs() {
    for (int i = 0; i < count_; ++i) {
      std::free(blocks_[i]);
      *slots_[i] = 0.0;
    }
  }

  // A new block of `count` elements of T for the output in `slot`, its length in `length`.
  template <class T>
  Status allocate(double& slot, double& length, std::uint64_t count, T** out) {
    void* block = std::malloc(count == 0 ? 1 : static_cast<std::size_t>(count) * sizeof(T));
    if (block == nullptr) return Status::kOutOfMemory;
    blocks_[count_] = block;
    slots_[count_++] = &slot;
    slot = static_cast<double>(reinterpret_cast<std::uintptr_t>(block));
    length = static_cast<double>(count);
    *out = static_cast<T*>(block);
    return Status::kOk;
  }

  // The status of the computation; on success the blocks are the JS layer's.
  Status finish(Status status) {
    if (status == Status::kOk) count_ = 0;
    return status;
  }

 private:
  void* blocks_[2] = {};
  double* slots_[2] = {};
  int count_ = 0;
};

// The output in `slot`: the caller's array (its length checked against `wanted`) or, when its
// length slot is -1, a new one.
template <class Operands, class T>
Status output(Operands& f, Outputs& outputs, double& slot, double& length, std::uint64_t wanted, Status wrong,
              T** out) {
  if (length < 0.0) return outputs.allocate(slot, length, wanted, out);
  *out = address_of<T>(slot);
  return check_length(f, length, wanted, wrong);
}

int result(Status status) { return static_cast<int>(status); }

// The carry of a table written in pieces (table_pieces.h), where the operands give one: null
// otherwise; a carry of the wrong length is refused before anything is written.
template <class Operands>
Status table_carry(Operands& f, std::uint32_t pairs, double** carry) {
  *carry = address_of<double>(f.carry);
  if (f.carry == 0.0) return Status::kOk;
  return check_length(f, f.carryLength, table_carry_doubles(pairs), Status::kNullPointer);
}

// Early returns of the operations below: a non-ok status ends the call.
#define POSENC_TRY(expression)                                       \
  if (const Status status_ = (expression); status_ != Status::kOk) { \
    return result(status_);                                          \
  }

// The status of a plan's rotation; on an xPos distance error, expectedLength receives the
// largest distance from the center allowed, for the JS layer's message.
template <class Operands>
int rotated(const RopePlan& plan, Operands& f, Status status) {
  if (status == Status::kXposDistanceTooLarge)
    f.expectedLength = xpos_max_distance(plan.spec().xpos, plan.attention_factor());
  return result(status);
}

// The rope and rope_qk calls of a made plan on arrays of T (float, or 16-bit patterns), with
// every array's length checked.
template <class Operands, class T>
int apply_plan_to(const RopePlan& plan, Operands& f, T) {
  const RopeSpec& spec = plan.spec();
  POSENC_TRY(check_batch_positions_length(f, spec.batch, spec.seq_len, spec.mrope.enabled ? 3 : 1));
  const BatchPositions where = batch_positions_of(f);
  const std::uint64_t rows = std::uint64_t{spec.batch} * spec.seq_len;
  const std::uint64_t queries = rows * spec.num_heads * spec.head_dim;
  if constexpr (std::is_same_v<Operands, operands::ropeQK> || std::is_same_v<Operands, operands::ropePlanApplyQK>) {
    const std::uint64_t keys = rows * plan.num_kv_heads() * spec.head_dim;
    POSENC_TRY(check_length(f, f.qLength, queries, Status::kQLength));
    POSENC_TRY(check_length(f, f.outQLength, queries, Status::kOutQLength));
    POSENC_TRY(check_length(f, f.kLength, keys, Status::kKLength));
    POSENC_TRY(check_length(f, f.outKLength, keys, Status::kOutKLength));
    return rotated(plan, f,
                   plan.apply_qk(where, address_of<const T>(f.q), address_of<T>(f.outQ), address_of<const T>(f.k),
                                 address_of<T>(f.outK)));
  } else {
    POSENC_TRY(check_length(f, f.xLength, queries, Status::kXLength));
    POSENC_TRY(check_length(f, f.outLength, queries, Status::kOutLength));
    return rotated(plan, f,
                   plan.apply(where, address_of<const T>(f.x), address_of<T>(f.out), enum_of<XposRole>(f.xposRole)));
  }
}

// The same on the arrays of the plan's dtype.
template <class Operands>
int apply_plan(const RopePlan& plan, Operands& f) {
  return with_element(plan.spec().dtype, [&](auto element) { return apply_plan_to(plan, f, element); });
}

}  // namespace

// The SinusoidalSpec of a sinusoidal or addSinusoidal call's operands.
template <class Operands>
SinusoidalSpec sinusoidal_spec_of(const Operands& f) {
  return SinusoidalSpec{u32(f.seqLen), u32(f.dModel), f.base, enum_of<SinusoidalLayout>(f.layout),
                        enum_of<Dtype>(f.dtype)};
}

int sinusoidal(operands::sinusoidal& f) {
  const SinusoidalSpec spec = sinusoidal_spec_of(f);
  const Positions where = positions_of(f);
  POSENC_TRY(check_positions_length(f, 1, spec.seq_len));  // before the core reads the list
  POSENC_TRY(check(spec, where));
  double* carry = nullptr;
  POSENC_TRY(table_carry(f, spec.d_model / 2, &carry));
  return with_element(spec.dtype, [&](auto element) {
    Outputs outputs;
    decltype(element)* out = nullptr;
    POSENC_TRY(
        output(f, outputs, f.out, f.outLength, element_count(spec.seq_len, spec.d_model), Status::kOutLength, &out));
    return result(outputs.finish(sinusoidal_table(spec, where, out, carry)));
  });
}

int addSinusoidal(operands::addSinusoidal& f) {
  const SinusoidalSpec spec = sinusoidal_spec_of(f);
  const Positions where = positions_of(f);
  POSENC_TRY(check_positions_length(f, 1, spec.seq_len));  // before the core reads the list
  POSENC_TRY(check(spec, where));
  POSENC_TRY(check_length(f, f.xLength, element_count(spec.seq_len, spec.d_model), Status::kXLength));
  double* carry = nullptr;
  POSENC_TRY(table_carry(f, spec.d_model / 2, &carry));
  return with_element(spec.dtype, [&](auto element) {
    return result(add_sinusoidal(spec, where, address_of<decltype(element)>(f.x), carry));
  });
}

int positionNumbers(operands::positionNumbers& f) {
  const PositionNumbersSpec spec{u32(f.seqLen), u32(f.dModel), u32(f.offset), enum_of<Dtype>(f.dtype)};
  POSENC_TRY(check(spec));
  return with_element(spec.dtype, [&](auto element) {
    Outputs outputs;
    decltype(element)* out = nullptr;
    POSENC_TRY(
        output(f, outputs, f.out, f.outLength, element_count(spec.seq_len, spec.d_model), Status::kOutLength, &out));
    return result(outputs.finish(position_numbers(spec, out)));
  });
}

int ropeSchedule(operands::ropeSchedule& f) {
  RopeScheduleSpec spec;
  spec.rotary_dim = u32(f.rotaryDim);
  spec.head_dim = u32(f.headDim);
  spec.has_partial_rotary_factor = flag(f.hasPartialRotaryFactor);
  spec.partial_rotary_factor = f.partialRotaryFactor;
  spec.base = f.base;
  spec.scaling = scaling_of(f);
  spec.seq_len = u32(f.seqLen);
  POSENC_TRY(check(spec));
  std::uint32_t rotary_dim = 0;
  resolve_rotary_dim(spec.head_dim, spec.rotary_dim, spec.has_partial_rotary_factor, spec.partial_rotary_factor,
                     &rotary_dim);
  Outputs outputs;
  double* inv_freq = nullptr;
  POSENC_TRY(outputs.allocate(f.invFreq, f.invFreqLength, rotary_dim / 2, &inv_freq));
  double attention_factor = 1.0;
  POSENC_TRY(outputs.finish(rope_schedule(spec, inv_freq, &attention_factor)));
  f.resolvedRotaryDim = rotary_dim;
  f.appliedAttentionFactor = attention_factor;
  return result(Status::kOk);
}

int ropeCache(operands::ropeCache& f) {
  RopeCacheSpec spec;
  spec.seq_len = u32(f.seqLen);
  spec.rotary_dim = u32(f.rotaryDim);
  spec.base = f.base;
  spec.batch = u32(f.batch);
  spec.scaling = scaling_of(f);
  spec.dtype = enum_of<Dtype>(f.dtype);
  const BatchPositions where = batch_positions_of(f);
  POSENC_TRY(check_batch_positions_length(f, spec.batch, spec.seq_len));  // before the core reads the lists
  POSENC_TRY(check(spec, where));
  const std::uint64_t length = element_count(spec.batch, spec.seq_len, spec.rotary_dim / 2);
  double* carry = nullptr;
  POSENC_TRY(table_carry(f, spec.rotary_dim / 2, &carry));
  return with_element(spec.dtype, [&](auto element) {
    Outputs outputs;
    decltype(element)* cos = nullptr;
    decltype(element)* sin = nullptr;
    POSENC_TRY(output(f, outputs, f.outCos, f.outCosLength, length, Status::kOutCosLength, &cos));
    POSENC_TRY(output(f, outputs, f.outSin, f.outSinLength, length, Status::kOutSinLength, &sin));
    double attention_factor = 1.0;
    POSENC_TRY(outputs.finish(
        rope_cache(spec, where, cos, sin, &attention_factor, carry, static_cast<std::uint64_t>(f.sequenceLength))));
    f.appliedAttentionFactor = attention_factor;
    return result(Status::kOk);
  });
}

int rope(operands::rope& f) {
  const RopeSpec spec = rope_spec_of(f);
  RopePlan plan;
  POSENC_TRY(RopePlan::create(spec, spec.num_heads, &plan));
  return apply_plan(plan, f);
}

int ropeQK(operands::ropeQK& f) {
  RopePlan plan;
  POSENC_TRY(RopePlan::create(rope_spec_of(f), u32(f.numKvHeads), &plan));
  return apply_plan(plan, f);
}

int ropePlanCreate(operands::ropePlanCreate& f) {
  RopePlan* plan = new (std::nothrow) RopePlan;
  if (plan == nullptr) return result(Status::kOutOfMemory);
  if (const Status status = RopePlan::create(rope_spec_of(f), u32(f.numKvHeads), plan); status != Status::kOk) {
    delete plan;
    return result(status);
  }
  f.plan = static_cast<double>(reinterpret_cast<std::uintptr_t>(plan));
  f.resolvedRotaryDim = plan->rotary_dim();
  f.appliedAttentionFactor = plan->attention_factor();
  f.carryLength = static_cast<double>(plan->carry_doubles());
  return result(Status::kOk);
}

int ropePlanApply(operands::ropePlanApply& f) {
  const RopePlan& plan = *address_of<const RopePlan>(f.plan);
  if (f.carry == 0.0) return apply_plan(plan, f);
  // A piece of one long sequence (a JS array streamed a block of rows at a time).
  const std::uint32_t rows = u32(f.pieceRows);
  const std::uint64_t length = std::uint64_t{rows} * plan.spec().num_heads * plan.spec().head_dim;
  POSENC_TRY(check_length(f, f.carryLength, plan.carry_doubles(), Status::kNullPointer));
  POSENC_TRY(check_length(f, f.xLength, length, Status::kXLength));
  POSENC_TRY(check_length(f, f.outLength, length, Status::kOutLength));
  return with_element(plan.spec().dtype, [&](auto element) {
    using T = decltype(element);
    return rotated(plan, f,
                   plan.apply_piece(positions_of(f), rows, address_of<const T>(f.x), address_of<T>(f.out),
                                    address_of<double>(f.carry), enum_of<XposRole>(f.xposRole), u32(f.sequenceLength)));
  });
}

int ropePlanApplyQK(operands::ropePlanApplyQK& f) { return apply_plan(*address_of<const RopePlan>(f.plan), f); }

void ropePlanFree(std::uintptr_t plan) { delete reinterpret_cast<RopePlan*>(plan); }

int convertLayout(operands::convertLayout& f) {
  LayoutConversionSpec spec;
  spec.head_dim = u32(f.headDim);
  spec.rotary_dim = u32(f.rotaryDim);
  spec.from = enum_of<RopeLayout>(f.from);
  spec.to = enum_of<RopeLayout>(f.to);
  const bool weights = flag(f.weights);
  // Activations: every head vector of x, one float per channel. Weights: num_heads heads of
  // head_dim rows of `hidden` floats.
  spec.hidden = weights ? u32(f.hidden) : 1;
  spec.heads = weights ? u32(f.numHeads) : (spec.head_dim > 0 ? u32(f.xLength) / spec.head_dim : 0);
  POSENC_TRY(check(spec));
  const std::uint64_t length = element_count(spec.heads, spec.head_dim, spec.hidden);
  POSENC_TRY(check_length(f, f.xLength, length, weights ? Status::kWLength : Status::kXLength));
  Outputs outputs;
  float* out = nullptr;
  POSENC_TRY(output(f, outputs, f.out, f.outLength, length, Status::kOutLength, &out));
  return result(outputs.finish(convert_layout(spec, address_of<const float>(f.x), out)));
}

int similarity(operands::similarity& f) {
  const SimilaritySpec spec{u32(f.rows), u32(f.cols), u32(f.dim), enum_of<Metric>(f.metric)};
  POSENC_TRY(check(spec));
  POSENC_TRY(check_length(f, f.aLength, element_count(spec.rows, spec.dim), Status::kALength));
  POSENC_TRY(check_length(f, f.bLength, element_count(spec.cols, spec.dim), Status::kBLength));
  Outputs outputs;
  float* out = nullptr;
  POSENC_TRY(output(f, outputs, f.out, f.outLength, element_count(spec.rows, spec.cols), Status::kOutLength, &out));
  return result(
      outputs.finish(posenc::similarity(spec, address_of<const float>(f.a), address_of<const float>(f.b), out)));
}

int mropePositions(operands::mropePositions& f) {
  const std::uint32_t table = u32(f.segmentsLength);
  if (table % kMropeSegmentFields != 0) {  // whole rows only
    f.expectedLength = table - table % kMropeSegmentFields;
    return result(Status::kSegmentsLength);
  }
  MropePositionsSpec spec;
  spec.segments = address_of<const double>(f.segments);
  spec.segment_count = table / kMropeSegmentFields;
  spec.spatial_merge_size = u32(f.spatialMergeSize);
  spec.model = enum_of<MropeModel>(f.model);
  spec.tokens_per_second = u32(f.tokensPerSecond);
  std::uint64_t seq_len = 0;
  std::uint32_t bad_segment = 0;
  const Status checked = check(spec, &seq_len, &bad_segment);
  f.badSegment = bad_segment;
  POSENC_TRY(checked);
  Outputs outputs;
  std::int32_t* out = nullptr;
  POSENC_TRY(outputs.allocate(f.out, f.outLength, 3 * seq_len, &out));
  std::int64_t next = 0;
  const Status computed = mrope_positions(spec, out, 3 * seq_len, &next, &bad_segment);
  f.nextPosition = static_cast<double>(next);
  return result(outputs.finish(computed));
}

int alibiSlopes(operands::alibiSlopes& f) {
  const AlibiSlopesSpec spec{u32(f.numHeads), f.maxBias};
  POSENC_TRY(check(spec));
  Outputs outputs;
  double* slopes = nullptr;
  POSENC_TRY(outputs.allocate(f.slopes, f.slopesLength, spec.num_heads, &slopes));
  return result(outputs.finish(alibi_slopes(spec, slopes)));
}

int alibiBias(operands::alibiBias& f) {
  const AlibiBiasSpec spec{u32(f.numHeads), u32(f.queryLen), u32(f.keyLen), signed_integer(f.offset), f.maxBias};
  POSENC_TRY(check(spec));
  Outputs outputs;
  float* out = nullptr;
  POSENC_TRY(output(f, outputs, f.out, f.outLength, element_count(spec.num_heads, spec.query_len, spec.key_len),
                    Status::kOutLength, &out));
  return result(outputs.finish(alibi_bias(spec, out)));
}

int relativePositionBuckets(operands::relativePositionBuckets& f) {
  RelativePositionBucketsSpec spec;
  spec.query_len = u32(f.queryLen);
  spec.key_len = u32(f.keyLen);
  spec.num_buckets = u32(f.numBuckets);
  spec.max_distance = u32(f.maxDistance);
  spec.bidirectional = flag(f.bidirectional);
  spec.offset = u32(f.offset);
  POSENC_TRY(check(spec));
  Outputs outputs;
  std::int32_t* out = nullptr;
  POSENC_TRY(
      output(f, outputs, f.out, f.outLength, element_count(spec.query_len, spec.key_len), Status::kOutLength, &out));
  return result(outputs.finish(relative_position_buckets(spec, out)));
}

int ropeGrid(operands::ropeGrid& f) {
  RopeGridSpec spec;
  spec.rows = u32(f.rows);
  spec.cols = u32(f.cols);
  spec.num_heads = u32(f.numHeads);
  spec.head_dim = u32(f.headDim);
  spec.base = f.base;
  spec.variant = enum_of<RopeGridVariant>(f.variant);
  spec.layout = enum_of<RopeLayout>(f.layout);
  spec.order = enum_of<RopeOrder>(f.order);
  spec.batch = u32(f.batch);
  spec.frames = u32(f.frames);
  POSENC_TRY(check(spec));
  const std::uint64_t tokens = std::uint64_t{spec.frames} * spec.rows * spec.cols;  // checked: <= kMaxSeqLen
  const std::uint64_t length = element_count(spec.batch, tokens, spec.num_heads, spec.head_dim);
  POSENC_TRY(check_length(f, f.xLength, length, Status::kXLength));
  POSENC_TRY(check_length(f, f.outLength, length, Status::kOutLength));
  return result(rope_grid(spec, address_of<const float>(f.x), address_of<float>(f.out)));
}

int attentionScores(operands::attentionScores& f) {
  AttentionScoresSpec spec;
  spec.num_heads = u32(f.numHeads);
  spec.query_len = u32(f.queryLen);
  spec.key_len = u32(f.keyLen);
  spec.head_dim = u32(f.headDim);
  spec.encoding = enum_of<AttentionEncoding>(f.encoding);
  spec.order = enum_of<RopeOrder>(f.order);
  spec.offset = signed_integer(f.offset);
  spec.scale = f.scale;
  spec.causal = flag(f.causal);
  spec.softmax = flag(f.softmax);
  spec.base = f.base;
  spec.sinusoidal_layout = enum_of<SinusoidalLayout>(f.layout);  // the one the encoding reads
  spec.rope_layout = enum_of<RopeLayout>(f.layout);
  spec.rotary_dim = u32(f.rotaryDim);
  spec.has_partial_rotary_factor = flag(f.hasPartialRotaryFactor);
  spec.partial_rotary_factor = f.partialRotaryFactor;
  spec.scaling = scaling_of(f);
  spec.xpos = xpos_of(f);
  spec.max_bias = f.maxBias;
  spec.bias = address_of<const float>(f.bias);
  spec.bias_count = static_cast<std::uint64_t>(u32(f.biasLength));
  spec.num_buckets = u32(f.numBuckets);
  spec.max_distance = u32(f.maxDistance);
  spec.bidirectional = flag(f.bidirectional);
  const Status checked = check(spec);
  if (checked == Status::kBiasLength)
    f.expectedLength = static_cast<double>(std::uint64_t{spec.num_buckets} * spec.num_heads);
  if (checked == Status::kXposDistanceTooLarge) f.expectedLength = xpos_reach(spec);  // named by the JS message
  POSENC_TRY(checked);
  POSENC_TRY(
      check_length(f, f.qLength, element_count(spec.num_heads, spec.query_len, spec.head_dim), Status::kQLength));
  POSENC_TRY(check_length(f, f.kLength, element_count(spec.num_heads, spec.key_len, spec.head_dim), Status::kKLength));
  Outputs outputs;
  float* out = nullptr;
  POSENC_TRY(output(f, outputs, f.out, f.outLength, element_count(spec.num_heads, spec.query_len, spec.key_len),
                    Status::kOutLength, &out));
  return result(
      outputs.finish(attention_scores(spec, address_of<const float>(f.q), address_of<const float>(f.k), out)));
}

#undef POSENC_TRY

}  // namespace posenc::bindings
