// Line (and point) plots in SVG. The SVG stretches to the plot area (viewBox 1000 × 600,
// preserveAspectRatio none, strokes that do not scale), and tick labels are HTML, so it reads
// the same on a phone and on a desktop.
import { h, s } from '../dom.js';
import { formatSig } from '../format.js';
import { createPlotBox, linearAxisTicks, logAxisTicks } from './axes.js';
import { SERIES_COLORS } from './colormap.js';
import { exportCsv, exportFigurePng, seriesCsv } from '../export.js';

const WIDTH = 1000;
const HEIGHT = 600;

function makeScale(kind, [lo, hi], length, flip) {
  const f = kind === 'log' ? Math.log10 : (v) => v;
  const a = f(lo);
  const span = f(hi) - a || 1;
  const place = (t) => (flip ? 1 - t : t) * length;
  // One function per kind: a scale is called once per point, and a shared one calling either
  // f is not inlined (a million-point line spent a third of its time there).
  return kind === 'log' ? (v) => place((Math.log10(v) - a) / span) : (v) => place((v - a) / span);
}

function dataExtent(seriesList, key, kind, pad) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const series of seriesList) {
    const values = series[key];
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (!Number.isFinite(v) || (kind === 'log' && v <= 0)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  if (!(lo <= hi)) return kind === 'log' ? [1, 10] : [0, 1];
  if (lo === hi) return kind === 'log' ? [lo / 2, hi * 2] : [lo - 1, hi + 1];
  if (kind === 'log' || !pad) return [lo, hi];
  const margin = (hi - lo) * 0.05;
  return [lo - margin, hi + margin];
}

// A line of more points than `above` is drawn through its extremes (first, lowest, highest,
// last) in each of `buckets` slices of the 1000-unit-wide view: the same picture, without an SVG
// path of a million points that took the page 400 ms to write and more to paint (§10 at 16 × L0).
// 'default' slices a quarter unit (a fraction of a screen pixel); 'unit' one unit (about a screen
// pixel), for a dense curve redrawn as a slider moves: rasterising the finer path of a
// 16 384-point curve took the page 60 ms per redraw (§10), the coarser one a fifth of that.
const THINNING = {
  default: { above: 20000, buckets: 4 * WIDTH },
  unit: { above: 4 * WIDTH, buckets: WIDTH },
};

/** The SVG path of a series: a polyline, or zero-length round-capped segments for points. */
function pathData(series, sx, sy, kind, thinning) {
  const parts = [];
  let pen = false;
  const thin = !series.points && series.x.length > thinning.above;
  // When thinning, the run of points in one bucket: its first, lowest, highest and last point,
  // as point index, x and y in plain numbers (an array per point of a million-point line cost
  // more than all the rest of the drawing).
  let bucket = -1; // none
  const kept = new Float64Array(12); // [index, x, y] of first, lowest, highest, last
  const keep = (slot, i, px, py) => {
    kept[3 * slot] = i;
    kept[3 * slot + 1] = px;
    kept[3 * slot + 2] = py;
  };
  const flush = () => {
    if (bucket < 0) return;
    const slots = [0, 1, 2, 3].sort((a, b) => kept[3 * a] - kept[3 * b]);
    slots.forEach((slot, k) => {
      if (k > 0 && kept[3 * slot] === kept[3 * slots[k - 1]]) return; // a point is kept once
      parts.push(`${pen ? 'L' : 'M'}${kept[3 * slot + 1].toFixed(2)},${kept[3 * slot + 2].toFixed(2)}`);
      pen = true;
    });
    bucket = -1;
  };
  for (let i = 0; i < series.x.length; i++) {
    const x = series.x[i];
    const y = series.y[i];
    const usable =
      Number.isFinite(x) && Number.isFinite(y) && (kind.x !== 'log' || x > 0) && (kind.y !== 'log' || y > 0);
    if (!usable) {
      flush();
      pen = false;
      continue;
    }
    if (thin) {
      const px = sx(x);
      const py = sy(y);
      const b = Math.floor((px / WIDTH) * thinning.buckets);
      if (bucket >= 0 && bucket !== b) flush();
      if (bucket < 0) {
        bucket = b;
        for (let slot = 0; slot < 4; slot++) keep(slot, i, px, py);
      } else {
        keep(3, i, px, py);
        if (py > kept[5]) keep(1, i, px, py); // SVG y grows downwards: the lowest value has the largest y
        if (py < kept[8]) keep(2, i, px, py);
      }
      continue;
    }
    const px = sx(x).toFixed(2);
    const py = sy(y).toFixed(2);
    if (series.points) parts.push(`M${px},${py}h0`);
    else {
      parts.push(`${pen ? 'L' : 'M'}${px},${py}`);
      pen = true;
    }
  }
  flush();
  return parts.join('');
}

/**
 * options: name, title, xLabel, yLabel, xScale/yScale ('linear' | 'log'), summary(info) => text,
 * aspect (width / height of the plot area), thinning ('default' | 'unit': how finely a line of
 * many points is drawn, see THINNING).
 */
export function createLinePlot({
  name,
  title,
  xLabel,
  yLabel,
  xScale = 'linear',
  yScale = 'linear',
  summary,
  aspect = 2,
  thinning = 'default',
}) {
  const svg = s('svg', {
    class: 'lineplot-svg',
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    preserveAspectRatio: 'none',
    'aria-hidden': 'true',
    focusable: 'false',
  });
  const plotBox = createPlotBox({ xLabel, yLabel });
  const hoverLine = h('div', { class: 'crosshair crosshair-y', hidden: true });
  const area = plotBox.area;
  area.classList.add('lineplot-area');
  area.tabIndex = 0;
  area.setAttribute('role', 'img');
  area.style.aspectRatio = String(aspect);
  // Marker labels are HTML over the stretched SVG, so their text is never distorted.
  const markerLabels = h('div', { class: 'marker-labels', 'aria-hidden': 'true' });
  area.append(svg, markerLabels, hoverLine);
  const keyList = h('ul', { class: 'series-key' });
  const pngButton = h(
    'button',
    { type: 'button', class: 'export-png', 'aria-label': `Download the ${title} plot as PNG` },
    'PNG',
  );
  const csvButton = h(
    'button',
    { type: 'button', class: 'export-csv', 'aria-label': `Download the ${title} curves as CSV` },
    'CSV',
  );
  const readoutNode = h('output', { class: 'readout', 'aria-live': 'polite' });
  const caption = h('figcaption', { class: 'plot-summary' });
  const element = h(
    'figure',
    // The figure's name: Chromium takes none from its figcaption.
    { class: 'plot lineplot', dataset: { plot: name }, 'aria-label': title },
    h(
      'div',
      { class: 'plot-toolbar' },
      h('span', { class: 'plot-title' }, title),
      h('span', { class: 'plot-actions' }, pngButton, csvButton),
    ),
    plotBox.element,
    keyList,
    readoutNode,
    caption,
  );

  let current = null; // { series, xDomain, yDomain, kind }
  let cursorIndex = null;
  const cursorListeners = new Set();

  function showCursor() {
    if (!current || cursorIndex === null) {
      hoverLine.hidden = true;
      readoutNode.textContent = '';
      for (const listener of cursorListeners) listener(null);
      return;
    }
    const reference = current.series[0];
    const x = reference.x[cursorIndex];
    const sx = makeScale(current.kind.x, current.xDomain, 1, false);
    hoverLine.hidden = false;
    hoverLine.style.left = `${(Math.min(1, Math.max(0, sx(x))) * 100).toFixed(3)}%`;
    const parts = current.series
      .filter((series) => !series.faint)
      .map((series) => {
        const i = nearestIndex(series.x, x);
        return i === null ? null : `${series.label}: ${formatSig(series.y[i], 5)}`;
      })
      .filter(Boolean);
    readoutNode.textContent = `${xLabel} ${formatSig(x, 6)} — ${parts.join('; ')}`;
    for (const listener of cursorListeners) listener({ index: cursorIndex, x, text: readoutNode.textContent });
  }

  function nearestIndex(xs, x) {
    if (xs.length === 0) return null;
    let lo = 0;
    let hi = xs.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (xs[mid] < x) lo = mid;
      else hi = mid;
    }
    return Math.abs(xs[lo] - x) <= Math.abs(xs[hi] - x) ? lo : hi;
  }

  pngButton.addEventListener('click', () => {
    if (current) exportFigurePng(element, `posenc-${name}.png`);
  });
  /** The drawn series as CSV text ('' before the first draw). */
  const csv = () => (current ? seriesCsv(current.series, { xLabel, yLabel }) : '');
  csvButton.addEventListener('click', () => {
    if (current) exportCsv(csv(), `posenc-${name}.csv`);
  });

  area.addEventListener('pointermove', (event) => {
    if (!current) return;
    const rect = area.getBoundingClientRect();
    const t = (event.clientX - rect.left) / rect.width;
    const [a, b] = current.kind.x === 'log' ? current.xDomain.map(Math.log10) : current.xDomain;
    const v = a + t * (b - a);
    cursorIndex = nearestIndex(current.series[0].x, current.kind.x === 'log' ? 10 ** v : v);
    showCursor();
  });
  area.addEventListener('pointerleave', () => {
    if (area.getRootNode().activeElement !== area) {
      cursorIndex = null;
      showCursor();
    }
  });
  area.addEventListener('blur', () => {
    cursorIndex = null;
    showCursor();
  });
  area.addEventListener('keydown', (event) => {
    if (!current) return;
    const n = current.series[0].x.length;
    const step = event.shiftKey ? Math.max(1, Math.round(n / 20)) : 1;
    if (event.key === 'ArrowRight') cursorIndex = Math.min(n - 1, (cursorIndex ?? -1) + step);
    else if (event.key === 'ArrowLeft') cursorIndex = Math.max(0, (cursorIndex ?? 1) - step);
    else return;
    event.preventDefault();
    showCursor();
  });

  /**
   * series: [{ label, x, y, color?, dash?, points?, faint? }]; xDomain/yDomain default to the data's
   * range. A faint series (a thin, light line: one of many around a main one) is left out of the
   * key and the read-out; series are drawn in order, so faint ones go first, under the main ones.
   * marks: optional reference lines, vertical [{ x }] or horizontal [{ y }]; a mark with a `label`
   * is also listed in the key (dashed grey, like the line). A series with `bold` is drawn thicker,
   * over a halo of the background, so it stands out from faint ones crossing it.
   * markers: optional points on curves [{ x, y, color, label }]: a dot at (x, y), a line in its
   * colour down to the x axis, and the label on the plot at the line's foot (markers in order
   * stack their labels upwards, so labels of nearby markers do not cover each other).
   */
  function draw({ series, xDomain, yDomain, marks = [], markers = [] }) {
    const kind = { x: xScale, y: yScale };
    const xd = xDomain ?? dataExtent(series, 'x', kind.x, false);
    const yd = yDomain ?? dataExtent(series, 'y', kind.y, true);
    const sx = makeScale(kind.x, xd, WIDTH, false);
    const sy = makeScale(kind.y, yd, HEIGHT, true);
    current = { series, xDomain: xd, yDomain: yd, kind };
    Object.assign(svg.dataset, {
      xLo: String(xd[0]),
      xHi: String(xd[1]),
      yLo: String(yd[0]),
      yHi: String(yd[1]),
      xScale: kind.x,
      yScale: kind.y,
    });

    const children = [];
    if (kind.y === 'linear' && yd[0] < 0 && yd[1] > 0) {
      children.push(
        s('line', {
          class: 'zero-line',
          x1: 0,
          x2: WIDTH,
          y1: sy(0).toFixed(2),
          y2: sy(0).toFixed(2),
          'vector-effect': 'non-scaling-stroke',
        }),
      );
    }
    for (const mark of marks) {
      if (mark.y !== undefined) {
        const y = sy(mark.y).toFixed(2);
        children.push(
          s('line', {
            class: 'mark-line',
            x1: 0,
            x2: WIDTH,
            y1: y,
            y2: y,
            'vector-effect': 'non-scaling-stroke',
            'data-mark': mark.label ?? null,
          }),
        );
      } else {
        const x = sx(mark.x).toFixed(2);
        children.push(
          s('line', {
            class: 'mark-line',
            x1: x,
            x2: x,
            y1: 0,
            y2: HEIGHT,
            'vector-effect': 'non-scaling-stroke',
            'data-mark': mark.label ?? null,
          }),
        );
      }
    }
    series.forEach((line, index) => {
      const color = line.color ?? SERIES_COLORS[index % SERIES_COLORS.length];
      const d = pathData(line, sx, sy, kind, THINNING[thinning]);
      if (line.bold) children.push(s('path', { class: 'series-halo', d, 'vector-effect': 'non-scaling-stroke' }));
      children.push(
        s('path', {
          class: ['series', line.points && 'series-points', line.faint && 'series-faint', line.bold && 'series-bold']
            .filter(Boolean)
            .join(' '),
          d,
          stroke: color,
          'stroke-dasharray': line.dash ?? null,
          'vector-effect': 'non-scaling-stroke',
          'data-series': line.label,
        }),
      );
    });
    const foot = sy(yd[0]).toFixed(2);
    for (const marker of markers) {
      const [x, y] = [sx(marker.x).toFixed(2), sy(marker.y).toFixed(2)];
      const data = { 'data-marker': marker.label, 'data-x': String(marker.x), 'data-y': String(marker.y) };
      children.push(
        s('path', {
          class: 'marker-line',
          d: `M${x},${foot}V${y}`,
          stroke: marker.color,
          'vector-effect': 'non-scaling-stroke',
          ...data,
        }),
        s('path', {
          class: 'marker-dot',
          d: `M${x},${y}h0`,
          stroke: marker.color,
          'vector-effect': 'non-scaling-stroke',
          ...data,
        }),
      );
    }
    svg.replaceChildren(...children);
    markerLabels.replaceChildren(
      ...markers.map((marker, k) =>
        h(
          'span',
          {
            class: 'marker-label',
            style: {
              left: `${((sx(marker.x) / WIDTH) * 100).toFixed(3)}%`,
              bottom: `${(k * 1.7 + 0.2).toFixed(2)}em`,
              borderColor: marker.color,
            },
            dataset: { x: String(marker.x) },
          },
          marker.label,
        ),
      ),
    );

    plotBox.setXTicks(kind.x === 'log' ? logAxisTicks(xd[0], xd[1]) : linearAxisTicks(xd[0], xd[1]));
    plotBox.setYTicks(
      kind.y === 'log'
        ? logAxisTicks(yd[0], yd[1], { flip: true })
        : linearAxisTicks(yd[0], yd[1], { flip: true, count: 5 }),
    );

    keyList.replaceChildren(
      ...series.flatMap((line, index) => {
        if (line.faint) return [];
        const color = line.color ?? SERIES_COLORS[index % SERIES_COLORS.length];
        const swatch = s(
          'svg',
          { class: 'swatch', viewBox: '0 0 24 8', 'aria-hidden': 'true' },
          s('line', {
            x1: 1,
            x2: 23,
            y1: 4,
            y2: 4,
            stroke: color,
            'stroke-width': line.points ? 5 : 2.5,
            'stroke-dasharray': line.points ? '0.1 6' : (line.dash ?? null),
            'stroke-linecap': 'round',
          }),
        );
        return h('li', {}, swatch, line.label);
      }),
      ...marks
        .filter((mark) => mark.label)
        .map((mark) =>
          h(
            'li',
            { class: 'mark-key' },
            s(
              'svg',
              { class: 'swatch', viewBox: '0 0 24 8', 'aria-hidden': 'true' },
              s('line', { class: 'mark-line', x1: 1, x2: 23, y1: 4, y2: 4 }),
            ),
            mark.label,
          ),
        ),
    );
    const text = summary ? summary({ series, xDomain: xd, yDomain: yd }) : `${title}.`;
    caption.textContent = text;
    area.setAttribute('aria-label', `${text} Focus and use the left and right arrow keys to read values.`);
    if (cursorIndex !== null && cursorIndex >= series[0].x.length) cursorIndex = null;
    showCursor();
  }

  // onCursor(listener): the point under the pointer or the keyboard's cursor, { index, x, text }
  // (index into the first series), or null when it leaves.
  return { element, draw, svg, csv, onCursor: (listener) => cursorListeners.add(listener) };
}
