// <posenc-vectors-2d> on the widgets gallery (web/widgets.html): it draws the word vectors, their
// positional vectors and the sums a float64 reference computes, redraws on attribute changes,
// reports bad attributes inside itself without throwing, reads the words out by keyboard, sends
// its events, exports PNG and CSV, follows dark mode, passes axe and fits a 375-px screen.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { waitForIdle } from './support/browser.js';
import {
  applyBadValues,
  changesFrom,
  galleryElementChecks,
  pngOf,
  recordPicks,
  setAttributes as setGalleryAttributes,
} from './support/gallery.js';
import { useGallerySession } from './support/session.js';

const SELECTOR = '#gallery-vectors-2d';
const WORDS = ['check', 'this', 'out'];

/** PE(p) = (sin p, cos p) in float64, and the sums, written from the formula (not through posenc). */
function reference({ offset, vectors }) {
  return vectors.map((vector, i) => {
    const p = offset + i;
    const pe = [Math.sin(p), Math.cos(p)];
    return { position: p, pe, sum: [Math.fround(vector[0]) + pe[0], Math.fround(vector[1]) + pe[1]] };
  });
}

const session = useGallerySession();
let page;
let log;
before(async () => ({ page, log } = await session));

/** Sets attributes on the element and waits for its redraw. */
const setAttributes = (attributes) => setGalleryAttributes(page, SELECTOR, attributes);

/** The arrows drawn for a role: { from, to, label } from the SVG. */
function arrows(role) {
  return page.locator(`${SELECTOR} g.arrow[data-role="${role}"]`).evaluateAll((nodes) =>
    nodes.map((n) => ({
      from: n.dataset.from.split(',').map(Number),
      to: n.dataset.to.split(',').map(Number),
      label: n.dataset.label,
    })),
  );
}

/** float32 results: one rounding of each float64 term, so within a few float32 ulps of float64. */
const close = (a, b, what) =>
  assert.ok(Math.abs(a - b) <= 4e-7 * Math.max(1, Math.abs(b)), `${what}: ${a}, expected ${b}`);

async function checkDrawn(settings) {
  const expected = reference(settings);
  const sums = await arrows('sum');
  const pes = await arrows('pe-origin');
  const moved = await arrows('pe');
  const words = await arrows('word');
  assert.equal(sums.length, 3);
  expected.forEach(({ position, pe, sum }, i) => {
    assert.equal(pes[i].label, `PE(${position})`);
    assert.equal(sums[i].label, `${WORDS[i]} + PE`);
    for (const k of [0, 1]) {
      close(pes[i].to[k], pe[k], `PE(${position})[${k}]`);
      close(sums[i].to[k], sum[k], `${WORDS[i]} sum[${k}]`);
      close(words[i].to[k], settings.vectors[i][k], `${WORDS[i]} vector[${k}]`);
      // The dashed arrow is PE(p) moved to the word's tip.
      close(moved[i].from[k], settings.vectors[i][k], `${WORDS[i]} dashed start[${k}]`);
      close(moved[i].to[k], sum[k], `${WORDS[i]} dashed tip[${k}]`);
    }
    close(Math.hypot(...pes[i].to), 1, `|PE(${position})|`);
  });
  // The CSV holds the same numbers.
  const csv = await page.locator(SELECTOR).evaluate((node) => node.toCSV());
  const lines = csv.trim().split('\n');
  assert.equal(lines[0], 'word,position,x0,x1,pe0,pe1,sum0,sum1');
  expected.forEach(({ position, pe, sum }, i) => {
    const cells = lines[i + 1].split(',');
    assert.equal(cells[0], WORDS[i]);
    assert.equal(Number(cells[1]), position);
    close(Number(cells[4]), pe[0], 'csv pe0');
    close(Number(cells[5]), pe[1], 'csv pe1');
    close(Number(cells[6]), sum[0], 'csv sum0');
    close(Number(cells[7]), sum[1], 'csv sum1');
  });
}

const DEFAULTS = {
  offset: 0,
  vectors: [
    [1.2, 0.4],
    [-0.8, 0.9],
    [0.3, -1.1],
  ],
};

test('draws the words, PE(p) and the sums, as a float64 reference computes them', async () => {
  await checkDrawn(DEFAULTS);
  assert.deepEqual(log.errors, []);
});

