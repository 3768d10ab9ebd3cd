// <posenc-attention>: one head's attention over query positions m (rows) and key positions n
// (columns) under one encoding of the family (none, sinusoidal, RoPE, xPos, ALiBi, T5 buckets), as
// raw scores or softmax weights, with or without a causal mask, dashed lines at a training length
// L0: a panel of the tutorial's family section. The matrix is one posenc.attentionScores call.
// Attributes: encoding, seq-len, l0, head-dim, content (qk | tokens), seed, view (scores | weights),
// causal (off | on), head (ALiBi's head of 8), domain, t5-bias.
// `t5-bias` is a learned T5 bias of one head, one value per bucket of one direction (a causal
// decoder's table, bidirectional: false, maxDistance 128): the tutorial gives its T5 panel the
// trained T5 model's. Without it a made-up stand-in table is used (t5StandInBias).
// `domain` ("lo,hi") fixes the colour scale, so a page showing several encodings side by side gives
// every element the same domain (the family section sets the six panels' shared one); without it a
// panel scales to its own numbers: scores symmetric about 0 up to the largest finite |score|,
// weights 0 to their 99th percentile.
// posenc-pick's detail: { row, col, m, n, value, text }.
import { choiceControl, numberControl } from '../controls.js';
import { formatSig, formatSigText } from '../format.js';
import { createHeatmap } from '../plots/heatmap.js';
import { randomMatrix, randomQueryKey } from '../tokens.js';
import { range, tile } from '../vectors.js';
import { defineElement, PosencElement } from './element.js';
import { numberSetting, seedSetting } from './settings.js';

// ALiBi's slopes are those of an 8-head model (posenc.alibiSlopes); the reader picks the head.
export const ALIBI_HEADS = 8;

export const ENCODINGS = [
  // No positions at all: NoPE when a causal mask is on (its only clue to order), a bag of tokens without.
  { key: 'none', title: 'none (no positions)' },
  { key: 'sinusoidal', title: 'sinusoidal' },
  { key: 'rope', title: 'RoPE' },
  { key: 'xpos', title: 'xPos' },
  { key: 'alibi', title: 'ALiBi' },
  { key: 't5', title: 'T5 buckets' },
];

// T5's bucketing, posenc's defaults (T5's own: 32 buckets, max_distance 128).
export const T5_BUCKETS = 32;
export const T5_MAX_DISTANCE = 128;
// The stand-in bias falls linearly from 0 (distance 0) to this at the farthest bucket.
export const T5_STAND_IN_FLOOR = -4;

// xPos's scale enters only as distance / scaleBase. torchscale's 512 (the trained xPos model's too)
// is made for thousands of positions: over a panel's 128 it moves a score by a few per cent and the
// panel looks like RoPE's. 32 over 128 positions is the decay 512 gives over 2048.
export const XPOS_PANEL_SCALE_BASE = 32;

// Above this share of the weights the colour scale saturates (see weightDomain).
const WEIGHT_SCALE_QUANTILE = 0.99;

/**
 * A deterministic stand-in for T5's learned relative_attention_bias of one head, [numBuckets, 1]:
 * a bucket's bias falls linearly with its rank among the buckets of its direction (rank 0 is
 * distance 0; ranks grow with the distance, log-spaced past numBuckets / 4 or / 2), from 0 to
 * T5_STAND_IN_FLOOR. The two directions of a bidirectional table get the same values.
 */
export function t5StandInBias(numBuckets, bidirectional) {
  const perDirection = bidirectional ? numBuckets / 2 : numBuckets;
  return Float32Array.from(
    range(numBuckets),
    (bucket) => (T5_STAND_IN_FLOOR * (bucket % perDirection)) / (perDirection - 1),
  );
}

/** The query and key rows [n, d]: one random pair at every position, or a random pair per token. */
export function familyContents(content, seed, n, d) {
  if (content === 'tokens') {
    const rows = randomMatrix(seed, 2 * n, d);
    return { q: rows.subarray(0, n * d), k: rows.subarray(n * d) };
  }
  const { q, k } = randomQueryKey(seed, d);
  return { q: tile(q, n), k: tile(k, n) };
}

/** The options of each encoding's attentionScores call, beyond shape, scale, causal and softmax. */
export function encodingOptions(key, { head, causal, t5Bias = [] }) {
  switch (key) {
    case 'alibi':
      // One head whose slope is 2^(−maxBias): head `head` of an 8-head model (2^(−8·head/8)).
      return { encoding: 'alibi', maxBias: (8 * head) / ALIBI_HEADS };
    case 't5':
      // A given table is one direction's: keys after the query fall in bucket 0, as in T5's decoder.
      if (t5Bias.length > 0)
        return {
          encoding: 't5',
          bias: Float32Array.from(t5Bias),
          numBuckets: t5Bias.length,
          maxDistance: T5_MAX_DISTANCE,
          bidirectional: false,
        };
      // The stand-in follows the mask: T5's decoder (causal) buckets one direction only, its encoder both.
      return {
        encoding: 't5',
        bias: t5StandInBias(T5_BUCKETS, !causal),
        numBuckets: T5_BUCKETS,
        bidirectional: !causal,
      };
    case 'xpos':
      return { encoding: 'xpos', xpos: { scaleBase: XPOS_PANEL_SCALE_BASE } };
    default:
      return { encoding: key };
  }
}

