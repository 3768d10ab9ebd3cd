#!/usr/bin/python3
"""Golden values for posenc's fromHfConfig: tests/golden/hf-configs.json.

For each config.json under tests/js/hf-configs/ (its README.md says where each comes from), what
Hugging Face transformers computes from that file: the model's geometry, its RoPE pairing, and
for each layer the inverse frequencies and attention factor of the rotary embedding that layer
applies (or none: NoPE layers), in float64.

transformers cannot be installed here, so its reading of a config is transcribed below, once in
its 4.x form (config.rope_scaling, as in v4.57's modeling_rope_utils.py) and once in its 5 form
(config.rope_parameters after RotaryEmbeddingConfigMixin.convert_rope_params_to_dict and
standardize_rope_params), each step naming the transformers function it restates; the script
checks that both give the same parameters for every layer of every file. The schedules themselves
(_compute_*_parameters) are make_golden_scaling.py's transcription, imported, not copied.

Which rotary embedding each layer applies restates, as read from these stored sources:
Gemma3TextConfig and Gemma3TextModel in 4.x (huggingface/transformers@008f5c8c29be, with
sliding_window_pattern; feisenyu/transformers_4573@9c66b2210393, with layer_types) and 5
(zucchini-nlp/transformers@26892c16b782 configuration, @16d622f00803 modeling); Cohere2Config
(huggingface/transformers@008e57439125) and Cohere2Attention / CohereRotaryEmbedding
(feisenyu/transformers_4573@9c66b2210393, huggingface/transformers@015bfeb86891); SmolLM3Config
(huggingface/transformers@008e57439125); Llama4TextConfig (@008e57439125) and
Llama4TextAttention / apply_rotary_emb (@000c33fdfde1).

Run with Debian's python (torch 1.13): /usr/bin/python3 scripts/make_golden_hf_configs.py
"""
import json
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from make_golden_scaling import schedule  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
CONFIGS = ROOT / "tests" / "js" / "hf-configs"
DEFAULT_THETA = 10000.0  # RotaryEmbeddingConfigMixin.default_theta; the rope_theta default of config classes not below

# What the per-layer models' config classes set for keys config.json leaves out (4.x __init__
# defaults; 5's fields and default_theta are the same values).
CLASS_DEFAULTS = {
    # Gemma3TextConfig: rope_theta (default_theta["global"]), rope_local_base_freq (["local"]),
    # sliding_window_pattern read from kwargs with 6 as its default (the "BC" branch).
    "gemma3_text": {"num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256, "num_hidden_layers": 26,
                    "max_position_embeddings": 131072, "rope_theta": 1_000_000.0,
                    "rope_local_base_freq": 10_000.0, "sliding_window_pattern": 6},
    "cohere2": {"num_hidden_layers": 40, "sliding_window_pattern": 4},  # Cohere2Config
    "smollm3": {"num_hidden_layers": 36, "rope_theta": 2_000_000.0, "no_rope_layer_interval": 4},  # SmolLM3Config
    "llama4_text": {"num_hidden_layers": 48, "rope_theta": 500_000.0, "no_rope_layer_interval": 4},  # Llama4TextConfig
}


# ---- the config classes: what each model's PretrainedConfig subclass sets -----------------------

