// A heatmap drawn on a <canvas> with one canvas pixel per matrix cell (ImageData filled from a
// typed array through a 256-colour lookup table), scaled to the page by CSS. Axes, legend,
// hover/keyboard read-out, a crosshair that other plots can drive, and PNG/CSV export.
// The canvas holds the picture: a heatmap keeps its numbers only when it is given no way to
// compute them again (`rowsOf`), so a page of large figures holds little more than their pixels.
import { h, s } from '../dom.js';
import { formatSig } from '../format.js';
import { exportCsv, exportFigurePng, matrixCsv } from '../export.js';
import { cellAxisTicks, createPlotBox } from './axes.js';
import { colormapLut, extent, lutIndex } from './colormap.js';
import { createLegend } from './legend.js';

const READOUT_HINT = 'Point at or tap the heatmap, or focus it and use the arrow keys, to read values.';
const PIXELATED_LIMIT = 400; // up to this many cells per side, upscale with hard cell edges

// Cells are painted a strip of rows at a time through one ImageData that every heatmap shares
// (painting is synchronous): no heatmap keeps a copy of its picture beside the canvas's own.
const STRIP_PIXELS = 1 << 18; // 1 MiB of RGBA
let strip = null;

/** The shared strip for rows of `cols` cells: as many whole rows as fit in STRIP_PIXELS. */
function stripOf(cols) {
  const height = Math.max(1, Math.floor(STRIP_PIXELS / cols));
  if (!strip || strip.width !== cols || strip.height !== height) strip = new ImageData(cols, height);
  return strip;
}

/** Paints `values` ([rows, cols]) on `canvas` through `lut` on the scale [lo, hi], a strip at a time. */
function paintCanvas(canvas, values, rows, cols, lut, lo, hi) {
  const image = stripOf(cols);
  const context = canvas.getContext('2d');
  for (let row = 0; row < rows; row += image.height) {
    const count = Math.min(image.height, rows - row);
    paintCells(image, values, lut, lo, hi, row * cols, count * cols);
    context.putImageData(image, 0, row, 0, 0, cols, count);
  }
}

// Each 256-colour table packed once as one 32-bit RGBA word per entry, in the platform's byte
// order, so painting a cell is one store instead of four.
const packedLuts = new WeakMap();
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function packedLut(lut) {
  let packed = packedLuts.get(lut);
  if (!packed) {
    packed = new Uint32Array(lut.length / 3);
    const bytes = new Uint8Array(packed.buffer);
    for (let k = 0; k < packed.length; k++) {
      const [r, g, b] = [lut[3 * k], lut[3 * k + 1], lut[3 * k + 2]];
      bytes.set(LITTLE_ENDIAN ? [r, g, b, 255] : [255, b, g, r], 4 * k);
    }
    packedLuts.set(lut, packed);
  }
  return packed;
}

/**
 * Writes RGBA pixels for `count` of `values` from index `first` (an array or a typed array) into
 * the start of `image` through `lut` on the scale [lo, hi].
 */
export function paintCells(image, values, lut, lo, hi, first = 0, count = values.length - first) {
  const pixels = new Uint32Array(image.data.buffer, image.data.byteOffset, count);
  const colors = packedLut(lut);
  const span = hi - lo;
  if (!(span > 0)) {
    pixels.fill(colors[lutIndex(0, lo, hi)]);
    return;
  }
  const scale = 255 / span;
  for (let i = 0; i < count; i++) {
    const t = (values[first + i] - lo) * scale;
    // (t + 0.5) | 0 is Math.round(t) for t in (0, 255); NaN and t <= 0 take entry 0.
    pixels[i] = colors[t > 0 ? (t >= 255 ? 255 : (t + 0.5) | 0) : 0];
  }
}

/**
 * options:
 *   name       file name stem for exports and the figure's data-plot attribute
 *   title      shown above the plot
 *   label      the figure's name, and its buttons' (default the title): longer where the title
 *              shown leans on a heading above it
 *   xLabel, yLabel, valueLabel
 *   colormap   'viridis' | 'cividis' | 'diverging'
 *   readout    ({ row, col, rowPosition, colPosition, value, rows, cols }) => string | Node
 *              (hover / keyboard read-out; row, col index the cells, the positions count steps)
 *   summary    ({ rows, cols, lo, hi, min, max }) => string: the text alternative (figcaption and
 *              the canvas's aria-label); lo/hi are the colour scale's ends, min/max the data's
 *   square     keep cells' display aspect square-ish (clamped) instead of a fixed 4:3 area
 *   focusCell  () => { row, col } | null: where keyboard focus starts when no crosshair is shown
 *              (a selected cell, say); default the first cell
 *   hint       what the read-out says while no cell is read (default READOUT_HINT; '' for nothing,
 *              where a page says it once for several heatmaps)
 *
 * draw() also takes `rowsOf(first, count)`: rows first … first + count − 1 of the values drawn,
 * computed again (a Float32Array of count · cols); with it the heatmap keeps no values, and reads
 * the row under the cursor (keeping the last one read) and the whole matrix for CSV through it.
 * And `preview`: a sentence saying that the picture is a coarse one (cells at sampled
 * positions) about to be replaced, shown before the read-out and the summary; and `guides`: reference lines over the cells, [{ from: [row, col], to: [row, col] }]
 * in cell indices (fractions allowed; a cell's centre is its index).
 */
