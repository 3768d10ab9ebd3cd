// RoPE: rotate each pair of query/key channels by position × frequency. One pair rotating
// interactively (with the code of 'Positional Embeddings Explained' beside it), and the score
// heatmap over positions 0..1000 (the companion's comparison shows both positions shifted).
import { controlRow, rerollButton } from '../../../widgets/controls.js';
import { byId, h, pre } from '../../../widgets/dom.js';
import { bindElements, elementControls, elementSettings } from '../element-settings.js';
import { formatPython as pythonNumber, formatSig, formatSigText } from '../../../widgets/format.js';
import log from '../../models/training-log.json';
import weights from '../../models/weights.json';
import { fillLoggedAccuracies } from '../trained/logged.js';
import { rotatedScore } from '../trained/rotated-score.js';
import { tokenLetters } from '../trained/task.js';
import { decodeModel } from '../trained/weights.js';
import { codeListing } from '../code-listing.js';
import { renderTex } from '../math.js';
import { RopeHeatmap } from '../../../widgets/elements/rope-heatmap.js';
import { Rotation } from '../../../widgets/elements/rotation.js';

export const id = 'rope';

// The score heatmap's settings are the element's (same specs); layout and base also drive the rotating pair.
const HEATMAP = RopeHeatmap.settings;
/** The URL setting of each of the heatmap element's attributes. */
const ATTRIBUTES = {
  'rope.seq': 'seq-len',
  'rope.hd': 'head-dim',
  'rope.content': 'content',
  'rope.seed': 'seed',
  'rope.layout': 'layout',
  'rope.base': 'base',
};

// The rotating pair's settings are <posenc-rotation>'s; layout and base are shared with the heatmap.
const ROTATION = Rotation.settings;
/** The URL setting of each of the rotation element's attributes (d-model before pair: it limits it). */
const ROTATION_ATTRIBUTES = {
  'rope.pos': 'position',
  'rope.base': 'base',
  'rope.d': 'd-model',
  'rope.pair': 'pair',
  'rope.vec': 'pair-values',
  'rope.layout': 'layout',
};
const ROTATION_KEYS = Object.fromEntries(Object.entries(ROTATION_ATTRIBUTES).map(([key, name]) => [name, key]));

export const settings = {
  ...elementSettings(Rotation, ROTATION_ATTRIBUTES),
  // The pair's limit, read from the page's settings instead of the element's attributes.
  'rope.pair': {
    ...ROTATION.pair.spec,
    maxFrom: (get) => ROTATION.pair.spec.maxFrom((name) => get(ROTATION_KEYS[name])),
    maxNote: 'a pair index is below rope.d / 2',
  },
  'rope.seq': HEATMAP['seq-len'].spec,
  'rope.hd': HEATMAP['head-dim'].spec,
  'rope.content': HEATMAP.content.spec,
  'rope.seed': HEATMAP.seed.spec,
};

function postRopeCode(base, dModel, seqLen, layout) {
  const head = [
    `n = ${pythonNumber(base)}`,
    `d_model = ${dModel}`,
    `seq_len = ${seqLen}`,
    '',
    'idx = torch.arange(0, d_model, 2)',
    'dnom = n ** -(torch.arange(0, d_model, 2)/d_model)',
    '',
    'm = torch.arange(0, seq_len).unsqueeze(1)',
    'theta = m*dnom',
    '',
    '# tokens.shape -> [seq_len, d_model]',
  ];
  if (layout === 'half') {
    return [
      ...head,
      'x_first = tokens[:, :d_model//2]   # "half" layout pairs (x[i], x[i + d/2])',
      'x_second = tokens[:, d_model//2:]',
      '',
      'sin = torch.sin(theta)',
      'cos = torch.cos(theta)',
      '',
      'x = torch.cat([cos * x_first - sin * x_second,',
      '               sin * x_first + cos * x_second], dim=-1)',
    ].join('\n');
  }
  return [
    ...head,
    'x_odd = tokens[:,1::2]',
    'x_even = tokens[:,0::2]',
    '',
    'sin = torch.sin(theta)',
    'cos = torch.cos(theta)',
    '',
    'x_odd_rot = sin * x_even + cos * x_odd',
    'x_even_rot = cos * x_even - sin * x_odd',
    '',
    'x = torch.stack([x_even_rot, x_odd_rot], dim=-1).reshape_as(tokens)',
  ].join('\n');
}

// The trained RoPE model's query and key the prose scores: head, tokens, and two query positions
// far apart, each against the key the model's lag back (the answer's key).
const TRAINED_QK = { head: 0, queryToken: 0, keyToken: 1, positions: [10, 1000] };

/**
 * The prose's numbers from the trained RoPE model (the companion's trained models): its own query
 * and key scored at two positions the lag apart, and its logged accuracy.
 */
function fillTrainedProse(posenc) {
  const model = decodeModel(weights, 'rope');
  const letters = tokenLetters(model.vocab);
  const { head, queryToken, keyToken, positions } = TRAINED_QK;
  byId('rope-trained-head').textContent = String(head);
  byId('rope-trained-tokens').textContent = `${letters[queryToken]} and ${letters[keyToken]}`;
  positions.forEach((m, i) => {
    const n = m - model.lag;
    const score = rotatedScore(posenc, model, { head, queryToken, keyToken, m, n });
    const span = byId(i === 0 ? 'rope-trained-near' : 'rope-trained-far');
    span.textContent = `${formatSigText(score, 4)} at ${i === 0 ? 'positions ' : ''}(${m}, ${n})`;
    Object.assign(span.dataset, { m: String(m), n: String(n), score: String(score) });
  });
  fillLoggedAccuracies(byId(id), log);
}

