// Seven tiny transformers trained on the lag-copy task (scripts/train_models.py), one per
// encoding, run here through posenc: the chosen model's prediction on an input of any length,
// its attention per head, the training-loss curves of all seven, and accuracy against length
// measured in the browser on the fixed random evaluation sequences the training script measured.
import { controlRow, numberControl, rerollButton, selectControl, textControl } from '../../../widgets/controls.js';
import { byId, h, labelCellsByHeader } from '../../../widgets/dom.js';
import { formatFixed } from '../../../widgets/format.js';
import { SERIES_COLORS } from '../../../widgets/plots/colormap.js';
import { createHeatmap } from '../../../widgets/plots/heatmap.js';
import { createLinePlot } from '../../../widgets/plots/lineplot.js';
import { coalesceToAnimationFrame, progressiveToAnimationFrame } from '../../../widgets/schedule.js';
import log from '../../models/training-log.json';
import weights from '../../models/weights.json';
import { accuracyAt, predictions, score } from '../trained/accuracy.js';
import { farWeight } from '../trained/far-weight.js';
import { forward } from '../trained/forward.js';
import { fillLoggedAccuracies, percent } from '../trained/logged.js';
import { evalSeed, lagTargets, randomTokens, tokenLetters } from '../trained/task.js';
import { decodeModels } from '../trained/weights.js';

export const id = 'trained-models';

const LABELS = {
  none: 'none (NoPE)',
  learned: 'learned absolute',
  sinusoidal: 'sinusoidal',
  rope: 'RoPE',
  alibi: 'ALiBi',
  t5: 'T5 relative buckets',
  xpos: 'xPos',
};
const ENCODINGS = Object.keys(weights.models);
const LETTERS = tokenLetters(weights.task.vocab);
const MAX_LENGTH = 512;

export const settings = {
  'trained.model': { type: 'enum', default: 'rope', values: ENCODINGS },
  'trained.len': { type: 'int', default: 64, min: 4, max: MAX_LENGTH },
  'trained.seed': { type: 'int', default: 1, min: 1, max: 999999 },
  'trained.text': { type: 'text', default: '', maxLength: MAX_LENGTH },
};

/** The letters of `text` that name tokens, as tokens (anything else is left out). */
function typedTokens(text) {
  return Int32Array.from([...text.toLowerCase()].filter((c) => LETTERS.includes(c)).map((c) => LETTERS.indexOf(c)));
}

// The prose's far-weight numbers: the last FAR_QUERIES queries of the first evaluation input of
// length FAR_LENGTH, and how much of each head's weight goes to keys at least the training
// length back.
const FAR_LENGTH = 256;
const FAR_QUERIES = 32;

/** Each head's far weight for the model of `encoding`, as percentages: "94.9% and 98.6%". */
function farWeightText(posenc, model) {
  const length = FAR_LENGTH;
  const tokens = randomTokens(length, evalSeed(log.evalSeed, length, 0), model.vocab);
  const [attention] = forward(posenc, model, tokens).attention;
  const shares = Array.from({ length: model.numHeads }, (_, head) =>
    farWeight(attention, length, head, { from: length - FAR_QUERIES, distance: model.trainLength }),
  );
  const texts = shares.map((share) => `${formatFixed(100 * share, 1)}%`);
  return `${texts.slice(0, -1).join(', ')} and ${texts.at(-1)}`;
}

/** The section's prose, with the numbers the training log and the models give. */
function fillProse(posenc, models) {
  fillLoggedAccuracies(byId(id), log);
  for (const encoding of ['rope', 'xpos'])
    byId(`trained-far-${encoding}`).textContent = farWeightText(posenc, models[encoding]);
}

