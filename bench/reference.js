// The correctness check every case runs before it is timed: posenc's result against the
// float64 reference of the test suite (tests/js/reference.js, written from the formulas),
// with the precision contract (tests/precision.json) as the tolerance. Each check returns
//   { ok, worst: largest error / allowed error, maxAbsError }
// so a report can say how close to the bound a result is, not only whether it passed.
import {
  absDot,
  dot,
  forEachRopePair,
  ropeCacheReference,
  ropeReference,
  similarityReference,
  sinusoidalReference,
  xposReference,
  xposScales,
} from '../tests/js/reference.js';
import precision from '../tests/precision.json' with { type: 'json' };
import { HALF_FORMATS, halfUlp } from './half-bits.js';
import t5Buckets from '../tests/golden/t5-buckets.json' with { type: 'json' };

const FLOAT32_HALF_ULP = 2 ** -24; // relative rounding error of one float32 rounding
const SINUSOID_BOUND = precision.tableBound; // |value - float64 value|, positions < 2^24, dModel <= 8192
const ROPE_BOUND = precision.ropeBound; // |component - float64 component| / (|x_a| + |x_b|)

/** inv_freq[i] = 1 / base^(2i / dim), i < dim/2, in float64 (for the plain-JS baselines). */
export function inverseFrequencies(dim, base = 10000) {
  const frequencies = new Float64Array(dim / 2);
  for (let i = 0; i < frequencies.length; i++) frequencies[i] = 1 / Math.pow(base, (2 * i) / dim);
  return frequencies;
}

const NO_ROUNDING = () => 0;

/**
 * What storing a result in `dtype` adds to its error: nothing for float32 (the contract's bounds
 * include its rounding), half a unit in the last place of float16 / bfloat16 at that magnitude.
 */
export function storageRounding(dtype = 'float32') {
  if (dtype === 'float32') return NO_ROUNDING;
  const { format } = HALF_FORMATS[dtype];
  return (magnitude) => halfUlp(magnitude, format);
}

/** Accumulates the worst error/bound ratio of a result. */
class ErrorTally {
  worst = 0;
  maxAbsError = 0;

  add(got, expected, bound) {
    const error = Math.abs(got - expected);
    if (!(error <= this.maxAbsError)) this.maxAbsError = Number.isNaN(error) ? Infinity : error;
    const ratio = bound > 0 ? error / bound : error === 0 ? 0 : Infinity;
    if (!(ratio <= this.worst)) this.worst = Number.isNaN(ratio) ? Infinity : ratio;
  }

  result() {
    return { ok: this.worst <= 1, worst: this.worst, maxAbsError: this.maxAbsError };
  }
}

/**
 * Rotated x ([seqLen, numHeads, headDim]) against the float64 rotation of x0: each rotated
 * component within 5e-7 (|x_a| + |x_b|) of its pair's float64 result (times xPos's scale, with
 * options.xpos); channels at or beyond rotaryDim passed through unchanged.
 */
export function checkRope(got, x0, options, expected = ropeReference(x0, options), rounding = NO_ROUNDING) {
  const rotated = new Uint8Array(x0.length);
  const tally = new ErrorTally();
  const scale = xposScales(options);
  forEachRopePair(options, (a, b, pair, row) => {
    const bound = ROPE_BOUND * scale(pair, row) * (Math.abs(x0[a]) + Math.abs(x0[b]));
    tally.add(got[a], expected[a], bound + rounding(Math.abs(expected[a]) + bound));
    tally.add(got[b], expected[b], bound + rounding(Math.abs(expected[b]) + bound));
    rotated[a] = rotated[b] = 1;
  });
  for (let i = 0; i < x0.length; i++) if (!rotated[i]) tally.add(got[i], x0[i], 0);
  return tally.result();
}

/**
 * The float64 rotation of x0 ([seqLen, numHeads, headDim]) by several axes: pair k turns by
 * where[axisOf[k]][row] · invFreq[k] (M-RoPE's three rows, an image grid's row and column).
 */
