// Axes, ticks and the plot box every plot sits in. Tick labels are HTML placed by percentage, so
// plots rescale with the page (phone or desktop) without redrawing.
import { h } from '../dom.js';
import { formatTicks } from '../format.js';

/** About `count` round numbers (1, 2, 5 × 10^k steps) covering [lo, hi]. */
export function niceTicks(lo, hi, count = 5) {
  if (!(hi > lo)) return [lo];
  const rawStep = (hi - lo) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(rawStep));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rawStep);
  const ticks = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

/** Powers of ten within [lo, hi] (lo > 0), thinned to about `count`. */
export function logTicks(lo, hi, count = 6) {
  const first = Math.ceil(Math.log10(lo) - 1e-9);
  const last = Math.floor(Math.log10(hi) + 1e-9);
  const stride = Math.max(1, Math.ceil((last - first + 1) / count));
  const ticks = [];
  for (let e = first; e <= last; e += stride) ticks.push(10 ** e);
  return ticks;
}

/**
 * A tick on an end of its axis is set inside the axis (plots.css): the y axis's bottom label sits
 * above the corner, where the x axis's first label would otherwise meet it (1e−9 over 1e0 on a
 * phone), and the x axis's last label ends at the plot box's right edge instead of hanging past it.
 */
function edgeClass(at) {
  if (at >= 0.999) return ' tick-end';
  return at <= 0.001 ? ' tick-start' : '';
}

/**
 * A plot box: the plot area (for a canvas or SVG) with a y axis on the left and an x axis below.
 * Returns { element, area, setXTicks(ticks, { words }), setYTicks(ticks) } where a tick is
 * { at: fraction 0..1 along the axis (0 = left / top), label }. `words`: the x labels are words
 * (tokens), set vertically so that neighbours never run together.
 *
 * Ticks are placed absolutely, so each axis also holds a hidden copy of its labels in the flow:
 * the y axis is as wide as its widest label and the x axis as tall as its longest vertical one,
 * and no label reaches into the axis title beside it.
 */
export function createPlotBox({ xLabel, yLabel }) {
  const area = h('div', { class: 'plot-area' });
  const xAxis = h('div', { class: 'axis axis-x', 'aria-hidden': 'true' });
  const yAxis = h('div', { class: 'axis axis-y', 'aria-hidden': 'true' });
  const element = h(
    'div',
    { class: 'plot-box' },
    h('div', { class: 'axis-label axis-label-y', 'aria-hidden': 'true' }, yLabel),
    yAxis,
    area,
    xAxis,
    h('div', { class: 'axis-label axis-label-x', 'aria-hidden': 'true' }, xLabel),
  );
  const place = (axis, ticks, property) => {
    axis.replaceChildren(
      h('div', { class: 'tick-sizer' }, ...ticks.map(({ label }) => h('span', {}, label))),
      ...ticks.map(({ at, label }) =>
        h('span', { class: `tick${edgeClass(at)}`, style: { [property]: `${(at * 100).toFixed(3)}%` } }, label),
      ),
    );
  };
  return {
    element,
    area,
    setXTicks: (ticks, { words = false } = {}) => {
      xAxis.classList.toggle('words', words);
      place(xAxis, ticks, 'left');
    },
    setYTicks: (ticks) => place(yAxis, ticks, 'top'),
  };
}

/** Ticks for a linear axis over [lo, hi]; `flip` puts hi at the start (a y axis growing upwards). */
export function linearAxisTicks(lo, hi, { count = 5, flip = false } = {}) {
  const values = niceTicks(lo, hi, count);
  const labels = formatTicks(values);
  return values.map((v, i) => {
    const t = hi > lo ? (v - lo) / (hi - lo) : 0.5;
    return { at: flip ? 1 - t : t, label: labels[i] };
  });
}

/** Ticks for a log axis over [lo, hi] (both > 0). */
export function logAxisTicks(lo, hi, { count = 6, flip = false } = {}) {
  const span = Math.log10(hi) - Math.log10(lo);
  const values = logTicks(lo, hi, count);
  const labels = formatTicks(values);
  return values.map((v, i) => {
    const t = span > 0 ? (Math.log10(v) - Math.log10(lo)) / span : 0.5;
    return { at: flip ? 1 - t : t, label: labels[i] };
  });
}

const WORD_LABEL_LIMIT = 10; // characters of a word shown on an axis; the read-out names it whole

/** `word`, or its first letters and "…" when it is longer than an axis label may be. */
export function shortWord(word) {
  const letters = [...word];
  return letters.length > WORD_LABEL_LIMIT ? `${letters.slice(0, WORD_LABEL_LIMIT - 1).join('')}…` : word;
}

/**
 * Ticks at cell centres of an index axis with `count` cells; `labels` names cells (tokens).
 * Cell i stands for the number first + i * step (step > 1: positions sampled with a stride).
 */
export function cellAxisTicks(count, { labels, first = 0, step = 1, target = 6 } = {}) {
  if (labels) return labels.map((label, i) => ({ at: (i + 0.5) / count, label: shortWord(label) }));
  const values = niceTicks(first, first + (count - 1) * step, target).filter((v) => Number.isInteger(v));
  const texts = formatTicks(values);
  return values.map((v, i) => ({ at: ((v - first) / step + 0.5) / count, label: texts[i] }));
}
