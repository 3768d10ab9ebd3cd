// Long context: RoPE beyond the length a model was trained on. For a real model's scaling
// config (a preset), the wavelength of every rotary pair with and without the schedule, and the
// score heatmap over positions up to several training lengths, without and with the scaling, on
// one colour scale. Frequencies, attention factors, rotations and scores all come from posenc.
import { choiceControl, controlRow, numberControl, selectControl } from '../controls.js';
import { byId, h } from '../dom.js';
import { formatSig } from '../format.js';
import { LONG_CONTEXT_PRESETS, PRESET_IDS, presetById } from '../long-context-presets.js';
import { symmetricDomain } from '../plots/colormap.js';
import { createHeatmap } from '../plots/heatmap.js';
import { createLinePlot } from '../plots/lineplot.js';
import { coalesceToFrame } from '../schedule.js';
import { randomQueryKey } from '../tokens.js';
import { range, tile } from '../vectors.js';

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
const COLORS = { none: '#000000', scaled: '#D55E00', short: '#E69F00', linear: '#0072B2' };
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
 * ((L0 − 1) ω_i < 2π, with the unscaled ω_i it was trained with) and now turn further.
 */
function unseenPairs(trainedInvFreq, invFreq, trainedLength, distance) {
  let count = 0;
  trainedInvFreq.forEach((w, i) => {
    const trainedMax = (trainedLength - 1) * w;
    if (trainedMax < 2 * Math.PI && distance * invFreq[i] > trainedMax * (1 + 1e-12)) count++;
  });
  return count;
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
  const root = byId('long-context-demo');
  const heatRoot = byId('long-context-heatmap-demo');

  const schedule = (preset, scaling, seqLen) =>
    posenc.ropeSchedule({ rotaryDim: preset.rotaryDim, base: preset.base, scaling, seqLen });

  /** What the heatmap rotates: its positions, and the length L that dynamic and longrope see. */
  function currentView() {
    const preset = presetById(state.get('lc.preset'));
    const { positions, stride } = sampledPositions(state.get('lc.span'), preset.trainedLength, state.get('lc.cells'));
    const last = positions[positions.length - 1];
    return { preset, positions, stride, last, length: last + 1 };
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
          h('pre', {}, call),
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
          `RoPE scores rot(q, m) · rot(k, n) ${what} for ${shown.preset.model}, positions 0 to ${shown.last} every ${shown.stride} (${rows} per side); ` +
          `colour scale ${formatSig(lo, 3)} to ${formatSig(hi, 3)}, shared by both panels.` +
          (shown.guides.length
            ? ` The dashed diagonals mark |m − n| = L0 = ${shown.preset.trainedLength}: beyond them, query and key are farther apart than anywhere in training.`
            : '')
        );
      },
    }),
  );
  const readout = h(
    'output',
    { class: 'readout shared-readout', id: 'lc-readout', 'aria-live': 'polite' },
    'Hover over either panel: the crosshair follows in both.',
  );
  heatmaps.forEach((heatmap, index) => {
    heatmap.onCursor((cell) => {
      heatmaps.forEach((other, j) => {
        if (j !== index) other.setCursor(cell);
      });
      if (!cell || !shown) return;
      const m = shown.positions[cell.row];
      const n = shown.positions[cell.col];
      const at = cell.row * shown.positions.length + cell.col;
      readout.textContent = `m = ${m}, n = ${n} (m − n = ${m - n}): without scaling ${formatSig(shown.scores[0][at], 5)}, with ${shown.preset.scaling.type} ${formatSig(shown.scores[1][at], 5)}`;
    });
  });
  const reroll = h(
    'button',
    { type: 'button', id: 'lc-reroll', 'aria-label': 'New random q, k for the long-context heatmaps' },
    'New random q, k',
  );
  reroll.addEventListener('click', () => state.set('lc.seed', (state.get('lc.seed') % 999998) + 1));
  const note = h('p', { class: 'result', id: 'lc-heatmap-note' });
  heatRoot.append(
    controlRow(choiceControl(state, 'lc.content', { label: 'q and k', options: CONTENT_OPTIONS }), reroll),
    h(
      'div',
      { class: 'plot-grid two' },
      heatmaps.map((heatmap) => heatmap.element),
    ),
    readout,
    note,
  );

  function drawHeatmaps() {
    const { preset, positions, stride, last, length } = currentView();
    const { scaling, rotaryDim, base, trainedLength: L0 } = preset;
    const count = positions.length;
    const { q, k } = randomQueryKey(state.get('lc.seed'), rotaryDim);
    const queries = tile(q, count);
    const keys = tile(state.get('lc.content') === 'same' ? q : k, count);
    const options = { seqLen: count, headDim: rotaryDim, base, layout: LAYOUT, positions };
    const scores = [undefined, scaling].map((s) => {
      const rotated = posenc.ropeQK(queries.slice(), keys.slice(), s ? { ...options, scaling: s } : options);
      return posenc.similarity(rotated.q, rotated.k, { rows: count, cols: count, dim: rotaryDim });
    });
    const reach = Math.max(...scores.map((values) => symmetricDomain(values)[1]));
    const domain = [-reach, reach];
    // |m − n| = L0, in cell indices (cell j holds position j × stride).
    const guides =
      L0 < last
        ? [
            { from: [L0 / stride, 0], to: [last / stride, (last - L0) / stride] },
            { from: [0, L0 / stride], to: [(last - L0) / stride, last / stride] },
          ]
        : [];
    shown = { preset, positions, stride, last, scores, guides };
    heatmaps[1].setTitle(`with ${scalingName(scaling)} scaling`);
    heatmaps.forEach((heatmap, j) => {
      heatmap.draw({ values: scores[j], rows: count, cols: count, domain, rowStep: stride, colStep: stride, guides });
    });

    const plain = schedule(preset);
    const applied = schedule(preset, scaling, length);
    const before = unseenPairs(plain.invFreq, plain.invFreq, L0, last);
    const after = unseenPairs(plain.invFreq, applied.invFreq, L0, last);
    const pairs = plain.invFreq.length;
    note.textContent =
      `At the largest distance shown, m − n = ${last} (${formatSig(last / L0, 3)} × L0), ${before} of the ${pairs} pairs turn to angles that training on ${L0} positions never produced ` +
      `without scaling; with ${scalingName(scaling)} scaling, ${after === 0 ? 'none do' : `${after} still do`}.`;
    note.dataset.unseenPlain = String(before);
    note.dataset.unseenScaled = String(after);
  }

  const requestWavelengths = coalesceToFrame(drawWavelengths);
  const requestHeatmaps = coalesceToFrame(drawHeatmaps);
  state.watch(['lc.preset', 'lc.span', 'lc.cells'], requestWavelengths);
  state.watch(['lc.'], requestHeatmaps);
  requestWavelengths();
  requestHeatmaps();
}
