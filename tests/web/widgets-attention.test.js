// <posenc-attention> on the widgets gallery: RoPE and ALiBi panels on one given colour scale
// (the domain attribute) against the float64 reference (support/attention-reference.js), redraws on attribute changes
// (softmax weights, a causal mask, the panel's own scale), bad attributes reported inside,
// keyboard read-out with posenc-pick, posenc-change, CSV/PNG, dark mode, axe and a phone's width.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { attentionReference } from './support/attention-reference.js';
import { waitForIdle } from './support/browser.js';
import { checkHeatmapPixels } from './support/colors.js';
import { galleryElementChecks, pngOf, problemsAfter, recordPicks, setAttributes } from './support/gallery.js';
import { useGallerySession } from './support/session.js';

const SELECTOR = '#gallery-attention';
const ALIBI = '#gallery-attention-alibi';

const session = useGallerySession();
let page;
let log;
before(async () => ({ page, log } = await session));

async function checkPanel(selector, encoding, options, domain) {
  const values = attentionReference(encoding, options);
  const { n } = options;
  return checkHeatmapPixels(page.locator(selector), `attention-${encoding}`, {
    rows: n,
    cols: n,
    expected: (r, c) => values[r * n + c],
    domain,
  });
}

test('two encodings drawn on the one colour scale their domain attribute gives, as float64 computes them', async () => {
  await checkPanel(SELECTOR, 'rope', { n: 64 }, [-3, 3]);
  await checkPanel(ALIBI, 'alibi', { n: 64 }, [-3, 3]);
  const csv = (await page.locator(SELECTOR).evaluate((node) => node.toCSV())).trim().split('\n');
  assert.equal(csv.length, 65);
  const expected = attentionReference('rope', { n: 64 });
  for (const [m, j] of [
    [0, 0],
    [63, 0],
    [5, 40],
  ]) {
    const shown = Number(csv[m + 1].split(',')[j + 1]);
    assert.ok(
      Math.abs(shown - expected[m * 64 + j]) <= 1e-5,
      `(${m}, ${j}): ${shown}, expected ${expected[m * 64 + j]}`,
    );
  }
  assert.deepEqual(log.errors, []);
});

test('redraws on attribute changes: weights under a causal mask, then its own scale, then posenc-change', async () => {
  const settings = await page.locator(ALIBI).evaluate(async (node) => {
    const changed = new Promise((resolve) =>
      node.addEventListener('posenc-change', (e) => resolve(e.detail.settings), { once: true }),
    );
    node.setAttribute('view', 'weights');
    node.setAttribute('causal', 'on');
    node.setAttribute('head', '2');
    node.setAttribute('domain', '0,0.5');
    return changed;
  });
  assert.deepEqual(settings, {
    encoding: 'alibi',
    seqLen: 64,
    l0: 32,
    headDim: 32,
    content: 'qk',
    seed: 7,
    view: 'weights',
    causal: 'on',
    head: 2,
    domain: [0, 0.5],
    t5Bias: [],
  });
  await waitForIdle(page);
  await checkPanel(ALIBI, 'alibi', { n: 64, head: 2, causal: true, view: 'weights' }, [0, 0.5]);
  // Without a domain, scores scale to the panel's own largest |score|, symmetric about 0.
  const attribute = await page.locator(ALIBI).evaluate((node) => {
    node.domain = [];
    return node.getAttribute('domain');
  });
  assert.equal(attribute, null, 'an empty domain property removes the attribute');
  await page.locator(ALIBI).evaluate((node) => {
    node.setAttribute('domain', '0,0.5');
    node.removeAttribute('domain');
    node.view = 'scores';
    node.causal = 'off';
    node.seqLen = 48;
  });
  await waitForIdle(page);
  const own = attentionReference('alibi', { n: 48, head: 2 });
  const largest = Math.max(...[...own].map(Math.abs));
  await checkPanel(ALIBI, 'alibi', { n: 48, head: 2 }, [-largest, largest]);
  await page.locator(ALIBI).evaluate((node) => {
    node.seqLen = 64;
    node.head = 4;
    node.setAttribute('domain', '-3,3');
  });
  await waitForIdle(page);
});

