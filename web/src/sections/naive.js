// The naive encoding: add the position number to every channel. The norm of the result grows
// linearly with the position and swamps the word; sinusoidal values stay in [-1, 1].
import { choiceControl, controlRow, numberControl } from '../../../widgets/controls.js';
import { byId, h } from '../../../widgets/dom.js';
import { formatSig } from '../../../widgets/format.js';
import { createLinePlot } from '../../../widgets/plots/lineplot.js';
import { coalesceToAnimationFrame } from '../../../widgets/schedule.js';
import { wordEmbedding } from '../../../widgets/tokens.js';
import { addArrays, range, rowNorms, tile } from '../../../widgets/vectors.js';

export const id = 'naive';

export const settings = {
  'naive.seq': { type: 'int', default: 1024, min: 2, max: 4096 },
  'naive.d': { type: 'int', default: 64, min: 2, max: 1024, even: true },
  'naive.scale': { type: 'enum', default: 'linear', values: ['linear', 'log'] },
};

/** What adding the position number did to two words' cosine, in words (it depends on the position). */
function drowned(naive) {
  return naive > 0.99
    ? 'the position drowns the meaning: the two words now look alike'
    : 'the position is already pulling them together; longer sequences drown the meaning';
}

export function mount({ posenc, state }) {
  const root = byId('naive-demo');
  const makePlot = (yScale) =>
    createLinePlot({
      name: 'naive-norms',
      title: 'Length of “cat” + position encoding',
      xLabel: 'position p',
      yLabel: '‖x + encoding(p)‖',
      yScale,
      summary: ({ series }) =>
        `Norm of the word vector plus its position encoding for positions 0 to ${series[0].x.length - 1}: ` +
        `with the position number it grows from ${formatSig(series[0].y[0], 3)} to ${formatSig(series[0].y.at(-1), 4)}; ` +
        `with sinusoidal encodings it stays between ${formatSig(Math.min(...series[1].y), 3)} and ${formatSig(Math.max(...series[1].y), 3)}.`,
    });
  const plots = { linear: makePlot('linear'), log: makePlot('log') };
  const plotSlot = h('div', { class: 'plot-slot beside' });
  const result = h('p', { class: 'result', id: 'naive-result' });
  const similarity = h('p', { class: 'result', id: 'naive-similarity' });
  root.append(
    controlRow(
      numberControl(state, 'naive.seq', { label: 'positions' }),
      numberControl(state, 'naive.d', { label: 'd_model' }),
      choiceControl(state, 'naive.scale', {
        label: 'y axis',
        options: [
          { value: 'linear', label: 'linear' },
          { value: 'log', label: 'log' },
        ],
      }),
    ),
    // The two results beside the plot on a wide screen, under it on a narrow one.
    h('div', { class: 'side-by-side' }, plotSlot, h('div', {}, result, similarity)),
  );

  function draw() {
    const seqLen = state.get('naive.seq');
    const dModel = state.get('naive.d');
    const cat = wordEmbedding('cat', dModel);
    const mat = wordEmbedding('mat', dModel);
    const words = tile(cat, seqLen);
    const naive = addArrays(words, posenc.positionNumbers({ seqLen, dModel }));
    const sinusoidal = posenc.addSinusoidal(words.slice(), { seqLen, dModel });
    const naiveNorms = rowNorms(naive, seqLen, dModel);
    const sinusoidalNorms = rowNorms(sinusoidal, seqLen, dModel);
    const wordNorm = rowNorms(cat, 1, dModel)[0];
    const xs = range(seqLen);
    const plot = plots[state.get('naive.scale')];
    plotSlot.replaceChildren(plot.element);
    plot.draw({
      series: [
        { label: 'x + position number', x: xs, y: naiveNorms },
        { label: 'x + sinusoidal PE', x: xs, y: sinusoidalNorms },
        {
          label: '‖x‖ (the word alone)',
          x: xs,
          y: new Float64Array(seqLen).fill(wordNorm),
          dash: '6 5',
          color: '#666666',
        },
      ],
    });
    const last = seqLen - 1;
    result.textContent =
      `The word “cat” alone has length ${formatSig(wordNorm, 4)}. At position ${last}, adding the position number gives length ` +
      `${formatSig(naiveNorms[last], 5)} — ${formatSig(naiveNorms[last] / wordNorm, 4)} times the word — while the sinusoidal encoding gives ${formatSig(sinusoidalNorms[last], 4)}.`;

    // How alike two different words look at the last position, under each encoding (cosine).
    const pair = new Float32Array(2 * dModel);
    pair.set(cat, 0);
    pair.set(mat, dModel);
    const naivePair = addArrays(pair, tile(posenc.positionNumbers({ seqLen: 1, dModel, offset: last }), 2));
    const sinusoidalPair = posenc.addSinusoidal(pair.slice(), { seqLen: 2, dModel, positions: [last, last] });
    const cosine = (x) =>
      posenc.similarity(x.subarray(0, dModel), x.subarray(dModel), {
        rows: 1,
        cols: 1,
        dim: dModel,
        metric: 'cosine',
      })[0];
    similarity.textContent =
      `Both at position ${last}, “cat” and “mat” have cosine similarity ${formatSig(cosine(pair), 4)} as plain words, ` +
      `${formatSig(cosine(naivePair), 7)} with the position number added (${drowned(cosine(naivePair))}), and ${formatSig(cosine(sinusoidalPair), 4)} with the sinusoidal encoding.`;
  }

  const request = coalesceToAnimationFrame(draw);
  state.watch(['naive.'], request);
  request();
}
