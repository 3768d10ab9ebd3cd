#!/usr/bin/env python3
"""Writes the seed corpus of the libFuzzer targets: tests/fuzz/corpus/<target>/<name>.

Each seed is a hand-picked call in the byte format of tests/fuzz/fuzz_input.h (the tables
below mirror its kHostileSizes, kBases, kValues, kScales, kPositions and offset table, by
index). Seeds named regression-* reproduce crashes the fuzzers found; they stay in the corpus
so that every fuzz run replays them first.

Usage: python3 tests/fuzz/make_corpus.py   (rewrites the corpus folders; standard library only)
"""
import pathlib
import shutil
import struct

ROOT = pathlib.Path(__file__).resolve().parent / "corpus"

# ---- the tables of fuzz_input.h, by index ------------------------------------------------------
HOSTILE_SIZES = ["0", "1", "2", "3", "127", "128", "129", "256", "257",
                 "maxDim-1", "maxDim", "maxDim+1", "maxDim+2",
                 "maxSeqLen-1", "maxSeqLen", "maxSeqLen+1",
                 "2^28", "2^28+1", "46341", "2^31-1", "2^31", "2^32-2", "2^32-1"]
BASES = ["10000", "500000", "1", "2", "0.5", "1e-300", "1e300", "DBL_MAX", "DBL_MIN",
         "denorm_min", "0", "-0", "-1", "-10000", "NaN", "inf", "-inf", "1e-10", "1e6", "1.0000001"]
VALUES = ["0", "-0", "1", "-1", "0.5", "pi", "float_subnormal", "FLT_MIN", "1e30", "-1e30",
          "FLT_MAX", "-FLT_MAX", "NaN", "inf", "-inf", "1e300", "double_subnormal", "65504",
          "1e-20", "1e20"]
SCALES = ["1", "1e-3", "1e3", "1e-20", "1e20", "1e-40", "1e37", "0", "1e300", "4"]
POSITIONS = ["-1", "INT_MIN", "INT_MAX", "0", "2^24", "2^24-1", "2^24+1", "2^30",
             "1023", "1024", "1025"]
OFFSETS = ["0", "1", "1023", "1024", "2^24", "last_valid", "last_valid+1", "maxPosition",
           "2^31", "2^32-1", "100000", "65535"]


def u8(v): return struct.pack("<B", v & 0xFF)
def u16(v): return struct.pack("<H", v & 0xFFFF)
def u32(v): return struct.pack("<I", v & 0xFFFFFFFF)
def i32(v): return struct.pack("<i", v)
def f64(v): return struct.pack("<d", v)


def size(v):
    """A size: an int below 0xFF00 (taken modulo the target's small maximum), a name from
    HOSTILE_SIZES, or ('raw', u32)."""
    if isinstance(v, str):
        return u16(0xFF00 | HOSTILE_SIZES.index(v))
    if isinstance(v, tuple):
        return u16(0xFFFF) + u32(v[1])
    assert v < 0xFF00
    return u16(v)


def base(v):
    return u8(BASES.index(v)) if isinstance(v, str) else u8(255) + f64(v)


def enum(v):
    """0/1 are the real layouts/metrics; 'bad0'..'bad4' pick kBadEnums[t % 5] (t = 2.. )."""
    if isinstance(v, int):
        return u8(v)
    k = int(v[3:])
    return u8(next(t for t in range(2, 256) if t % 5 == k))


def value(v):
    if isinstance(v, str):
        return u8(VALUES.index(v))
    return u8(int(round(v * 8)) + 140)  # grid values (t - 140) / 8


def array(seed=1, scale="1", overrides=()):
    out = u32(seed) + u8(SCALES.index(scale)) + u8(len(overrides))
    for index, v in overrides:
        out += u16(index) + value(v)
    return out


def offset(v):
    return u8(OFFSETS.index(v)) if isinstance(v, str) else u8(255) + u32(v)


def at_offset(v="0"):
    return u8(0) + offset(v)


def listed(pattern, start="0", seed=7, overrides=()):
    """pattern: 'ascending' | 'uniform' | 'small' | 'descending'."""
    kind = ["ascending", "uniform", "small", "descending"].index(pattern)
    out = u8(1) + u8(kind)
    out += offset(start) if kind in (0, 3) else u32(seed)
    out += u8(len(overrides))
    for row, p in overrides:
        out += u16(row) + (u8(POSITIONS.index(p)) if isinstance(p, str) else u8(255) + i32(p))
    return out


# ---- seeds per target -----------------------------------------------------------------------------

def sinusoidal_seeds():
    table, add, numbers = u8(0), u8(1), u8(2)

    def spec(seq, d, b="10000", layout=0):
        return size(seq) + size(d) + base(b) + enum(layout)

    seeds = {
        "table-16x8": table + spec(16, 8) + at_offset(),
        "table-concat": table + spec(16, 8, layout=1) + at_offset(),
        "table-two-blocks": table + spec(12, 260) + at_offset(),
        "table-reanchor": table + spec(1100, 4) + at_offset(),
        "table-wide": table + spec(40, 300, layout=1) + at_offset("1023"),
        "table-last-valid-offset": table + spec(20, 16) + at_offset("last_valid"),
        "table-offset-too-large": table + spec(20, 16) + at_offset("last_valid+1"),
        "table-offset-2^32-1": table + spec(3, 16) + at_offset("2^32-1"),
        "table-list-ascending-2^24": table + spec(40, 32) + listed("ascending", "2^24"),
        "table-list-uniform": table + spec(64, 16) + listed("uniform", seed=99),
        "table-list-repeats": table + spec(200, 8) + listed("small", seed=3),
        "table-list-descending": table + spec(30, 10, layout=1) + listed("descending", "1024"),
        "table-list-negative": table + spec(10, 8) + listed("ascending", overrides=[(4, "-1")]),
        "table-list-int-min": table + spec(10, 8) + listed("ascending", overrides=[(9, "INT_MIN")]),
        "table-list-int-max": table + spec(10, 8) + listed("ascending", overrides=[(0, "INT_MAX")]),
        "table-base-1": table + spec(16, 8, "1") + at_offset(),
        "table-base-half": table + spec(16, 8, "0.5") + at_offset(),
        "table-base-500000": table + spec(16, 64, "500000") + at_offset("100000"),
        "table-base-dbl-max": table + spec(8, 8, "DBL_MAX") + at_offset(),
        "table-base-zero": table + spec(4, 8, "0") + at_offset(),
        "table-base-negative": table + spec(4, 8, "-1") + at_offset(),
        "table-base-nan": table + spec(4, 8, "NaN") + at_offset(),
        "table-base-inf": table + spec(4, 8, "inf") + at_offset(),
        "table-d-odd": table + spec(4, 7) + at_offset(),
        "table-d-zero": table + spec(4, 0) + at_offset(),
        "table-d-one": table + spec(4, 1) + at_offset(),
        "table-d-too-large": table + spec(4, "maxDim+2") + at_offset(),
        "table-seq-too-large": table + spec("maxSeqLen+1", 8) + at_offset(),
        "table-max-elements": table + spec("maxSeqLen", 16) + at_offset(),
        "table-too-many-elements": table + spec("maxSeqLen", 18) + at_offset(),
        "table-sizes-2^32-1": table + spec("2^32-1", "2^32-1") + at_offset(),
        "table-layout-bad": table + spec(4, 8, layout="bad0") + at_offset(),
        "table-layout-int-min": table + spec(4, 8, layout="bad2") + at_offset(),
        "add-16x8": add + spec(16, 8) + at_offset() + array(5),
        "add-huge-values": add + spec(8, 16) + at_offset() + array(6, "1e37", [(3, "FLT_MAX"), (5, "NaN")]),
        "add-list": add + spec(33, 18, layout=1) + listed("uniform", seed=11) + array(8, "1e-3"),
        "numbers-5x3": numbers + size(5) + size(3) + offset("0"),
        "numbers-d-one": numbers + size(7) + size(1) + offset("1024"),
        "numbers-last-valid": numbers + size(9) + size(2) + offset("last_valid"),
        "numbers-offset-too-large": numbers + size(9) + size(2) + offset("last_valid+1"),
        "numbers-d-zero": numbers + size(3) + size(0) + offset("0"),
        "numbers-too-large": numbers + size("maxSeqLen") + size("maxDim") + offset("0"),
        # Regressions (found by this fuzzer, see tests/fuzz/README.md):
        # seq_len 0 with no output array: `out + 2 * first + 1` on a null pointer (UB).
        "regression-table-empty-null-out": table + spec(0, 8) + at_offset(),
        "regression-table-empty-concat": table + spec(0, 8, layout=1) + at_offset(),
        # base DBL_MIN passes check() but position * inv_freq overflows: NaN in the table.
        "regression-table-tiny-base-nan": table + spec(4, 128, "DBL_MIN") + at_offset("last_valid"),
    }
    return seeds


