#!/usr/bin/python3
"""Golden vectors for posenc's half-precision operations: tests/golden/half-ops.json.

The precision contract of half-precision storage: a table (sinusoidal, ropeCache with its attention factor,
positionNumbers) is the float64 value rounded ONCE to float16 / bfloat16; rope is the float32
rotation of the widened 16-bit input, rounded once to the storage type.

- Tables: the float64 values come from the reference code that make_golden.py and
  make_golden_scaling.py already transcribe (the PyTorch tutorial's PositionalEncoding and the
  tensor2tensor concat layout; Hugging Face's LlamaRotaryEmbedding cos/sin in float64; Hugging
  Face's YaRN schedule and attention factor, modeling_rope_utils.py as mirrored in
  nishu-opsera/transformers-main@15b298bc5fce7c3275bce4e6cf92041720e93ab7). The golden is their exact rounding (Fraction
  arithmetic: make_golden_half.exact). torch's own `.to(torch.float16)` / `.to(torch.bfloat16)` of
  the float64 tensor is recorded beside it where it differs ("torchDiffers": [index, torch's
  pattern] per format), with the count of those values: torch builds c10::Half and c10::BFloat16 from a float, so its
  float64 casts round twice (float64 -> float32 -> 16 bits).
- rope: Hugging Face's apply_rotary_pos_emb and rotate_half (transformers
  models/llama/modeling_llama.py, transcribed verbatim in make_golden.py) with GPT-NeoX's partial
  rotary, run by torch in float32 on the widened input, with cos/sin computed in float64 and rounded once to float32
  (posenc's float32 rope does the same; Hugging Face itself computes its angles in float32, which
  at long positions is a different, less accurate, rotation), then `.to(torch.float16)` /
  `.to(torch.bfloat16)`: float32 -> 16 bits is a single rounding in torch (make_golden_half.py
  checks that cast against the exact rounding). The interleaved pairing is the same products on
  permuted channels (make_golden.py checks Meta's complex form against it). Pass-through channels
  are the input's 16-bit patterns, copied.

Every 16-bit value is written as its bit pattern (an integer), so NaN payloads, -0 and
infinities survive JSON.

Run with Debian's python (torch 1.13): /usr/bin/python3 scripts/make_golden_half_ops.py
"""
import json
import pathlib

import torch

from make_golden import apply_rotary_pos_emb, concat_table, half_to_interleaved, hf_cos_sin, tutorial_table
from make_golden_half import exact
from make_golden_scaling import yarn

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "half-ops.json"
DTYPES = {"float16": torch.float16, "bfloat16": torch.bfloat16}

# Short and long positions: float16 holds integers exactly only up to 2048 and its spacing is 32
# at 60,000, which is where a table's angles are largest; the positions go on to 65,536 for rope.
TABLE_POSITIONS = [0, 1, 2, 63, 64, 65, 1000, 2047, 2048, 2049, 4095, 4097, 8191, 16385, 32767, 32768, 50000,
                   59999, 60000]
ROPE_POSITIONS = [0, 1, 7, 2048, 4097, 30000, 65535, 65536]


def bits(tensor16):
    return [int(b) & 0xFFFF for b in tensor16.contiguous().view(torch.int16).reshape(-1).tolist()]


def widen(bits16, dtype):
    """16-bit patterns as a float32 tensor (exact)."""
    return torch.tensor(bits16, dtype=torch.int32).to(torch.int16).view(dtype).to(torch.float32)


class Differences:
    """Counts where torch's float64 cast (double rounding) differs from the exact rounding."""

    def __init__(self):
        self.counts = {name: {"values": 0, "float16": 0, "bfloat16": 0} for name in ("sinusoidal", "ropeCache")}

    def rounded(self, kind, values64):
        """The exact roundings of a float64 tensor, and torch's casts beside them."""
        flat = values64.reshape(-1)
        out = {}
        torch_differs = {}
        for name, dtype in DTYPES.items():
            golden = [exact(v, name) for v in flat.tolist()]
            out[name] = golden
            torch_differs[name] = [[i, t] for i, (g, t) in enumerate(zip(golden, bits(flat.to(dtype)))) if g != t]
            self.counts[kind][name] += len(torch_differs[name])
        self.counts[kind]["values"] += flat.numel()
        return {**out, "torchDiffers": torch_differs}


