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

int check_rope_frequencies(std::uint32_t rotary_dim, double base) {
  return as_int(check_frequencies(rotary_dim, base));
}
int rope_frequencies_at(std::uint32_t rotary_dim, double base, std::uintptr_t out) {
  return as_int(rope_frequencies(rotary_dim, base, at<double>(out)));
}

int check_rope_cache(const RopeCacheSpec& spec, std::uint32_t offset) {
  return as_int(check(spec, positions_of(0, offset)));
}
int rope_cache_at(const RopeCacheSpec& spec, std::uint32_t offset, std::uintptr_t positions,
                  std::uintptr_t cos, std::uintptr_t sin) {
  return as_int(rope_cache(spec, positions_of(positions, offset), at<float>(cos), at<float>(sin)));
}

int check_rope(const RopeSpec& spec, std::uint32_t offset) {
  return as_int(check(spec, positions_of(0, offset)));
}
int rope_at(const RopeSpec& spec, std::uint32_t offset, std::uintptr_t positions, std::uintptr_t x,
            std::uintptr_t out) {
  return as_int(rope(spec, positions_of(positions, offset), at<const float>(x), at<float>(out)));
}

int check_similarity(const SimilaritySpec& spec) { return as_int(check(spec)); }
int similarity_at(const SimilaritySpec& spec, std::uintptr_t a, std::uintptr_t b,
                  std::uintptr_t out) {
  return as_int(similarity(spec, at<const float>(a), at<const float>(b), at<float>(out)));
}

}  // namespace

EMSCRIPTEN_BINDINGS(posenc) {
  using namespace emscripten;

  enum_<Status>("Status")
      .value("ok", Status::kOk)
      .value("seqLenTooLarge", Status::kSeqLenTooLarge)
      .value("dModelOdd", Status::kDModelOdd)
      .value("dModelTooSmall", Status::kDModelTooSmall)
      .value("dModelTooLarge", Status::kDModelTooLarge)
      .value("headDimTooSmall", Status::kHeadDimTooSmall)
      .value("headDimTooLarge", Status::kHeadDimTooLarge)
      .value("numHeadsTooSmall", Status::kNumHeadsTooSmall)
      .value("numHeadsTooLarge", Status::kNumHeadsTooLarge)
      .value("rotaryDimOdd", Status::kRotaryDimOdd)
      .value("rotaryDimTooSmall", Status::kRotaryDimTooSmall)
      .value("rotaryDimTooLarge", Status::kRotaryDimTooLarge)
      .value("baseInvalid", Status::kBaseInvalid)
      .value("offsetTooLarge", Status::kOffsetTooLarge)
      .value("positionOutOfRange", Status::kPositionOutOfRange)
      .value("layoutInvalid", Status::kLayoutInvalid)
      .value("metricInvalid", Status::kMetricInvalid)
      .value("rowsTooLarge", Status::kRowsTooLarge)
      .value("colsTooLarge", Status::kColsTooLarge)
      .value("dimTooSmall", Status::kDimTooSmall)
      .value("dimTooLarge", Status::kDimTooLarge)
      .value("sizeTooLarge", Status::kSizeTooLarge)
      .value("nullPointer", Status::kNullPointer);

  enum_<SinusoidalLayout>("SinusoidalLayout")
      .value("interleaved", SinusoidalLayout::kInterleaved)
      .value("concat", SinusoidalLayout::kConcat);
  enum_<RopeLayout>("RopeLayout")
      .value("interleaved", RopeLayout::kInterleaved)
      .value("half", RopeLayout::kHalf);
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
  value_object<RopeCacheSpec>("RopeCacheSpec")
      .field("seqLen", &RopeCacheSpec::seq_len)
      .field("rotaryDim", &RopeCacheSpec::rotary_dim)
      .field("base", &RopeCacheSpec::base);
  value_object<RopeSpec>("RopeSpec")
      .field("seqLen", &RopeSpec::seq_len)
      .field("numHeads", &RopeSpec::num_heads)
      .field("headDim", &RopeSpec::head_dim)
      .field("rotaryDim", &RopeSpec::rotary_dim)
      .field("base", &RopeSpec::base)
      .field("layout", &RopeSpec::layout);
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
  function("checkRopeFrequencies", &check_rope_frequencies);
  function("ropeFrequencies", &rope_frequencies_at);
  function("checkRopeCache", &check_rope_cache);
  function("ropeCache", &rope_cache_at);
  function("checkRope", &check_rope);
  function("rope", &rope_at);
  function("checkSimilarity", &check_similarity);
  function("similarity", &similarity_at);
}
