// The three encodings side by side: the figure is the <posenc-compare> element (naive, sinusoidal
// and RoPE on the same token contents and one colour scale, one crosshair, the m − n spreads and
// the all-ones trap); this section binds its URL settings to the element's attributes and adds
// the re-roll button. Typing your own q or k switches the contents to them. Then both positions
// shifted: one pair of a query and a key drawn as arrows (both turn by the shift, the angle
// between them stays), and one query and key of the panels' contents in numbers (RoPE's score
// stays, the added encoding's does not).
import { controlRow, numberControl, rerollButton } from '../../../widgets/controls.js';
import { byId, h, labelCellsByHeader } from '../../../widgets/dom.js';
import { bindElements, elementControls, elementSettings } from '../element-settings.js';
import { formatSig, formatSigText } from '../../../widgets/format.js';
import { createVectorPlot } from '../../../widgets/plots/arrows.js';
import { coalesceToAnimationFrame } from '../../../widgets/schedule.js';
import { tile } from '../../../widgets/vectors.js';
import { Compare, comparisonContents } from '../../../widgets/elements/compare.js';

export const id = 'comparison';

/** The URL setting of each of the element's attributes. */
const ATTRIBUTES = {
  'cmp.seq': 'seq-len',
  'cmp.d': 'd-model',
  'cmp.base': 'base',
  'cmp.metric': 'metric',
  'cmp.content': 'content',
  'cmp.seed': 'seed',
  'cmp.q': 'q',
  'cmp.k': 'k',
};

// The shifts' positions keep the keys they had in the lesson, so old links still set them.
export const settings = {
  ...elementSettings(Compare, ATTRIBUTES),
  'bridge.m': { type: 'int', default: 5, min: 0, max: 1000 },
  'bridge.n': { type: 'int', default: 2, min: 0, max: 1000 },
  'bridge.shift': { type: 'int', default: 0, min: 0, max: 1000 },
  'rope.m': { type: 'int', default: 7, min: 0, max: 1000000 },
  'rope.n': { type: 'int', default: 3, min: 0, max: 1000000 },
  'rope.shift': { type: 'int', default: 500, min: 0, max: 1000000 },
};

export function mount({ posenc, state }) {
  const root = byId('comparison-demo');
  const figure = document.createElement('posenc-compare');
  bindElements(state, ATTRIBUTES, figure);
  const reroll = rerollButton(state, 'cmp.seed', {
    id: 'cmp-reroll',
    label: 'Re-roll random contents',
    afterwards: () => {
      if (state.get('cmp.content') === 'ones' || state.get('cmp.content') === 'edited') state.set('cmp.content', 'qk');
    },
  });
  const controls = (keys) => elementControls(Compare, ATTRIBUTES, state, keys);
  root.append(
    controlRow(...controls(['cmp.seq', 'cmp.d', 'cmp.base', 'cmp.metric'])),
    controlRow(...controls(['cmp.content']), reroll),
    controlRow(...controls(['cmp.q', 'cmp.k'])),
    figure,
  );
  state.watch(['cmp.q', 'cmp.k'], () => state.set('cmp.content', 'edited'));
  mountArrows({ posenc, state });
  mountShift({ posenc, state });
}

const COLORS = { query: '#0072B2', key: '#009E73', angle: '#D55E00' };

/** One pair of a query at m and a key at n, rotated by RoPE and moved together by s: the angle stays. */
function mountArrows({ posenc, state }) {
  const ropeRoot = byId('bridge-rope-demo');
  const ropePlot = createVectorPlot({
    name: 'bridge-rope',
    title: 'Pair 0 of a query at m and a key at n, rotated by RoPE',
    summary: () => ropeSummary,
  });
  let ropeSummary = '';
  const ropeNote = h('p', { class: 'result', id: 'bridge-rope-note' });
  ropeRoot.append(
    controlRow(
      numberControl(state, 'bridge.m', { label: 'query position m' }),
      numberControl(state, 'bridge.n', { label: 'key position n' }),
      numberControl(state, 'bridge.shift', { label: 'move both by s' }),
    ),
    h('div', { class: 'side-by-side' }, ropePlot.element, ropeNote),
  );

  // Fixed contents: one pair of q and one of k (the other channels zero), head dim 2 (ω = 1).
  const Q = [1, 0.3];
  const K = [0.6, 0.8];

  function drawRope() {
    const shift = state.get('bridge.shift');
    const m = state.get('bridge.m') + shift;
    const n = state.get('bridge.n') + shift;
    const q = posenc.rope(Float32Array.from(Q), { seqLen: 1, headDim: 2, offset: m });
    const k = posenc.rope(Float32Array.from(K), { seqLen: 1, headDim: 2, offset: n });
    const score = posenc.similarity(q, k, { rows: 1, cols: 1, dim: 2 })[0];
    const between = Math.atan2(q[0] * k[1] - q[1] * k[0], q[0] * k[0] + q[1] * k[1]); // from q to k
    const pair = (v) => `(${formatSigText(v[0], 4)}, ${formatSigText(v[1], 4)})`;
    ropeSummary = `q rotated to position ${m}: ${pair(q)}; k rotated to position ${n}: ${pair(k)}; the angle from q to k is ${formatSigText(between, 4)} rad.`;
    ropePlot.draw({
      arrows: [
        { from: [0, 0], to: [q[0], q[1]], color: COLORS.query, width: 3.5, label: `q at ${m}`, role: 'query' },
        { from: [0, 0], to: [k[0], k[1]], color: COLORS.key, width: 3.5, label: `k at ${n}`, role: 'key' },
      ],
      circles: [{ radius: 1 }],
      // the angle from k to q, the one thing the score sees
      arcs: [{ radius: 0.35, from: Math.atan2(k[1], k[0]), to: Math.atan2(k[1], k[0]) - between, color: COLORS.angle }],
      extent: 1.3,
    });
    ropeNote.dataset.score = String(score);
    ropeNote.dataset.angle = String(between);
    ropeNote.textContent =
      `m − n = ${formatSigText(m - n)}: the angle from q to k is ${formatSigText(between, 6)} rad and q · k = ${formatSigText(score, 6)}. ` +
      'Move both by s: both arrows turn by s radians, and the angle and the score stay (up to float32 rounding).';
  }

  const requestRope = coalesceToAnimationFrame(drawRope);
  state.watch(['bridge.m', 'bridge.n', 'bridge.shift'], requestRope);
  requestRope();
}

