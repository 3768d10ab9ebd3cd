// <posenc-wavelengths> on the widgets gallery (web/widgets.html, which loads the widgets entry
// alone): it draws the curves a float64 reference computes, redraws on attribute changes, reports
// bad attributes inside itself without throwing, reads positions out by keyboard, sends its
// events, exports PNG and CSV, follows dark mode, passes axe and fits a phone.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { waitForIdle } from './support/browser.js';
import { readLinePlot } from './support/lineplot.js';
import { useGallerySession } from './support/session.js';
import {
  changesFrom,
  galleryElementChecks,
  pngOf,
  problemsAfter,
  recordPicks,
  setAttributes as setElementAttributes,
} from './support/gallery.js';

const SELECTOR = '#gallery-wavelengths';

/** Dimension k of the sinusoidal table at position p, in float64 from the formula (not posenc). */
function reference(p, k, { dModel, base = 10000, layout = 'interleaved' }) {
  const half = dModel / 2;
  const pair = layout === 'concat' ? k % half : k >> 1;
  const isSin = layout === 'concat' ? k < half : k % 2 === 0;
  const angle = p / base ** ((2 * pair) / dModel);
  return isSin ? Math.sin(angle) : Math.cos(angle);
}

const session = useGallerySession();
let page;
let log;
before(async () => ({ page, log } = await session));

/** Sets attributes on the element and waits for its redraw. */
const setAttributes = (attributes) => setElementAttributes(page, SELECTOR, attributes);

/** The drawn curves (SVG, to its 2-decimal resolution) and the CSV (float32) against the reference. */
async function checkCurves(settings, dims) {
  const { series, yPerUnit } = await readLinePlot(page, 'sinusoidal-dimensions');
  assert.deepEqual(
    Object.keys(series),
    dims.map((k) => `dimension ${k}`),
  );
  for (const k of dims) {
    const points = series[`dimension ${k}`];
    assert.equal(points.length, settings.seqLen);
    points.forEach(([x, y], p) => {
      assert.ok(Math.abs(x - p) <= 0.01 * settings.seqLen, `x of dimension ${k} at ${p}`);
      const expected = reference(p, k, settings);
      assert.ok(Math.abs(y - expected) <= 0.006 * yPerUnit + 1e-6, `dimension ${k} at ${p}: ${y} vs ${expected}`);
    });
  }
  const csv = await page.locator(SELECTOR).evaluate((node) => node.toCSV());
  const rows = csv
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(','));
  assert.equal(rows.length, dims.length * settings.seqLen);
  for (const [label, x, y] of rows) {
    const k = Number(label.replace('dimension ', ''));
    const expected = reference(Number(x), k, settings);
    assert.ok(Math.abs(Number(y) - expected) <= 1e-7, `${label} at ${x}: ${y} vs ${expected}`);
  }
}

test('draws the chosen dimensions of its attributes, as a float64 reference computes them', async () => {
  await checkCurves({ seqLen: 100, dModel: 64 }, [0, 10, 30, 63]);
  assert.deepEqual(log.errors, []);
});

