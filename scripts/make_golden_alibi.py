#!/usr/bin/python3
"""Golden vectors for ALiBi: tests/golden/alibi.json.

Re-statements, operation for operation and dtype for dtype, of the ALiBi code two model families
run (transformers itself cannot be installed here, so these restate it rather than call it):

- BLOOM: huggingface/transformers, src/transformers/models/bloom/modeling_bloom.py,
  build_alibi_tensor (read at commits 9d97831a1cbb420edac062c2e8454ce9ac1c4b79 and
  0078a6cd96d5ab7c3c429b9fdc3fbc703d894dcc: the same computation). Slopes are
  torch.pow(base, powers) of a float32 base 2^(-2^-(log2(c) - 3)) and int32 powers 1..c, then
  extra_base (the same for 2c) to the odd powers 1, 3, ... for the num_heads - c extra heads;
  the bias is slope * (cumsum(mask) - 1) per key.
- MPT: huggingface/transformers, src/transformers/models/mpt/modeling_mpt.py,
  build_mpt_alibi_tensor (commit 4352620161a5f53911ddc19dbfa1bd76d92c93be; gen_slopes at
  0206c7b0f3a56f3876a66bda1baa00741950221e is the same): base = arange(1, N + 1) * (alibi_bias_max / N)
  for N the next power of two, slopes = 1 / 2^base, then concat(slopes[1::2], slopes[::2])[:n];
  the bias is slope * arange(1 - seq_len, 1) per key.
- The paper: ofirpress/attention_with_linear_biases, fairseq/models/transformer.py, get_slopes
  (commit 3b7c2eca8397d27be08c6dffad9b60855507f9b7): get_slopes_power_of_2(c) +
  get_slopes(2c)[0::2][:n - c]. Its values, exact: 2^(-8 (h+1)/c), then 2^(-8 (2m+1)/(2c)),
  here evaluated with Python's decimal module at 50 digits and rounded once to float64.

Each reference runs as the model runs it (float32) and, to separate the formula from float32,
with float64 tensors in place of float32 (nothing else changed). The MPT and BLOOM orders agree
(the script asserts it), so posenc has one order.

Run with Debian's python (torch 1.13): /usr/bin/python3 scripts/make_golden_alibi.py
"""
import decimal
import json
import math
import pathlib

import torch

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "alibi.json"
HEADS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 20, 24, 25, 32, 40, 48, 56, 64, 71, 80, 96, 112, 128]


def bloom_slopes(num_heads, dtype=torch.float32):
    """build_alibi_tensor's slopes (BLOOM): float32 base and extra_base, int32 powers."""
    closest_power_of_2 = 2 ** math.floor(math.log2(num_heads))
    base = torch.tensor(2 ** (-(2 ** -(math.log2(closest_power_of_2) - 3))), dtype=dtype)
    powers = torch.arange(1, 1 + closest_power_of_2, dtype=torch.int32)
    slopes = torch.pow(base, powers)
    if closest_power_of_2 != num_heads:
        extra_base = torch.tensor(2 ** (-(2 ** -(math.log2(2 * closest_power_of_2) - 3))), dtype=dtype)
        num_remaining_heads = min(closest_power_of_2, num_heads - closest_power_of_2)
        extra_powers = torch.arange(1, 1 + 2 * num_remaining_heads, 2, dtype=torch.int32)
        slopes = torch.cat([slopes, torch.pow(extra_base, extra_powers)], dim=0)
    return slopes


def bloom_alibi(attention_mask, num_heads, dtype=torch.float32):
    """build_alibi_tensor: [batch * num_heads, 1, seq_len], slope * (position of each key)."""
    batch_size, seq_length = attention_mask.shape
    slopes = bloom_slopes(num_heads, dtype)
    arange_tensor = ((attention_mask.cumsum(dim=-1) - 1) * attention_mask)[:, None, :]
    alibi = slopes[..., None] * arange_tensor
    return alibi.reshape(batch_size * num_heads, 1, seq_length)


