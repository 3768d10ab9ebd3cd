#!/usr/bin/python3
"""Golden vectors for RoPE by several axes: tests/golden/rope-axes.json.

The reference code, transcribed verbatim (docstrings left out; a module's config is a SimpleNamespace;
decorators that do nothing here are left out: @dynamic_rope_update only acts for dynamic and
longrope rope types, and transformers' maybe_autocast is torch.autocast):

  M-RoPE, Qwen2-VL / Qwen2.5-VL: huggingface/transformers@00b676f8f0489b88652a31d70751cc540dd06305
    src/transformers/models/qwen2_vl/modeling_qwen2_vl.py: Qwen2VLRotaryEmbedding, rotate_half,
    apply_multimodal_rotary_pos_emb; its rope_init_fn, ROPE_INIT_FUNCTIONS["default"], is
    src/transformers/modeling_rope_utils.py _compute_default_rope_parameters (same commit).
  M-RoPE, Qwen3-VL (interleaved): huggingface/transformers@00709b862bb8f14a5435bb7195592579168496e4
    src/transformers/models/qwen3_vl/modeling_qwen3_vl.py: Qwen3VLTextRotaryEmbedding
    (compute_default_rope_parameters, forward, apply_interleaved_mrope), apply_rotary_pos_emb.
  2-D RoPE, Pixtral: huggingface/transformers@0233e509531ace915c8241b4c16c8032a583279c
    src/transformers/models/pixtral/modeling_pixtral.py: position_ids_in_meshgrid,
    PixtralRotaryEmbedding, rotate_half, apply_rotary_pos_emb.
  2-D RoPE, SAM 2 (axial): facebookresearch/sam2@2b90b9f5ceec907a1c18123530e92e794ad901a4
    sam2/modeling/position_encoding.py: init_t_xy, compute_axial_cis, reshape_for_broadcast,
    apply_rotary_enc (with repeat_freqs_k: keys of several frames of one grid, its CPU path).

M-RoPE positions are real get_rope_index results: the transcription in
scripts/make_golden_mrope_positions.py (Qwen2-VL's), run on its prompts.

Each reference runs twice on the same seeded random q/k: as written (float32: `.float()`,
torch.float), and in float64, with `.float()` and `torch.float` turned into float64 for the run
(computing_in below; the code's text is unchanged). The float64 results are the golden values;
the float32 ones say how far the models' own code is from them (docs/precision.md).

Run with Debian's python (torch 1.13): /usr/bin/python3 scripts/make_golden_rope_axes.py
"""
import contextlib
import json
import math
import pathlib
import sys
from types import SimpleNamespace
from typing import Optional

import torch
from torch import nn

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
# rotate_half and apply_rotary_pos_emb: Qwen2-VL's, Qwen3-VL's and Pixtral's are "Copied from
# transformers.models.llama.modeling_llama", the same text as make_golden.py's transcription.
from make_golden import apply_rotary_pos_emb, rotate_half  # noqa: E402
from make_golden_mrope_positions import inputs_of, qwen2_vl_get_rope_index  # noqa: E402

GENERATOR = "scripts/make_golden_rope_axes.py"


@contextlib.contextmanager
def computing_in(dtype):
    """Runs the references with `.float()` and `torch.float` meaning `dtype` (float32: as written)."""
    saved_float, saved_method = torch.float, torch.Tensor.float
    torch.float = dtype
    torch.Tensor.float = lambda self, *args, **kwargs: self.to(dtype)
    try:
        yield
    finally:
        torch.float, torch.Tensor.float = saved_float, saved_method


# ---- transformers modeling_rope_utils.py @00b676f8: _compute_default_rope_parameters, verbatim ----

def _compute_default_rope_parameters(
    config=None,
    device: Optional["torch.device"] = None,
    seq_len: Optional[int] = None,
) -> tuple["torch.Tensor", float]:
    base = config.rope_theta
    partial_rotary_factor = getattr(config, "partial_rotary_factor", 1.0)
    head_dim = getattr(config, "head_dim", None) or config.hidden_size // config.num_attention_heads
    dim = int(head_dim * partial_rotary_factor)

    attention_factor = 1.0  # Unused in this type of RoPE

    # Compute the inverse frequencies
    inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).to(device=device, dtype=torch.float) / dim))
    return inv_freq, attention_factor


