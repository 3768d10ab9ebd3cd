// <posenc-pe-heatmap> on the widgets gallery (web/widgets.html, which loads the widgets entry
// alone): it draws the table a float64 reference computes, redraws on attribute changes, reports
// bad attributes inside itself without throwing, reads cells out by keyboard, sends its events,
// exports PNG and CSV, follows dark mode and its theme attribute, and passes axe.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { waitForIdle } from './support/browser.js';
import { checkHeatmapPixels } from './support/colors.js';
import { galleryElementChecks, pngOf, recordPicks, setAttributes as setElementAttributes } from './support/gallery.js';
import { useGallerySession } from './support/session.js';

const SELECTOR = '#gallery-pe-heatmap';

/** The sinusoidal table in float64, written from the formula (not through posenc). */
function referenceTable({ seqLen, dModel, base = 10000, layout = 'interleaved' }) {
  const half = dModel / 2;
  const table = new Float64Array(seqLen * dModel);
  for (let p = 0; p < seqLen; p++) {
    for (let i = 0; i < half; i++) {
      const angle = p / base ** ((2 * i) / dModel);
      const [sinAt, cosAt] = layout === 'concat' ? [i, half + i] : [2 * i, 2 * i + 1];
      table[p * dModel + sinAt] = Math.sin(angle);
      table[p * dModel + cosAt] = Math.cos(angle);
    }
  }
  return table;
}

const session = useGallerySession();
let page;
let log;
before(async () => ({ page, log } = await session));

/** Sets attributes on the element and waits for its redraw. */
const setAttributes = (attributes) => setElementAttributes(page, SELECTOR, attributes);

async function checkTable(settings) {
  const table = referenceTable(settings);
  await checkHeatmapPixels(page, 'sinusoidal-table', {
    rows: settings.seqLen,
    cols: settings.dModel,
    expected: (r, c) => table[r * settings.dModel + c],
    domain: [-1, 1],
  });
  // The CSV holds the float32 numbers: one rounding of the float64 value.
  const csv = await page.locator(SELECTOR).evaluate((node) => node.toCSV());
  const lines = csv.trim().split('\n');
  assert.equal(lines.length, settings.seqLen + 1);
  assert.equal(lines[0].split(',').length, settings.dModel + 1);
  for (const [r, c] of [
    [0, 0],
    [1, 1],
    [settings.seqLen - 1, settings.dModel - 1],
    [settings.seqLen >> 1, 3],
    [7, settings.dModel >> 1],
  ]) {
    const shown = Number(lines[r + 1].split(',')[c + 1]);
    const expected = table[r * settings.dModel + c];
    assert.ok(Math.abs(shown - expected) <= 1e-7, `cell (${r}, ${c}): ${shown}, expected ${expected}`);
  }
}

test('draws the table of its attributes, as a float64 reference computes it', async () => {
  await checkTable({ seqLen: 64, dModel: 64 });
  assert.deepEqual(log.errors, []);
});

test('redraws on attribute changes (once) and says so with posenc-change', async () => {
  const changes = await page.locator(SELECTOR).evaluate(async (node) => {
    const seen = [];
    node.addEventListener('posenc-change', (event) => seen.push(event.detail.settings));
    node.setAttribute('seq-len', '40');
    node.setAttribute('d-model', '30');
    node.setAttribute('base', '500');
    node.setAttribute('layout', 'concat');
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return seen;
  });
  assert.deepEqual(changes, [{ seqLen: 40, dModel: 30, base: 500, layout: 'concat' }]);
  await checkTable({ seqLen: 40, dModel: 30, base: 500, layout: 'concat' });
  // Properties are the same settings, and setting one shows in its attribute.
  await page.locator(SELECTOR).evaluate((node) => {
    node.seqLen = 24;
    node.layout = 'interleaved';
  });
  await waitForIdle(page);
  assert.equal(await page.locator(SELECTOR).getAttribute('seq-len'), '24');
  await checkTable({ seqLen: 24, dModel: 30, base: 500 });
});

test('a property set before the element was defined is taken over as its setting', async () => {
  const late = await page.evaluate(async () => {
    const element = document.createElement('posenc-late-heatmap');
    element.seqLen = 12;
    element.layout = 'concat';
    document.querySelector('main').append(element);
    customElements.define('posenc-late-heatmap', class extends customElements.get('posenc-pe-heatmap') {});
    await new Promise((resolve) => element.addEventListener('posenc-change', resolve, { once: true }));
    const result = { seqLen: element.getAttribute('seq-len'), layout: element.layout, rows: element.table.rows };
    element.remove();
    return result;
  });
  assert.deepEqual(late, { seqLen: '12', layout: 'concat', rows: 12 });
});