export function axisRopeReference(x0, shape, invFreq, axisOf, where) {
  const out = Float64Array.from(x0);
  forEachRopePair(shape, (a, b, pair, row) => {
    const theta = where[axisOf[pair]][row] * invFreq[pair];
    const c = Math.cos(theta);
    const s = Math.sin(theta);
    out[a] = x0[a] * c - x0[b] * s;
    out[b] = x0[a] * s + x0[b] * c;
  });
  return out;
}

/**
 * checkRope for every variant of a case: the float64 rotation is computed once, on first use.
 * With a 16-bit dtype, x0 and each result are widened values, and the bound adds the rounding.
 */
export function ropeChecker(x0, options, dtype) {
  let expected = null;
  return (got) => {
    expected ??= options.xpos ? xposReference(x0, options) : ropeReference(x0, options);
    return checkRope(got, x0, options, expected, storageRounding(dtype));
  };
}

/** The float64 sinusoidal table [seqLen, dModel], interleaved (sin at 2i, cos at 2i+1). */
export function sinusoidalTable(options) {
  return sinusoidalReference(options);
}

/** Every value within 2.5e-7 of the float64 table (plus the rounding of a 16-bit dtype). */
export function checkSinusoidal(got, table, dtype) {
  const rounding = storageRounding(dtype);
  const tally = new ErrorTally();
  for (let i = 0; i < table.length; i++) tally.add(got[i], table[i], SINUSOID_BOUND + rounding(Math.abs(table[i])));
  return tally.result();
}

/** x0 + table, where the table may be off by its bound and the sum by one float32 rounding. */
export function checkAddSinusoidal(got, x0, table) {
  const tally = new ErrorTally();
  for (let i = 0; i < table.length; i++) {
    const expected = x0[i] + table[i];
    tally.add(got[i], expected, SINUSOID_BOUND + FLOAT32_HALF_ULP * Math.abs(expected));
  }
  return tally.result();
}

/** cos and sin [seqLen, rotaryDim/2] of position * inv_freq, each within 2.5e-7 (plus a 16-bit dtype's rounding). */
export function checkRopeCache({ cos, sin }, options, dtype) {
  const rounding = storageRounding(dtype);
  const expected = ropeCacheReference(options);
  const tally = new ErrorTally();
  for (let i = 0; i < expected.cos.length; i++) {
    tally.add(cos[i], expected.cos[i], SINUSOID_BOUND + rounding(Math.abs(expected.cos[i])));
    tally.add(sin[i], expected.sin[i], SINUSOID_BOUND + rounding(Math.abs(expected.sin[i])));
  }
  return tally.result();
}

/**
 * Dot products of the rows of a [rows, dim] and b [cols, dim]. No contract bounds them, so
 * the bound is the worst case of float32 summation in any order:
 * (dim + 1) * 2^-24 * sum_k |a_k b_k|.
 */
export function checkSimilarityDot(got, a, b, shape) {
  const { rows, cols, dim } = shape;
  const expected = similarityReference(a, b, shape);
  const tally = new ErrorTally();
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const bound = (dim + 1) * FLOAT32_HALF_ULP * absDot(a, b, dim, r * dim, c * dim);
      tally.add(got[r * cols + c], expected[r * cols + c], bound);
    }
  }
  return tally.result();
}

/** ALiBi slopes, the paper's rule in float64 (the power-of-two rule, then the odd steps of 2c). */
export function alibiSlopesReference(numHeads, maxBias = 8) {
  let closest = 1;
  while (closest * 2 <= numHeads) closest *= 2;
  return Float64Array.from({ length: numHeads }, (_, h) =>
    h < closest ? 2 ** -(maxBias * ((h + 1) / closest)) : 2 ** -(maxBias * ((2 * (h - closest) + 1) / (2 * closest))),
  );
}

/**
 * An ALiBi bias [numHeads, queryLen, keyLen] against slope · (j − (offset + i)) in float64:
 * within half a float32 ulp (the one rounding) plus the slope's float64 error.
 */