def model_attributes(cfg):
    """The attributes the RoPE code reads, as the model's config class sets them from config.json."""
    model_type = cfg.get("model_type")
    attrs = dict(cfg)
    for key, value in CLASS_DEFAULTS.get(model_type, {}).items():
        if attrs.get(key) is None:
            attrs[key] = value
    if model_type == "gpt_neox":
        # GPTNeoXConfig (4.x __init__: rope_theta = rotary_emb_base, partial_rotary_factor = rotary_pct;
        # 5: convert_rope_params_to_dict with defaults 10000 and 0.25).
        attrs["rope_theta"] = cfg.get("rotary_emb_base", DEFAULT_THETA)
        attrs["partial_rotary_factor"] = cfg.get("rotary_pct", 0.25)
    if model_type == "phi":
        attrs.setdefault("partial_rotary_factor", 0.5)  # PhiConfig's default
    if model_type == "deepseek_v3":
        attrs["head_dim"] = cfg["qk_rope_head_dim"]  # DeepseekV3Config.__init__: self.head_dim = qk_rope_head_dim
    attrs.setdefault("rope_theta", DEFAULT_THETA)
    attrs.setdefault("num_key_value_heads", None)
    if attrs["num_key_value_heads"] is None:  # "for backward compatibility" in the config classes
        attrs["num_key_value_heads"] = cfg["num_attention_heads"]
    rope = dict(cfg.get("rope_scaling") or cfg.get("rope_parameters") or {})
    kind = rope.get("rope_type", rope.get("type"))
    if model_type == "phi3" and kind in ("su", "yarn"):
        # Phi3Config._rope_scaling_adjustment (4.x) / convert_rope_params_to_dict (5)
        rope["rope_type" if "rope_type" in rope else "type"] = "longrope"
    if model_type in ("qwen2_vl", "qwen2_5_vl") and kind == "mrope":
        # Qwen2VLConfig / Qwen2_5_VLConfig: `if self.rope_scaling["type"] == "mrope": ... = "default"`
        rope["type"] = "default"
    attrs["rope_scaling"] = rope or None
    return attrs


def mrope_of(attrs):
    """M-RoPE's sections and order: rope_scaling's mrope_section; Qwen3-VL always interleaves
    (apply_interleaved_mrope), Qwen2-VL / Qwen2.5-VL never (apply_multimodal_rotary_pos_emb)."""
    rope = attrs["rope_scaling"] or {}
    if "mrope_section" not in rope:
        return None
    interleaved = rope.get("mrope_interleaved", attrs.get("model_type", "").startswith("qwen3_vl"))
    return {"section": rope["mrope_section"], "interleaved": interleaved}


def head_dim_of(attrs):
    # _compute_default_rope_parameters: getattr(config, "head_dim", None) or hidden_size // num_attention_heads
    return attrs.get("head_dim") or attrs["hidden_size"] // attrs["num_attention_heads"]


# ---- transformers 4.x: modeling_rope_utils.py reading config.rope_scaling -------------------------

def parameters_v4(attrs):
    """(rope_type, base, dim, scaling in make_golden_scaling's camelCase) as the 4.x functions read them."""
    rope = attrs["rope_scaling"] or {}
    kind = rope.get("rope_type", rope.get("type", "default"))  # LlamaRotaryEmbedding.__init__
    base = attrs["rope_theta"]
    dim = int(head_dim_of(attrs) * attrs.get("partial_rotary_factor", 1.0))
    maximum = attrs["max_position_embeddings"]
    if kind == "default":
        return kind, base, dim, None
    if kind == "linear":
        return kind, base, dim, {"type": kind, "factor": rope["factor"]}
    if kind == "dynamic":  # _compute_dynamic_ntk_parameters: L0 = config.max_position_embeddings
        return kind, base, dim, {"type": kind, "factor": rope["factor"], "originalMaxPositionEmbeddings": maximum}
    if kind == "llama3":  # _compute_llama3_parameters
        return kind, base, dim, {
            "type": kind, "factor": rope["factor"], "lowFreqFactor": rope["low_freq_factor"],
            "highFreqFactor": rope["high_freq_factor"],
            "originalMaxPositionEmbeddings": rope["original_max_position_embeddings"]}
    if kind == "yarn":  # _compute_yarn_parameters: rope_scaling's original, else max_position_embeddings
        s = {"type": kind, "factor": rope["factor"],
             "originalMaxPositionEmbeddings": rope.get("original_max_position_embeddings") or maximum}
        return kind, base, dim, {**s, **yarn_options(rope)}
    if kind == "longrope":  # _compute_longrope_parameters: the top-level original sets the factor
        original = attrs.get("original_max_position_embeddings")
        factor = maximum / original if original else rope.get("factor")
        s = {"type": kind, "shortFactor": rope["short_factor"], "longFactor": rope["long_factor"],
             "originalMaxPositionEmbeddings": original or maximum, "maxPositionEmbeddings": maximum}
        if factor is not None:
            s["factor"] = factor
        if rope.get("attention_factor") is not None:
            s["attentionFactor"] = rope["attention_factor"]
        return kind, base, dim, s
    raise ValueError(f"rope type {kind} is not in ROPE_INIT_FUNCTIONS")


