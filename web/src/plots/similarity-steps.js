// A similarity heatmap drawn in steps, for progressiveToFrame (web/src/schedule.js): issue 13
// asks for a picture within 100 ms of a change at the heaviest settings, and 2048 × 2048 scores
// of head dim 256 are a billion multiply-adds. Every cell shown is posenc.similarity of the two
// rows at its own positions, never an interpolation: first a coarse picture of every stride-th
// position (each cell one position pair, the read-out says it is a preview), then the full
// matrix computed in row chunks over the next frames and drawn once complete.
import { ordinal } from '../format.js';
import { pickRows } from '../vectors.js';
import { extent } from './colormap.js';

const DIRECT_WORK = 72e6; // multiply-adds up to which the full picture is one step (§7 at its defaults, 64M: under 50 ms)
const COARSE_WORK = 6e6; // multiply-adds of the coarse picture
const CHUNK_WORK = 12e6; // multiply-adds per later step

/** Rows 0, stride, 2·stride, … of a row-major [count, dim] matrix, as one array. */
const everyNthRow = (matrix, dim, count, stride) =>
  pickRows(
    matrix,
    dim,
    Array.from({ length: Math.ceil(count / stride) }, (_, i) => i * stride),
  );

/**
 * Steps drawing similarity(a, b) (a [rows, dim], b [cols, dim]) on `heatmap` on the scale of
 * the values' extent; `options` go to heatmap.draw (titles, guides, colour map). The
 * generator's return value is the full [rows, cols] matrix.
 */
export function* similaritySteps(posenc, heatmap, { a, b, rows, cols, dim, options = {} }) {
  const work = rows * cols * dim;
  if (work > DIRECT_WORK) {
    const stride = Math.ceil(Math.sqrt(work / COARSE_WORK));
    const coarse = { rows: Math.ceil(rows / stride), cols: Math.ceil(cols / stride) };
    const values = posenc.similarity(everyNthRow(a, dim, rows, stride), everyNthRow(b, dim, cols, stride), {
      ...coarse,
      dim,
    });
    heatmap.draw({
      ...options,
      ...coarse,
      values,
      domain: extent(values),
      rowStep: stride,
      colStep: stride,
      preview: `Preview of every ${ordinal(stride)} position; the full ${rows} × ${cols} picture follows.`,
    });
    yield;
  }
  const values = new Float32Array(rows * cols);
  const chunk = work > DIRECT_WORK ? Math.max(1, Math.floor(CHUNK_WORK / (cols * dim))) : rows;
  for (let row = 0; row < rows; row += chunk) {
    const end = Math.min(rows, row + chunk);
    values.set(posenc.similarity(a.subarray(row * dim, end * dim), b, { rows: end - row, cols, dim }), row * cols);
    if (end < rows) yield;
  }
  heatmap.draw({ ...options, values, rows, cols, domain: extent(values) });
  return values;
}
