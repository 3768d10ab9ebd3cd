// Every Status code the public functions can return, for the input that breaks its rule,
// with every other parameter valid; on an error nothing is written (outputs are filled with
// a sentinel, in-place inputs with known values, and must come back bit-identical).
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "posenc/posenc.h"
#include "test_support.h"

namespace {

using posenc::Status;
using namespace test_support;

// What a call returned and whether its arrays came back untouched.
struct Outcome {
  Status status;
  bool untouched;
};

struct Case {
  std::string name;
  Status want;
  std::function<Outcome()> run;
};

// Arrays are as large as the call needs, capped: an erroneous call must not write at all.
constexpr std::uint64_t kBufferCap = 1 << 16;

std::vector<float> buffer_for(std::uint64_t elements, float fill) {
  const std::uint64_t n = std::clamp<std::uint64_t>(elements, 1, kBufferCap);
  return std::vector<float>(static_cast<std::size_t>(n), fill);
}

bool unchanged(const std::vector<float>& now, const std::vector<float>& before) {
  for (std::size_t i = 0; i < now.size(); ++i)
    if (!same_bits(now[i], before[i])) return false;
  return true;
}

constexpr float kInputFill = 1.25f;  // in-place inputs: a finite value, so an addition shows
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();
const std::uint32_t kMaxPosition32 = static_cast<std::uint32_t>(posenc::kMaxPosition);

// Where the rows sit: an offset or an explicit list (owned here, so lambdas can keep it).
struct Where {
  std::uint32_t offset = 0;
  std::vector<std::int32_t> list;
  bool use_list = false;