def yarn_options(rope):
    """The optional YaRN keys _compute_yarn_parameters reads (.get, `or` defaults kept by the schedule)."""
    names = {"attention_factor": "attentionFactor", "beta_fast": "betaFast", "beta_slow": "betaSlow",
             "mscale": "mscale", "mscale_all_dim": "mscaleAllDim", "truncate": "truncate"}
    return {camel: rope[key] for key, camel in names.items() if rope.get(key) is not None}


# ---- transformers 5: RotaryEmbeddingConfigMixin, then the functions reading rope_parameters --------

def standardized_v5(attrs):
    """config.rope_parameters after convert_rope_params_to_dict and standardize_rope_params."""
    rope = dict(attrs["rope_scaling"] or {})  # `rope_scaling or self.rope_parameters`
    rope.setdefault("rope_theta", attrs["rope_theta"])
    if attrs.get("partial_rotary_factor") is not None:
        rope.setdefault("partial_rotary_factor", attrs["partial_rotary_factor"])
    rope.setdefault("rope_type", rope.get("type", "default"))
    if rope["rope_type"] in ("llama3", "yarn", "longrope"):
        if attrs.get("original_max_position_embeddings") is not None:
            # "Phi3 ... save original_max_position_embeddings outside rope parameters": it wins
            rope["original_max_position_embeddings"] = attrs["original_max_position_embeddings"]
        else:
            rope.setdefault("original_max_position_embeddings", attrs["max_position_embeddings"])
    return rope


def parameters_v5(attrs, rope=None):
    """The 5 functions reading a standardized rope dict: config.rope_parameters, or one layer type's."""
    rope = standardized_v5(attrs) if rope is None else rope
    kind = rope["rope_type"]
    base = rope["rope_theta"]
    dim = int(head_dim_of(attrs) * rope.get("partial_rotary_factor", 1.0))
    maximum = attrs["max_position_embeddings"]
    original = rope.get("original_max_position_embeddings")
    if kind == "default":
        return kind, base, dim, None
    if kind == "linear":
        return kind, base, dim, {"type": kind, "factor": rope["factor"]}
    if kind == "dynamic":
        return kind, base, dim, {"type": kind, "factor": rope["factor"], "originalMaxPositionEmbeddings": maximum}
    if kind == "llama3":
        return kind, base, dim, {
            "type": kind, "factor": rope["factor"], "lowFreqFactor": rope["low_freq_factor"],
            "highFreqFactor": rope["high_freq_factor"], "originalMaxPositionEmbeddings": original}
    if kind == "yarn":  # factor None: max_position_embeddings / original
        factor = rope.get("factor") or maximum / original
        return kind, base, dim, {"type": kind, "factor": factor, "originalMaxPositionEmbeddings": original,
                                 **yarn_options(rope)}
    if kind == "longrope":  # factor None: max_position_embeddings / original
        s = {"type": kind, "shortFactor": rope["short_factor"], "longFactor": rope["long_factor"],
             "originalMaxPositionEmbeddings": original, "maxPositionEmbeddings": maximum,
             "factor": rope.get("factor") or maximum / original}
        if rope.get("attention_factor") is not None:
            s["attentionFactor"] = rope["attention_factor"]
        return kind, base, dim, s
    raise ValueError(f"rope type {kind} is not in ROPE_INIT_FUNCTIONS")


