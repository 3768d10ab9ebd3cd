// The prose's claims about the trained models, on both pages, as the reader sees them: every
// accuracy quoted (the lesson's sinusoidal and RoPE sections, the companion's long-context callout
// and the trained models' "What to look for") equals the training log's count, read here from the
// JSON; the far-weight numbers equal Node's forward pass; the lesson's trained RoPE query and key
// score what a float64 rotation of the model's own weights gives, the same at both positions. Each
// claim's words are checked against those numbers too (fails at 32, keeps the most, ...).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';

import { forward } from '../../web/src/trained/forward.js';
import { evalSeed, randomTokens } from '../../web/src/trained/task.js';
import { decodeModel } from '../../web/src/trained/weights.js';
import { ropeReference } from '../js/reference.js';
import { gotoAndSettle, openPage } from './support/browser.js';
import { posenc } from './support/reference.js';
import { useServedSite } from './support/session.js';

const read = (name) => JSON.parse(readFileSync(new URL(`../../web/models/${name}`, import.meta.url), 'utf8'));
const log = read('training-log.json');
const file = read('weights.json');

/** The log's accuracy of `encoding` at `length`, as a fraction and as the page should print it. */
function logged(encoding, length) {
  const [correct, total] = log.models[encoding].accuracy[length];
  return { fraction: correct / total, text: `${((100 * correct) / total).toFixed(1)}%` };
}

const site = useServedSite();
let browser;
let server;
before(async () => ({ browser, server } = await site));

/** The text of `selector` and the [data-accuracy] spans inside it, in order, once the page has settled. */
async function claim(url, selector) {
  const { page, context, log: pageLog } = await openPage(browser);
  try {
    await gotoAndSettle(page, url);
    const found = await page.locator(selector).evaluate((node) => ({
      text: node.textContent.replace(/\s+/g, ' '),
      spans: [...node.querySelectorAll('[data-accuracy]')].map((span) => [span.dataset.accuracy, span.textContent]),
      ids: Object.fromEntries(
        [...node.querySelectorAll('[id]')].map((span) => [span.id, { text: span.textContent, ...span.dataset }]),
      ),
    }));
    assert.deepEqual(pageLog.errors, []);
    return found;
  } finally {
    await context.close();
  }
}

/** Every span names the accuracy the log holds; the spans are `expected` ("encoding length"), in order. */
function checkAccuracies(spans, expected) {
  assert.deepEqual(
    spans.map(([name]) => name),
    expected,
  );
  for (const [name, text] of spans) {
    const [encoding, length] = name.split(' ');
    assert.equal(text, logged(encoding, length).text, name);
  }
}

const train = String(file.task.trainLength);

test('the lesson’s sinusoidal section quotes the sinusoidal model’s logged accuracy at 32 and 256, which falls', async () => {
  const { text, spans } = await claim(server.pageUrl, '#sinusoidal p:has(a[href$="#pe-extrapolation"])');
  checkAccuracies(spans, ['sinusoidal 32', 'sinusoidal 256']);
  assert.match(
    text,
    /trained with it on 32 tokens gets [\d.]+% of its answers right at that length and [\d.]+% at 256/,
  );
  assert.equal(train, '32');
  assert.ok(logged('sinusoidal', 32).fraction > 0.99 && logged('sinusoidal', 256).fraction < 0.5);
});

test('the companion’s extrapolation callout quotes the sinusoidal and RoPE models at 32, 64 and 256, and links to them', async () => {
  const { text, spans } = await claim(server.companionUrl, '#pe-extrapolation');
  checkAccuracies(spans, ['sinusoidal 32', 'sinusoidal 64', 'sinusoidal 256', 'rope 32', 'rope 64', 'rope 256']);
  assert.match(text, /The trained models above show it/);
  for (const encoding of ['sinusoidal', 'rope']) {
    const [at32, at64, at256] = [32, 64, 256].map((length) => logged(encoding, length).fraction);
    assert.ok(at32 > 0.99 && at64 < at32 - 0.2 && at256 < at64, `${encoding}: ${at32}, ${at64}, ${at256}`);
  }
});

