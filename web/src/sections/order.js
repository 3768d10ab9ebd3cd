// Why order matters: without positions, attention sees a bag of words. Two sentences with the
// same words in a different order give the same attention scores, only permuted; adding
// positions makes them differ.
import { controlRow, textControl } from '../../../widgets/controls.js';
import { byId, h } from '../../../widgets/dom.js';
import { formatSigText } from '../../../widgets/format.js';
import { createHeatmap } from '../../../widgets/plots/heatmap.js';
import { extent, symmetricDomain } from '../../../widgets/plots/colormap.js';
import { coalesceToAnimationFrame } from '../../../widgets/schedule.js';
import { tokenize, wordEmbedding } from '../../../widgets/tokens.js';
import { maxAbsDifference } from '../../../widgets/vectors.js';

export const id = 'order';

const DIM = 16;
const MAX_TOKENS = 16;
// Up to this many words the six heatmaps stand beside the text on a wide screen (styles.css);
// longer sentences need the page's width for their word labels.
const BESIDE_TOKENS = 12;
const EMBEDDING_SCALE = 0.6;

export const settings = {
  'order.a': { type: 'text', default: 'The cat sat on the mat', maxLength: 120 },
  'order.b': { type: 'text', default: 'The mat sat on the cat', maxLength: 120 },
};

function embed(tokens) {
  const out = new Float32Array(tokens.length * DIM);
  tokens.forEach((word, i) => {
    out.set(wordEmbedding(word, DIM, EMBEDDING_SCALE), i * DIM);
  });
  return out;
}

/** For each token of `a`, the index of the same word in `b` (k-th occurrence to k-th), or -1. */
function matchTokens(a, b) {
  const used = new Set();
  return a.map((word) => {
    const j = b.findIndex((other, index) => other === word && !used.has(index));
    if (j >= 0) used.add(j);
    return j;
  });
}

/** S_b with rows and columns put into a's token order (the permutation that maps b onto a). */
function reorder(scores, n, permutation) {
  const out = new Float32Array(permutation.length ** 2);
  permutation.forEach((pr, r) => {
    permutation.forEach((pc, c) => {
      out[r * permutation.length + c] = scores[pr * n + pc];
    });
  });
  return out;
}

/** The index of the entry of largest magnitude (the first one on a tie). */
function argMaxAbs(values) {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (Math.abs(values[i]) > Math.abs(values[best])) best = i;
  return best;
}

function subtract(a, b) {
  return a.map((v, i) => v - b[i]);
}

const ROWS = [
  { key: 'plain', heading: 'Without positions' },
  { key: 'pos', heading: 'With sinusoidal positions added' },
];

