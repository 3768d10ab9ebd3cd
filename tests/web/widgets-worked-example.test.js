// <posenc-worked-example> on the widgets gallery (web/widgets.html): it shows the encodings and
// sums a float64 reference computes, flags what Jaitly's post truncated, redraws on attribute changes,
// reports bad attributes inside itself without throwing, reads the rows out by keyboard, sends
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

const SELECTOR = '#gallery-worked-example';
const THE = [0.5, 0.1, 0.8, 0.3];
const CAT = [0.2, 0.9, 0.4, 0.6];

/** PE for d = 4 at positions 0 and 1 in float64 (frequencies 1 and 10000^(-1/2)), and the sums. */
function reference(the, cat) {
  const pe = [0, 1].flatMap((p) =>
    [0, 1].flatMap((i) => [Math.sin(p / 10000 ** (i / 2)), Math.cos(p / 10000 ** (i / 2))]),
  );
  const embeddings = [...the, ...cat].map(Math.fround);
  return { pe, sums: pe.map((v, k) => embeddings[k] + v) };
}

const session = useGallerySession();
let page;
let log;
before(async () => ({ page, log } = await session));

const setAttributes = (attributes) => setGalleryAttributes(page, SELECTOR, attributes);
const close = (a, b, what) =>
  assert.ok(Math.abs(a - b) <= 4e-7 * Math.max(1, Math.abs(b)), `${what}: ${a}, expected ${b}`);

async function checkShown(the, cat) {
  const { pe, sums } = reference(the, cat);
  const shownPe = await page.locator(`${SELECTOR} #we-pe-table td.exact`).allTextContents();
  assert.equal(shownPe.length, 8);
  for (const [k, text] of shownPe.entries()) close(Number(text), pe[k], `PE entry ${k}`); // 7 significant digits
  const csv = (await page.locator(SELECTOR).evaluate((node) => node.toCSV())).trim().split('\n');
  assert.equal(csv[0], 'word,position,channel,pe,embedding,sum,seed_pe');
  csv.slice(1).forEach((line, k) => {
    const cells = line.split(',');
    close(Number(cells[3]), pe[k], `csv pe ${k}`);
    close(Number(cells[5]), sums[k], `csv sum ${k}`);
  });
  const shownSums = await page.locator(`${SELECTOR} #we-sum-table td.exact`).allTextContents();
  for (const [w, text] of shownSums.entries()) {
    for (const [k, entry] of text.slice(1, -1).split(', ').entries()) {
      const expected = sums[w * 4 + k]; // shown to 7 significant digits
      assert.ok(
        Math.abs(Number(entry) - expected) <= 5e-7 * Math.max(1, Math.abs(expected)),
        `sum ${w},${k}: ${entry}`,
      );
    }
  }
}

test('shows the encodings and the sums a float64 reference computes, and the one truncation', async () => {
  await checkShown(THE, CAT);
  const flagged = await page.locator(`${SELECTOR} #we-pe-table td.truncated`).allTextContents();
  assert.equal(flagged.length, 1);
  assert.match(flagged[0], /^0\.999 ✗ truncated: 0\.99995 rounds to 1\.000/);
  assert.deepEqual(await page.locator(`${SELECTOR} #we-sum-table mark.truncated`).allTextContents(), ['1.599']);
  // The formula of "cat", channel 2: sin(1 / 10000^(2·1/4)) = sin(0.01).
  assert.equal(
    await page.locator(`${SELECTOR} #we-pe-table tr[data-word="cat"][data-k="2"] td.formula`).textContent(),
    'PE(1, 2) = sin(1 / 100002·1/4) = sin(0.01)',
  );
  assert.deepEqual(log.errors, []);
});

test('redraws on attribute changes (once) and says so with posenc-change', async () => {
  const changes = await changesFrom(page, SELECTOR, { the: '-1,2.5,0,99', cat: '0,0,0,0' });
  assert.deepEqual(changes, [{ the: [-1, 2.5, 0, 99], cat: [0, 0, 0, 0] }]);
  await checkShown([-1, 2.5, 0, 99], [0, 0, 0, 0]);
  assert.match(
    await page.locator(`${SELECTOR} #we-sum-table tr[data-word="cat"] td.seed`).textContent(),
    /your own embeddings/,
  );
  await page.locator(SELECTOR).evaluate((node) => {
    node.cat = [1, 1, 1, 1];
  });
  await waitForIdle(page);
  assert.equal(await page.locator(SELECTOR).getAttribute('cat'), '1,1,1,1');
  await checkShown([-1, 2.5, 0, 99], [1, 1, 1, 1]);
  await setAttributes({ the: THE.join(','), cat: CAT.join(',') });
});

