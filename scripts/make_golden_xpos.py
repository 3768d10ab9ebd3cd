#!/usr/bin/python3
"""Golden vectors for xPos: tests/golden/xpos.json.

The reference is torchscale's XPOS, transcribed verbatim below from microsoft/torchscale,
torchscale/component/xpos_relative_position.py at commit 4d1e0e82e5adf86dd424f1463192635b73fc8efc
(fixed_pos_embedding, rotate_every_two, duplicate_interleave, apply_rotary_pos_emb, XPOS).
torchscale/component/multihead_attention.py (same commit) calls it as
    k = self.xpos(k, offset=0, downscale=True)
    q = self.xpos(q, offset=offset, downscale=False)   # offset = src_len - 1 when decoding
on tensors of shape [batch * heads, length, head_dim], interleaved pairs (x[2i], x[2i + 1]).

It runs twice on the same float32 inputs:
- "exact": in float64. The verbatim code asks for float32 in one place (torch.arange(...,
  dtype=torch.float) in fixed_pos_embedding) and takes the default dtype elsewhere; for this run
  torch.float is bound to torch.float64 and the default dtype is float64 (float64_torch()
  below), nothing else changed.
- "float32": as torchscale runs it, to measure how far its float32 is from exact (not stored
  per value: summarised in "float32Deviation", quoted in docs/api.md).

Run with Debian's python (torch 1.13): /usr/bin/python3 scripts/make_golden_xpos.py
"""
import contextlib
import json
import pathlib

import numpy as np
import torch
import torch.nn as nn

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "xpos.json"

# ---- torchscale/component/xpos_relative_position.py, verbatim (commit 4d1e0e82) ----------------


def fixed_pos_embedding(x):
    seq_len, dim = x.shape
    inv_freq = 1.0 / (10000 ** (torch.arange(0, dim) / dim))
    sinusoid_inp = (
        torch.einsum("i , j -> i j", torch.arange(0, seq_len, dtype=torch.float), inv_freq).to(x)
    )
    return torch.sin(sinusoid_inp), torch.cos(sinusoid_inp)

def rotate_every_two(x):
    x1 = x[:, :, ::2]
    x2 = x[:, :, 1::2]
    x = torch.stack((-x2, x1), dim=-1)
    return x.flatten(-2)  # in einsum notation: rearrange(x, '... d j -> ... (d j)')\

def duplicate_interleave(m):
    """
    A simple version of `torch.repeat_interleave` for duplicating a matrix while interleaving the copy.
    """
    dim0 = m.shape[0]
    m = m.view(-1, 1)  # flatten the matrix
    m = m.repeat(1, 2)  # repeat all elements into the 2nd dimension
    m = m.view(dim0, -1)  # reshape into a matrix, interleaving the copy
    return m

def apply_rotary_pos_emb(x, sin, cos, scale=1):
    sin, cos = map(lambda t: duplicate_interleave(t * scale), (sin, cos))
    # einsum notation for lambda t: repeat(t[offset:x.shape[1]+offset,:], "n d -> () n () (d j)", j=2)
    return (x * cos) + (rotate_every_two(x) * sin)


class XPOS(nn.Module):
    def __init__(
        self, head_dim, scale_base=512
    ):
        super().__init__()
        self.head_dim = head_dim
        self.scale_base = scale_base
        self.register_buffer(
            "scale", (torch.arange(0, head_dim, 2) + 0.4 * head_dim) / (1.4 * head_dim)
        )

    def forward(self, x, offset=0, downscale=False):
        length = x.shape[1]
        min_pos = -(length + offset) // 2
        max_pos = length + offset + min_pos
        scale = self.scale ** torch.arange(min_pos, max_pos, 1).to(self.scale).div(self.scale_base)[:, None]
        sin, cos = fixed_pos_embedding(scale)

        if scale.shape[0] > length:
            scale = scale[-length:]
            sin = sin[-length:]
            cos = cos[-length:]
        
        if downscale:
            scale = 1 / scale

        x = apply_rotary_pos_emb(x, sin, cos, scale)
        return x

# ---- end of the transcription ---------------------------------------------------------------------


