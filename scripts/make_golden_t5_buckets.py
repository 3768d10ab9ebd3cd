#!/usr/bin/python3
"""Golden vectors for T5's relative position buckets: tests/golden/t5-buckets.json.

A verbatim transcription of transformers' T5Attention._relative_position_bucket and of the
relative positions T5Attention.compute_bias feeds it (huggingface/transformers,
src/transformers/models/t5/modeling_t5.py, commit 6b8b757dfcb582379a64f013cdce46c43629f2b0),
run with torch 1.13 on CPU in its own dtypes (int64 positions, a float32 log). transformers
itself cannot be installed here; the two functions below are its code, not a re-derivation.

For each configuration the buckets of every relative position n in [-RANGE, RANGE] are
computed by torch and stored as runs: [first n, bucket] whenever the bucket changes (the first
run starts at -RANGE), so an exhaustive comparison stays small on disk. computeBias cases are
whole [queryLen, keyLen] matrices with a KV-cache offset (cache_position = offset + i).

Run with Debian's python (torch 1.13): /usr/bin/python3 scripts/make_golden_t5_buckets.py
(--sweep: check posenc's float32 model against torch on ~900 more configurations, write nothing)
"""
import json
import math
import pathlib
import sys

import torch

RANGE = 1 << 20


# transformers T5Attention._relative_position_bucket (a staticmethod), verbatim.
def _relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    relative_buckets = 0
    if bidirectional:
        num_buckets //= 2
        relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
        relative_position = torch.abs(relative_position)
    else:
        relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
    # now relative_position is in the range [0, inf)

    # half of the buckets are for exact increments in positions
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact

    # The other half of the buckets are for logarithmically bigger bins in positions up to max_distance
    relative_position_if_large = max_exact + (
        torch.log(relative_position.float() / max_exact)
        / math.log(max_distance / max_exact)
        * (num_buckets - max_exact)
    ).to(torch.long)
    relative_position_if_large = torch.min(
        relative_position_if_large, torch.full_like(relative_position_if_large, num_buckets - 1)
    )

    relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
    return relative_buckets


# The relative positions of T5Attention.compute_bias (query_length, key_length, cache_position).
def compute_bias_buckets(query_length, key_length, cache_position, bidirectional, num_buckets, max_distance):
    if cache_position is None:
        context_position = torch.arange(query_length, dtype=torch.long)[:, None]
    else:
        context_position = cache_position[:, None]
    memory_position = torch.arange(key_length, dtype=torch.long)[None, :]
    relative_position = memory_position - context_position  # shape (query_length, key_length)
    return _relative_position_bucket(
        relative_position, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance
    )


# (numBuckets, maxDistance, bidirectional): T5's defaults (encoder, decoder), other sizes, odd
# bucket counts, a max_exact that is not a power of two, the smallest valid ones, a far maxDistance.
CONFIGS = [
    (32, 128, True),
    (32, 128, False),
    (64, 256, True),
    (16, 64, True),
    (128, 1024, False),
    (32, 32, True),
    (33, 128, True),
    (33, 128, False),
    (48, 100, True),
    (20, 77, False),
    (4, 2, True),
    (2, 2, False),
    (1024, 4096, True),
    (32, 1000000, True),
    (32, 9, True),
]


def runs(num_buckets, max_distance, bidirectional):
    n = torch.arange(-RANGE, RANGE + 1, dtype=torch.long)
    buckets = _relative_position_bucket(n, bidirectional, num_buckets, max_distance).tolist()
    out = [[-RANGE, buckets[0]]]
    for i in range(1, len(buckets)):
        if buckets[i] != buckets[i - 1]:
            out.append([i - RANGE, buckets[i]])
    return out


