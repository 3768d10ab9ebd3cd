#!/usr/bin/python3
"""Golden vectors for long-context RoPE scaling: tests/golden/rope-scaling.json.

A transcription of Hugging Face transformers' frequency schedules (modeling_rope_utils.py:
_compute_default_rope_parameters, _compute_linear_scaling_rope_parameters,
_compute_dynamic_ntk_parameters, _compute_yarn_parameters with get_mscale / mscale_all_dim /
truncate, _compute_llama3_parameters, _compute_longrope_parameters, _compute_proportional_rope_parameters
(transformers main as mirrored in nishu-opsera/transformers-main@15b298bc5fce7c3275bce4e6cf92041720e93ab7,
src/transformers/modeling_rope_utils.py), and the dynamic/longrope
sequence-length updates of dynamic_rope_update), evaluated in torch float64 (Hugging Face runs
them in float32; the formulas are the same). transformers itself cannot be installed here, so
this is a faithful re-statement of its formulas, not a call into it.

Every case is a real model's config (camelCase keys, as posenc takes them) unless its name
says "synthetic". For each: the inverse frequencies and attention factor at a current sequence
length, and cos/sin (times the attention factor, as Hugging Face's rotary embedding returns
them) at a few positions.

Run with Debian's python (torch 1.13): /usr/bin/python3 scripts/make_golden_scaling.py
"""
import json
import math
import pathlib

import torch

torch.set_default_dtype(torch.float64)

# Phi-3.5-mini-instruct config.json: rope_scaling (type "longrope"), head_dim 3072 / 32 = 96.
PHI35_LONG = [
    1.0800000429153442, 1.1100000143051147, 1.1399999856948853, 1.340000033378601, 1.5899999141693115,
    1.600000023841858, 1.6200000047683716, 2.620000123977661, 3.2300000190734863, 3.2300000190734863,
    4.789999961853027, 7.400000095367432, 7.700000286102295, 9.09000015258789, 12.199999809265137,
    17.670000076293945, 24.46000099182129, 28.57000160217285, 30.420001983642578, 30.840002059936523,
    32.590003967285156, 32.93000411987305, 42.320003509521484, 44.96000289916992, 50.340003967285156,
    50.45000457763672, 57.55000305175781, 57.93000411987305, 58.21000289916992, 60.1400032043457,
    62.61000442504883, 62.62000274658203, 62.71000289916992, 63.1400032043457, 63.1400032043457,
    63.77000427246094, 63.93000411987305, 63.96000289916992, 63.970001220703125, 64.02999877929688,
    64.06999969482422, 64.08000183105469, 64.12000274658203, 64.41000366210938, 64.4800033569336,
    64.51000213623047, 64.52999877929688, 64.83999633789062,
]
PHI35_SHORT = [
    1.0, 1.0199999809265137, 1.0299999713897705, 1.0299999713897705, 1.0499999523162842,
    1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0699999332427979,
    1.0999999046325684, 1.1099998950958252, 1.1599998474121094, 1.1599998474121094, 1.1699998378753662,
    1.2899998426437378, 1.339999794960022, 1.679999828338623, 1.7899998426437378, 1.8199998140335083,
    1.8499997854232788, 1.8799997568130493, 1.9099997282028198, 1.9399996995925903, 1.9899996519088745,
    2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346,
    2.0199997425079346, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914,
    2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914,
    2.0799996852874756, 2.0899996757507324, 2.189999580383301, 2.2199995517730713, 2.5899994373321533,
    2.729999542236328, 2.749999523162842, 2.8399994373321533,
]
# Phi-3-vision-128k-instruct config.json: rope_scaling (type "su", the old name of longrope),
# the same Phi-3 geometry (head_dim 96, original 4096, max 131072).
PHI3_SU_LONG = [
    1.0299999713897705, 1.0499999523162842, 1.0499999523162842, 1.0799999237060547, 1.2299998998641968,
    1.2299998998641968, 1.2999999523162842, 1.4499999284744263, 1.5999999046325684, 1.6499998569488525,
    1.8999998569488525, 2.859999895095825, 3.68999981880188, 5.419999599456787, 5.489999771118164,
    5.489999771118164, 9.09000015258789, 11.579999923706055, 15.65999984741211, 15.769999504089355,
    15.789999961853027, 18.360000610351562, 21.989999771118164, 23.079999923706055, 30.009998321533203,
    32.35000228881836, 32.590003967285156, 35.56000518798828, 39.95000457763672, 53.840003967285156,
    56.20000457763672, 57.95000457763672, 59.29000473022461, 59.77000427246094, 59.920005798339844,
    61.190006256103516, 61.96000671386719, 62.50000762939453, 63.3700065612793, 63.48000717163086,
    63.48000717163086, 63.66000747680664, 63.850006103515625, 64.08000946044922, 64.760009765625,
    64.80001068115234, 64.81001281738281, 64.81001281738281,
]
PHI3_SU_SHORT = [
    1.05, 1.05, 1.05, 1.1, 1.1, 1.1, 1.2500000000000002, 1.2500000000000002, 1.4000000000000004,
    1.4500000000000004, 1.5500000000000005, 1.8500000000000008, 1.9000000000000008, 2.000000000000001,
    2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
    2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
    2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
    2.000000000000001, 2.000000000000001, 2.000000000000001, 2.1000000000000005, 2.1000000000000005,
    2.2, 2.3499999999999996, 2.3499999999999996, 2.3499999999999996, 2.3499999999999996,
    2.3999999999999995, 2.3999999999999995, 2.6499999999999986, 2.6999999999999984, 2.8999999999999977,
    2.9499999999999975, 3.049999999999997, 3.049999999999997, 3.049999999999997,
]


