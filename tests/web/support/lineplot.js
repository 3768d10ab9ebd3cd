// Reads back the data of a line plot: the page draws each series as an SVG path in a
// 1000 × 600 viewBox, with the axis ranges on the <svg>'s data attributes.
const WIDTH = 1000;
const HEIGHT = 600;

function invert(pixel, lo, hi, length, kind, flip) {
  const t = flip ? 1 - pixel / length : pixel / length;
  if (kind === 'log') return 10 ** (Math.log10(lo) + t * (Math.log10(hi) - Math.log10(lo)));
  return lo + t * (hi - lo);
}

/** { series: { label: [[x, y], ...] }, resolution: { x, y } } for the plot named `plot`. */
export async function readLinePlot(page, plot) {
  const raw = await page.locator(`figure[data-plot="${plot}"] svg.lineplot-svg`).evaluate((svg) => ({
    data: { ...svg.dataset },
    paths: [...svg.querySelectorAll('path.series')].map((path) => ({
      label: path.dataset.series,
      d: path.getAttribute('d'),
    })),
  }));
  const { xLo, xHi, yLo, yHi, xScale, yScale } = raw.data;
  const [x0, x1, y0, y1] = [xLo, xHi, yLo, yHi].map(Number);
  const series = {};
  for (const { label, d } of raw.paths) {
    series[label] = [...d.matchAll(/[ML](-?[\d.]+),(-?[\d.]+)/g)].map(([, px, py]) => [
      invert(Number(px), x0, x1, WIDTH, xScale, false),
      invert(Number(py), y0, y1, HEIGHT, yScale, true),
    ]);
  }
  // Coordinates are written with 2 decimals: that is the resolution of what can be read back.
  return { series, yPerUnit: (y1 - y0) / HEIGHT, xPerUnit: (x1 - x0) / WIDTH, yScale, xScale };
}
