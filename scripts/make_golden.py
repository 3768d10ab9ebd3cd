#!/usr/bin/python3
"""Golden vectors for the posenc JS tests (tests/js/golden.test.js), computed with PyTorch.

Regenerate (Debian's python3 has torch 1.13 + numpy; the pyenv `python3` on PATH has no torch):

    /usr/bin/python3 scripts/make_golden.py          # writes tests/golden/*.json

The output is deterministic (fixed seeds, no threading-dependent reductions) and compact:
arrays are flat, row-major, float64 written with 17 significant digits and float32 with 9
(both round-trip exactly through JSON.parse). Each file records its shape fields next to
the arrays. What is computed:

  explained-sinusoidal.json   the 'Positional Embeddings Explained' post's sinusoidal snippet, verbatim (d_model 2, seq_len 32), in
                            float32 (its default dtype) and the same code with float64 as
                            torch's default dtype; "wide": the same code at d_model 64, seq_len
                            32768 (sampled rows kept), where its float32 angles are inexact.
  explained-rope.json         the 'Positional Embeddings Explained' post's RoPE snippet, verbatim (d_model 2, seq_len 1000), on
                            seeded random tokens, in float32 and float64; "wide": d_model 64,
                            seq_len 4096 (sampled rows kept).
  jaitly-worked-example.json  Jaitly's d=4 example ("The" at 0, "cat" at 1) in float64,
                            next to the truncated numbers the post prints.
  sinusoidal-reference.json the PyTorch tutorial's PositionalEncoding (interleaved) and the
                            concat layout, float64, d_model 64 and 512, sampled positions,
                            plus 70 consecutive rows ending at 2^24 - 1 (d_model 64).
  rope-reference.json       Hugging Face's rotate_half RoPE (GPT-NeoX/HF LLaMA "half" pairing,
                            with GPT-NeoX's partial rotary) and Meta LLaMA's complex RoPE
                            (interleaved), float64, on seeded random q; plus the cos/sin cache.
  float32-error.json        how far the post's float32 sinusoidal code is from float64, for the
                            docs/precision.md (positions < 2048, < 32768, < 2^20; d_model 2, 64, 512).
"""
import json
import math
import os
import sys

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(ROOT, "tests", "golden")
GENERATOR = "scripts/make_golden.py"

# Positions sampled for the larger references: small ones, both sides of 64 (the core
# re-anchors its recurrence every 64 rows) and large ones up to the contract's 2^24 - 1.
SAMPLED_POSITIONS = [0, 1, 2, 63, 64, 65, 1000, 2047, 4095, 65535, 1_000_000, 2**24 - 1]
WINDOW_ROWS = 70
WINDOW_OFFSET = 2**24 - WINDOW_ROWS


# ---- compact, exact JSON --------------------------------------------------------------------

class Floats:
    """A flat float array written with `digits` significant digits (17: float64, 9: float32)."""

    def __init__(self, array, digits):
        self.values = array.reshape(-1)
        self.digits = digits


def f64(tensor):
    if tensor.dtype != torch.float64:
        raise TypeError(f"f64() expects float64 data, got {tensor.dtype}")
    return Floats(tensor.detach().numpy(), 17)


def f32(tensor):
    if tensor.dtype != torch.float32:
        raise TypeError(f"f32() expects float32 data, got {tensor.dtype}")
    return Floats(tensor.detach().numpy(), 9)


