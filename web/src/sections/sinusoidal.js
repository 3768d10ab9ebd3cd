// The sinusoidal table: the PyTorch code of 'Positional Embeddings Explained' beside the same table computed by posenc,
// and the table as a heatmap (hover for the formula with the numbers filled in). The single
// dimensions as curves are the companion's (dimensions.js).
import { controlRow } from '../../../widgets/controls.js';
import { byId, h, pre } from '../../../widgets/dom.js';
import { bindElements, elementControls, elementSettings } from '../element-settings.js';
import { formatFixed, formatPython as pythonNumber, formatSig } from '../../../widgets/format.js';
import { codeListing } from '../code-listing.js';
import { renderTex } from '../math.js';
import { PeHeatmap } from '../../../widgets/elements/pe-heatmap.js';
import log from '../../models/training-log.json';
import { fillLoggedAccuracies } from '../trained/logged.js';

export const id = 'sinusoidal';

/** The URL setting of each of the element's attributes. */
const ATTRIBUTES = { 'pe.seq': 'seq-len', 'pe.d': 'd-model', 'pe.base': 'base', 'pe.layout': 'layout' };

export const settings = elementSettings(PeHeatmap, ATTRIBUTES);

/** The PyTorch snippet of 'Positional Embeddings Explained' with the page's current settings. */
function postCode(seqLen, dModel, base, layout) {
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
  fillLoggedAccuracies(byId(id), log); // the prose's accuracies of the trained models
  const root = byId('sinusoidal-demo');
  const code = h('code', { id: 'pe-code' });
  const output = h('code', { id: 'pe-output' });
  const outputTitle = h('div', { class: 'code-title' });
  const codeTitle = h('span', { class: 'code-title', id: 'pe-code-title' });
  // The read-out and the formula stay in view while the (tall) heatmap is: beside it on a wide
  // screen, at the bottom of the window on a narrower one (styles.css). The element's own
  // read-out is hidden there (styles.css); this one follows its posenc-pick events.
  const readout = h('output', { class: 'readout', id: 'pe-readout', 'aria-live': 'polite' });
  const formula = h('div', { class: 'hover-formula', id: 'pe-hover-formula', 'aria-live': 'polite' });
  // Until a cell is read (and again when the table changes under it), one instruction.
  const showHint = () => {
    readout.textContent = 'Point at or tap the heatmap, or focus it and use the arrow keys:';
    formula.textContent = 'the formula of the cell, with its numbers filled in, appears here.';
  };
  showHint();
  const heatmap = document.createElement('posenc-pe-heatmap');
  bindElements(state, ATTRIBUTES, heatmap);
  // A new table: the cell read before shows other numbers now (or is gone). The heatmap sends
  // its cell again after the redraw when it still has one under the keyboard's cursor.
  state.watch(Object.keys(ATTRIBUTES), showHint);
  heatmap.addEventListener('posenc-pick', ({ detail }) => {
    if (!detail) return; // the pointer left: the last cell stays read
    const { row, col, value, pair, fn, angle, text } = detail;
    readout.textContent = text;
    const dModel = state.get('pe.d');
    // Two aligned lines: the formula, then its numbers (narrow enough for the panel beside the heatmap).
    renderTex(
      formula,
      `\\begin{aligned}PE_{(${row},\\,${col})} &= \\${fn}\\!\\left(\\frac{${row}}{${pythonNumber(state.get('pe.base'))}^{${2 * pair}/${dModel}}}\\right)` +
        ` \\\\ &= \\${fn}(${formatSig(angle, 6)}) = ${formatSig(value, 6)}\\end{aligned}`,
      { display: true },
    );
  });

  root.append(
    controlRow(...elementControls(PeHeatmap, ATTRIBUTES, state)),
    // On a wide screen, the code, its output and the heatmap stand beside the section's text (styles.css).
    h(
      'div',
      { class: 'beside' },
      h(
        'div',
        { class: 'side-by-side' },
        codeListing(codeTitle, code),
        h('div', { class: 'code-block' }, outputTitle, pre({}, output)),
      ),
      h('div', { class: 'hover-group' }, heatmap, h('div', { class: 'hover-panel' }, readout, formula)),
    ),
  );

  /** The code and its printed output: from the table the element drew. */
  function drawCode() {
    const { seqLen, dModel, base, layout } = heatmap.settings;
    const table = heatmap.rowsAt(0, Math.min(seqLen, 4)); // the rows printed, not the whole table
    if (!table) return;
    code.textContent = postCode(seqLen, dModel, base, layout);
    codeTitle.textContent =
      layout === 'interleaved'
        ? 'The PyTorch code of “Positional Embeddings Explained”, with these settings'
        : 'The PyTorch code of “Positional Embeddings Explained” changed for the concat layout (the post has only the interleaved one), with these settings';
    outputTitle.textContent = `pe[:4, :6], computed here by posenc (${posenc.variant} WebAssembly)`;
    output.textContent = torchPrint(table, seqLen, dModel, 4, 6);
  }

  // The element redraws (once per animation frame) and says so; the code follows the table.
  heatmap.addEventListener('posenc-change', drawCode);
}
