// posenc.attentionScores on both builds: every encoding against the float64 reference of
// reference.js (tables, rotations, dot products) with alibi's slopes and T5's buckets restated
// here; the golden vectors of scripts/make_golden_attention_scores.py (transformers' LLaMA rope,
// BLOOM's alibi, T5's relative bias, run by torch in float32 and float64); and the properties
// that tie the encodings together (alibi = none + bias and t5 = none + table[bucket] bit for
// bit, causal zeros, softmax rows summing to 1, rows with every key masked all 0).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { dot, ropeReference, sinusoidalReference, xposReference } from './reference.js';
import { U32, assertClose, loadBothVariants, randomNormal, readGolden } from './support.js';

const golden = readGolden('attention-scores.json');

/** The paper's ALiBi slope of head h of n (closed form). */
function alibiSlope(h, n, maxBias = 8) {
  const c = 2 ** Math.floor(Math.log2(n));
  return h < c ? 2 ** ((-maxBias * (h + 1)) / c) : 2 ** ((-maxBias * (2 * (h - c) + 1)) / (2 * c));
}

/**
 * One side's [numHeads, rows, headDim] rows encoded in float64 (rows at first, first + 1, ...);
 * xpos: `role` is the side's, about the one center of both sides (ceil(L / 2), L the largest
 * position + 1 of q and k, unless given).
 */
function encodedRows(x, o, rows, first, role) {
  const { numHeads = 1, headDim, encoding } = o;
  const out = Float64Array.from(x);
  for (let h = 0; h < numHeads; h++) {
    const head = x.subarray(h * rows * headDim, (h + 1) * rows * headDim);
    let encoded;
    if (encoding === 'sinusoidal') {
      const table = sinusoidalReference({
        seqLen: rows,
        dModel: headDim,
        base: o.base,
        layout: o.layout,
        offset: first,
      });
      encoded = Float64Array.from(head, (v, i) => v + table[i]);
    } else if (encoding === 'xpos') {
      const length = Math.max((o.offset ?? o.keyLen - o.queryLen) + o.queryLen, o.keyLen);
      const center = o.xpos?.center ?? Math.ceil(length / 2);
      encoded = xposReference(head, {
        seqLen: rows,
        headDim,
        base: o.base,
        layout: o.layout,
        rotaryDim: o.rotaryDim,
        offset: first,
        xpos: { ...o.xpos, role, center },
      });
    } else if (encoding === 'rope') {
      encoded = ropeReference(head, {
        seqLen: rows,
        headDim,
        base: o.base,
        layout: o.layout,
        rotaryDim: o.rotaryDim,
        offset: first,
      });
    } else {
      continue;
    }
    out.set(encoded, h * rows * headDim);
  }
  return out;
}

/** Raw scores in float64 and the float32 error each may carry: (headDim + 16) u scale |q| |k| + u |bias|. */
function reference(q, k, o, buckets) {
  const { numHeads = 1, queryLen, keyLen, headDim } = o;
  const offset = o.offset ?? keyLen - queryLen;
  const scale = o.scale ?? 1 / Math.sqrt(headDim);
  const qe = encodedRows(q, o, queryLen, offset, 'query');
  const ke = encodedRows(k, o, keyLen, 0, 'key');
  const scores = new Float64Array(numHeads * queryLen * keyLen);
  const bounds = new Float64Array(scores.length);
  for (let h = 0; h < numHeads; h++) {
    for (let i = 0; i < queryLen; i++) {
      for (let j = 0; j < keyLen; j++) {
        const qAt = (h * queryLen + i) * headDim;
        const kAt = (h * keyLen + j) * headDim;
        const n = j - (offset + i);
        let bias = 0;
        if (o.encoding === 'alibi') bias = alibiSlope(h, numHeads, o.maxBias) * n;
        if (o.encoding === 't5') bias = o.bias[buckets[i * keyLen + j] * numHeads + h];
        const at = (h * queryLen + i) * keyLen + j;
        scores[at] = scale * dot(qe, ke, headDim, qAt, kAt) + bias;
        const norms = Math.sqrt(dot(qe, qe, headDim, qAt, qAt) * dot(ke, ke, headDim, kAt, kAt));
        bounds[at] = (headDim + 16) * U32 * Math.abs(scale) * norms + U32 * Math.abs(bias) + 2 ** -140;
      }
    }
  }
  return { scores, bounds };
}

