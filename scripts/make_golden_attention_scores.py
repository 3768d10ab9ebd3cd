#!/usr/bin/python3
"""Golden vectors for posenc.attentionScores: tests/golden/attention-scores.json.

Attention scores and softmax weights as three model families compute them, run with torch 1.13
on CPU, each in its own dtypes (float32) and, to separate the formula from float32, again with
float64 tensors in place of float32 (nothing else changed). transformers itself cannot be
installed here: the functions below are transcriptions of its code, not re-derivations.

- rope: huggingface/transformers, src/transformers/models/llama/modeling_llama.py (commit
  002272831fba584eb30dca9729c1be456836960a): LlamaRotaryEmbedding (inv_freq and forward) and
  LlamaAttention.forward's scores
  (matmul(q, k^T) / sqrt(head_dim), + causal mask, softmax in float32), here; rotate_half and
  apply_rotary_pos_emb are make_golden.py's transcription (imported; the same at this commit).
  Half layout.
- alibi: huggingface/transformers, src/transformers/models/bloom/modeling_bloom.py (commit
  9d97831a1cbb420edac062c2e8454ce9ac1c4b79): BloomAttention.forward's
  alibi.baddbmm(q, k^T, beta=1, alpha=1/sqrt(head_dim)), + causal mask, softmax in float32;
  build_alibi_tensor is make_golden_alibi.py's transcription (imported). BLOOM's bias is
  slope * j per key: its raw scores differ from posenc's slope * (j - (offset + i)) by a
  constant per row, so the weights are the comparison (softmax-equal).
- t5: huggingface/transformers, src/transformers/models/t5/modeling_t5.py (commit
  6b8b757dfcb582379a64f013cdce46c43629f2b0): T5Attention.compute_bias with cache_position and
  forward's scores (matmul(q, k^T), no scaling, + position_bias, softmax(scores.float()));
  compute_bias's relative positions and buckets are make_golden_t5_buckets.py's transcription
  (imported), the embedding lookup and permute are here; the bias
  table is a random relative_attention_bias weight [num_buckets, n_heads].

The causal mask is HF's additive form (torch.finfo(dtype).min where key j > position of query
i), built here directly rather than through _update_causal_mask.

Run with Debian's python (torch 1.13): /usr/bin/python3 scripts/make_golden_attention_scores.py
"""
import json
import math
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from make_golden import apply_rotary_pos_emb  # noqa: E402  (transformers' LLaMA, with rotate_half, transcribed)
from make_golden_alibi import bloom_alibi  # noqa: E402  (BLOOM's build_alibi_tensor, transcribed)
from make_golden_t5_buckets import compute_bias_buckets  # noqa: E402  (compute_bias's buckets, transcribed)

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "attention-scores.json"


# ---- transformers' LLaMA (modeling_llama.py at 002272831fba584eb30dca9729c1be456836960a) ----------