/** Diverging scale for raw scores: symmetric about 0, reaching the largest finite |score|. */
export function scoreDomain(matrices) {
  let max = 0;
  for (const values of matrices)
    for (let i = 0; i < values.length; i++) {
      const a = Math.abs(values[i]);
      if (a > max && a !== Infinity) max = a;
    }
  return max === 0 ? [-1, 1] : [-max, max];
}

/**
 * The k-th smallest (0-based) of the values of several arrays, all ≥ 0, without sorting them all
 * (a sort of 6 × 256² weights costs tens of milliseconds): count the values into bins over
 * [0, max], then sort only the bin that holds the k-th.
 */
function kthSmallest(arrays, k) {
  const BINS = 4096;
  let max = 0;
  for (const values of arrays) for (let i = 0; i < values.length; i++) if (values[i] > max) max = values[i];
  if (!(max > 0)) return 0;
  const scale = BINS / max;
  const counts = new Uint32Array(BINS);
  for (const values of arrays)
    for (let i = 0; i < values.length; i++) counts[Math.min(BINS - 1, (values[i] * scale) | 0)]++;
  let bin = 0;
  let below = 0;
  while (below + counts[bin] <= k) below += counts[bin++];
  const inBin = [];
  for (const values of arrays)
    for (let i = 0; i < values.length; i++)
      if (Math.min(BINS - 1, (values[i] * scale) | 0) === bin) inBin.push(values[i]);
  inBin.sort((a, b) => a - b);
  return inBin[k - below];
}

/**
 * Sequential scale for weights: 0 to the 99th percentile of all panels' weights. A causal mask
 * gives the first rows a few large weights (row 0 has one key: weight 1) that would darken
 * everything else; the top 1 % saturate instead.
 */
export function weightDomain(matrices) {
  const count = matrices.reduce((sum, m) => sum + m.length, 0);
  const top = kthSmallest(matrices, Math.floor(WEIGHT_SCALE_QUANTILE * (count - 1)));
  return [0, top > 0 ? top : 1];
}

// The family section and its six panels ask for the same matrices in the same animation frame
// (the section for its curves and shared colour scale, each panel for its picture): the latest
// few are kept, per posenc instance and keyed by their inputs, so each is computed once. Callers
// only read them.
// Two of the family's animation frames: six encodings' scores and weights each.
const RECENT_MATRICES = 24;
const recentMatrices = new WeakMap(); // posenc -> Map(key -> Float32Array), oldest first

/** One head's [n, n] scores (or softmax weights) under one encoding: one posenc.attentionScores call. */
export function attentionMatrix(posenc, { encoding, n, d, content, seed, view, causal, head, t5Bias = [] }) {
  const key = [encoding, n, d, content, seed, view, causal, head, encoding === 't5' ? t5Bias.join(',') : ''].join(' ');
  if (!recentMatrices.has(posenc)) recentMatrices.set(posenc, new Map());
  const recent = recentMatrices.get(posenc);
  let matrix = recent.get(key);
  if (!matrix) {
    const { q, k } = familyContents(content, seed, n, d);
    matrix = posenc.attentionScores(q, k, {
      queryLen: n,
      keyLen: n,
      headDim: d,
      scale: 1 / Math.sqrt(d),
      causal,
      softmax: view === 'weights',
      ...encodingOptions(encoding, { head, causal, t5Bias }),
    });
    if (recent.size === RECENT_MATRICES) recent.delete(recent.keys().next().value);
  }
  recent.delete(key); // most recent last
  recent.set(key, matrix);
  return matrix;
}

/** Radio options from [value, label] pairs. */
const options = (pairs) => pairs.map(([value, label]) => ({ value, label }));