def make_sinusoidal(differences):
    cases = []
    positions = torch.tensor(TABLE_POSITIONS)
    for d_model in (6, 38, 64, 512):  # 3 and 19 pairs: odd pair counts leave SIMD tails
        for layout, table in (("interleaved", tutorial_table), ("concat", concat_table)):
            values = table(positions.double(), d_model)
            assert values.dtype == torch.float64
            cases.append({"layout": layout, "dModel": d_model, "positions": TABLE_POSITIONS,
                          **differences.rounded("sinusoidal", values)})
    # Consecutive rows at an offset: posenc's float64 recurrence runs across its re-anchoring.
    offset, seq_len = 58950, 1050
    values = tutorial_table(torch.arange(offset, offset + seq_len).double(), 6)
    cases.append({"layout": "interleaved", "dModel": 6, "offset": offset, "seqLen": seq_len,
                  **differences.rounded("sinusoidal", values)})
    return cases


QWEN2_YARN = {"type": "yarn", "factor": 4.0, "originalMaxPositionEmbeddings": 32768}  # Qwen2.5-7B-Instruct's


def make_rope_cache(differences):
    cases = []
    positions = torch.tensor(ROPE_POSITIONS + [60000, 65504, 65519, 65520])
    for rotary_dim, base, scaling in ((64, 10000.0, None), (6, 10000.0, None), (128, 1000000.0, QWEN2_YARN)):
        if scaling is None:
            cos, sin = hf_cos_sin(positions[None], rotary_dim, base)
            attention_factor = 1.0
        else:
            inv_freq, attention_factor = yarn(base, rotary_dim, scaling)
            angles = positions.double()[:, None] * inv_freq[None, :]
            emb = torch.cat((angles, angles), dim=-1)[None]
            # LlamaRotaryEmbedding.forward: cos = emb.cos() * self.attention_scaling (float64 here)
            cos, sin = emb.cos() * attention_factor, emb.sin() * attention_factor
        half = rotary_dim // 2
        cos, sin = cos[0, :, :half], sin[0, :, :half]
        assert cos.dtype == torch.float64
        cases.append({"rotaryDim": rotary_dim, "base": base, "scaling": scaling,
                      "attentionFactor": float(attention_factor), "positions": positions.tolist(),
                      "cos": differences.rounded("ropeCache", cos), "sin": differences.rounded("ropeCache", sin)})
    return cases


def make_position_numbers():
    """offset + row in every channel: float16 spacing is 2 from 2048 and 32 from 32768; 65520 and
    above overflow to infinity; bfloat16 spacing is 2 from 256."""
    cases = []
    for offset, seq_len in ((0, 20), (250, 20), (2040, 20), (32760, 20), (65490, 40)):
        d_model = 3
        values = torch.arange(offset, offset + seq_len, dtype=torch.float64)[:, None].expand(seq_len, d_model)
        case = {"offset": offset, "seqLen": seq_len, "dModel": d_model}
        for name, dtype in DTYPES.items():
            case[name] = [exact(v, name) for v in values.reshape(-1).tolist()]
            # Integers below 2^24 are exact in float32: torch's cast rounds once here.
            assert case[name] == bits(values.to(dtype)), (offset, name)
        cases.append(case)
    return cases


def rope_inputs(generator, shape, rotary_dim, dtype):
    """Seeded normal values as 16-bit patterns, with the edge cases written in: huge pairs whose
    rotation overflows the format, subnormals, -0, and in pass-through channels a signalling NaN
    with a payload and an infinity (copied, never converted)."""
    x = torch.randn(*shape, generator=generator, dtype=torch.float32) * 4
    big = 60000.0 if dtype == torch.float16 else 3.0e38
    tiny = 2.0**-20 if dtype == torch.float16 else 2.0**-130
    x[3, 0, 0:4] = big
    x[4, 1, 0:4] = -big
    x[5, 0, 0:4] = tiny
    x[5, 1, 0:4] = -tiny
    x[0, 0, 0:4] = -0.0
    out = bits(x.to(dtype))
    if rotary_dim < shape[-1]:
        nan = 0x7D01 if dtype == torch.float16 else 0x7F81  # signalling NaN, payload 1
        row_stride = shape[1] * shape[2]
        out[row_stride * 2 + rotary_dim] = nan | 0x8000
        out[row_stride * 6 + shape[2] + rotary_dim] = 0x7C00 if dtype == torch.float16 else 0x7F80
    return out