def rope_seeds():
    in_place, separate, cache, freqs = u8(0), u8(1), u8(2), u8(3)
    half_in_place, half_separate = u8(4), u8(5)  # then the spec, a dtype byte, positions, data
    float32, float16, bfloat16, dtype_bad = u8(0), u8(1), u8(2), u8(3)

    def spec(seq, heads, head, rotary=None, b="10000", layout=0):
        rot = u8(0) if rotary is None else u8(1) + size(rotary)
        return size(seq) + size(heads) + size(head) + rot + base(b) + enum(layout)

    seeds = {
        "rope-8x2x64": in_place + spec(8, 2, 64) + at_offset() + array(1),
        "half-f16-8x2x64": half_in_place + spec(8, 2, 64) + float16 + at_offset() + array(1),
        "half-bf16-half-layout": half_separate + spec(8, 3, 48, layout=1) + bfloat16 + at_offset("1023") + array(2),
        "half-f16-partial-tails": half_separate + spec(6, 2, 70, 38, layout=1) + float16 + at_offset() + array(3),
        "half-bf16-two-blocks": half_in_place + spec(4, 1, 300, 258) + bfloat16 + at_offset() + array(4),
        "half-f16-reanchor-list": half_in_place + spec(40, 1, 10) + float16 + listed("uniform", seed=5) + array(5),
        "half-f16-special-values": half_separate + spec(4, 2, 18, 12) + float16 + at_offset() +
            array(6, "1", [(0, "NaN"), (3, "inf"), (6, "-inf"), (9, "65504"), (12, "1e30"),
                           (14, "float_subnormal"), (17, "-0"), (30, "NaN"), (35, "NaN")]),
        "half-bf16-large-scale": half_in_place + spec(4, 1, 16) + bfloat16 + at_offset("2^24") + array(7, "1e37"),
        "half-float32-mismatch": half_in_place + spec(4, 1, 16) + float32 + at_offset() + array(8),
        "half-dtype-invalid": half_separate + spec(4, 1, 16) + dtype_bad + at_offset() + array(9),
        "half-dtype-invalid-and-bad-head": half_in_place + spec(4, 1, 1) + u8(7) + at_offset() + array(10),
        # The arrays' dtype is checked after the positions, as every other operation does.
        "regression-half-mismatch-after-positions": half_in_place + spec(4, 1, 16) + float32 +
            listed("ascending", overrides=[(2, "-1")]) + array(11),
        "rope-half": in_place + spec(8, 2, 64, layout=1) + at_offset() + array(2),
        "rope-separate": separate + spec(8, 2, 64) + at_offset("1023") + array(3),
        "rope-separate-half": separate + spec(8, 3, 48, layout=1) + at_offset() + array(4),
        "rope-partial": separate + spec(6, 2, 64, 32) + at_offset() + array(5),
        "rope-partial-half-in-place": in_place + spec(6, 1, 66, 34, layout=1) + at_offset() + array(6),
        "rope-two-blocks": in_place + spec(4, 1, 300, 258) + at_offset() + array(7),
        "rope-reanchor": in_place + spec(1100, 1, 4) + at_offset() + array(8),
        "rope-list-uniform": separate + spec(16, 2, 32) + listed("uniform", seed=5) + array(9),
        "rope-list-near-max": in_place + spec(16, 1, 32) + listed("descending", "maxPosition") + array(10),
        "rope-list-repeats": in_place + spec(64, 1, 8, layout=1) + listed("small", seed=1) + array(11),
        "rope-list-negative": in_place + spec(8, 1, 8) + listed("ascending", overrides=[(2, "-1")]) + array(12),
        "rope-last-valid-offset": in_place + spec(10, 1, 16) + at_offset("last_valid") + array(13),
        "rope-offset-too-large": separate + spec(10, 1, 16) + at_offset("last_valid+1") + array(14),
        "rope-special-values": separate + spec(4, 2, 16) + at_offset() +
            array(15, "1", [(0, "NaN"), (3, "inf"), (6, "-inf"), (9, "FLT_MAX"), (12, "1e30"),
                            (17, "float_subnormal"), (20, "-0"), (31, "NaN")]),
        "rope-subnormal": in_place + spec(4, 1, 16) + at_offset("1024") + array(16, "1e-40"),
        "rope-large": in_place + spec(4, 1, 16) + at_offset("2^24") + array(17, "1e37"),
        "rope-base-1": in_place + spec(4, 1, 8, b="1") + at_offset() + array(18),
        "rope-base-half": separate + spec(4, 1, 8, b="0.5") + at_offset() + array(19),
        "rope-rotary-odd": in_place + spec(4, 1, 64, 31) + at_offset() + array(20),
        "rope-rotary-zero": in_place + spec(4, 1, 64, 0) + at_offset() + array(21),
        "rope-rotary-above-head": in_place + spec(4, 1, 16, 18) + at_offset() + array(22),
        "rope-head-one": in_place + spec(4, 1, 1) + at_offset() + array(23),
        "rope-heads-zero": in_place + spec(4, 0, 8) + at_offset() + array(24),
        "rope-heads-too-many": in_place + spec(4, "maxDim+1", 8) + at_offset() + array(25),
        "rope-head-too-large": in_place + spec(4, 1, "maxDim+2") + at_offset() + array(26),
        "rope-too-many-elements": in_place + spec(("raw", 1 << 16), ("raw", 4096), 2) + at_offset() + array(27),
        "rope-layout-bad": in_place + spec(4, 1, 8, layout="bad1") + at_offset() + array(28),
        "rope-base-nan": separate + spec(4, 1, 8, b="NaN") + at_offset() + array(29),
        "cache-16x64": cache + size(16) + size(64) + base("10000") + at_offset(),
        "cache-two-blocks": cache + size(5) + size(260) + base("500000") + at_offset("65535"),
        "cache-list": cache + size(40) + size(32) + base("10000") + listed("uniform", seed=21),
        "cache-2^24-boundary": cache + size(30) + size(16) + base("10000") + listed("ascending", "2^24"),
        "cache-rotary-odd": cache + size(4) + size(7) + base("10000") + at_offset(),
        "cache-offset-too-large": cache + size(4) + size(8) + base("10000") + at_offset("2^31"),
        "cache-too-large": cache + size("maxSeqLen") + size("maxDim") + base("10000") + at_offset(),
        "freqs-64": freqs + size(64) + base("10000"),
        "freqs-max-dim": freqs + size("maxDim") + base("10000"),
        "freqs-too-large": freqs + size("maxDim+2") + base("10000"),
        "freqs-odd": freqs + size(3) + base("10000"),
        "freqs-zero": freqs + size(0) + base("10000"),
        "freqs-base-1e300": freqs + size(128) + base("1e300"),
        "freqs-base-zero": freqs + size(8) + base("0"),
        "freqs-base-inf": freqs + size(8) + base("inf"),
        # Regressions (found by this fuzzer, see tests/fuzz/README.md):
        # subnormal base passes check_frequencies but 1 / base^(2i/d) overflows to inf.
        "regression-freqs-subnormal-base-inf": freqs + size(96) + base("denorm_min"),
        # base DBL_MIN passes check() but position * inv_freq overflows: NaN rotations.
        "regression-rope-tiny-base-nan": in_place + spec(2, 1, 128, b="DBL_MIN") + at_offset("last_valid") + array(30),
        "regression-cache-tiny-base-nan": cache + size(2) + size(128) + base("DBL_MIN") + at_offset("last_valid"),
        # seq_len 0 with no arrays and two pair blocks: `sin + first` on a null pointer (UB).
        "regression-cache-empty-null-out": cache + size(0) + size(258) + base("10000") + at_offset(),
    }
    return seeds