export function createHeatmap({
  name,
  title,
  label,
  xLabel,
  yLabel,
  valueLabel = 'value',
  colormap,
  readout,
  summary,
  square = false,
  focusCell,
  hint = READOUT_HINT,
}) {
  const canvas = h('canvas', {
    class: 'heatmap-cells',
    width: 1,
    height: 1,
    tabindex: 0,
    role: 'img',
    dataset: { colormap },
  });
  const crossX = h('div', { class: 'crosshair crosshair-x', hidden: true });
  const crossY = h('div', { class: 'crosshair crosshair-y', hidden: true });
  // Guides stretch with the cells (viewBox = one unit per cell), strokes keep their width.
  const guides = s('svg', {
    class: 'heatmap-guides',
    preserveAspectRatio: 'none',
    'aria-hidden': 'true',
    focusable: 'false',
  });
  const plotBox = createPlotBox({ xLabel, yLabel });
  plotBox.area.append(canvas, guides, crossX, crossY);
  const legend = createLegend(colormap, { label: valueLabel });
  const readoutNode = h('output', { class: 'readout', 'aria-live': 'polite' }, hint);
  const caption = h('figcaption', { class: 'plot-summary' });
  const pngButton = h('button', { type: 'button', class: 'export-png' }, 'PNG');
  const csvButton = h('button', { type: 'button', class: 'export-csv' }, 'CSV');
  const titleNode = h('span', { class: 'plot-title' });
  /** The title, and the names of the figure and the buttons that carry it (a stale name misleads a screen reader). */
  function setTitle(text, named = text) {
    title = text;
    titleNode.textContent = text;
    pngButton.setAttribute('aria-label', `Download the ${named} heatmap as PNG`);
    csvButton.setAttribute('aria-label', `Download the ${named} matrix as CSV`);
    element?.setAttribute('aria-label', named); // the figure's name (Chromium takes none from its figcaption)
  }
  let element = null;
  setTitle(title, label);
  element = h(
    'figure',
    { class: ['plot', 'heatmap', square && 'square'], dataset: { plot: name }, 'aria-label': label ?? title },
    h('div', { class: 'plot-toolbar' }, titleNode, h('span', { class: 'plot-actions' }, pngButton, csvButton)),
    plotBox.element,
    legend.element,
    readoutNode,
    caption,
  );

  let matrix = null; // { values (null with rowsOf), rowsOf, rows, cols, lo, hi, rowLabels, colLabels, rowFirst, colFirst, rowStep, colStep }
  let readRow = null; // { row, values }: the row last read through matrix.rowsOf
  let drawCount = 0;
  let cursor = null;
  const cursorListeners = new Set();

  const labelOf = (labels, first, index, step = 1) => (labels ? labels[index] : String(first + index * step));

  /** The drawn value of a cell: from the values kept, or its row computed again. */
  function valueAt(row, col) {
    if (matrix.values) return matrix.values[row * matrix.cols + col];
    if (readRow?.row !== row) readRow = { row, values: matrix.rowsOf(row, 1) };
    return readRow.values[col];
  }

  /** Every drawn value, row-major (computed again when not kept); null before the first draw. */
  function allValues() {
    if (!matrix) return null;
    return matrix.values ?? matrix.rowsOf(0, matrix.rows);
  }

  function showCursor() {
    if (!matrix || !cursor) {
      crossX.hidden = true;
      crossY.hidden = true;
      readoutNode.textContent = hint; // never the value of a cell no longer shown
      return;
    }
    crossX.hidden = false;
    crossY.hidden = false;
    crossX.style.top = `${(((cursor.row + 0.5) / matrix.rows) * 100).toFixed(4)}%`;
    crossY.style.left = `${(((cursor.col + 0.5) / matrix.cols) * 100).toFixed(4)}%`;
    const value = valueAt(cursor.row, cursor.col);
    const info = {
      ...cursor,
      value,
      rows: matrix.rows,
      cols: matrix.cols,
      // the positions of the cell (its indices times the step, on a preview or a strided matrix)
      rowPosition: matrix.rowFirst + cursor.row * matrix.rowStep,
      colPosition: matrix.colFirst + cursor.col * matrix.colStep,
      rowLabel: labelOf(matrix.rowLabels, matrix.rowFirst, cursor.row, matrix.rowStep),
      colLabel: labelOf(matrix.colLabels, matrix.colFirst, cursor.col, matrix.colStep),
    };
    const content = readout
      ? readout(info)
      : `${yLabel} ${info.rowLabel}, ${xLabel} ${info.colLabel}: ${formatSig(value, 6)}`;
    readoutNode.replaceChildren(...(matrix.preview ? [`${matrix.preview} `] : []), content);
  }

  /** Moves the crosshair (null hides it); `fromUser` tells listeners to follow (synchronised plots). */
  function setCursor(next, fromUser = false) {
    if (next && matrix) {
      next = {
        row: Math.min(matrix.rows - 1, Math.max(0, next.row)),
        col: Math.min(matrix.cols - 1, Math.max(0, next.col)),
      };
    }
    cursor = next && matrix ? next : null;
    showCursor();
    if (fromUser) for (const listener of cursorListeners) listener(cursor);
  }

  function cellAt(event) {
    const rect = canvas.getBoundingClientRect();
    if (!matrix || rect.width === 0 || rect.height === 0) return null;
    const col = Math.floor(((event.clientX - rect.left) / rect.width) * matrix.cols);
    const row = Math.floor(((event.clientY - rect.top) / rect.height) * matrix.rows);
    if (row < 0 || col < 0 || row >= matrix.rows || col >= matrix.cols) return null;
    return { row, col };
  }

  // The cell last pressed (mouse or touch), until this canvas takes the focus that press gives it.
  let pressed = null;
  canvas.addEventListener('pointermove', (event) => setCursor(cellAt(event), true));
  canvas.addEventListener('pointerdown', (event) => {
    pressed = cellAt(event);
    setCursor(pressed, true);
  });
  // A touch tap runs pointerdown, pointerup, pointerleave, then focus: the tapped cell is a
  // selection, so only a mouse leaving hides it.
  canvas.addEventListener('pointerleave', (event) => {
    if (event.pointerType === 'mouse' && canvas.getRootNode().activeElement !== canvas) setCursor(null, true);
  });
  // Focus from a press starts at the pressed cell: in a linked group the panel that loses focus
  // has just hidden every crosshair (this one's too), so the cursor alone cannot say where.
  // Focus from the keyboard starts where the crosshair is, or at the page's chosen cell, or the first.
  canvas.addEventListener('focus', () => {
    const start = pressed ?? cursor ?? focusCell?.() ?? { row: 0, col: 0 };
    pressed = null;
    setCursor(start, true);
  });
  canvas.addEventListener('blur', () => {
    pressed = null;
    setCursor(null, true);
  });
  canvas.addEventListener('keydown', (event) => {
    if (!matrix) return;
    const step = event.shiftKey ? 10 : 1;
    const moves = { ArrowUp: [-step, 0], ArrowDown: [step, 0], ArrowLeft: [0, -step], ArrowRight: [0, step] };
    const now = cursor ?? { row: 0, col: 0 };
    if (moves[event.key]) {
      const [dr, dc] = moves[event.key];
      setCursor({ row: now.row + dr, col: now.col + dc }, true);
    } else if (event.key === 'Home') {
      setCursor({ row: now.row, col: 0 }, true);
    } else if (event.key === 'End') {
      setCursor({ row: now.row, col: matrix.cols - 1 }, true);
    } else {
      return;
    }
    event.preventDefault();
  });

  pngButton.addEventListener('click', () => {
    if (matrix) exportFigurePng(element, `posenc-${name}.png`);
  });
  /** The drawn matrix as CSV text, labelled as the axes are ('' before the first draw). */
  function csv() {
    if (!matrix) return '';
    return matrixCsv(allValues(), matrix.rows, matrix.cols, {
      corner: `${yLabel} \\ ${xLabel}`,
      rowLabel: (r) => labelOf(matrix.rowLabels, matrix.rowFirst, r, matrix.rowStep),
      colLabel: (c) => labelOf(matrix.colLabels, matrix.colFirst, c, matrix.colStep),
    });
  }
  csvButton.addEventListener('click', () => {
    if (matrix) exportCsv(csv(), `posenc-${name}.csv`);
  });

  /**
   * Draws a row-major [rows, cols] matrix on the colour scale `domain` = [lo, hi].
   * rowLabels/colLabels name the cells (tokens); otherwise cell i is numbered rowFirst + i * rowStep
   * (colFirst + i * colStep): a step above 1 for positions sampled with a stride.
   */
  function draw({
    values,
    rows,
    cols,
    domain,
    rowLabels,
    colLabels,
    rowFirst = 0,
    colFirst = 0,
    rowStep = 1,
    colStep = 1,
    guides: lines = [],
    colormap: mapName,
    valueLabel: label,
    preview = null,
    rowsOf = null,
  }) {
    if (values.length !== rows * cols) throw new Error(`heatmap ${name}: ${values.length} values for ${rows}×${cols}`);
    const [lo, hi] = domain;
    const currentMap = mapName ?? canvas.dataset.colormap;
    // The cursor stays on the same positions when the cells change step (a preview, then the full picture).
    const cursorAt = cursor &&
      matrix && {
        row: matrix.rowFirst + cursor.row * matrix.rowStep,
        col: matrix.colFirst + cursor.col * matrix.colStep,
      };
    if (cursorAt)
      cursor = {
        row: Math.round((cursorAt.row - rowFirst) / rowStep),
        col: Math.round((cursorAt.col - colFirst) / colStep),
      };
    matrix = {
      values: rowsOf ? null : values,
      rowsOf,
      rows,
      cols,
      lo,
      hi,
      rowLabels,
      colLabels,
      rowFirst,
      colFirst,
      rowStep,
      colStep,
      preview,
    };
    readRow = null;
    if (canvas.width !== cols || canvas.height !== rows) {
      canvas.width = cols;
      canvas.height = rows;
    }
    paintCanvas(canvas, values, rows, cols, colormapLut(currentMap), lo, hi);
    drawCount++;
    Object.assign(canvas.dataset, {
      drawn: String(drawCount), // a new picture (bench/page-redraw-probe.js times it)
      resolution: preview ? 'preview' : 'full',
      rows: String(rows),
      cols: String(cols),
      lo: String(lo),
      hi: String(hi),
      colormap: currentMap,
    });
    canvas.classList.toggle('pixelated', rows <= PIXELATED_LIMIT && cols <= PIXELATED_LIMIT);
    const ratio = square ? Math.min(1.6, Math.max(0.625, cols / rows)) : 4 / 3;
    plotBox.area.style.aspectRatio = String(ratio);
    plotBox.setXTicks(cellAxisTicks(cols, { labels: colLabels, first: colFirst, step: colStep }), {
      words: Boolean(colLabels),
    });
    plotBox.setYTicks(cellAxisTicks(rows, { labels: rowLabels, first: rowFirst, step: rowStep, target: 5 }));
    guides.setAttribute('viewBox', `0 0 ${cols} ${rows}`);
    // Each guide twice: a light halo under a dark dashed line, visible on every colour map.
    guides.replaceChildren(
      ...lines.flatMap(({ from, to }) =>
        ['guide-halo', 'guide-line'].map((kind) =>
          s('line', {
            class: kind,
            x1: from[1] + 0.5,
            y1: from[0] + 0.5,
            x2: to[1] + 0.5,
            y2: to[0] + 0.5,
            'vector-effect': 'non-scaling-stroke',
          }),
        ),
      ),
    );
    legend.update([lo, hi], { colormap: currentMap, label });
    const [min, max] = extent(values);
    const described = summary
      ? summary({ rows, cols, lo, hi, min, max })
      : `${title}: ${rows} × ${cols} heatmap, values from ${formatSig(min, 4)} to ${formatSig(max, 4)}.`;
    const text = preview ? `${preview} ${described}` : described;
    caption.textContent = text;
    canvas.setAttribute('aria-label', `${text} Focus and use the arrow keys to read values.`);
    const hadCursor = cursor !== null;
    if (cursor && (cursor.row >= rows || cursor.col >= cols)) cursor = null;
    showCursor();
    // Read-outs that follow this one (a section's, a linked panel's) follow the new picture too:
    // the same cell's new value, or nothing when the cell is gone.
    if (hadCursor) for (const listener of cursorListeners) listener(cursor);
  }

  return {
    element,
    canvas,
    draw,
    csv,
    setCursor: (cell) => setCursor(cell, false),
    setTitle,
    readout: readoutNode, // a page may move it (e.g. into a panel that stays in view)
    onCursor: (listener) => cursorListeners.add(listener),
    /** A drawn cell's value (row, col index the cells drawn). */
    valueAt,
    /** Every drawn value (row-major Float32Array, computed again when not kept), or null. */
    values: allValues,
    /** The drawn matrix's shape and labels ({ rows, cols, rowFirst, colFirst, rowStep, colStep, … }), or null. */
    get matrix() {
      return matrix;
    },
  };
}
