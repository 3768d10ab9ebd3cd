// <posenc-compare>: the three encodings side by side, on the same token contents and one colour
// scale: naive (q + m)·(k + n), sinusoidal (q + PE(m))·(k + PE(n)) and RoPE rot(q, m)·rot(k, n),
// with one crosshair over the three panels, how far each panel is from depending on m − n alone,
// and the all-ones trap (RoPE's scores then replay the sinusoidal ones). The figure of the
// tutorial's comparison section.
// The contents matter: with all-ones vectors RoPE's scores are exactly 2 × PE(m)·PE(n).
// Attributes: seq-len, d-model, base, metric (cosine | dot), content (qk | tokens | ones | edited),
// seed, q, k (comma-separated numbers, repeated to fill d-model; used by content="edited").
// posenc-pick's detail: { row, col, m, n, scores: { naive, sinusoidal, rope }, text }.
import { choiceControl, numbersControl } from '../controls.js';
import { h } from '../dom.js';
import { formatSig, formatSigText } from '../format.js';
import { extent } from '../plots/colormap.js';
import { createHeatmap } from '../plots/heatmap.js';
import { randomMatrix, randomQueryKey } from '../tokens.js';
import { addArrays, cycleTo, maxAbsDifference, tile } from '../vectors.js';
import { defineElement, PosencElement } from './element.js';
import { baseSetting, numberSetting, seedSetting } from './settings.js';

const READOUT_HINT = 'Point at or tap any panel: the crosshair follows in all three.';

export const PANELS = [
  { key: 'naive', title: 'naive', formula: '(q + m) · (k + n)' },
  { key: 'sinusoidal', title: 'sinusoidal', formula: '(q + PE(m)) · (k + PE(n))' },
  { key: 'rope', title: 'RoPE', formula: 'rot(q, m) · rot(k, n)' },
];

const CONTENT_OPTIONS = [
  { value: 'qk', label: 'one random query and key, at every position' },
  { value: 'tokens', label: 'a different random vector per token' },
  { value: 'ones', label: 'all ones (the trap)' },
  { value: 'edited', label: 'your q and k below' },
];

// Below this share of its range, a panel's spread along the diagonals is float32 rounding: the
// scores are a function of m − n alone.
const RELATIVE_ONLY = 1e-4;

const vectorSpec = (value) => ({ type: 'numbers', default: value, minLength: 1, maxLength: 256, min: -100, max: 100 });

/** Query and key rows [seqLen, dModel] for a content mode. */
export function comparisonContents(content, { seqLen, dModel, seed, q, k }) {
  switch (content) {
    case 'tokens': {
      const x = randomMatrix(seed, seqLen, dModel);
      return { queries: x, keys: x };
    }
    case 'ones': {
      const x = new Float32Array(seqLen * dModel).fill(1);
      return { queries: x, keys: x };
    }
    case 'edited':
      return { queries: tile(cycleTo(q, dModel), seqLen), keys: tile(cycleTo(k, dModel), seqLen) };
    default: {
      const { q: query, k: key } = randomQueryKey(seed, dModel);
      return { queries: tile(query, seqLen), keys: tile(key, seqLen) };
    }
  }
}

/**
 * One panel's encoded query and key rows [seqLen, dModel] (panel: 'naive', 'sinusoidal' or 'rope')
 * for `settings` ({ content, seqLen, dModel, base, seed, q, k }).
 */
export function encodedRows(posenc, panel, settings) {
  const { seqLen, dModel, base } = settings;
  const { queries, keys } = comparisonContents(settings.content, settings);
  switch (panel) {
    case 'naive': {
      const numbers = posenc.positionNumbers({ seqLen, dModel });
      return [addArrays(queries, numbers), addArrays(keys, numbers)];
    }
    case 'sinusoidal':
      return [
        posenc.addSinusoidal(queries.slice(), { seqLen, dModel, base }),
        posenc.addSinusoidal(keys.slice(), { seqLen, dModel, base }),
      ];
    default:
      return [
        posenc.rope(queries.slice(), { seqLen, headDim: dModel, base }),
        posenc.rope(keys.slice(), { seqLen, headDim: dModel, base }),
      ];
  }
}

/**
 * rowsOf for a panel's heatmap: its score rows computed again from the settings, each as the whole
 * matrix has it (one row of queries against all the keys). Made out here, so the function holds
 * the settings alone, never a draw's arrays.
 */
function scoreRows(posenc, panel, settings, metric) {
  const { seqLen, dModel } = settings;
  return (first, count) => {
    const [queries, keys] = encodedRows(posenc, panel, settings);
    return posenc.similarity(queries.subarray(first * dModel, (first + count) * dModel), keys, {
      rows: count,
      cols: seqLen,
      dim: dModel,
      metric,
    });
  };
}