export class Attention extends PosencElement {
  static settings = {
    encoding: {
      spec: { type: 'enum', default: 'rope', values: ENCODINGS.map(({ key }) => key) },
      control: (state, key) =>
        choiceControl(state, key, {
          label: 'encoding',
          options: ENCODINGS.map(({ key: value, title: label }) => ({ value, label })),
        }),
    },
    'seq-len': numberSetting({ type: 'int', default: 128, min: 16, max: 256 }, 'positions N'),
    l0: {
      spec: {
        type: 'int',
        default: 32,
        min: 4,
        max: 128,
        maxFrom: (get) => Math.floor(get('seq-len') / 2),
        maxNote: 'the training length is at most half of seq-len',
      },
      control: (state, key) => numberControl(state, key, { label: 'training length L0' }),
    },
    'head-dim': numberSetting({ type: 'int', default: 32, min: 4, max: 64, even: true }, 'head dimension d'),
    content: {
      spec: { type: 'enum', default: 'qk', values: ['qk', 'tokens'] },
      control: (state, key) =>
        choiceControl(state, key, {
          label: 'token contents',
          options: options([
            ['qk', 'one random query and key, at every position'],
            ['tokens', 'a random query and key per token'],
          ]),
        }),
    },
    seed: seedSetting(),
    view: {
      spec: { type: 'enum', default: 'scores', values: ['scores', 'weights'] },
      control: (state, key) =>
        choiceControl(state, key, {
          label: 'show',
          options: options([
            ['scores', 'raw scores'],
            ['weights', 'softmax weights'],
          ]),
        }),
    },
    causal: {
      spec: { type: 'enum', default: 'off', values: ['off', 'on'] },
      control: (state, key) =>
        choiceControl(state, key, {
          label: 'causal mask',
          options: options([
            ['off', 'off'],
            ['on', 'on'],
          ]),
        }),
    },
    head: {
      spec: { type: 'int', default: 4, min: 1, max: ALIBI_HEADS },
      control: (state, key) => numberControl(state, key, { label: `ALiBi head (of ${ALIBI_HEADS})` }),
    },
    // Empty: the panel's own scale; "lo,hi": a fixed one (several panels on one scale).
    domain: { spec: { type: 'numbers', default: [], minLength: 2, maxLength: 2, min: -1e30, max: 1e30 } },
    // Empty: the stand-in table; else one head's learned bias per bucket, one direction.
    't5-bias': { spec: { type: 'numbers', default: [], minLength: 2, maxLength: 128, min: -1e30, max: 1e30 } },
  };

  #heatmap;
  #current = { title: '', n: 0, l0: 0, view: 'scores', causal: false, shared: false };
  #matrix = null;

  build() {
    this.#heatmap = createHeatmap({
      name: 'attention',
      title: 'attention',
      xLabel: 'key position n',
      yLabel: 'query position m',
      colormap: 'diverging',
      square: true,
      summary: ({ rows, lo, hi }) => {
        const { title, view, causal, l0, shared } = this.#current;
        return (
          `${title}: ${view === 'weights' ? 'softmax weights' : 'raw scores'} of one head for query and key positions 0 to ${rows - 1}` +
          `${causal ? ', causal mask (keys after the query masked, drawn at the bottom of the scale)' : ''}; ` +
          `dashed lines at the training length L0 = ${l0}; colour scale ${formatSigText(lo, 3)} to ${formatSigText(hi, 3)}${shared ? ' (set by the page, shared with other panels)' : ''}.`
        );
      },
      readout: (cell) => this.#cellText(cell.row, cell.col),
    });
    const figure = this.#heatmap.element;
    this.markParts(figure);
    this.#heatmap.onCursor((cell) => {
      if (!cell) return this.pick(null);
      const value = this.#matrix[cell.row * this.#current.n + cell.col];
      this.pick({
        row: cell.row,
        col: cell.col,
        m: cell.row,
        n: cell.col,
        value,
        text: this.#cellText(cell.row, cell.col),
      });
    });
    this.body.append(figure);
    return figure;
  }

  draw(posenc, values) {
    const { encoding, 'seq-len': n, l0, 'head-dim': d, content, seed, view, head, domain } = values;
    const causal = values.causal === 'on';
    const t5Bias = values['t5-bias'];
    const matrix = attentionMatrix(posenc, { encoding, n, d, content, seed, view, causal, head, t5Bias });
    const title = ENCODINGS.find(({ key }) => key === encoding).title;
    this.#matrix = matrix;
    this.#current = { title, n, l0, view, causal, shared: domain.length === 2 };
    const own = view === 'weights' ? weightDomain([matrix]) : scoreDomain([matrix]);
    const edge = l0 - 0.5; // between positions L0 − 1 and L0
    this.#heatmap.setTitle(`${title} attention`);
    // Named by its encoding, so a page (or a test) tells side-by-side panels apart.
    this.#heatmap.element.dataset.plot = `attention-${encoding}`;
    this.#heatmap.draw({
      values: matrix,
      rows: n,
      cols: n,
      domain: domain.length === 2 ? domain : own,
      colormap: view === 'weights' ? 'viridis' : 'diverging',
      valueLabel: view === 'weights' ? 'softmax weight' : 'raw score',
      guides: [
        { from: [edge, -0.5], to: [edge, n - 0.5] },
        { from: [-0.5, edge], to: [n - 0.5, edge] },
      ],
    });
  }

  csv() {
    return this.#heatmap.csv();
  }

  /** The drawn matrix (row-major [seqLen, seqLen], float32), or null before the first draw. */
  get matrix() {
    return this.#matrix;
  }

  /** Moves the keyboard and pointer cursor (a page linking several panels), or hides it with null. */
  setCursor(cell) {
    this.#heatmap?.setCursor(cell);
  }

  #cellText(m, n) {
    const what = this.#current.view === 'weights' ? 'weight' : 'score';
    return `${this.#current.title}: m = ${m}, n = ${n}, m − n = ${m - n}: ${what} ${formatSig(this.#matrix[m * this.#current.n + n], 6)}`;
  }
}

defineElement('posenc-attention', Attention);
