#include "posenc/rope_scaling.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include "posenc/frequencies.h"
#include "posenc/size_limits.h"

namespace posenc {

namespace {

constexpr double kPi = 3.14159265358979323846;

bool finite_positive(double v) { return std::isfinite(v) && v > 0.0; }

// cos and sin times the attention factor are stored as float32: a larger factor makes them
// infinite from finite inputs.
constexpr double kMaxAttentionFactor = std::numeric_limits<float>::max();

bool valid_attention_factor(double v) { return finite_positive(v) && v <= kMaxAttentionFactor; }

Status check_list(const double* values, std::uint32_t count, std::uint32_t want, Status wrong_length,
                  Status wrong_value) {
  if (count != want) return wrong_length;
  if (values == nullptr) return Status::kOk;  // checked again once the list is in memory
  for (std::uint32_t i = 0; i < count; ++i)
    if (!finite_positive(values[i])) return wrong_value;
  return Status::kOk;
}

// YaRN's mscale: 0.1 * mscale * ln(scale) + 1 for scale > 1 (Hugging Face's get_mscale).
double yarn_mscale(double scale, double mscale) {
  if (scale <= 1.0) return 1.0;
  return 0.1 * mscale * std::log(scale) + 1.0;
}

// The pair index at which `rotations` full turns fit into L0 positions (YaRN's
// find_correction_dim): dim * ln(L0 / (rotations * 2 pi)) / (2 ln base).
double correction_pair(double rotations, double dim, double base, double original) {
  return (dim * std::log(original / (rotations * 2.0 * kPi))) / (2.0 * std::log(base));
}

double yarn_attention_factor(const RopeScaling& s) {
  if (s.has_attention_factor) return s.attention_factor;
  if (s.mscale != 0.0 && s.mscale_all_dim != 0.0)
    return yarn_mscale(s.factor, s.mscale) / yarn_mscale(s.factor, s.mscale_all_dim);
  return yarn_mscale(s.factor, 1.0);
}

double longrope_attention_factor(const RopeScaling& s) {
  if (s.has_attention_factor) return s.attention_factor;
  const double original = s.original_max_position_embeddings;
  const double factor = s.has_factor ? s.factor : s.max_position_embeddings / original;
  if (factor <= 1.0) return 1.0;
  return std::sqrt(1.0 + std::log(factor) / std::log(original));
}

}  // namespace

Status check(const RopeScaling& s, std::uint32_t rotary_dim, double base) {
  const RopeScalingType type = s.type;
  if (type != RopeScalingType::kNone && type != RopeScalingType::kLinear && type != RopeScalingType::kDynamic &&
      type != RopeScalingType::kYarn && type != RopeScalingType::kLlama3 && type != RopeScalingType::kLongrope &&
      type != RopeScalingType::kProportional)
    return Status::kScalingTypeInvalid;
  if (type == RopeScalingType::kNone) return Status::kOk;

  const bool factor_used = type != RopeScalingType::kLongrope || s.has_factor;
  if (factor_used && !(std::isfinite(s.factor) && s.factor >= 1.0)) return Status::kScalingFactorInvalid;
  if (type != RopeScalingType::kLinear && type != RopeScalingType::kProportional &&
      s.original_max_position_embeddings < 2)
    return Status::kOriginalMaxPositionInvalid;

  switch (type) {
    case RopeScalingType::kDynamic:
      if (rotary_dim < 4) return Status::kDynamicRotaryDimTooSmall;
      break;
    case RopeScalingType::kYarn:
      if (!finite_positive(s.beta_slow)) return Status::kBetaSlowInvalid;
      if (!finite_positive(s.beta_fast) || s.beta_fast < s.beta_slow) return Status::kBetaFastInvalid;
      if (s.has_attention_factor && !valid_attention_factor(s.attention_factor)) return Status::kAttentionFactorInvalid;
      if (!std::isfinite(s.mscale) || s.mscale < 0.0) return Status::kMscaleInvalid;
      if (!std::isfinite(s.mscale_all_dim) || s.mscale_all_dim < 0.0) return Status::kMscaleAllDimInvalid;
      if (base == 1.0) return Status::kYarnBaseInvalid;
      break;
    case RopeScalingType::kLlama3:
      if (!finite_positive(s.low_freq_factor)) return Status::kLowFreqFactorInvalid;
      // Equal factors (Llama 4 Scout: 1 and 1) leave no blend band: a step at L0 / low_freq_factor.
      if (!std::isfinite(s.high_freq_factor) || !(s.high_freq_factor >= s.low_freq_factor))
        return Status::kHighFreqFactorInvalid;
      break;
    case RopeScalingType::kLongrope: {
      const std::uint32_t pairs = rotary_dim / 2;
      if (const Status status = check_list(s.short_factor, s.short_factor_count, pairs, Status::kShortFactorLength,
                                           Status::kShortFactorInvalid);
          status != Status::kOk)
        return status;
      if (const Status status = check_list(s.long_factor, s.long_factor_count, pairs, Status::kLongFactorLength,
                                           Status::kLongFactorInvalid);
          status != Status::kOk)
        return status;
      if (s.has_attention_factor && !valid_attention_factor(s.attention_factor)) return Status::kAttentionFactorInvalid;
      if (!s.has_attention_factor && !s.has_factor && s.max_position_embeddings < s.original_max_position_embeddings)
        return Status::kMaxPositionEmbeddingsInvalid;
      break;
    }
    case RopeScalingType::kProportional:
      // Hugging Face documents [0, 1]; above 1 its frequency list outgrows the head.
      if (!(s.proportion >= 0.0 && s.proportion <= 1.0)) return Status::kProportionInvalid;
      break;
    default:
      break;
  }
  // Every angle the core can form (positions up to kMaxPosition) and the attention factor must
  // stay finite at any length: subnormal betas or factor entries would overflow them. Longrope
  // lists can only be read once they are in memory.
  if (type != RopeScalingType::kLongrope || (s.short_factor != nullptr && s.long_factor != nullptr)) {
    for (const std::uint64_t length : {std::uint64_t{0}, static_cast<std::uint64_t>(kMaxPosition) + 1}) {
      const FrequencySchedule schedule(s, rotary_dim, base, length);
      if (!valid_attention_factor(schedule.attention_factor())) return Status::kScalingOverflow;
      for (std::uint32_t pair = 0; pair < rotary_dim / 2; ++pair) {
        const double inv_freq = schedule.inverse_frequency(pair);
        if (!(inv_freq >= 0.0) || !std::isfinite(inv_freq * static_cast<double>(kMaxPosition)))
          return Status::kScalingOverflow;
      }
    }
  }
  return Status::kOk;
}

bool depends_on_length(const RopeScaling& scaling) {
#define POSENC_BY_LENGTH(enumerator, name, by_length) by_length,
  static constexpr bool kByLength[] = {POSENC_SCALING_TYPES(POSENC_BY_LENGTH)};
#undef POSENC_BY_LENGTH
  const auto type = static_cast<std::size_t>(scaling.type);
  return type < sizeof kByLength && kByLength[type];
}

FrequencySchedule::FrequencySchedule(const RopeScaling& s, std::uint32_t rotary_dim, double base, std::uint64_t length)
    : type_(s.type), dim_(rotary_dim), base_(base), factor_(s.factor) {
  const double dim = rotary_dim;
  const double original = s.original_max_position_embeddings;
  switch (type_) {
    case RopeScalingType::kDynamic: {
      // Hugging Face evaluates the formula at max(L, L0): at or below L0 it gives the base back.
      const double current = std::max(static_cast<double>(length), original);
      // HF's (factor * L / L0) - (factor - 1), written without its cancellation: for huge
      // factors the difference of two rounded products is 0 (a zero base, NaN angles).
      base_ = base * std::pow(1.0 + s.factor * (current / original - 1.0), dim / (dim - 2.0));
      break;
    }
    case RopeScalingType::kYarn: {
      double low = correction_pair(s.beta_fast, dim, base, original);
      double high = correction_pair(s.beta_slow, dim, base, original);
      if (s.truncate) {
        low = std::floor(low);
        high = std::ceil(high);
      }
      ramp_low_ = std::max(low, 0.0);
      ramp_high_ = std::min(high, dim - 1.0);
      if (ramp_low_ == ramp_high_) ramp_high_ += 0.001;  // Hugging Face: prevents a singular ramp
      attention_factor_ = yarn_attention_factor(s);
      break;
    }
    case RopeScalingType::kLlama3:
      original_ = original;
      low_freq_factor_ = s.low_freq_factor;
      high_freq_factor_ = s.high_freq_factor;
      break;
    case RopeScalingType::kProportional:
      // Hugging Face's rope_angles = int(rope_proportion * head_dim // 2): the float64 product,
      // floored after halving (exact), here with the rotary width as head_dim.
      rotated_pairs_ = static_cast<std::uint32_t>(std::floor(s.proportion * dim / 2.0));
      break;
    case RopeScalingType::kLongrope:
      ext_factors_ = length > s.original_max_position_embeddings ? s.long_factor : s.short_factor;
      attention_factor_ = longrope_attention_factor(s);
      break;
    default:
      break;
  }
}

double FrequencySchedule::inverse_frequency(std::uint32_t pair) const {
  switch (type_) {
    case RopeScalingType::kLinear:
      return posenc::inverse_frequency(pair, dim_, base_) / factor_;
    case RopeScalingType::kYarn: {
      const double pos_freq = std::pow(base_, static_cast<double>(2 * static_cast<std::uint64_t>(pair)) / dim_);
      const double extrapolation = 1.0 / pos_freq;
      const double interpolation = 1.0 / (factor_ * pos_freq);
      const double ramp = std::clamp((pair - ramp_low_) / (ramp_high_ - ramp_low_), 0.0, 1.0);
      const double extrapolation_factor = 1.0 - ramp;
      return interpolation * (1.0 - extrapolation_factor) + extrapolation * extrapolation_factor;
    }
    case RopeScalingType::kLlama3: {
      const double inv = posenc::inverse_frequency(pair, dim_, base_);
      const double wavelength = 2.0 * kPi / inv;
      const double low_freq_wavelength = original_ / low_freq_factor_;
      const double high_freq_wavelength = original_ / high_freq_factor_;
      if (wavelength < high_freq_wavelength) return inv;           // high frequencies: kept
      if (wavelength > low_freq_wavelength) return inv / factor_;  // low frequencies: interpolated
      // Equal factors: only a wavelength exactly at the step gets here, where transformers' blend
      // divides 0 by 0 (NaN); it is interpolated, as the blend's low-frequency end is.
      if (high_freq_factor_ == low_freq_factor_) return inv / factor_;
      const double smooth = (original_ / wavelength - low_freq_factor_) / (high_freq_factor_ - low_freq_factor_);
      return (1.0 - smooth) * inv / factor_ + smooth * inv;
    }
    case RopeScalingType::kLongrope: {
      const double exponent = static_cast<double>(2 * static_cast<std::uint64_t>(pair)) / dim_;
      return 1.0 / (ext_factors_[pair] * std::pow(base_, exponent));
    }
    case RopeScalingType::kProportional:
      // inv_freq_rotated = 1 / base^(2i / head_dim), zeros after, then inv_freq /= factor.
      if (pair >= rotated_pairs_) return 0.0;
      return posenc::inverse_frequency(pair, dim_, base_) / factor_;
    default:  // none, dynamic (its grown base)
      return posenc::inverse_frequency(pair, dim_, base_);
  }
}

void FrequencySchedule::fill(std::uint32_t first_pair, std::uint32_t count, double* out) const {
  for (std::uint32_t i = 0; i < count; ++i) out[i] = inverse_frequency(first_pair + i);
}

}  // namespace posenc