  posenc::Positions get() const { return use_list ? listed(list) : from_offset(offset); }
};

Where at_offset(std::uint32_t offset) { return Where{offset, {}, false}; }
Where at_list(std::vector<std::int32_t> list) { return Where{0, std::move(list), true}; }

// ---- sinusoidal_table / add_sinusoidal ---------------------------------------------------

posenc::SinusoidalSpec sinusoidal_spec(std::uint32_t seq_len, std::uint32_t d_model, double base = 10000.0,
                                       int layout = 0) {
  posenc::SinusoidalSpec spec;
  spec.seq_len = seq_len;
  spec.d_model = d_model;
  spec.base = base;
  spec.layout = static_cast<posenc::SinusoidalLayout>(layout);
  return spec;
}

// Two cases per input: sinusoidal_table into a sentinel-filled out, add_sinusoidal on x.
void add_sinusoidal_cases(std::vector<Case>& cases, const std::string& name, Status want, posenc::SinusoidalSpec spec,
                          Where where = at_offset(0), bool null_array = false) {
  const std::uint64_t n = posenc::element_count(spec.seq_len, spec.d_model);
  cases.push_back({"sinusoidal_table: " + name, want, [=] {
                     std::vector<float> out = buffer_for(n, sentinel());
                     const std::vector<float> before = out;
                     const Status status =
                         posenc::sinusoidal_table(spec, where.get(), null_array ? nullptr : out.data());
                     return Outcome{status, unchanged(out, before)};
                   }});
  cases.push_back({"add_sinusoidal: " + name, want, [=] {
                     std::vector<float> x = buffer_for(n, kInputFill);
                     const std::vector<float> before = x;
                     const Status status = posenc::add_sinusoidal(spec, where.get(), null_array ? nullptr : x.data());
                     return Outcome{status, unchanged(x, before)};
                   }});
}

std::vector<Case> sinusoidal_cases() {
  std::vector<Case> cases;
  add_sinusoidal_cases(cases, "seq_len kMaxSeqLen + 1", Status::kSeqLenTooLarge,
                       sinusoidal_spec(posenc::kMaxSeqLen + 1, 2));
  for (const std::uint32_t odd : {3u, 5u, 63u, 8193u, 65535u})
    add_sinusoidal_cases(cases, "d_model " + std::to_string(odd), Status::kDModelOdd, sinusoidal_spec(2, odd));
  for (const std::uint32_t small : {0u, 1u})
    add_sinusoidal_cases(cases, "d_model " + std::to_string(small), Status::kDModelTooSmall, sinusoidal_spec(2, small));
  for (const std::uint32_t large : {posenc::kMaxDim + 2, 0xfffffffeu})
    add_sinusoidal_cases(cases, "d_model " + std::to_string(large), Status::kDModelTooLarge, sinusoidal_spec(1, large));
  for (const double base : {0.0, -0.0, -1.0, kNaN, kInf, -kInf})
    add_sinusoidal_cases(cases, "base " + std::to_string(base), Status::kBaseInvalid, sinusoidal_spec(2, 4, base));
  for (const int layout : {2, -1, 99})
    add_sinusoidal_cases(cases, "layout " + std::to_string(layout), Status::kLayoutInvalid,
                         sinusoidal_spec(2, 4, 10000.0, layout));
  add_sinusoidal_cases(cases, "2^24 x 32 (2^29 values)", Status::kSizeTooLarge, sinusoidal_spec(1u << 24, 32));
  add_sinusoidal_cases(cases, "2^24 x 2^16 (2^40: wraps 32 bits)", Status::kSizeTooLarge,
                       sinusoidal_spec(1u << 24, 1u << 16));
  add_sinusoidal_cases(cases, "(2^12 + 1) x 2^16", Status::kSizeTooLarge, sinusoidal_spec((1u << 12) + 1, 1u << 16));
  add_sinusoidal_cases(cases, "offset kMaxPosition, 2 rows", Status::kOffsetTooLarge, sinusoidal_spec(2, 4),
                       at_offset(kMaxPosition32));
  add_sinusoidal_cases(cases, "offset 2^32 - 1, 1 row", Status::kOffsetTooLarge, sinusoidal_spec(1, 4),
                       at_offset(0xffffffffu));
  add_sinusoidal_cases(cases, "offset kMaxPosition - 9, 11 rows", Status::kOffsetTooLarge, sinusoidal_spec(11, 4),
                       at_offset(kMaxPosition32 - 9));
  add_sinusoidal_cases(cases, "position -1 (last)", Status::kPositionOutOfRange, sinusoidal_spec(3, 4),
                       at_list({0, 1, -1}));
  add_sinusoidal_cases(cases, "position INT32_MIN (first)", Status::kPositionOutOfRange, sinusoidal_spec(2, 4),
                       at_list({std::numeric_limits<std::int32_t>::min(), 5}));
  add_sinusoidal_cases(cases, "null array", Status::kNullPointer, sinusoidal_spec(2, 4), at_offset(0), true);
  return cases;
}

// ---- rope -----------------------------------------------------------------------------------

posenc::RopeSpec rope_spec(std::uint32_t seq_len, std::uint32_t num_heads, std::uint32_t head_dim,
                           std::uint32_t rotary_dim, double base = 10000.0, int layout = 0) {
  posenc::RopeSpec spec;
  spec.seq_len = seq_len;
  spec.num_heads = num_heads;
  spec.head_dim = head_dim;
  spec.rotary_dim = rotary_dim;
  spec.base = base;
  spec.layout = static_cast<posenc::RopeLayout>(layout);
  return spec;
}

enum class RopeArrays { kBoth, kNullX, kNullOut };

// Two cases per input: out of place (x and a sentinel out must stay) and in place.
void add_rope_cases(std::vector<Case>& cases, const std::string& name, Status want, posenc::RopeSpec spec,
                    Where where = at_offset(0), RopeArrays arrays = RopeArrays::kBoth) {
  const std::uint64_t n = posenc::element_count(spec.seq_len, spec.num_heads, spec.head_dim);
  cases.push_back({"rope out of place: " + name, want, [=] {
                     std::vector<float> x = buffer_for(n, kInputFill), out = buffer_for(n, sentinel());
                     const std::vector<float> x_before = x, out_before = out;
                     const Status status =
                         posenc::rope(spec, where.get(), arrays == RopeArrays::kNullX ? nullptr : x.data(),
                                      arrays == RopeArrays::kNullOut ? nullptr : out.data());
                     return Outcome{status, unchanged(x, x_before) && unchanged(out, out_before)};
                   }});
  if (arrays != RopeArrays::kBoth) return;
  cases.push_back({"rope in place: " + name, want, [=] {
                     std::vector<float> x = buffer_for(n, kInputFill);
                     const std::vector<float> before = x;
                     const Status status = posenc::rope(spec, where.get(), x.data(), x.data());
                     return Outcome{status, unchanged(x, before)};
                   }});
}

std::vector<Case> rope_cases() {
  std::vector<Case> cases;
  add_rope_cases(cases, "seq_len kMaxSeqLen + 1", Status::kSeqLenTooLarge, rope_spec(posenc::kMaxSeqLen + 1, 1, 4, 4));
  add_rope_cases(cases, "num_heads 0", Status::kNumHeadsTooSmall, rope_spec(2, 0, 4, 4));
  add_rope_cases(cases, "num_heads kMaxDim + 1", Status::kNumHeadsTooLarge, rope_spec(1, posenc::kMaxDim + 1, 2, 2));
  // head_dim below 2 leaves no valid rotary_dim; the head_dim is what the caller must fix.
  add_rope_cases(cases, "head_dim 0", Status::kHeadDimTooSmall, rope_spec(2, 1, 0, 0));
  add_rope_cases(cases, "head_dim 1", Status::kHeadDimTooSmall, rope_spec(2, 1, 1, 0));
  add_rope_cases(cases, "head_dim kMaxDim + 1", Status::kHeadDimTooLarge, rope_spec(1, 1, posenc::kMaxDim + 1, 2));
  add_rope_cases(cases, "rotary_dim 3 of 4", Status::kRotaryDimOdd, rope_spec(2, 1, 4, 3));
  add_rope_cases(cases, "rotary_dim 63 of 64", Status::kRotaryDimOdd, rope_spec(2, 2, 64, 63));
  add_rope_cases(cases, "rotary_dim 0", Status::kRotaryDimTooSmall, rope_spec(2, 1, 4, 0));
  add_rope_cases(cases, "rotary_dim 6 of 4", Status::kRotaryDimTooLarge, rope_spec(2, 1, 4, 6));
  add_rope_cases(cases, "rotary_dim 66 of 65", Status::kRotaryDimTooLarge, rope_spec(2, 1, 65, 66));
  for (const double base : {0.0, -1.0, kNaN, kInf, -kInf})
    add_rope_cases(cases, "base " + std::to_string(base), Status::kBaseInvalid, rope_spec(2, 1, 4, 4, base));
  for (const int layout : {2, -1})
    add_rope_cases(cases, "layout " + std::to_string(layout), Status::kLayoutInvalid,
                   rope_spec(2, 1, 4, 4, 10000.0, layout));
  add_rope_cases(cases, "2^24 x 1 x 32", Status::kSizeTooLarge, rope_spec(1u << 24, 1, 32, 32));
  add_rope_cases(cases, "2^24 x 2^16 x 2^16 (2^56)", Status::kSizeTooLarge, rope_spec(1u << 24, 1u << 16, 1u << 16, 2));
  add_rope_cases(cases, "2 x 2^16 x 2^16 (2^33: wraps 32 bits)", Status::kSizeTooLarge,
                 rope_spec(2, 1u << 16, 1u << 16, 2));
  add_rope_cases(cases, "offset kMaxPosition, 2 rows", Status::kOffsetTooLarge, rope_spec(2, 1, 4, 4),
                 at_offset(kMaxPosition32));
  add_rope_cases(cases, "offset 2^32 - 1", Status::kOffsetTooLarge, rope_spec(1, 1, 4, 4), at_offset(0xffffffffu));
  add_rope_cases(cases, "position -1", Status::kPositionOutOfRange, rope_spec(3, 2, 4, 4), at_list({3, -1, 4}));
  add_rope_cases(cases, "null x", Status::kNullPointer, rope_spec(2, 1, 4, 4), at_offset(0), RopeArrays::kNullX);
  add_rope_cases(cases, "null out", Status::kNullPointer, rope_spec(2, 1, 4, 4), at_offset(0), RopeArrays::kNullOut);
  return cases;
}

// ---- rope_cache and rope_frequencies ---------------------------------------------------------

posenc::RopeCacheSpec cache_spec(std::uint32_t seq_len, std::uint32_t rotary_dim, double base = 10000.0) {
  posenc::RopeCacheSpec spec;
  spec.seq_len = seq_len;
  spec.rotary_dim = rotary_dim;
  spec.base = base;
  return spec;
}

enum class CacheArrays { kBoth, kNullCos, kNullSin };

void add_cache_case(std::vector<Case>& cases, const std::string& name, Status want, posenc::RopeCacheSpec spec,
                    Where where = at_offset(0), CacheArrays arrays = CacheArrays::kBoth) {
  const std::uint64_t n = posenc::element_count(spec.seq_len, spec.rotary_dim / 2 + 1);
  cases.push_back({"rope_cache: " + name, want, [=] {
                     std::vector<float> cos = buffer_for(n, sentinel()), sin = buffer_for(n, sentinel());
                     const Status status =
                         posenc::rope_cache(spec, where.get(), arrays == CacheArrays::kNullCos ? nullptr : cos.data(),
                                            arrays == CacheArrays::kNullSin ? nullptr : sin.data());
                     return Outcome{status, overwritten(cos) + overwritten(sin) == 0};
                   }});
}

void add_frequencies_case(std::vector<Case>& cases, const std::string& name, Status want, std::uint32_t rotary_dim,
                          double base = 10000.0, bool null_array = false) {
  cases.push_back({"rope_frequencies: " + name, want, [=] {
                     std::vector<double> out(std::min<std::uint32_t>(rotary_dim / 2 + 1, kBufferCap), -7.0);
                     const Status status =
                         posenc::rope_frequencies(rotary_dim, base, null_array ? nullptr : out.data());
                     const bool untouched = std::all_of(out.begin(), out.end(), [](double v) { return v == -7.0; });
                     return Outcome{status, untouched};
                   }});
}

std::vector<Case> rope_cache_cases() {
  std::vector<Case> cases;
  add_cache_case(cases, "seq_len kMaxSeqLen + 1", Status::kSeqLenTooLarge, cache_spec(posenc::kMaxSeqLen + 1, 4));
  add_cache_case(cases, "rotary_dim 5", Status::kRotaryDimOdd, cache_spec(2, 5));
  add_cache_case(cases, "rotary_dim 0", Status::kRotaryDimTooSmall, cache_spec(2, 0));
  add_cache_case(cases, "rotary_dim kMaxDim + 2", Status::kRotaryDimTooLarge, cache_spec(1, posenc::kMaxDim + 2));
  for (const double base : {0.0, -1.0, kNaN, kInf})
    add_cache_case(cases, "base " + std::to_string(base), Status::kBaseInvalid, cache_spec(2, 4, base));
  add_cache_case(cases, "2^24 x 2^15 (2^39)", Status::kSizeTooLarge, cache_spec(1u << 24, 1u << 16));
  add_cache_case(cases, "2^24 x 32", Status::kSizeTooLarge, cache_spec(1u << 24, 64));
  add_cache_case(cases, "offset kMaxPosition, 2 rows", Status::kOffsetTooLarge, cache_spec(2, 4),
                 at_offset(kMaxPosition32));
  add_cache_case(cases, "position -5", Status::kPositionOutOfRange, cache_spec(2, 4), at_list({-5, 0}));
  add_cache_case(cases, "null cos", Status::kNullPointer, cache_spec(2, 4), at_offset(0), CacheArrays::kNullCos);
  add_cache_case(cases, "null sin", Status::kNullPointer, cache_spec(2, 4), at_offset(0), CacheArrays::kNullSin);

  add_frequencies_case(cases, "rotary_dim 7", Status::kRotaryDimOdd, 7);
  add_frequencies_case(cases, "rotary_dim 0", Status::kRotaryDimTooSmall, 0);
  add_frequencies_case(cases, "rotary_dim kMaxDim + 2", Status::kRotaryDimTooLarge, posenc::kMaxDim + 2);
  for (const double base : {0.0, -1.0, kNaN, kInf})
    add_frequencies_case(cases, "base " + std::to_string(base), Status::kBaseInvalid, 8, base);
  add_frequencies_case(cases, "null array", Status::kNullPointer, 8, 10000.0, true);
  return cases;
}

// ---- position_numbers -----------------------------------------------------------------------

void add_numbers_case(std::vector<Case>& cases, const std::string& name, Status want, std::uint32_t seq_len,
                      std::uint32_t d_model, std::uint32_t offset = 0, bool null_array = false) {
  cases.push_back({"position_numbers: " + name, want, [=] {
                     posenc::PositionNumbersSpec spec;
                     spec.seq_len = seq_len;
                     spec.d_model = d_model;
                     spec.offset = offset;
                     std::vector<float> out = buffer_for(posenc::element_count(seq_len, d_model), sentinel());
                     const Status status = posenc::position_numbers(spec, null_array ? nullptr : out.data());
                     return Outcome{status, overwritten(out) == 0};
                   }});
}

std::vector<Case> position_numbers_cases() {
  std::vector<Case> cases;
  add_numbers_case(cases, "seq_len kMaxSeqLen + 1", Status::kSeqLenTooLarge, posenc::kMaxSeqLen + 1, 1);
  add_numbers_case(cases, "d_model 0", Status::kDModelTooSmall, 2, 0);
  add_numbers_case(cases, "d_model kMaxDim + 1", Status::kDModelTooLarge, 1, posenc::kMaxDim + 1);
  add_numbers_case(cases, "2^24 x 17", Status::kSizeTooLarge, 1u << 24, 17);
  add_numbers_case(cases, "2^24 x 2^16", Status::kSizeTooLarge, 1u << 24, 1u << 16);
  add_numbers_case(cases, "offset kMaxPosition, 2 rows", Status::kOffsetTooLarge, 2, 3, kMaxPosition32);
  add_numbers_case(cases, "null array", Status::kNullPointer, 2, 3, 0, true);
  return cases;
}

// ---- similarity -----------------------------------------------------------------------------

enum class SimilarityArrays { kAll, kNullA, kNullB, kNullOut };

void add_similarity_case(std::vector<Case>& cases, const std::string& name, Status want, std::uint32_t rows,
                         std::uint32_t cols, std::uint32_t dim, int metric = 0,
                         SimilarityArrays arrays = SimilarityArrays::kAll) {
  cases.push_back({"similarity: " + name, want, [=] {
                     posenc::SimilaritySpec spec;
                     spec.rows = rows;
                     spec.cols = cols;
                     spec.dim = dim;
                     spec.metric = static_cast<posenc::Metric>(metric);
                     const std::vector<float> a = buffer_for(posenc::element_count(rows, dim), kInputFill);
                     const std::vector<float> b = buffer_for(posenc::element_count(cols, dim), kInputFill);
                     std::vector<float> out = buffer_for(posenc::element_count(rows, cols), sentinel());
                     const Status status =
                         posenc::similarity(spec, arrays == SimilarityArrays::kNullA ? nullptr : a.data(),
                                            arrays == SimilarityArrays::kNullB ? nullptr : b.data(),
                                            arrays == SimilarityArrays::kNullOut ? nullptr : out.data());
                     return Outcome{status, overwritten(out) == 0};
                   }});
}

std::vector<Case> similarity_cases() {
  std::vector<Case> cases;
  add_similarity_case(cases, "rows kMaxSeqLen + 1", Status::kRowsTooLarge, posenc::kMaxSeqLen + 1, 1, 1);
  add_similarity_case(cases, "cols kMaxSeqLen + 1", Status::kColsTooLarge, 1, posenc::kMaxSeqLen + 1, 1);
  add_similarity_case(cases, "dim 0", Status::kDimTooSmall, 2, 2, 0);
  add_similarity_case(cases, "dim kMaxDim + 1", Status::kDimTooLarge, 1, 1, posenc::kMaxDim + 1);
  for (const int metric : {2, -1})
    add_similarity_case(cases, "metric " + std::to_string(metric), Status::kMetricInvalid, 2, 2, 4, metric);
  add_similarity_case(cases, "rows 2^24 x dim 17", Status::kSizeTooLarge, 1u << 24, 1, 17);
  add_similarity_case(cases, "cols 2^24 x dim 17", Status::kSizeTooLarge, 1, 1u << 24, 17);
  add_similarity_case(cases, "rows 2^24 x cols 2^24 (2^48)", Status::kSizeTooLarge, 1u << 24, 1u << 24, 1);
  add_similarity_case(cases, "rows 2^14 x cols 2^14 + 1", Status::kSizeTooLarge, 1u << 14, (1u << 14) + 1, 1);
  add_similarity_case(cases, "null a", Status::kNullPointer, 2, 2, 4, 0, SimilarityArrays::kNullA);
  add_similarity_case(cases, "null b", Status::kNullPointer, 2, 2, 4, 1, SimilarityArrays::kNullB);
  add_similarity_case(cases, "null out", Status::kNullPointer, 2, 2, 4, 0, SimilarityArrays::kNullOut);
  return cases;
}

void check_cases(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    INFO(c.name);
    const Outcome outcome = c.run();
    CHECK(outcome.status == c.want);
    CHECK(outcome.untouched);
  }
}

}  // namespace

