// <posenc-pe-heatmap>: the sinusoidal positional-encoding table as a heatmap (positions down,
// dimensions across, −1 blue to 1 red), the figure of the tutorial's sinusoidal section.
// Attributes: seq-len, d-model, base, layout (the section's settings and ranges).
// posenc-pick's detail: { row, col, value, pair, fn, angle, text } (fn: 'sin' | 'cos').
import { choiceControl } from '../controls.js';
import { formatPython, formatSig } from '../format.js';
import { channelInfo } from '../layouts.js';
import { createHeatmap } from '../plots/heatmap.js';
import { defineElement, PosencElement } from './element.js';
import { baseSetting, numberSetting } from './settings.js';

// posenc anchors a table's phases with direct sin/cos every 1024 rows from its first and steps
// from row to row in between (ARCHITECTURE.md, src/phases.h): rows computed from the same anchor
// have the bits of the whole table's.
const ANCHOR_ROWS = 1024;

/** Rows first … first + count − 1 of the sinusoidal table `options` describes, as the whole table has them. */
export function sinusoidalRows(posenc, options, first, count) {
  const anchor = first - (first % ANCHOR_ROWS);
  const rows = posenc.sinusoidal({ ...options, seqLen: first - anchor + count, offset: anchor });
  return anchor === first ? rows : rows.slice((first - anchor) * options.dModel);
}

const LAYOUT_OPTIONS = [
  { value: 'interleaved', label: 'interleaved (sin, cos, sin, cos, …)' },
  { value: 'concat', label: 'concat ([sin … | cos …])' },
];

/** Which columns change quickly from row to row, for the layout drawn (the caption's last sentence). */
function speeds(cols, layout) {
  if (cols === 2) return 'With one pair there is one speed: both columns turn by one radian per row.';
  if (layout === 'concat')
    return (
      `The sines fill columns 0 … ${cols / 2 - 1} and the cosines columns ${cols / 2} … ${cols - 1}, the pairs in the same order: ` +
      'in each half the columns on the left change quickly from row to row and those on the right slowly, so a second fast block starts in the middle.'
    );
  return 'Columns on the left change quickly from row to row, columns on the right slowly.';
}

export class PeHeatmap extends PosencElement {
  static settings = {
    'seq-len': numberSetting({ type: 'int', default: 128, min: 1, max: 2048 }, 'seq_len'),
    'd-model': numberSetting({ type: 'int', default: 128, min: 2, max: 2048, even: true }, 'd_model'),
    base: baseSetting(),
    layout: {
      spec: { type: 'enum', default: 'interleaved', values: ['interleaved', 'concat'] },
      control: (state, key) => choiceControl(state, key, { label: 'layout', options: LAYOUT_OPTIONS }),
    },
  };

  #heatmap;
  #frequencies = new Float64Array(0);
  #rowsOf = null;
  #current = { dModel: 0, base: 0, layout: 'interleaved' };

  build() {
    this.#heatmap = createHeatmap({
      name: 'sinusoidal-table',
      title: 'Sinusoidal table PE',
      xLabel: 'dimension',
      yLabel: 'position',
      valueLabel: 'PE value',
      colormap: 'diverging',
      summary: ({ rows, cols }) =>
        `Sinusoidal positional-encoding table, ${this.#current.layout} layout: ${rows} positions (rows, top to bottom) × ${cols} dimensions ` +
        `(columns), base ${formatPython(this.#current.base)}, values from −1 (blue) to 1 (red). ${speeds(cols, this.#current.layout)}`,
      readout: (cell) => this.#cellInfo(cell).text,
    });
    const figure = this.#heatmap.element;
    this.markParts(figure);
    this.#heatmap.onCursor((cell) =>
      this.pick(cell && this.#cellInfo({ ...cell, value: this.#heatmap.valueAt(cell.row, cell.col) })),
    );
    this.body.append(figure);
    return figure;
  }

  draw(posenc, { 'seq-len': seqLen, 'd-model': dModel, base, layout }) {
    this.#current = { dModel, base, layout };
    this.#frequencies = posenc.ropeFrequencies({ rotaryDim: dModel, base });
    const table = posenc.sinusoidal({ seqLen, dModel, base, layout });
    // The table is not kept: the read-out and the CSV compute the rows they need again.
    const rowsOf = (first, count) => sinusoidalRows(posenc, { dModel, base, layout }, first, count);
    this.#heatmap.draw({ values: table, rows: seqLen, cols: dModel, domain: [-1, 1], rowsOf });
    this.#rowsOf = rowsOf;
  }

  csv() {
    return this.#heatmap.csv();
  }

  /**
   * The drawn table: { values, rows, cols } (row-major float32, computed again on each read), or
   * null before the first draw.
   */
  get table() {
    const matrix = this.#heatmap.matrix;
    return matrix && { values: this.#heatmap.values(), rows: matrix.rows, cols: matrix.cols };
  }

  /** Rows first … first + count − 1 of the drawn table (row-major float32), or null before the first draw. */
  rowsAt(first, count) {
    const matrix = this.#heatmap.matrix;
    if (!matrix) return null;
    if (!Number.isInteger(first) || first < 0 || first >= matrix.rows)
      throw new RangeError(`rowsAt: first must be a whole number 0…${matrix.rows - 1}; got ${String(first)}`);
    if (!Number.isInteger(count) || count < 1 || count > matrix.rows - first)
      throw new RangeError(`rowsAt: count must be a whole number 1…${matrix.rows - first}; got ${String(count)}`);
    return this.#rowsOf(first, count);
  }

  /** A cell with its pair, function, angle and the read-out sentence. */
  #cellInfo({ row, col, value }) {
    const { pair, fn } = channelInfo(col, this.#current.dModel, this.#current.layout);
    const angle = row * this.#frequencies[pair];
    const text = `position ${row}, dimension ${col} (pair i = ${pair}, ${fn}): angle ${formatSig(angle, 6)} rad, value ${formatSig(value, 6)}`;
    return { row, col, value, pair, fn, angle, text };
  }
}

defineElement('posenc-pe-heatmap', PeHeatmap);
