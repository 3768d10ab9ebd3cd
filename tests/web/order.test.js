// §1 "Why order matters": word labels readable at every sentence length the section takes (no two
// labels overlap, none reaches the axis title or leaves the figure), the example pair is the
// cell the "largest difference" measures, and the notes' wording and minus signs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { gotoAndSettle, openPage } from './support/browser.js';
import { boxesWithin, inside, overlappingPairs } from './support/layout.js';
import { sentenceScores } from './support/reference.js';
import { useServedSite } from './support/session.js';

const site = useServedSite();
let browser;
let server;
before(async () => ({ browser, server } = await site));

const OLD_MAN = 'the old man and his dog walked slowly along the quiet river bank';
const SWAPPED = 'the old dog and his man walked slowly along the quiet river bank';
const LONG_WORDS = `internationalization considerations ${OLD_MAN}`; // 16 words, one of 20 letters
const LONG_SWAPPED = `internationalization considerations ${SWAPPED}`;

/** The page at `width` with sentences a and b in the link (a phone: touch and 375 px). */
async function openOrder(width, a, b) {
  const opened = await openPage(browser, width < 500 ? { width, height: 812, touch: true } : { width, height: 900 });
  const query = new URLSearchParams({ 'order.a': a, 'order.b': b });
  await gotoAndSettle(opened.page, `${server.pageUrl}?${query}`);
  return opened;
}

/** Boxes of every tick label and axis title of §1's figures, with the figure's own box. */
const labelBoxes = (page) =>
  boxesWithin(page.locator('#order-demo figure.heatmap:not([hidden])'), { labels: '.axis .tick, .axis-label' });

for (const width of [1280, 375]) {
  for (const [a, b, what] of [
    [OLD_MAN, SWAPPED, '13 words'],
    [LONG_WORDS, LONG_SWAPPED, '16 words, some long'],
  ]) {
    test(`§1 at ${width} px, ${what}: every word label inside its figure, none overlapping another`, async () => {
      const { page, context, log } = await openOrder(width, a, b);
      const figures = await labelBoxes(page);
      assert.equal(figures.length, 6);
      const words = a.split(' ').length;
      for (const { plot, own: figure, labels } of figures) {
        assert.equal(labels.length, 2 * words + 2, plot);
        for (const label of labels) assert.ok(inside(label, figure), `${plot}: “${label.text}” outside the figure`);
        assert.deepEqual(overlappingPairs(labels), [], plot);
      }
      // A word cut short on the axis is named whole by the read-out.
      const canvas = page.locator('figure[data-plot="order-a-pos"] canvas.heatmap-cells');
      await canvas.focus();
      assert.match(
        await page.locator('figure[data-plot="order-a-pos"] .readout').textContent(),
        new RegExp(`^“${a.split(' ')[0]}” · “${a.split(' ')[0]}” = `),
      );
      assert.deepEqual(log.errors, []);
      await context.close();
    });
  }
}

