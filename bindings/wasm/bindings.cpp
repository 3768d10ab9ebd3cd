// Embind declarations only: the JS layer (bindings/js) validates arguments, moves arrays in
// and out of WASM memory and turns Status codes into TypeError/RangeError. Arrays arrive as
// addresses in WASM memory (numbers), never as C++ exceptions or embind-owned objects.
#include <emscripten/bind.h>

#include <cstdint>

#include "posenc.h"

namespace {

using namespace posenc;

template <class T>
T* at(std::uintptr_t address) {
  return reinterpret_cast<T*>(address);
}

Positions positions_of(std::uintptr_t list, std::uint32_t offset) {
  return Positions{at<const std::int32_t>(list), offset};
}

// A batch's positions: one per row (list), one per sequence (offsets), or a shared offset.
BatchPositions batch_positions_of(std::uint32_t offset, std::uintptr_t list, std::uintptr_t offsets) {
  return BatchPositions{positions_of(list, offset), at<const std::int32_t>(offsets)};
}

// The longrope lists travel as addresses in WASM memory.
std::uintptr_t short_factor_of(const RopeScaling& s) { return reinterpret_cast<std::uintptr_t>(s.short_factor); }
void set_short_factor(RopeScaling& s, std::uintptr_t address) { s.short_factor = at<const double>(address); }
std::uintptr_t long_factor_of(const RopeScaling& s) { return reinterpret_cast<std::uintptr_t>(s.long_factor); }
void set_long_factor(RopeScaling& s, std::uintptr_t address) { s.long_factor = at<const double>(address); }

int as_int(Status status) { return static_cast<int>(status); }

int check_sinusoidal(const SinusoidalSpec& spec, std::uint32_t offset) {
  return as_int(check(spec, positions_of(0, offset)));
}
int sinusoidal_table_at(const SinusoidalSpec& spec, std::uint32_t offset, std::uintptr_t positions,
                        std::uintptr_t out) {
  return as_int(sinusoidal_table(spec, positions_of(positions, offset), at<float>(out)));
}
int add_sinusoidal_at(const SinusoidalSpec& spec, std::uint32_t offset, std::uintptr_t positions,
                      std::uintptr_t x) {
  return as_int(add_sinusoidal(spec, positions_of(positions, offset), at<float>(x)));
}

int check_position_numbers(const PositionNumbersSpec& spec) { return as_int(check(spec)); }
int position_numbers_at(const PositionNumbersSpec& spec, std::uintptr_t out) {
  return as_int(position_numbers(spec, at<float>(out)));
}

int check_rope_schedule(const RopeScheduleSpec& spec) { return as_int(check(spec)); }
// The rotary dimension a checked schedule spec resolves to (partialRotaryFactor).
std::uint32_t rope_schedule_rotary_dim(const RopeScheduleSpec& spec) {
  std::uint32_t rotary_dim = 0;
  resolve_rotary_dim(spec.head_dim, spec.rotary_dim, spec.has_partial_rotary_factor, spec.partial_rotary_factor,
                     &rotary_dim);
  return rotary_dim;
}
int rope_schedule_at(const RopeScheduleSpec& spec, std::uintptr_t inv_freq, std::uintptr_t attention_factor) {
  return as_int(rope_schedule(spec, at<double>(inv_freq), at<double>(attention_factor)));
}

// RopeSpec and RopeCacheSpec cross without their scaling: most calls have none, and converting
// it would cost more than a small call itself. Calls with scaling use the *Scaled twins, which
// take it as a separate argument.
template <class Spec>
Spec with_scaling(Spec spec, const RopeScaling& scaling) {
  spec.scaling = scaling;
  return spec;
}

int check_rope_cache(const RopeCacheSpec& spec, std::uint32_t offset) {
  return as_int(check(spec, positions_of(0, offset)));
}
int rope_cache_at(const RopeCacheSpec& spec, std::uint32_t offset, std::uintptr_t positions, std::uintptr_t offsets,
                  std::uintptr_t cos, std::uintptr_t sin, std::uintptr_t attention_factor) {
  return as_int(rope_cache(spec, batch_positions_of(offset, positions, offsets), at<float>(cos), at<float>(sin),
                           at<double>(attention_factor)));
}

int check_rope_cache_scaled(const RopeCacheSpec& spec, const RopeScaling& scaling, std::uint32_t offset) {
  return check_rope_cache(with_scaling(spec, scaling), offset);
}
int rope_cache_scaled_at(const RopeCacheSpec& spec, const RopeScaling& scaling, std::uint32_t offset,
                         std::uintptr_t positions, std::uintptr_t offsets, std::uintptr_t cos, std::uintptr_t sin,
                         std::uintptr_t attention_factor) {
  return rope_cache_at(with_scaling(spec, scaling), offset, positions, offsets, cos, sin, attention_factor);
}

int check_rope(const RopeSpec& spec, std::uint32_t offset) {
  return as_int(check(spec, positions_of(0, offset)));
}
int rope_at(const RopeSpec& spec, std::uint32_t offset, std::uintptr_t positions, std::uintptr_t offsets,
            std::uintptr_t x, std::uintptr_t out) {
  return as_int(rope(spec, batch_positions_of(offset, positions, offsets), at<const float>(x), at<float>(out)));
}

int check_rope_scaled(const RopeSpec& spec, const RopeScaling& scaling, std::uint32_t offset) {
  return check_rope(with_scaling(spec, scaling), offset);
}
int rope_scaled_at(const RopeSpec& spec, const RopeScaling& scaling, std::uint32_t offset, std::uintptr_t positions,
                   std::uintptr_t offsets, std::uintptr_t x, std::uintptr_t out) {
  return rope_at(with_scaling(spec, scaling), offset, positions, offsets, x, out);
}

int check_rope_qk(const RopeSpec& spec, std::uint32_t num_kv_heads, std::uint32_t offset) {
  return as_int(check_qk(spec, num_kv_heads, positions_of(0, offset)));
}
int rope_qk_at(const RopeSpec& spec, std::uint32_t num_kv_heads, std::uint32_t offset, std::uintptr_t positions,
               std::uintptr_t offsets, std::uintptr_t q, std::uintptr_t q_out, std::uintptr_t k,
               std::uintptr_t k_out) {
  return as_int(rope_qk(spec, num_kv_heads, batch_positions_of(offset, positions, offsets), at<const float>(q),
                        at<float>(q_out), at<const float>(k), at<float>(k_out)));
}

int check_rope_qk_scaled(const RopeSpec& spec, const RopeScaling& scaling, std::uint32_t num_kv_heads,
                         std::uint32_t offset) {
  return check_rope_qk(with_scaling(spec, scaling), num_kv_heads, offset);
}
int rope_qk_scaled_at(const RopeSpec& spec, const RopeScaling& scaling, std::uint32_t num_kv_heads,
                      std::uint32_t offset, std::uintptr_t positions, std::uintptr_t offsets, std::uintptr_t q,
                      std::uintptr_t q_out, std::uintptr_t k, std::uintptr_t k_out) {
  return rope_qk_at(with_scaling(spec, scaling), num_kv_heads, offset, positions, offsets, q, q_out, k, k_out);
}

int check_convert_layout(const LayoutConversionSpec& spec) { return as_int(check(spec)); }
int convert_layout_at(const LayoutConversionSpec& spec, std::uintptr_t x, std::uintptr_t out) {
  return as_int(convert_layout(spec, at<const float>(x), at<float>(out)));
}

int check_similarity(const SimilaritySpec& spec) { return as_int(check(spec)); }
int similarity_at(const SimilaritySpec& spec, std::uintptr_t a, std::uintptr_t b,
                  std::uintptr_t out) {
  return as_int(similarity(spec, at<const float>(a), at<const float>(b), at<float>(out)));
}

}  // namespace

