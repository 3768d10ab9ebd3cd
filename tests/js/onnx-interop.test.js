// Interop proof: onnxruntime-web's own RotaryEmbedding operator (CPU/WASM backend in Node, one
// thread, files from node_modules only), fed cos/sin caches made by posenc.ropeCache, gives the
// same output as posenc.rope to float32 rounding: the ONNX operator (opset 23) on 3-D input
// (tokens-major) and 4-D input (heads-major), onnxruntime's com.microsoft contrib operator, both
// pairings (interleaved 0/1), partial rotary, per-sequence position_ids, and a YaRN-scaled cache
// (its attention factor inside cos/sin). The tiny models are encoded by onnx-model.js.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';

import * as ort from 'onnxruntime-web';

import { FLOAT16_VALUES, HALF_FORMATS, halfUlp, toFloat16 } from '../../bench/half-bits.js';

import { FLOAT, FLOAT16, INT64, rotaryEmbeddingModel } from './onnx-model.js';
import { loadBothVariants, randomNormal, ropePairScales, U32 } from './support.js';

ort.env.wasm.numThreads = 1;
ort.env.wasm.proxy = false;

const [BATCH, SEQ, HEADS, HEAD_DIM] = [2, 8, 4, 64];
const MAX_POSITION = 5000; // rows of the cos/sin cache
const POSITIONS = [...Array.from({ length: SEQ }, (_, t) => t), ...Array.from({ length: SEQ }, (_, t) => 4000 + 3 * t)];
// position_ids as ONNX Runtime holds them (int64): fed to the operator and to posenc.rope alike.
const POSITION_IDS = BigInt64Array.from(POSITIONS, BigInt);
const YARN = { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 1024 };

const CASES = [
  {
    name: 'ONNX opset 23, 3-D input, interleaved=0 (half pairing)',
    domain: '',
    layout: 'half',
    rotaryDim: HEAD_DIM,
    order: 'tokens',
  },
  {
    name: 'ONNX opset 23, 3-D input, interleaved=1',
    domain: '',
    layout: 'interleaved',
    rotaryDim: HEAD_DIM,
    order: 'tokens',
  },
  {
    name: 'ONNX opset 23, partial rotary 16 of 64, interleaved=0',
    domain: '',
    layout: 'half',
    rotaryDim: 16,
    order: 'tokens',
  },
  {
    name: 'ONNX opset 23, partial rotary 24 of 64, interleaved=1',
    domain: '',
    layout: 'interleaved',
    rotaryDim: 24,
    order: 'tokens',
  },
  {
    name: 'ONNX opset 23, 4-D input [batch, heads, seq, dim], interleaved=0',
    domain: '',
    layout: 'half',
    rotaryDim: HEAD_DIM,
    order: 'heads',
  },
  {
    name: 'ONNX opset 23, 4-D input, partial rotary 32, interleaved=1',
    domain: '',
    layout: 'interleaved',
    rotaryDim: 32,
    order: 'heads',
  },
  {
    name: 'com.microsoft RotaryEmbedding, interleaved=0',
    domain: 'com.microsoft',
    layout: 'half',
    rotaryDim: HEAD_DIM,
    order: 'tokens',
  },
  {
    name: 'com.microsoft RotaryEmbedding, interleaved=1, partial rotary 16',
    domain: 'com.microsoft',
    layout: 'interleaved',
    rotaryDim: 16,
    order: 'tokens',
  },
  {
    name: 'ONNX opset 23 with a YaRN-scaled cache (attention factor in cos/sin), interleaved=0',
    domain: '',
    layout: 'half',
    rotaryDim: HEAD_DIM,
    order: 'tokens',
    scaling: YARN,
  },
];

// ONNX's element type of each dtype, and onnxruntime-web's name for it (float16 tensors hold
// Uint16Arrays of the patterns).
const ELEMENT_TYPE = { float32: FLOAT, float16: FLOAT16 };

/** posenc.rope's options for a case: the operator's shape, pairing and position_ids. */
function ropeOptions(c) {
  const { rotaryDim, layout, order, scaling } = c;
  return {
    batch: BATCH,
    seqLen: SEQ,
    numHeads: HEADS,
    headDim: HEAD_DIM,
    rotaryDim,
    layout,
    order,
    positions: POSITION_IDS,
    scaling,
  };
}