def layout_of(attrs):
    """rotate_half pairs (i, i + d/2) everywhere but: DeepSeek-V3 while config.rope_interleave
    (default True): DeepseekV3Attention.forward applies apply_rotary_pos_emb_interleave; Cohere and
    Cohere 2, whose rotate_half pairs x[..., ::2] with x[..., 1::2] (CohereRotaryEmbedding
    repeat_interleave()s the frequencies); Llama 4, whose apply_rotary_emb multiplies
    view_as_complex(x.reshape(*x.shape[:-1], -1, 2)) by freqs_cis: pairs (2i, 2i + 1)."""
    interleaved_models = ("deepseek_v3", "cohere", "cohere2", "llama4_text")
    interleave = attrs.get("rope_interleave", attrs.get("model_type") in interleaved_models)
    return "interleaved" if interleave else "half"


# ---- layers: which rotary embedding each layer applies ------------------------------------------

def layer_types_of(attrs):
    """Gemma3TextConfig / Cohere2Config: config.layer_types, else (the pattern "used to be a simple
    int, and it's still present in configs on the Hub") sliding unless (i + 1) % pattern == 0."""
    if attrs.get("layer_types") is not None:
        return list(attrs["layer_types"])
    pattern = attrs["sliding_window_pattern"]
    return ["sliding_attention" if bool((i + 1) % pattern) else "full_attention"
            for i in range(attrs["num_hidden_layers"])]


def rope_flags_of(attrs):
    """SmolLM3Config (`if no_rope_layers is None`) and Llama4TextConfig (`no_rope_layers if
    no_rope_layers else default`): 1 = the layer uses RoPE (Attention.use_rope), 0 = NoPE."""
    flags = attrs.get("no_rope_layers")
    empty_is_default = attrs["model_type"] == "llama4_text"
    if flags is None or (empty_is_default and not flags):
        interval = attrs["no_rope_layer_interval"]
        flags = [int((i + 1) % interval != 0) for i in range(attrs["num_hidden_layers"])]
    return [bool(flags[i]) for i in range(attrs["num_hidden_layers"])]


def layer_roles(attrs):
    """Each layer's rotary embedding: "shared" (the model's one), Gemma 3's "sliding_attention" or
    "full_attention", or None (the layer applies none)."""
    model_type = attrs.get("model_type")
    if model_type == "gemma3_text":
        return layer_types_of(attrs)
    if model_type == "cohere2":
        # Cohere2Attention.forward: `if self.sliding_window is not None: apply_rotary_pos_emb(...)`,
        # sliding_window set only for layer_type == "sliding_attention".
        return ["shared" if t == "sliding_attention" else None for t in layer_types_of(attrs)]
    if model_type in ("smollm3", "llama4_text"):
        return ["shared" if rotates else None for rotates in rope_flags_of(attrs)]
    return ["shared"] * attrs["num_hidden_layers"]


def layers_v4(attrs):
    """Each layer's (rope_type, base, dim, scaling), or None, as the 4.x models build them."""
    if attrs.get("model_type") == "gemma3_text":
        # Gemma3TextModel.__init__: rotary_emb from the config as it is (full layers); rotary_emb_local
        # from copy.deepcopy(config) with rope_theta = rope_local_base_freq and rope_scaling =
        # {"rope_type": "default"}; Gemma3DecoderLayer.forward takes the local one when is_sliding.
        local = dict(attrs, rope_theta=attrs["rope_local_base_freq"], rope_scaling={"rope_type": "default"})
        by_role = {"sliding_attention": parameters_v4(local), "full_attention": parameters_v4(attrs)}
    else:
        by_role = {"shared": parameters_v4(attrs)}
    return [None if role is None else by_role[role] for role in layer_roles(attrs)]


