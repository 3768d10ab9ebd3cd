// The three encodings side by side, on the same token contents and one colour scale:
// naive (x + p), sinusoidal (x + PE(p)) and RoPE (rot(x, p)), with a synchronised crosshair.
// The contents matter: with all-ones vectors RoPE's scores are exactly 2 × PE(m)·PE(n).
import { choiceControl, controlRow, numberControl, numbersControl } from '../controls.js';
import { byId, h } from '../dom.js';
import { formatSig } from '../format.js';
import { extent } from '../plots/colormap.js';
import { createHeatmap } from '../plots/heatmap.js';
import { coalesceToFrame } from '../schedule.js';
import { randomMatrix, randomQueryKey } from '../tokens.js';
import { addArrays, cycleTo, maxAbsDifference, tile } from '../vectors.js';

export const id = 'comparison';

const vectorSetting = (value) => ({
  type: 'numbers',
  default: value,
  minLength: 1,
  maxLength: 256,
  min: -100,
  max: 100,
});

export const settings = {
  'cmp.seq': { type: 'int', default: 128, min: 8, max: 512 },
  'cmp.d': { type: 'int', default: 32, min: 2, max: 256, even: true },
  'cmp.base': { type: 'number', default: 10000, min: 2, max: 1e8 },
  'cmp.content': { type: 'enum', default: 'qk', values: ['qk', 'tokens', 'ones', 'edited'] },
  'cmp.seed': { type: 'int', default: 7, min: 1, max: 999999 },
  'cmp.metric': { type: 'enum', default: 'cosine', values: ['cosine', 'dot'] },
  'cmp.q': vectorSetting([1, 0.5, -0.5, 0.25]),
  'cmp.k': vectorSetting([0.5, 1, 0.25, -0.5]),
};

const CONTENT_OPTIONS = [
  { value: 'qk', label: 'one random query and key, at every position' },
  { value: 'tokens', label: 'a different random vector per token' },
  { value: 'ones', label: 'all ones (the trap)' },
  { value: 'edited', label: 'your q and k below' },
];

const PANELS = [
  { key: 'naive', title: 'naive', formula: '(q + m) · (k + n)' },
  { key: 'sinusoidal', title: 'sinusoidal', formula: '(q + PE(m)) · (k + PE(n))' },
  { key: 'rope', title: 'RoPE', formula: 'rot(q, m) · rot(k, n)' },
];

