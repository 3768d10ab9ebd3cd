// A similarity heatmap drawn in steps, for progressiveToAnimationFrame (widgets/schedule.js)
// asks for a picture within 100 ms of a change at the heaviest settings, and 2048 × 2048 scores
// of head dim 256 are a billion multiply-adds. Every cell shown is posenc.similarity of the two
// rows at its own positions, never an interpolation: first a coarse picture of every stride-th
// position (each cell one position pair, the read-out says it is a preview), then the full
// matrix computed in row chunks over the next animation frames and drawn once complete. Neither
// the matrix nor its inputs are kept: the heatmap computes the rows it reads again from
// `inputs()`.
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
 * the values' extent; `inputs()` computes { a, b } (called again for the read-out and the CSV, so
 * neither the inputs nor the matrix outlive the drawing); `options` go to heatmap.draw (titles,
 * guides, colour map).
 */
export function* similaritySteps(posenc, heatmap, { inputs, rows, cols, dim, options = {} }) {
  const work = rows * cols * dim;
  const { a, b } = inputs();
  if (work > DIRECT_WORK) {
    const stride = Math.ceil(Math.sqrt(work / COARSE_WORK));
    const coarse = { rows: Math.ceil(rows / stride), cols: Math.ceil(cols / stride) };
    const sampled = () => {
      const both = inputs();
      return { a: everyNthRow(both.a, dim, rows, stride), b: everyNthRow(both.b, dim, cols, stride) };
    };
    const sample = { a: everyNthRow(a, dim, rows, stride), b: everyNthRow(b, dim, cols, stride) };
    const values = posenc.similarity(sample.a, sample.b, { ...coarse, dim });
    heatmap.draw({
      ...options,
      ...coarse,
      values,
      domain: extent(values),
      rowStep: stride,
      colStep: stride,
      preview: `Preview of every ${ordinal(stride)} position; the full ${rows} × ${cols} picture follows.`,
      rowsOf: similarityRows(posenc, sampled, coarse.cols, dim),
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
  heatmap.draw({
    ...options,
    values,
    rows,
    cols,
    domain: extent(values),
    rowsOf: similarityRows(posenc, inputs, cols, dim),
  });
}

/**
 * rowsOf for heatmap.draw: rows of similarity(a, b) from the inputs computed again, each row as
 * the whole matrix has it (the same row of a against all of b).
 */
function similarityRows(posenc, inputs, cols, dim) {
  return (first, count) => {
    const { a, b } = inputs();
    return posenc.similarity(a.subarray(first * dim, (first + count) * dim), b, { rows: count, cols, dim });
  };
}
