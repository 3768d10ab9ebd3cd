// One attention head in float64, for the tests of the family section and of <posenc-attention>:
// the documented contents (tokens.js's seeded vectors), each encoding from its formula, the
// causal mask and the softmax, independent of posenc's attentionScores.
import { randomMatrix, randomQueryKey } from '../../../widgets/tokens.js';
import { posenc } from './reference.js';

/** The family section's defaults (and <posenc-attention>'s). */
export const FAMILY_DEFAULTS = {
  n: 128,
  l0: 32,
  d: 32,
  seed: 7,
  content: 'qk',
  view: 'scores',
  causal: false,
  head: 4,
};

/** The page's documented inputs: one seeded query and key at every position, or one pair per token. */
export function referenceContents({ content, seed, n, d }) {
  if (content === 'tokens') {
    const rows = randomMatrix(seed, 2 * n, d);
    return { q: (m) => rows.subarray(m * d, (m + 1) * d), k: (j) => rows.subarray((n + j) * d, (n + j + 1) * d) };
  }
  const { q, k } = randomQueryKey(seed, d);
  return { q: () => q, k: () => k };
}

/**
 * One panel in float64: per pair i, the rotated (RoPE, interleaved pairs, base 10000) dot product,
 * times xPos's ζ_i^((m − n)/32) for 'xpos'; the sum over √d; plus ALiBi's 2^(−head)·(n − m) or the
 * T5 bias of the bucket; -Infinity above the diagonal under a causal mask; softmax per row.
 * T5's bias is `t5Bias[bucket]` where the options give a table (one direction: T5's decoder
 * buckets, mask or not), else the element's documented stand-in: 0 at distance 0 falling linearly
 * to −4 at the last bucket of each direction (the decoder's buckets under the mask, else the encoder's).
 */
export function attentionReference(encoding, options) {
  const { n, d, view, causal, head, t5Bias } = { ...FAMILY_DEFAULTS, ...options };
  const { q, k } = referenceContents({ ...FAMILY_DEFAULTS, ...options });
  const bidirectional = !t5Bias && !causal;
  const numBuckets = t5Bias ? t5Bias.length : 32;
  const buckets = posenc.relativePositionBuckets({ queryLen: n, keyLen: n, numBuckets, bidirectional });
  const perDirection = bidirectional ? 16 : 32;
  const t5 = (bucket) => (t5Bias ? t5Bias[bucket] : (-4 * (bucket % perDirection)) / (perDirection - 1));
  const out = new Float64Array(n * n);
  for (let m = 0; m < n; m++) {
    for (let j = 0; j < n; j++) {
      if (causal && j > m) {
        out[m * n + j] = -Infinity;
        continue;
      }
      const a = q(m);
      const b = k(j);
      let dot = 0;
      for (let i = 0; i < d / 2; i++) {
        const w = 10000 ** ((-2 * i) / d);
        const [a0, a1, b0, b1] = [a[2 * i], a[2 * i + 1], b[2 * i], b[2 * i + 1]];
        if (encoding === 'rope' || encoding === 'xpos') {
          const [cm, sm, cn, sn] = [Math.cos(m * w), Math.sin(m * w), Math.cos(j * w), Math.sin(j * w)];
          let term = (a0 * cm - a1 * sm) * (b0 * cn - b1 * sn) + (a0 * sm + a1 * cm) * (b0 * sn + b1 * cn);
          if (encoding === 'xpos') term *= (((2 * i) / d + 0.4) / 1.4) ** ((m - j) / 32);
          dot += term;
        } else dot += a0 * b0 + a1 * b1;
      }
      let score = dot / Math.sqrt(d);
      if (encoding === 'alibi') score += 2 ** -head * (j - m);
      if (encoding === 't5') score += t5(buckets[m * n + j]);
      out[m * n + j] = score;
    }
  }
  if (view === 'weights') {
    for (let m = 0; m < n; m++) {
      const row = out.subarray(m * n, (m + 1) * n);
      const max = Math.max(...row);
      let sum = 0;
      for (let j = 0; j < n; j++) sum += row[j] === -Infinity ? 0 : Math.exp(row[j] - max);
      for (let j = 0; j < n; j++) row[j] = row[j] === -Infinity ? 0 : Math.exp(row[j] - max) / sum;
    }
  }
  return out;
}