# ---- Hugging Face's schedules ------------------------------------------------------------------

def rotary_dim(head_dim, partial_rotary_factor):
    return int(head_dim * partial_rotary_factor)


def default_inv_freq(base, dim):
    return 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).to(torch.float64) / dim))


def linear(base, dim, s):
    return default_inv_freq(base, dim) / s["factor"], 1.0


def dynamic(base, dim, s, seq_len):
    # Hugging Face reads L0 from config.max_position_embeddings; posenc names it
    # originalMaxPositionEmbeddings. seq_len: max(position_ids) + 1, at least L0.
    original = s["originalMaxPositionEmbeddings"]
    factor = s["factor"]
    seq_len = max(seq_len or original, original)
    base = base * ((factor * seq_len / original) - (factor - 1)) ** (dim / (dim - 2))
    return default_inv_freq(base, dim), 1.0


def yarn(base, dim, s):
    factor = s["factor"]
    original = s["originalMaxPositionEmbeddings"]
    mscale = s.get("mscale")
    mscale_all_dim = s.get("mscaleAllDim")

    def get_mscale(scale, m=1):
        if scale <= 1:
            return 1.0
        return 0.1 * m * math.log(scale) + 1.0

    attention_factor = s.get("attentionFactor")
    if attention_factor is None:
        if mscale and mscale_all_dim:
            attention_factor = float(get_mscale(factor, mscale) / get_mscale(factor, mscale_all_dim))
        else:
            attention_factor = get_mscale(factor)
    beta_fast = s.get("betaFast") or 32
    beta_slow = s.get("betaSlow") or 1

    def find_correction_dim(num_rotations):
        return (dim * math.log(original / (num_rotations * 2 * math.pi))) / (2 * math.log(base))

    low = find_correction_dim(beta_fast)
    high = find_correction_dim(beta_slow)
    if s.get("truncate", True):
        low = math.floor(low)
        high = math.ceil(high)
    low, high = max(low, 0), min(high, dim - 1)
    if low == high:
        high += 0.001
    ramp = torch.clamp((torch.arange(dim // 2, dtype=torch.float64) - low) / (high - low), 0, 1)

    pos_freqs = base ** (torch.arange(0, dim, 2).to(torch.float64) / dim)
    inv_freq_extrapolation = 1.0 / pos_freqs
    inv_freq_interpolation = 1.0 / (factor * pos_freqs)
    inv_freq_extrapolation_factor = 1 - ramp
    inv_freq = (inv_freq_interpolation * (1 - inv_freq_extrapolation_factor)
                + inv_freq_extrapolation * inv_freq_extrapolation_factor)
    return inv_freq, attention_factor


def llama3(base, dim, s):
    inv_freq = default_inv_freq(base, dim)
    factor = s["factor"]
    low_freq_factor = s["lowFreqFactor"]
    high_freq_factor = s["highFreqFactor"]
    old_context_len = s["originalMaxPositionEmbeddings"]
    low_freq_wavelen = old_context_len / low_freq_factor
    high_freq_wavelen = old_context_len / high_freq_factor
    wavelen = 2 * math.pi / inv_freq
    inv_freq_llama = torch.where(wavelen > low_freq_wavelen, inv_freq / factor, inv_freq)
    smooth_factor = (old_context_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    smoothed_inv_freq = (1 - smooth_factor) * inv_freq_llama / factor + smooth_factor * inv_freq_llama
    is_medium_freq = ~(wavelen < high_freq_wavelen) * ~(wavelen > low_freq_wavelen)
    return torch.where(is_medium_freq, smoothed_inv_freq, inv_freq_llama), 1.0


def longrope(base, dim, s, seq_len):
    original = s["originalMaxPositionEmbeddings"]
    factor = s.get("factor")
    if factor is None:
        factor = s["maxPositionEmbeddings"] / original
    attention_factor = s.get("attentionFactor")
    if attention_factor is None:
        attention_factor = 1.0 if factor <= 1.0 else math.sqrt(1 + math.log(factor) / math.log(original))
    # longrope_frequency_update: the long factors once max(position_ids) + 1 exceeds L0.
    ext = s["longFactor"] if seq_len and seq_len > original else s["shortFactor"]
    ext_factors = torch.tensor(ext, dtype=torch.float64)
    inv_freq_shape = torch.arange(0, dim, 2, dtype=torch.int64).to(torch.float64) / dim
    return 1.0 / (ext_factors * base ** inv_freq_shape), attention_factor


def proportional(base, head_dim, s):
    # _compute_proportional_rope_parameters, line for line (dtype float64 for torch.float); its
    # head_dim is the width of cos/sin, posenc's rotaryDim. rope_proportion is the rope dict's
    # own partial_rotary_factor.
    factor = s.get("factor", 1.0)
    rope_proportion = s.get("partialRotaryFactor", 1.0)

    attention_factor = 1.0  # Unused in this type of RoPE

    rope_angles = int(rope_proportion * head_dim // 2)

    inv_freq_rotated = 1.0 / (
        base
        ** (torch.arange(0, 2 * rope_angles, 2, dtype=torch.int64).to(dtype=torch.float64) / head_dim)
    )

    nope_angles = head_dim // 2 - rope_angles
    if nope_angles > 0:
        inv_freq = torch.cat(
            (
                inv_freq_rotated,
                torch.zeros(nope_angles, dtype=torch.float64),
            ),
            dim=0,
        )
    else:
        inv_freq = inv_freq_rotated

    inv_freq /= factor
    return inv_freq, attention_factor


def schedule(base, dim, scaling, seq_len):
    kind = scaling["type"] if scaling else "default"
    if kind == "default":
        return default_inv_freq(base, dim), 1.0
    if kind == "linear":
        return linear(base, dim, scaling)
    if kind == "dynamic":
        return dynamic(base, dim, scaling, seq_len)
    if kind == "yarn":
        return yarn(base, dim, scaling)
    if kind == "llama3":
        return llama3(base, dim, scaling)
    if kind == "longrope":
        return longrope(base, dim, scaling, seq_len)
    if kind == "proportional":
        return proportional(base, dim, scaling)
    raise ValueError(kind)


# ---- the cases -----------------------------------------------------------------------------------

LLAMA31 = {"type": "llama3", "factor": 8.0, "lowFreqFactor": 1.0, "highFreqFactor": 4.0,
           "originalMaxPositionEmbeddings": 8192}
LLAMA32 = {"type": "llama3", "factor": 32.0, "lowFreqFactor": 1.0, "highFreqFactor": 4.0,
           "originalMaxPositionEmbeddings": 8192}
# Llama 4 Scout's text_config: equal low and high factors, no blend band (a step at L0).
LLAMA4_SCOUT = {"type": "llama3", "factor": 16.0, "lowFreqFactor": 1.0, "highFreqFactor": 1.0,
                "originalMaxPositionEmbeddings": 8192}
QWEN2_YARN = {"type": "yarn", "factor": 4.0, "originalMaxPositionEmbeddings": 32768}
DEEPSEEK_V3_YARN = {"type": "yarn", "factor": 40.0, "originalMaxPositionEmbeddings": 4096, "betaFast": 32,
                    "betaSlow": 1, "mscale": 1.0, "mscaleAllDim": 1.0}
GPT_OSS_YARN = {"type": "yarn", "factor": 32.0, "originalMaxPositionEmbeddings": 4096, "betaFast": 32.0,
                "betaSlow": 1.0, "truncate": False}
PHI35 = {"type": "longrope", "shortFactor": PHI35_SHORT, "longFactor": PHI35_LONG,
         "originalMaxPositionEmbeddings": 4096, "maxPositionEmbeddings": 131072}
PHI3_SU = {"type": "longrope", "shortFactor": PHI3_SU_SHORT, "longFactor": PHI3_SU_LONG,
           "originalMaxPositionEmbeddings": 4096, "maxPositionEmbeddings": 131072}

CASES = [
    # name, base, head_dim, partial_rotary_factor, scaling, seq_len (current length; 0 = not given)
    ("Llama 3.1 8B (llama3)", 500000.0, 128, None, LLAMA31, 0),
    ("Llama 3.2 1B (llama3, factor 32)", 500000.0, 64, None, LLAMA32, 0),
    ("Llama 4 Scout (llama3, factor 16, low = high frequency factor 1)", 500000.0, 128, None, LLAMA4_SCOUT, 0),
    ("Qwen2.5-7B-Instruct with YaRN (yarn, factor 4)", 1000000.0, 128, None, QWEN2_YARN, 0),
    ("DeepSeek-V3 (yarn, factor 40, mscale = mscale_all_dim = 1)", 10000.0, 64, None, DEEPSEEK_V3_YARN, 0),
    ("yarn with mscale 1.0 / mscale_all_dim 0.5 (synthetic)", 10000.0, 64, None,
     dict(DEEPSEEK_V3_YARN, mscaleAllDim=0.5), 0),
    ("yarn with attentionFactor and betas 16/2 (synthetic)", 10000.0, 128, None,
     {"type": "yarn", "factor": 8.0, "originalMaxPositionEmbeddings": 2048, "betaFast": 16.0, "betaSlow": 2.0,
      "attentionFactor": 0.8}, 0),
    ("gpt-oss style yarn (factor 32, L0 4096, truncate false, theta 150000, head_dim 64)", 150000.0, 64, None,
     GPT_OSS_YARN, 0),
    ("Phi-3.5-mini-instruct (longrope), short: seqLen 4096", 10000.0, 96, None, PHI35, 4096),
    ("Phi-3.5-mini-instruct (longrope), long: seqLen 4097", 10000.0, 96, None, PHI35, 4097),
    ("Phi-3-vision-128k-instruct (longrope 'su'), short: seqLen 1000", 10000.0, 96, None, PHI3_SU, 1000),
    ("Phi-3-vision-128k-instruct (longrope 'su'), long: seqLen 131072", 10000.0, 96, None, PHI3_SU, 131072),
    ("GPT-NeoX-20B (partial rotary, rotary_pct 0.25)", 10000.0, 96, 0.25, None, 0),
    ("Phi-2 (partial rotary 0.4)", 10000.0, 80, 0.4, None, 0),
    ("linear, factor 2 (Llama 2 7B geometry)", 10000.0, 128, None, {"type": "linear", "factor": 2.0}, 0),
    ("dynamic, factor 2, L0 2048: seqLen 1000 (below)", 10000.0, 128, None,
     {"type": "dynamic", "factor": 2.0, "originalMaxPositionEmbeddings": 2048}, 1000),
    ("dynamic, factor 2, L0 2048: seqLen 2048 (at)", 10000.0, 128, None,
     {"type": "dynamic", "factor": 2.0, "originalMaxPositionEmbeddings": 2048}, 2048),
    ("dynamic, factor 2, L0 2048: seqLen 4096 (above)", 10000.0, 128, None,
     {"type": "dynamic", "factor": 2.0, "originalMaxPositionEmbeddings": 2048}, 4096),
    ("dynamic, factor 2, L0 2048: seqLen 100000 (far above)", 10000.0, 128, None,
     {"type": "dynamic", "factor": 2.0, "originalMaxPositionEmbeddings": 2048}, 100000),
    # Gemma 4's full-attention layers (transformers' Gemma4TextConfig defaults: rope_parameters
    # full_attention {rope_type "proportional", partial_rotary_factor 0.25, rope_theta 1e6}, read
    # with global_head_dim 512): 64 of 256 pairs turn.
    ("Gemma 4 global layers (proportional, partial 0.25, head 512)", 1000000.0, 512, None,
     {"type": "proportional", "partialRotaryFactor": 0.25}, 0),
    ("proportional, partial 0.3 of 96 (int(28.8 // 2) = 14 pairs), factor 2 (synthetic)", 10000.0, 96, None,
     {"type": "proportional", "factor": 2.0, "partialRotaryFactor": 0.3}, 0),
    ("proportional, factor 4, no partial (synthetic: linear scaling)", 10000.0, 64, None,
     {"type": "proportional", "factor": 4.0}, 0),
    ("proportional, partial 0 (synthetic: nothing turns)", 10000.0, 64, None,
     {"type": "proportional", "partialRotaryFactor": 0.0}, 0),
]


def positions_for(seq_len):
    """A few positions; the largest is seq_len - 1 when seq_len is given (the schedule's length)."""
    last = (seq_len or 8192) - 1
    return sorted({0, 1, 2, 17, last // 2, last})


def main():
    cases = []
    for name, base, head_dim, partial, scaling, seq_len in CASES:
        dim = rotary_dim(head_dim, partial) if partial else head_dim
        inv_freq, attention_factor = schedule(base, dim, scaling, seq_len)
        positions = positions_for(seq_len)
        angles = torch.tensor(positions, dtype=torch.float64)[:, None] * inv_freq[None, :]
        cases.append({
            "name": name,
            "base": base,
            "headDim": head_dim,
            "partialRotaryFactor": partial,
            "rotaryDim": dim,
            "scaling": scaling,
            "seqLen": seq_len,
            "invFreq": inv_freq.tolist(),
            "attentionFactor": float(attention_factor),
            "positions": positions,
            "cos": (torch.cos(angles) * attention_factor).tolist(),
            "sin": (torch.sin(angles) * attention_factor).tolist(),
        })
    out = {
        "generator": "scripts/make_golden_scaling.py (a transcription of Hugging Face transformers' "
                     "modeling_rope_utils.py formulas, torch float64)",
        "torch": torch.__version__,
        "cases": cases,
    }
    path = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "rope-scaling.json"
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {path} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