SCALING_VALUES = ["1", "2", "4", "8", "32", "0.5", "0.1", "0", "-1", "NaN", "inf", "1e300", "1e-300", "16"]
PARTIAL_FACTORS = ["1", "0.5", "0.25", "0.75", "0.3", "0", "-0.5", "1.5", "NaN", "inf", "1e-10"]
SCALING_TYPES = ["none", "linear", "dynamic", "yarn", "llama3", "longrope"]


def pick(table, v):
    return u8(table.index(v)) if isinstance(v, str) else u8(255) + f64(v)


def no_scaling():
    return u8(1)  # type byte % 4 != 0


def scaling(kind, pairs, flags=0, factor="2", original=64, max_positions=128, attention="1", beta_fast="32",
            beta_slow="1", mscale="1", mscale_all_dim="1", low="1", high="4", list_count=None, bad_entry=None):
    """kind: a SCALING_TYPES name or 'bad' (an unknown type); pairs: rotary_dim / 2 (the length
    of longrope's lists unless list_count). flags: 1 has_factor, 2 has_attention_factor, 4 no
    truncation, 8 list_count given, 16 entry 0 of each list replaced by bad_entry."""
    if list_count is not None:
        flags |= 8
    if bad_entry is not None:
        flags |= 16
    if kind == "bad":
        out = u8(4 * 6) + u8(0)
    elif kind == "proportional":  # type byte 4 * 7 (rope_batch_fuzz.cpp); its partial factor is `low`
        out = u8(4 * 7)
    else:
        out = u8(4 * SCALING_TYPES.index(kind))
    out += u8(flags) + pick(SCALING_VALUES, factor) + size(original) + size(max_positions)
    for v in (attention, beta_fast, beta_slow, mscale, mscale_all_dim, low, high):
        out += pick(SCALING_VALUES, v)
    for _ in range(2):  # short_factor, long_factor: entries 1 + byte / 32, then the replaced one
        if list_count is not None:
            out += u8(list_count)
        out += bytes(list_count if list_count is not None else pairs)
        if bad_entry is not None:
            out += u16(0) + pick(SCALING_VALUES, bad_entry)
    return out


def batch_shared(offset_value="0"):
    return u8(0) + offset(offset_value)


def batch_per_sequence(*offsets):
    """Offsets: POSITIONS names, or OFFSETS names (encoded past the POSITIONS table)."""
    out = u8(1)
    for o in offsets:
        out += u8(POSITIONS.index(o)) if o in POSITIONS else u8(200) + offset(o)
    return out


def batch_list(pattern, **kwargs):
    return u8(2) + listed(pattern, **kwargs)