/** Softmax of each row of keyLen in float64, keys j > offset + i masked when causal. */
function softmaxRows(scores, { queryLen, keyLen, causal, offset }) {
  const out = new Float64Array(scores.length);
  for (let row = 0; row < scores.length / keyLen; row++) {
    const i = row % queryLen;
    const last = causal ? Math.min(keyLen, Math.max(0, offset + i + 1)) : keyLen;
    if (last === 0) continue;
    const values = scores.subarray(row * keyLen, row * keyLen + last);
    const max = Math.max(...values);
    let sum = 0;
    for (const v of values) sum += Math.exp(v - max);
    for (let j = 0; j < last; j++) out[row * keyLen + j] = Math.exp(values[j] - max) / sum;
  }
  return out;
}

function randomInputs(seed, o) {
  const { numHeads = 1, queryLen, keyLen, headDim } = o;
  return {
    q: Float32Array.from(randomNormal(numHeads * queryLen * headDim, seed)),
    k: Float32Array.from(randomNormal(numHeads * keyLen * headDim, seed + 1000)),
  };
}

for (const posenc of await loadBothVariants()) {
  describe(`attentionScores (${posenc.variant})`, () => {
    const shape = { numHeads: 3, queryLen: 5, keyLen: 11, headDim: 10 };

    it('every encoding against the float64 reference (raw scores), tails off every SIMD width', () => {
      const { q, k } = randomInputs(1, shape);
      const cases = [
        { encoding: 'none' },
        { encoding: 'none', scale: -0.3, offset: -7 },
        { encoding: 'sinusoidal' },
        { encoding: 'sinusoidal', layout: 'concat', base: 100, offset: 1000 },
        { encoding: 'rope' },
        { encoding: 'rope', layout: 'half', rotaryDim: 6, base: 500000, offset: 70000 },
        { encoding: 'alibi' },
        { encoding: 'alibi', maxBias: 16, offset: -2 },
        { encoding: 'xpos' },
        { encoding: 'xpos', layout: 'half', rotaryDim: 6, xpos: { scaleBase: 64, gamma: 0.2 }, offset: 900 },
        { encoding: 'xpos', xpos: { center: 20000 }, offset: 30000 },
      ];
      for (const extra of cases) {
        const o = { ...shape, ...extra };
        const got = posenc.attentionScores(q, k, o);
        const want = reference(q, k, o);
        assertClose(got, want.scores, (i) => want.bounds[i], JSON.stringify(extra));
      }
    });

    it('xpos: rope with xPos per side (queries up, keys down) about one center, then the scaled dot', () => {
      const o = { ...shape, encoding: 'xpos', offset: 40, xpos: { gamma: 0.3 } };
      const { q, k } = randomInputs(7, o);
      const got = posenc.attentionScores(q, k, o);
      const center = Math.ceil(Math.max(o.offset + o.queryLen, o.keyLen) / 2);
      const side = (x, rows, offset, role) =>
        posenc.rope(x.slice(), {
          seqLen: rows,
          numHeads: o.numHeads,
          headDim: o.headDim,
          order: 'heads',
          offset,
          xpos: { ...o.xpos, role, center },
        });
      const qe = side(q, o.queryLen, o.offset, 'query');
      const ke = side(k, o.keyLen, 0, 'key');
      const scale = 1 / Math.sqrt(o.headDim);
      for (let h = 0; h < o.numHeads; h++) {
        const rows = (x, n) => x.subarray(h * n * o.headDim, (h + 1) * n * o.headDim);
        const dots = posenc.similarity(rows(qe, o.queryLen), rows(ke, o.keyLen), {
          rows: o.queryLen,
          cols: o.keyLen,
          dim: o.headDim,
        });
        const head = got.subarray(h * o.queryLen * o.keyLen, (h + 1) * o.queryLen * o.keyLen);
        assertClose(
          head,
          Float64Array.from(dots, (d) => Math.fround(scale * d)),
          () => 0,
          `head ${h}: the same bits`,
        );
      }
      // The scores of constant rows decay with the distance: xPos below RoPE's magnitude, farther more.
      const ones = { ...shape, numHeads: 1, queryLen: 1, keyLen: 64, offset: 63 };
      const row = Float32Array.from({ length: 10 }, (_, i) => (i % 2 ? 0 : 1));
      const keys = Float32Array.from({ length: 64 * 10 }, (_, i) => row[i % 10]);
      const plain = posenc.attentionScores(row, keys, { ...ones, encoding: 'rope', scale: 1 });
      const decayed = posenc.attentionScores(row, keys, { ...ones, encoding: 'xpos', scale: 1 });
      assert.equal(decayed[63], plain[63], 'no decay at distance 0');
      assert.ok(Math.abs(decayed[0]) < Math.abs(plain[0]) || Math.abs(plain[0]) < 1e-6, 'decay at distance 63');
    });

    it('t5: none + table[bucket] bit for bit at scale 1, and the float64 reference', () => {
      const { q, k } = randomInputs(2, shape);
      for (const extra of [{ offset: 0 }, { offset: 40, bidirectional: false, numBuckets: 16, maxDistance: 30 }]) {
        const buckets = posenc.relativePositionBuckets({
          queryLen: shape.queryLen,
          keyLen: shape.keyLen,
          offset: extra.offset,
          numBuckets: extra.numBuckets,
          maxDistance: extra.maxDistance,
          bidirectional: extra.bidirectional,
        });
        const bias = Float32Array.from(randomNormal((extra.numBuckets ?? 32) * shape.numHeads, 3));
        const o = { ...shape, ...extra, encoding: 't5', bias, scale: 1 };
        const got = posenc.attentionScores(q, k, o);
        const none = posenc.attentionScores(q, k, { ...shape, encoding: 'none', scale: 1, offset: extra.offset });
        const want = reference(q, k, o, buckets);
        assertClose(got, want.scores, (i) => want.bounds[i], `t5 ${JSON.stringify(extra)}`);
        const { numHeads, queryLen, keyLen } = shape;
        for (let at = 0; at < got.length; at++) {
          const h = Math.floor(at / (queryLen * keyLen));
          const ij = at % (queryLen * keyLen);
          assert.equal(got[at], Math.fround(none[at] + bias[buckets[ij] * numHeads + h]), `t5 [${at}]`);
        }
      }
    });

    it('alibi: none + slope · (j - (offset + i)) bit for bit at scale 1', () => {
      const { q, k } = randomInputs(4, shape);
      const slopes = posenc.alibiSlopes({ numHeads: shape.numHeads });
      for (const offset of [-3, 0, 6, 100000]) {
        const got = posenc.attentionScores(q, k, { ...shape, encoding: 'alibi', scale: 1, offset });
        const none = posenc.attentionScores(q, k, { ...shape, encoding: 'none', scale: 1, offset });
        const { queryLen, keyLen } = shape;
        for (let at = 0; at < got.length; at++) {
          const h = Math.floor(at / (queryLen * keyLen));
          const i = Math.floor(at / keyLen) % queryLen;
          const j = at % keyLen;
          assert.equal(got[at], Math.fround(none[at] + slopes[h] * (j - (offset + i))), `offset ${offset} [${at}]`);
        }
      }
    });

    it('softmax: rows of the raw scores, stable, summing to 1; causal keys exactly 0, -Infinity raw', () => {
      const { q, k } = randomInputs(5, shape);
      for (const scaleUp of [1, 30]) {
        const big = q.map((v) => v * scaleUp); // scores in the hundreds: exp would overflow without the max
        for (const encoding of ['none', 'rope', 'alibi']) {
          for (const causal of [false, true]) {
            const o = { ...shape, encoding, causal };
            const raw = posenc.attentionScores(big, k, o);
            const weights = posenc.attentionScores(big, k, { ...o, softmax: true });
            const want = softmaxRows(raw, { ...shape, causal, offset: shape.keyLen - shape.queryLen });
            // float32 exp (1.5 ulps) of a float32 difference, normalised in float64
            assertClose(
              weights,
              want,
              (i) => want[i] * (Math.abs(Math.log(want[i] || 1)) + 4) * U32 + 2 ** -126,
              `${encoding} ${causal}`,
            );
            for (let row = 0; row < weights.length / shape.keyLen; row++) {
              let sum = 0;
              for (let j = 0; j < shape.keyLen; j++) {
                const at = row * shape.keyLen + j;
                sum += weights[at];
                const masked = causal && j > shape.keyLen - shape.queryLen + (row % shape.queryLen);
                if (masked) {
                  assert.ok(Object.is(weights[at], 0), `masked weight [${at}] is +0`);
                  assert.equal(raw[at], -Infinity, `masked score [${at}]`);
                }
              }
              assert.ok(Math.abs(sum - 1) <= (shape.keyLen + 4) * U32, `row ${row} sums to ${sum}`);
            }
          }
        }
      }
    });

    it('a row with every key masked (negative offset, causal) is all 0, never NaN', () => {
      const o = { numHeads: 2, queryLen: 4, keyLen: 2, headDim: 4, encoding: 'alibi', causal: true, softmax: true };
      const { q, k } = randomInputs(6, o);
      const weights = posenc.attentionScores(q, k, o); // offset -2: rows 0 and 1 see nothing
      for (let h = 0; h < 2; h++) {
        assert.deepEqual(Array.from(weights.subarray(h * 8, h * 8 + 4)), [0, 0, 0, 0]);
        assert.ok(Math.abs(weights[h * 8 + 4] - 1) <= U32, 'row 2 sees key 0 only');
      }
      assert.ok(!weights.some(Number.isNaN));
    });

    it("order 'tokens' gives the bits of order 'heads'; WasmArray inputs and out give the bits of JS arrays", () => {
      const o = { ...shape, encoding: 'rope' };
      const { q, k } = randomInputs(7, o);
      const want = posenc.attentionScores(q, k, o);
      const toTokens = (x, rows) => {
        const out = new Float32Array(x.length);
        for (let h = 0; h < shape.numHeads; h++)
          for (let r = 0; r < rows; r++)
            for (let c = 0; c < shape.headDim; c++)
              out[(r * shape.numHeads + h) * shape.headDim + c] = x[(h * rows + r) * shape.headDim + c];
        return out;
      };
      const tokens = posenc.attentionScores(toTokens(q, shape.queryLen), toTokens(k, shape.keyLen), {
        ...o,
        order: 'tokens',
      });
      assert.deepEqual(tokens, want);
      const wq = posenc.allocate(q);
      const wk = posenc.allocate(k);
      const wout = posenc.allocate(want.length);
      try {
        assert.equal(posenc.attentionScores(wq, wk, { ...o, out: wout }), wout);
        assert.deepEqual(wout.toArray(), want);
        // q and k may be the same array (self-attention of identical rows); only out must be apart
        const self = { ...o, keyLen: shape.queryLen };
        const out = new Float32Array(shape.numHeads * shape.queryLen * shape.queryLen);
        assert.equal(posenc.attentionScores(q, q, { ...self, out }), out);
        assert.deepEqual(out, posenc.attentionScores(q, Float32Array.from(q), self));
      } finally {
        wq.free();
        wk.free();
        wout.free();
      }
    });

    it('golden vectors: transformers LLaMA rope, BLOOM alibi, T5 bias (torch, float32 and float64)', (t) => {
      const worst = {};
      for (const c of golden.cases) {
        const o = {
          numHeads: c.numHeads,
          queryLen: c.queryLen,
          keyLen: c.keyLen,
          headDim: c.headDim,
          offset: c.offset,
          causal: c.causal,
          encoding: c.encoding,
        };
        if (c.encoding === 'rope') Object.assign(o, { layout: 'half', base: c.base });
        if (c.encoding === 't5') {
          Object.assign(o, { scale: 1, bias: Float32Array.from(c.bias), numBuckets: c.numBuckets });
          Object.assign(o, { maxDistance: c.maxDistance, bidirectional: c.bidirectional });
        }
        const q = Float32Array.from(c.q);
        const k = Float32Array.from(c.k);
        const label = `${c.encoding} ${c.numHeads}x${c.queryLen}x${c.keyLen}x${c.headDim} offset ${c.offset}`;
        const note = (name, got, want) => {
          let w = 0;
          for (let i = 0; i < got.length; i++) w = Math.max(w, Math.abs(got[i] - want[i]));
          worst[`${c.encoding} ${name}`] = Math.max(worst[`${c.encoding} ${name}`] ?? 0, w);
        };
        if (c.scores64) {
          const raw = posenc.attentionScores(q, k, { ...o, causal: false }); // torch's raw scores are unmasked
          const buckets =
            c.encoding === 't5'
              ? posenc.relativePositionBuckets({
                  queryLen: c.queryLen,
                  keyLen: c.keyLen,
                  offset: c.offset,
                  numBuckets: c.numBuckets,
                  maxDistance: c.maxDistance,
                  bidirectional: c.bidirectional,
                })
              : undefined;
          const want = reference(q, k, o, buckets);
          assertClose(raw, c.scores64, (i) => want.bounds[i], `${label}: raw vs torch float64`);
          note('raw vs float64', raw, c.scores64);
          note('raw vs float32', raw, c.scores32);
        }
        const weights = posenc.attentionScores(q, k, { ...o, softmax: true });
        assertClose(
          weights,
          c.weights64,
          (i) => 1e-5 * c.weights64[i] + 2 ** -126,
          `${label}: weights vs torch float64`,
        );
        note('weights vs float64', weights, c.weights64);
        note('weights vs float32', weights, c.weights32);
      }
      t.diagnostic(
        `largest |posenc - torch| (${posenc.variant}): ${JSON.stringify(worst, (_, v) => (typeof v === 'number' ? Number(v.toExponential(2)) : v))}`,
      );
    });
  });
}