test('bad attributes and properties: a message inside, one warning, an event, never a throw', async () => {
  const { thrown, events } = await applyBadValues(page, SELECTOR, [
    ['attribute', 'the', '1,2'],
    ['attribute', 'the', '1,2'], // the same problem again: no second warning
    ['attribute', 'cat', '1000,0,0,-1000'],
    ['property', 'the', 'four numbers'],
  ]);
  assert.equal(thrown, null);
  assert.deepEqual(
    events.map(({ name }) => name),
    ['the', 'the', 'cat', 'the'],
  );
  const message = await page.locator(`${SELECTOR} [part~="message"]`).textContent();
  assert.match(events[0].message, /the="1,2" needs 4 comma-separated numbers/);
  assert.match(
    message,
    /the = "four numbers" \(a string\) cannot be used \(it needs 4 comma-separated numbers\); it stays 0\.5,0\.1,0\.8,0\.3/,
  );
  assert.match(message, /cat="1000,0,0,-1000" has numbers outside -100…100; using 100,0,0,-100\./);
  assert.equal(log.warnings.filter((text) => text.includes('the="1,2"')).length, 1);
  await checkShown(THE, [100, 0, 0, -100]);
  await setAttributes({ cat: CAT.join(',') });
  await page.locator(SELECTOR).evaluate((node) => {
    node.the = [0.5, 0.1, 0.8, 0.3];
  });
  assert.equal(await page.locator(`${SELECTOR} [part~="message"]`).isHidden(), true);
  assert.deepEqual(log.errors, []);
});

test('keyboard read-out, posenc-pick and the text alternative', async () => {
  const lastPick = await recordPicks(page, SELECTOR);
  await page.locator(`${SELECTOR} .table-scroll[tabindex="0"]`).focus();
  await page.keyboard.press('End');
  const readout = await page.locator(`${SELECTOR} [part~="readout"]`).textContent();
  assert.equal(readout, '“cat” (position 1), channel 3: cos(0.01) = 0.99995; Jaitly printed 0.999 (truncated)');
  const last = await lastPick();
  assert.deepEqual([last.word, last.channel, last.fn, last.truncated], ['cat', 3, 'cos', true]);
  close(last.value, Math.cos(0.01), 'picked value');
  assert.equal(await page.locator('#gallery-pick').textContent(), readout);
  await page.keyboard.press('ArrowUp');
  assert.equal((await lastPick()).channel, 2);
  assert.equal(await page.locator(`${SELECTOR} #we-pe-table tr.current`).getAttribute('data-k'), '2');
  const caption = await page.locator(`${SELECTOR} [part~="summary"]`).textContent();
  assert.match(caption, /Jaitly truncated “cat”, channel 3 \(0\.999 for 0\.99995\)/);
});

test('built-in controls (the controls attribute) change the attributes', async () => {
  await page.locator(`${SELECTOR} #ctl-cat`).fill('0, 0, 0, 0');
  await waitForIdle(page);
  assert.equal(await page.locator(SELECTOR).getAttribute('cat'), '0,0,0,0');
  await checkShown(THE, [0, 0, 0, 0]);
  await setAttributes({ cat: CAT.join(',') });
  assert.equal(await page.locator(`${SELECTOR} #ctl-cat`).inputValue(), '0.2, 0.9, 0.4, 0.6');
});

test('toPNG: a PNG of the tables; toCSV: one labelled row per word and channel', async () => {
  const png = await pngOf(page, SELECTOR);

  assert.equal(png.type, 'image/png');
  assert.ok(png.width >= 200 && png.height >= 100, JSON.stringify(png));
  const csv = await page.locator(SELECTOR).evaluate((node) => node.toCSV());
  assert.equal(csv.trim().split('\n').length, 9);
  assert.match(csv.split('\n')[8], /^cat,1,3,0\.9999\d+,0\.6\d*,1\.5999\d+,0\.999$/);
});

galleryElementChecks(session, { selector: SELECTOR, section: '#worked-example' });