def layers_v5(attrs):
    """The same as transformers 5 builds them. Gemma 3: Gemma3TextConfig.convert_rope_params_to_dict
    (rope_scaling updates full_attention; rope_theta and rope_local_base_freq are the two types'
    bases), standardize_rope_params' per-layer-type case (original length defaults to
    max_position_embeddings), then Gemma3RotaryEmbedding reads rope_parameters[layer_type]."""
    if attrs.get("model_type") == "gemma3_text":
        full = {"rope_type": "default", **(attrs.get("rope_scaling") or {})}
        full.setdefault("rope_theta", attrs["rope_theta"])
        sliding = {"rope_type": "default", "rope_theta": attrs["rope_local_base_freq"]}
        by_role = {}
        for role, rope in (("full_attention", full), ("sliding_attention", sliding)):
            rope.setdefault("rope_type", rope.get("type", "default"))
            if rope["rope_type"] in ("llama3", "yarn", "longrope"):
                rope.setdefault("original_max_position_embeddings", attrs["max_position_embeddings"])
            by_role[role] = parameters_v5(attrs, rope)
    else:
        by_role = {"shared": parameters_v5(attrs)}
    return [None if role is None else by_role[role] for role in layer_roles(attrs)]


def schedules_of(parameters):
    kind, base, dim, scaling = parameters
    schedules = []
    for seq_len in lengths_of(kind, scaling):
        inv_freq, attention_factor = schedule(base, dim, scaling, seq_len)
        schedules.append({"seqLen": seq_len, "invFreq": inv_freq.tolist(), "attentionFactor": float(attention_factor)})
    return schedules


def lengths_of(kind, scaling):
    """Current lengths to evaluate at: none given (the model at init), and for longrope both sides of L0."""
    if kind == "longrope":
        original = scaling["originalMaxPositionEmbeddings"]
        return [0, original, original + 1]
    return [0]


def main():
    torch.set_default_dtype(torch.float64)
    cases = []
    for path in sorted(CONFIGS.glob("*.json")):
        if path.name == "biome.json":
            continue
        cfg = json.loads(path.read_text())
        # Gemma3Config and Llama4Config build the language model from text_config
        # (Gemma3TextConfig(**text_config), Llama4TextConfig(**text_config)): fromHfConfig is given it.
        text_config = cfg.get("model_type") in ("gemma3", "llama4")
        if text_config:
            cfg = cfg["text_config"]
        attrs = model_attributes(cfg)
        v4, v5 = layers_v4(attrs), layers_v5(attrs)
        assert json.dumps(v4, sort_keys=True) == json.dumps(v5, sort_keys=True), (path.name, v4, v5)
        # Each distinct rotary embedding once ("kinds"), and each layer's index into them (None: NoPE).
        kinds, layers = [], []
        for parameters in v5:
            if parameters is not None and parameters not in kinds:
                kinds.append(parameters)
            layers.append(None if parameters is None else kinds.index(parameters))
        cases.append({
            "file": path.name,
            "textConfig": text_config,
            "numHeads": attrs["num_attention_heads"],
            "numKvHeads": attrs["num_key_value_heads"],
            "maxPositionEmbeddings": attrs.get("max_position_embeddings"),
            "numLayers": attrs.get("num_hidden_layers"),
            "headDim": head_dim_of(attrs),
            "layout": layout_of(attrs),
            "mrope": mrope_of(attrs),
            "kinds": [{"rotaryDim": dim, "base": float(base), "scalingType": kind, "schedules": schedules_of(p)}
                      for p in kinds for (kind, base, dim, _) in [p]],
            "layers": layers,
        })
    out = {
        "generator": "scripts/make_golden_hf_configs.py (transformers' config reading, 4.x and 5, transcribed; "
                     "schedules from make_golden_scaling.py, torch float64)",
        "torch": torch.__version__,
        "cases": cases,
    }
    target = ROOT / "tests" / "golden" / "hf-configs.json"
    target.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {target} ({len(cases)} configs)")


if __name__ == "__main__":
    main()
