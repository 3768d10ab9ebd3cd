// Colour maps as 256-entry RGB lookup tables, computed once from d3-scale-chromatic.
// Colour-blind-safe choices: viridis and cividis (sequential, for similarities) and
// ColorBrewer's RdBu reversed (diverging, blue < 0 < red, for signed values, centred at 0).
import { interpolateCividis, interpolateRdBu, interpolateViridis } from 'd3-scale-chromatic';

export const LUT_SIZE = 256;

const INTERPOLATORS = {
  viridis: interpolateViridis,
  cividis: interpolateCividis,
  diverging: (t) => interpolateRdBu(1 - t),
};

const cache = new Map();

function parseColor(text) {
  const hex = /^#([0-9a-f]{6})$/i.exec(text);
  if (hex) {
    const n = parseInt(hex[1], 16);
    return [n >> 16, (n >> 8) & 255, n & 255];
  }
  const rgb = /^rgb\((\d+),\s*(\d+),\s*(\d+)\)$/.exec(text);
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  throw new Error(`colormap: cannot read colour ${text}`);
}

/** The Uint8Array(256 * 3) RGB table of a colour map ('viridis' | 'cividis' | 'diverging'). */
export function colormapLut(name) {
  if (!cache.has(name)) {
    const interpolate = INTERPOLATORS[name];
    if (!interpolate) throw new Error(`colormap: unknown colour map ${name}`);
    const lut = new Uint8Array(LUT_SIZE * 3);
    for (let i = 0; i < LUT_SIZE; i++) lut.set(parseColor(interpolate(i / (LUT_SIZE - 1))), i * 3);
    cache.set(name, lut);
  }
  return cache.get(name);
}

/** The table entry for `value` on the colour scale [lo, hi] (clamped at both ends). */
export function lutIndex(value, lo, hi) {
  if (!(hi > lo)) return (LUT_SIZE - 1) >> 1;
  const t = (value - lo) / (hi - lo);
  if (!(t > 0)) return 0;
  if (t >= 1) return LUT_SIZE - 1;
  return Math.round(t * (LUT_SIZE - 1));
}

/** The diverging scale for signed values: symmetric around 0, reaching the largest |value|. */
export function symmetricDomain(values) {
  let max = 0;
  for (let i = 0; i < values.length; i++) if (Math.abs(values[i]) > max) max = Math.abs(values[i]);
  return max === 0 ? [-1, 1] : [-max, max];
}

/** [min, max] of the values of one or more arrays (for sequential scales; no spread copies). */
export function extent(...arrays) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const values of arrays) {
    for (let i = 0; i < values.length; i++) {
      // indexed: for...of over a typed array is far slower
      const v = values[i];
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  return lo <= hi ? [lo, hi] : [0, 1];
}

/** Okabe–Ito colours for line series: distinguishable with every common colour-vision deficiency. */
// Okabe-Ito; the last one is the text colour (black in light mode, light grey in dark mode).
export const SERIES_COLORS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', 'currentColor'];