/** The operator's output for x ([B, S, H*D] or [B, H, S, D]) with posenc's caches, all of dtype. */
async function runOperator(c, x, cos, sin, dtype = 'float32') {
  const shape = c.order === 'heads' ? [BATCH, HEADS, SEQ, HEAD_DIM] : [BATCH, SEQ, HEADS * HEAD_DIM];
  const cacheShape = [MAX_POSITION, c.rotaryDim / 2];
  const type = ELEMENT_TYPE[dtype];
  const tensors = {
    X: { type, shape, value: new ort.Tensor(dtype, x, shape) },
    cos: { type, shape: cacheShape, value: new ort.Tensor(dtype, cos, cacheShape) },
    sin: { type, shape: cacheShape, value: new ort.Tensor(dtype, sin, cacheShape) },
    position_ids: {
      type: INT64,
      shape: [BATCH, SEQ],
      value: new ort.Tensor('int64', POSITION_IDS, [BATCH, SEQ]),
    },
  };
  // The ONNX operator takes (X, cos, sin, position_ids); the contrib one (input, position_ids, cos, sin).
  const order =
    c.domain === 'com.microsoft' ? ['X', 'position_ids', 'cos', 'sin'] : ['X', 'cos', 'sin', 'position_ids'];
  const attributes = { interleaved: c.layout === 'interleaved' ? 1 : 0, rotary_embedding_dim: c.rotaryDim };
  if (c.order === 'tokens') attributes.num_heads = HEADS;
  const model = rotaryEmbeddingModel({
    domain: c.domain,
    inputs: order.map((name) => ({ name, type: tensors[name].type, shape: tensors[name].shape })),
    attributes,
  });
  const session = await ort.InferenceSession.create(model, {
    executionProviders: ['wasm'],
    graphOptimizationLevel: 'disabled',
  });
  try {
    const feeds = Object.fromEntries(order.map((name) => [name, tensors[name].value]));
    return (await session.run(feeds)).Y.data;
  } finally {
    await session.release();
  }
}

/** A describe block of one test per case, each run on both builds: body(c, posenc, t). */
function describeCases(title, body) {
  describe(title, () => {
    let builds;
    before(async () => {
      builds = await loadBothVariants();
    });
    for (const c of CASES) {
      it(c.name, async (t) => {
        for (const posenc of builds) await body(c, posenc, t);
      });
    }
  });
}

/** posenc's cos/sin cache of a case, MAX_POSITION rows, in dtype. */
const cacheOf = (posenc, c, dtype) =>
  posenc.ropeCache({ seqLen: MAX_POSITION, rotaryDim: c.rotaryDim, scaling: c.scaling, dtype });

describeCases('onnxruntime-web RotaryEmbedding with posenc caches = posenc.rope', async (c, posenc, t) => {
  const x = randomNormal(BATCH * SEQ * HEADS * HEAD_DIM, c.rotaryDim + c.layout.length);
  const { cos, sin, attentionFactor } = cacheOf(posenc, c, 'float32');
  const fromOnnx = await runOperator(c, x, cos, sin);
  const fromPosenc = posenc.rope(x.slice(), ropeOptions(c));
  // Float32 rounding: both compute a cos - b sin in float32 from float32 cos/sin that may
  // differ in their last bit (posenc.rope's own float64 recurrence vs the cache's).
  // Head vectors are contiguous in both orders: pair scales per vector, whatever the order.
  const scales = ropePairScales(x, {
    seqLen: BATCH * SEQ,
    numHeads: HEADS,
    headDim: HEAD_DIM,
    rotaryDim: c.rotaryDim,
    layout: c.layout,
  });
  let worst = 0;
  for (let i = 0; i < x.length; i++) {
    const diff = Math.abs(fromOnnx[i] - fromPosenc[i]);
    worst = Math.max(worst, diff);
    const scale = Number.isNaN(scales[i]) ? 0 : scales[i];
    assert.ok(
      diff <= 4 * U32 * attentionFactor * (scale + Math.abs(fromPosenc[i])),
      `${posenc.variant} [${i}]: onnx ${fromOnnx[i]} vs posenc ${fromPosenc[i]}`,
    );
    if (Number.isNaN(scales[i])) assert.equal(fromPosenc[i], fromOnnx[i], `pass-through [${i}]`);
  }
  // The comparison can fail: the operator did rotate (a no-op would differ from posenc).
  const moved = fromOnnx.reduce((m, v, i) => Math.max(m, Math.abs(v - x[i])), 0);
  assert.ok(moved > 0.5, `${posenc.variant}: the operator left x as it was (max change ${moved})`);
  t.diagnostic(`${posenc.variant}: max |onnx - posenc| = ${worst.toExponential(2)}`);
});

// ---- float16 --------------------------------------------------------------------------------
// onnxruntime-web 1.30's wasm backend runs both operators with float16 X and caches (its type
// constraint T binds X, cos and sin to one type: float16 X with float32 caches is refused). Its
// CPU kernel (MLAS MlasRotaryEmbedOneRow's fallback: no wasm-specific kernel) widens X and the
// caches to float32, computes x_a cos - x_b sin (and x_b cos + x_a sin) in float32, one rounding
// per product and per sum, and rounds once to float16: the test below reproduces its output bit
// for bit from that description. posenc's float16 rope rotates the same widened X in float32
// with float32 cos/sin (the float64 value rounded once) where ORT reads the cache's float16
// cos/sin, each off by up to 2^-11 of its value (float16's unit roundoff): as cos² + sin² = af²,
// the two outputs differ by at most 2^-11 · af · ‖(x_a, x_b)‖ (plus float32's 2^-24 and each
// output's own rounding): a few float16 units in the last place where an output is small beside
// its inputs.

