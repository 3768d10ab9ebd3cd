// The bridge from the sinusoidal table to RoPE: moving a position by k rotates every pair of the
// table by its own angle k·ω_i (PE(p + k) = R(k·ω_i) PE(p), pair by pair), shown on one pair with
// posenc's table for both positions. RoPE applies that rotation to q and k themselves; the
// companion's comparison shows them moved together (comparison.js).
import { controlRow, numberControl } from '../../../widgets/controls.js';
import { byId, h } from '../../../widgets/dom.js';
import { formatSig, formatSigText } from '../../../widgets/format.js';
import { renderTex } from '../math.js';
import { createVectorPlot } from '../../../widgets/plots/arrows.js';
import { coalesceToAnimationFrame } from '../../../widgets/schedule.js';

export const id = 'bridge';

const D_MODEL = 16; // the table's width here: 8 pairs, from fast to slow
const COLORS = { before: '#777777', after: '#0072B2', moved: '#D55E00' };

export const settings = {
  'bridge.p': { type: 'int', default: 2, min: 0, max: 1000 },
  'bridge.k': { type: 'int', default: 3, min: 0, max: 1000 },
  'bridge.pair': { type: 'int', default: 1, min: 0, max: D_MODEL / 2 - 1 },
};

/** The pair (sin, cos) of PE(pos) for pair i, interleaved layout: channels 2i and 2i + 1. */
function pairOf(table, row, pair) {
  return [table[row * D_MODEL + 2 * pair], table[row * D_MODEL + 2 * pair + 1]];
}

export function mount({ posenc, state }) {
  // ---- a shift of position is a rotation ---------------------------------------------------------
  const shiftRoot = byId('bridge-shift-demo');
  const shiftPlot = createVectorPlot({
    name: 'bridge-shift',
    title: 'One pair of PE: position p, and p + k',
    xLabel: 'sin (channel 2i)',
    yLabel: 'cos (channel 2i + 1)',
    // The dashed arrow has no label on the plot (it lands on PE(p + k)'s); the text names it.
    summary: (arrows) =>
      `Pair ${state.get('bridge.pair')} of the sinusoidal encoding: ${arrows
        .map(
          (a) =>
            `${a.role === 'turned' ? `PE(${state.get('bridge.p')}) turned by k·ω (dashed)` : a.label} at (${a.to.map((v) => formatSigText(v, 4)).join(', ')})`,
        )
        .join('; ')}. Rotating PE(p) by k·ω lands exactly on PE(p + k).`,
  });
  const shiftFormula = h('div', { class: 'formula', id: 'bridge-shift-formula' });
  const shiftTable = h('table', { class: 'numbers', id: 'bridge-shift-table' });
  shiftRoot.append(
    controlRow(
      numberControl(state, 'bridge.p', { label: 'position p' }),
      numberControl(state, 'bridge.k', { label: 'shift k' }),
      numberControl(state, 'bridge.pair', { label: 'pair i' }),
    ),
    h('div', { class: 'side-by-side beside' }, shiftPlot.element, h('div', {}, shiftFormula, shiftTable)),
  );

  function drawShift() {
    const p = state.get('bridge.p');
    const k = state.get('bridge.k');
    const pair = state.get('bridge.pair');
    // Both rows from posenc's table; the rotation from posenc's frequencies.
    const table = posenc.sinusoidal({ seqLen: 2, dModel: D_MODEL, positions: [p, p + k] });
    const omega = posenc.ropeFrequencies({ rotaryDim: D_MODEL })[pair];
    const [s, c] = pairOf(table, 0, pair);
    const [s2, c2] = pairOf(table, 1, pair);
    const angle = k * omega;
    // (sin, cos) of p·ω turned by k·ω: sin(a + b) = sin a cos b + cos a sin b, cos(a + b) = cos a cos b − sin a sin b.
    const turned = [s * Math.cos(angle) + c * Math.sin(angle), c * Math.cos(angle) - s * Math.sin(angle)];
    shiftPlot.draw({
      arrows: [
        { from: [0, 0], to: [s, c], color: COLORS.before, width: 2.5, label: `PE(${p})`, role: 'before' },
        { from: [0, 0], to: [s2, c2], color: COLORS.after, width: 4, label: `PE(${p + k})`, role: 'after' },
        { from: [0, 0], to: turned, color: COLORS.moved, width: 1.5, dash: '5 4', label: '', role: 'turned' },
      ],
      circles: [{ radius: 1 }],
      extent: 1.3,
    });
    // Two formulas, each free to break after its "=" on a narrow screen.
    shiftFormula.replaceChildren(
      renderTex(
        h('div'),
        '\\begin{bmatrix} \\sin((p+k)\\omega_i) \\\\ \\cos((p+k)\\omega_i) \\end{bmatrix} = ' +
          '\\begin{bmatrix} \\cos k\\omega_i & \\sin k\\omega_i \\\\ -\\sin k\\omega_i & \\cos k\\omega_i \\end{bmatrix}' +
          '\\begin{bmatrix} \\sin p\\omega_i \\\\ \\cos p\\omega_i \\end{bmatrix}',
        { breakable: true },
      ),
      renderTex(h('div'), `k\\omega_i = ${k} \\cdot ${formatSig(omega, 6)} = ${formatSig(angle, 6)}\\text{ rad}`, {
        breakable: true,
      }),
    );
    const row = (label, values, className) =>
      h(
        'tr',
        { dataset: { row: className } },
        h('th', { scope: 'row' }, label),
        ...values.map((v) => h('td', { class: 'exact' }, formatSig(v, 7))),
      );
    shiftTable.replaceChildren(
      h('thead', {}, h('tr', {}, ...['pair i of', 'sin', 'cos'].map((t) => h('th', { scope: 'col' }, t)))),
      h(
        'tbody',
        {},
        row(`PE(${p}), posenc`, [s, c], 'before'),
        row(`turned by k·ω = ${formatSig(angle, 4)} rad`, turned, 'turned'),
        row(`PE(${p + k}), posenc`, [s2, c2], 'after'),
      ),
    );
  }

  const requestShift = coalesceToAnimationFrame(drawShift);
  state.watch(['bridge.p', 'bridge.k', 'bridge.pair'], requestShift);
  requestShift();
}