test('bad attributes and properties: a message inside, one warning, an event, never a throw', async () => {
  const { thrown, events } = await page.locator(SELECTOR).evaluate((node) => {
    const events = [];
    node.addEventListener('posenc-invalid', (event) => events.push(event.detail));
    let thrown = null;
    try {
      node.setAttribute('seq-len', 'abc');
      node.setAttribute('seq-len', 'abc'); // the same problem again: no second warning
      node.setAttribute('d-model', '99999');
      node.setAttribute('layout', '<b>sideways</b>');
      node.base = 'ten thousand';
      node.dModel = Number.NaN;
    } catch (error) {
      thrown = error.message;
    }
    return { thrown, events };
  });
  await waitForIdle(page);
  assert.equal(thrown, null);
  assert.deepEqual(
    events.map(({ name }) => name),
    ['seq-len', 'seq-len', 'd-model', 'layout', 'base', 'd-model'],
  );
  const message = await page.locator(`${SELECTOR} [part~="message"]`).textContent();
  assert.match(message, /seq-len="abc" is not a number; using the default 128/);
  assert.match(message, /dModel = NaN \(a number\) cannot be used \(it is not a number\); it stays 2048/);
  assert.match(message, /layout="<b>sideways<\/b>" is not one of interleaved, concat/);
  assert.match(message, /base = "ten thousand" \(a string\) cannot be used \(it is not a number\); it stays 500/);
  assert.equal(log.warnings.filter((text) => text.includes('seq-len="abc"')).length, 1);
  // It still draws, with the defaults or the clamped values.
  await checkTable({ seqLen: 128, dModel: 2048, base: 500 });
  // Good values clear the message.
  await setAttributes({ 'seq-len': '64', 'd-model': '64', layout: 'interleaved', base: '10000' });
  await page.locator(SELECTOR).evaluate((node) => {
    node.dModel = 64;
    node.base = 10000;
  });
  assert.equal(await page.locator(`${SELECTOR} [part~="message"]`).isHidden(), true);
  assert.deepEqual(log.errors, []);
});

test('the largest table: painted in full, and what the read-out and rowsAt compute again is the table, bit for bit', async () => {
  const settings = { seqLen: 2048, dModel: 2048, layout: 'concat' };
  await setAttributes({ 'seq-len': '2048', 'd-model': '2048', layout: 'concat', base: '10000' });
  const table = referenceTable(settings);
  await checkHeatmapPixels(page, 'sinusoidal-table', {
    rows: 2048,
    cols: 2048,
    expected: (r, c) => table[r * 2048 + c],
    domain: [-1, 1],
  });
  const lastPick = await recordPicks(page, SELECTOR);
  const canvas = page.locator(`${SELECTOR} canvas.heatmap-cells`);
  const { width, height } = await canvas.boundingBox();
  const picks = [];
  // Rows on both sides of 1024 (where posenc anchors the phases again) and near the last.
  for (const [x, y] of [
    [0.3, 0.2],
    [0.9, 0.6],
    [0.55, 0.999],
  ]) {
    await canvas.hover({ position: { x: x * width, y: y * height } });
    picks.push(await lastPick());
  }
  assert.ok(picks.some(({ row }) => row < 1024) && picks.some(({ row }) => row > 2000), JSON.stringify(picks));
  const same = await page.locator(SELECTOR).evaluate((node, shown) => {
    const { values, cols } = node.table;
    const rows = node.rowsAt(1500, 3);
    return {
      picks: shown.map(({ row, col, value }) => Object.is(value, values[row * cols + col])),
      rows: rows.length === 3 * cols && rows.every((v, i) => Object.is(v, values[1500 * cols + i])),
      last: node.rowsAt(2047, 1).every((v, i) => Object.is(v, values[2047 * cols + i])),
    };
  }, picks);
  assert.deepEqual(same, { picks: [true, true, true], rows: true, last: true });
  await page.mouse.move(0, 0);
  await setAttributes({ 'seq-len': '64', 'd-model': '64', layout: 'interleaved' });
  assert.deepEqual(log.errors, []);
});

test('keyboard read-out and posenc-pick', async () => {
  await setAttributes({ 'seq-len': '64', 'd-model': '64', layout: 'interleaved', base: '10000' });
  const lastPick = await recordPicks(page, SELECTOR);
  await page.locator(`${SELECTOR} canvas.heatmap-cells`).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  const readout = await page.locator(`${SELECTOR} [part~="readout"]`).textContent();
  assert.match(readout, /^position 1, dimension 1 \(pair i = 0, cos\): angle 1 rad, value 0\.540302/);
  const last = await lastPick();
  assert.equal(last.row, 1);
  assert.equal(last.col, 1);
  assert.equal(last.fn, 'cos');
  assert.ok(Math.abs(last.value - Math.cos(1)) < 1e-7);
  assert.equal(await page.locator('#gallery-pick').textContent(), readout);
  // The text alternative is generated from the settings.
  const label = await page.locator(`${SELECTOR} canvas.heatmap-cells`).getAttribute('aria-label');
  assert.match(label, /64 positions \(rows, top to bottom\) × 64 dimensions/);
});

test('built-in controls (the controls attribute) change the attributes', async () => {
  const slider = page.locator(`${SELECTOR} #ctl-seq-len-range`);
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await waitForIdle(page);
  assert.equal(await page.locator(SELECTOR).getAttribute('seq-len'), '65');
  await page.locator(`${SELECTOR} #ctl-layout-concat`).check();
  await waitForIdle(page);
  assert.equal(await page.locator(SELECTOR).getAttribute('layout'), 'concat');
  await checkTable({ seqLen: 65, dModel: 64, layout: 'concat' });
  await setAttributes({ 'seq-len': '64', layout: 'interleaved' });
  assert.equal(await page.locator(`${SELECTOR} #ctl-seq-len`).inputValue(), '64');
});

test('toPNG: a PNG of the figure with its cells; toCSV: labelled rows', async () => {
  const png = await pngOf(page, SELECTOR);
  assert.equal(png.type, 'image/png');
  assert.ok(png.width >= 64 && png.height >= 64, JSON.stringify(png));
  const csv = await page.locator(SELECTOR).evaluate((node) => node.toCSV());
  assert.match(csv, /^position \\ dimension,0,1,2,/);
  assert.match(csv.split('\n')[2], /^1,0\.84147/);
});

// axe-core on the whole gallery (its header and snippets too), not only this element's section.
galleryElementChecks(session, { selector: SELECTOR, section: null });
