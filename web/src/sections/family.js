// The family side by side: one head's attention over positions 0 … N − 1 under six encodings
// (none, sinusoidal, RoPE, xPos, ALiBi, T5 buckets), on the same random contents and one colour
// scale, as raw scores or softmax weights, with or without a causal mask; a "training length" L0
// marked on every panel; and each encoding's raw score and softmax weight against distance, on two
// plots side by side. The panels are six <posenc-attention> elements; the section asks for the
// scores and the weights of all six (attentionMatrix, one posenc.attentionScores call each, which
// the panels then find computed) for the curves and the read-out, and gives every panel the one
// colour scale over all six through its `domain`. The T5 panel's bias table is the one the trained
// T5 model (the trained-models section's) learnt, one of its heads, given through `t5-bias`.
import { choiceControl, controlRow, numberControl, rerollButton } from '../../../widgets/controls.js';
import { byId, h } from '../../../widgets/dom.js';
import { formatFixed, formatSig, formatSigText, withMinus } from '../../../widgets/format.js';
import { createLinePlot } from '../../../widgets/plots/lineplot.js';
import { coalesceToAnimationFrame } from '../../../widgets/schedule.js';
import { range } from '../../../widgets/vectors.js';
import weights from '../../models/weights.json';
import { t5BiasPerHead } from '../trained/t5-bias.js';
import { decodeModel } from '../trained/weights.js';
import {
  ALIBI_HEADS,
  Attention,
  attentionMatrix,
  ENCODINGS,
  scoreDomain,
  T5_MAX_DISTANCE,
  weightDomain,
} from '../../../widgets/elements/attention.js';

// The panels' helpers live with <posenc-attention>, the one implementation of a panel's matrix.
export {
  ALIBI_HEADS,
  ENCODINGS,
  encodingOptions,
  familyContents,
  weightDomain,
} from '../../../widgets/elements/attention.js';

// The trained T5 model's head whose table the T5 panel uses (the plot shows both heads).
export const T5_PANEL_HEAD = 0;

/** The panels' settings are <posenc-attention>'s (same specs). */
const PANEL = Attention.settings;

export const id = 'family';

export const settings = {
  'fam.n': PANEL['seq-len'].spec,
  'fam.l0': {
    ...PANEL.l0.spec,
    maxFrom: (get) => Math.floor(get('fam.n') / 2),
    maxNote: 'the training length is at most half of fam.n',
  },
  'fam.d': PANEL['head-dim'].spec,
  'fam.content': PANEL.content.spec,
  'fam.seed': PANEL.seed.spec,
  'fam.view': PANEL.view.spec,
  'fam.causal': PANEL.causal.spec,
  'fam.curve': { type: 'enum', default: 'last', values: ['last', 'mean'] },
  'fam.head': PANEL.head.spec,
};

/**
 * The score-against-distance curve of a row-major [n, n] matrix: distance t = m − n ≥ 0 (keys at
 * or before the query, never masked), from the last query row or the mean over every query.
 */
export function distanceCurve(values, n, curve) {
  const y = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    if (curve === 'last') y[t] = values[(n - 1) * n + (n - 1 - t)];
    else {
      let sum = 0;
      for (let m = t; m < n; m++) sum += values[m * n + (m - t)];
      y[t] = sum / (n - t);
    }
  }
  return y;
}

/** Radio options from [value, label] pairs. */
const options = (pairs) => pairs.map(([value, label]) => ({ value, label }));

/** The radio group of an 'enum' setting of this section. */
const choice = (state, key, label, pairs) => choiceControl(state, key, { label, options: options(pairs) });

/**
 * The trained T5 model's table, as the T5 panel uses it: the model, each head's bias per bucket,
 * and the panel's head. The panel buckets one direction up to T5_MAX_DISTANCE: the model must too.
 */
function trainedT5() {
  const model = decodeModel(weights, 't5');
  const { bidirectional, maxDistance } = model.options;
  if (bidirectional || maxDistance !== T5_MAX_DISTANCE)
    throw new Error(
      `family: the trained T5 model buckets ${JSON.stringify(model.options)}; the T5 panel needs one direction up to ${T5_MAX_DISTANCE}`,
    );
  const heads = t5BiasPerHead(model);
  return { model, heads, panel: heads[T5_PANEL_HEAD] };
}

/**
 * What the callout says of the panel's table: the bias at the model's lag, the range over the other
 * buckets its training inputs reached (distances below the training length), the range over the
 * buckets they never reached, and the smallest distance of those. A bucket's distances are
 * posenc's bucketing of 0 … maxDistance (query i against key 0 is distance i).
 */
