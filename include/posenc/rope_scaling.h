// Long-context RoPE scaling: the frequency schedules of Hugging Face transformers' rope_types
// (modeling_rope_utils.py), so that a model's config can be passed over key for key.
//
//   linear    inv_freq_i / factor (position interpolation)
//   dynamic   NTK-aware: the base grows with the current sequence length L,
//             base' = base * (factor * L' / L0 - (factor - 1))^(d / (d - 2)), L' = max(L, L0)
//   yarn      per pair a blend of interpolation (inv_freq / factor) and extrapolation
//             (inv_freq), ramping between beta_fast and beta_slow rotations over L0; attention
//             factor 0.1 ln(factor) + 1 (or the mscale / mscale_all_dim ratio)
//   llama3    wavelengths above L0 / low_freq_factor divided by factor, below L0 /
//             high_freq_factor kept, a smooth blend in between (none when the two are equal)
//   longrope  inv_freq_i / ext_i with ext = long_factor when L > L0, else short_factor;
//             attention factor sqrt(1 + ln(s) / ln(L0)), s = max_position_embeddings / L0
//   proportional  (Gemma 4's global layers) the first int(p * d // 2) pairs turn at
//             inv_freq_i / factor, the other pairs not at all (frequency 0: cos 1, sin 0), p
//             being the rope dict's own partial_rotary_factor: the rotation spans all d channels
//             with an identity tail, unlike a rotary_dim prefix (whose exponents run over it)
//
// d is the rotary dimension and L the current sequence length (largest position + 1). Every
// value is computed in float64, with Hugging Face's expressions in Hugging Face's order. The
// attention factor multiplies cos and sin (Hugging Face's `attention_scaling`).
#pragma once

#include <cstdint>

#include "named_enum.h"
#include "status.h"

namespace posenc {

// X(enumerator, JS name, whether its schedule depends on the current sequence length), in value
// order (named_enum.h): the enum, depends_on_length() and describe()'s names come from it.
// clang-format off
#define POSENC_SCALING_TYPES(X) \
  X(kNone, "default", false) /* Hugging Face's "default" */ \
  X(kLinear, "linear", false) \
  X(kDynamic, "dynamic", true) \
  X(kYarn, "yarn", false) \
  X(kLlama3, "llama3", false) \
  X(kLongrope, "longrope", true) \
  X(kProportional, "proportional", false)
// clang-format on
#define POSENC_SCALING_ENUMERATOR(enumerator, name, by_length) POSENC_ENUMERATOR(enumerator, name)
enum class RopeScalingType : int { POSENC_SCALING_TYPES(POSENC_SCALING_ENUMERATOR) };
#undef POSENC_SCALING_ENUMERATOR

// A rope_scaling config. Only the fields of `type` are read; the others keep their defaults.
struct RopeScaling {
  RopeScalingType type = RopeScalingType::kNone;
  double factor = 1.0;                                 // linear, dynamic, yarn, llama3; longrope if has_factor
  bool has_factor = false;                             // longrope: factor given (else derived)
  std::uint32_t original_max_position_embeddings = 0;  // dynamic, yarn, llama3, longrope (L0)
  std::uint32_t max_position_embeddings = 0;           // longrope: factor = this / L0 when not given
  double attention_factor = 1.0;                       // yarn, longrope if has_attention_factor
  bool has_attention_factor = false;
  double beta_fast = 32.0, beta_slow = 1.0;              // yarn
  double mscale = 0.0, mscale_all_dim = 0.0;             // yarn; 0 = not given (Hugging Face: falsy)
  bool truncate = true;                                  // yarn: floor/ceil the correction range
  double low_freq_factor = 1.0, high_freq_factor = 4.0;  // llama3
  const double* short_factor = nullptr;                  // longrope: rotary_dim/2 entries each
  const double* long_factor = nullptr;
  std::uint32_t short_factor_count = 0, long_factor_count = 0;
  double proportion = 1.0;  // proportional: its partial_rotary_factor, in [0, 1]
};

// Every rule of the config for a rotary_dim-wide schedule with this base. The entries of
// short_factor/long_factor are checked only where their pointers are set (a check made before
// the lists are in memory checks their lengths).
Status check(const RopeScaling& scaling, std::uint32_t rotary_dim, double base);

// Whether the schedule depends on the current sequence length (POSENC_SCALING_TYPES).
bool depends_on_length(const RopeScaling& scaling);

// The inverse frequencies and attention factor of a checked config, at the current sequence
// length `length` (largest position + 1; 0 when there are no rows).
class FrequencySchedule {
 public:
  FrequencySchedule(const RopeScaling& scaling, std::uint32_t rotary_dim, double base, std::uint64_t length);

  double inverse_frequency(std::uint32_t pair) const;
  void fill(std::uint32_t first_pair, std::uint32_t count, double* out) const;
  double attention_factor() const { return attention_factor_; }

 private:
  RopeScalingType type_;
  std::uint32_t dim_;
  double base_;  // the (dynamic: grown) base
  double factor_ = 1.0;
  double ramp_low_ = 0, ramp_high_ = 0;  // yarn: correction range in pairs
  double original_ = 0;                  // llama3: L0
  double low_freq_factor_ = 1, high_freq_factor_ = 4;
  const double* ext_factors_ = nullptr;  // longrope: the chosen list
  std::uint32_t rotated_pairs_ = 0;      // proportional: pairs with a nonzero frequency
  double attention_factor_ = 1.0;
};

}  // namespace posenc
