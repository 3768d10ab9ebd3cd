// Tokens in 2-D ('Positional Embeddings Explained': [check, this, out]): with d_model = 2 the encoding of position p
// is (sin p, cos p), a point on the unit circle; adding it moves each word vector.
import { controlRow, numberControl, numbersControl } from '../controls.js';
import { byId, h } from '../dom.js';
import { formatSig } from '../format.js';
import { createVectorPlot } from '../plots/arrows.js';
import { coalesceToFrame } from '../schedule.js';

export const id = 'tokens2d';

const WORDS = ['check', 'this', 'out'];
const WORD_COLORS = { check: '#0072B2', this: '#D55E00', out: '#009E73' };

const vectorSetting = (value) => ({ type: 'numbers', default: value, minLength: 2, maxLength: 2, min: -10, max: 10 });

export const settings = {
  't2.offset': { type: 'int', default: 0, min: 0, max: 1000 },
  't2.check': vectorSetting([1.2, 0.4]),
  't2.this': vectorSetting([-0.8, 0.9]),
  't2.out': vectorSetting([0.3, -1.1]),
};

export function mount({ posenc, state }) {
  const root = byId('tokens2d-demo');
  const plot = createVectorPlot({
    name: 'tokens-2d',
    title: 'Word vectors, their positional vectors and the sums',
    summary: (arrows) => {
      const sums = arrows.filter((a) => a.role === 'sum');
      return `2-D vectors of check, this, out. ${sums.map((a) => `${a.label.replace(' + PE', '')}: word plus position = (${a.to.map((v) => formatSig(v, 3)).join(', ')})`).join('; ')}.`;
    },
  });
  const table = h('table', { class: 'numbers', id: 't2-table' });
  root.append(
    controlRow(
      ...WORDS.map((word) => numbersControl(state, `t2.${word}`, { label: `“${word}” vector (x₀, x₁)`, size: 10 })),
      numberControl(state, 't2.offset', { label: 'first position' }),
    ),
    h(
      'div',
      { class: 'side-by-side' },
      plot.element,
      h(
        'div',
        {},
        h('div', { class: 'table-scroll' }, table),
        h(
          'p',
          { class: 'note' },
          'Dotted, from the origin: the positional vector PE(p) = (sin p, cos p); it ends on the dotted unit circle, where every 2-D sinusoidal encoding lies. Thin: the word’s own vector. Dashed: the same PE(p), drawn from the word’s tip. Thick: the sum the transformer receives.',
        ),
      ),
    ),
  );

  function draw() {
    const offset = state.get('t2.offset');
    const words = new Float32Array(WORDS.flatMap((word) => state.get(`t2.${word}`)));
    const pe = posenc.sinusoidal({ seqLen: WORDS.length, dModel: 2, offset });
    const sums = posenc.addSinusoidal(words.slice(), { seqLen: WORDS.length, dModel: 2, offset });
    const arrows = [];
    WORDS.forEach((word, i) => {
      const color = WORD_COLORS[word];
      const at = (array) => [array[2 * i], array[2 * i + 1]];
      // PE(p) itself, from the origin: on the unit circle; the dashed arrow is the same vector moved.
      arrows.push({
        from: [0, 0],
        to: at(pe),
        color,
        width: 1.5,
        dash: '2 3',
        label: `PE(${offset + i})`,
        role: 'pe-origin',
      });
      arrows.push({ from: [0, 0], to: at(words), color, width: 2, label: '', role: 'word' });
      arrows.push({ from: at(words), to: at(sums), color, width: 2, dash: '6 4', role: 'pe' });
      arrows.push({ from: [0, 0], to: at(sums), color, width: 4.5, label: `${word} + PE`, role: 'sum' });
    });
    plot.draw({ arrows, circles: [{ radius: 1 }] });
    const fmt = (array, i) => `(${formatSig(array[2 * i], 4)}, ${formatSig(array[2 * i + 1], 4)})`;
    table.replaceChildren(
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['word', 'position p', 'word vector', 'PE(p) = (sin p, cos p)', 'sum'].map((t) =>
            h('th', { scope: 'col' }, t),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        WORDS.map((word, i) =>
          h(
            'tr',
            { dataset: { word } },
            h('th', { scope: 'row' }, word),
            h('td', {}, String(offset + i)),
            h('td', {}, fmt(words, i)),
            h('td', {}, fmt(pe, i)),
            h('td', {}, fmt(sums, i)),
          ),
        ),
      ),
    );
  }

  const request = coalesceToFrame(draw);
  state.watch(['t2.'], request);
  request();
}