test('“What to look for” quotes every claim’s numbers from the log, and the claims hold for them', async () => {
  const solving = ['learned', 'sinusoidal', 'rope', 't5', 'xpos'];
  const { text, spans, ids } = await claim(server.companionUrl, '#trained-look-for');
  checkAccuracies(spans, [
    'none 32',
    'alibi 32',
    ...solving.map((e) => `${e} 32`),
    ...solving.map((e) => `${e} 256`),
    'xpos 64',
    'xpos 256',
  ]);
  assert.match(text, /cannot learn the task even at the training length/);
  // None and ALiBi fail at 32 (chance is 1/16); the other five solve it there and lose it by 256.
  for (const encoding of ['none', 'alibi']) assert.ok(logged(encoding, train).fraction < 0.3, encoding);
  for (const encoding of solving) {
    assert.ok(logged(encoding, train).fraction > 0.99, `${encoding} solves it at ${train}`);
    assert.ok(logged(encoding, 256).fraction < 0.7, `${encoding} loses it by 256`);
  }
  // xPos keeps the most at every length past the training length.
  for (const length of log.evalLengths.filter((l) => l > Number(train))) {
    for (const other of solving.filter((e) => e !== 'xpos'))
      assert.ok(logged('xpos', length).fraction > logged(other, length).fraction, `xPos above ${other} at ${length}`);
  }
  // The far weights: the last 32 queries of the first length-256 evaluation input, each head's
  // share of weight on keys 32 or more back, from Node's forward pass.
  const length = 256;
  const shares = (encoding) => {
    const model = decodeModel(file, encoding);
    const tokens = randomTokens(length, evalSeed(log.evalSeed, length, 0), model.vocab);
    const [attention] = forward(posenc, model, tokens).attention;
    return Array.from({ length: model.numHeads }, (_, head) => {
      let sum = 0;
      for (let i = length - 32; i < length; i++)
        for (let j = 0; i - j >= model.trainLength; j++) sum += attention[(head * length + i) * length + j];
      return sum / 32;
    });
  };
  const percents = (values) => values.map((v) => `${(100 * v).toFixed(1)}%`).join(' and ');
  const rope = shares('rope');
  const xpos = shares('xpos');
  assert.equal(ids['trained-far-rope'].text, percents(rope));
  assert.equal(ids['trained-far-xpos'].text, percents(xpos));
  // "Most of its weight over the unseen far keys" for RoPE; xPos less so.
  assert.ok(Math.min(...rope) > 0.9, `RoPE's far weights ${rope}`);
  assert.ok(Math.max(...xpos) < Math.min(...rope), `xPos ${xpos} below RoPE ${rope}`);
});

test('the lesson’s RoPE section scores the trained RoPE model’s own query and key: the same at (10, 7) and (1000, 997)', async () => {
  const { text, spans, ids } = await claim(server.pageUrl, '#rope p:has(#rope-trained-near)');
  checkAccuracies(spans, ['rope 32', 'rope 256']);
  assert.ok(logged('rope', 32).fraction === 1 && logged('rope', 256).fraction < 0.5);
  assert.match(text, /A trained RoPE model’s own query and key \(head 0, tokens a and b\) score /);
  // Float64 from the weights: token a's query and token b's key (embedding times W_Q, W_K), each
  // rotated at its position (half layout, base 10000), head 0's dot product over √16.
  const model = decodeModel(file, 'rope');
  const { dModel, headDim, numHeads, tensors } = model;
  const project = (token, weight) =>
    Array.from({ length: dModel }, (_, c) => {
      let sum = 0;
      for (let i = 0; i < dModel; i++) sum += tensors.embed[token * dModel + i] * weight[i * dModel + c];
      return sum;
    });
  const q = project(0, tensors.wq);
  const k = project(1, tensors.wk);
  const rotate = (x, position) =>
    ropeReference(x, { seqLen: 1, numHeads, headDim, base: 10000, layout: 'half', positions: [position] });
  const score = (m, n) => {
    const [a, b] = [rotate(q, m), rotate(k, n)];
    let dot = 0;
    for (let c = 0; c < headDim; c++) dot += a[c] * b[c];
    return dot / Math.sqrt(headDim);
  };
  for (const [id, m, prefix] of [
    ['rope-trained-near', 10, 'positions '],
    ['rope-trained-far', 1000, ''],
  ]) {
    const shown = ids[id];
    const exact = score(m, m - model.lag);
    assert.equal(Number(shown.m), m);
    assert.equal(Number(shown.n), m - model.lag);
    assert.ok(Math.abs(Number(shown.score) - exact) <= 1e-5 * Math.abs(exact), `${id}: ${shown.score} vs ${exact}`);
    assert.equal(shown.text.replace('−', '-'), `${Number(exact.toPrecision(4))} at ${prefix}(${m}, ${m - model.lag})`);
  }
  // The relative-position property on a real model's vectors: float64 gives one score for both,
  // and the page's float32 scores agree to float32 rounding.
  assert.ok(Math.abs(score(10, 7) - score(1000, 997)) < 1e-9);
  const [near, far] = [ids['rope-trained-near'].score, ids['rope-trained-far'].score].map(Number);
  assert.ok(Math.abs(near - far) <= 1e-5 * Math.abs(near), `${near} vs ${far}`);
});
