// Long context: RoPE beyond the length a model was trained on. For a real model's scaling
// config (a preset), the wavelength of every rotary pair with and without the schedule, and the
// score heatmap over positions up to several training lengths, without and with the scaling, on
// one colour scale. Frequencies, attention factors, rotations and scores all come from posenc.
import { choiceControl, controlRow, numberControl, rerollButton, selectControl } from '../../../widgets/controls.js';
import { byId, h, pre } from '../../../widgets/dom.js';
import { formatSig, formatSigText, ordinal } from '../../../widgets/format.js';
import { LONG_CONTEXT_PRESETS, PRESET_IDS, presetById } from '../long-context-presets.js';
import { extent } from '../../../widgets/plots/colormap.js';
import { createHeatmap } from '../../../widgets/plots/heatmap.js';
import { createLinePlot } from '../../../widgets/plots/lineplot.js';
import { coalesceToAnimationFrame, progressiveToAnimationFrame } from '../../../widgets/schedule.js';
import { createScoreCurves } from '../score-curves.js';
import { randomQueryKey } from '../../../widgets/tokens.js';
import { range } from '../../../widgets/vectors.js';
import log from '../../models/training-log.json';
import { fillLoggedAccuracies } from '../trained/logged.js';

export const id = 'long-context';

export const settings = {
  'lc.preset': { type: 'enum', default: 'llama3.1', values: PRESET_IDS },
  'lc.span': { type: 'int', default: 2, min: 1, max: 16 },
  'lc.cells': { type: 'int', default: 256, min: 32, max: 512 },
  'lc.content': { type: 'enum', default: 'same', values: ['same', 'qk'] },
  'lc.seed': { type: 'int', default: 1, min: 1, max: 999999 },
};

// With the key equal to the query the score peaks at m = n and falls off with distance, which
// shows the stretch plainly; independent q and k give a texture with no peak.
const CONTENT_OPTIONS = [
  { value: 'same', label: 'random q, key k = q' },
  { value: 'qk', label: 'random q and k (independent)' },
];

// The layout does not change what these plots show; the models listed all use the half pairing.
const LAYOUT = 'half';
const COLORS = { none: 'currentColor', scaled: '#D55E00', short: '#E69F00', linear: '#0072B2' };
const PANELS = [
  { key: 'plain', title: 'without scaling' },
  { key: 'scaled', title: 'with the preset’s scaling' },
];

/**
 * Positions 0 … span × trainedLength − 1, sampled with a stride so that at most `cells` remain:
 * stride = ceil(total / cells), positions 0, stride, 2 × stride, … below total.
 */
function sampledPositions(span, trainedLength, cells) {
  const total = span * trainedLength;
  const stride = Math.ceil(total / cells);
  const count = Math.ceil(total / stride);
  return { positions: Int32Array.from({ length: count }, (_, j) => j * stride), stride };
}

function wavelengths(invFreq) {
  return Float64Array.from(invFreq, (w) => (2 * Math.PI) / w);
}

// New distances (both panels) computed in the first animation frame of a redraw, for the exact
// picture at once; beyond them the first animation frame shows a preview from PREVIEW_DISTANCES
// sampled distances per panel, and the rest is computed in steps over the next animation frames
// (32 768 new distances in one animation frame, a new q at the defaults, took 90 ms and more on a
// loaded machine).
const DIRECT_DISTANCES = 8192;
const PREVIEW_DISTANCES = 4096;
// A distance curve longer than this is drawn in the animation frame after the heatmaps.
const CURVE_DEFERRED_ABOVE = 32768;

/** A generator's return value, with all its steps run now. */
function runToEnd(steps) {
  for (;;) {
    const { done, value } = steps.next();
    if (done) return value;
  }
}

/**
 * The heatmap of cells that stand for blocks of `stride` positions: each cell the mean score over
 * its stride × stride pairs of query and key positions (a box filter: sampling one pair per cell
 * would alias every pair whose wavelength is under 2 · stride). A block pair at offset o = i − j
 * holds the distances o · stride + t, |t| < stride, (stride − |t|) times each. The curves hold
 * the score at the distances 0, step, 2 · step, … (ahead: query after key; behind: before): with
 * step 1 each cell is the exact mean; with a larger step, the same weighted mean over the
 * distances known (a preview).
 */
