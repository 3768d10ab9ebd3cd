// Expected heatmap colours, derived directly from d3-scale-chromatic (not from the page's
// lookup tables): value -> position t on the scale [lo, hi] -> 1 of 256 colours.
import assert from 'node:assert/strict';
import { interpolateCividis, interpolateRdBu, interpolateViridis } from 'd3-scale-chromatic';

const MAPS = {
  viridis: interpolateViridis,
  cividis: interpolateCividis,
  diverging: (t) => interpolateRdBu(1 - t), // blue for negative, red for positive
};

function parse(color) {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (hex) return hex.slice(1).map((h) => parseInt(h, 16));
  const rgb = /^rgb\((\d+), ?(\d+), ?(\d+)\)$/.exec(color);
  if (rgb) return rgb.slice(1).map(Number);
  throw new Error(`cannot parse colour ${color}`);
}

export function colorAt(map, index) {
  return parse(MAPS[map](index / 255));
}

/** The 256-step index of `value` on [lo, hi]. */
export function scaleIndex(value, lo, hi) {
  return Math.min(255, Math.max(0, Math.round(((value - lo) / (hi - lo)) * 255)));
}

/**
 * Reads the pixels of a heatmap canvas at sample cells and checks each against the colour its
 * expected value must have (the exact step, or a neighbour for values on a rounding boundary).
 * `expected(row, col)` gives the value computed independently in Node.
 */
export async function checkHeatmapPixels(page, plot, { rows, cols, expected, domain, samples = 48 }) {
  const canvas = page.locator(`figure[data-plot="${plot}"] canvas.heatmap-cells`);
  const info = await canvas.evaluate((node) => ({ ...node.dataset, width: node.width, height: node.height }));
  assert.equal(Number(info.rows), rows, `${plot}: rows`);
  assert.equal(Number(info.cols), cols, `${plot}: cols`);
  assert.equal(info.width, cols, `${plot}: one canvas pixel per column`);
  assert.equal(info.height, rows, `${plot}: one canvas pixel per row`);
  const lo = Number(info.lo);
  const hi = Number(info.hi);
  if (domain) {
    assert.ok(
      Math.abs(lo - domain[0]) <= 1e-5 * Math.max(1, Math.abs(domain[0])),
      `${plot}: scale starts at ${lo}, expected ${domain[0]}`,
    );
    assert.ok(
      Math.abs(hi - domain[1]) <= 1e-5 * Math.max(1, Math.abs(domain[1])),
      `${plot}: scale ends at ${hi}, expected ${domain[1]}`,
    );
  }
  // Corners, the centre and pseudo-random cells (a fixed sequence, so failures reproduce).
  const cells = [
    [0, 0],
    [0, cols - 1],
    [rows - 1, 0],
    [rows - 1, cols - 1],
    [rows >> 1, cols >> 1],
  ];
  let seed = 12345;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  while (cells.length < samples) cells.push([Math.floor(next() * rows), Math.floor(next() * cols)]);
  const pixels = await canvas.evaluate((node, list) => {
    const context = node.getContext('2d');
    return list.map(([r, c]) => Array.from(context.getImageData(c, r, 1, 1).data.slice(0, 3)));
  }, cells);
  cells.forEach(([r, c], i) => {
    const value = expected(r, c);
    const index = scaleIndex(value, lo, hi);
    const allowed = [index - 1, index, index + 1]
      .filter((k) => k >= 0 && k <= 255)
      .map((k) => colorAt(info.colormap, k));
    const ok = allowed.some((color) => color.every((v, j) => v === pixels[i][j]));
    assert.ok(
      ok,
      `${plot}: cell (${r}, ${c}) value ${value} should be ${info.colormap} step ${index} ${JSON.stringify(allowed[1] ?? allowed[0])}, pixel is ${JSON.stringify(pixels[i])}`,
    );
  });
  return { lo, hi, colormap: info.colormap };
}

/**
 * Several heatmaps drawn on one colour scale: each panel's pixels against its expected values
 * (row-major, `cols` wide), the shared domain, and the colour map every panel must use.
 * `panels` maps a figure's data-plot name to its values.
 */
export async function checkSharedScale(page, panels, { rows, cols, domain, colormap, samples }) {
  for (const [plot, values] of Object.entries(panels)) {
    const drawn = await checkHeatmapPixels(page, plot, {
      rows,
      cols,
      expected: (r, c) => values[r * cols + c],
      domain,
      samples,
    });
    assert.equal(drawn.colormap, colormap, `${plot}: colour map`);
  }
}

/** [min, max] of an array. */
export function extentOf(values) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

/** WCAG contrast of two computed CSS colours (rgb/rgba; alpha ignored). */
export function contrast(a, b) {
  const luminance = (css) => {
    const [r, g, bl] = css
      .match(/\d+(\.\d+)?/g)
      .slice(0, 3)
      .map((v) => Number(v) / 255);
    const lin = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(bl);
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
