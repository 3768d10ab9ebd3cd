// Relative distance: PE(m)·PE(n) = sum over pairs of cos(w (m - n)) depends only on m - n.
// Heatmap of all pairs, the same numbers as a curve against the distance, and Jaitly's claim
// ("0 and 1 are close, 0 and 10 differ") in numbers.
import { controlRow, numberControl } from '../../../widgets/controls.js';
import { byId, h } from '../../../widgets/dom.js';
import { formatSig, formatSigText } from '../../../widgets/format.js';
import { createHeatmap } from '../../../widgets/plots/heatmap.js';
import { similaritySteps } from '../../../widgets/plots/similarity-steps.js';
import { createLinePlot } from '../../../widgets/plots/lineplot.js';
import { progressiveToAnimationFrame } from '../../../widgets/schedule.js';
import { pickRows, range } from '../../../widgets/vectors.js';

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

// A stripe that comes back to this share of the value at distance 0 is "nearly as bright".
const NEARLY = 0.9;

/**
 * The shape of the curve PE(0)·PE(Δ), Δ = 0 … N − 1, for the captions: its value at 0, its first
 * dip (the first Δ where it stops falling) and the largest value after that dip, with its Δ;
 * `returns` when that value comes back to NEARLY of the start (few pairs: no fall-off).
 */
export function curveShape(values) {
  const start = values[0];
  let dip = 1;
  while (dip < values.length - 1 && values[dip + 1] < values[dip]) dip++;
  let peak = -Infinity;
  let at = -1;
  for (let k = dip + 1; k < values.length; k++) if (values[k] > peak) [peak, at] = [values[k], k];
  return {
    start,
    dip,
    atDip: values[dip],
    peak,
    at,
    last: values.length - 1,
    returns: at >= 0 && peak >= NEARLY * start,
  };
}

const sig = (value) => formatSigText(value, 4);

/** The heatmap's sentence about its brightest lines, from the curve's shape. */
function describeStripes(shape) {
  const { start, dip, peak, at, last, atDip, returns } = shape;
  if (at < 0)
    return `The brightest line is the diagonal (m = n), ${sig(start)}; the values fall away from it without a ripple, to ${sig(atDip)} at distance ${last}.`;
  if (returns)
    return `The diagonal (m = n) holds the largest value, ${sig(start)}, but with so few pairs other lines parallel to it are nearly as bright: ${sig(peak)} at distance ${at}.`;
  return `The brightest line is the diagonal (m = n), ${sig(start)}; beyond distance ${dip} no value exceeds ${sig(peak)}.`;
}

/** The curve's sentence: falls off with ripples, or keeps coming back (few pairs), from the numbers. */
function describeCurve(shape) {
  const { start, dip, atDip, peak, at, last, returns } = shape;
  if (at < 0)
    return `It falls from ${sig(start)} at distance 0 to ${sig(atDip)} at distance ${last}, without a ripple within the positions shown.`;
  if (returns)
    return (
      `It starts at ${sig(start)} (distance 0), dips to ${sig(atDip)} at distance ${dip} and comes back to ${sig(peak)} at distance ${at}: ` +
      'with so few pairs it does not fall off, it keeps coming back.'
    );
  return `It starts at ${sig(start)} (distance 0) and falls off with ripples: beyond distance ${dip} it stays at or below ${sig(peak)} (reached at distance ${at}).`;
}

export function mount({ posenc, state }) {
  let shape = null; // curveShape of the numbers drawn
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
      `Dot products of the sinusoidal encodings of positions 0 to ${state.get('rd.seq') - 1} with each other, from ${formatSigText(lo, 3)} to ${formatSigText(hi, 3)}. ` +
      `${shape ? `${describeStripes(shape)} ` : ''}The pattern is the same along every diagonal: it depends only on m − n.`,
    readout: ({ rowPosition: m, colPosition: n, value }) =>
      `PE(${m}) · PE(${n}) = ${formatSigText(value, 6)}   (distance |m − n| = ${Math.abs(m - n)})`,
  });
  const curve = createLinePlot({
    name: 'relative-distance-curve',
    title: 'PE(a) · PE(a + Δ) against the distance Δ',
    xLabel: 'distance Δ = |m − n|',
    yLabel: 'PE(m)·PE(n)',
    summary: ({ series }) =>
      `Dot product against distance, from position 0 (line) and from position ${state.get('rd.anchor')} in both directions (dots): the dots lie on the line, so the value depends on the distance only. ` +
      describeCurve(curveShape(series[0].y)),
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
    h('div', { class: 'plot-grid two beside' }, heatmap.element, curve.element),
    anchorNote,
  );

  function* draw() {
    const seqLen = state.get('rd.seq');
    const dModel = state.get('rd.d');
    const base = state.get('rd.base');
    const anchor = state.get('rd.anchor');
    const table = posenc.sinusoidal({ seqLen, dModel, base });
    // The curve and the sentences need rows 0, 1, 10 and the anchor's only: computed at once,
    // while the heatmap may take a few animation frames (a preview first).
    const wanted = [0, 1, 10, anchor];
    const rows = posenc.similarity(pickRows(table, dModel, wanted), table, {
      rows: wanted.length,
      cols: seqLen,
      dim: dModel,
    });
    const dot = (m, n) => rows[wanted.indexOf(m) * seqLen + n];

    const fromZero = rows.subarray(0, seqLen);
    shape = curveShape(fromZero);
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
      `PE(0)·PE(0) = ${formatSig(self, 6)} (= d_model / 2). Close positions: PE(0)·PE(1) = ${formatSigText(at(1), 6)}, ` +
      `‖PE(0) − PE(1)‖ = ${formatSig(distance(1), 4)}. Farther: PE(0)·PE(10) = ${formatSigText(at(10), 6)}, ‖PE(0) − PE(10)‖ = ${formatSig(distance(10), 4)}. ` +
      (distance(10) > distance(1)
        ? 'So Jaitly’s claim holds: 0 and 1 are close, 0 and 10 differ clearly.'
        : 'Here Jaitly’s claim fails: PE(10) is no farther from PE(0) than PE(1) is.');
    let maxSpread = 0;
    for (let k = 0; k < seqLen - anchor; k++)
      maxSpread = Math.max(maxSpread, Math.abs(dot(anchor, anchor + k) - fromZero[k]));
    anchorNote.textContent =
      `Same distance, different start: the largest difference between PE(${anchor})·PE(${anchor} + Δ) and PE(0)·PE(Δ) is ${formatSigText(maxSpread, 3)} ` +
      '(float32 rounding). The curve is not monotonic: far positions can be more alike than nearer ones.';

    yield* similaritySteps(posenc, heatmap, {
      inputs: () => ({ a: table, b: table }),
      rows: seqLen,
      cols: seqLen,
      dim: dModel,
    });
  }

  const request = progressiveToAnimationFrame(draw);
  state.watch(['rd.'], request);
  request();
}