function blockMeans({ ahead, behind }, count, stride, step = 1) {
  const byOffset = new Float64Array(2 * count - 1); // offset o at o + count − 1
  for (let o = -(count - 1); o < count; o++) {
    const centre = o * stride;
    let sum = 0;
    let weights = 0;
    // Distance j · step, the known ones within the block pair.
    for (let j = Math.ceil((centre - stride + 1) / step); j * step < centre + stride; j++) {
      const weight = stride - Math.abs(j * step - centre);
      sum += weight * (j >= 0 ? ahead[j] : behind[-j]);
      weights += weight;
    }
    byOffset[o + count - 1] = sum / weights; // weights = stride² when step is 1
  }
  const values = new Float32Array(count * count);
  for (let i = 0; i < count; i++) for (let j = 0; j < count; j++) values[i * count + j] = byOffset[i - j + count - 1];
  return values;
}

/** Distances 0, step, 2 · step, … (count of them): the x of the distance plot, kept while unchanged. */
let distanceAxis = new Float64Array(0);
function distances(count, step) {
  if (distanceAxis.length !== count || distanceAxis[1] !== step) {
    distanceAxis = new Float64Array(count);
    for (let j = 0; j < count; j++) distanceAxis[j] = j * step;
  }
  return distanceAxis;
}

/** "0–31, 40, 44–63": sorted indices as ranges. */
function indexRanges(indices) {
  const parts = [];
  for (let k = 0; k < indices.length; ) {
    let end = k;
    while (end + 1 < indices.length && indices[end + 1] === indices[end] + 1) end++;
    parts.push(end === k ? String(indices[k]) : `${indices[k]}–${indices[end]}`);
    k = end + 1;
  }
  return parts.join(', ');
}