/** Shift both positions: one query and one key of the panels' contents, at (m, n) and (m + s, n + s). */
function mountShift({ posenc, state }) {
  const shiftRoot = byId('rope-shift-demo');
  const shiftTable = h('table', { class: 'numbers stacks', id: 'rope-shift-table' });
  const shiftNote = h('p', { class: 'result', id: 'rope-shift-note' });
  shiftRoot.append(
    controlRow(
      numberControl(state, 'rope.m', { label: 'query position m', scale: 'log1p' }),
      numberControl(state, 'rope.n', { label: 'key position n', scale: 'log1p' }),
      numberControl(state, 'rope.shift', { label: 'shift s', scale: 'log1p' }),
    ),
    h('div', { class: 'table-scroll' }, shiftTable),
    shiftNote,
  );

  function drawShift() {
    const headDim = state.get('cmp.d');
    const base = state.get('cmp.base');
    const m = state.get('rope.m');
    const n = state.get('rope.n');
    const shift = state.get('rope.shift');
    const contents = {
      seqLen: 1,
      dModel: headDim,
      seed: state.get('cmp.seed'),
      q: state.get('cmp.q'),
      k: state.get('cmp.k'),
    };
    const { queries: q, keys: k } = comparisonContents(state.get('cmp.content'), contents);
    const options = { seqLen: 2, headDim, base };
    const qs = posenc.rope(tile(q, 2), { ...options, positions: [m, m + shift] });
    const ks = posenc.rope(tile(k, 2), { ...options, positions: [n, n + shift] });
    const rope = posenc.similarity(qs, ks, { rows: 2, cols: 2, dim: headDim });
    const sinusoidal = { seqLen: 2, dModel: headDim, base };
    const qa = posenc.addSinusoidal(tile(q, 2), { ...sinusoidal, positions: [m, m + shift] });
    const ka = posenc.addSinusoidal(tile(k, 2), { ...sinusoidal, positions: [n, n + shift] });
    const added = posenc.similarity(qa, ka, { rows: 2, cols: 2, dim: headDim });
    const ropeDiff = Math.abs(rope[3] - rope[0]);
    const addedDiff = Math.abs(added[3] - added[0]);
    shiftTable.replaceChildren(
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['score', `positions (${m}, ${n})`, `shifted (${m + shift}, ${n + shift})`, 'difference'].map((t) =>
            h('th', { scope: 'col' }, t),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        h(
          'tr',
          { dataset: { row: 'rope' } },
          h('th', { scope: 'row' }, 'RoPE: rot(q, m) · rot(k, n)'),
          h('td', {}, formatSig(rope[0], 7)),
          h('td', {}, formatSig(rope[3], 7)),
          h('td', {}, formatSig(ropeDiff, 2)),
        ),
        h(
          'tr',
          { dataset: { row: 'added' } },
          h('th', { scope: 'row' }, 'added sinusoidal: (q + PE(m)) · (k + PE(n))'),
          h('td', {}, formatSig(added[0], 7)),
          h('td', {}, formatSig(added[3], 7)),
          h('td', {}, formatSig(addedDiff, 3)),
        ),
      ),
    );
    labelCellsByHeader(shiftTable);
    shiftNote.textContent =
      `m − n = ${m - n} in both columns. The RoPE score stays the same up to float32 rounding (difference ${formatSig(ropeDiff, 2)}), ` +
      `however far both positions move; with the encoding added to the contents it changes by ${formatSig(addedDiff, 3)}, because q·PE(n) and PE(m)·k depend on the absolute positions. (The panels’ contents, dimension ${headDim}.)`;
  }

  const requestShift = coalesceToAnimationFrame(drawShift);
  state.watch(['cmp.', 'rope.m', 'rope.n', 'rope.shift'], requestShift);
  requestShift();
}