TEST_CASE("sinusoidal_table and add_sinusoidal reject each bad input, writing nothing", "[status]") {
  check_cases(sinusoidal_cases());
}

TEST_CASE("rope rejects each bad input, writing nothing", "[status]") { check_cases(rope_cases()); }

TEST_CASE("rope_cache and rope_frequencies reject each bad input, writing nothing", "[status]") {
  check_cases(rope_cache_cases());
}

TEST_CASE("position_numbers rejects each bad input, writing nothing", "[status]") {
  check_cases(position_numbers_cases());
}

TEST_CASE("similarity rejects each bad input, writing nothing", "[status]") { check_cases(similarity_cases()); }

TEST_CASE("every error Status is reachable from the public functions", "[status]") {
  std::set<int> reached;
  for (const auto& cases :
       {sinusoidal_cases(), rope_cases(), rope_cache_cases(), position_numbers_cases(), similarity_cases()})
    for (const Case& c : cases) reached.insert(static_cast<int>(c.want));
  for (int code = static_cast<int>(Status::kSeqLenTooLarge); code <= static_cast<int>(Status::kNullPointer); ++code) {
    INFO("not covered: " << posenc::status_name(static_cast<Status>(code)));
    CHECK(reached.count(code) == 1);
  }
}

TEST_CASE("the limits themselves are accepted", "[status]") {
  // check() only: these sizes are valid but too large to allocate in a unit test.
  const std::vector<std::int32_t> largest = {static_cast<std::int32_t>(posenc::kMaxPosition), 0};
  CHECK(posenc::check(sinusoidal_spec(1u << 23, 32), from_offset(0)) == Status::kOk);  // exactly 2^28
  CHECK(posenc::check(sinusoidal_spec(1u << 12, 1u << 16), from_offset(0)) == Status::kOk);
  CHECK(posenc::check(sinusoidal_spec(posenc::kMaxSeqLen, 2), from_offset(kMaxPosition32 - posenc::kMaxSeqLen + 1)) ==
        Status::kOk);
  CHECK(posenc::check(sinusoidal_spec(2, 4), listed(largest)) == Status::kOk);
  CHECK(posenc::check(sinusoidal_spec(1, 2, 1e-300), from_offset(0)) == Status::kOk);
  CHECK(posenc::check(rope_spec(1u << 12, 1, 1u << 16, 1u << 16), from_offset(0)) == Status::kOk);
  CHECK(posenc::check(rope_spec(1, posenc::kMaxDim, 2, 2), from_offset(0)) == Status::kOk);
  CHECK(posenc::check(rope_spec(2, 1, 5, 4), listed(largest)) == Status::kOk);  // odd head_dim, partial rotary
  CHECK(posenc::check(cache_spec(1u << 13, 1u << 16), from_offset(0)) == Status::kOk);
  CHECK(posenc::check_frequencies(posenc::kMaxDim, 0.5) == Status::kOk);
  posenc::PositionNumbersSpec numbers;
  numbers.seq_len = 1u << 12;
  numbers.d_model = 1u << 16;
  numbers.offset = kMaxPosition32 - (1u << 12) + 1;
  CHECK(posenc::check(numbers) == Status::kOk);
  posenc::SimilaritySpec similarity;
  similarity.rows = similarity.cols = 1u << 14;
  similarity.dim = posenc::kMaxDim;
  CHECK(posenc::check(similarity) == Status::kSizeTooLarge);  // a: 2^30 values
  similarity.dim = 1u << 14;
  CHECK(posenc::check(similarity) == Status::kOk);
}

TEST_CASE("every Status has its own name", "[status]") {
  std::set<std::string> names;
  for (int code = static_cast<int>(Status::kOk); code <= static_cast<int>(Status::kNullPointer); ++code) {
    const std::string name = posenc::status_name(static_cast<Status>(code));
    INFO("code " << code);
    CHECK_FALSE(name.empty());
    CHECK(name != "unknown status");
    CHECK(names.insert(name).second);
  }
  CHECK(std::string(posenc::status_name(static_cast<Status>(999))) == "unknown status");
}