def encode(value):
    if isinstance(value, Floats):
        # float() first: numpy float32 repr would otherwise not be a plain JSON number.
        return "[" + ",".join(format(float(v), f".{value.digits}g") for v in value.values) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(k)}:{encode(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(encode(v) for v in value) + "]"
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("JSON has no NaN/Infinity")
    return json.dumps(value)


def write(name, content):
    path = os.path.join(OUT_DIR, name)
    text = encode({"generator": GENERATOR, "torch": torch.__version__, **content}) + "\n"
    json.loads(text)  # must be valid JSON
    with open(path, "w") as file:
        file.write(text)
    print(f"{name}: {len(text) / 1024:.0f} KiB")


class default_dtype:
    """Runs code with torch's default float dtype set (the posts' code relies on the default)."""

    def __init__(self, dtype):
        self.dtype = dtype

    def __enter__(self):
        self.saved = torch.get_default_dtype()
        torch.set_default_dtype(self.dtype)

    def __exit__(self, *exc):
        torch.set_default_dtype(self.saved)


# ---- the 'Positional Embeddings Explained' post's own code ------------------------------------------------------------------------
# The bodies below are the snippets of the post "Positional Embeddings Explained", copied
# verbatim; only their constants (d_model, seq_len, n) became arguments, so the same code can
# also run with a larger seq_len for the float32 error measurement.

def explained_sinusoidal(d_model, seq_len, n):
    idx = torch.arange(0, d_model, 2)
    dnom = 1/n**(idx/d_model)
    pos = torch.arange(0, seq_len).unsqueeze(1)
    pe = torch.zeros(seq_len, d_model)

    pe[:,0::2] = torch.sin(pos*dnom) # even embedding positions 
    pe[:,1::2] = torch.cos(pos*dnom) # odd embedding positions
    return pe


def explained_rope(tokens, n, d_model, seq_len):
    idx = torch.arange(0, d_model, 2)
    dnom = n ** -(torch.arange(0, d_model, 2)/d_model)

    m = torch.arange(0, seq_len).unsqueeze(1)
    theta = m*dnom

    # tokens.shape -> [seq_len, d_model]
    x_odd = tokens[:,1::2]
    x_even = tokens[:,0::2]

    sin = torch.sin(theta)
    cos = torch.cos(theta)

    x_odd_rot = sin * x_even + cos * x_odd
    x_even_rot = cos * x_even - sin * x_odd

    x = torch.stack([x_even_rot, x_odd_rot], dim=-1).reshape_as(tokens)
    return x


def make_explained_sinusoidal():
    d_model, seq_len, n = 2, 32, 10000
    table32 = explained_sinusoidal(d_model, seq_len, n)
    with default_dtype(torch.float64):
        table64 = explained_sinusoidal(d_model, seq_len, n)
    assert table32.dtype == torch.float32 and table64.dtype == torch.float64
    write("explained-sinusoidal.json", {
        "description": "the 'Positional Embeddings Explained' post's sinusoidal snippet verbatim: float32 (its default dtype) and "
                       "the same code with torch.float64 as default dtype; [seqLen, dModel] "
                       "interleaved. wide: the same code at dModel 64, seqLen 32768, rows kept "
                       "at the listed positions",
        "dModel": d_model, "seqLen": seq_len, "base": n,
        "float32": f32(table32), "float64": f64(table64),
        "wide": seed000_sinusoidal_wide(),
    })


def seed000_sinusoidal_wide():
    """With d_model 2 the post's float32 angles pos * 1 are exact; at a real width they are not."""
    d_model, seq_len, n = 64, 32768, 10000
    rows = [p for p in SAMPLED_POSITIONS if p < seq_len] + [seq_len - 1]
    table32 = explained_sinusoidal(d_model, seq_len, n)
    with default_dtype(torch.float64):
        table64 = explained_sinusoidal(d_model, seq_len, n)
    return {"dModel": d_model, "seqLen": seq_len, "positions": rows,
            "float32": f32(table32[rows]), "float64": f64(table64[rows])}


def make_explained_rope():
    n, d_model, seq_len = 10000, 2, 1000
    generator = torch.Generator().manual_seed(0)
    tokens = torch.randn(seq_len, d_model, generator=generator)  # float32
    rotated32 = explained_rope(tokens, n, d_model, seq_len)
    with default_dtype(torch.float64):
        rotated64 = explained_rope(tokens.double(), n, d_model, seq_len)  # same values, exactly
    assert rotated32.dtype == torch.float32 and rotated64.dtype == torch.float64
    write("explained-rope.json", {
        "description": "the 'Positional Embeddings Explained' post's RoPE snippet verbatim (interleaved pairs) on tokens = "
                       "torch.randn(1000, 2) with seed 0: float32 and float64 results. wide: "
                       "the same code at dModel 64, seqLen 4096 (tokens from seed 2), rows kept "
                       "at the listed positions",
        "dModel": d_model, "seqLen": seq_len, "base": n,
        "tokens": f32(tokens), "float32": f32(rotated32), "float64": f64(rotated64),
        "wide": seed000_rope_wide(),
    })


def seed000_rope_wide():
    n, d_model, seq_len = 10000, 64, 4096
    tokens = torch.randn(seq_len, d_model, generator=torch.Generator().manual_seed(2))
    rotated32 = explained_rope(tokens, n, d_model, seq_len)
    with default_dtype(torch.float64):
        rotated64 = explained_rope(tokens.double(), n, d_model, seq_len)
    rows = [p for p in SAMPLED_POSITIONS if p < seq_len] + [seq_len - 1]
    return {"dModel": d_model, "seqLen": seq_len, "positions": rows, "tokens": f32(tokens[rows]),
            "float32": f32(rotated32[rows]), "float64": f64(rotated64[rows])}


# ---- Jaitly's worked example ----------------------------------------------------------------

def make_seed001_example():
    d = 4
    positions = torch.tensor([[0.0], [1.0]], dtype=torch.float64)          # "The" at 0, "cat" at 1
    two_k = torch.arange(0, d, 2, dtype=torch.float64)
    angle = positions / 10000 ** (two_k / d)                                 # i / 10000^(2k/d)
    pe = torch.empty(2, d, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle)
    embeddings = torch.tensor([[0.5, 0.1, 0.8, 0.3], [0.2, 0.9, 0.4, 0.6]], dtype=torch.float64)
    write("jaitly-worked-example.json", {
        "description": "Jaitly's worked example, d = 4, 'The' at position 0 and 'cat' at 1, "
                       "in float64; 'printed' holds the post's truncated numbers",
        "dModel": d, "seqLen": 2, "base": 10000, "tokens": ["The", "cat"],
        "embeddings": f64(embeddings), "pe": f64(pe), "sums": f64(embeddings + pe),
        "printed": {"pe": [0, 1, 0, 1, 0.841, 0.540, 0.01, 0.999],
                    "sums": [0.5, 1.1, 0.8, 1.3, 1.041, 1.44, 0.41, 1.599]},
    })


# ---- larger references, written the way real code writes them -------------------------------

def tutorial_div_term(d_model):
    # PyTorch tutorial "Language Modeling with nn.Transformer": PositionalEncoding.__init__
    return torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))


