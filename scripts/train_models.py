#!/usr/bin/python3
"""Trains seven tiny transformers, one per positional encoding, on the lag-copy task, for the
tutorial's trained-models section (web/src/trained/, docs/trained-models.md).

The task: a sequence of random tokens; at position t the model outputs the token at t - LAG.
Position is all that tells the model where to look (the tokens are random, so no content
points there), and the answer's place is a fixed relative offset, so a model either finds the
offset at any length or it does not: length generalisation is visible directly.

The model: token embedding, one causal multi-head attention layer (no MLP, no norm) added to
the residual stream, unembedding. The seven models differ only in how position enters:

  none        nothing (NoPE): the causal mask alone
  learned     a learned table [TRAIN_LEN, D_MODEL] added to the embeddings; positions past the
              table take its last row (clamped), which is shown in the page, not hidden
  sinusoidal  posenc.sinusoidal's table (interleaved: sin at 2i, cos at 2i+1, base 10000)
              added to the embeddings
  rope        q and k rotated as posenc.rope with layout 'half' (pairs (i, i + headDim/2)),
              base 10000 (transformers' rotate_half)
  alibi       posenc.alibiSlopes({numHeads}) (maxBias 8) times j - i added to the scores
  t5          a learned bias [NUM_BUCKETS, heads] looked up by posenc.relativePositionBuckets
              (32 buckets, maxDistance 128, bidirectional false: a causal decoder)
  xpos        rope with layout 'interleaved' (torchscale's) and xPos's scale (scaleBase 512,
              gamma 0.4, center ceil(L / 2)), queries up and keys down

Each encoding is computed here exactly as posenc computes it (float64, rounded once to float32),
so the JS forward pass (web/src/trained/forward.js), which calls posenc, reproduces these
logits and attention weights. Evaluation inputs come from mulberry32 (widgets/random.js's
seededRandom, transcribed below) so the page and the tests draw the same sequences.

Writes web/models/weights.json (float32 weights, base64, with each model's shapes and
encoding options), web/models/training-log.json (loss every LOG_EVERY steps, accuracy per
length, seconds) and tests/golden/trained-models.json (logits and attention on stored inputs).

Run with Debian's python (torch 1.13): /usr/bin/python3 scripts/train_models.py
  --check MODEL [--steps N]: train MODEL again for N steps (default 100) and compare its losses
  with the log's, bit for bit; writes nothing.
"""
import argparse
import base64
import json
import math
import pathlib
import sys
import time

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from make_golden_t5_buckets import compute_bias_buckets  # noqa: E402  (transformers' T5 buckets, transcribed)

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODELS_DIR = ROOT / "web" / "models"
GOLDEN = ROOT / "tests" / "golden" / "trained-models.json"

ENCODINGS = ["none", "learned", "sinusoidal", "rope", "alibi", "t5", "xpos"]
VOCAB = 16
LAG = 3
D_MODEL = 32
NUM_HEADS = 2
HEAD_DIM = D_MODEL // NUM_HEADS
TRAIN_LEN = 32
STEPS = 500
BATCH = 32
LR = 3e-3
LOG_EVERY = 25
SEED = 1234
EVAL_LENGTHS = [8, 16, 32, 48, 64, 96, 128, 192, 256]
EVAL_COUNT = 16  # sequences per length
EVAL_SEED = 7  # sequence s of length L comes from seededRandom(EVAL_SEED * 100003 + L * 101 + s)
GOLDEN_LENGTH = 40  # past the training length
GOLDEN_SEED = 424242

ROPE_BASE = 10000.0
SIN_BASE = 10000.0
T5_BUCKETS = 32
T5_MAX_DISTANCE = 128
XPOS_SCALE_BASE = 512.0
XPOS_GAMMA = 0.4
ALIBI_MAX_BIAS = 8.0


# ---- the evaluation inputs: widgets/random.js's mulberry32, transcribed --------------------------