export function checkAlibiBias(got, { numHeads, queryLen, keyLen, offset = keyLen - queryLen, maxBias = 8 }) {
  const slopes = alibiSlopesReference(numHeads, maxBias);
  const tally = new ErrorTally();
  for (let h = 0; h < numHeads; h++) {
    for (let i = 0; i < queryLen; i++) {
      const row = (h * queryLen + i) * keyLen;
      for (let j = 0; j < keyLen; j++) {
        const expected = slopes[h] * (j - (offset + i));
        tally.add(got[row + j], expected, Math.abs(expected) * (FLOAT32_HALF_ULP + 2 ** -50));
      }
    }
  }
  return tally.result();
}
/**
 * Buckets [calls, queryLen, keyLen] (each call at offset 0) against torch's buckets of T5's
 * defaults (tests/golden/t5-buckets.json, every n in [-2^20, 2^20]): exact, no tolerance.
 */
export function checkRelativePositionBuckets(got, { calls, queryLen, keyLen }) {
  const golden = t5Buckets.configs.find((c) => c.numBuckets === 32 && c.maxDistance === 128 && c.bidirectional);
  const bucketOf = (n) => {
    let run = 0;
    while (run + 1 < golden.runs.length && golden.runs[run + 1][0] <= n) run++;
    return golden.runs[run][1];
  };
  const line = new Int32Array(queryLen + keyLen - 1); // bucket of n = j - i, at n + queryLen - 1
  for (let k = 0; k < line.length; k++) line[k] = bucketOf(k - (queryLen - 1));
  const tally = new ErrorTally();
  for (let call = 0; call < calls; call++) {
    for (let i = 0; i < queryLen; i++) {
      const row = (call * queryLen + i) * keyLen;
      for (let j = 0; j < keyLen; j++) tally.add(got[row + j], line[j - i + queryLen - 1], 0);
    }
  }
  return tally.result();
}

/**
 * attentionScores [1, n, n] of q and k ([n, dim] each, one head) under `encoding` ('rope' at
 * positions 0 … n − 1, 'alibi'), scale 1/sqrt(dim), raw or softmax weights, against the float64
 * rotation and dot products: raw within (dim + 16) u scale |q| |k| + u |bias|; weights within
 * w (2 · the row's largest raw bound + (|s − max| + 4) u) + 2^-126 of the float64 softmax.
 */
export function checkAttentionScores(got, q, k, { encoding, softmax, n, dim }) {
  const scale = 1 / Math.sqrt(dim);
  const rows = { seqLen: n, headDim: dim };
  const qe = encoding === 'rope' ? ropeReference(q, rows) : q;
  const ke = encoding === 'rope' ? ropeReference(k, rows) : k;
  const slope = alibiSlopesReference(1)[0];
  const tally = new ErrorTally();
  const raw = new Float64Array(n);
  const bounds = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const bias = encoding === 'alibi' ? slope * (j - i) : 0;
      raw[j] = scale * dot(qe, ke, dim, i * dim, j * dim) + bias;
      const norms = Math.sqrt(dot(qe, qe, dim, i * dim, i * dim) * dot(ke, ke, dim, j * dim, j * dim));
      bounds[j] = (dim + 16) * FLOAT32_HALF_ULP * scale * norms + FLOAT32_HALF_ULP * Math.abs(bias);
    }
    if (!softmax) {
      for (let j = 0; j < n; j++) tally.add(got[i * n + j], raw[j], bounds[j]);
      continue;
    }
    let max = -Infinity;
    let worstBound = 0;
    for (let j = 0; j < n; j++) {
      max = Math.max(max, raw[j]);
      worstBound = Math.max(worstBound, bounds[j]);
    }
    let sum = 0;
    for (let j = 0; j < n; j++) sum += Math.exp(raw[j] - max);
    for (let j = 0; j < n; j++) {
      const w = Math.exp(raw[j] - max) / sum;
      tally.add(got[i * n + j], w, w * (2 * worstBound + (max - raw[j] + 4) * FLOAT32_HALF_ULP) + 2 ** -126);
    }
  }
  return tally.result();
}