test('redraws on attribute changes (once), says so with posenc-change, and describes its curves', async () => {
  const changes = await changesFrom(page, SELECTOR, {
    'seq-len': '50',
    'd-model': '40',
    base: '500',
    layout: 'concat',
    dims: '1, 21, 39',
  });
  assert.deepEqual(changes, [{ seqLen: 50, dModel: 40, base: 500, layout: 'concat', dims: [1, 21, 39] }]);
  const settings = { seqLen: 50, dModel: 40, base: 500, layout: 'concat' };
  await checkCurves(settings, [1, 21, 39]);
  // The curves' frequencies and wavelengths, against base^(-2i/d).
  const curves = await page.locator(SELECTOR).evaluate((node) =>
    node.curves.map(({ dimension, pair, fn, frequency, wavelength }) => ({
      dimension,
      pair,
      fn,
      frequency,
      wavelength,
    })),
  );
  for (const [curve, [pair, fn]] of curves.map((c, i) => [
    c,
    [
      [1, 'sin'],
      [1, 'cos'],
      [19, 'cos'],
    ][i],
  ])) {
    assert.equal(curve.pair, pair);
    assert.equal(curve.fn, fn);
    const frequency = 500 ** (-(2 * pair) / 40);
    assert.ok(Math.abs(curve.frequency - frequency) <= 1e-12 * frequency, `${curve.frequency} vs ${frequency}`);
    assert.ok(Math.abs(curve.wavelength - (2 * Math.PI) / frequency) <= 1e-9 * curve.wavelength);
  }
  // The text alternative comes from the numbers: in the concat layout dimension 39 (cos of pair
  // 19) is the slowest, dimension 1 and 21 (pair 1) the fastest.
  const label = await page.locator(`${SELECTOR} .lineplot-area`).getAttribute('aria-label');
  assert.match(label, /positions 0 to 49/);
  assert.match(label, /Fastest: dimension 1 \(sin of pair i = 1, wavelength 8\.573 positions\)/);
  assert.match(label, /slowest: dimension 39 \(cos of pair i = 19/);
  // A dimension beyond the table is drawn as its last one, once; properties are the settings too.
  await page.locator(SELECTOR).evaluate((node) => {
    node.dims = [0, 39, 500];
    node.layout = 'interleaved';
  });
  await waitForIdle(page);
  assert.equal(await page.locator(SELECTOR).getAttribute('dims'), '0,39,500');
  await checkCurves({ ...settings, layout: 'interleaved' }, [0, 39]);
});

test('bad attributes and properties: a message inside, one warning, an event, never a throw', async () => {
  const { thrown, names, message } = await problemsAfter(page, SELECTOR, [
    { attribute: 'dims', value: 'one, two' },
    { attribute: 'dims', value: 'one, two' },
    { attribute: 'seq-len', value: '-5' },
    { property: 'dims', value: 'all of them' },
    { property: 'dims', value: [] },
  ]);
  assert.equal(thrown, null);
  assert.deepEqual(names, ['dims', 'dims', 'seq-len', 'dims', 'dims']);
  assert.match(message, /seq-len="-5" .*; using 1\./);
  assert.match(message, /dims = \[\] \(an array\) cannot be used \(it needs 1…6 numbers\); it stays 0,20,60,120/);
  assert.equal(log.warnings.filter((text) => text.includes('dims="one, two"')).length, 1);
  await checkCurves({ seqLen: 1, dModel: 40, base: 500 }, [0, 20, 39]);
  await setAttributes({
    'seq-len': '100',
    'd-model': '64',
    base: '10000',
    layout: 'interleaved',
    dims: '0, 10, 30, 63',
  });
  await page.locator(SELECTOR).evaluate((node) => {
    node.dims = [0, 10, 30, 63];
  });
  assert.equal(await page.locator(`${SELECTOR} [part~="message"]`).isHidden(), true);
  assert.deepEqual(log.errors, []);
});

test('keyboard read-out and posenc-pick', async () => {
  const lastPick = await recordPicks(page, SELECTOR);
  await page.locator(`${SELECTOR} .lineplot-area`).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const readout = await page.locator(`${SELECTOR} [part~="readout"]`).textContent();
  assert.match(
    readout,
    /^position 1 — dimension 0: 0\.84147; dimension 10: 0\.23492; dimension 30: 0\.013335; dimension 63: 1$/,
  );
  const last = await lastPick();
  assert.equal(last.position, 1);
  assert.deepEqual(
    last.values.map((v) => v.dimension),
    [0, 10, 30, 63],
  );
  for (const { dimension, value } of last.values) {
    assert.ok(Math.abs(value - reference(1, dimension, { dModel: 64 })) <= 1e-7, `dimension ${dimension}`);
  }
  assert.equal(await page.locator('#gallery-pick').textContent(), readout);
  await page.locator(`${SELECTOR} .lineplot-area`).blur();
  assert.equal(await lastPick(), null);
});

test('toPNG: a PNG of the plot; toCSV: one labelled row per point', async () => {
  const png = await pngOf(page, SELECTOR);
  assert.equal(png.type, 'image/png');
  assert.ok(png.width >= 200 && png.height >= 100, JSON.stringify(png));
  const csv = await page.locator(SELECTOR).evaluate((node) => node.toCSV());
  assert.equal(csv.split('\n')[0], 'series,position,PE value');
  assert.match(csv.split('\n')[2], /^dimension 0,1,0\.84147/);
});

galleryElementChecks(session, { selector: SELECTOR, section: '#wavelengths' });