export function mount({ posenc, state }) {
  fillTrainedProse(posenc);
  const root = byId('rope-demo');
  const heatRoot = byId('rope-heatmap-demo');

  // ---- one pair, rotating (the element; the formula, code and result follow what it drew) -----
  const rotation = document.createElement('posenc-rotation');
  bindElements(state, ROTATION_ATTRIBUTES, rotation);
  const formula = h('div', { class: 'rope-formula', id: 'rope-formula' });
  const code = h('code', { id: 'rope-code' });
  const codeTitle = h('span', { class: 'code-title', id: 'rope-code-title' });
  const result = pre({ class: 'code-output' }, h('code', { id: 'rope-result' }));
  root.append(
    controlRow(...elementControls(Rotation, ROTATION_ATTRIBUTES, state)),
    // On a wide screen the pair, its formula and code stand beside the section's text, and the
    // result joins the text column (styles.css).
    h('div', { class: 'side-by-side beside' }, rotation, h('div', {}, formula, codeListing(codeTitle, code))),
    h(
      'div',
      { class: 'code-block' },
      h('div', { class: 'code-title' }, 'Result for this pair at position m, computed by posenc.rope'),
      result,
    ),
  );

  function describeRotation() {
    if (!rotation.rotation) return;
    const { position, pair, channels, original, rotated, frequency } = rotation.rotation;
    const { base, dModel: headDim, layout } = rotation.settings;
    const [a, b] = channels;
    const [xa, xb] = original;
    const theta = position * frequency;
    const turns = Math.floor(theta / (2 * Math.PI));
    const names = layout === 'half' ? [`x_{${a}}`, `x_{${b}}`] : [`x_{2i}`, `x_{2i+1}`];
    // Two formulas, each free to break after its "=" on a narrow screen.
    formula.replaceChildren(
      renderTex(
        h('div'),
        `\\theta_{m,i} = \\frac{m}{n^{2i/d}} = \\frac{${position}}{${pythonNumber(base)}^{${2 * pair}/${headDim}}} = ${formatSig(theta, 6)}\\text{ rad}${turns > 0 ? `\\ (${turns}\\text{ full turn${turns > 1 ? 's' : ''} + }${formatSig(theta - turns * 2 * Math.PI, 4)})` : ''}`,
        { breakable: true },
      ),
      renderTex(
        h('div'),
        `\\begin{bmatrix} ${names[0]}' \\\\ ${names[1]}' \\end{bmatrix} = \\begin{bmatrix} \\cos\\theta_{m,i} & -\\sin\\theta_{m,i} \\\\ \\sin\\theta_{m,i} & \\cos\\theta_{m,i} \\end{bmatrix}` +
          `\\begin{bmatrix} ${formatSig(xa, 4)} \\\\ ${formatSig(xb, 4)} \\end{bmatrix} = \\begin{bmatrix} ${formatSig(rotated[0], 6)} \\\\ ${formatSig(rotated[1], 6)} \\end{bmatrix}`,
        { breakable: true },
      ),
    );
    code.textContent = postRopeCode(base, headDim, position + 1, layout);
    // The post rotates whole token vectors of width d_model; a model rotates each head's q and k.
    codeTitle.textContent =
      (layout === 'interleaved'
        ? 'The RoPE code of “Positional Embeddings Explained”, with these settings'
        : 'The RoPE code of “Positional Embeddings Explained” changed for the half layout (the post has only the interleaved one), with these settings') +
      '. The post rotates whole tokens of width d_model; a model rotates the query and key of each head, of width head_dim.';
    document.getElementById('rope-result').textContent =
      `pair i = ${pair} → channels (${a}, ${b}) in the ${layout} layout\n` +
      `x[${position}, ${a}] = ${formatSig(rotated[0], 7)}\nx[${position}, ${b}] = ${formatSig(rotated[1], 7)}\n` +
      `length before ${formatSig(Math.hypot(xa, xb), 6)}, after ${formatSig(Math.hypot(rotated[0], rotated[1]), 6)}`;
  }
  rotation.addEventListener('posenc-change', describeRotation);

  // ---- the score heatmap over positions (the element; its settings follow the page's) ---------
  const heatmap = document.createElement('posenc-rope-heatmap');
  heatmap.className = 'beside';
  bindElements(state, ATTRIBUTES, heatmap);
  // The title and the paragraph above say what is drawn: its positions, and whether the contents
  // are all ones (then, and only then, twice PE(m)·PE(n)).
  const nameHeatmap = () => {
    const last = state.get('rope.seq') - 1;
    byId('rope-heatmap-title').textContent = `The score over positions 0 … ${last}`;
    byId('rope-heatmap-last').textContent = String(last);
    byId('rope-heatmap-contents').textContent =
      state.get('rope.content') === 'ones'
        ? 'Shown now: all ones, so twice PE(m)·PE(n).'
        : 'Shown now: random q and k, so no longer a multiple of PE(m)·PE(n).';
  };
  nameHeatmap();
  const reroll = rerollButton(state, 'rope.seed', {
    id: 'rope-reroll',
    label: 'New random q, k',
    ariaLabel: 'New random q, k for the RoPE score heatmap',
    afterwards: () => state.set('rope.content', 'random'),
  });
  heatRoot.append(
    controlRow(
      HEATMAP['seq-len'].control(state, 'rope.seq'),
      HEATMAP['head-dim'].control(state, 'rope.hd'),
      HEATMAP.content.control(state, 'rope.content'),
      reroll,
      HEATMAP.layout.control(state, 'rope.layout', 'heatmap'),
    ),
    heatmap,
  );

  state.watch(['rope.seq', 'rope.content'], nameHeatmap);
}