export function t5TableFacts(posenc, model, bias) {
  const { lag, trainLength } = model;
  const { numBuckets, maxDistance } = model.options;
  const buckets = posenc.relativePositionBuckets({
    queryLen: maxDistance + 1,
    keyLen: 1,
    numBuckets,
    maxDistance,
    bidirectional: false,
  });
  const nearest = new Array(numBuckets).fill(Infinity);
  buckets.forEach((bucket, distance) => {
    nearest[bucket] = Math.min(nearest[bucket], distance);
  });
  const lagBucket = buckets[lag];
  const span = (list) => [Math.min(...list), Math.max(...list)];
  const seen = range(numBuckets).filter((b) => nearest[b] < trainLength && b !== lagBucket);
  const far = range(numBuckets).filter((b) => nearest[b] >= trainLength);
  return {
    lag: bias[lagBucket],
    seen: span(seen.map((b) => bias[b])),
    far: span(far.map((b) => bias[b])),
    farFrom: Math.min(...far.map((b) => nearest[b])),
  };
}

/** The callout's numbers about the panel's table (companion.html, #family). */
function fillT5Callout(posenc, { model, panel }) {
  const facts = t5TableFacts(posenc, model, panel);
  const at = (value) => withMinus(formatFixed(value, 2));
  const between = ([lo, hi]) => `${at(lo)} to ${at(hi)}`;
  byId('fam-t5-head').textContent = String(T5_PANEL_HEAD);
  byId('fam-t5-lag').textContent = at(facts.lag);
  byId('fam-t5-seen').textContent = between(facts.seen);
  byId('fam-t5-far-from').textContent = String(facts.farFrom);
  byId('fam-t5-far').textContent = between(facts.far);
}

/** The bias per bucket that the trained T5 model learnt, one line per head (the panel's named). */
function trainedT5BiasPlot({ model, heads }) {
  const at = (values, b) => formatSigText(values[b], 3);
  const label = (head) => `trained T5 model, head ${head}${head === T5_PANEL_HEAD ? ' (the T5 panel’s)' : ''}`;
  const plot = createLinePlot({
    name: 'family-t5-trained-bias',
    title: `T5 bias per bucket, learnt by the trained T5 model (the T5 panel uses head ${T5_PANEL_HEAD})`,
    xLabel: `bucket (one direction, ${model.options.numBuckets} buckets up to distance ${model.options.maxDistance})`,
    yLabel: 'bias added to the score',
    summary: () =>
      `The learned relative-attention bias of the one-layer T5 model trained on lag copy (see the trained models), per bucket, ` +
      `for each of its ${heads.length} heads; the T5 panel above uses head ${T5_PANEL_HEAD}. At buckets 0, 3 and ${heads[0].length - 1}: ` +
      heads
        .map((values, head) => `head ${head} ${at(values, 0)}, ${at(values, 3)}, ${at(values, values.length - 1)}`)
        .join('; ') +
      '.',
  });
  const x = range(heads[0].length);
  plot.draw({ series: heads.map((y, head) => ({ label: label(head), x, y })) });
  return plot.element;
}

