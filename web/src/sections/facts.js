// Facts and conventions: the two sinusoidal layouts and the two RoPE pairings (what goes
// wrong when they are mixed up), and float32 precision at long positions.
import { controlRow, numberControl } from '../../../widgets/controls.js';
import { byId, h, labelCellsByHeader } from '../../../widgets/dom.js';
import { formatSig, formatSigText, ordinal } from '../../../widgets/format.js';
import { createHeatmap } from '../../../widgets/plots/heatmap.js';
import { createLinePlot } from '../../../widgets/plots/lineplot.js';
import { coalesceToAnimationFrame, progressiveToAnimationFrame } from '../../../widgets/schedule.js';
import { randomMatrix } from '../../../widgets/tokens.js';
import { logSpacedPositions, maxAbsDifference, range, rowMaxDifference, tile } from '../../../widgets/vectors.js';

export const id = 'facts';

export const settings = {
  'fx.seq': { type: 'int', default: 64, min: 16, max: 512 },
  'fx.d': { type: 'int', default: 64, min: 4, max: 256, even: true },
};

const PRECISION_D = 128;
const PRECISION_BASE = 10000;
const PRECISION_SAMPLES = 600;
const MAX_POSITION = 1_000_000;
const POSITIONS_PER_STEP = 2048;

/**
 * The PyTorch table of 'Positional Embeddings Explained' in float32, as PyTorch computes it: idx/d_model, n**(...), 1/(...),
 * pos*dnom and sin/cos each rounded to float32. Returns a Float32Array [positions.length, d].
 */
function float32PostTable(positions, dModel, base) {
  const half = dModel / 2;
  const dnom = new Float32Array(half);
  for (let i = 0; i < half; i++) dnom[i] = Math.fround(1 / Math.fround(base ** Math.fround((2 * i) / dModel)));
  const out = new Float32Array(positions.length * dModel);
  positions.forEach((p, row) => {
    for (let i = 0; i < half; i++) {
      const angle = Math.fround(Math.fround(p) * dnom[i]);
      out[row * dModel + 2 * i] = Math.sin(angle);
      out[row * dModel + 2 * i + 1] = Math.cos(angle);
    }
  });
  return out;
}