test('redraws on attribute changes (once) and says so with posenc-change', async () => {
  const changes = await changesFrom(page, SELECTOR, { offset: '997', check: '2.5,-3', out: '-0.25,7' });
  assert.deepEqual(changes, [{ offset: 997, check: [2.5, -3], this: [-0.8, 0.9], out: [-0.25, 7] }]);
  await checkDrawn({
    offset: 997,
    vectors: [
      [2.5, -3],
      [-0.8, 0.9],
      [-0.25, 7],
    ],
  });
  // Properties are the same settings, and setting one shows in its attribute.
  await page.locator(SELECTOR).evaluate((node) => {
    node.offset = 12;
    node.this = [0, 0];
  });
  await waitForIdle(page);
  assert.equal(await page.locator(SELECTOR).getAttribute('offset'), '12');
  assert.equal(await page.locator(SELECTOR).getAttribute('this'), '0,0');
  await checkDrawn({
    offset: 12,
    vectors: [
      [2.5, -3],
      [0, 0],
      [-0.25, 7],
    ],
  });
  await setAttributes({ offset: '0', check: '1.2,0.4', this: '-0.8,0.9', out: '0.3,-1.1' });
});

test('bad attributes and properties: a message inside, one warning, an event, never a throw', async () => {
  const { thrown, events } = await applyBadValues(page, SELECTOR, [
    ['attribute', 'offset', 'soon'],
    ['attribute', 'offset', 'soon'], // the same problem again: no second warning
    ['attribute', 'check', '1,2,3'],
    ['attribute', 'this', '50,-50'],
    ['property', 'out', 'north'],
  ]);
  assert.equal(thrown, null);
  assert.deepEqual(
    events.map(({ name }) => name),
    ['offset', 'offset', 'check', 'this', 'out'],
  );
  const message = await page.locator(`${SELECTOR} [part~="message"]`).textContent();
  assert.match(message, /offset="soon" is not a number; using the default 0/);
  assert.match(message, /check/);
  assert.match(message, /this="50,-50" has numbers outside -10…10; using 10,-10\./);
  assert.match(
    message,
    /out = "north" \(a string\) cannot be used \(it needs 2 comma-separated numbers\); it stays 0\.3,-1\.1/,
  );
  assert.equal(log.warnings.filter((text) => text.includes('offset="soon"')).length, 1);
  // It still draws, with the defaults or the clamped values.
  await checkDrawn({
    offset: 0,
    vectors: [
      [1.2, 0.4],
      [10, -10],
      [0.3, -1.1],
    ],
  });
  // Good values clear the message.
  await setAttributes({ offset: '0', check: '1.2,0.4', this: '-0.8,0.9' });
  await page.locator(SELECTOR).evaluate((node) => {
    node.out = [0.3, -1.1];
  });
  assert.equal(await page.locator(`${SELECTOR} [part~="message"]`).isHidden(), true);
  assert.deepEqual(log.errors, []);
});

test('keyboard read-out, posenc-pick and the text alternative', async () => {
  await setAttributes({ offset: '5' });
  const lastPick = await recordPicks(page, SELECTOR);
  await page.locator(`${SELECTOR} .vectors-area`).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const readout = await page.locator(`${SELECTOR} [part~="readout"]`).textContent();
  assert.match(
    readout,
    /^this, position 6: word \(−0\.8, 0\.9\) \+ PE\(6\) = \(sin 6, cos 6\) = \(−0\.2794, 0\.9602\)/,
  );
  const last = await lastPick();
  assert.equal(last.word, 'this');
  assert.equal(last.position, 6);
  close(last.pe[0], Math.sin(6), 'picked sin 6');
  close(last.sum[1], Math.fround(0.9) + Math.cos(6), 'picked sum');
  assert.equal(await page.locator('#gallery-pick').textContent(), readout);
  await page.keyboard.press('End');
  assert.equal((await lastPick()).word, 'out');
  const label = await page.locator(`${SELECTOR} .vectors-area`).getAttribute('aria-label');
  assert.match(label, /check at position 5: word plus position = \(0\.241, 0\.684\)/);
  await setAttributes({ offset: '0' });
});

test('built-in controls (the controls attribute) change the attributes', async () => {
  const field = page.locator(`${SELECTOR} #ctl-check`);
  await field.fill('0.5, 0.25');
  await waitForIdle(page);
  assert.equal(await page.locator(SELECTOR).getAttribute('check'), '0.5,0.25');
  await checkDrawn({ offset: 0, vectors: [[0.5, 0.25], DEFAULTS.vectors[1], DEFAULTS.vectors[2]] });
  await setAttributes({ check: '1.2,0.4' });
  assert.equal(await field.inputValue(), '1.2, 0.4');
});

test('toPNG: a PNG of the figure; toCSV: one labelled row per word', async () => {
  const png = await pngOf(page, SELECTOR);

  assert.equal(png.type, 'image/png');
  assert.ok(png.width >= 100 && png.height >= 100, JSON.stringify(png));
  const csv = await page.locator(SELECTOR).evaluate((node) => node.toCSV());
  assert.match(csv.split('\n')[1], /^check,0,1\.2\d*,0\.4\d*,0,1,1\.2\d*,1\.(4|39999)\d*$/);
});

galleryElementChecks(session, { selector: SELECTOR, section: '#vectors-2d' });