/** How far an [n, n] matrix is from depending on m − n only: the largest spread along any diagonal. */
export function diagonalSpread(values, n) {
  let worst = 0;
  for (let offset = -(n - 1); offset < n; offset++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let m = Math.max(0, offset); m < Math.min(n, n + offset); m++) {
      const v = values[m * n + (m - offset)];
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    worst = Math.max(worst, hi - lo);
  }
  return worst;
}

export class Compare extends PosencElement {
  static settings = {
    'seq-len': numberSetting({ type: 'int', default: 128, min: 8, max: 512 }, 'positions'),
    'd-model': numberSetting({ type: 'int', default: 32, min: 2, max: 256, even: true }, 'd'),
    base: baseSetting('base'),
    metric: {
      spec: { type: 'enum', default: 'cosine', values: ['cosine', 'dot'] },
      control: (state, key) =>
        choiceControl(state, key, {
          label: 'score',
          options: [
            { value: 'cosine', label: 'cosine' },
            { value: 'dot', label: 'dot product' },
          ],
        }),
    },
    content: {
      spec: { type: 'enum', default: 'qk', values: CONTENT_OPTIONS.map(({ value }) => value) },
      control: (state, key) => choiceControl(state, key, { label: 'token contents', options: CONTENT_OPTIONS }),
    },
    seed: seedSetting(),
    q: {
      spec: vectorSpec([1, 0.5, -0.5, 0.25]),
      control: (state, key) => numbersControl(state, key, { label: 'your q (repeats to fill d)', size: 28 }),
    },
    k: {
      spec: vectorSpec([0.5, 1, 0.25, -0.5]),
      control: (state, key) => numbersControl(state, key, { label: 'your k (repeats to fill d)', size: 28 }),
    },
  };

  #heatmaps = [];
  #readout;
  #scaleNote;
  #spreads;
  #trap;
  #shown = null; // { seqLen, metric } of the scores drawn