def scalar_typing_check():
    """How torch 1.13 types `float32 tensor / Python float`: the scalar becomes a float32 and the
    division is float32. Shown on a configuration where it matters: torch's buckets equal that
    model's, and differ from dividing by the float64 math.log (rounding once to float32)."""
    num_buckets, max_distance = 57, 4096
    n = torch.arange(0, RANGE + 1, dtype=torch.long)
    want = _relative_position_bucket(-n, False, num_buckets, max_distance)
    max_exact = num_buckets // 2
    log_ratio = torch.log(n.float() / max_exact)
    divisor = math.log(max_distance / max_exact)

    def buckets(scaled):
        large = torch.clamp(max_exact + scaled.to(torch.long), max=num_buckets - 1)
        return torch.where(n < max_exact, n, large)

    as_float32 = buckets(log_ratio / torch.tensor(divisor, dtype=torch.float32) * float(num_buckets - max_exact))
    as_float64 = buckets((log_ratio.double() / divisor).float() * float(num_buckets - max_exact))
    assert torch.equal(as_float32, want), "torch's scalar is not a float32 here"
    differ = int((as_float64 != want).sum())
    assert differ > 0, "the float64 divisor would give the same buckets: the check shows nothing"
    print(f"scalar typing: float32 divisor matches torch; a float64 divisor moves {differ} bucket(s)")


def sweep():
    """--sweep: posenc's model (float32 steps, the float64 log rounded to float32) against torch
    for every num_buckets 2..129 (as the halved count: bidirectional runs the same expression)
    and a spread of max_distance, every distance in [0, 2^20]. Nothing is written."""
    n = torch.arange(0, RANGE + 1, dtype=torch.long)
    configs = 0
    for num_buckets in range(2, 130):
        max_exact = num_buckets // 2
        for max_distance in sorted({max_exact + 1, num_buckets, 2 * num_buckets, 100, 128, 3 * num_buckets + 1, 1000, 4096}):
            if max_distance <= max_exact:
                continue
            want = _relative_position_bucket(-n, False, num_buckets, max_distance)
            ratio = n.float() / torch.tensor(float(max_exact), dtype=torch.float32)
            log_ratio = torch.log(ratio.double()).float()
            divisor = torch.tensor(math.log(max_distance / max_exact), dtype=torch.float32)
            scaled = log_ratio / divisor * torch.tensor(float(num_buckets - max_exact), dtype=torch.float32)
            large = torch.clamp(max_exact + scaled.to(torch.long), max=num_buckets - 1)
            got = torch.where(n < max_exact, n, large)
            assert torch.equal(got, want), f"num_buckets {num_buckets}, max_distance {max_distance}"
            configs += 1
    print(f"sweep: {configs} configurations, every distance in [0, {RANGE}]: the model equals torch")


def main():
    if "--sweep" in sys.argv:
        sweep()
        return
    scalar_typing_check()
    cases = []
    for num_buckets, max_distance, bidirectional in CONFIGS:
        cases.append({
            "numBuckets": num_buckets,
            "maxDistance": max_distance,
            "bidirectional": bidirectional,
            "runs": runs(num_buckets, max_distance, bidirectional),
        })
    bias = []
    for query_len, key_len, offset, bidirectional in [(7, 9, 0, True), (3, 12, 9, False), (4, 300, 150, True)]:
        cache_position = torch.arange(offset, offset + query_len, dtype=torch.long)
        b = compute_bias_buckets(query_len, key_len, cache_position, bidirectional, 32, 128)
        bias.append({
            "queryLen": query_len,
            "keyLen": key_len,
            "offset": offset,
            "bidirectional": bidirectional,
            "buckets": b.flatten().tolist(),
        })
    golden = {
        "source": "transformers src/transformers/models/t5/modeling_t5.py @ 6b8b757dfcb582379a64f013cdce46c43629f2b0: "
        "T5Attention._relative_position_bucket and compute_bias, run with torch " + torch.__version__,
        "range": RANGE,
        "configs": cases,
        "computeBias": bias,
    }
    path = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "t5-buckets.json"
    path.write_text(json.dumps(golden, separators=(",", ":")) + "\n")
    print(path, sum(len(c["runs"]) for c in cases), "runs")


if __name__ == "__main__":
    main()