def rope_batch_seeds():
    rope_mode, qk_mode, cache_mode = u8(0), u8(1), u8(2)

    def spec(batch, seq, heads, head, kv=None, rotary=None, partial=None, inverse=False, in_place=False,
             b="10000", layout=0, order=0):
        flags = (1 if rotary is not None else 0) | (2 if partial is not None else 0) | (4 if inverse else 0) | (8 if in_place else 0)
        out = size(batch) + size(seq) + size(heads) + (size(kv) if kv is not None else b"") + size(head) + u8(flags)
        if rotary is not None:
            out += size(rotary)
        if partial is not None:
            out += pick(PARTIAL_FACTORS, partial)
        return out + base(b) + enum(layout) + enum(order)

    def data(n=1):
        return b"".join(array(40 + i) for i in range(n))

    seeds = {
        "rope-2x5x2x16": rope_mode + spec(2, 5, 2, 16) + no_scaling() + batch_shared() + data(),
        "rope-heads-major-half": rope_mode + spec(2, 5, 3, 12, layout=1, order=1) + no_scaling() + batch_shared("1023") + data(),
        "rope-inverse-in-place": rope_mode + spec(3, 4, 1, 8, inverse=True, in_place=True) + no_scaling() + batch_shared() + data(),
        "rope-partial-half": rope_mode + spec(1, 6, 2, 16, partial="0.5", layout=1) + no_scaling() + batch_shared() + data(),
        "rope-partial-quarter": rope_mode + spec(2, 3, 1, 16, partial="0.25") + no_scaling() + batch_shared() + data(),
        "rope-partial-odd": rope_mode + spec(1, 3, 1, 10, partial="0.3") + no_scaling() + batch_shared() + data(),
        "rope-partial-zero": rope_mode + spec(1, 3, 1, 16, partial="0") + no_scaling() + batch_shared() + data(),
        "rope-partial-nan": rope_mode + spec(1, 3, 1, 16, partial="NaN") + no_scaling() + batch_shared() + data(),
        "rope-partial-above-one": rope_mode + spec(1, 3, 1, 16, partial="1.5") + no_scaling() + batch_shared() + data(),
        "rope-per-sequence-offsets": rope_mode + spec(3, 4, 2, 8) + no_scaling() + batch_per_sequence("0", "1024", "2^24") + data(),
        "rope-per-sequence-negative": rope_mode + spec(2, 4, 1, 8) + no_scaling() + batch_per_sequence("0", "-1") + data(),
        "rope-per-sequence-too-large": rope_mode + spec(2, 4, 1, 8) + no_scaling() + batch_per_sequence("0", "last_valid+1") + data(),
        "rope-position-list": rope_mode + spec(2, 4, 2, 8, order=1) + no_scaling() + batch_list("uniform", seed=3) + data(),
        "rope-position-list-negative": rope_mode + spec(2, 4, 1, 8) + no_scaling() + batch_list("ascending", overrides=[(7, "-1")]) + data(),
        "rope-batch-zero": rope_mode + spec(0, 4, 1, 8) + no_scaling() + batch_shared() + data(),
        "rope-huge-batch-empty": rope_mode + spec(("raw", 0xFF0E0E0E), 0, 1, 8) + no_scaling() + batch_shared() + data(),
        "rope-batch-too-large": rope_mode + spec(("raw", 1 << 20), 64, 1, 8) + no_scaling() + batch_shared() + data(),
        "rope-order-bad": rope_mode + spec(1, 2, 1, 8, order="bad0") + no_scaling() + batch_shared() + data(),
        "rope-layout-bad": rope_mode + spec(1, 2, 1, 8, layout="bad1") + no_scaling() + batch_shared() + data(),
        "qk-gqa": qk_mode + spec(2, 4, 4, 8, kv=1) + no_scaling() + batch_shared("65535") + data(2),
        "qk-heads-major": qk_mode + spec(1, 5, 2, 16, kv=2, layout=1, order=1, in_place=True) + no_scaling() + batch_per_sequence("1023") + data(2),
        "qk-kv-zero": qk_mode + spec(1, 4, 2, 8, kv=0) + no_scaling() + batch_shared() + data(2),
        "qk-kv-too-many": qk_mode + spec(1, 4, 2, 8, kv="maxDim+1") + no_scaling() + batch_shared() + data(2),
        "scaling-linear": rope_mode + spec(1, 8, 1, 16) + scaling("linear", 8, factor="4") + batch_shared("100000") + data(),
        "scaling-dynamic": rope_mode + spec(2, 8, 1, 16) + scaling("dynamic", 8, factor="2", original=64) + batch_shared("1024") + data(),
        "scaling-dynamic-rotary-two": rope_mode + spec(1, 4, 1, 2) + scaling("dynamic", 1, factor="2", original=64) + batch_shared() + data(),
        "scaling-yarn": qk_mode + spec(1, 8, 2, 32, kv=1) + scaling("yarn", 16, factor="4", original=32) + batch_shared("1024") + data(2),
        "scaling-yarn-mscale": rope_mode + spec(1, 4, 1, 32) + scaling("yarn", 16, factor="8", original=32, mscale="1", mscale_all_dim="0.5") + batch_shared() + data(),
        "scaling-yarn-base-one": rope_mode + spec(1, 4, 1, 16, b="1") + scaling("yarn", 8, factor="4", original=32) + batch_shared() + data(),
        "scaling-yarn-beta-swapped": rope_mode + spec(1, 4, 1, 16) + scaling("yarn", 8, factor="4", original=32, beta_fast="1", beta_slow="32") + batch_shared() + data(),
        "scaling-llama3": rope_mode + spec(1, 8, 1, 64) + scaling("llama3", 32, factor="8", original=64, low="1", high="4") + batch_shared("100000") + data(),
        "scaling-llama3-bad-high": rope_mode + spec(1, 8, 1, 64) + scaling("llama3", 32, factor="8", original=64, low="4", high="1") + batch_shared() + data(),
        "scaling-longrope-short": rope_mode + spec(1, 4, 1, 16) + scaling("longrope", 8, flags=2, original=64, attention="2") + batch_shared() + data(),
        "scaling-longrope-long": rope_mode + spec(1, 4, 1, 16) + scaling("longrope", 8, original=64, max_positions=4096) + batch_shared("1024") + data(),
        "scaling-longrope-wrong-length": rope_mode + spec(1, 4, 1, 16) + scaling("longrope", 8, original=64, list_count=3) + batch_shared() + data(),
        "scaling-longrope-bad-entry": rope_mode + spec(1, 4, 1, 16) + scaling("longrope", 8, original=64, bad_entry="NaN") + batch_shared() + data(),
        "scaling-type-bad": rope_mode + spec(1, 4, 1, 16) + scaling("bad", 8) + batch_shared() + data(),
        "scaling-proportional": rope_mode + spec(1, 4, 1, 16) + scaling("proportional", 8, low="0.5") + batch_shared() + data(),
        "scaling-proportional-bad": rope_mode + spec(1, 4, 1, 16) + scaling("proportional", 8, low="-1") + batch_shared() + data(),
        "scaling-factor-below-one": rope_mode + spec(1, 4, 1, 16) + scaling("linear", 8, factor="0.5") + batch_shared() + data(),
        "scaling-factor-inf": rope_mode + spec(1, 4, 1, 16) + scaling("linear", 8, factor="inf") + batch_shared() + data(),
        "cache-batch-offsets": cache_mode + size(2) + size(8) + size(16) + base("10000") + no_scaling() + batch_per_sequence("0", "2^24-1"),
        "cache-batch-list": cache_mode + size(3) + size(5) + size(12) + base("500000") + no_scaling() + batch_list("small", seed=9),
        "cache-yarn": cache_mode + size(1) + size(8) + size(32) + base("10000") + scaling("yarn", 16, factor="16", original=64) + batch_shared("1023"),
        "cache-longrope-attention": cache_mode + size(2) + size(4) + size(16) + base("10000") + scaling("longrope", 8, flags=1, factor="8", original=64) + batch_shared(),
        # Regressions (found by this fuzzer, see tests/fuzz/README.md):
        # dynamic scaling with a factor of 1e300 passes check(): factor * L / L0 - (factor - 1)
        # cancels to 0, the grown base is 0 and cos/sin are NaN.
        "regression-dynamic-huge-factor-nan": rope_mode + spec(1, 4, 1, 16) + scaling("dynamic", 8, factor="1e300", original=64) + batch_shared() + data(),
        # yarn with subnormal beta_fast/beta_slow passes check(): L0 / (beta 2 pi) overflows, the
        # correction range is infinite, the ramp is NaN and so are cos/sin.
        "regression-yarn-subnormal-beta-nan": cache_mode + size(1) + size(8) + size(32) + base("10000") +
            scaling("yarn", 16, flags=1, factor="1", original=512, max_positions=512, attention=5.731859096e-314,
                    beta_fast=5.2218072464118e-310, beta_slow=6e-323),
        # longrope with a subnormal (finite, positive) factor entry passes check():
        # 1 / (ext_i base^(2i/d)) overflows to inf and the rotation is NaN.
        "regression-longrope-subnormal-factor-nan": rope_mode + spec(1, 4, 1, 16) +
            scaling("longrope", 8, original=64, max_positions=128, bad_entry=3.1e-319) + batch_shared() + data(),
        # a subnormal base passes check(): inv_freq overflows to inf, the cache is NaN.
        "regression-cache-subnormal-base-nan": cache_mode + size(1) + size(2) + size(58) + base(6e-323) + no_scaling() + batch_shared(),
    }
    return seeds


def layout_conversion_seeds():
    def spec(heads, head, rotary=None, row=1, source=0, target=1):
        rot = u8(0) if rotary is None else u8(1) + size(rotary)
        return size(heads) + size(head) + rot + size(row) + enum(source) + enum(target)

    return {
        "activations-to-half": spec(3, 16) + array(1) + offset("1023"),
        "activations-to-interleaved": spec(2, 16, source=1, target=0) + array(2),
        "activations-partial": spec(2, 64, 32) + array(3) + offset("2^24"),
        "same-layout": spec(2, 8, source=1, target=1) + array(4),
        "weight-rows": spec(4, 8, row=5) + array(5),
        "weight-rows-partial-back": spec(2, 12, 8, row=3, source=1, target=0) + array(6),
        "heads-zero": spec(0, 8) + array(7),
        "head-one": spec(1, 1) + array(8),
        "rotary-odd": spec(1, 8, 5) + array(9),
        "rotary-above-head": spec(1, 8, 10) + array(10),
        "row-zero": spec(1, 8, row=0) + array(11),
        "layout-bad": spec(1, 8, source="bad0") + array(12),
        "head-too-large": spec(1, "maxDim+2") + array(13),
        "too-many-elements": spec(("raw", 1 << 16), 64, row=("raw", 1 << 16)) + array(14),
        "huge-row-no-heads": spec(0, "maxDim", row="2^32-1") + array(15),
    }


