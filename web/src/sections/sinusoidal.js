// The sinusoidal table: the PyTorch code of 'Positional Embeddings Explained' beside the same table computed by posenc,
// the table as a heatmap (hover for the formula with the numbers filled in), and single
// channels as curves: low channels oscillate fast, high channels slowly.
import { controlRow, numbersControl } from '../controls.js';
import { byId, h, pre } from '../dom.js';
import { formatFixed, formatPython as pythonNumber, formatSig } from '../format.js';
import { channelInfo } from '../layouts.js';
import { renderTex } from '../math.js';
import { createLinePlot } from '../plots/lineplot.js';
import { coalesceToFrame } from '../schedule.js';
import { range } from '../vectors.js';
import { camelCase } from '../widgets/element.js';
import { PeHeatmap } from '../widgets/pe-heatmap.js';

export const id = 'sinusoidal';

// The table's settings are the element's (same specs, so the same ranges in links and attributes).
const TABLE = PeHeatmap.settings;
/** The URL setting of each of the element's attributes. */
const ATTRIBUTES = { 'pe.seq': 'seq-len', 'pe.d': 'd-model', 'pe.base': 'base', 'pe.layout': 'layout' };

export const settings = {
  ...Object.fromEntries(Object.entries(ATTRIBUTES).map(([key, name]) => [key, TABLE[name].spec])),
  'pe.dims': { type: 'numbers', default: [0, 20, 60, 120], minLength: 1, maxLength: 6, min: 0, max: 2047 },
};

/** The seed's PyTorch snippet with the page's current settings. */
function seedCode(seqLen, dModel, base, layout) {
  const fill =
    layout === 'concat'
      ? [
          'pe[:, :d_model//2] = torch.sin(pos*dnom) # first half: all the sines',
          'pe[:, d_model//2:] = torch.cos(pos*dnom) # second half: all the cosines',
        ]
      : [
          'pe[:,0::2] = torch.sin(pos*dnom) # even embedding positions',
          'pe[:,1::2] = torch.cos(pos*dnom) # odd embedding positions',
        ];
  return [
    `d_model = ${dModel}`,
    `seq_len = ${seqLen}`,
    `n = ${pythonNumber(base)}`,
    '',
    'idx = torch.arange(0, d_model, 2)',
    'dnom = 1/n**(idx/d_model)',
    'pos = torch.arange(0, seq_len).unsqueeze(1)',
    'pe = torch.zeros(seq_len, d_model)',
    '',
    ...fill,
  ].join('\n');
}

/** The top-left corner of a table printed the way PyTorch prints a tensor (4 decimals). */
function torchPrint(values, rows, cols, shownRows, shownCols) {
  const r = Math.min(rows, shownRows);
  const c = Math.min(cols, shownCols);
  const cells = [];
  for (let i = 0; i < r; i++) for (let j = 0; j < c; j++) cells.push(formatFixed(values[i * cols + j], 4));
  const width = Math.max(...cells.map((t) => t.replace('-', '').length)) + 1;
  const lines = [];
  for (let i = 0; i < r; i++) {
    const row = cells
      .slice(i * c, (i + 1) * c)
      .map((t) => t.padStart(width))
      .join(', ');
    lines.push(`${i === 0 ? 'tensor([' : '        '}[${row}]${i === r - 1 ? '])' : ','}`);
  }
  return lines.join('\n');
}