ROPE_INIT_FUNCTIONS = {"default": _compute_default_rope_parameters}


# ---- Qwen2-VL @00b676f8, verbatim ------------------------------------------------------------------

class Qwen2VLRotaryEmbedding(nn.Module):
    def __init__(self, config, device=None):
        super().__init__()
        # BC: "rope_type" was originally "type"
        if hasattr(config, "rope_scaling") and config.rope_scaling is not None:
            self.rope_type = config.rope_scaling.get("rope_type", config.rope_scaling.get("type"))
        else:
            self.rope_type = "default"
        self.max_seq_len_cached = config.max_position_embeddings
        self.original_max_seq_len = config.max_position_embeddings

        self.config = config
        self.rope_init_fn = ROPE_INIT_FUNCTIONS[self.rope_type]

        inv_freq, self.attention_scaling = self.rope_init_fn(self.config, device)
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        self.original_inv_freq = self.inv_freq

    @torch.no_grad()
    def forward(self, x, position_ids):
        # In contrast to other models, Qwen2_VL has different position ids for the grids
        # So we expand the inv_freq to shape (3, ...)
        inv_freq_expanded = self.inv_freq[None, None, :, None].float().expand(3, position_ids.shape[1], -1, 1)
        position_ids_expanded = position_ids[:, :, None, :].float()  # shape (3, bs, 1, positions)

        device_type = x.device.type if isinstance(x.device.type, str) and x.device.type != "mps" else "cpu"
        with torch.autocast(device_type=device_type, enabled=False):  # Force float32
            freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(2, 3)
            emb = torch.cat((freqs, freqs), dim=-1)
            cos = emb.cos() * self.attention_scaling
            sin = emb.sin() * self.attention_scaling

        return cos.to(dtype=x.dtype), sin.to(dtype=x.dtype)


def apply_multimodal_rotary_pos_emb(q, k, cos, sin, mrope_section, unsqueeze_dim=1):
    mrope_section = mrope_section * 2
    cos = torch.cat([m[i % 3] for i, m in enumerate(cos.split(mrope_section, dim=-1))], dim=-1).unsqueeze(
        unsqueeze_dim
    )
    sin = torch.cat([m[i % 3] for i, m in enumerate(sin.split(mrope_section, dim=-1))], dim=-1).unsqueeze(
        unsqueeze_dim
    )

    q_embed = (q * cos) + (rotate_half(q) * sin)
    k_embed = (k * cos) + (rotate_half(k) * sin)
    return q_embed, k_embed


# ---- Qwen3-VL @00709b86, verbatim ------------------------------------------------------------------

