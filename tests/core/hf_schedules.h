// Hugging Face transformers' RoPE frequency schedules (modeling_rope_utils.py), restated here
// from the Python for the tests, in float64 and vector style like the original: default,
// linear, dynamic (at a current length), yarn (get_mscale, mscale_all_dim, truncate), llama3,
// longrope (short/long by current length). Shares no code with src/.
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace hf {

struct Config {
  std::string rope_type = "default";
  double rope_theta = 10000.0;
  int dim = 0;  // int(head_dim * partial_rotary_factor)
  double factor = 1.0;
  std::optional<double> factor_given;  // longrope's optional factor
  int original_max_position_embeddings = 0;
  int max_position_embeddings = 0;
  std::optional<double> attention_factor;
  std::optional<double> beta_fast, beta_slow;
  std::optional<double> mscale, mscale_all_dim;
  bool truncate = true;
  double low_freq_factor = 1.0, high_freq_factor = 4.0;
  std::vector<double> short_factor, long_factor;
  double partial_rotary_factor = 1.0;  // proportional: rope_parameters' own (rope_proportion)
};

struct Schedule {
  std::vector<double> inv_freq;
  double attention_factor = 1.0;
};

inline const double kPi = std::acos(-1.0);

// 1.0 / (base ** (torch.arange(0, dim, 2) / dim))
inline std::vector<double> default_inv_freq(double base, int dim) {
  std::vector<double> out;
  for (int i = 0; i < dim; i += 2) out.push_back(1.0 / std::pow(base, static_cast<double>(i) / dim));
  return out;
}

inline Schedule linear(const Config& c) {
  std::vector<double> inv = default_inv_freq(c.rope_theta, c.dim);
  for (double& v : inv) v /= c.factor;
  return {inv, 1.0};
}

// seq_len: max(position_ids) + 1, or 0 (None). posenc's originalMaxPositionEmbeddings plays
// Hugging Face's config.max_position_embeddings here.
inline Schedule dynamic(const Config& c, long long seq_len) {
  const double max_position_embeddings = c.original_max_position_embeddings;
  const double len = seq_len > 0 ? std::max<double>(seq_len, max_position_embeddings) : max_position_embeddings;
  const double base = c.rope_theta * std::pow((c.factor * len / max_position_embeddings) - (c.factor - 1),
                                              static_cast<double>(c.dim) / (c.dim - 2));
  return {default_inv_freq(base, c.dim), 1.0};
}

inline double get_mscale(double scale, double mscale = 1) {
  if (scale <= 1) return 1.0;
  return 0.1 * mscale * std::log(scale) + 1.0;
}

inline Schedule yarn(const Config& c) {
  const double base = c.rope_theta, factor = c.factor;
  const int dim = c.dim;
  double attention_factor;
  if (c.attention_factor) {
    attention_factor = *c.attention_factor;
  } else if (c.mscale.value_or(0) != 0 && c.mscale_all_dim.value_or(0) != 0) {
    attention_factor = get_mscale(factor, *c.mscale) / get_mscale(factor, *c.mscale_all_dim);
  } else {
    attention_factor = get_mscale(factor);
  }
  const double beta_fast = c.beta_fast.value_or(0) != 0 ? *c.beta_fast : 32;
  const double beta_slow = c.beta_slow.value_or(0) != 0 ? *c.beta_slow : 1;
  const double original = c.original_max_position_embeddings;
  auto find_correction_dim = [&](double num_rotations) {
    return (dim * std::log(original / (num_rotations * 2 * kPi))) / (2 * std::log(base));
  };
  double low = find_correction_dim(beta_fast), high = find_correction_dim(beta_slow);
  if (c.truncate) {
    low = std::floor(low);
    high = std::ceil(high);
  }
  low = std::max(low, 0.0);
  high = std::min(high, dim - 1.0);
  if (low == high) high += 0.001;
  Schedule out{{}, attention_factor};
  for (int i = 0; i < dim / 2; ++i) {
    const double ramp = std::clamp((i - low) / (high - low), 0.0, 1.0);
    const double pos_freq = std::pow(base, static_cast<double>(2 * i) / dim);
    const double extrapolation = 1.0 / pos_freq, interpolation = 1.0 / (factor * pos_freq);
    const double extrapolation_factor = 1 - ramp;
    out.inv_freq.push_back(interpolation * (1 - extrapolation_factor) + extrapolation * extrapolation_factor);
  }
  return out;
}

inline Schedule llama3(const Config& c) {
  const std::vector<double> inv = default_inv_freq(c.rope_theta, c.dim);
  const double old_context_len = c.original_max_position_embeddings;
  const double low_freq_wavelen = old_context_len / c.low_freq_factor;
  const double high_freq_wavelen = old_context_len / c.high_freq_factor;
  Schedule out;
  for (const double f : inv) {
    const double wavelen = 2 * kPi / f;
    const double llama = wavelen > low_freq_wavelen ? f / c.factor : f;
    const double smooth = (old_context_len / wavelen - c.low_freq_factor) / (c.high_freq_factor - c.low_freq_factor);
    const double smoothed = (1 - smooth) * llama / c.factor + smooth * llama;
    const bool medium = !(wavelen < high_freq_wavelen) && !(wavelen > low_freq_wavelen);
    out.inv_freq.push_back(medium ? smoothed : llama);
  }
  return out;
}

inline Schedule longrope(const Config& c, long long seq_len) {
  const double original = c.original_max_position_embeddings;
  const double factor = c.factor_given ? *c.factor_given : c.max_position_embeddings / original;
  double attention_factor;
  if (c.attention_factor)
    attention_factor = *c.attention_factor;
  else
    attention_factor = factor <= 1.0 ? 1.0 : std::sqrt(1 + std::log(factor) / std::log(original));
  const std::vector<double>& ext = seq_len > original ? c.long_factor : c.short_factor;
  Schedule out{{}, attention_factor};
  for (int i = 0; i < c.dim / 2; ++i)
    out.inv_freq.push_back(1.0 / (ext[i] * std::pow(c.rope_theta, static_cast<double>(2 * i) / c.dim)));
  return out;
}

// _compute_proportional_rope_parameters: rope_angles = int(rope_proportion * head_dim // 2)
// pairs at 1 / base^(2i / head_dim), zeros for the rest, all divided by factor (dim plays head_dim).
inline Schedule proportional(const Config& c) {
  const int head_dim = c.dim;
  const int rope_angles = static_cast<int>(std::floor(c.partial_rotary_factor * head_dim / 2));
  Schedule out{{}, 1.0};
  for (int i = 0; i < 2 * rope_angles; i += 2)
    out.inv_freq.push_back(1.0 / std::pow(c.rope_theta, static_cast<double>(i) / head_dim));
  const int nope_angles = head_dim / 2 - rope_angles;
  for (int i = 0; i < nope_angles; ++i) out.inv_freq.push_back(0.0);
  for (double& v : out.inv_freq) v /= c.factor;
  return out;
}

inline Schedule schedule(const Config& c, long long seq_len = 0) {
  if (c.rope_type == "proportional") return proportional(c);
  if (c.rope_type == "linear") return linear(c);
  if (c.rope_type == "dynamic") return dynamic(c, seq_len);
  if (c.rope_type == "yarn") return yarn(c);
  if (c.rope_type == "llama3") return llama3(c);
  if (c.rope_type == "longrope") return longrope(c, seq_len);
  return {default_inv_freq(c.rope_theta, c.dim), 1.0};
}

}  // namespace hf