test('§1 example: the pair that differs most, with the numbers of that cell (a float64 reference)', async () => {
  const { page, context, log } = await openOrder(1280, OLD_MAN, SWAPPED);
  const withA = sentenceScores(OLD_MAN, true);
  const withB = sentenceScores(SWAPPED, true);
  const plainA = sentenceScores(OLD_MAN, false);
  const plainB = sentenceScores(SWAPPED, false);
  const words = withA.words;
  const n = words.length;
  // B's tokens in A's order: the k-th occurrence of a word to its k-th occurrence.
  const used = new Set();
  const map = words.map((word) => {
    const j = withB.words.findIndex((other, index) => other === word && !used.has(index));
    used.add(j);
    return j;
  });
  let best = { difference: -1 };
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++) {
      const difference = Math.abs(withA.scores[r * n + c] - withB.scores[map[r] * n + map[c]]);
      if (difference > best.difference) best = { difference, r, c };
    }
  const { r, c } = best;
  const note = await page.locator('#order-pair').textContent();
  const match = note.match(
    /“(\S+)” · “(\S+)”: (\S+) in A and (\S+) in B without positions; (\S+) in A and (\S+) in B with positions\.$/,
  );
  assert.ok(match, note);
  assert.deepEqual([match[1], match[2]], [words[r], words[c]], note);
  const shown = match.slice(3).map((text) => Number(text.replace('−', '-')));
  const expected = [
    plainA.scores[r * n + c],
    plainB.scores[map[r] * n + map[c]],
    withA.scores[r * n + c],
    withB.scores[map[r] * n + map[c]],
  ];
  for (const [i, value] of shown.entries())
    assert.ok(Math.abs(value - expected[i]) <= 5e-4 * Math.abs(expected[i]), note);
  assert.equal(shown[0], shown[1], 'identical without positions');
  assert.notEqual(shown[2], shown[3], 'different with positions');
  assert.match(
    await page.locator('#order-pos-diff').textContent(),
    new RegExp(`^Largest difference = ${best.difference.toPrecision(3)}\\. The same word now scores differently`),
  );
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('§1 wording: both sentences empty "have" no words; numbers in captions and labels take the minus sign', async () => {
  const { page, context, log } = await openOrder(1280, ' ', '');
  assert.equal(
    await page.locator('#order-bag').textContent(),
    'Sentences A and B have no words: type at least one word in each sentence.',
  );
  await page.locator('#ctl-order-a').fill('the cat sat on the mat');
  await page.locator('#ctl-order-b').fill('the mat sat on the cat');
  await page.waitForFunction(() => document.getElementById('order-pair').textContent !== '');
  const texts = await page
    .locator('#order-demo')
    .evaluate((root) => [
      ...[...root.querySelectorAll('figcaption, .result')].map((node) => node.textContent),
      ...[...root.querySelectorAll('canvas.heatmap-cells')].map((canvas) => canvas.getAttribute('aria-label')),
    ]);
  assert.ok(
    texts.some((text) => /−\d/.test(text)),
    'a negative number is shown',
  );
  for (const text of texts) assert.doesNotMatch(text, /-\d/, text);
  const canvas = page.locator('figure[data-plot="order-diff-pos"] canvas.heatmap-cells');
  await canvas.focus();
  for (let k = 0; k < 6 && !/= −/.test(await readout()); k++) await page.keyboard.press('ArrowRight');
  assert.match(await readout(), /A − B = −\d/);
  assert.deepEqual(log.errors, []);
  await context.close();

  function readout() {
    return page.locator('figure[data-plot="order-diff-pos"] .readout').textContent();
  }
});

test('§1 PNG export: the tick labels as shown, not the hidden copies that size the axes', async () => {
  const { page, context, log } = await openPage(browser, { width: 1280, height: 900, acceptDownloads: true });
  await gotoAndSettle(page, server.pageUrl);
  const figure = page.locator('figure[data-plot="order-a-plain"]');
  const [file] = await Promise.all([page.waitForEvent('download'), figure.locator('button.export-png').click()]);
  const base64 = readFileSync(await file.path()).toString('base64');
  // Ink in the y axis's column above its first tick label (blank on the page): none in the image.
  const ink = await figure.evaluate(async (node, data) => {
    const image = new Image();
    image.src = `data:image/png;base64,${data}`;
    await image.decode();
    const canvas = new OffscreenCanvas(image.width, image.height);
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    const origin = node.getBoundingClientRect();
    const axis = node.querySelector('.axis-y').getBoundingClientRect();
    const first = node.querySelector('.axis-y > .tick').getBoundingClientRect();
    const scale = image.width / (origin.width + 16); // the export's 8-px margin on each side
    const px = (v, from) => Math.round((v - from + 8) * scale);
    const [x0, x1] = [px(axis.left, origin.left), px(axis.right, origin.left)];
    const [y0, y1] = [px(axis.top, origin.top), px(first.top - 1, origin.top)];
    const { data: pixels } = context.getImageData(x0, y0, x1 - x0, y1 - y0);
    let count = 0;
    for (let i = 0; i < pixels.length; i += 4) if (pixels[i] + pixels[i + 1] + pixels[i + 2] < 450) count++;
    return { count, box: [x0, y0, x1, y1] };
  }, base64);
  assert.ok(ink.box[3] - ink.box[1] > 10, `a strip to look at: ${ink.box}`);
  assert.equal(ink.count, 0, `ink above the first y tick label in ${ink.box}`);
  assert.deepEqual(log.errors, []);
  await context.close();
});