def similarity_seeds():
    def spec(rows, cols, dim, metric=0):
        return size(rows) + size(cols) + size(dim) + enum(metric)

    return {
        "dot-3x5x8": spec(3, 5, 8) + array(1) + array(2),
        "cosine-3x5x8": spec(3, 5, 8, 1) + array(3) + array(4),
        "dot-blocks-and-tails": spec(9, 13, 37) + array(5) + array(6),
        "cosine-zero-rows": spec(4, 4, 16, 1) + array(7, "0") + array(8),
        "cosine-subnormal": spec(2, 3, 8, 1) + array(9, "1e-40") + array(10),
        "cosine-huge": spec(2, 3, 8, 1) + array(11, "1e20") + array(12, "1e20"),
        "dot-special-values": spec(3, 3, 9) + array(13, "1", [(0, "NaN"), (4, "inf"), (8, "-0")]) + array(14),
        "dot-large": spec(4, 4, 30) + array(15, "1e20") + array(16, "1e20"),
        "dot-rows-zero": spec(0, 4, 8) + array(17) + array(18),
        "dot-cols-zero": spec(4, 0, 8) + array(19) + array(20),
        "cosine-cols-zero": spec(4, 0, 8, 1) + array(21) + array(22),
        "dot-dim-300": spec(20, 20, 300) + array(23) + array(24),
        "dot-dim-zero": spec(2, 2, 0) + array(25) + array(26),
        "dot-dim-too-large": spec(2, 2, "maxDim+1") + array(27) + array(28),
        "dot-rows-too-large": spec("maxSeqLen+1", 2, 4) + array(29) + array(30),
        "dot-cols-too-large": spec(2, "2^32-1", 4) + array(31) + array(32),
        "dot-product-too-large": spec(("raw", 1 << 16), ("raw", 1 << 16), 1) + array(33) + array(34),
        "dot-max-elements": spec(("raw", 1 << 14), ("raw", 1 << 14), 1) + array(35) + array(36),
        "metric-bad": spec(2, 2, 4, "bad0") + array(37) + array(38),
        "metric-negative": spec(2, 2, 4, "bad1") + array(39) + array(40),
    }