test('bad attributes: a message inside, an event, never a throw', async () => {
  const { thrown, names, message } = await problemsAfter(page, SELECTOR, [
    { attribute: 'encoding', value: 'cope' },
    { attribute: 'head-dim', value: '7' },
    { attribute: 'domain', value: '1,2,3' },
    { attribute: 'seq-len', value: '1e9' },
  ]);
  assert.equal(thrown, null);
  assert.deepEqual(names, ['encoding', 'head-dim', 'domain', 'seq-len']);
  assert.match(message, /encoding="cope" is not one of none, sinusoidal, rope, xpos, alibi, t5/);
  assert.match(message, /head-dim="7" is odd/);
  assert.match(message, /domain="1,2,3" needs 2 comma-separated numbers/);
  assert.match(message, /seq-len="1e9" is outside 16…256; using 256/);
  // A list's default is named, even the empty one (the panel's own scale).
  const attribute = await problemsAfter(page, SELECTOR, [{ attribute: 'domain', value: 'NaN,Infinity' }]);
  assert.match(
    attribute.message,
    /domain="NaN,Infinity" holds something that is not a number; using the default \(an empty list\)\./,
  );
  const property = await problemsAfter(page, SELECTOR, [{ property: 'domain', value: [1, Number.NaN] }]);
  assert.deepEqual([...attribute.names, ...property.names], ['domain', 'domain']);
  assert.match(
    property.message,
    /domain = \[1, NaN\] \(an array\) cannot be used \(it holds something that is not a number\); it stays \(an empty list\)\./,
  );
  await setAttributes(page, SELECTOR, { encoding: 'rope', 'head-dim': '32', domain: '-3,3', 'seq-len': '64' });
  assert.equal(await page.locator(`${SELECTOR} [part~="message"]`).isHidden(), true);
  await checkPanel(SELECTOR, 'rope', { n: 64 }, [-3, 3]);
  assert.deepEqual(log.errors, []);
});

test('T5: the stand-in table by default, a given one-direction table (t5-bias) in its place, mask or not', async () => {
  const table = Array.from({ length: 32 }, (_, b) => (b === 3 ? 1.5 : 0.25 * Math.cos(b) - 0.5));
  await setAttributes(page, ALIBI, { encoding: 't5', 'seq-len': '48', domain: '-3,3' });
  await checkPanel(ALIBI, 't5', { n: 48 }, [-3, 3]);
  await setAttributes(page, ALIBI, { 't5-bias': table.join(',') });
  await checkPanel(ALIBI, 't5', { n: 48, t5Bias: table }, [-3, 3]);
  await setAttributes(page, ALIBI, { causal: 'on', view: 'weights', domain: '0,0.5' });
  await checkPanel(ALIBI, 't5', { n: 48, t5Bias: table, causal: true, view: 'weights' }, [0, 0.5]);
  // The property reads back the table; an empty list is the stand-in again.
  const back = await page.locator(ALIBI).evaluate((node) => {
    const read = node.t5Bias;
    node.t5Bias = [];
    return { read, attribute: node.getAttribute('t5-bias') };
  });
  assert.deepEqual(back, { read: table, attribute: null });
  await waitForIdle(page);
  await checkPanel(ALIBI, 't5', { n: 48, causal: true, view: 'weights' }, [0, 0.5]);
  await setAttributes(page, ALIBI, {
    encoding: 'alibi',
    'seq-len': '64',
    causal: 'off',
    view: 'scores',
    domain: '-3,3',
  });
  await checkPanel(ALIBI, 'alibi', { n: 64 }, [-3, 3]);
  assert.deepEqual(log.errors, []);
});

test('keyboard read-out, posenc-pick, and a text alternative from the data', async () => {
  const lastPick = await recordPicks(page, SELECTOR);
  await page.locator(`${SELECTOR} canvas.heatmap-cells`).focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  const readout = await page.locator(`${SELECTOR} [part~="readout"]`).textContent();
  assert.match(readout, /^RoPE: m = 2, n = 1, m − n = 1: score /);
  const last = await lastPick();
  assert.equal(last.m, 2);
  assert.equal(last.n, 1);
  const expected = attentionReference('rope', { n: 64 })[2 * 64 + 1];
  assert.ok(Math.abs(last.value - expected) < 1e-5, `${last.value} vs ${expected}`);
  await page.locator(`${SELECTOR} canvas.heatmap-cells`).blur();
  const label = await page.locator(`${SELECTOR} canvas.heatmap-cells`).getAttribute('aria-label');
  assert.match(label, /RoPE: raw scores of one head for query and key positions 0 to 63/);
  assert.match(label, /colour scale −3 to 3 \(set by the page/);
});

test('toPNG and toCSV', async () => {
  const png = await pngOf(page, SELECTOR);
  assert.equal(png.type, 'image/png');
  assert.ok(png.width >= 64 && png.height >= 64, JSON.stringify(png));
  const csv = await page.locator(SELECTOR).evaluate((node) => node.toCSV());
  assert.match(csv.split('\n')[0], /,0,1,2,/);
});

galleryElementChecks(session, { selector: SELECTOR, section: '#attention', others: [ALIBI] });