export function mount({ posenc, state }) {
  const root = byId('trained-models-demo');
  const models = Object.fromEntries(decodeModels(weights).map((model) => [model.encoding, model]));
  const { lag, trainLength, vocab } = weights.task;
  const { numHeads } = weights.architecture;
  fillProse(posenc, models);

  const prediction = h('div', { class: 'result trained-prediction', id: 'trained-prediction' });
  const heatmaps = Array.from({ length: numHeads }, (_, head) =>
    createHeatmap({
      name: `trained-attention-${head}`,
      title: `Attention weights, head ${head}`,
      xLabel: 'key position',
      yLabel: 'query position',
      valueLabel: 'weight',
      colormap: 'viridis',
      square: true,
      summary: ({ rows }) =>
        `Head ${head}'s causal attention weights over ${rows} positions; the line marks the key ${lag} back, where the answer is.`,
    }),
  );
  const lossPlot = createLinePlot({
    name: 'trained-loss',
    title: 'Training loss of the seven models',
    xLabel: 'step',
    yLabel: 'cross-entropy',
    yScale: 'log',
    summary: () =>
      `Cross-entropy on each training batch every ${log.logEvery} steps, ${log.steps} steps, batch ${log.batch}: ` +
      ENCODINGS.map((e) => `${LABELS[e]} ends at ${formatFixed(log.models[e].loss.at(-1)[1], 4)}`).join('; ') +
      '.',
  });
  const accuracyPlot = createLinePlot({
    name: 'trained-accuracy',
    title: 'Accuracy against sequence length, measured in this browser',
    xLabel: 'sequence length',
    yLabel: 'accuracy',
    xScale: 'log',
    summary: () => accuracyStatus.textContent,
  });
  const measureButton = h('button', { type: 'button', id: 'ctl-trained-measure' }, 'Measure accuracy in this browser');
  const accuracyStatus = h('p', { class: 'result', id: 'trained-accuracy-status' }, 'Not measured yet.');
  const headerRow = h(
    'tr',
    {},
    h('th', { scope: 'col' }, 'encoding'),
    ...log.evalLengths.map((l) => h('th', { scope: 'col' }, String(l))),
  );
  const cells = Object.fromEntries(
    ENCODINGS.map((e) => [e, log.evalLengths.map((length) => h('td', { dataset: { length: String(length) } }, '…'))]),
  );
  const table = h(
    'table',
    { class: 'data-table', id: 'trained-accuracy-table' },
    h(
      'caption',
      {},
      `Accuracy (positions ${lag} onwards) at each sequence length; the models were trained at ${trainLength}.`,
    ),
    h('thead', {}, headerRow),
    h(
      'tbody',
      {},
      ENCODINGS.map((e) => h('tr', { dataset: { encoding: e } }, h('th', { scope: 'row' }, LABELS[e]), ...cells[e])),
    ),
  );
  labelCellsByHeader(table);

  root.append(
    controlRow(
      selectControl(state, 'trained.model', {
        label: 'model (encoding)',
        options: ENCODINGS.map((e) => ({ value: e, label: LABELS[e] })),
      }),
      numberControl(state, 'trained.len', { label: 'random input length' }),
      rerollButton(state, 'trained.seed', {
        id: 'trained-reroll',
        label: 'New random input',
        ariaLabel: 'New random input for the trained model',
      }),
      textControl(state, 'trained.text', {
        label: `or type tokens (letters ${LETTERS[0]}–${LETTERS.at(-1)})`,
        size: 32,
      }),
    ),
    prediction,
    h(
      'div',
      { class: 'plot-grid two' },
      heatmaps.map((heatmap) => heatmap.element),
    ),
    lossPlot.element,
    controlRow(measureButton),
    accuracyStatus,
    table,
  );

  /** The input in use: the typed letters, or (none typed) reproducible random tokens of the set length. */
  function input() {
    const typed = typedTokens(state.get('trained.text'));
    if (typed.length > 0) return typed;
    return randomTokens(state.get('trained.len'), state.get('trained.seed'), vocab);
  }

  function drawPrediction() {
    const model = models[state.get('trained.model')];
    const tokens = input();
    const result = forward(posenc, model, tokens);
    const predicted = predictions(result, vocab);
    const targets = lagTargets(tokens, lag);
    const all = score(tokens, predicted, lag);
    const past = score(tokens, predicted, lag, trainLength);
    const letters = (values, marked) =>
      Array.from(values, (v, t) => {
        const text = v < 0 ? '·' : LETTERS[v];
        return marked && t >= lag && v !== targets[t] ? h('mark', {}, text) : text;
      });
    Object.assign(prediction.dataset, {
      model: model.encoding,
      tokens: Array.from(tokens).join(','),
      predicted: Array.from(predicted).join(','),
      correct: String(all.correct),
      total: String(all.total),
    });
    const pastText =
      tokens.length > trainLength
        ? ` Past the training length (positions ${trainLength}–${tokens.length - 1}): ${past.correct} of ${past.total}.`
        : '';
    prediction.replaceChildren(
      h(
        'p',
        { class: 'token-line' },
        h('span', { class: 'token-label' }, 'input  '),
        h('code', {}, letters(tokens, false)),
      ),
      h(
        'p',
        { class: 'token-line' },
        h('span', { class: 'token-label' }, 'output '),
        h('code', {}, letters(predicted, true)),
      ),
      h(
        'p',
        {},
        `${LABELS[model.encoding]}: ${all.correct} of ${all.total} positions right (the token ${lag} back; marked: wrong).${pastText}` +
          (model.encoding === 'learned' && tokens.length > trainLength
            ? ` Its table has ${trainLength} rows: every position from ${trainLength - 1} on takes the last one, so they all look alike.`
            : ''),
      ),
    );
    const length = tokens.length;
    const [attention] = result.attention;
    for (const [head, heatmap] of heatmaps.entries()) {
      heatmap.draw({
        values: attention.subarray(head * length * length, (head + 1) * length * length),
        rows: length,
        cols: length,
        domain: [0, 1],
        guides: length > lag ? [{ from: [lag, 0], to: [length - 1, length - 1 - lag] }] : [],
      });
    }
  }

  lossPlot.draw({
    series: ENCODINGS.map((e, i) => ({
      label: LABELS[e],
      x: log.models[e].loss.map(([step]) => step + 1),
      y: log.models[e].loss.map(([, loss]) => loss),
      color: SERIES_COLORS[i],
    })),
  });

  // Accuracy: one (model, length) per step, so the page stays responsive while it measures.
  const measured = {};
  function* measure() {
    measureButton.disabled = true;
    accuracyStatus.textContent = 'Measuring…';
    for (const e of ENCODINGS) {
      measured[e] = [];
      for (const [i, length] of log.evalLengths.entries()) {
        const result = accuracyAt(posenc, models[e], length, { count: log.evalCount, seed: log.evalSeed });
        measured[e].push(result);
        cells[e][i].textContent = percent(result);
        cells[e][i].dataset.correct = String(result.correct);
        cells[e][i].dataset.total = String(result.total);
        yield;
      }
    }
    const differing = ENCODINGS.flatMap((e) =>
      log.evalLengths
        .filter((length, i) => measured[e][i].correct !== log.models[e].accuracy[length][0])
        .map((l) => `${LABELS[e]} at ${l}`),
    );
    accuracyStatus.textContent =
      `Measured here on ${log.evalCount} fixed random sequences per length (positions ${lag} onwards). ` +
      (differing.length === 0
        ? 'Every count equals what the training script measured in PyTorch.'
        : `Differs from the training script's count: ${differing.join(', ')}.`);
    accuracyStatus.dataset.agrees = String(differing.length === 0);
    // The plot joins the page with its first curves: before a measurement it has nothing to show.
    if (!accuracyPlot.element.isConnected) table.after(accuracyPlot.element);
    accuracyPlot.draw({
      series: ENCODINGS.map((e, i) => ({
        label: LABELS[e],
        x: log.evalLengths,
        y: measured[e].map(({ correct, total }) => correct / total),
        color: SERIES_COLORS[i],
      })),
      yDomain: [0, 1],
    });
    measureButton.disabled = false;
  }
  measureButton.addEventListener('click', progressiveToAnimationFrame(measure));

  const request = coalesceToAnimationFrame(drawPrediction);
  state.watch(['trained.'], request);
  request();
}
