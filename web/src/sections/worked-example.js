// Jaitly's worked example (d = 4, "The" at position 0, "cat" at position 1), computed live
// with exact float32 values, next to what the seed printed, flagging where it truncated.
import { controlRow, numbersControl } from '../controls.js';
import { byId, h, labelCellsByHeader } from '../dom.js';
import { formatSig } from '../format.js';
import { tex } from '../math.js';
import { coalesceToFrame } from '../schedule.js';

export const id = 'worked-example';

const D = 4;
const BASE = 10000;
const WORDS = [
  { word: 'The', key: 'we.the', position: 0 },
  { word: 'cat', key: 'we.cat', position: 1 },
];
const SEED_EMBEDDINGS = { 'we.the': [0.5, 0.1, 0.8, 0.3], 'we.cat': [0.2, 0.9, 0.4, 0.6] };
// What Jaitly's post printed, as text (its number of decimals is its claimed precision).
const SEED_PE = { The: ['0', '1', '0', '1'], cat: ['0.841', '0.540', '0.01', '0.999'] };
const SEED_SUMS = { The: ['0.5', '1.1', '0.8', '1.3'], cat: ['1.041', '1.44', '0.41', '1.599'] };

const embeddingSetting = (key) => ({
  type: 'numbers',
  default: SEED_EMBEDDINGS[key],
  minLength: D,
  maxLength: D,
  min: -100,
  max: 100,
});

export const settings = Object.fromEntries(WORDS.map(({ key }) => [key, embeddingSetting(key)]));

/** Seven significant digits: every digit a float32 value holds. */
const exact = (value) => formatSig(value, 7);

/** Whether a printed number disagrees with the exact value beyond its own last digit's rounding. */
function isTruncated(printed, value) {
  const decimals = printed.includes('.') ? printed.split('.')[1].length : 0;
  return Math.abs(value - Number(printed)) > 0.5 * 10 ** -decimals * (1 + 1e-6);
}

function seedCell(printed, value) {
  if (printed === undefined) return h('td', { class: 'seed' }, '—');
  if (!isTruncated(printed, value)) return h('td', { class: 'seed' }, printed);
  return h(
    'td',
    { class: 'seed truncated' },
    printed,
    h(
      'span',
      { class: 'flag' },
      ` ✗ truncated: ${exact(value)} rounds to ${value.toFixed(printed.split('.')[1].length)}`,
    ),
  );
}

/**
 * A table cell holding a vector "[a, b, c, d]" that may wrap between its entries (never inside
 * one), so the table fits a phone and the desktop column without scrolling.
 */
function vectorCell(items, className) {
  return h(
    'td',
    { class: ['vector', className] },
    '[',
    items.map((item, k) => [k ? ', ' : '', h('span', { class: 'entry' }, item)]),
    ']',
  );
}

export function mount({ posenc, state }) {
  const root = byId('worked-example-demo');
  const peTable = h('table', { class: 'numbers worked stacks', id: 'we-pe-table' });
  const sumTable = h('table', { class: 'numbers worked stacks', id: 'we-sum-table' });
  const note = h('p', { class: 'result', id: 'we-note' });
  root.append(
    h('h3', {}, 'The positional encodings'),
    h('div', { class: 'table-scroll' }, peTable),
    h('h3', {}, 'Added to the word embeddings'),
    controlRow(
      ...WORDS.map(({ word, key }) => numbersControl(state, key, { label: `embedding of “${word}”`, size: 22 })),
    ),
    h('div', { class: 'table-scroll' }, sumTable),
    note,
  );

  // The formulas do not change; build them once. Angle = position × frequency (1 and 1/100).
  const frequencies = posenc.ropeFrequencies({ rotaryDim: D, base: BASE });
  const formulas = WORDS.map(({ position }) =>
    Array.from({ length: D }, (_, k) => {
      const pair = Math.floor(k / 2);
      const fn = k % 2 === 0 ? 'sin' : 'cos';
      // The page's notation (as in the sinusoidal section): PE(pos, channel), pair i = channel / 2.
      return `PE_{(${position},\\,${k})} = \\${fn}\\!\\left(\\frac{${position}}{10000^{2 \\cdot ${pair}/4}}\\right) = \\${fn}(${formatSig(position * frequencies[pair], 6)})`;
    }),
  );

  function draw() {
    const pe = posenc.sinusoidal({ seqLen: WORDS.length, dModel: D, base: BASE });
    const embeddings = new Float32Array(WORDS.flatMap(({ key }) => state.get(key)));
    const sums = posenc.addSinusoidal(embeddings.slice(), { seqLen: WORDS.length, dModel: D, base: BASE });
    const seedEmbeddings = WORDS.every(({ key }) => state.get(key).every((v, k) => v === SEED_EMBEDDINGS[key][k]));

    peTable.replaceChildren(
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['word, channel', 'formula (pair i = channel ÷ 2)', 'exact value (posenc)', 'seed 001 printed'].map((t) =>
            h('th', { scope: 'col' }, t),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        WORDS.flatMap(({ word }, w) =>
          Array.from({ length: D }, (_, k) => {
            const value = pe[w * D + k];
            return h(
              'tr',
              { dataset: { word, k: String(k) } },
              h('th', { scope: 'row' }, `“${word}”, channel ${k}`),
              h('td', {}, tex(formulas[w][k])),
              h('td', { class: 'exact' }, exact(value)),
              seedCell(SEED_PE[word][k], value),
            );
          }),
        ),
      ),
    );

    sumTable.replaceChildren(
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['word', 'embedding', '+ PE', '= sum (posenc)', 'seed 001 printed'].map((t) => h('th', { scope: 'col' }, t)),
        ),
      ),
      h(
        'tbody',
        {},
        WORDS.map(({ word, key }, w) => {
          const row = (array, className) =>
            vectorCell(Array.from(array.subarray(w * D, (w + 1) * D), exact), className);
          const seedRow = seedEmbeddings
            ? vectorCell(
                SEED_SUMS[word].map((printed, k) =>
                  isTruncated(printed, sums[w * D + k]) ? h('mark', { class: 'truncated' }, printed) : printed,
                ),
                'seed',
              )
            : h('td', { class: 'seed' }, '— (your own embeddings)');
          return h(
            'tr',
            { dataset: { word } },
            h('th', { scope: 'row' }, word),
            vectorCell(state.get(key).map(String)),
            row(pe),
            row(sums, 'exact'),
            seedRow,
          );
        }),
      ),
    );

    labelCellsByHeader(peTable);
    labelCellsByHeader(sumTable);
    const cos001 = pe[1 * D + 3];
    const catSum3 = sums[1 * D + 3];
    note.textContent = seedEmbeddings
      ? `Where seed 001 went wrong: cos(0.01) = ${exact(cos001)}, which the seed printed as 0.999 (truncated; to three decimals it is 1.000), ` +
        `so its last sum 0.6 + ${exact(cos001)} = ${exact(catSum3)} appears as 1.599. The other printed values are correctly rounded.` +
        ' Values are float32, as a model stores them, shown with the seven significant digits float32 holds: 0.4 + 0.009999833 = 0.4099998 is the sum’s exact value (0.40999983…) to seven digits; float32’s rounding lies beyond them here.'
      : `With your embeddings, “cat”’s last entry is ${exact(state.get('we.cat')[3])} + cos(0.01) = ${exact(catSum3)} (cos(0.01) = ${exact(cos001)}, not 0.999).`;
  }

  const request = coalesceToFrame(draw);
  state.watch(['we.'], request);
  request();
}