/** How a schedule changes each pair's wavelength (the ratio scaled / unscaled), in words. */
function describeStretch(plain, scaled) {
  const ratios = Array.from(plain, (w, i) => w / scaled[i]);
  const pairs = ratios.length;
  const largest = Math.max(...ratios);
  const kept = [];
  const most = [];
  const between = [];
  ratios.forEach((r, i) => {
    if (Math.abs(r - 1) <= 1e-9) kept.push(i);
    else if (Math.abs(r - largest) <= 1e-9 * largest) most.push(i);
    else between.push(i);
  });
  if (kept.length === pairs) return 'Every pair keeps its wavelength.';
  if (most.length === pairs) return `All ${pairs} pairs get ${formatSig(largest, 4)}× longer wavelengths.`;
  const sentences = [];
  if (kept.length)
    sentences.push(
      `pair${kept.length > 1 ? 's' : ''} ${indexRanges(kept)} keep${kept.length > 1 ? '' : 's'} ${kept.length > 1 ? 'their' : 'its'} wavelength`,
    );
  if (between.length) {
    const lo = Math.min(...between.map((i) => ratios[i]));
    const hi = Math.max(...between.map((i) => ratios[i]));
    sentences.push(
      `pair${between.length > 1 ? 's' : ''} ${indexRanges(between)} ${between.length > 1 ? 'are' : 'is'} stretched by ${formatSig(lo, 3)}× to ${formatSig(hi, 3)}×`,
    );
  }
  sentences.push(`pair${most.length > 1 ? 's' : ''} ${indexRanges(most)} the most, ${formatSig(largest, 4)}×`);
  const text = sentences.join('; ');
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

/** A distance in training lengths, exact where it is one: 16383 -> "2 × L0 − 1", 8192 -> "L0", 1000 -> "0.122 × L0". */
export function inTrainingLengths(distance, L0) {
  const times = (k) => (k === 1 ? 'L0' : `${k} × L0`);
  if (distance % L0 === 0) return times(distance / L0);
  if ((distance + 1) % L0 === 0) return `${times((distance + 1) / L0)} − 1`;
  return `${formatSig(distance / L0, 3)} × L0`;
}

/** Which pairs never complete a turn within the training length (wavelength above L0). */
function wavelengthsAbove(above) {
  if (above.length === 0) return 'every pair completes a turn within it.';
  return `${above.length === 1 ? `pair ${above[0]} has its wavelength` : `pairs ${indexRanges(above)} have their wavelengths`} above it, so they never complete a turn within it.`;
}

/** Which pairs the schedule changes, compared with the pairs above L0 (a schedule has its own rule). */
function stretchedPairs(scaling, changed, above, count) {
  if (changed.length === 0) return `${scaling.type} leaves every wavelength as it is at this length.`;
  const same = changed.length === above.length && changed.every((i, k) => i === above[k]);
  const which = changed.length === count ? 'all pairs, the short wavelengths too' : `pairs ${indexRanges(changed)}`;
  return `${scaling.type} changes ${which}${same ? ': exactly those.' : ', by its own rule, not by this line.'}`;
}

/**
 * The pairs whose angle at `distance` lies outside every angle a model trained on distances
 * 0 … trainedLength − 1 produced: pairs that never turned a full circle in training
 * ((L0 − 1) ω_i < 2π, with the unscaled ω_i it was trained with) and whose angle now, taken
 * modulo 2π, lies past (L0 − 1) ω_i. Attention sees an angle only through its cos and sin, so a
 * pair that has turned on into the range it met in training is on familiar ground again.
 * Returns the pairs' indices.
 */
function unseenPairs(trainedInvFreq, invFreq, trainedLength, distance) {
  const unseen = [];
  trainedInvFreq.forEach((w, i) => {
    const trainedMax = (trainedLength - 1) * w;
    const angle = (distance * invFreq[i]) % (2 * Math.PI);
    if (trainedMax < 2 * Math.PI && angle > trainedMax * (1 + 1e-12)) unseen.push(i);
  });
  return unseen;
}

/** A scaling config as JavaScript source, one key per line, factor lists shortened. */
function scalingSource(scaling, indent) {
  const value = (v) => {
    if (Array.isArray(v))
      return `[${v
        .slice(0, 3)
        .map((x) => formatSig(x, 4))
        .join(', ')}, … ${v.length} numbers]`;
    return typeof v === 'string' ? `'${v}'` : String(v);
  };
  return `{\n${Object.entries(scaling)
    .map(([key, v]) => `${indent}  ${key}: ${value(v)},\n`)
    .join('')}${indent}}`;
}

function scalingName(scaling) {
  return scaling.factor === undefined ? scaling.type : `${scaling.type}, factor ${scaling.factor}`;
}

export function mount({ posenc, state }) {
  fillLoggedAccuracies(byId(id), log); // the prose's accuracies of the trained models
  const root = byId('long-context-demo');
  const heatRoot = byId('long-context-heatmap-demo');

  const schedule = (preset, scaling, seqLen) =>
    posenc.ropeSchedule({ rotaryDim: preset.rotaryDim, base: preset.base, scaling, seqLen });

  /** What the heatmap rotates: its positions, and the length L that dynamic and longrope see. */
  function currentView() {
    const preset = presetById(state.get('lc.preset'));
    const { positions, stride } = sampledPositions(state.get('lc.span'), preset.trainedLength, state.get('lc.cells'));
    // Cell j stands for the block of positions [j · stride, (j + 1) · stride): the sequence is
    // count · stride long, and length-dependent schedules (dynamic, longrope) see that length.
    return { preset, positions, stride, length: positions.length * stride };
  }

  // ---- the wavelength of every pair ----------------------------------------------------------
  let wavelengthSummary = '';
  const plot = createLinePlot({
    name: 'long-context-wavelengths',
    title: 'Wavelength of each rotary pair',
    xLabel: 'pair i',
    yLabel: 'wavelength (positions)',
    yScale: 'log',
    aspect: 1.8,
    summary: () => wavelengthSummary,
  });
  const call = h('code', { id: 'lc-call' });
  const attention = h('p', { class: 'result', id: 'lc-attention' });
  const stretch = h('p', { class: 'note', id: 'lc-stretch' });
  const presetNote = h('p', { class: 'note', id: 'lc-preset-note' });
  root.append(
    controlRow(
      selectControl(state, 'lc.preset', {
        label: 'model preset',
        options: LONG_CONTEXT_PRESETS.map((p) => ({ value: p.id, label: p.label })),
      }),
      numberControl(state, 'lc.span', { label: 'positions up to (× training length)' }),
      numberControl(state, 'lc.cells', { label: 'heatmap cells per side' }),
    ),
    h(
      'div',
      { class: 'side-by-side' },
      plot.element,
      h(
        'div',
        {},
        h(
          'div',
          { class: 'code-block' },
          h('div', { class: 'code-title' }, 'The schedule, as posenc computes it'),
          pre({}, call),
        ),
        attention,
        stretch,
        presetNote,
      ),
    ),
  );

  function drawWavelengths() {
    const { preset, length } = currentView();
    const { scaling, trainedLength: L0 } = preset;
    const plain = schedule(preset);
    const applied = schedule(preset, scaling, length);
    const pairs = range(plain.invFreq.length);
    const series = [{ label: 'no scaling', x: pairs, y: wavelengths(plain.invFreq), color: COLORS.none }];
    if (scaling.type === 'longrope') {
      series.push(
        {
          label: `longrope, L ≤ ${L0} (short factors)`,
          x: pairs,
          y: wavelengths(schedule(preset, scaling, L0).invFreq),
          color: COLORS.short,
        },
        {
          label: `longrope, L > ${L0} (long factors)`,
          x: pairs,
          y: wavelengths(schedule(preset, scaling, L0 + 1).invFreq),
          color: COLORS.scaled,
        },
      );
    } else if (scaling.type === 'dynamic') {
      series.push({
        label: `dynamic at L = ${length}`,
        x: pairs,
        y: wavelengths(applied.invFreq),
        color: COLORS.scaled,
      });
    } else {
      series.push({ label: scalingName(scaling), x: pairs, y: wavelengths(applied.invFreq), color: COLORS.scaled });
    }
    if (scaling.type !== 'linear') {
      const linear = schedule(preset, { type: 'linear', factor: preset.linearFactor });
      series.push({
        label: `linear, factor ${preset.linearFactor} (for comparison)`,
        x: pairs,
        y: wavelengths(linear.invFreq),
        color: COLORS.linear,
        dash: '7 5',
      });
    }
    let lo = L0;
    let hi = L0;
    for (const { y } of series)
      for (const v of y) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    const above = pairs.filter((i) => series[0].y[i] > L0);
    const changed = pairs.filter((i) => Math.abs(plain.invFreq[i] / applied.invFreq[i] - 1) > 1e-9);
    const regime =
      scaling.type === 'longrope'
        ? ` (the heatmap below, at L = ${length}, uses the ${length > L0 ? 'long' : 'short'} factors)`
        : '';
    wavelengthSummary =
      `Wavelength of each of the ${pairs.length} rotary pairs of ${preset.model} (base ${preset.base}), log scale, without scaling and with ${scaling.type} scaling${regime}. ` +
      `Without scaling they run from ${formatSig(series[0].y[0], 4)} to ${formatSig(series[0].y[pairs.length - 1], 4)} positions. ` +
      `The dashed grey line is the training length L0 = ${L0}: ${wavelengthsAbove(above)} ${stretchedPairs(scaling, changed, above, pairs.length)}`;
    plot.draw({ series, yDomain: [lo / 1.6, hi * 1.6], marks: [{ y: L0, label: `training length L0 = ${L0}` }] });

    const factor = applied.attentionFactor;
    attention.dataset.attentionFactor = String(factor);
    attention.textContent =
      factor === 1
        ? `Attention factor: 1 — ${scaling.type} scaling leaves the size of cos and sin, and so of the scores, unchanged.`
        : `Attention factor: ${formatSig(factor, 7)} — cos and sin are multiplied by it, so every query–key score by its square, ${formatSig(factor * factor, 6)}.`;
    call.textContent = `posenc.ropeSchedule({\n  rotaryDim: ${preset.rotaryDim},\n  base: ${preset.base},\n  seqLen: ${length},\n  scaling: ${scalingSource(scaling, '  ')},\n})\n→ attentionFactor ${formatSig(factor, 10)}`;
    stretch.textContent = `${scalingName(scaling)} at L = ${length}: ${describeStretch(plain.invFreq, applied.invFreq)}`;
    presetNote.textContent = preset.note ?? '';
  }

  // ---- the score heatmap beyond the training length -------------------------------------------
  let shown = null;
  const heatmaps = PANELS.map(({ key, title }) =>
    createHeatmap({
      name: `long-context-${key}`,
      title,
      xLabel: 'key position n',
      yLabel: 'query position m',
      valueLabel: 'score (one scale for both)',
      colormap: 'diverging',
      square: true,
      summary: ({ rows, lo, hi }) => {
        if (!shown) return '';
        const what = key === 'plain' ? 'without scaling' : `with ${scalingName(shown.preset.scaling)} scaling`;
        return (
          `RoPE scores rot(q, m) · rot(k, n) ${what} for ${shown.preset.model}, positions 0 to ${shown.length - 1} in blocks of ${shown.stride} (${rows} per side; each cell is the mean score over its block of query and key positions); ` +
          `colour scale ${formatSigText(lo, 3)} to ${formatSigText(hi, 3)}, shared by both panels.` +
          (shown.guides.length
            ? ` The dashed diagonals mark |m − n| = L0 = ${shown.preset.trainedLength}: beyond them, query and key are farther apart than anywhere in training.`
            : '')
        );
      },
    }),
  );
  const hint = 'Point at or tap either panel: the crosshair follows in both.';
  const readout = h('output', { class: 'readout shared-readout', id: 'lc-readout', 'aria-live': 'polite' }, hint);
  heatmaps.forEach((heatmap, index) => {
    heatmap.onCursor((cell) => {
      heatmaps.forEach((other, j) => {
        if (j !== index) other.setCursor(cell);
      });
      if (!cell || !shown) {
        readout.textContent = hint; // never the numbers of a cell no longer drawn
        return;
      }
      const m = shown.positions[cell.row];
      const n = shown.positions[cell.col];
      const at = cell.row * shown.positions.length + cell.col;
      const block = (p) => (shown.stride > 1 ? `${p}…${p + shown.stride - 1}` : `${p}`);
      readout.textContent = `${shown.preview ? `${shown.preview} ` : ''}m = ${block(m)}, n = ${block(n)} (m − n = ${formatSigText(m - n)} on average): ${shown.stride > 1 ? 'mean score' : 'score'} without scaling ${formatSigText(shown.scores[0][at], 5)}, with ${shown.preset.scaling.type} ${formatSigText(shown.scores[1][at], 5)}`;
    });
  });
  const reroll = rerollButton(state, 'lc.seed', {
    id: 'lc-reroll',
    label: 'New random q, k',
    ariaLabel: 'New random q, k for the long-context heatmaps',
  });
  const note = h('p', { class: 'result', id: 'lc-heatmap-note' });
  const distancePlot = createLinePlot({
    name: 'long-context-distance',
    title: 'Score against distance m − n',
    xLabel: 'distance m − n (query after key)',
    yLabel: 'score',
    aspect: 2.4,
    thinning: 'unit', // redrawn at each step of the span slider
    summary: () =>
      shown
        ? `RoPE score of the query at distance m − n after the key, for ${shown.step > 1 ? `every ${ordinal(shown.step)} distance (a preview)` : 'every distance'} from 0 to ${shown.length - 1}, without and with ${scalingName(shown.preset.scaling)} scaling (${shown.preset.model}). ` +
          `The dashed line is the training length L0 = ${shown.preset.trainedLength}.`
        : '',
  });
  heatRoot.append(
    controlRow(choiceControl(state, 'lc.content', { label: 'q and k', options: CONTENT_OPTIONS }), reroll),
    h(
      'div',
      { class: 'plot-grid two' },
      heatmaps.map((heatmap) => heatmap.element),
    ),
    readout,
    note,
    distancePlot.element,
  );

  /**
   * Both panels and the note from per-distance scores: `curves` (no scaling,
   * with scaling) hold the score at every `step`-th distance; step 1 is the exact picture, a
   * larger step a preview, said so in the read-outs and captions.
   */
  function show(view, curves, step) {
    const { preset, positions, stride, length } = view;
    const { scaling, trainedLength: L0 } = preset;
    const count = positions.length;
    const scores = curves.map((curve) => blockMeans(curve, count, stride, step));
    // One scale for both panels. Scores of both signs: the diverging map around 0; scores of one
    // sign (k = q keeps them mostly positive): a sequential map over their range, so the panels'
    // differences are not left to a few tints of one half of a diverging map.
    const [lo, hi] = extent(...scores);
    const bothSigns = lo < -0.1 * hi && hi > -0.1 * lo;
    const reach = Math.max(-lo, hi);
    const domain = bothSigns ? [-reach, reach] : [lo, hi];
    const colormap = bothSigns ? 'diverging' : 'viridis';
    // |m − n| = L0, in cell indices: position p sits at p / stride − 0.5 (cell j's centre is j).
    const cellOf = (p) => p / stride - 0.5;
    const guides =
      L0 < length
        ? [
            { from: [cellOf(L0), cellOf(0)], to: [cellOf(length), cellOf(length - L0)] },
            { from: [cellOf(0), cellOf(L0)], to: [cellOf(length - L0), cellOf(length)] },
          ]
        : [];
    const preview =
      step > 1
        ? `Preview: each cell the mean over every ${ordinal(step)} distance in its block; the exact block means follow.`
        : null;
    shown = { preset, positions, stride, length, scores, guides, step, preview };
    heatmaps[1].setTitle(`with ${scalingName(scaling)} scaling`);
    heatmaps.forEach((heatmap, j) => {
      heatmap.draw({
        values: scores[j],
        rows: count,
        cols: count,
        domain,
        colormap,
        rowStep: stride,
        colStep: stride,
        guides,
        preview,
      });
    });

    const plain = schedule(preset);
    const applied = schedule(preset, scaling, length);
    const farthest = length - 1;
    const before = unseenPairs(plain.invFreq, plain.invFreq, L0, farthest);
    const after = unseenPairs(plain.invFreq, applied.invFreq, L0, farthest);
    const pairs = plain.invFreq.length;
    const plainCount = before.length === 0 ? 'none' : `${before.length} (pairs ${indexRanges(before)})`;
    note.textContent =
      `At the largest distance shown, m − n = ${farthest} (${inTrainingLengths(farthest, L0)}), ${plainCount} of the ${pairs} pairs turn to angles ` +
      `that training on ${L0} positions never produced (counted modulo 2π: attention sees an angle only through its cos and sin) ` +
      `without scaling; with ${scalingName(scaling)} scaling, ${after.length === 0 ? 'none do' : `${after.length} (pairs ${indexRanges(after)}) still do`}.`;
    note.dataset.unseenPlain = before.join(' ');
    note.dataset.unseenScaled = after.join(' ');
  }

  /**
   * The same scores against the distance (query after key, as in a decoder): every distance, or
   * every step-th one in a preview. After show(), for the same curves.
   */
  function showDistances({ length, preset }, curves, step) {
    const { scaling, trainedLength: L0 } = preset;
    distancePlot.draw({
      xDomain: [0, length - 1],
      series: [
        { label: 'no scaling', x: distances(curves[0].ahead.length, step), y: curves[0].ahead, color: COLORS.none },
        {
          label: `${scalingName(scaling)} scaling`,
          x: distances(curves[1].ahead.length, step),
          y: curves[1].ahead,
          color: COLORS.scaled,
        },
      ],
      marks: [{ x: L0, label: `training length L0 = ${L0}` }],
    });
  }

  // Per-distance scores, kept across redraws (a span or cells change reuses or extends them).
  const scoreCurves = createScoreCurves(posenc);

  function* drawHeatmaps() {
    const view = currentView();
    const { preset, length } = view;
    const { q, k } = randomQueryKey(state.get('lc.seed'), preset.rotaryDim);
    const content = state.get('lc.content');
    const spec = {
      q,
      k: content === 'same' ? q : k,
      contentKey: `${state.get('lc.seed')}|${content}|${preset.rotaryDim}`,
      headDim: preset.rotaryDim,
      base: preset.base,
      layout: LAYOUT,
    };
    const specs = [spec, { ...spec, scaling: preset.scaling }];
    const missing = specs.reduce((sum, s) => sum + length - scoreCurves.known(s, length), 0);
    if (missing > DIRECT_DISTANCES) {
      // A preview in the first animation frame, from the scores at every step-th distance.
      const step = Math.ceil(length / PREVIEW_DISTANCES);
      const sampled = specs.map((s) => scoreCurves.sampled(s, length, step));
      show(view, sampled, step);
      showDistances(view, sampled, step);
      yield;
    }
    const curves = [];
    for (const s of specs) {
      const steps = scoreCurves.exactSteps(s, length);
      curves.push(missing > DIRECT_DISTANCES ? yield* steps : runToEnd(steps));
    }
    show(view, curves, 1);
    // A long curve (up to a million points) in the next animation frame: the heatmaps are painted first.
    if (length > CURVE_DEFERRED_ABOVE) yield;
    showDistances(view, curves, 1);
  }

  const requestWavelengths = coalesceToAnimationFrame(drawWavelengths);
  const requestHeatmaps = progressiveToAnimationFrame(drawHeatmaps);
  state.watch(['lc.preset', 'lc.span', 'lc.cells'], requestWavelengths);
  state.watch(['lc.'], requestHeatmaps);
  requestWavelengths();
  requestHeatmaps();
}