def rope32(x, positions, rotary_dim, layout):
    """x: float32 [seq, heads, head_dim]; Hugging Face's rotate_half rotation of the first
    rotary_dim channels in float32, with float64 cos/sin rounded once to float32."""
    query = x.permute(1, 0, 2)[None]  # Hugging Face's [batch, heads, seq, head_dim]
    if layout == "interleaved":  # the same pairs, gathered into half order (a0..a_h-1, b0..b_h-1)
        half = rotary_dim // 2
        order = [2 * i for i in range(half)] + [2 * i + 1 for i in range(half)] + list(range(rotary_dim, x.shape[-1]))
        query = query[..., order]
    cos, sin = hf_cos_sin(positions[None], rotary_dim)  # float64
    query_rot = query[..., :rotary_dim]
    rotated, _ = apply_rotary_pos_emb(query_rot, query_rot, cos.float(), sin.float())  # float32
    assert rotated.dtype == torch.float32
    if layout == "interleaved":
        rotated = half_to_interleaved(rotated, rotary_dim)  # back to pairs (a0, b0, a1, b1, ...)
    return rotated[0].permute(1, 0, 2)


def make_rope():
    generator = torch.Generator().manual_seed(11)
    positions = torch.tensor(ROPE_POSITIONS)
    cases = []
    num_heads = 2
    for layout, head_dim, rotary_dim in (("half", 64, 64), ("interleaved", 64, 64), ("half", 64, 32),
                                         ("interleaved", 10, 6)):
        shape = (len(ROPE_POSITIONS), num_heads, head_dim)
        case = {"layout": layout, "headDim": head_dim, "rotaryDim": rotary_dim, "numHeads": num_heads,
                "positions": ROPE_POSITIONS, "input": {}, "output": {}}
        for name, dtype in DTYPES.items():
            x_bits = rope_inputs(generator, shape, rotary_dim, dtype)
            x16 = torch.tensor(x_bits, dtype=torch.int32).to(torch.int16).view(dtype).reshape(shape)
            rotated = rope32(x16.float(), positions, rotary_dim, layout)
            out = torch.cat((rotated.to(dtype), x16[..., rotary_dim:]), dim=-1)
            out_bits = bits(out)
            # float32 -> 16 bits is one rounding in torch: its cast is the exact rounding.
            for got, value in zip(bits(rotated.to(dtype)), rotated.reshape(-1).tolist()):
                assert got == exact(value, name), value
            case["input"][name] = x_bits
            case["output"][name] = out_bits
        cases.append(case)
    return cases


def main():
    torch.set_num_threads(1)
    differences = Differences()
    content = {
        "generator": "scripts/make_golden_half_ops.py",
        "torch": torch.__version__,
        "description": "16-bit patterns: tables = the float64 reference rounded once (exact), torch's "
                       "float64 casts where they differ (torchDiffers: [index, pattern]; rounded twice, through "
                       "float32); rope = torch float32 rotation of the widened input, cast to the format",
        "sinusoidal": make_sinusoidal(differences),
        "ropeCache": make_rope_cache(differences),
        "positionNumbers": make_position_numbers(),
        "rope": make_rope(),
    }
    content["torchDoubleRoundingDifferences"] = differences.counts
    OUT.write_text(json.dumps(content, separators=(",", ":")) + "\n")
    print(f"{OUT}: {OUT.stat().st_size / 1024:.0f} KiB; torch's float64 casts differ from the exact rounding: "
          f"{differences.counts}")


if __name__ == "__main__":
    main()
