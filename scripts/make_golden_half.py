#!/usr/bin/env python3
"""Golden vectors for half-precision storage (include/posenc/half.h): tests/golden/half.json.

For float32 inputs, torch's own casts are the reference: torch.float32 -> torch.float16 (the IEEE
conversion of c10::Half) and -> torch.bfloat16 (c10::BFloat16's round-to-nearest-even of the
float32 bits). For float64 inputs, torch casts through float32 (c10's Half and BFloat16 are built
from a float), which rounds twice; posenc rounds the float64 once. So for float64 the reference is
the exact rounding, done here with fractions.Fraction (no floating point), and the file also
records torch's double-rounded result, to count where the two differ (the values just above a
tie, by less than float32 resolves).

Run with Debian's python (torch 1.13): /usr/bin/python3 scripts/make_golden_half.py
"""
import json
import math
import pathlib
import random
import struct
from fractions import Fraction

import torch

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "half.json"

# (fraction bits, minimum normal exponent, maximum exponent, infinity pattern, NaN pattern of torch)
FORMATS = {"float16": (10, -14, 15, 0x7C00), "bfloat16": (7, -126, 127, 0x7F80)}


def exact(x, fmt):
    """Round-to-nearest-even of a float64 onto the format, exactly (Fraction arithmetic)."""
    frac_bits, emin, emax, inf = FORMATS[fmt]
    if math.isnan(x):
        return None  # NaN: checked apart (torch's patterns)
    sign = 0x8000 if math.copysign(1.0, x) < 0 else 0
    if math.isinf(x):
        return sign | inf
    v = Fraction(abs(x))
    if v == 0:
        return sign
    e = max(math.floor(math.log2(abs(x))), emin)
    if Fraction(2) ** e > v:  # log2's float rounding near a power of two
        e -= 1
    e = max(e, emin)
    step = Fraction(2) ** (e - frac_bits)
    q, rest = divmod(v, step)
    if rest * 2 > step or (rest * 2 == step and q % 2 == 1):
        q += 1
    one = 2**frac_bits
    if q >= 2 * one:
        q //= 2
        e += 1
    if q < one:
        return sign | int(q)
    if e > emax:
        return sign | inf
    return sign | ((e + emax) << frac_bits) | int(q - one)  # the bias equals emax


def torch_bits(values, dtype, via):
    t = torch.tensor(values, dtype=via).to(dtype)
    return [int(b) & 0xFFFF for b in t.view(torch.int16).tolist()]


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def main():
    rng = random.Random(20261201)
    doubles = [0.0, -0.0, 1.0, -1.0, 65504.0, 65519.99, 65520.0, 65536.0, 1e-8, 6e-8, 2**-24, 2**-25, 3 * 2**-26,
               2**-14, 2**-14 - 2**-25, 1e30, -1e300, 3.4e38, 3.3895e38, 1e-40, 1e-45, float("inf"), float("-inf"),
               1 + 2**-11, 1 + 2**-11 + 2**-40, 1 + 2**-8 + 2**-40, 1 - 2**-12, 0.1, 1 / 3, math.pi, -math.e]
    for _ in range(3000):  # random significands over the formats' exponents and beyond
        doubles.append(rng.choice((-1, 1)) * math.ldexp(rng.random() + 0.5, rng.randint(-160, 140)))
    for _ in range(1000):  # just above and below binary16 ties, by less than float32 resolves
        k = rng.randint(1, 2**10 - 1)
        e = rng.randint(-14, 15)
        tie = math.ldexp(1 + (2 * k + 1) / 2**11, e)
        doubles.append(tie + math.ldexp(rng.choice((-1, 1)), e - 40))
    floats = sorted({f32(x) for x in doubles if abs(x) < 3.4028234663852886e38 or math.isinf(x)})

    cases = {"float64": [], "float32": []}
    t16_from64 = torch_bits(doubles, torch.float16, torch.float64)
    tbf_from64 = torch_bits(doubles, torch.bfloat16, torch.float64)
    for x, h, b in zip(doubles, t16_from64, tbf_from64):
        cases["float64"].append({"x": x, "float16": exact(x, "float16"), "bfloat16": exact(x, "bfloat16"),
                                 "torch_float16": h, "torch_bfloat16": b})
    t16 = torch_bits(floats, torch.float16, torch.float32)
    tbf = torch_bits(floats, torch.bfloat16, torch.float32)
    for x, h, b in zip(floats, t16, tbf):
        assert h == exact(x, "float16") and b == exact(x, "bfloat16"), x  # one rounding from float32: torch is exact
        cases["float32"].append({"x": x, "float16": h, "bfloat16": b})
    nan = torch_bits([float("nan"), -float("nan")], torch.float16, torch.float32)
    nan_bf = torch_bits([float("nan"), -float("nan")], torch.bfloat16, torch.float32)
    differ = [c for c in cases["float64"] if c["float16"] != c["torch_float16"] or c["bfloat16"] != c["torch_bfloat16"]]
    OUT.write_text(json.dumps({
        "source": "torch " + torch.__version__ + " casts (float32 inputs); exact Fraction rounding (float64 inputs), "
                  "with torch's float64 -> float32 -> 16-bit result beside it",
        "nan": {"float16": nan, "bfloat16": nan_bf},
        "double_rounding_differences": len(differ),
        **cases,
    }, indent=None))
    print(f"{OUT}: {len(cases['float64'])} float64 and {len(cases['float32'])} float32 values; "
          f"torch's float64 casts differ from the exact rounding on {len(differ)} values (double rounding)")


if __name__ == "__main__":
    main()
