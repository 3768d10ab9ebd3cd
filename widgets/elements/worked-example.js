// <posenc-worked-example>: Jaitly's worked example (d = 4, "The" at position 0, "cat" at
// position 1), computed live with exact float32 values next to what Jaitly's post printed, flagging
// where it truncated: the figure of the tutorial's worked-example section.
// Attributes: the, cat (each word's embedding, four numbers); the words, positions and d are the
// post's (the tutorial's settings change only the embeddings).
// posenc-pick's detail: { word, position, channel, pair, fn, angle, value, printed, truncated, text }
// (the arrow keys step through the positional-encoding table's rows).
import { numbersControl } from '../controls.js';
import { h, labelCellsByHeader } from '../dom.js';
import { formatSig } from '../format.js';
import { defineElement, PosencElement } from './element.js';

const D = 4;
const BASE = 10000;
const WORDS = [
  { word: 'The', name: 'the', position: 0 },
  { word: 'cat', name: 'cat', position: 1 },
];
export const SEED_EMBEDDINGS = { the: [0.5, 0.1, 0.8, 0.3], cat: [0.2, 0.9, 0.4, 0.6] };
// What Jaitly's post printed, as text (its number of decimals is its claimed precision).
const SEED_PE = { The: ['0', '1', '0', '1'], cat: ['0.841', '0.540', '0.01', '0.999'] };
const SEED_SUMS = { The: ['0.5', '1.1', '0.8', '1.3'], cat: ['1.041', '1.44', '0.41', '1.599'] };

const embeddingSetting = (word, name) => ({
  spec: { type: 'numbers', default: SEED_EMBEDDINGS[name], minLength: D, maxLength: D, min: -100, max: 100 },
  control: (state, key) => numbersControl(state, key, { label: `embedding of “${word}”`, size: 22 }),
});

/** Seven significant digits: every digit a float32 value holds. */
export const exact = (value) => formatSig(value, 7);

/** Whether a printed number disagrees with the exact value beyond its own last digit's rounding. */
function isTruncated(printed, value) {
  const decimals = printed.includes('.') ? printed.split('.')[1].length : 0;
  return Math.abs(value - Number(printed)) > 0.5 * 10 ** -decimals * (1 + 1e-6);
}