def tutorial_table(positions, d_model):
    """The tutorial's PositionalEncoding buffer, at `positions` instead of arange(max_len)
    (a 2^24-row table would not fit in memory): sin at even channels, cos at odd ones."""
    position = positions.unsqueeze(1)
    div_term = tutorial_div_term(d_model)
    pe = torch.zeros(len(positions), 1, d_model)
    pe[:, 0, 0::2] = torch.sin(position * div_term)
    pe[:, 0, 1::2] = torch.cos(position * div_term)
    return pe[:, 0, :]


def concat_table(positions, d_model):
    """[sin of all frequencies | cos of all frequencies] (tensor2tensor's layout) with the
    tutorial's frequencies."""
    angle = positions.unsqueeze(1) * tutorial_div_term(d_model)
    return torch.cat([torch.sin(angle), torch.cos(angle)], dim=-1)


def make_sinusoidal_reference():
    positions = torch.tensor(SAMPLED_POSITIONS)
    tables = []
    with default_dtype(torch.float64):
        for d_model in (64, 512):
            interleaved, concat = tutorial_table(positions, d_model), concat_table(positions, d_model)
            assert interleaved.dtype == torch.float64 and concat.dtype == torch.float64
            tables.append({"dModel": d_model, "interleaved": f64(interleaved), "concat": f64(concat)})
        # Consecutive rows up to 2^24 - 1 (offset + row): long enough to cross the core's
        # 64-row re-anchoring of its recurrence.
        window = torch.arange(WINDOW_OFFSET, WINDOW_OFFSET + WINDOW_ROWS)
        window_table = {"offset": WINDOW_OFFSET, "seqLen": WINDOW_ROWS, "dModel": 64,
                        "interleaved": f64(tutorial_table(window, 64)),
                        "concat": f64(concat_table(window, 64))}
    write("sinusoidal-reference.json", {
        "description": "PyTorch tutorial PositionalEncoding (interleaved) and the concat layout "
                       "[sin | cos], float64, [positions, dModel] per table; window: rows at "
                       "offset, offset + 1, ...",
        "base": 10000, "positions": SAMPLED_POSITIONS, "tables": tables, "window": window_table,
    })