class LlamaRotaryEmbedding(torch.nn.Module):
    # __init__'s inv_freq, verbatim; dtype stands for .float() in the float64 run.
    def __init__(self, dim, base=10000, device=None, dtype=torch.float32):
        super().__init__()
        self.dim = dim
        self.base = base
        self.dtype = dtype
        inv_freq = 1.0 / (self.base ** (torch.arange(0, self.dim, 2, dtype=torch.int64).to(dtype).to(device) / self.dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    @torch.no_grad()
    def forward(self, x, position_ids):
        # x: [bs, num_attention_heads, seq_len, head_size]
        inv_freq_expanded = self.inv_freq[None, :, None].to(self.dtype).expand(position_ids.shape[0], -1, 1)
        position_ids_expanded = position_ids[:, None, :].to(self.dtype)
        # Force float32 since bfloat16 loses precision on long contexts
        # See https://github.com/huggingface/transformers/pull/29285
        device_type = x.device.type
        device_type = device_type if isinstance(device_type, str) else "cpu"
        with torch.autocast(device_type=device_type, enabled=False):
            freqs = (inv_freq_expanded.to(self.dtype) @ position_ids_expanded.to(self.dtype)).transpose(1, 2)
            emb = torch.cat((freqs, freqs), dim=-1)
            cos = emb.cos()
            sin = emb.sin()
        return cos.to(dtype=x.dtype), sin.to(dtype=x.dtype)


def causal_mask(query_length, key_length, offset, dtype):
    """HF's additive causal mask: finfo.min where key j is after query i (at offset + i)."""
    i = torch.arange(query_length)[:, None]
    j = torch.arange(key_length)[None, :]
    mask = torch.zeros(query_length, key_length, dtype=dtype)
    mask[j > offset + i] = torch.finfo(dtype).min
    return mask[None, None]


def llama_scores(q, k, offset, base, causal, dtype):
    """q [1, H, Q, D] at positions offset + i, k [1, H, K, D] at j (rotated when cached)."""
    head_dim = q.shape[-1]
    rotary_emb = LlamaRotaryEmbedding(head_dim, base=base, dtype=dtype)
    q_pos = torch.arange(offset, offset + q.shape[2])[None]
    k_pos = torch.arange(k.shape[2])[None]
    cos_q, sin_q = rotary_emb(q, q_pos)
    cos_k, sin_k = rotary_emb(k, k_pos)
    query_states, _ = apply_rotary_pos_emb(q, q, cos_q, sin_q)
    key_states, _ = apply_rotary_pos_emb(k, k, cos_k, sin_k)
    attn_weights = torch.matmul(query_states, key_states.transpose(2, 3)) / math.sqrt(head_dim)
    raw = attn_weights
    if causal:
        attn_weights = attn_weights + causal_mask(q.shape[2], k.shape[2], offset, dtype)
    # upcast attention to fp32 (in the float64 run: stays float64)
    attn_weights = torch.nn.functional.softmax(attn_weights, dim=-1, dtype=dtype).to(query_states.dtype)
    return raw, attn_weights


# ---- BLOOM (modeling_bloom.py at 9d97831a1cbb420edac062c2e8454ce9ac1c4b79) -----------------------

def bloom_scores(q, k, offset, causal, dtype):
    batch_size, num_heads, q_length, head_dim = q.shape
    alibi = bloom_alibi(torch.ones(1, k.shape[2], dtype=torch.int64), num_heads, dtype)
    inv_norm_factor = 1.0 / math.sqrt(head_dim)
    beta = 1.0
    query_layer = q.reshape(batch_size * num_heads, -1, head_dim)
    key_layer = k.reshape(batch_size * num_heads, -1, head_dim).transpose(-1, -2)
    # [batch_size * num_heads, q_length, kv_length]
    attention_scores = alibi.baddbmm(
        batch1=query_layer,
        batch2=key_layer,
        beta=beta,
        alpha=inv_norm_factor,
    )
    attn_weights = attention_scores.view(batch_size, num_heads, q_length, -1)
    if causal:
        attn_weights = attn_weights + causal_mask(q_length, k.shape[2], offset, dtype)
    # cast attention scores to fp32, compute scaled softmax and cast back to initial dtype
    attention_probs = torch.nn.functional.softmax(attn_weights, dim=-1, dtype=dtype).to(query_layer.dtype)
    return attention_probs


# ---- T5 (modeling_t5.py at 6b8b757dfcb582379a64f013cdce46c43629f2b0) -----------------------------

def compute_bias(relative_attention_bias, query_length, key_length, bidirectional, num_buckets, max_distance,
                 cache_position=None):
    """T5Attention.compute_bias: its buckets (make_golden_t5_buckets.py's transcription), then the lookup."""
    relative_position_bucket = compute_bias_buckets(query_length, key_length, cache_position, bidirectional,
                                                    num_buckets, max_distance)
    values = relative_attention_bias[relative_position_bucket]  # shape (query_length, key_length, num_heads)
    values = values.permute([2, 0, 1]).unsqueeze(0)  # shape (1, num_heads, query_length, key_length)
    return values


def t5_scores(q, k, offset, weight, bidirectional, num_buckets, max_distance, causal, dtype):
    scores = torch.matmul(q, k.transpose(3, 2))
    cache_position = torch.arange(offset, offset + q.shape[2])
    position_bias = compute_bias(weight, q.shape[2], k.shape[2], bidirectional, num_buckets, max_distance,
                                 cache_position)
    raw = scores + position_bias  # unmasked, for the raw comparison
    if causal:
        position_bias = position_bias + causal_mask(q.shape[2], k.shape[2], offset, dtype)
    scores += position_bias
    # softmax(scores.float()): .to(dtype) keeps the float64 run in float64
    attn_weights = torch.nn.functional.softmax(scores.to(dtype), dim=-1).type_as(scores)
    return raw, attn_weights


# ---- the cases ---------------------------------------------------------------------------------

def floats(t):
    return [float(v) for v in t.reshape(-1).tolist()]


def main():
    generator = torch.Generator().manual_seed(12)
    cases = []
    # (encoding, numHeads, queryLen, keyLen, headDim, offset, causal, extra)
    configs = [
        ("rope", 2, 6, 6, 16, 0, True, {"base": 10000}),
        ("rope", 2, 1, 40, 64, 39, True, {"base": 10000}),  # one decoding step
        ("rope", 1, 5, 9, 32, 300, False, {"base": 500000}),  # far positions, Llama 3's base
        ("alibi", 8, 7, 7, 16, 0, True, {}),
        ("alibi", 12, 1, 33, 16, 32, True, {}),
        ("alibi", 3, 4, 10, 8, 6, False, {}),
        ("t5", 4, 8, 8, 16, 0, False, {"numBuckets": 32, "maxDistance": 128, "bidirectional": True}),
        ("t5", 2, 3, 50, 16, 47, True, {"numBuckets": 32, "maxDistance": 128, "bidirectional": False}),
        ("t5", 3, 5, 5, 8, 0, False, {"numBuckets": 16, "maxDistance": 20, "bidirectional": True}),
    ]
    for encoding, heads, qlen, klen, dim, offset, causal, extra in configs:
        q = torch.randn(1, heads, qlen, dim, generator=generator)
        k = torch.randn(1, heads, klen, dim, generator=generator)
        case = {"encoding": encoding, "numHeads": heads, "queryLen": qlen, "keyLen": klen, "headDim": dim,
                "offset": offset, "causal": causal, **extra, "q": floats(q), "k": floats(k)}
        for dtype, suffix in ((torch.float32, "32"), (torch.float64, "64")):
            qd, kd = q.to(dtype), k.to(dtype)
            if encoding == "rope":
                raw, weights = llama_scores(qd, kd, offset, extra["base"], causal, dtype)
                case["scores" + suffix] = floats(raw)
            elif encoding == "alibi":
                weights = bloom_scores(qd, kd, offset, causal, dtype)
            else:
                if suffix == "32":
                    weight = torch.randn(extra["numBuckets"], heads, generator=generator)
                    case["bias"] = floats(weight)
                raw, weights = t5_scores(qd, kd, offset, weight.to(dtype), extra["bidirectional"],
                                         extra["numBuckets"], extra["maxDistance"], causal, dtype)
                case["scores" + suffix] = floats(raw)
            case["weights" + suffix] = floats(weights)
        cases.append(case)
    OUT.write_text(json.dumps({
        "about": "attention scores and softmax weights from scripts/make_golden_attention_scores.py "
                 "(transformers' LLaMA rope, BLOOM alibi, T5 relative bias; float32 and float64 runs); torch "
                 + torch.__version__,
        "cases": cases,
    }) + "\n")
    print(f"wrote {OUT} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
