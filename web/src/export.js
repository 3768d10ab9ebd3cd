// Downloads of what a plot shows: the heatmap as a PNG (one block of pixels per cell, no
// smoothing) and its matrix as CSV. Files are made in the page (blob: URLs); nothing is sent.
import { formatCsv } from './format.js';

const PNG_TARGET_SIZE = 1024; // long side of the exported image, unless the matrix is larger

function download(blob, fileName) {
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

/** Saves a cell canvas (one pixel per cell) as a PNG scaled up by a whole factor. */
export function exportPng(canvas, fileName) {
  const scale = Math.max(1, Math.floor(PNG_TARGET_SIZE / Math.max(canvas.width, canvas.height)));
  const out = document.createElement('canvas');
  out.width = canvas.width * scale;
  out.height = canvas.height * scale;
  const context = out.getContext('2d');
  context.imageSmoothingEnabled = false;
  context.drawImage(canvas, 0, 0, out.width, out.height);
  return new Promise((resolve, reject) => {
    out.toBlob((blob) => {
      if (!blob) return reject(new Error('export: the browser could not encode the PNG'));
      download(blob, fileName);
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

export function exportCsv(text, fileName) {
  download(new Blob([text], { type: 'text/csv;charset=utf-8' }), fileName);
}