export function mount({ posenc, state }) {
  const root = byId('family-demo');
  let shown = null;
  const hint = 'Point at or tap any panel, or focus one and use the arrow keys: the crosshair follows in all six.';
  const readout = h('output', { class: 'readout shared-readout', id: 'fam-readout', 'aria-live': 'polite' }, hint);
  // The six panels are <posenc-attention> elements on the colour scale the section computes over all six.
  const t5 = trainedT5();
  fillT5Callout(posenc, t5);
  const t5Bias = Array.from(t5.panel);
  const panels = ENCODINGS.map(({ key }) => {
    const panel = h('posenc-attention', { encoding: key });
    if (key === 't5') panel.t5Bias = t5Bias;
    return panel;
  });
  panels.forEach((panel, index) => {
    panel.addEventListener('posenc-pick', ({ detail: cell }) => {
      panels.forEach((other, j) => {
        if (j !== index) other.setCursor(cell);
      });
      if (!cell || !shown) {
        readout.textContent = hint; // never the numbers of a cell no longer drawn
        return;
      }
      const at = cell.row * shown.n + cell.col;
      const both = (j) => `${formatSig(shown.scores[j][at], 4)} / ${formatSig(shown.weights[j][at], 4)}`;
      readout.textContent =
        `m = ${cell.row}, n = ${cell.col} (m − n = ${cell.row - cell.col}), score / weight: ` +
        ENCODINGS.map(({ title }, j) => `${title} ${both(j)}`).join(', ');
    });
  });
  // Raw scores and the softmax weights made from them, side by side, whichever the panels show.
  const curvePlots = {
    scores: createLinePlot({
      name: 'family-distance',
      title: 'raw score against distance',
      xLabel: 'distance m − n',
      yLabel: 'score q·k/√d (+ bias)',
      summary: () => curveSummary('scores'),
    }),
    weights: createLinePlot({
      name: 'family-weight-distance',
      title: 'softmax weight against distance',
      xLabel: 'distance m − n',
      yLabel: 'softmax weight',
      summary: () => curveSummary('weights'),
    }),
  };
  const reroll = rerollButton(state, 'fam.seed', {
    id: 'fam-reroll',
    label: 'Re-roll the six panels’ random contents',
  });
  const slopeNote = h('p', { class: 'note', id: 'fam-slope-note' });
  root.append(
    controlRow(
      numberControl(state, 'fam.n', { label: 'positions N' }),
      numberControl(state, 'fam.l0', { label: 'training length L0' }),
      numberControl(state, 'fam.d', { label: 'head dimension d' }),
      numberControl(state, 'fam.head', { label: `ALiBi head (of ${ALIBI_HEADS})` }),
    ),
    controlRow(
      choice(state, 'fam.view', 'show', [
        ['scores', 'raw scores'],
        ['weights', 'softmax weights'],
      ]),
      choice(state, 'fam.causal', 'causal mask', [
        ['off', 'off'],
        ['on', 'on'],
      ]),
    ),
    controlRow(
      choice(state, 'fam.content', 'token contents', [
        ['qk', 'one random query and key, at every position'],
        ['tokens', 'a random query and key per token'],
      ]),
      reroll,
    ),
    slopeNote,
    h('div', { class: 'plot-grid three' }, panels),
    readout,
    controlRow(
      choice(state, 'fam.curve', 'curve', [
        ['last', 'the last query against every key'],
        ['mean', 'mean over queries at each distance'],
      ]),
    ),
    h('div', { class: 'plot-grid two' }, [curvePlots.scores.element, curvePlots.weights.element]),
    trainedT5BiasPlot(t5),
  );

  function curveSummary(view) {
    if (!shown) return '';
    const what = view === 'weights' ? 'softmax weight' : 'raw score';
    const from = shown.curve === 'last' ? `of the query at position ${shown.n - 1}` : 'averaged over the queries';
    const at = (j, t) => formatSigText(shown.curves[view][j][t], 3);
    return (
      `The ${what} ${from} at each distance 0 to ${shown.n - 1}, one line per encoding; a dashed line marks L0 = ${shown.l0}. ` +
      `At distance 0, L0 and ${shown.n - 1}: ` +
      ENCODINGS.map(({ title }, j) => `${title} ${at(j, 0)}, ${at(j, shown.l0)}, ${at(j, shown.n - 1)}`).join('; ') +
      '.'
    );
  }

  function draw() {
    const started = performance.now();
    const n = state.get('fam.n');
    const l0 = state.get('fam.l0');
    const d = state.get('fam.d');
    const head = state.get('fam.head');
    const view = state.get('fam.view');
    const causal = state.get('fam.causal') === 'on';
    const curve = state.get('fam.curve');
    const content = state.get('fam.content');
    const seed = state.get('fam.seed');
    const matricesOf = (shownView) =>
      ENCODINGS.map(({ key }) =>
        attentionMatrix(posenc, { encoding: key, n, d, content, seed, view: shownView, causal, head, t5Bias }),
      );
    const scores = matricesOf('scores');
    const weights = matricesOf('weights');
    const curvesOf = (matrices) => matrices.map((values) => distanceCurve(values, n, curve));
    shown = { n, l0, causal, curve, scores, weights, curves: { scores: curvesOf(scores), weights: curvesOf(weights) } };

    const domain = view === 'weights' ? weightDomain(weights) : scoreDomain(scores);
    const attributes = {
      'seq-len': n, // before l0, whose limit depends on it
      l0,
      'head-dim': d,
      content,
      seed,
      view,
      causal: causal ? 'on' : 'off',
      head,
      domain: domain.join(','),
    };
    for (const panel of panels) for (const [name, value] of Object.entries(attributes)) panel.setAttribute(name, value);
    const slope = posenc.alibiSlopes({ numHeads: ALIBI_HEADS })[head - 1];
    slopeNote.textContent =
      `ALiBi: head ${head} of ${ALIBI_HEADS}, slope ${formatSig(slope, 6)}: a key ${l0} positions back loses ${formatSig(slope * l0, 4)}. ` +
      `T5: head ${T5_PANEL_HEAD} of the trained T5 model, ${t5Bias.length} buckets of one direction (a decoder’s), as described above` +
      (causal ? '.' : ': without the mask, every key after the query falls in bucket 0, with distance 0.') +
      (causal
        ? ''
        : ' ALiBi was made for causal models (BLOOM, MPT): without the mask its bias, slope × (n − m), grows for keys after the query, so the far right of its panel wins. Switch the mask on to see it as those models use it.');
    slopeNote.dataset.slope = String(slope);

    const x = range(n);
    for (const [plotView, plot] of Object.entries(curvePlots)) {
      plot.draw({
        series: ENCODINGS.map(({ title }, j) => ({ label: title, x, y: shown.curves[plotView][j] })),
        marks: [{ x: l0, label: `training length L0 = ${l0}` }],
      });
    }
    root.dataset.drawMs = (performance.now() - started).toFixed(2);
  }

  const request = coalesceToAnimationFrame(draw);
  state.watch(['fam.'], request);
  request();
}
