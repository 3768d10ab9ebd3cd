// <posenc-vectors-2d>: three 2-D word vectors ('Positional Embeddings Explained': check, this,
// out), their positional vectors and the sums, the figure of the tutorial's "Tokens in 2-D"
// section. With d_model = 2 the encoding of position p is (sin p, cos p), a point on the unit
// circle; adding it moves each word vector.
// Attributes: offset (the first word's position), check, this, out (each word's vector "x₀,x₁").
// posenc-pick's detail: { index, word, position, vector, pe, sum, text } (the arrow keys step
// through the words).
import { numbersControl } from '../controls.js';
import { h } from '../dom.js';
import { formatSigText } from '../format.js';
import { createVectorPlot } from '../plots/arrows.js';
import { defineElement, PosencElement } from './element.js';
import { numberSetting } from './settings.js';

export const WORDS = ['check', 'this', 'out'];
const WORD_COLORS = { check: '#0072B2', this: '#D55E00', out: '#009E73' };

const vectorSetting = (word, value) => ({
  spec: { type: 'numbers', default: value, minLength: 2, maxLength: 2, min: -10, max: 10 },
  control: (state, key) => numbersControl(state, key, { label: `“${word}” vector (x₀, x₁)`, size: 10 }),
});

const pair = (array, i) => [array[2 * i], array[2 * i + 1]];
const point = ([x, y], digits) => `(${formatSigText(x, digits)}, ${formatSigText(y, digits)})`;

export class Vectors2d extends PosencElement {
  static settings = {
    offset: numberSetting({ type: 'int', default: 0, min: 0, max: 1000 }, 'first position'),
    check: vectorSetting('check', [1.2, 0.4]),
    this: vectorSetting('this', [-0.8, 0.9]),
    out: vectorSetting('out', [0.3, -1.1]),
  };

  #plot;
  #readout;
  #vectors = null;
  #cursor = -1;

  build() {
    this.#plot = createVectorPlot({
      name: 'tokens-2d',
      title: 'Word vectors, their positional vectors and the sums',
      summary: () =>
        `2-D vectors of ${WORDS.join(', ')}. ${this.#rows()
          .map(({ word, position, sum }) => `${word} at position ${position}: word plus position = ${point(sum, 3)}`)
          .join('; ')}.`,
    });
    const figure = this.#plot.element;
    this.#readout = h(
      'output',
      { class: 'readout', 'aria-live': 'polite' },
      'Focus the plot and use the arrow keys to read each word’s vectors.',
    );
    figure.querySelector('figcaption').before(this.#readout);
    const area = figure.querySelector('.vectors-area');
    area.tabIndex = 0;
    area.addEventListener('keydown', (event) => this.#onKey(event));
    this.markParts(figure);
    this.body.append(figure);
    return figure;
  }

  draw(posenc, { offset, ...vectors }) {
    const seqLen = WORDS.length;
    const words = new Float32Array(WORDS.flatMap((word) => vectors[word]));
    const pe = posenc.sinusoidal({ seqLen, dModel: 2, offset });
    const sums = posenc.addSinusoidal(words.slice(), { seqLen, dModel: 2, offset });
    this.#vectors = { offset, words, pe, sums };
    const arrows = WORDS.flatMap((word, i) => {
      const color = WORD_COLORS[word];
      return [
        // PE(p) itself, from the origin: on the unit circle; the dashed arrow is the same vector moved.
        {
          from: [0, 0],
          to: pair(pe, i),
          color,
          width: 1.5,
          dash: '2 3',
          label: `PE(${offset + i})`,
          role: 'pe-origin',
        },
        { from: [0, 0], to: pair(words, i), color, width: 2, label: '', role: 'word' },
        { from: pair(words, i), to: pair(sums, i), color, width: 2, dash: '6 4', role: 'pe' },
        { from: [0, 0], to: pair(sums, i), color, width: 4.5, label: `${word} + PE`, role: 'sum' },
      ];
    });
    this.#plot.draw({ arrows, circles: [{ radius: 1 }] });
    if (this.#cursor >= 0) this.#show(this.#cursor);
  }

  /** What is drawn, one row per word: { index, word, position, vector, pe, sum } (float32 values). */
  get vectors() {
    return this.#vectors && this.#rows();
  }

  csv() {
    const lines = ['word,position,x0,x1,pe0,pe1,sum0,sum1'];
    for (const { word, position, vector, pe, sum } of this.#rows())
      lines.push([word, position, ...vector, ...pe, ...sum].join(','));
    return `${lines.join('\n')}\n`;
  }

  #rows() {
    if (!this.#vectors) return [];
    const { offset, words, pe, sums } = this.#vectors;
    return WORDS.map((word, index) => ({
      index,
      word,
      position: offset + index,
      vector: pair(words, index),
      pe: pair(pe, index),
      sum: pair(sums, index),
    }));
  }

  #onKey(event) {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (step === undefined && event.key !== 'Home' && event.key !== 'End') return;
    event.preventDefault();
    const last = WORDS.length - 1;
    if (event.key === 'Home') this.#cursor = 0;
    else if (event.key === 'End') this.#cursor = last;
    else this.#cursor = this.#cursor < 0 ? 0 : Math.min(last, Math.max(0, this.#cursor + step));
    this.#show(this.#cursor);
  }

  #show(index) {
    const row = this.#rows()[index];
    if (!row) return;
    const { word, position, vector, pe, sum } = row;
    const text = `${word}, position ${position}: word ${point(vector, 4)} + PE(${position}) = (sin ${position}, cos ${position}) = ${point(pe, 4)} gives ${point(sum, 4)}`;
    this.#readout.textContent = text;
    this.pick({ ...row, text });
  }
}

defineElement('posenc-vectors-2d', Vectors2d);
