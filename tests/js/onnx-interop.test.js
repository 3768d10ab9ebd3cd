// Interop proof: onnxruntime-web's own RotaryEmbedding operator (CPU/WASM backend in Node, one
// thread, files from node_modules only), fed cos/sin caches made by posenc.ropeCache, gives the
// same output as posenc.rope to float32 rounding: the ONNX operator (opset 23) on 3-D input
// (tokens-major) and 4-D input (heads-major), onnxruntime's com.microsoft contrib operator, both
// pairings (interleaved 0/1), partial rotary, per-sequence position_ids, and a YaRN-scaled cache
// (its attention factor inside cos/sin). The tiny models are encoded by onnx-model.js.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';

import * as ort from 'onnxruntime-web';

import { FLOAT, INT64, rotaryEmbeddingModel } from './onnx-model.js';
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

/** The operator's output for x ([B, S, H*D] or [B, H, S, D]) with posenc's caches. */
async function runOperator(c, x, cos, sin) {
  const shape = c.order === 'heads' ? [BATCH, HEADS, SEQ, HEAD_DIM] : [BATCH, SEQ, HEADS * HEAD_DIM];
  const cacheShape = [MAX_POSITION, c.rotaryDim / 2];
  const tensors = {
    X: { type: FLOAT, shape, value: new ort.Tensor('float32', x, shape) },
    cos: { type: FLOAT, shape: cacheShape, value: new ort.Tensor('float32', cos, cacheShape) },
    sin: { type: FLOAT, shape: cacheShape, value: new ort.Tensor('float32', sin, cacheShape) },
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

describe('onnxruntime-web RotaryEmbedding with posenc caches = posenc.rope', () => {
  let builds;
  before(async () => {
    builds = await loadBothVariants();
  });

  for (const c of CASES) {
    it(c.name, async (t) => {
      for (const posenc of builds) {
        const x = randomNormal(BATCH * SEQ * HEADS * HEAD_DIM, c.rotaryDim + c.layout.length);
        const { cos, sin, attentionFactor } = posenc.ropeCache({
          seqLen: MAX_POSITION,
          rotaryDim: c.rotaryDim,
          scaling: c.scaling,
        });
        const fromOnnx = await runOperator(c, x, cos, sin);
        const fromPosenc = posenc.rope(x.slice(), {
          batch: BATCH,
          seqLen: SEQ,
          numHeads: HEADS,
          headDim: HEAD_DIM,
          rotaryDim: c.rotaryDim,
          layout: c.layout,
          order: c.order,
          positions: POSITION_IDS,
          scaling: c.scaling,
        });
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
      }
    });
  }
});