export function mount({ posenc, state }) {
  const root = byId('order-demo');
  const scoreReadout = ({ rowLabel, colLabel, value }) => `“${rowLabel}” · “${colLabel}” = ${formatSigText(value, 5)}`;
  const panels = ROWS.map(({ key, heading }) => {
    const make = (suffix, title, options) =>
      createHeatmap({
        name: `order-${suffix}-${key}`,
        title, // under the row's heading
        label: `${title}, ${heading.toLowerCase()}`, // the two rows' plots (and buttons) need distinct names
        xLabel: 'key',
        yLabel: 'query',
        colormap: 'viridis',
        square: true,
        readout: scoreReadout,
        hint: '', // one hint above the six (below)
        summary: ({ rows, min, max }) =>
          `${heading}: ${title}, ${rows} × ${rows} values from ${formatSigText(min, 3)} to ${formatSigText(max, 3)}.`,
        ...options,
      });
    return {
      heading,
      title: h('h3', {}, heading),
      a: make('a', 'sentence A', { valueLabel: 'score q·k' }),
      b: make('b', 'sentence B, in A’s order', { valueLabel: 'score q·k' }),
      diff: make('diff', 'A − B (reordered)', {
        valueLabel: 'difference',
        colormap: 'diverging',
        readout: ({ rowLabel, colLabel, value }) => `“${rowLabel}” · “${colLabel}”: A − B = ${formatSigText(value, 5)}`,
      }),
      note: h('p', { class: 'result', id: `order-${key}-diff` }),
    };
  });
  for (const row of panels)
    row.grid = h('div', { class: 'plot-grid three' }, row.a.element, row.b.element, row.diff.element);
  const bagNote = h('p', { class: 'result', id: 'order-bag' });
  const pairNote = h('p', { class: 'result', id: 'order-pair' });
  // The six heatmaps are small: one read-out hint for all of them, and their captions (which
  // repeat the title above and the colour bar below) are for screen readers only (styles.css).
  const maps = h('div', { class: 'order-maps beside' });
  const hint = h(
    'p',
    { class: 'note order-hint' },
    'Point at or tap a heatmap, or focus it and use the arrow keys, to read its values.',
  );
  maps.append(hint, ...panels.flatMap((row) => [row.title, row.grid]));
  root.append(
    controlRow(
      textControl(state, 'order.a', { label: 'Sentence A' }),
      textControl(state, 'order.b', { label: 'Sentence B' }),
    ),
    bagNote,
    // On a wide screen the heatmaps stand beside the section's text and results (styles.css).
    maps,
    ...panels.map((row) => row.note),
    pairNote,
  );

  function scores(x, n) {
    return posenc.similarity(x, x, { rows: n, cols: n, dim: DIM });
  }

  /** Hides every plot and result; the note says why. */
  function showNothing(why) {
    bagNote.textContent = why;
    for (const row of panels) {
      row.title.hidden = true; // no heading over nothing
      row.grid.hidden = true;
      hint.hidden = true;
      row.note.textContent = '';
    }
    pairNote.textContent = '';
  }

  function draw() {
    const words = ['order.a', 'order.b'].map((key) => tokenize(state.get(key), Infinity));
    const [a, b] = words.map((list) => list.slice(0, MAX_TOKENS));
    const empty = ['A', 'B'].filter((_, i) => words[i].length === 0);
    if (empty.length) {
      const which = empty.length === 2 ? 'Sentences A and B have' : `Sentence ${empty[0]} has`;
      showNothing(`${which} no words: type at least one word in each sentence.`);
      return;
    }
    for (const row of panels) row.title.hidden = row.grid.hidden = false;
    hint.hidden = false;
    const cut = ['A', 'B']
      .map((name, i) => (words[i].length > MAX_TOKENS ? `${name} has ${words[i].length} words` : ''))
      .filter(Boolean);
    const cutNote = cut.length
      ? ` Only the first ${MAX_TOKENS} words of each sentence are used (${cut.join(', ')}).`
      : '';
    maps.classList.toggle('beside', Math.max(a.length, b.length) <= BESIDE_TOKENS);
    const permutation = matchTokens(a, b);
    const sameBag = a.length === b.length && permutation.every((j) => j >= 0);
    const xa = embed(a);
    const xb = embed(b);
    const matrices = {
      plain: [scores(xa, a.length), scores(xb, b.length)],
      pos: [
        scores(posenc.addSinusoidal(xa.slice(), { seqLen: a.length, dModel: DIM }), a.length),
        scores(posenc.addSinusoidal(xb.slice(), { seqLen: b.length, dModel: DIM }), b.length),
      ],
    };
    // With the same bag of words, B is shown in A's order (and A − B makes sense); otherwise as it is.
    const shown = ROWS.map(({ key }) => {
      const [sa, sb] = matrices[key];
      const sbShown = sameBag ? reorder(sb, b.length, permutation) : sb;
      return { sa, sb: sbShown, diff: sameBag ? subtract(sa, sbShown) : null };
    });
    const diffDomain = sameBag ? symmetricDomain([...shown[0].diff, ...shown[1].diff]) : [-1, 1];
    const labelsB = sameBag ? a : b;
    panels.forEach((row, r) => {
      const { sa, sb, diff } = shown[r];
      const domain = extent(sa, sb);
      row.a.draw({ values: sa, rows: a.length, cols: a.length, domain, rowLabels: a, colLabels: a });
      row.b.draw({ values: sb, rows: b.length, cols: b.length, domain, rowLabels: labelsB, colLabels: labelsB });
      row.diff.element.hidden = !sameBag;
      if (sameBag)
        row.diff.draw({ values: diff, rows: a.length, cols: a.length, domain: diffDomain, rowLabels: a, colLabels: a });
    });

    bagNote.textContent = sameBag
      ? `A and B hold the same ${a.length} words (${[...a].sort().join(', ')})${a.every((w, i) => w === b[i]) ? ', in the same order — swap two words in B to see the point' : ', in a different order'}.`
      : 'A and B do not hold the same words, so B cannot be a reordering of A; the heatmaps show each sentence in its own order.';
    bagNote.textContent += cutNote;
    if (!sameBag) {
      for (const row of panels) row.note.textContent = '';
      pairNote.textContent = '';
      return;
    }
    const plainDiff = maxAbsDifference(shown[0].sa, shown[0].sb);
    const posDiff = maxAbsDifference(shown[1].sa, shown[1].sb);
    panels[0].note.textContent =
      `Largest |score in A − score in B (reordered)| = ${formatSigText(plainDiff, 3)}. ` +
      (plainDiff === 0
        ? 'Identical: B’s attention scores are A’s, only shuffled, so every word gets exactly the same attention output in both sentences.'
        : 'They differ.');
    panels[1].note.textContent =
      `Largest difference = ${formatSigText(posDiff, 3)}. ` +
      (posDiff > 1e-3
        ? 'The same word now scores differently depending on where it stands, so the model can tell the sentences apart.'
        : 'Still (almost) identical: the words stand in the same places.');
    // The example is the pair whose score differs most with positions: the cell the note above measures.
    const at = argMaxAbs(shown[1].diff);
    const n = a.length;
    const [r, c] = [Math.floor(at / n), at % n];
    const both = ({ sa, sb }) => `${formatSigText(sa[at], 4)} in A and ${formatSigText(sb[at], 4)} in B`;
    pairNote.textContent =
      posDiff > 0
        ? `For example the pair that differs most, “${a[r]}” · “${a[c]}”: ${both(shown[0])} without positions; ${both(shown[1])} with positions.`
        : '';
  }

  const request = coalesceToAnimationFrame(draw);
  state.watch(['order.'], request);
  request();
}