/** Query and key rows [seqLen, dModel] for a content mode. */
function comparisonContents(mode, { seqLen, dModel, seed, q, k }) {
  switch (mode) {
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

/** How far a matrix is from depending on m - n only: the largest spread along any diagonal. */
function diagonalSpread(values, n) {
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

export function mount({ posenc, state }) {
  const root = byId('comparison-demo');
  let shown = null;
  const readout = h(
    'output',
    { class: 'readout shared-readout', id: 'cmp-readout', 'aria-live': 'polite' },
    'Hover over any panel: the crosshair follows in all three.',
  );
  const heatmaps = PANELS.map(({ key, title, formula }) =>
    createHeatmap({
      name: `compare-${key}`,
      title,
      xLabel: 'key position n',
      yLabel: 'query position m',
      valueLabel: state.get('cmp.metric'),
      colormap: 'viridis',
      square: true,
      summary: ({ rows, lo, hi }) =>
        `${title} encoding: ${state.get('cmp.metric')} score ${formula} for query and key positions 0 to ${rows - 1}; colour scale ${formatSig(lo, 3)} to ${formatSig(hi, 3)}, shared by the three panels.`,
    }),
  );
  heatmaps.forEach((heatmap, index) => {
    heatmap.onCursor((cell) => {
      heatmaps.forEach((other, j) => {
        if (j !== index) other.setCursor(cell);
      });
      if (!cell || !shown) return;
      const at = cell.row * shown.seqLen + cell.col;
      readout.textContent =
        `m = ${cell.row}, n = ${cell.col} (m − n = ${cell.row - cell.col}), ${shown.metric}: ` +
        PANELS.map(({ key }, j) => `${key} ${formatSig(shown.scores[j][at], 5)}`).join(', ');
    });
  });
  const reroll = h('button', { type: 'button', id: 'cmp-reroll' }, 'Re-roll random contents');
  reroll.addEventListener('click', () => {
    state.set('cmp.seed', (state.get('cmp.seed') % 999998) + 1);
    if (state.get('cmp.content') === 'ones' || state.get('cmp.content') === 'edited') state.set('cmp.content', 'qk');
  });
  const spreads = h('ul', { class: 'result', id: 'cmp-spreads' });
  const trap = h('p', { class: 'result callout', id: 'cmp-trap' });
  const scaleNote = h('p', { class: 'note', id: 'cmp-scale-note' });
  root.append(
    controlRow(
      numberControl(state, 'cmp.seq', { label: 'positions' }),
      numberControl(state, 'cmp.d', { label: 'd' }),
      numberControl(state, 'cmp.base', { label: 'base', scale: 'log' }),
      choiceControl(state, 'cmp.metric', {
        label: 'score',
        options: [
          { value: 'cosine', label: 'cosine' },
          { value: 'dot', label: 'dot product' },
        ],
      }),
    ),
    controlRow(choiceControl(state, 'cmp.content', { label: 'token contents', options: CONTENT_OPTIONS }), reroll),
    controlRow(
      numbersControl(state, 'cmp.q', { label: 'your q (repeats to fill d)', size: 28 }),
      numbersControl(state, 'cmp.k', { label: 'your k (repeats to fill d)', size: 28 }),
    ),
    h(
      'div',
      { class: 'plot-grid three' },
      heatmaps.map((heatmap) => heatmap.element),
    ),
    readout,
    scaleNote,
    spreads,
    trap,
  );
  state.watch(['cmp.q', 'cmp.k'], () => state.set('cmp.content', 'edited'));

  function draw() {
    const seqLen = state.get('cmp.seq');
    const dModel = state.get('cmp.d');
    const base = state.get('cmp.base');
    const metric = state.get('cmp.metric');
    const mode = state.get('cmp.content');
    const { queries, keys } = comparisonContents(mode, {
      seqLen,
      dModel,
      seed: state.get('cmp.seed'),
      q: state.get('cmp.q'),
      k: state.get('cmp.k'),
    });
    const numbers = posenc.positionNumbers({ seqLen, dModel });
    const encoded = {
      naive: [addArrays(queries, numbers), addArrays(keys, numbers)],
      sinusoidal: [
        posenc.addSinusoidal(queries.slice(), { seqLen, dModel, base }),
        posenc.addSinusoidal(keys.slice(), { seqLen, dModel, base }),
      ],
      rope: [
        posenc.rope(queries.slice(), { seqLen, headDim: dModel, base }),
        posenc.rope(keys.slice(), { seqLen, headDim: dModel, base }),
      ],
    };
    const scores = PANELS.map(({ key }) =>
      posenc.similarity(encoded[key][0], encoded[key][1], { rows: seqLen, cols: seqLen, dim: dModel, metric }),
    );
    const domain = metric === 'cosine' ? [-1, 1] : extent(...scores);
    shown = { seqLen, metric, scores };
    const ranges = scores.map((s) => {
      const [lo, hi] = extent(s);
      return hi - lo;
    });
    scaleNote.hidden = metric !== 'dot';
    scaleNote.textContent =
      metric === 'dot'
        ? `On one dot-product scale the naive panel’s values (a range of ${formatSig(ranges[0], 3)}) dwarf the sinusoidal (${formatSig(ranges[1], 3)}) and RoPE (${formatSig(ranges[2], 3)}) ones, ` +
          'whose panels therefore look almost flat: the position numbers swamp everything. Switch to cosine to compare the patterns.'
        : '';
    const valueLabel = `${metric === 'cosine' ? 'cosine similarity' : 'dot product'} (one scale for all three)`;
    heatmaps.forEach((heatmap, j) => {
      heatmap.draw({ values: scores[j], rows: seqLen, cols: seqLen, domain, valueLabel });
    });

    spreads.replaceChildren(
      ...PANELS.map(({ key }, j) => {
        const spread = diagonalSpread(scores[j], seqLen);
        const [lo, hi] = extent(scores[j]);
        const relative = hi > lo ? spread / (hi - lo) : 0;
        return h(
          'li',
          { dataset: { panel: key } },
          `${key}: along each diagonal (fixed m − n) the score varies by up to ${formatSig(spread, 3)} ` +
            `(${relative < 1e-5 ? 'under 0.001' : formatSig(100 * relative, 3)}% of its range)${relative < 1e-4 ? ' — a function of m − n alone' : ''}.`,
        );
      }),
    );

    if (mode === 'ones') {
      const table = posenc.sinusoidal({ seqLen, dModel, base });
      const pePe = posenc.similarity(table, table, { rows: seqLen, cols: seqLen, dim: dModel });
      const ropeDot = posenc.similarity(encoded.rope[0], encoded.rope[1], { rows: seqLen, cols: seqLen, dim: dModel });
      const twice = pePe.map((v) => 2 * v);
      trap.textContent =
        `All-ones contents: RoPE’s dot products equal 2 × PE(m)·PE(n) to within ${formatSig(maxAbsDifference(ropeDot, twice), 2)} ` +
        '(float32 rounding) — each pair (1, 1) has squared length 2, so RoPE just replays the sinusoidal similarity. Comparing encodings on such contents shows nothing; pick random contents.';
      trap.hidden = false;
    } else {
      trap.textContent = '';
      trap.hidden = true;
    }
  }

  const request = coalesceToFrame(draw);
  state.watch(['cmp.'], request);
  request();
}