export function mount({ posenc, state }) {
  const root = byId('sinusoidal-demo');
  const code = h('code', { id: 'pe-code' });
  const output = h('code', { id: 'pe-output' });
  const outputTitle = h('div', { class: 'code-title' });
  const codeTitle = h('div', { class: 'code-title', id: 'pe-code-title' });
  // The read-out and the formula stay in view at the bottom of the window while the (tall)
  // heatmap is: hovering its top rows no longer puts them below the fold. The element's own
  // read-out is hidden there (styles.css); this one follows its posenc-pick events.
  const readout = h(
    'output',
    { class: 'readout', id: 'pe-readout', 'aria-live': 'polite' },
    'Point at or tap the heatmap, or focus it and use the arrow keys, to read values.',
  );
  const formula = h(
    'div',
    { class: 'hover-formula', id: 'pe-hover-formula', 'aria-live': 'polite' },
    'Hover over (or focus) the heatmap to see the formula with its numbers filled in.',
  );
  const heatmap = document.createElement('posenc-pe-heatmap');
  const bindAttributes = () => {
    for (const [key, name] of Object.entries(ATTRIBUTES)) heatmap[camelCase(name)] = state.get(key);
  };
  bindAttributes();
  heatmap.addEventListener('posenc-pick', ({ detail }) => {
    if (!detail) return; // the pointer left: the last cell stays read
    const { row, col, value, pair, fn, angle, text } = detail;
    readout.textContent = text;
    const dModel = state.get('pe.d');
    renderTex(
      formula,
      `PE_{(${row},\\,${col})} = \\${fn}\\!\\left(\\frac{${row}}{${pythonNumber(state.get('pe.base'))}^{${2 * pair}/${dModel}}}\\right)` +
        ` = \\${fn}(${formatSig(angle, 6)}) = ${formatSig(value, 6)}`,
      { display: true },
    );
  });

  const dimsPlot = createLinePlot({
    name: 'sinusoidal-dimensions',
    title: 'Single dimensions of PE over positions',
    xLabel: 'position',
    yLabel: 'PE value',
    summary: ({ series }) =>
      `Values of ${series.map((s) => s.label).join(', ')} for positions 0 to ${series[0].x.length - 1}. ` +
      'The lowest dimension oscillates fastest; higher dimensions change more and more slowly.',
  });
  const wavelengths = h('ul', { class: 'wavelengths', id: 'pe-wavelengths' });
  const dimsNote = h('p', { class: 'note', id: 'pe-dims-note' });

  root.append(
    controlRow(...Object.entries(ATTRIBUTES).map(([key, name]) => TABLE[name].control(state, key))),
    h(
      'div',
      { class: 'side-by-side' },
      h('div', { class: 'code-block' }, codeTitle, pre({}, code)),
      h('div', { class: 'code-block' }, outputTitle, pre({}, output)),
    ),
    h('div', { class: 'hover-group' }, heatmap, h('div', { class: 'hover-panel' }, readout, formula)),
    h('h3', {}, 'One dimension at a time'),
    controlRow(numbersControl(state, 'pe.dims', { label: 'dimensions to plot (comma-separated)' })),
    dimsPlot.element,
    wavelengths,
    dimsNote,
  );

  /** The code, its printed output, the curves and wavelengths: from the table the element drew. */
  function drawAround() {
    if (!heatmap.table) return;
    const { values: table, rows: seqLen, cols: dModel } = heatmap.table;
    const { base, layout } = heatmap.settings;
    code.textContent = seedCode(seqLen, dModel, base, layout);
    codeTitle.textContent =
      layout === 'interleaved'
        ? 'Seed 000’s PyTorch code, with these settings'
        : 'Seed 000’s PyTorch code changed for the concat layout (the seed has only the interleaved one), with these settings';
    outputTitle.textContent = `pe[:4, :6], computed here by posenc (${posenc.variant} WebAssembly)`;
    output.textContent = torchPrint(table, seqLen, dModel, 4, 6);

    const frequencies = posenc.ropeFrequencies({ rotaryDim: dModel, base });
    const requested = state.get('pe.dims');
    const dims = [...new Set(requested.map((k) => Math.min(dModel - 1, Math.max(0, Math.round(k)))))];
    dimsNote.textContent =
      dims.length !== requested.length || dims.some((k, i) => k !== requested[i])
        ? `Dimensions are 0 … ${dModel - 1} for d_model = ${dModel}; plotting ${dims.join(', ')}.`
        : '';
    const xs = range(seqLen);
    dimsPlot.draw({
      series: dims.map((k) => {
        const y = new Float32Array(seqLen);
        for (let p = 0; p < seqLen; p++) y[p] = table[p * dModel + k];
        return { label: `dimension ${k}`, x: xs, y };
      }),
      yDomain: [-1.05, 1.05],
    });
    wavelengths.replaceChildren(
      ...dims.map((k) => {
        const { pair, fn } = channelInfo(k, dModel, layout);
        const omega = frequencies[pair];
        const wavelength = (2 * Math.PI) / omega;
        return h(
          'li',
          {},
          `dimension ${k} = ${fn} of pair i = ${pair}: frequency ${formatSig(omega, 4)} rad per position, ` +
            `wavelength 2π·${pythonNumber(base)}^(${2 * pair}/${dModel}) = ${formatSig(wavelength, 5)} positions`,
        );
      }),
    );
  }

  // The element redraws the table (once per frame) and says so; the rest follows it, and the
  // dimensions list alone redraws only the rest.
  heatmap.addEventListener('posenc-change', drawAround);
  state.watch(Object.keys(ATTRIBUTES), bindAttributes);
  state.watch(['pe.dims'], coalesceToFrame(drawAround));
}