const BINARY16 = HALF_FORMATS.float16.format;

/** The position of a pattern on the line of float16 values (for distances in units in the last place). */
const ordinal = (bits) => (bits & 0x8000 ? -(bits & 0x7fff) : bits);

/**
 * ONNX Runtime's float16 RotaryEmbedding, restated: float32 products and sums of the widened
 * inputs, rounded once to float16 (Math.fround is one float32 rounding).
 */
function ortFloat16Rotation(c, x, cos, sin) {
  const f = Math.fround;
  const out = x.slice();
  forEachPair(c, (a, b, cacheAt) => {
    const [xa, xb] = [FLOAT16_VALUES[x[a]], FLOAT16_VALUES[x[b]]];
    const [co, si] = [FLOAT16_VALUES[cos[cacheAt]], FLOAT16_VALUES[sin[cacheAt]]];
    out[a] = toFloat16(f(f(xa * co) - f(xb * si)));
    out[b] = toFloat16(f(f(xb * co) + f(xa * si)));
  });
  return out;
}

/** Calls visit(a, b, cacheAt) for every rotated pair of a case's input, with its cache index. */
function forEachPair(c, visit) {
  const half = c.rotaryDim / 2;
  const [step, partner] = c.layout === 'interleaved' ? [2, 1] : [1, half];
  for (let batch = 0; batch < BATCH; batch++) {
    for (let t = 0; t < SEQ; t++) {
      for (let h = 0; h < HEADS; h++) {
        const start =
          c.order === 'heads' ? ((batch * HEADS + h) * SEQ + t) * HEAD_DIM : ((batch * SEQ + t) * HEADS + h) * HEAD_DIM;
        for (let i = 0; i < half; i++)
          visit(start + i * step, start + i * step + partner, POSITIONS[batch * SEQ + t] * half + i);
      }
    }
  }
}

describeCases(
  'onnxruntime-web RotaryEmbedding in float16, fed posenc.ropeCache({ dtype: "float16" })',
  async (c, posenc, t) => {
    const x = Uint16Array.from(randomNormal(BATCH * SEQ * HEADS * HEAD_DIM, c.rotaryDim + 7), toFloat16);
    const { cos, sin, attentionFactor } = cacheOf(posenc, c, 'float16');
    const fromOnnx = await runOperator(c, x, cos, sin, 'float16');
    assert.ok(fromOnnx instanceof Uint16Array, 'ORT returns float16 as Uint16Array patterns');
    // ORT computes in float32 from its float16 inputs, as restated: bit for bit.
    const restated = ortFloat16Rotation(c, x, cos, sin);
    const at = fromOnnx.findIndex((v, i) => v !== restated[i]);
    assert.equal(at, -1, `${posenc.variant} [${at}]: onnx 0x${fromOnnx[at]?.toString(16)} vs restated`);

    const fromPosenc = posenc.rope(x.slice(), { ...ropeOptions(c), dtype: 'float16' });
    let [worstUlps, worstPairUlps, differ, rotated] = [0, 0, 0, 0];
    const passed = new Uint8Array(x.length).fill(1);
    forEachPair(c, (a, b) => {
      const norm = Math.hypot(FLOAT16_VALUES[x[a]], FLOAT16_VALUES[x[b]]);
      const bound = (2 ** -11 * attentionFactor + 2 ** -23) * norm;
      for (const i of [a, b]) {
        passed[i] = 0;
        const [onnx, ours] = [FLOAT16_VALUES[fromOnnx[i]], FLOAT16_VALUES[fromPosenc[i]]];
        const allowed = bound + halfUlp(Math.abs(onnx), BINARY16) + halfUlp(Math.abs(ours), BINARY16);
        assert.ok(Math.abs(onnx - ours) <= allowed, `${posenc.variant} [${i}]: onnx ${onnx} vs posenc ${ours}`);
        worstUlps = Math.max(worstUlps, Math.abs(ordinal(fromOnnx[i]) - ordinal(fromPosenc[i])));
        worstPairUlps = Math.max(worstPairUlps, Math.abs(onnx - ours) / (2 * halfUlp(norm, BINARY16)));
        differ += fromOnnx[i] !== fromPosenc[i];
        rotated++;
      }
    });
    // Pass-through channels are the input's patterns, in both.
    for (let i = 0; i < x.length; i++) {
      if (passed[i]) assert.equal(fromPosenc[i], fromOnnx[i], `pass-through [${i}]`);
    }
    // In units in the last place of float16 at the pair's magnitude ‖(x_a, x_b)‖, and of the output
    // itself (large where an output is near 0 beside its inputs: float16's spacing shrinks there).
    t.diagnostic(
      `${posenc.variant}: ${differ} of ${rotated} rotated outputs differ; max |onnx - posenc| = ` +
        `${worstPairUlps.toFixed(2)} float16 ulps of ‖(x_a, x_b)‖, ${worstUlps} ulps of the output`,
    );
  },
);