function seedCell(printed, value) {
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

const headRow = (titles) =>
  h(
    'thead',
    {},
    h(
      'tr',
      {},
      titles.map((t) => h('th', { scope: 'col' }, t)),
    ),
  );

export class WorkedExample extends PosencElement {
  static settings = Object.fromEntries(WORDS.map(({ word, name }) => [name, embeddingSetting(word, name)]));

  #peTable;
  #sumTable;
  #caption;
  #readout;
  #data = null;
  #cursor = -1;

  build() {
    this.#peTable = h('table', { class: 'numbers worked stacks', id: 'we-pe-table' });
    this.#sumTable = h('table', { class: 'numbers worked stacks', id: 'we-sum-table' });
    this.#readout = h(
      'output',
      { class: 'readout', part: 'readout', 'aria-live': 'polite' },
      'Focus the first table and use the arrow keys to read its rows.',
    );
    this.#caption = h('figcaption', { class: 'plot-summary', part: 'summary' });
    const peScroll = h(
      'div',
      { class: 'table-scroll', tabindex: 0, role: 'group', 'aria-label': 'Positional encodings, one row per channel' },
      this.#peTable,
    );
    peScroll.addEventListener('keydown', (event) => this.#onKey(event));
    const figure = h(
      'figure',
      {
        class: 'worked-example',
        part: 'figure',
        'aria-label': 'The worked example: positional encodings and their sums',
      },
      h('h3', { class: 'plot-title', part: 'title' }, 'The positional encodings'),
      peScroll,
      this.#readout,
      h('h3', {}, 'Added to the word embeddings'),
      h('div', { class: 'table-scroll' }, this.#sumTable),
      this.#caption,
    );
    this.body.append(figure);
    return figure;
  }

  draw(posenc, embeddingsByName) {
    const seqLen = WORDS.length;
    const frequencies = posenc.ropeFrequencies({ rotaryDim: D, base: BASE });
    const pe = posenc.sinusoidal({ seqLen, dModel: D, base: BASE });
    const embeddings = new Float32Array(WORDS.flatMap(({ name }) => embeddingsByName[name]));
    const sums = posenc.addSinusoidal(embeddings.slice(), { seqLen, dModel: D, base: BASE });
    const seedEmbeddings = WORDS.every(({ name }) =>
      embeddingsByName[name].every((v, k) => v === SEED_EMBEDDINGS[name][k]),
    );
    this.#data = { frequencies, pe, embeddings, sums, seedEmbeddings };

    this.#peTable.replaceChildren(
      headRow(['word, channel', 'formula (pair i = channel ÷ 2)', 'exact value (posenc)', 'Jaitly printed']),
      h(
        'tbody',
        {},
        this.#entries().map((entry, index) =>
          h(
            'tr',
            {
              dataset: { word: entry.word, k: String(entry.channel) },
              class: index === this.#cursor ? 'current' : null,
            },
            h('th', { scope: 'row' }, `“${entry.word}”, channel ${entry.channel}`),
            h('td', { class: 'formula' }, this.#formula(entry)),
            h('td', { class: 'exact' }, exact(entry.value)),
            seedCell(entry.printed, entry.value),
          ),
        ),
      ),
    );

    this.#sumTable.replaceChildren(
      headRow(['word', 'embedding', '+ PE', '= sum (posenc)', 'Jaitly printed']),
      h(
        'tbody',
        {},
        WORDS.map(({ word, name }, w) => {
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
            vectorCell(embeddingsByName[name].map(String)),
            row(pe),
            row(sums, 'exact'),
            seedRow,
          );
        }),
      ),
    );
    labelCellsByHeader(this.#peTable);
    labelCellsByHeader(this.#sumTable);
    const truncated = this.#entries().filter((entry) => entry.truncated);
    this.#caption.textContent =
      `d = ${D}: “The” at position 0 and “cat” at position 1, frequencies ${[...frequencies].map((f) => formatSig(f, 6)).join(' and ')}. ` +
      `Sums: ${WORDS.map(({ word }, w) => `${word} [${Array.from(sums.subarray(w * D, (w + 1) * D), exact).join(', ')}]`).join('; ')}. ` +
      `${truncated.length ? `Jaitly truncated ${truncated.map((e) => `“${e.word}”, channel ${e.channel} (${e.printed} for ${exact(e.value)})`).join(', ')}.` : 'Jaitly rounded every value correctly.'}`;
    if (this.#cursor >= 0) this.#show(this.#cursor);
  }

  /** What is drawn: { pe, embeddings, sums } (float32, row-major, d = 4), or null before the first draw. */
  get values() {
    return this.#data && { pe: this.#data.pe, embeddings: this.#data.embeddings, sums: this.#data.sums };
  }

  csv() {
    const { embeddings, sums } = this.#data;
    const lines = ['word,position,channel,pe,embedding,sum,seed_pe'];
    this.#entries().forEach(({ word, position, channel, value, printed }, index) => {
      lines.push([word, position, channel, value, embeddings[index], sums[index], printed].join(','));
    });
    return `${lines.join('\n')}\n`;
  }

  /** One entry per (word, channel) of the positional-encoding table. */
  #entries() {
    if (!this.#data) return [];
    const { frequencies, pe } = this.#data;
    return WORDS.flatMap(({ word, position }, w) =>
      Array.from({ length: D }, (_, channel) => {
        const pair = Math.floor(channel / 2);
        const value = pe[w * D + channel];
        const printed = SEED_PE[word][channel];
        return {
          word,
          position,
          channel,
          pair,
          fn: channel % 2 === 0 ? 'sin' : 'cos',
          angle: position * frequencies[pair],
          value,
          printed,
          truncated: isTruncated(printed, value),
        };
      }),
    );
  }

  /** PE(pos, channel) = fn(pos / 10000^(2·i/4)) = fn(angle), the page's notation, as text. */
  #formula({ position, channel, pair, fn, angle }) {
    return h(
      'span',
      { class: 'formula-text' },
      `PE(${position}, ${channel}) = ${fn}(${position} / ${BASE}`,
      h('sup', {}, `2·${pair}/${D}`),
      `) = ${fn}(${formatSig(angle, 6)})`,
    );
  }

  #onKey(event) {
    const count = WORDS.length * D;
    const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[event.key];
    if (step === undefined && event.key !== 'Home' && event.key !== 'End') return;
    event.preventDefault();
    if (event.key === 'Home') this.#cursor = 0;
    else if (event.key === 'End') this.#cursor = count - 1;
    else this.#cursor = this.#cursor < 0 ? 0 : Math.min(count - 1, Math.max(0, this.#cursor + step));
    this.#show(this.#cursor);
  }

  #show(index) {
    const entry = this.#entries()[index];
    if (!entry) return;
    this.#peTable.querySelectorAll('tbody tr').forEach((row, i) => {
      row.classList.toggle('current', i === index);
    });
    const { word, position, channel, fn, angle, value, printed, truncated } = entry;
    const text = `“${word}” (position ${position}), channel ${channel}: ${fn}(${formatSig(angle, 6)}) = ${exact(value)}; Jaitly printed ${printed}${truncated ? ' (truncated)' : ''}`;
    this.#readout.textContent = text;
    this.pick({ ...entry, text });
  }
}

defineElement('posenc-worked-example', WorkedExample);