EMSCRIPTEN_BINDINGS(posenc) {
  using namespace emscripten;

  enum_<Status> status("Status");
#define POSENC_STATUS_VALUE(code, js_name, meaning) status.value(#js_name, Status::code);
  POSENC_STATUS_LIST(POSENC_STATUS_VALUE)
#undef POSENC_STATUS_VALUE

  enum_<SinusoidalLayout>("SinusoidalLayout")
      .value("interleaved", SinusoidalLayout::kInterleaved)
      .value("concat", SinusoidalLayout::kConcat);
  enum_<RopeLayout>("RopeLayout")
      .value("interleaved", RopeLayout::kInterleaved)
      .value("half", RopeLayout::kHalf);
  enum_<RopeOrder>("RopeOrder").value("tokens", RopeOrder::kTokens).value("heads", RopeOrder::kHeads);
  enum_<RopeScalingType>("RopeScalingType")
      .value("default", RopeScalingType::kNone)
      .value("linear", RopeScalingType::kLinear)
      .value("dynamic", RopeScalingType::kDynamic)
      .value("yarn", RopeScalingType::kYarn)
      .value("llama3", RopeScalingType::kLlama3)
      .value("longrope", RopeScalingType::kLongrope);
  enum_<Metric>("Metric").value("dot", Metric::kDot).value("cosine", Metric::kCosine);

  value_object<SinusoidalSpec>("SinusoidalSpec")
      .field("seqLen", &SinusoidalSpec::seq_len)
      .field("dModel", &SinusoidalSpec::d_model)
      .field("base", &SinusoidalSpec::base)
      .field("layout", &SinusoidalSpec::layout);
  value_object<PositionNumbersSpec>("PositionNumbersSpec")
      .field("seqLen", &PositionNumbersSpec::seq_len)
      .field("dModel", &PositionNumbersSpec::d_model)
      .field("offset", &PositionNumbersSpec::offset);
  value_object<RopeScaling>("RopeScaling")
      .field("type", &RopeScaling::type)
      .field("factor", &RopeScaling::factor)
      .field("hasFactor", &RopeScaling::has_factor)
      .field("originalMaxPositionEmbeddings", &RopeScaling::original_max_position_embeddings)
      .field("maxPositionEmbeddings", &RopeScaling::max_position_embeddings)
      .field("attentionFactor", &RopeScaling::attention_factor)
      .field("hasAttentionFactor", &RopeScaling::has_attention_factor)
      .field("betaFast", &RopeScaling::beta_fast)
      .field("betaSlow", &RopeScaling::beta_slow)
      .field("mscale", &RopeScaling::mscale)
      .field("mscaleAllDim", &RopeScaling::mscale_all_dim)
      .field("truncate", &RopeScaling::truncate)
      .field("lowFreqFactor", &RopeScaling::low_freq_factor)
      .field("highFreqFactor", &RopeScaling::high_freq_factor)
      .field("shortFactor", &short_factor_of, &set_short_factor)
      .field("longFactor", &long_factor_of, &set_long_factor)
      .field("shortFactorCount", &RopeScaling::short_factor_count)
      .field("longFactorCount", &RopeScaling::long_factor_count);
  value_object<RopeScheduleSpec>("RopeScheduleSpec")
      .field("rotaryDim", &RopeScheduleSpec::rotary_dim)
      .field("headDim", &RopeScheduleSpec::head_dim)
      .field("hasPartialRotaryFactor", &RopeScheduleSpec::has_partial_rotary_factor)
      .field("partialRotaryFactor", &RopeScheduleSpec::partial_rotary_factor)
      .field("base", &RopeScheduleSpec::base)
      .field("scaling", &RopeScheduleSpec::scaling)
      .field("seqLen", &RopeScheduleSpec::seq_len);
  value_object<RopeCacheSpec>("RopeCacheSpec")
      .field("seqLen", &RopeCacheSpec::seq_len)
      .field("rotaryDim", &RopeCacheSpec::rotary_dim)
      .field("base", &RopeCacheSpec::base)
      .field("batch", &RopeCacheSpec::batch);
  value_object<RopeSpec>("RopeSpec")
      .field("seqLen", &RopeSpec::seq_len)
      .field("numHeads", &RopeSpec::num_heads)
      .field("headDim", &RopeSpec::head_dim)
      .field("rotaryDim", &RopeSpec::rotary_dim)
      .field("base", &RopeSpec::base)
      .field("layout", &RopeSpec::layout)
      .field("batch", &RopeSpec::batch)
      .field("order", &RopeSpec::order)
      .field("inverse", &RopeSpec::inverse)
      .field("hasPartialRotaryFactor", &RopeSpec::has_partial_rotary_factor)
      .field("partialRotaryFactor", &RopeSpec::partial_rotary_factor);
  value_object<LayoutConversionSpec>("LayoutConversionSpec")
      .field("heads", &LayoutConversionSpec::heads)
      .field("headDim", &LayoutConversionSpec::head_dim)
      .field("rotaryDim", &LayoutConversionSpec::rotary_dim)
      .field("rowLength", &LayoutConversionSpec::hidden)
      .field("from", &LayoutConversionSpec::from)
      .field("to", &LayoutConversionSpec::to);
  value_object<SimilaritySpec>("SimilaritySpec")
      .field("rows", &SimilaritySpec::rows)
      .field("cols", &SimilaritySpec::cols)
      .field("dim", &SimilaritySpec::dim)
      .field("metric", &SimilaritySpec::metric);

  constant("maxSeqLen", kMaxSeqLen);
  constant("maxDim", kMaxDim);
  constant("maxElements", static_cast<double>(kMaxElements));
  constant("maxPosition", static_cast<double>(kMaxPosition));
#if POSENC_SIMD
  constant("simdBuild", true);
#else
  constant("simdBuild", false);
#endif

  function("checkSinusoidal", &check_sinusoidal);
  function("sinusoidalTable", &sinusoidal_table_at);
  function("addSinusoidal", &add_sinusoidal_at);
  function("checkPositionNumbers", &check_position_numbers);
  function("positionNumbers", &position_numbers_at);
  function("checkRopeSchedule", &check_rope_schedule);
  function("ropeScheduleRotaryDim", &rope_schedule_rotary_dim);
  function("ropeSchedule", &rope_schedule_at);
  function("checkRopeCache", &check_rope_cache);
  function("ropeCache", &rope_cache_at);
  function("checkRopeCacheScaled", &check_rope_cache_scaled);
  function("ropeCacheScaled", &rope_cache_scaled_at);
  function("checkRope", &check_rope);
  function("rope", &rope_at);
  function("checkRopeScaled", &check_rope_scaled);
  function("ropeScaled", &rope_scaled_at);
  function("checkRopeQK", &check_rope_qk);
  function("ropeQK", &rope_qk_at);
  function("checkRopeQKScaled", &check_rope_qk_scaled);
  function("ropeQKScaled", &rope_qk_scaled_at);
  function("checkConvertPairing", &check_convert_layout);
  function("convertPairing", &convert_layout_at);
  function("checkSimilarity", &check_similarity);
  function("similarity", &similarity_at);
}
