// The trained-models section in Chromium: it renders the chosen model's prediction and one
// attention heatmap per head; changing the model, the length or the typed tokens changes both, to
// what the same forward pass computes in Node; and the accuracy it measures live equals Node's
// counts on the same seeded sequences (and the training log's).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';

import { accuracyAt, predictions } from '../../web/src/trained/accuracy.js';
import { forward } from '../../web/src/trained/forward.js';
import { randomTokens } from '../../web/src/trained/task.js';
import { decodeModels } from '../../web/src/trained/weights.js';
import { waitForIdle } from './support/browser.js';
import { readLinePlot } from './support/lineplot.js';
import { posenc } from './support/reference.js';
import { usePageSession } from './support/session.js';

const read = (name) => JSON.parse(readFileSync(new URL(`../../web/models/${name}`, import.meta.url), 'utf8'));
const log = read('training-log.json');
const models = Object.fromEntries(decodeModels(read('weights.json')).map((m) => [m.encoding, m]));

const session = usePageSession({ page: 'companion' });
let page;
let pageLog;
before(async () => ({ page, log: pageLog } = await session));

/** What the section shows: the model, the input and the prediction, and the heatmaps' sizes. */
async function shown() {
  return page.evaluate(() => {
    const p = document.getElementById('trained-prediction').dataset;
    const canvases = [...document.querySelectorAll('#trained-models-demo canvas.heatmap-cells')];
    return {
      model: p.model,
      tokens: p.tokens.split(',').map(Number),
      predicted: p.predicted.split(',').map(Number),
      sizes: canvases.map((c) => [c.width, c.height]),
    };
  });
}

/** Node's prediction for the same model and tokens. */
function nodePrediction(encoding, tokens) {
  return Array.from(predictions(forward(posenc, models[encoding], Int32Array.from(tokens)), 16));
}

test('the section renders the default model on a random input of 64 tokens', async () => {
  const view = await shown();
  assert.equal(view.model, 'rope');
  assert.deepEqual(view.tokens, Array.from(randomTokens(64, 1, 16)));
  assert.deepEqual(view.predicted, nodePrediction('rope', view.tokens));
  assert.deepEqual(view.sizes, [
    [64, 64],
    [64, 64],
  ]);
  assert.deepEqual(pageLog.errors, []);
});

test('changing the model, the length and the typed tokens updates prediction and attention', async () => {
  await page.selectOption('#ctl-trained-model', 't5');
  await page.fill('#ctl-trained-len', '100');
  await page.press('#ctl-trained-len', 'Enter');
  await waitForIdle(page);
  let view = await shown();
  assert.equal(view.model, 't5');
  assert.equal(view.tokens.length, 100);
  assert.deepEqual(view.predicted, nodePrediction('t5', view.tokens));
  assert.deepEqual(view.sizes[0], [100, 100]);

  await page.fill('#ctl-trained-text', 'abcdefghijklmnop');
  await waitForIdle(page);
  view = await shown();
  assert.deepEqual(view.tokens, [...Array(16).keys()]);
  assert.deepEqual(view.predicted, nodePrediction('t5', view.tokens));
  assert.deepEqual(view.sizes[1], [16, 16]);
  await page.fill('#ctl-trained-text', '');
  await waitForIdle(page);
});

test('the accuracy measured in the browser equals Node’s on the same seeded sequences', async () => {
  await page.click('#ctl-trained-measure');
  await waitForIdle(page);
  const cells = await page.evaluate(() =>
    [...document.querySelectorAll('#trained-accuracy-table tbody tr')].map((row) => [
      row.dataset.encoding,
      [...row.querySelectorAll('td')].map((td) => [Number(td.dataset.correct), Number(td.dataset.total)]),
    ]),
  );
  assert.equal(cells.length, 7);
  for (const [encoding, counts] of cells) {
    const node = log.evalLengths.map((length) => {
      const { correct, total } = accuracyAt(posenc, models[encoding], length, {
        count: log.evalCount,
        seed: log.evalSeed,
      });
      return [correct, total];
    });
    assert.deepEqual(counts, node, encoding);
  }
  assert.equal(await page.getAttribute('#trained-accuracy-status', 'data-agrees'), 'true');
  const caption = await page.textContent('figure[data-plot="trained-accuracy"] figcaption');
  assert.match(caption, /equals what the training script measured/);
});

test('the training-loss plot draws every model’s logged curve, and its text gives the final losses', async () => {
  const { series, yScale } = await readLinePlot(page, 'trained-loss');
  assert.equal(Object.keys(series).length, Object.keys(log.models).length);
  assert.equal(yScale, 'log');
  for (const [label, entry] of Object.entries(series)) {
    const encoding = Object.keys(log.models).find((e) => label.toLowerCase().includes(e === 'none' ? 'nope' : e));
    assert.ok(encoding, `series ${label} names a model`);
    const logged = log.models[encoding].loss;
    assert.equal(entry.length, logged.length, `${label}: one point per logged step`);
    for (const [i, [x, y]] of entry.entries()) {
      const [step, loss] = logged[i];
      assert.ok(Math.abs(x - (step + 1)) < 1, `${label} step ${x} vs ${step + 1}`);
      // On a log axis the 2-decimal path coordinates are a ratio of well under 0.1 %.
      assert.ok(Math.abs(Math.log10(y / loss)) < 1e-3, `${label}: ${y} vs ${loss}`);
    }
  }
  const caption = await page.locator('figure[data-plot="trained-loss"] figcaption').textContent();
  for (const entry of Object.values(log.models)) {
    const final = entry.loss.at(-1)[1];
    assert.ok(caption.includes(final.toFixed(4)), `the caption gives the final loss ${final.toFixed(4)}`);
  }
});