@contextlib.contextmanager
def float64_torch():
    """The verbatim code in float64: torch.float (its one explicit float32) and the default dtype."""
    saved_float, saved_default = torch.float, torch.get_default_dtype()
    torch.float = torch.float64
    torch.set_default_dtype(torch.float64)
    try:
        yield
    finally:
        torch.float = saved_float
        torch.set_default_dtype(saved_default)


def xpos(x32, head_dim, offset, downscale, scale_base, exact):
    """XPOS(head_dim, scale_base)(x, offset, downscale) on float32 inputs, exact or as torchscale runs."""
    if exact:
        with float64_torch():
            module = XPOS(head_dim, scale_base)
            return module(torch.from_numpy(x32.astype(np.float64)), offset=offset, downscale=downscale).numpy()
    module = XPOS(head_dim, scale_base)
    return module(torch.from_numpy(x32), offset=offset, downscale=downscale).numpy()


# (head_dim, rows (batch * heads), length, offset): prompts (offset 0), a decoding query (length 1
# at offset src_len - 1), odd lengths and offsets, a pair count not a multiple of 4 (36: 18 pairs),
# positions far from the center (20000 rows away at most: scales near 1e-11 and 1e11).
CASES = [
    (36, 2, 16, 0),
    (36, 1, 1, 15),
    (36, 2, 37, 100),
    (64, 2, 9, 0),
    (64, 1, 1, 2047),
    (64, 1, 5, 40000),
    (128, 1, 17, 0),
    (128, 2, 1, 4095),
    (128, 1, 3, 20000),
    (8, 3, 64, 1),
]
SCALE_BASE = 512


def case(head_dim, rows, length, offset, downscale, seed):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1.0, 1.0, size=(rows, length, head_dim)).astype(np.float32)
    exact = xpos(x, head_dim, offset, downscale, SCALE_BASE, exact=True)
    return {
        "headDim": head_dim,
        "rows": rows,
        "length": length,
        "offset": offset,
        "downscale": downscale,
        "scaleBase": SCALE_BASE,
        "x": [float(str(v)) for v in x.ravel()],  # float32's shortest decimals: the same float32 read back
        "exact": [float(v) for v in exact.ravel()],
    }


def float32_deviation(head_dim, length, offset, downscale):
    """torchscale in float32 against float64 on one sequence: the largest error of a component
    relative to its pair's length after scaling (|exact pair| = scale · |x pair|)."""
    rng = np.random.default_rng(7)
    x = rng.uniform(-1.0, 1.0, size=(1, length, head_dim)).astype(np.float32)
    exact = xpos(x, head_dim, offset, downscale, SCALE_BASE, exact=True)
    got = xpos(x, head_dim, offset, downscale, SCALE_BASE, exact=False).astype(np.float64)
    pair_length = np.sqrt(exact[..., 0::2] ** 2 + exact[..., 1::2] ** 2).repeat(2, axis=-1)
    relative = np.abs(got - exact) / pair_length
    return {
        "headDim": head_dim,
        "length": length,
        "offset": offset,
        "downscale": downscale,
        "largestPosition": offset + length - 1,
        "maxRelativeError": float(relative.max()),
    }


def main():
    cases = []
    seed = 1
    for head_dim, rows, length, offset in CASES:
        for downscale in (False, True):
            cases.append(case(head_dim, rows, length, offset, downscale, seed))
            seed += 1
    deviations = [
        float32_deviation(128, length, 0, downscale)
        for length in (512, 2048, 8192, 32768)
        for downscale in (False, True)
    ]
    OUT.write_text(
        json.dumps(
            {
                "about": "xPos golden vectors from scripts/make_golden_xpos.py: torchscale's XPOS "
                "(microsoft/torchscale@4d1e0e82, torchscale/component/xpos_relative_position.py) run in "
                f"float64 on float32 inputs [rows, length, headDim], interleaved pairs; torch {torch.__version__}",
                "gamma": 0.4,
                "cases": cases,
                "float32Deviation": deviations,
            }
        )
        + "\n"
    )
    for d in deviations:
        print(d)


if __name__ == "__main__":
    main()