def kernels_seeds():
    names = ["rotate_half", "rotate_half_in_place", "rotate_interleaved", "rotate_interleaved_in_place",
             "dot", "narrow", "sincos", "rotate_step", "phase_rows", "phase_rows_add", "dot_row"]
    doubles = {"narrow", "sincos", "rotate_step"}
    seeds = {}
    lengths = [0, 1, 3, 4, 5, 8, 17, 130, 259]
    for k, name in enumerate(names):
        for j, n in enumerate(lengths):
            if (k + j) % 3:  # a spread of lengths per kernel, not all of them
                continue
            body = b""
            for a in range(8):  # shifts, arrays and the phase_rows/dot_row shape bytes
                scale = "1e300" if name == "sincos" and a == 1 else ("1e20" if name in doubles and a == 2 else "1")
                body += u8(a + j) + array(100 * k + a, scale, [(0, "NaN"), (2, "inf"), (5, "float_subnormal")] if a == 3 else [])
            seeds[f"{name}-{n}"] = u8(k) + u16(n) + body
    seeds["sincos-huge-angles"] = u8(6) + u16(64) + u8(1) + array(7, "1e300") + u8(2) + u8(3)
    seeds["sincos-2^31"] = u8(6) + u16(33) + u8(0) + array(8, "1", [(i, v) for i, v in enumerate(
        ["inf", "-inf", "NaN", "1e20", "double_subnormal", "-0"])]) + u8(0) + u8(0)
    # alibi_row (kernel 11): slope, start (a raw int32 after tag 1, a VALUES entry after 0), shift.
    for j, n in enumerate([0, 1, 3, 7, 8, 9, 17, 131, 259]):
        seeds[f"alibi_row-{n}"] = u8(11) + u16(n) + value(0.5) + u8(1) + i32(-n // 2) + u8(j)
    seeds["alibi_row-specials"] = u8(11) + u16(21) + value("NaN") + u8(0) + value("inf") + u8(3)
    seeds["alibi_row-tiny-slope"] = u8(11) + u16(33) + value("double_subnormal") + u8(1) + i32(-2**31) + u8(5)
    # score rows (12: scale_row, 13: scale_add_row): x (shift, array), scale, bias (shift, array), shift;
    # row_max (14): x.
    specials = [(0, "NaN"), (2, "inf"), (3, "-inf"), (5, "float_subnormal")]
    for j, n in enumerate([0, 1, 3, 4, 5, 9, 17, 131]):
        for kernel in (12, 13):
            seeds[f"score_row{'_bias' if kernel == 13 else ''}-{n}"] = (
                u8(kernel) + u16(n) + u8(j) + array(j, "1e3", specials if j % 2 else []) + value(0.125)
                + u8(j + 1) + array(j + 9, "1e3") + u8(j + 2))
        seeds[f"row_max-{n}"] = u8(14) + u16(n) + u8(j) + array(j, "1e20", specials if j % 2 else [])
    # 16-bit kernels, float16 (storage byte 0) and bfloat16 (1). Rotations (15: half pairing, 16:
    # interleaved): storage, in place, head count, stride gap, head order, cos, sin, x (floats,
    # then the patterns' shift), the SIMD copy's shift. Table rows (17): storage, shape (rows,
    # layout), stride gap, cos, sin, step cos, step sin, the two tables' elements (as x), shift;
    # one state pair starting at 0 (the exact rounding's path), huge values (Inf, beyond
    # binary16's range) and NaN.
    for j, n in enumerate([0, 1, 3, 4, 7, 8, 9, 16, 17, 64, 131, 259]):
        for storage, name in ((0, "f16"), (1, "bf16")):
            for kernel, what in ((15, "half_rotate_half"), (16, "half_rotate_interleaved")):
                seeds[f"{what}_{name}-{n}"] = (
                    u8(kernel) + u16(n) + u8(storage) + u8(j) + u8(j + 1) + u8(j + 2) + u8(j % 2)
                    + u8(j) + array(j + 1) + u8(j + 1) + array(j + 2)
                    + u8(j + 2) + array(j + 3, "1e3" if j % 3 == 0 else "1", specials if j % 2 else []) + u8(j + 3)
                    + u8(j + 5))
            seeds[f"half_phase_rows_{name}-{n}"] = (
                u8(17) + u16(n) + u8(storage) + u8(3 * j + 1) + u8(j)
                + u8(j) + array(j + 4, "1", [(0, 1.0)]) + u8(j + 1) + array(j + 5, "1e3" if j % 4 == 3 else "1", [(0, 0.0)])
                + u8(j + 2) + array(j + 6, "1", [(1, "NaN")] if j % 5 == 4 else []) + u8(j + 3) + array(j + 7)
                + u8(j + 4) + array(j + 8) + u8(j + 5) + u8(j + 6) + array(j + 9) + u8(j + 7)
                + u8(j + 8))
    return seeds


def mrope_positions_seeds():
    # mrope_positions_fuzz.cpp: a count byte, 5 field bytes per segment (< 128: that value % 9;
    # 128 + k: its kFieldValues[k]; 255: NaN), the merge size (u16 % 9), the model byte, the
    # tokens-per-second byte (< 200: % 30).
    FIELDS = {"0.5": 134, "-1": 135, "2^24": 138, "1e30": 139, "2^31-1": 140, "2.7": 141, "1e300": 143}

    def f(v):
        return u8(FIELDS[v] if isinstance(v, str) else (255 if v is None else v))

    def seg(kind, a, b=0, c=0, seconds=None):
        return f(kind) + f(a) + f(b) + f(c) + f(seconds)

    def call(segments, merge=2, model=0, tps=2):
        return u8(len(segments)) + b"".join(segments) + u16(merge) + u8(model) + u8(tps)

    text_image_video = [seg(0, 4), seg(1, 1, 4, 6), seg(0, 3), seg(2, 3, 4, 4, 2), seg(0, 5)]
    return {
        "text-only": call([seg(0, 7)]),
        "text-image-video-qwen2": call(text_image_video),
        "text-image-video-qwen25": call(text_image_video, model=1),
        "video-half-second-qwen25": call([seg(0, 3), seg(2, 4, 4, 6, "0.5"), seg(0, 2)], model=1),
        "video-2.7-seconds-tps-25": call([seg(0, 1), seg(2, 3, 2, 2, "2.7"), seg(0, 1)], model=1, tps=25),
        "merge-1": call([seg(0, 2), seg(1, 1, 3, 5), seg(0, 1)], merge=1),
        "empty": call([]),
        "h-not-multiple": call([seg(0, 2), seg(1, 1, 3, 4)]),
        "t-zero": call([seg(0, 2), seg(2, 0, 4, 4)]),
        "text-fraction": call([seg(0, "0.5")]),
        "text-negative": call([seg(0, "-1")]),
        "kind-bad": call([seg(3, 1)]),
        "seconds-negative": call([seg(2, 2, 2, 2, "-1")], model=1),
        "too-many-tokens": call([seg(0, "2^24"), seg(0, 1)]),
        "huge-grid": call([seg(1, "2^24", "2^24", "2^24")]),
        "position-overflow": call([seg(2, 8, 2, 2, "2^31-1")], model=1),
        "seconds-1e300": call([seg(2, 2, 2, 2, "1e300")], model=1),
        "merge-zero": call([seg(0, 2)], merge=0),
        "model-bad": call([seg(0, 2)], model=7),
    }


def alibi_seeds():
    slopes, bias = u8(0), u8(1)

    def alibi_offset(v):
        """An index of alibi_fuzz.cpp's offset table, or a raw int32."""
        table = ["0", "1", "-1", "33", "-1000", "max", "max+1", "-max", "-max-1", "INT64_MIN", "INT64_MAX", "2^40"]
        return u8(table.index(v)) if isinstance(v, str) else u8(255) + i32(v)

    def bias_call(heads, q, k, off="0", b=8.0):
        return bias + size(heads) + base(b) + size(q) + size(k) + alibi_offset(off)

    return {
        "slopes-8": slopes + size(8) + base(8.0),
        "slopes-12": slopes + size(12) + base(8.0),
        "slopes-112-max-bias-16": slopes + size(112) + base(16.0),
        "slopes-1": slopes + size(1) + base(8.0),
        "slopes-max-dim": slopes + size("maxDim") + base(8.0),
        "slopes-max-dim+1": slopes + size("maxDim+1") + base(8.0),
        "slopes-zero-heads": slopes + size(0) + base(8.0),
        "slopes-max-bias-nan": slopes + size(5) + base("NaN"),
        "slopes-max-bias-zero": slopes + size(5) + base("0"),
        "slopes-max-bias-negative": slopes + size(5) + base("-1"),
        "slopes-max-bias-inf": slopes + size(5) + base("inf"),
        "slopes-max-bias-huge": slopes + size(6) + base("1e300"),
        "slopes-max-bias-tiny": slopes + size(6) + base("denorm_min"),
        "bias-8x16x16": bias_call(8, 16, 16),
        "bias-12x5x37-kv-cache": bias_call(12, 5, 37, "33"),
        "bias-3x9x7-negative-offset": bias_call(3, 9, 7, -4),
        "bias-tails": bias_call(5, 3, 67, 1000),
        "bias-offset-max": bias_call(2, 4, 9, "max"),
        "bias-offset-max+1": bias_call(2, 4, 9, "max+1"),
        "bias-offset--max": bias_call(2, 4, 9, "-max"),
        "bias-offset--max-1": bias_call(2, 4, 9, "-max-1"),
        "bias-offset-int64-min": bias_call(2, 4, 9, "INT64_MIN"),
        "bias-offset-2^40": bias_call(2, 4, 9, "2^40"),
        "bias-query-zero": bias_call(4, 0, 9),
        "bias-key-zero": bias_call(4, 9, 0),
        "bias-query-too-large": bias_call(1, "maxSeqLen+1", 1),
        "bias-key-too-large": bias_call(1, 1, "2^32-1"),
        "bias-size-too-large": bias_call("maxDim", "maxSeqLen", "maxSeqLen"),
        "bias-size-limit": bias_call(1, ("raw", 1 << 14), ("raw", 1 << 14)),
        "bias-max-bias-nan": bias_call(2, 3, 3, "0", "NaN"),
        "bias-zero-heads": bias_call(0, 3, 3),
        # A timeout the fuzzer found: 65536 heads × 2^24 queries × 0 keys is empty, but checking
        # it row by row took 2^40 steps.
        "regression-empty-keys-many-rows": bias_call("maxDim", "maxSeqLen", 0),
    }


def relative_position_buckets_seeds():
    def spec(query_len, key_len, num_buckets, max_distance, bidirectional=1, at="0"):
        return size(query_len) + size(key_len) + size(num_buckets) + size(max_distance) + u8(bidirectional) + offset(at)

    return {
        "t5-encoder-7x9": spec(7, 9, 32, 128),
        "t5-decoder-cache": spec(3, 40, 32, 128, 0, "1023"),
        "odd-buckets-unidirectional": spec(5, 50, 33, 128, 0),
        "max-exact-not-power-of-two": spec(4, 70, 48, 100),
        "smallest-bidirectional": spec(3, 9, 4, 2),
        "smallest-unidirectional": spec(3, 9, 2, 2, 0),
        "max-distance-just-above": spec(2, 80, 32, 9),
        "far-max-distance": spec(2, 80, 32, 4999),
        "last-valid-offset": spec(3, 5, 32, 128, 1, "last_valid"),
        "offset-too-large": spec(3, 5, 32, 128, 1, "last_valid+1"),
        "buckets-halved-to-one": spec(2, 2, 3, 128),
        "buckets-zero": spec(2, 2, 0, 128, 0),
        "buckets-too-large": spec(2, 2, "maxDim+1", 128),
        "buckets-max-dim": spec(1, 3, "maxDim", "2^31-1"),
        "max-distance-equal-max-exact": spec(2, 2, 32, 8),
        "max-distance-zero": spec(2, 2, 32, 0, 0),
        "query-len-too-large": spec("maxSeqLen+1", 2, 32, 128),
        "key-len-too-large": spec(2, "2^32-1", 32, 128),
        "too-many-elements": spec(("raw", 1 << 15), ("raw", 1 << 14), 32, 128),
        "empty": spec(0, 5, 32, 128),
    }


def attention_scores_seeds():
    encodings = {"none": 0, "sinusoidal": 1, "rope": 2, "alibi": 3, "t5": 4, "xpos": 5, "bad": 6}

    def attention_offset(v):
        """An index of attention_scores_fuzz.cpp's offset table, or a raw int32."""
        table = ["0", "1", "-1", "-5", "40", "100000", "max", "max-3", "max+1", "-max", "-max-1", "2^40"]
        return u8(table.index(v)) if isinstance(v, str) else u8(255) + i32(v)

    def call(encoding, heads, q, k, dim, off="0", scale=0.25, causal=False, bidirectional=True, order=1,
             b="10000", layout=0, rotary=None, max_bias=8.0, buckets=32, distance=128, table=None, extra=False,
             data=("1", "1")):
        """table: None gives t5 its table (and no one else one); 'missing' / 'given' force it."""
        flags = (1 if causal else 0) | (2 if bidirectional else 0) | (16 if extra else 0)
        if table == "missing":
            flags |= 4
        if table == "given":
            flags |= 8
        out = u8(encodings[encoding]) + size(heads) + size(q) + size(k) + size(dim) + attention_offset(off)
        out += value(scale) + u8(flags) + enum(order) + base(b) + enum(layout) + enum(layout)
        out += size(dim if rotary is None else rotary) + base(max_bias) + size(buckets) + size(distance)
        if (encoding == "t5") != (table in ("missing", "given")):
            out += array(5, "1")
        return out + array(1, data[0]) + array(2, data[1])

    return {
        "none-3x5x11x10": call("none", 3, 5, 11, 10),
        "none-causal-negative-offset": call("none", 2, 6, 3, 4, off="-5", causal=True),
        "sinusoidal-concat-far": call("sinusoidal", 2, 4, 9, 8, off="100000", layout=1),
        "sinusoidal-odd-head-dim": call("sinusoidal", 1, 3, 3, 7),
        "rope-half-partial": call("rope", 2, 5, 9, 12, off="40", layout=1, rotary=6),
        "rope-tokens-causal": call("rope", 3, 4, 8, 16, off="40", order=0, causal=True),
        "xpos-half-partial": call("xpos", 2, 5, 9, 12, off="40", layout=1, rotary=6),
        "xpos-beyond-reach": call("xpos", 1, 2, 3, 8, off="100000"),
        "rope-negative-offset": call("rope", 1, 3, 3, 4, off="-1"),
        "rope-last-offset": call("rope", 1, 4, 4, 4, off="max-3"),
        "rope-offset-too-large": call("rope", 1, 5, 4, 4, off="max-3"),
        "rope-rotary-odd": call("rope", 1, 2, 2, 6, rotary=3),
        "alibi-causal": call("alibi", 5, 6, 6, 8, causal=True),
        "alibi-far-negative": call("alibi", 3, 4, 17, 5, off="-max"),
        "alibi-max-bias-nan": call("alibi", 2, 2, 2, 2, max_bias="NaN"),
        "t5-encoder": call("t5", 4, 8, 8, 16, scale=1),
        "t5-decoder-cache": call("t5", 2, 3, 21, 8, off="40", bidirectional=False, causal=True, scale=1),
        "t5-table-missing": call("t5", 2, 2, 2, 4, table="missing"),
        "t5-table-one-long": call("t5", 2, 2, 2, 4, extra=True),
        "t5-buckets-too-few": call("t5", 2, 2, 2, 4, buckets=3),
        "t5-distance-too-small": call("t5", 2, 2, 2, 4, distance=8),
        "table-for-alibi": call("alibi", 2, 2, 2, 4, table="given"),
        "encoding-bad": call("bad", 1, 1, 1, 1),
        "scale-nan": call("none", 1, 2, 2, 2, scale="NaN"),
        "scale-inf": call("none", 1, 2, 2, 2, scale="inf"),
        "order-bad": call("none", 1, 2, 2, 2, order="bad1"),
        "offset-beyond": call("none", 1, 2, 2, 2, off="max+1"),
        "huge-data-softmax": call("none", 2, 3, 5, 4, data=("1e20", "1e20")),
        "tiny-data": call("alibi", 2, 3, 5, 4, data=("1e-40", "1e-20")),
        "too-many-elements": call("none", "maxDim", "maxSeqLen", 2, 2),
        "heads-zero": call("none", 0, 2, 2, 2),
        "head-dim-zero": call("none", 1, 2, 2, 0),
        "empty": call("rope", 2, 0, 5, 4),
    }


def xpos_seeds():
    """xpos_fuzz.cpp: mode (0 rope, 1 rope_qk), flags (1 partial, 2 inverse, 4 half, 8 center),
    seq_len, heads - 1, head_dim / 2 - 1, [rotary_dim / 2 - 1], then xpos values: an index of its
    scale base, gamma and center tables (or 255 + a raw float64) and the role (0 none, 1 query,
    2 key, 3 and 4 invalid)."""
    SCALE_BASES = ["512", "1", "64", "0", "-1", "NaN", "inf", "1e-300", "1e300", "4096", "0.01"]
    GAMMAS = ["0.4", "0.1", "2", "0", "-0.4", "NaN", "inf", "1e-300", "1e300", "1e-9"]
    CENTERS = ["0", "1", "1000", "35694", "2^31-1", "2^31", "-1", "1.5", "NaN", "100000", "17847"]

    def table(names, v):
        return u8(names.index(v)) if isinstance(v, str) else u8(255) + f64(v)

    def spec(qk, seq, heads, half_dim, rotary=None, inverse=False, half=False, center=None, scale_base="512",
             gamma="0.4", role=1):
        flags = (1 if rotary else 0) | (2 if inverse else 0) | (4 if half else 0) | (8 if center is not None else 0)
        out = u8(qk) + u8(flags) + u8(seq) + u8(heads - 1) + u8(half_dim - 1) + (u8(rotary - 1) if rotary else b"")
        return out + table(SCALE_BASES, scale_base) + table(GAMMAS, gamma) + u8(role) + table(CENTERS, center or "0")

    def data(n=2):
        return b"".join(array(60 + i) for i in range(n))

    return {
        "query-prompt": spec(0, 16, 2, 32) + at_offset() + data(),
        "key-half-partial": spec(0, 9, 1, 18, rotary=9, half=True, role=2) + at_offset("1023") + data(),
        "qk-decoding-step": spec(1, 1, 3, 64) + at_offset("100000") + data(),
        "qk-center-given": spec(1, 5, 2, 16, center="1000") + at_offset("1024") + data(),
        "inverse-key": spec(0, 7, 1, 8, inverse=True, role=2, center="17847") + listed("small", seed=3) + data(),
        "at-the-limit": spec(0, 1, 1, 4, center="0") + u8(0) + offset(35694) + data(),
        "past-the-limit": spec(0, 1, 1, 4, center="0") + u8(0) + offset(35695) + data(),
        "default-center-too-far": spec(1, 2, 1, 4, role=0) + listed("ascending", overrides=[(1, 80000)]) + data(),
        "scale-base-small": spec(0, 3, 1, 4, scale_base="0.01") + at_offset("1") + data(),
        "scale-base-zero": spec(0, 3, 1, 4, scale_base="0") + at_offset() + data(),
        "scale-base-nan": spec(0, 3, 1, 4, scale_base="NaN") + at_offset() + data(),
        "scale-base-huge": spec(0, 3, 1, 4, scale_base="1e300") + at_offset("maxPosition") + data(),
        "gamma-zero": spec(0, 3, 1, 4, gamma="0") + at_offset() + data(),
        "gamma-huge": spec(1, 3, 1, 4, gamma="1e300", role=0) + at_offset("2^24") + data(),
        "gamma-tiny": spec(0, 3, 1, 4, gamma="1e-300", center="1") + at_offset("1") + data(),
        "role-missing": spec(0, 3, 1, 4, role=0) + at_offset() + data(),
        "role-in-qk": spec(1, 3, 1, 4, role=2) + at_offset() + data(),
        "role-invalid": spec(0, 3, 1, 4, role=3) + at_offset() + data(),
        "center-fraction": spec(0, 3, 1, 4, center="1.5") + at_offset() + data(),
        "center-negative": spec(0, 3, 1, 4, center="-1") + at_offset() + data(),
        "center-too-large": spec(0, 3, 1, 4, center="2^31") + at_offset() + data(),
        "center-nan": spec(0, 3, 1, 4, center="NaN") + at_offset() + data(),
        "offset-too-large": spec(0, 3, 1, 4, role=1) + at_offset("last_valid+1") + data(),
        "list-negative": spec(0, 4, 1, 4) + listed("ascending", overrides=[(2, "-1")]) + data(),
        "subnormal-inputs": spec(0, 4, 1, 8, center="0") + at_offset("1024") + array(70, "1e-40") + array(71),
        "large-inputs": spec(0, 4, 1, 8, role=2, center="0") + at_offset("1024") + array(72, "1e37") + array(73),
        "empty": spec(1, 0, 1, 4, role=0) + at_offset() + data(),
        # a subnormal scale_base overflowed the growth rate: 0 * inf = NaN at the center itself
        "regression-subnormal-scale-base": spec(1, 1, 1, 16, inverse=True, center="0", scale_base=3.9e-311, role=0)
        + at_offset() + data(),
        # gamma 1e12: zeta_i = (2i/d + gamma) / (1 + gamma) rounded to float64 kept few digits of
        # ln zeta_i, and pair 1's scale came out 42 times too large 4e8 positions from the center
        "regression-large-gamma": spec(0, 2, 1, 2, center=985278009.0, scale_base=1e-5, gamma=1e12)
        + at_offset(1386158028) + data(),
        # gamma 8.7e307: rotary_dim * (1 + gamma) overflowed to inf, which made ln zeta_0 0
        # (it is -1.1e-308, over a scale base of 1.6e-307: a growth of -0.074 per position)
        "regression-gamma-near-max": spec(1, 3, 2, 28, center=2.0, scale_base=1.5575517009633636e-307,
                                          gamma=8.707833284055067e307, role=0) + at_offset() + data(),
    }


def axis_phases_seeds():
    def mrope(seq, heads, head, rotary, section, interleaved=0, layout=1, b="10000", rows=None, at="0"):
        out = (u8(0) + size(seq) + size(heads) + size(head) + size(rotary) + base(b) + enum(layout)
               + b"".join(size(s) for s in section) + u8(interleaved))
        if rows is None:
            out += u8(0) + offset(at)
        else:
            seed, spread, bad = rows  # noise seed, log2 of the spread, an override (index, value) or None
            out += u8(1) + u32(seed) + u8(spread) + (u8(0) + u16(bad[0]) + i32(bad[1]) if bad else u8(1))
        return out + array(3)

    def grid(rows, cols, heads, head, variant=0, layout=1, batch=1, b="10000", frames=1):
        return (u8(1) + size(rows) + size(cols) + size(heads) + size(head) + base(b) + enum(variant) + enum(layout)
                + size(batch) + size(frames) + array(5))

    return {
        "qwen2-vl-sections-16-24-24": mrope(20, 1, 128, 128, (16, 24, 24), rows=(1, 6, None)),
        "qwen3-vl-interleaved-24-20-20": mrope(20, 1, 128, 128, (24, 20, 20), 1, rows=(2, 6, None)),
        "odd-sections-interleaved-layout": mrope(9, 2, 22, 22, (3, 5, 3), 0, 0, rows=(3, 3, None)),
        "sections-partial-rotary": mrope(5, 2, 40, 24, (4, 4, 4), rows=(4, 10, None)),
        "sections-over-two-pair-blocks": mrope(3, 1, 300, 300, (50, 50, 50), 1, rows=(5, 20, None)),
        "sections-offset-near-the-limit": mrope(4, 1, 16, 16, (2, 3, 3), at="last_valid"),
        "sections-offset-past-the-limit": mrope(4, 1, 16, 16, (2, 3, 3), at="last_valid+1"),
        "sections-wrong-sum": mrope(4, 1, 16, 16, (2, 3, 2)),
        "sections-huge": mrope(4, 1, 16, 16, ("2^32-1", "2^32-1", 10)),
        "interleaved-w-beyond-the-head": mrope(4, 1, 16, 16, (1, 1, 6), 1),
        "interleaved-h-at-the-edge": mrope(4, 1, 16, 16, (5, 3, 0), 1),
        "a-negative-position-on-the-w-row": mrope(4, 1, 16, 16, (2, 3, 3), rows=(6, 4, (11, -1))),
        "positions-past-2^24": mrope(3, 1, 16, 16, (2, 3, 3), rows=(7, 30, None)),
        "pixtral-5x7-head-64": grid(5, 7, 2, 64),
        "pixtral-7x5-head-22": grid(7, 5, 1, 22),
        "axial-5x7-head-36": grid(5, 7, 2, 36, 1, 0),
        "axial-batch-2-head-20": grid(3, 4, 1, 20, 1, 0, batch=2),
        "axial-head-6": grid(3, 3, 1, 6, 1, 0),
        "pixtral-head-2": grid(3, 3, 1, 2),
        "pixtral-head-7": grid(3, 3, 1, 7),
        "variant-unknown": grid(2, 2, 1, 8, "bad2"),
        "grid-too-large": grid("maxSeqLen", 2, 1, 8),
        "grid-batch-too-large": grid(("raw", 4096), ("raw", 4096), 1, 8, batch=2),
        "grid-empty": grid(0, "2^32-1", 1, 8),
        "grid-base-zero": grid(2, 2, 1, 8, b="0"),
        "axial-keys-of-3-frames": grid(4, 6, 2, 36, 1, 0, frames=3),
        "frames-too-many": grid(("raw", 4096), ("raw", 4096), 1, 8, 1, 0, frames=2),
        "frames-zero": grid(3, 3, 1, 8, 1, 0, frames=0),
    }


TARGETS = {"sinusoidal_fuzz": sinusoidal_seeds, "rope_fuzz": rope_seeds, "rope_batch_fuzz": rope_batch_seeds,
           "layout_conversion_fuzz": layout_conversion_seeds,
           "similarity_fuzz": similarity_seeds, "kernels_fuzz": kernels_seeds,
           "mrope_positions_fuzz": mrope_positions_seeds,
           "alibi_fuzz": alibi_seeds,
           "relative_position_buckets_fuzz": relative_position_buckets_seeds,
           "xpos_fuzz": xpos_seeds,
           "axis_phases_fuzz": axis_phases_seeds,
           "attention_scores_fuzz": attention_scores_seeds}


def main():
    for target, make in TARGETS.items():
        folder = ROOT / target
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        seeds = make()
        for name, data in seeds.items():
            (folder / name).write_bytes(data)
        print(f"{target}: {len(seeds)} seeds in {folder.relative_to(ROOT.parent.parent.parent)}")


if __name__ == "__main__":
    main()