def mpt_slopes(num_heads, alibi_bias_max=8, dtype=torch.float32):
    """build_mpt_alibi_tensor's slopes (MPT): .float() is float32; `dtype` swaps it for float64."""
    num_heads_power_of_2 = 2 ** math.ceil(math.log2(num_heads))
    base = torch.arange(1, num_heads_power_of_2 + 1, dtype=torch.int64).to(dtype)
    base = base * (alibi_bias_max / num_heads_power_of_2)
    slopes = 1.0 / torch.pow(2, base)
    slopes = slopes.view(1, num_heads_power_of_2, 1, 1)
    if num_heads_power_of_2 != num_heads:
        slopes = torch.concat([slopes[:, 1::2, ...], slopes[:, ::2, ...]], dim=1)[:, :num_heads, ...]
    return slopes


def mpt_alibi(num_heads, sequence_length, alibi_bias_max=8, dtype=torch.float32):
    """build_mpt_alibi_tensor: [num_heads, 1, seq_len], slope * (j - (seq_len - 1))."""
    alibi = torch.arange(1 - sequence_length, 1, dtype=torch.int32).view(1, 1, 1, sequence_length)
    alibi = alibi * mpt_slopes(num_heads, alibi_bias_max, dtype)
    return alibi.squeeze(0)


def exact_slopes(num_heads, max_bias=8):
    """The paper's slopes, 2^(-B k / p), at 50 digits, rounded once to float64."""
    decimal.getcontext().prec = 50
    c = 2 ** math.floor(math.log2(num_heads))
    fractions = [(h + 1, c) for h in range(c)] + [(2 * m + 1, 2 * c) for m in range(num_heads - c)]
    two = decimal.Decimal(2)
    return [float(two ** (-decimal.Decimal(max_bias) * k / p)) for k, p in fractions]


def floats(t):
    return [float(v) for v in t.reshape(-1).tolist()]


def main():
    slopes = []
    for n in HEADS:
        for max_bias in (8, 16):
            case = {"numHeads": n, "maxBias": max_bias, "exact": exact_slopes(n, max_bias),
                    "mpt": floats(mpt_slopes(n, max_bias)), "mpt64": floats(mpt_slopes(n, max_bias, torch.float64))}
            if max_bias == 8:  # BLOOM has no max_bias: its 8 is built into the base
                case["bloom"] = floats(bloom_slopes(n))
                case["bloom64"] = floats(bloom_slopes(n, torch.float64))
                # One order: MPT's interleaving equals BLOOM's extra heads (equal in float64 up to
                # BLOOM's powers of a rounded base, a few ulps).
                assert all(abs(a - b) <= 1e-13 * a for a, b in zip(case["bloom64"], case["mpt64"])), n
            slopes.append(case)

    # Bias matrices: posenc's [numHeads, queryLen, keyLen] against BLOOM's and MPT's per-key rows
    # (the float32 tensors the models add), and the float64 reference slope * (j - (offset + i)).
    bias = []
    for n, q, k, offset, max_bias in [(8, 6, 6, 0, 8), (12, 5, 9, 4, 8), (3, 4, 4, 0, 8), (12, 1, 37, 36, 8),
                                      (5, 3, 20, 17, 8), (6, 7, 7, 0, 16), (40, 2, 11, 9, 8)]:
        exact = exact_slopes(n, max_bias)
        reference = [exact[h] * (j - (offset + i)) for h in range(n) for i in range(q) for j in range(k)]
        case = {"numHeads": n, "queryLen": q, "keyLen": k, "offset": offset, "maxBias": max_bias,
                "reference64": reference,
                "mptPerKey": floats(mpt_alibi(n, k, max_bias))}  # [n, 1, k]
        if max_bias == 8:
            case["bloomPerKey"] = floats(bloom_alibi(torch.ones(1, k, dtype=torch.int64), n))  # [n, 1, k]
        bias.append(case)

    OUT.write_text(json.dumps({
        "about": "ALiBi golden vectors from scripts/make_golden_alibi.py (BLOOM build_alibi_tensor, "
                 "MPT build_mpt_alibi_tensor, the paper's get_slopes); torch " + torch.__version__,
        "slopes": slopes,
        "bias": bias,
    }) + "\n")
    print(f"wrote {OUT} ({len(slopes)} slope cases, {len(bias)} bias cases)")


if __name__ == "__main__":
    main()
