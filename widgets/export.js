// Downloads of what a plot shows: the figure as a PNG (title, axes, colour bar or key; a
// heatmap's cells as equal blocks of pixels) and its numbers as CSV. Files are made in the page
// (blob: URLs); nothing is sent.
import { formatCsv } from './format.js';
import { renderFigure } from './plots/figure-image.js';

/** Saves a blob made in the page as a file (a blob: URL, revoked shortly after). */
export function downloadBlob(blob, fileName) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Saves a figure (a heatmap's or a line plot's <figure>) as a PNG, as the reader sees it. */
export async function exportFigurePng(figure, fileName) {
  const out = await renderFigure(figure);
  return new Promise((resolve, reject) => {
    out.toBlob((blob) => {
      if (!blob) return reject(new Error('export: the browser could not encode the PNG'));
      downloadBlob(blob, fileName);
      resolve();
    }, 'image/png');
  });
}

function csvField(text) {
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The CSV text of a row-major matrix, with a header row and a label column. */
export function matrixCsv(
  values,
  rows,
  cols,
  { corner = '', rowLabel = (r) => String(r), colLabel = (c) => String(c) } = {},
) {
  const lines = [[corner, ...Array.from({ length: cols }, (_, c) => colLabel(c))].map(csvField).join(',')];
  for (let r = 0; r < rows; r++) {
    const cells = [csvField(rowLabel(r))];
    for (let c = 0; c < cols; c++) cells.push(formatCsv(values[r * cols + c]));
    lines.push(cells.join(','));
  }
  return `${lines.join('\n')}\n`;
}

/** The CSV text of line-plot series in long form: one row per point, "series, x, y". */
export function seriesCsv(series, { xLabel = 'x', yLabel = 'y' } = {}) {
  const lines = [['series', xLabel, yLabel].map(csvField).join(',')];
  for (const { label, x, y } of series) {
    for (let i = 0; i < x.length; i++) lines.push([csvField(label), formatCsv(x[i]), formatCsv(y[i])].join(','));
  }
  return `${lines.join('\n')}\n`;
}

export function exportCsv(text, fileName) {
  downloadBlob(new Blob([text], { type: 'text/csv;charset=utf-8' }), fileName);
}