class Qwen3VLTextRotaryEmbedding(nn.Module):
    inv_freq: torch.Tensor  # fix linting for `register_buffer`

    def __init__(self, config, device=None):
        super().__init__()
        self.max_seq_len_cached = config.max_position_embeddings
        self.original_max_seq_len = config.max_position_embeddings

        self.config = config

        self.rope_type = self.config.rope_parameters["rope_type"]
        rope_init_fn = self.compute_default_rope_parameters
        if self.rope_type != "default":
            rope_init_fn = ROPE_INIT_FUNCTIONS[self.rope_type]
        inv_freq, self.attention_scaling = rope_init_fn(self.config, device)

        self.register_buffer("inv_freq", inv_freq, persistent=False)
        self.original_inv_freq = inv_freq

        self.mrope_section = config.rope_parameters.get("mrope_section", [24, 20, 20])

    @staticmethod
    def compute_default_rope_parameters(
        config=None,
        device: Optional["torch.device"] = None,
        seq_len: Optional[int] = None,
    ) -> tuple["torch.Tensor", float]:
        base = config.rope_parameters["rope_theta"]
        dim = getattr(config, "head_dim", None) or config.hidden_size // config.num_attention_heads

        attention_factor = 1.0  # Unused in this type of RoPE

        # Compute the inverse frequencies
        inv_freq = 1.0 / (
            base ** (torch.arange(0, dim, 2, dtype=torch.int64).to(device=device, dtype=torch.float) / dim)
        )
        return inv_freq, attention_factor

    @torch.no_grad()
    def forward(self, x, position_ids):
        # In contrast to other models, Qwen3VL has different position ids for the grids
        # So we expand the inv_freq to shape (3, ...)
        if position_ids.ndim == 2:
            position_ids = position_ids[None, ...].expand(3, position_ids.shape[0], -1)
        inv_freq_expanded = self.inv_freq[None, None, :, None].float().expand(3, position_ids.shape[1], -1, 1)
        position_ids_expanded = position_ids[:, :, None, :].float()  # shape (3, bs, 1, positions)

        device_type = x.device.type if isinstance(x.device.type, str) and x.device.type != "mps" else "cpu"
        with torch.autocast(device_type=device_type, enabled=False):  # Force float32
            freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(2, 3)
            freqs = self.apply_interleaved_mrope(freqs, self.mrope_section)
            emb = torch.cat((freqs, freqs), dim=-1)
            cos = emb.cos() * self.attention_scaling
            sin = emb.sin() * self.attention_scaling

        return cos.to(dtype=x.dtype), sin.to(dtype=x.dtype)

    def apply_interleaved_mrope(self, freqs, mrope_section):
        freqs_t = freqs[0]  # just overwrite the first dimension T
        for dim, offset in enumerate((1, 2), start=1):  # H, W
            length = mrope_section[dim] * 3
            idx = slice(offset, length, 3)
            freqs_t[..., idx] = freqs[dim, ..., idx]
        return freqs_t


# ---- Pixtral @0233e509, verbatim (rotate_half and apply_rotary_pos_emb: make_golden.py's) ----------------

def position_ids_in_meshgrid(patch_embeds_list, max_width):
    positions = []
    for patch in patch_embeds_list:
        height, width = patch.shape[-2:]
        mesh = torch.meshgrid(torch.arange(height), torch.arange(width), indexing="ij")
        h_grid, v_grid = torch.stack(mesh, dim=-1).reshape(-1, 2).chunk(2, -1)
        ids = h_grid * max_width + v_grid
        positions.append(ids[:, 0])
    return torch.cat(positions)