export function mount({ posenc, state }) {
  // ---- sinusoidal layouts ---------------------------------------------------------------------
  const layoutRoot = byId('facts-layouts-demo');
  const layoutMaps = ['interleaved', 'concat'].map((layout) =>
    createHeatmap({
      name: `layout-${layout}`,
      title: `${layout} layout`,
      xLabel: 'dimension',
      yLabel: 'position',
      valueLabel: 'PE value',
      colormap: 'diverging',
      summary: ({ rows, cols }) =>
        `The sinusoidal table in the ${layout} layout, ${rows} positions × ${cols} dimensions, from −1 (blue) to 1 (red). ` +
        (layout === 'interleaved'
          ? 'Sines and cosines alternate column by column.'
          : 'All sines fill the left half, all cosines the right half.'),
    }),
  );
  const layoutNote = h('p', { class: 'result', id: 'fx-layout-note' });
  layoutRoot.append(
    controlRow(
      numberControl(state, 'fx.seq', { label: 'positions' }),
      numberControl(state, 'fx.d', { label: 'd_model' }),
    ),
    h(
      'div',
      { class: 'plot-grid two' },
      layoutMaps.map((m) => m.element),
    ),
    layoutNote,
  );

  // ---- RoPE pairings -----------------------------------------------------------------------------
  const ropeRoot = byId('facts-rope-demo');
  const ropePlot = createLinePlot({
    name: 'rope-layout-mismatch',
    title: 'Score of the same q and k against distance, per pairing',
    xLabel: 'distance m − n',
    yLabel: 'rot(q, m) · rot(k, n)',
    summary: ({ series }) =>
      `Attention score of one random query and key against their distance, rotated with the interleaved pairing and with the half pairing: the two curves differ (${series.length} curves).`,
  });
  const ropeNote = h('p', { class: 'result', id: 'fx-rope-note' });
  ropeRoot.append(ropePlot.element, ropeNote);

  // ---- float32 precision ---------------------------------------------------------------------------
  const precisionRoot = byId('facts-precision-demo');
  const precisionPlot = createLinePlot({
    name: 'float32-precision',
    title: `Largest error over the ${PRECISION_D} channels at each position (d_model = ${PRECISION_D})`,
    xLabel: 'position',
    yLabel: 'absolute error',
    xScale: 'log',
    yScale: 'log',
    aspect: 1.8,
    summary: ({ series }) =>
      `Log-log plot: the error of the float32 PyTorch computation grows roughly in proportion to the position, reaching ${formatSig(Math.max(...series[0].y), 2)} ` +
      `near position one million; posenc’s own error stays at float32 rounding (at most ${formatSig(Math.max(...series[1].y), 2)}) at every position.`,
  });
  const precisionTable = h('table', { class: 'numbers stacks', id: 'fx-precision-table' });
  precisionRoot.append(precisionPlot.element, h('div', { class: 'table-scroll' }, precisionTable));

  function drawLayouts() {
    const seqLen = state.get('fx.seq');
    const dModel = state.get('fx.d');
    const tables = ['interleaved', 'concat'].map((layout) => posenc.sinusoidal({ seqLen, dModel, layout }));
    tables.forEach((table, i) => {
      layoutMaps[i].draw({ values: table, rows: seqLen, cols: dModel, domain: [-1, 1] });
    });
    const cosines = posenc.similarity(tables[0], tables[1], {
      rows: seqLen,
      cols: seqLen,
      dim: dModel,
      metric: 'cosine',
    });
    const samePosition = (p) => cosines[p * seqLen + p];
    const shown = [1, 10, seqLen - 1].filter((p, i, all) => p < seqLen && all.indexOf(p) === i);
    layoutNote.textContent =
      `Same numbers, different channels. Cosine similarity between the interleaved and the concat vector of the same position: ` +
      `${shown.map((p) => `position ${p}: ${formatSig(samePosition(p), 3)}`).join(', ')}. A model trained on one layout and fed the other gets vectors that are barely related to what it learned — and no error message.`;

    // RoPE: the same q and k, rotated at distance m - n = 0..seqLen-1 with each pairing.
    const q = randomMatrix(11, 1, dModel);
    const k = randomMatrix(12, 1, dModel);
    const series = ['interleaved', 'half'].map((layout) => {
      const queries = posenc.rope(tile(q, seqLen), { seqLen, headDim: dModel, layout });
      const key = posenc.rope(k.slice(), { seqLen: 1, headDim: dModel, layout });
      return {
        label: `${layout} pairing`,
        x: range(seqLen),
        y: posenc.similarity(queries, key, { rows: seqLen, cols: 1, dim: dModel }),
      };
    });
    series[1].dash = '7 5';
    ropePlot.draw({ series });
    ropeNote.textContent =
      `The two pairings give different scores for the same weights: the largest difference over these distances is ${formatSig(maxAbsDifference(series[0].y, series[1].y), 3)} ` +
      `(scores range over ${formatSigText(Math.min(...series[0].y), 3)} … ${formatSigText(Math.max(...series[0].y), 3)}). At distance 0 both agree (${formatSigText(series[0].y[0], 5)} vs ${formatSigText(series[1].y[0], 5)}): ` +
      'rotation by 0 is the identity. A checkpoint converted between the two conventions needs its q and k projection rows permuted; without that, it runs and produces garbage.';
  }

  function* drawPrecision() {
    const positions = logSpacedPositions(PRECISION_SAMPLES, MAX_POSITION);
    const fromPosenc = posenc.sinusoidal({
      seqLen: positions.length,
      dModel: PRECISION_D,
      base: PRECISION_BASE,
      positions,
    });
    const fromFloat32 = float32PostTable(positions, PRECISION_D, PRECISION_BASE);
    const frequencies = posenc.ropeFrequencies({ rotaryDim: PRECISION_D, base: PRECISION_BASE });
    const float64 = new Float64Array(positions.length * PRECISION_D);
    positions.forEach((p, row) => {
      frequencies.forEach((w, i) => {
        float64[row * PRECISION_D + 2 * i] = Math.sin(p * w);
        float64[row * PRECISION_D + 2 * i + 1] = Math.cos(p * w);
      });
    });
    const xs = Float64Array.from(positions);
    const float32Error = rowMaxDifference(fromFloat32, fromPosenc, positions.length, PRECISION_D);
    const posencError = rowMaxDifference(fromPosenc, float64, positions.length, PRECISION_D);
    precisionPlot.draw({
      series: [
        {
          label: 'float32 PyTorch code of “Positional Embeddings Explained” − posenc',
          x: xs,
          y: float32Error,
          points: true,
        },
        { label: 'posenc − float64', x: xs, y: posencError, points: true },
      ],
      xDomain: [1, MAX_POSITION],
      yDomain: [1e-9, 1],
    });

    // Exhaustive maxima below each limit (every position below 32768; a stride of 61 beyond),
    // POSITIONS_PER_STEP positions at a time: some 50,000 table rows in all, too many for one
    // frame, so the table follows the plot over a few frames (progressiveToAnimationFrame).
    yield;
    const limits = [2048, 32768, 2 ** 20];
    const rows = [];
    for (const [i, limit] of limits.entries()) {
      const stride = limit > 32768 ? 61 : 1;
      const from = i === 0 ? 0 : limits[i - 1];
      let error = 0;
      for (let start = from; start < limit; start += POSITIONS_PER_STEP * stride) {
        const list = [];
        for (let p = start; p < Math.min(limit, start + POSITIONS_PER_STEP * stride); p += stride) list.push(p);
        const ps = Int32Array.from(list);
        const exactTable = posenc.sinusoidal({
          seqLen: ps.length,
          dModel: PRECISION_D,
          base: PRECISION_BASE,
          positions: ps,
        });
        error = Math.max(error, maxAbsDifference(float32PostTable(ps, PRECISION_D, PRECISION_BASE), exactTable));
        yield;
      }
      rows.push({ from, limit, stride, error });
    }
    let running = 0;
    precisionTable.replaceChildren(
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['positions', 'largest |float32 code − posenc|'].map((t) => h('th', { scope: 'col' }, t)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map(({ limit, stride, error }) => {
          running = Math.max(running, error);
          return h(
            'tr',
            { dataset: { limit: String(limit) } },
            h('th', { scope: 'row' }, `below ${limit}${stride > 1 ? ` (every ${ordinal(stride)} beyond 32768)` : ''}`),
            h('td', {}, formatSig(running, 2)),
          );
        }),
      ),
    );
    labelCellsByHeader(precisionTable);
  }

  const requestLayouts = coalesceToAnimationFrame(drawLayouts);
  state.watch(['fx.'], requestLayouts);
  requestLayouts();
  progressiveToAnimationFrame(drawPrecision)();
}