def seeded_random(seed):
    state = seed & 0xFFFFFFFF

    def imul(a, b):
        return (a * b) & 0xFFFFFFFF

    def next_value():
        nonlocal state
        state = (state + 0x6D2B79F5) & 0xFFFFFFFF
        t = state
        t = imul(t ^ (t >> 15), t | 1)
        t ^= (t + imul(t ^ (t >> 7), t | 61)) & 0xFFFFFFFF
        return ((t ^ (t >> 14)) & 0xFFFFFFFF) / 4294967296

    return next_value


def random_tokens(length, seed):
    """web/src/trained/task.js's randomTokens: floor(u * VOCAB) per token."""
    uniform = seeded_random(seed)
    return [math.floor(uniform() * VOCAB) for _ in range(length)]


def eval_seed(length, index):
    return EVAL_SEED * 100003 + length * 101 + index


# ---- the encodings, as posenc computes them (float64, one rounding to float32) -------------------

def sinusoidal_table(length):
    pos = torch.arange(length, dtype=torch.float64)[:, None]
    i = torch.arange(D_MODEL // 2, dtype=torch.float64)[None, :]
    angle = pos / SIN_BASE ** (2 * i / D_MODEL)
    table = torch.stack([torch.sin(angle), torch.cos(angle)], dim=-1).reshape(length, D_MODEL)
    return table.to(torch.float32)


def rope_cos_sin(length, scale_sign=0, center=0):
    """cos and sin [length, HEAD_DIM/2] of pair i at position p; with xPos (scale_sign ±1) times
    zeta_i^(±(p - center) / scaleBase)."""
    pos = torch.arange(length, dtype=torch.float64)[:, None]
    i = torch.arange(HEAD_DIM // 2, dtype=torch.float64)[None, :]
    angle = pos * (1.0 / ROPE_BASE ** (2 * i / HEAD_DIM))
    cos, sin = torch.cos(angle), torch.sin(angle)
    if scale_sign:
        zeta = (2 * i / HEAD_DIM + XPOS_GAMMA) / (1 + XPOS_GAMMA)
        scale = torch.exp(scale_sign * (pos - center) / XPOS_SCALE_BASE * torch.log(zeta))
        cos, sin = cos * scale, sin * scale
    return cos.to(torch.float32), sin.to(torch.float32)


def rotate(x, cos, sin, layout):
    """x [..., T, HEAD_DIM]; pairs (2i, 2i+1) ('interleaved') or (i, i + HEAD_DIM/2) ('half')."""
    half = HEAD_DIM // 2
    if layout == "half":
        a, b = x[..., :half], x[..., half:]
        return torch.cat([a * cos - b * sin, a * sin + b * cos], dim=-1)
    a, b = x[..., 0::2], x[..., 1::2]
    return torch.stack([a * cos - b * sin, a * sin + b * cos], dim=-1).flatten(-2)


def alibi_slopes(num_heads):
    """posenc.alibiSlopes: 2^(-maxBias (h+1) / n) for a power of two n (NUM_HEADS is one)."""
    assert num_heads & (num_heads - 1) == 0
    return torch.tensor([2.0 ** (-ALIBI_MAX_BIAS * (h + 1) / num_heads) for h in range(num_heads)],
                        dtype=torch.float64)


def relative(length):
    i = torch.arange(length, dtype=torch.float64)[:, None]
    j = torch.arange(length, dtype=torch.float64)[None, :]
    return j - i


# ---- the model -----------------------------------------------------------------------------------

class LagCopyModel(torch.nn.Module):
    def __init__(self, encoding):
        super().__init__()
        self.encoding = encoding
        std = 1 / math.sqrt(D_MODEL)
        self.embed = torch.nn.Parameter(torch.randn(VOCAB, D_MODEL))
        self.wq = torch.nn.Parameter(torch.randn(D_MODEL, D_MODEL) * std)
        self.wk = torch.nn.Parameter(torch.randn(D_MODEL, D_MODEL) * std)
        self.wv = torch.nn.Parameter(torch.randn(D_MODEL, D_MODEL) * std)
        self.wo = torch.nn.Parameter(torch.randn(D_MODEL, D_MODEL) * std)
        self.unembed = torch.nn.Parameter(torch.randn(D_MODEL, VOCAB) * std)
        if encoding == "learned":
            self.pos = torch.nn.Parameter(torch.randn(TRAIN_LEN, D_MODEL))
        if encoding == "t5":
            self.t5_bias = torch.nn.Parameter(torch.randn(T5_BUCKETS, NUM_HEADS) * 0.1)

    def parameters_by_name(self):
        """The weights in the file's order, row-major: x @ W for every projection."""
        names = ["embed", "wq", "wk", "wv", "wo", "unembed"]
        if self.encoding == "learned":
            names.append("pos")
        if self.encoding == "t5":
            names.append("t5_bias")
        return [(name, getattr(self, name)) for name in names]

    def forward(self, tokens):
        """tokens [B, T] -> logits [B, T, VOCAB], attention weights [B, H, T, T]."""
        batch, length = tokens.shape
        x = self.embed[tokens]
        if self.encoding == "learned":
            x = x + self.pos[torch.clamp(torch.arange(length), max=TRAIN_LEN - 1)]
        elif self.encoding == "sinusoidal":
            x = x + sinusoidal_table(length)

        def heads(w):
            return (x @ w).view(batch, length, NUM_HEADS, HEAD_DIM).transpose(1, 2)

        q, k, v = heads(self.wq), heads(self.wk), heads(self.wv)
        if self.encoding == "rope":
            cos, sin = rope_cos_sin(length)
            q, k = rotate(q, cos, sin, "half"), rotate(k, cos, sin, "half")
        elif self.encoding == "xpos":
            center = (length + 1) // 2  # posenc's default: ceil(L / 2)
            cos_q, sin_q = rope_cos_sin(length, +1, center)
            cos_k, sin_k = rope_cos_sin(length, -1, center)
            q, k = rotate(q, cos_q, sin_q, "interleaved"), rotate(k, cos_k, sin_k, "interleaved")
        scores = (q @ k.transpose(-1, -2)) / math.sqrt(HEAD_DIM)
        if self.encoding == "alibi":
            bias = alibi_slopes(NUM_HEADS)[:, None, None] * relative(length)
            scores = scores + bias.to(torch.float32)
        elif self.encoding == "t5":
            buckets = compute_bias_buckets(length, length, None, False, T5_BUCKETS, T5_MAX_DISTANCE)
            scores = scores + self.t5_bias[buckets].permute(2, 0, 1)
        future = torch.ones(length, length, dtype=torch.bool).triu(1)
        scores = scores.masked_fill(future, float("-inf"))
        attention = torch.softmax(scores, dim=-1)
        mixed = (attention @ v).transpose(1, 2).reshape(batch, length, D_MODEL)
        return (x + mixed @ self.wo) @ self.unembed, attention


def encoding_options(encoding):
    """What the JS forward pass passes to posenc for this model (web/src/trained/forward.js)."""
    return {
        "none": {},
        "learned": {"rows": TRAIN_LEN, "beyond": "clamp"},
        "sinusoidal": {"base": SIN_BASE, "layout": "interleaved"},
        "rope": {"base": ROPE_BASE, "layout": "half"},
        "alibi": {"maxBias": ALIBI_MAX_BIAS},
        "t5": {"numBuckets": T5_BUCKETS, "maxDistance": T5_MAX_DISTANCE, "bidirectional": False},
        "xpos": {"base": ROPE_BASE, "layout": "interleaved",
                 "xpos": {"scaleBase": XPOS_SCALE_BASE, "gamma": XPOS_GAMMA}},
    }[encoding]


# ---- training and measuring ----------------------------------------------------------------------

def seeded_setup(encoding):
    torch.manual_seed(SEED + ENCODINGS.index(encoding))
    model = LagCopyModel(encoding)
    generator = torch.Generator().manual_seed(SEED * 7 + ENCODINGS.index(encoding))
    optimizer = torch.optim.Adam(model.parameters(), lr=LR)
    return model, generator, optimizer


def loss_of(model, tokens):
    logits, _ = model(tokens)
    return torch.nn.functional.cross_entropy(logits[:, LAG:].reshape(-1, VOCAB), tokens[:, :-LAG].reshape(-1))


def train(encoding, steps):
    model, generator, optimizer = seeded_setup(encoding)
    losses = []
    for step in range(steps):
        tokens = torch.randint(0, VOCAB, (BATCH, TRAIN_LEN), generator=generator)
        loss = loss_of(model, tokens)
        if step % LOG_EVERY == 0 or step == steps - 1:
            losses.append([step, loss.item()])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return model, losses


@torch.no_grad()
def accuracy(model, length):
    """Correct predictions over positions LAG … length-1 of EVAL_COUNT seeded sequences."""
    correct = total = 0
    for index in range(EVAL_COUNT):
        tokens = torch.tensor([random_tokens(length, eval_seed(length, index))])
        logits, _ = model(tokens)
        predicted = logits[0, LAG:].argmax(-1)
        correct += int((predicted == tokens[0, :-LAG]).sum())
        total += length - LAG
    return correct, total


def b64(tensor):
    return base64.b64encode(tensor.detach().to(torch.float32).contiguous().numpy().tobytes()).decode()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", choices=ENCODINGS)
    parser.add_argument("--steps", type=int, default=100)
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)

    if args.check:
        log = json.loads((MODELS_DIR / "training-log.json").read_text())
        stored = {step: loss for step, loss in log["models"][args.check]["loss"]}
        _, losses = train(args.check, args.steps)
        compared = [(step, loss, stored[step]) for step, loss in losses if step in stored]
        bad = [c for c in compared if c[1] != c[2]]
        for step, loss, want in compared:
            print(f"{args.check} step {step}: loss {loss!r} (log {want!r})")
        if bad or not compared:
            print(f"train_models.py --check: {len(bad)} of {len(compared)} losses differ from the log", file=sys.stderr)
            return 1
        print(f"train_models.py --check {args.check}: {len(compared)} losses equal the log's")
        return 0

    weights = {"task": {"name": "lag-copy", "vocab": VOCAB, "lag": LAG, "trainLength": TRAIN_LEN},
               "architecture": {"dModel": D_MODEL, "numHeads": NUM_HEADS, "headDim": HEAD_DIM, "layers": 1},
               "models": {}}
    log = {"steps": STEPS, "batch": BATCH, "learningRate": LR, "logEvery": LOG_EVERY,
           "evalLengths": EVAL_LENGTHS, "evalCount": EVAL_COUNT, "evalSeed": EVAL_SEED, "models": {}}
    golden_tokens = random_tokens(GOLDEN_LENGTH, GOLDEN_SEED)
    golden = {"tokens": golden_tokens, "models": {}}
    started = time.perf_counter()
    for encoding in ENCODINGS:
        began = time.perf_counter()
        model, losses = train(encoding, STEPS)
        seconds = time.perf_counter() - began
        acc = {length: accuracy(model, length) for length in EVAL_LENGTHS}
        params = model.parameters_by_name()
        weights["models"][encoding] = {
            "encoding": encoding,
            "options": encoding_options(encoding),
            "tensors": [{"name": name, "shape": list(p.shape), "data": b64(p)} for name, p in params],
            "parameters": sum(p.numel() for _, p in params),
        }
        log["models"][encoding] = {"loss": losses, "seconds": round(seconds, 2),
                                   "accuracy": {str(length): list(ct) for length, ct in acc.items()}}
        with torch.no_grad():
            logits, attention = model(torch.tensor([golden_tokens]))
        golden["models"][encoding] = {"logits": b64(logits[0]), "attention": b64(attention[0])}
        row = " ".join(f"{length}:{c / t:.3f}" for length, (c, t) in acc.items())
        print(f"{encoding:>10}  {seconds:6.1f} s  loss {losses[-1][1]:.4f}  {row}", flush=True)
    log["seconds"] = round(time.perf_counter() - started, 1)
    MODELS_DIR.mkdir(parents=True, exist_ok=True)
    (MODELS_DIR / "weights.json").write_text(json.dumps(weights, separators=(",", ":")) + "\n")
    (MODELS_DIR / "training-log.json").write_text(json.dumps(log, separators=(",", ":")) + "\n")
    GOLDEN.write_text(json.dumps(golden, separators=(",", ":")) + "\n")
    print(f"trained {len(ENCODINGS)} models in {log['seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