# Hugging Face transformers (models/llama/modeling_llama.py), "half" pairing:

def rotate_half(x):
    """Rotates half the hidden dims of the input."""
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_emb(q, k, cos, sin, position_ids=None, unsqueeze_dim=1):
    cos = cos.unsqueeze(unsqueeze_dim)
    sin = sin.unsqueeze(unsqueeze_dim)
    q_embed = (q * cos) + (rotate_half(q) * sin)
    k_embed = (k * cos) + (rotate_half(k) * sin)
    return q_embed, k_embed


def hf_cos_sin(position_ids, dim, base=10000.0):
    """LlamaRotaryEmbedding.forward with .double() where it has .float()."""
    inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).double() / dim))
    inv_freq_expanded = inv_freq[None, :, None].expand(position_ids.shape[0], -1, 1)
    position_ids_expanded = position_ids[:, None, :].double()
    freqs = (inv_freq_expanded @ position_ids_expanded).transpose(1, 2)
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos(), emb.sin()


def hf_rope(q, positions, rotary_dim):
    """q: [seq, heads, head_dim]. GPT-NeoX's partial rotary: rotate the first rotary_dim
    channels (rotary_ndims), pass the rest."""
    query = q.permute(1, 0, 2)[None]                       # HF layout [batch, heads, seq, head_dim]
    position_ids = positions[None]
    cos, sin = hf_cos_sin(position_ids, rotary_dim)
    query_rot = query[..., :rotary_dim]
    query_pass = query[..., rotary_dim:]
    query_rot, _ = apply_rotary_pos_emb(query_rot, query_rot, cos, sin)
    query = torch.cat((query_rot, query_pass), dim=-1)
    return query[0].permute(1, 0, 2)


# Meta LLaMA (llama/model.py), interleaved pairs as complex numbers:

def precompute_freqs_cis(dim, positions, theta=10000.0):
    """Meta's precompute_freqs_cis in float64, at `positions` instead of arange(end)."""
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].double() / dim))
    t = positions
    freqs = torch.outer(t, freqs).double()
    freqs_cis = torch.polar(torch.ones_like(freqs), freqs)  # complex128
    return freqs_cis


def reshape_for_broadcast(freqs_cis, x):
    ndim = x.ndim
    assert 0 <= 1 < ndim
    assert freqs_cis.shape == (x.shape[1], x.shape[-1])
    shape = [d if i == 1 or i == ndim - 1 else 1 for i, d in enumerate(x.shape)]
    return freqs_cis.view(*shape)


def apply_rotary_emb(xq, freqs_cis):
    xq_ = torch.view_as_complex(xq.double().reshape(*xq.shape[:-1], -1, 2))
    freqs_cis = reshape_for_broadcast(freqs_cis, xq_)
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)
    return xq_out


def meta_rope(q, positions, rotary_dim):
    """q: [seq, heads, head_dim]; Meta's layout is [batch, seq, heads, head_dim]. Partial
    rotary (GPT-J's rotary_dim): the first rotary_dim channels rotate, the rest pass."""
    xq = q[None]
    rotated = apply_rotary_emb(xq[..., :rotary_dim].contiguous(), precompute_freqs_cis(rotary_dim, positions))
    return torch.cat((rotated, xq[..., rotary_dim:].double()), dim=-1)[0]


def half_to_interleaved(x, rotary_dim):
    """Permutes the first rotary_dim channels from half order (a0..a_{h-1}, b0..) to pairs
    (a0, b0, a1, b1, ...): converts between the two pairings (the permutation checkpoints need)."""
    half = rotary_dim // 2
    order = [c for i in range(half) for c in (i, i + half)] + list(range(rotary_dim, x.shape[-1]))
    return x[..., order]