class PixtralRotaryEmbedding(nn.Module):
    inv_freq: torch.Tensor  # fix linting for `register_buffer`

    def __init__(self, config, device=None, layer_type=None):
        super().__init__()

        self.config = config

        self.rope_type = self.config.rope_parameters["rope_type"]
        inv_freq, attention_scaling = self.compute_default_rope_parameters(self.config, device)
        if self.rope_type != "default":
            raise ValueError(
                f"{self.__class__.__name__} does not support non-default RoPE, but got `rope_type={self.rope_type}`"
            )
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        self.register_buffer("original_inv_freq", inv_freq.clone(), persistent=False)

    @staticmethod
    def compute_default_rope_parameters(
        config=None,
        device: Optional["torch.device"] = None,
        seq_len: int | None = None,
    ) -> tuple["torch.Tensor", float]:
        base = config.rope_parameters["rope_theta"]
        dim = getattr(config, "head_dim", None) or config.hidden_size // config.num_attention_heads

        attention_factor = 1.0  # Unused in this type of RoPE

        # Here is the diff from Llama RoPE
        max_patches_per_side = config.image_size // config.patch_size
        h = torch.arange(max_patches_per_side)
        w = torch.arange(max_patches_per_side)

        freqs = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        freqs_h = torch.outer(h, freqs[::2]).float()
        freqs_w = torch.outer(w, freqs[1::2]).float()
        inv_freq = torch.cat(
            [
                freqs_h[:, None, :].repeat(1, max_patches_per_side, 1),
                freqs_w[None, :, :].repeat(max_patches_per_side, 1, 1),
            ],
            dim=-1,
        ).reshape(-1, dim // 2)  # we reshape to only index on the position indexes, not tuple of indexes
        # Different from paper, but it uses a different permutation in order to obtain the same calculation

        # TODO maybe make it torch compatible later on. We can also just slice
        inv_freq = torch.cat((inv_freq, inv_freq), dim=-1)
        return inv_freq, attention_factor

    @torch.no_grad()
    def forward(self, x, position_ids):
        freqs = self.inv_freq[position_ids]
        device_type = x.device.type if isinstance(x.device.type, str) and x.device.type != "mps" else "cpu"
        with torch.autocast(device_type=device_type, enabled=False):  # Force float32
            emb = freqs
            cos = emb.cos()
            sin = emb.sin()

        return cos.to(dtype=x.dtype), sin.to(dtype=x.dtype)


# ---- SAM 2 @2b90b9f5, verbatim ---------------------------------------------------------------------

def init_t_xy(end_x: int, end_y: int):
    t = torch.arange(end_x * end_y, dtype=torch.float32)
    t_x = (t % end_x).float()
    t_y = torch.div(t, end_x, rounding_mode="floor").float()
    return t_x, t_y


def compute_axial_cis(dim: int, end_x: int, end_y: int, theta: float = 10000.0):
    freqs_x = 1.0 / (theta ** (torch.arange(0, dim, 4)[: (dim // 4)].float() / dim))
    freqs_y = 1.0 / (theta ** (torch.arange(0, dim, 4)[: (dim // 4)].float() / dim))

    t_x, t_y = init_t_xy(end_x, end_y)
    freqs_x = torch.outer(t_x, freqs_x)
    freqs_y = torch.outer(t_y, freqs_y)
    freqs_cis_x = torch.polar(torch.ones_like(freqs_x), freqs_x)
    freqs_cis_y = torch.polar(torch.ones_like(freqs_y), freqs_y)
    return torch.cat([freqs_cis_x, freqs_cis_y], dim=-1)


def reshape_for_broadcast(freqs_cis: torch.Tensor, x: torch.Tensor):
    ndim = x.ndim
    assert 0 <= 1 < ndim
    assert freqs_cis.shape == (x.shape[-2], x.shape[-1])
    shape = [d if i >= ndim - 2 else 1 for i, d in enumerate(x.shape)]
    return freqs_cis.view(*shape)


def apply_rotary_enc(
    xq: torch.Tensor,
    xk: torch.Tensor,
    freqs_cis: torch.Tensor,
    repeat_freqs_k: bool = False,
):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = (
        torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
        if xk.shape[-2] != 0
        else None
    )
    freqs_cis = reshape_for_broadcast(freqs_cis, xq_)
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)
    if xk_ is None:
        # no keys to rotate, due to dropout
        return xq_out.type_as(xq).to(xq.device), xk
    # repeat freqs along seq_len dim to match k seq_len
    if repeat_freqs_k:
        r = xk_.shape[-2] // xq_.shape[-2]
        if freqs_cis.is_cuda:
            freqs_cis = freqs_cis.repeat(*([1] * (freqs_cis.ndim - 2)), r, 1)
        else:
            # torch.repeat on complex numbers may not be supported on non-CUDA devices
            # (freqs_cis has 4 dims and we repeat on dim 2) so we use expand + flatten
            freqs_cis = freqs_cis.unsqueeze(2).expand(-1, -1, r, -1, -1).flatten(2, 3)
    xk_out = torch.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq).to(xq.device), xk_out.type_as(xk).to(xk.device)


# ---- the cases -------------------------------------------------------------------------------------

def random_qk(seed, batch, heads, kv_heads, seq, dim):
    """q [batch, heads, seq, dim], k [batch, kv_heads, seq, dim]: float32 normals (HF's order)."""
    generator = torch.Generator().manual_seed(seed)
    q = torch.randn(batch, heads, seq, dim, generator=generator, dtype=torch.float32)
    k = torch.randn(batch, kv_heads, seq, dim, generator=generator, dtype=torch.float32)
    return q, k


def prompt_positions(segments):
    """get_rope_index of a prompt (Qwen2-VL's, spatial_merge_size 2): [3, 1, seqLen] int64."""
    config = SimpleNamespace(
        vision_config=SimpleNamespace(spatial_merge_size=2),
        image_token_id=151655, video_token_id=151656, vision_start_token_id=151652)
    input_ids, images, videos, _ = inputs_of(segments, 2)
    position_ids, _ = qwen2_vl_get_rope_index(config, input_ids, images, videos)
    return position_ids


def mrope_run(model, dtype, section, head_dim, base, position_ids, q, k):
    with computing_in(dtype):
        q, k = q.to(dtype), k.to(dtype)
        if model == "qwen3-vl":
            config = SimpleNamespace(rope_parameters={"rope_type": "default", "rope_theta": base,
                                                      "mrope_section": section},
                                     max_position_embeddings=262144, head_dim=head_dim)
            cos, sin = Qwen3VLTextRotaryEmbedding(config)(q, position_ids)
            return apply_rotary_pos_emb(q, k, cos, sin)
        config = SimpleNamespace(rope_scaling={"type": "default", "mrope_section": section}, rope_theta=base,
                                 max_position_embeddings=32768, head_dim=head_dim)
        cos, sin = Qwen2VLRotaryEmbedding(config)(q, position_ids)
        return apply_multimodal_rotary_pos_emb(q, k, cos, sin, section)


def grid_run(variant, dtype, rows, cols, head_dim, base, q, k, frames=1):
    with computing_in(dtype):
        q, k = q.to(dtype), k.to(dtype)
        if variant == "pixtral":
            side = max(rows, cols)
            config = SimpleNamespace(rope_parameters={"rope_type": "default", "rope_theta": base},
                                     head_dim=head_dim, image_size=16 * side, patch_size=16)
            position_ids = position_ids_in_meshgrid([torch.zeros(1, rows, cols)], side)
            cos, sin = PixtralRotaryEmbedding(config)(q, position_ids)
            return apply_rotary_pos_emb(q, k, cos, sin, unsqueeze_dim=0)
        freqs_cis = compute_axial_cis(dim=head_dim, end_x=cols, end_y=rows, theta=base)
        return apply_rotary_enc(q, k, freqs_cis, repeat_freqs_k=frames > 1)


def deviation(got32, want64, x, layout):
    """The float32 run against float64: worst |diff| / (|x_a| + |x_b|), and that in float32 ulps of |x_a| + |x_b|."""
    dim = x.shape[-1]
    if layout == "half":
        a, b = x[..., : dim // 2], x[..., dim // 2 :]
        scale = torch.cat(((a.abs() + b.abs()),) * 2, dim=-1)
    else:
        pairs = x.reshape(*x.shape[:-1], -1, 2)
        scale = (pairs[..., 0].abs() + pairs[..., 1].abs()).repeat_interleave(2, dim=-1)
    diff = (got32.double() - want64).abs()
    relative = (diff / scale.double()).max().item()
    # float32 ulps of the pair's scale |x_a| + |x_b| (a component's own ulp means nothing near 0)
    spacing = torch.tensor(2.0).pow(torch.floor(torch.log2(scale.double())) - 23)
    return relative, (diff / spacing).max().item()


def flat(tensor, digits):
    return [float(format(float(v), f".{digits}g")) for v in tensor.reshape(-1).tolist()]


MROPE_CASES = [
    # name, model, section, head_dim, base, heads, kv heads, prompt
    ("Qwen2-VL [16, 24, 24], head_dim 128, text + image + text + video + text", "qwen2-vl", [16, 24, 24], 128,
     1000000.0, 1, 1, [{"text": 4}, {"image": [1, 6, 4]}, {"text": 3}, {"video": [3, 4, 4]}, {"text": 5}]),
    ("small odd sections [3, 5, 3], head_dim 22, two images", "qwen2-vl", [3, 5, 3], 22, 10000.0, 3, 3,
     [{"text": 2}, {"image": [1, 2, 2]}, {"text": 2}, {"image": [1, 4, 8]}, {"text": 1}]),
    ("Qwen3-VL interleaved [24, 20, 20], head_dim 128, text + image + text", "qwen3-vl", [24, 20, 20], 128,
     5000000.0, 1, 1, [{"text": 5}, {"image": [1, 4, 6]}, {"text": 3}]),
    ("small interleaved [5, 3, 3], head_dim 22, text + video + text", "qwen3-vl", [5, 3, 3], 22, 10000.0, 1, 1,
     [{"text": 3}, {"video": [2, 4, 6]}, {"text": 2}]),
]

GRID_CASES = [
    # variant, rows, cols, head_dim (pairs per axis: not multiples of 4 lanes), heads, frames of keys
    ("pixtral", 5, 7, 64, 1, 1),
    ("pixtral", 5, 7, 36, 2, 1),
    ("pixtral", 7, 5, 22, 1, 1),
    ("axial", 5, 7, 64, 1, 1),
    ("axial", 5, 7, 36, 2, 1),
    ("axial", 7, 5, 20, 1, 1),
    # SAM 2's memory attention: keys of 3 frames of the grid (repeat_freqs_k); x is then the keys
    ("axial", 4, 6, 36, 2, 3),
]


def main():
    out = {"generator": GENERATOR, "torch": torch.__version__, "mrope": [], "grid": []}
    for n, (name, model, section, head_dim, base, heads, kv_heads, segments) in enumerate(MROPE_CASES):
        position_ids = prompt_positions(segments)
        seq = position_ids.shape[-1]
        q, k = random_qk(100 + n, 1, heads, kv_heads, seq, head_dim)
        q64, k64 = mrope_run(model, torch.float64, section, head_dim, base, position_ids, q, k)
        q32, k32 = mrope_run(model, torch.float32, section, head_dim, base, position_ids, q, k)
        assert q64.dtype == torch.float64 and q32.dtype == torch.float32
        relative, ulps = zip(deviation(q32, q64, q, "half"), deviation(k32, k64, k, "half"))
        out["mrope"].append({
            "name": name, "model": model, "section": section, "interleaved": model == "qwen3-vl",
            "headDim": head_dim, "base": base, "numHeads": heads, "numKvHeads": kv_heads, "seqLen": seq,
            "segments": segments, "positions": position_ids.reshape(-1).tolist(),
            "q": flat(q, 9), "k": flat(k, 9), "float64": {"q": flat(q64, 17), "k": flat(k64, 17)},
            "float32": {"relative": max(relative), "ulps": max(ulps)},
        })
        print(f"{name}: float32 reference {max(relative):.3g} (|x_a| + |x_b|), {max(ulps):.3g} ulps")
    for n, (variant, rows, cols, head_dim, heads, frames) in enumerate(GRID_CASES):
        q, _ = random_qk(200 + n, 1, heads, heads, rows * cols, head_dim)
        _, k = random_qk(300 + n, 1, heads, heads, frames * rows * cols, head_dim)
        q64, k64 = grid_run(variant, torch.float64, rows, cols, head_dim, 10000.0, q, k, frames)
        q32, k32 = grid_run(variant, torch.float32, rows, cols, head_dim, 10000.0, q, k, frames)
        assert q64.dtype == torch.float64 and q32.dtype == torch.float32
        layout = "half" if variant == "pixtral" else "interleaved"
        relative, ulps = zip(deviation(q32, q64, q, layout), deviation(k32, k64, k, layout))
        x, x64 = (q, q64) if frames == 1 else (k, k64)
        out["grid"].append({  # x: the queries, or the keys of several frames (ropeGrid rotates one tensor)
            "variant": variant, "rows": rows, "cols": cols, "headDim": head_dim, "base": 10000.0,
            "numHeads": heads, "frames": frames, "x": flat(x, 9), "float64": flat(x64, 17),
            "float32": {"relative": max(relative), "ulps": max(ulps)},
        })
        print(f"{variant} {rows}x{cols}x{frames} head_dim {head_dim}: float32 reference {max(relative):.3g}, {max(ulps):.3g} ulps")
    path = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "rope-axes.json"
    path.write_text(json.dumps(out, separators=(",", ":")) + "\n")
    print(f"{path.name}: {path.stat().st_size / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
