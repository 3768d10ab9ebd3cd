// Relative distance: PE(m)·PE(n) = sum over pairs of cos(w (m - n)) depends only on m - n.
// Heatmap of all pairs, the same numbers as a curve against the distance, and Jaitly's claim
// ("0 and 1 are close, 0 and 10 differ") in numbers.
import { controlRow, numberControl } from '../controls.js';
import { byId, h } from '../dom.js';
import { formatSig } from '../format.js';
import { createHeatmap } from '../plots/heatmap.js';
import { similaritySteps } from '../plots/similarity-steps.js';
import { createLinePlot } from '../plots/lineplot.js';
import { progressiveToFrame } from '../schedule.js';
import { pickRows, range } from '../vectors.js';

export const id = 'relative-distance';

export const settings = {
  'rd.seq': { type: 'int', default: 128, min: 12, max: 1024 },
  'rd.d': { type: 'int', default: 64, min: 2, max: 512, even: true },
  'rd.base': { type: 'number', default: 10000, min: 2, max: 1e8 },
  'rd.anchor': {
    type: 'int',
    default: 64,
    min: 0,
    max: 1023,
    maxFrom: (get) => get('rd.seq') - 1,
    maxNote: 'the start is below rd.seq',
  },
};

export function mount({ posenc, state }) {
  const root = byId('relative-distance-demo');
  const heatmap = createHeatmap({
    name: 'relative-distance',
    title: 'PE(m) · PE(n)',
    xLabel: 'position n',
    yLabel: 'position m',
    valueLabel: 'PE(m)·PE(n)',
    colormap: 'viridis',
    square: true,
    summary: ({ lo, hi }) =>
      `Dot products of the sinusoidal encodings of positions 0 to ${state.get('rd.seq') - 1} with each other, from ${formatSig(lo, 3)} to ${formatSig(hi, 3)}. ` +
      'The brightest line is the diagonal (m = n); the pattern is the same along every diagonal: it depends only on m − n.',
    readout: ({ rowPosition: m, colPosition: n, value }) =>
      `PE(${m}) · PE(${n}) = ${formatSig(value, 6)}   (distance |m − n| = ${Math.abs(m - n)})`,
  });
  const curve = createLinePlot({
    name: 'relative-distance-curve',
    title: 'PE(a) · PE(a + Δ) against the distance Δ',
    xLabel: 'distance Δ = |m − n|',
    yLabel: 'PE(m)·PE(n)',
    summary: ({ series }) =>
      `Dot product against distance, from position 0 (line) and from position ${state.get('rd.anchor')} in both directions (dots): the dots lie on the line, so the value depends on the distance only. ` +
      `It starts at ${formatSig(series[0].y[0], 3)} (distance 0) and falls off with ripples.`,
  });
  const claims = h('p', { class: 'result', id: 'rd-claims' });
  const anchorNote = h('p', { class: 'note', id: 'rd-anchor-note' });
  root.append(
    controlRow(
      numberControl(state, 'rd.seq', { label: 'positions' }),
      numberControl(state, 'rd.d', { label: 'd_model' }),
      numberControl(state, 'rd.base', { label: 'base', scale: 'log' }),
      numberControl(state, 'rd.anchor', { label: 'second start a' }),
    ),
    claims,
    h('div', { class: 'plot-grid two' }, heatmap.element, curve.element),
    anchorNote,
  );

  function* draw() {
    const seqLen = state.get('rd.seq');
    const dModel = state.get('rd.d');
    const base = state.get('rd.base');
    const anchor = state.get('rd.anchor');
    const table = posenc.sinusoidal({ seqLen, dModel, base });
    // The curve and the sentences need rows 0, 1, 10 and the anchor's only: computed at once,
    // while the heatmap may take a few frames (a preview first).
    const wanted = [0, 1, 10, anchor];
    const rows = posenc.similarity(pickRows(table, dModel, wanted), table, {
      rows: wanted.length,
      cols: seqLen,
      dim: dModel,
    });
    const dot = (m, n) => rows[wanted.indexOf(m) * seqLen + n];

    const fromZero = rows.subarray(0, seqLen);
    // From the anchor both ways: PE(a)·PE(a + k) and PE(a)·PE(a - k), as points at distance k.
    const xs = [];
    const ys = [];
    for (let j = 0; j < seqLen; j++) {
      xs.push(Math.abs(j - anchor));
      ys.push(dot(anchor, j));
    }
    const order = xs.map((_, i) => i).sort((p, q) => xs[p] - xs[q]);
    curve.draw({
      series: [
        { label: 'from position 0', x: range(seqLen), y: fromZero },
        {
          label: `from position ${anchor}, both directions`,
          x: order.map((i) => xs[i]),
          y: order.map((i) => ys[i]),
          points: true,
        },
      ],
    });

    const self = dot(0, 0);
    const at = (k) => dot(0, k);
    const distance = (k) => Math.sqrt(Math.max(0, dot(0, 0) + dot(k, k) - 2 * dot(0, k)));
    claims.textContent =
      `PE(0)·PE(0) = ${formatSig(self, 6)} (= d_model / 2). Close positions: PE(0)·PE(1) = ${formatSig(at(1), 6)}, ` +
      `‖PE(0) − PE(1)‖ = ${formatSig(distance(1), 4)}. Farther: PE(0)·PE(10) = ${formatSig(at(10), 6)}, ‖PE(0) − PE(10)‖ = ${formatSig(distance(10), 4)}. ` +
      'So seed 001’s claim holds: 0 and 1 are close, 0 and 10 differ clearly.';
    let maxSpread = 0;
    for (let k = 0; k < seqLen - anchor; k++)
      maxSpread = Math.max(maxSpread, Math.abs(dot(anchor, anchor + k) - fromZero[k]));
    anchorNote.textContent =
      `Same distance, different start: the largest difference between PE(${anchor})·PE(${anchor} + k) and PE(0)·PE(k) is ${formatSig(maxSpread, 3)} ` +
      '(float32 rounding). The curve is symmetric (before and after look the same) and not monotonic: far positions can be more alike than nearer ones.';

    yield* similaritySteps(posenc, heatmap, { a: table, b: table, rows: seqLen, cols: seqLen, dim: dModel });
  }

  const request = progressiveToFrame(draw);
  state.watch(['rd.'], request);
  request();
}