def make_rope_reference():
    positions = torch.tensor(SAMPLED_POSITIONS)
    generator = torch.Generator().manual_seed(1)
    heads = 2
    inputs, cases, caches = {}, [], []
    for head_dim in (64, 96):
        q = torch.randn(len(SAMPLED_POSITIONS), heads, head_dim, generator=generator)  # float32
        inputs[str(head_dim)] = f32(q)
        for rotary_dim in ([64] if head_dim == 64 else [96, 32]):
            half = hf_rope(q.double(), positions, rotary_dim)
            interleaved = meta_rope(q, positions, rotary_dim)
            assert half.dtype == torch.float64 and interleaved.dtype == torch.float64
            # The two libraries must agree once the pairing is permuted: a check of the goldens.
            meta_in_half_order = meta_rope(half_to_interleaved(q, rotary_dim), positions, rotary_dim)
            assert (meta_in_half_order - half_to_interleaved(half, rotary_dim)).abs().max() < 1e-12
            for layout, result, source in (("half", half, "Hugging Face apply_rotary_pos_emb + "
                                            "GPT-NeoX partial rotary"),
                                           ("interleaved", interleaved, "Meta LLaMA apply_rotary_emb "
                                            "(view_as_complex * polar)")):
                cases.append({"layout": layout, "headDim": head_dim, "rotaryDim": rotary_dim,
                              "source": source, "float64": f64(result)})
    with default_dtype(torch.float64):
        for rotary_dim in (32, 64, 96):
            cos, sin = hf_cos_sin(positions[None], rotary_dim)
            caches.append({"rotaryDim": rotary_dim,
                           "cos": f64(cos[0, :, : rotary_dim // 2]),
                           "sin": f64(sin[0, :, : rotary_dim // 2])})
    write("rope-reference.json", {
        "description": "RoPE in float64 at sampled positions on seeded random q [seq, heads, "
                       "headDim] (inputs by headDim, float32); half = Hugging Face rotate_half "
                       "(GPT-NeoX partial rotary), interleaved = Meta LLaMA complex; caches = "
                       "Hugging Face cos/sin, [seq, rotaryDim/2]",
        "base": 10000, "positions": SAMPLED_POSITIONS, "numHeads": heads,
        "inputs": inputs, "cases": cases, "caches": caches,
    })


# ---- the float32 error of the post's own code, for docs/precision.md ----------------------------

def max_error(table32, table64, below):
    error = (table32[:below].double() - table64[:below]).abs()
    return {"sin": error[:, 0::2].max().item(), "cos": error[:, 1::2].max().item(),
            "max": error.max().item()}


def make_float32_error():
    bounds = [2048, 32768, 2**20]
    measured = []
    # d_model 2 is the post's own setting; 64 and 512 show what real widths do (the float32
    # product pos * dnom is exact for d_model 2, whose only frequency is 1). d_model 512 stops
    # at 32768 positions to keep memory use modest.
    for d_model, seq_len in ((2, 2**20), (64, 2**20), (512, 32768)):
        table32 = explained_sinusoidal(d_model, seq_len, 10000)
        with default_dtype(torch.float64):
            table64 = explained_sinusoidal(d_model, seq_len, 10000)
        measured.append({"dModel": d_model, "maxAbsError": {
            f"positionsBelow{below}": max_error(table32, table64, below)
            for below in bounds if below <= seq_len}})
        del table32, table64
    write("float32-error.json", {
        "description": "max |float32 - float64| of the 'Positional Embeddings Explained' post's sinusoidal snippet run in "
                       "float32 (verbatim) vs float64, over positions below each bound",
        "measured": measured,
    })


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)  # reductions do not depend on the thread count
    os.makedirs(OUT_DIR, exist_ok=True)
    make_explained_sinusoidal()
    make_explained_rope()
    make_seed001_example()
    make_sinusoidal_reference()
    make_rope_reference()
    make_float32_error()


if __name__ == "__main__":
    sys.exit(main())