  build() {
    this.#readout = h(
      'output',
      { class: 'readout shared-readout', id: 'cmp-readout', part: 'readout', 'aria-live': 'polite' },
      READOUT_HINT,
    );
    this.#heatmaps = PANELS.map(({ key, title, formula }) =>
      createHeatmap({
        name: `compare-${key}`,
        title,
        xLabel: 'key position n',
        yLabel: 'query position m',
        valueLabel: 'cosine',
        colormap: 'viridis',
        square: true,
        summary: ({ rows, lo, hi }) =>
          `${title} encoding: ${this.#shown?.metric ?? 'cosine'} score ${formula} for query and key positions 0 to ${rows - 1}; colour scale ${formatSigText(lo, 3)} to ${formatSigText(hi, 3)}, shared by the three panels.`,
      }),
    );
    this.#heatmaps.forEach((heatmap, index) => {
      this.markParts(heatmap.element);
      heatmap.onCursor((cell) => {
        this.#heatmaps.forEach((other, j) => {
          if (j !== index) other.setCursor(cell);
        });
        this.#showCell(cell);
      });
    });
    this.#scaleNote = h('p', { class: 'note', id: 'cmp-scale-note', part: 'note' });
    this.#spreads = h('ul', { class: 'result', id: 'cmp-spreads', part: 'result' });
    this.#trap = h('p', { class: 'result callout', id: 'cmp-trap', part: 'result' });
    const figure = h(
      'div',
      { class: 'plot-grid three compare' },
      this.#heatmaps.map((heatmap) => heatmap.element),
    );
    figure.part.add('figures');
    this.body.append(figure, this.#readout, this.#scaleNote, this.#spreads, this.#trap);
    return figure;
  }

  draw(posenc, { 'seq-len': seqLen, 'd-model': dModel, base, metric, content, seed, q, k }) {
    const settings = { content, seqLen, dModel, base, seed, q, k };
    const encoded = Object.fromEntries(PANELS.map(({ key }) => [key, encodedRows(posenc, key, settings)]));
    const similarity = (a, b, scoreMetric) =>
      posenc.similarity(a, b, { rows: seqLen, cols: seqLen, dim: dModel, metric: scoreMetric });
    const scores = PANELS.map(({ key }) => similarity(encoded[key][0], encoded[key][1], metric));
    const domain = metric === 'cosine' ? [-1, 1] : extent(...scores);
    this.#shown = { seqLen, metric };
    const valueLabel = `${metric === 'cosine' ? 'cosine similarity' : 'dot product'} (one scale for all three)`;
    // The scores are not kept: a panel computes the rows it reads (the read-out, the CSV) again.
    this.#heatmaps.forEach((heatmap, j) => {
      const rowsOf = scoreRows(posenc, PANELS[j].key, settings, metric);
      heatmap.draw({ values: scores[j], rows: seqLen, cols: seqLen, domain, valueLabel, rowsOf });
    });
    const ranges = scores.map((s) => {
      const [lo, hi] = extent(s);
      return hi - lo;
    });
    this.#scaleNote.hidden = metric !== 'dot';
    this.#scaleNote.textContent =
      metric === 'dot'
        ? `On one dot-product scale the naive panel’s values (a range of ${formatSig(ranges[0], 3)}) dwarf the sinusoidal (${formatSig(ranges[1], 3)}) and RoPE (${formatSig(ranges[2], 3)}) ones, ` +
          'whose panels therefore look almost flat: the position numbers swamp everything. Switch to cosine to compare the patterns.'
        : '';
    this.#spreads.replaceChildren(
      ...PANELS.map(({ key }, j) => {
        const spread = diagonalSpread(scores[j], seqLen);
        const relative = ranges[j] > 0 ? spread / ranges[j] : 0;
        return h(
          'li',
          { dataset: { panel: key } },
          `${key}: along each diagonal (fixed m − n) the score varies by up to ${formatSig(spread, 3)} ` +
            `(${relative < 1e-5 ? 'under 0.001' : formatSig(100 * relative, 3)}% of its range)${relative < RELATIVE_ONLY ? ' — a function of m − n alone' : ''}.`,
        );
      }),
    );
    if (content === 'ones') {
      // RoPE on all-ones contents against twice the sinusoidal table's own dot products.
      const table = posenc.sinusoidal({ seqLen, dModel, base });
      const twice = similarity(table, table, 'dot').map((v) => 2 * v);
      const ropeDot = similarity(encoded.rope[0], encoded.rope[1], 'dot');
      this.#trap.textContent =
        `All-ones contents: RoPE’s dot products${metric === 'dot' ? ' (its panel)' : ' (its panel with the metric dot; in cosine it shows PE(m)·PE(n) / (d/2))'} equal 2 × PE(m)·PE(n) to within ${formatSig(maxAbsDifference(ropeDot, twice), 2)} ` +
        '(float32 rounding) — each pair (1, 1) has squared length 2, so RoPE just replays the sinusoidal similarity. Comparing encodings on such contents shows nothing; pick random contents.';
      this.#trap.hidden = false;
    } else {
      this.#trap.textContent = '';
      this.#trap.hidden = true;
    }
  }

  /** The drawn scores as CSV: one row per (m, n), a column per encoding. */
  csv() {
    if (!this.#shown) return '';
    const { seqLen } = this.#shown;
    const scores = this.#heatmaps.map((heatmap) => heatmap.values());
    const lines = [['query position m', 'key position n', ...PANELS.map(({ key }) => key)].join(',')];
    for (let m = 0; m < seqLen; m++)
      for (let n = 0; n < seqLen; n++) lines.push([m, n, ...scores.map((s) => s[m * seqLen + n])].join(','));
    return `${lines.join('\n')}\n`;
  }

  /**
   * The drawn scores: { naive, sinusoidal, rope } (row-major [seqLen, seqLen] float32, computed
   * again on each read), or null.
   */
  get scores() {
    if (!this.#shown) return null;
    return Object.fromEntries(PANELS.map(({ key }, j) => [key, this.#heatmaps[j].values()]));
  }

  /** Moves the crosshair of the three panels (a page linking figures), or hides it with null. */
  setCursor(cell) {
    for (const heatmap of this.#heatmaps) heatmap.setCursor(cell);
    this.#showCell(cell);
  }

  #showCell(cell) {
    if (!cell || !this.#shown) {
      this.#readout.textContent = READOUT_HINT; // never the numbers of a cell no longer drawn
      return this.pick(null);
    }
    const { metric } = this.#shown;
    const scores = this.#heatmaps.map((heatmap) => heatmap.valueAt(cell.row, cell.col));
    const text =
      `m = ${cell.row}, n = ${cell.col} (m − n = ${cell.row - cell.col}), ${metric}: ` +
      PANELS.map(({ key }, j) => `${key} ${formatSig(scores[j], 5)}`).join(', ');
    this.#readout.textContent = text;
    this.pick({
      row: cell.row,
      col: cell.col,
      m: cell.row,
      n: cell.col,
      scores: Object.fromEntries(PANELS.map(({ key }, j) => [key, scores[j]])),
      text,
    });
  }
}

defineElement('posenc-compare', Compare);
