// <posenc-rope-heatmap> on the widgets gallery: RoPE's scores over query and key positions
// against a float64 reference, redraws on attribute changes (a heavy one as a labelled preview,
// then the full picture, then posenc-change), bad attributes reported inside, keyboard read-out
// with posenc-pick, CSV/PNG, and the theme attribute.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { waitForIdle } from './support/browser.js';
import { checkHeatmapPixels } from './support/colors.js';
import { galleryElementChecks, problemsAfter, recordPicks, setAttributes } from './support/gallery.js';
import { useGallerySession } from './support/session.js';

const SELECTOR = '#gallery-rope-heatmap';

/**
 * rot(q, m) · rot(k, n) for all-ones q and k, in float64: each pair contributes
 * 2 cos((m − n) θ_i) with θ_i = base^(−2i/d), whichever layout pairs the channels.
 */
function onesScore(m, n, headDim, base) {
  let sum = 0;
  for (let i = 0; i < headDim / 2; i++) sum += 2 * Math.cos((m - n) * base ** ((-2 * i) / headDim));
  return sum;
}

function extentOf(rows, headDim, base) {
  let lo = Infinity;
  let hi = -Infinity;
  for (let d = -(rows - 1); d < rows; d++) {
    const v = onesScore(d, 0, headDim, base);
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  return [lo, hi];
}

const session = useGallerySession();
let page;
let log;
before(async () => ({ page, log } = await session));

async function checkScores({ seqLen, headDim, base = 10000 }) {
  const domain = extentOf(seqLen, headDim, base);
  await checkHeatmapPixels(page, 'rope-similarity', {
    rows: seqLen,
    cols: seqLen,
    expected: (m, n) => onesScore(m, n, headDim, base),
    domain,
  });
  const csv = (await page.locator(SELECTOR).evaluate((node) => node.toCSV())).trim().split('\n');
  assert.equal(csv.length, seqLen + 1);
  for (const [m, n] of [
    [0, 0],
    [seqLen - 1, 0],
    [3, seqLen - 2],
  ]) {
    const shown = Number(csv[m + 1].split(',')[n + 1]);
    const expected = onesScore(m, n, headDim, base);
    assert.ok(Math.abs(shown - expected) <= 2e-5 * headDim, `(${m}, ${n}): ${shown}, expected ${expected}`);
  }
}

test('draws the scores of its attributes, as a float64 reference computes them', async () => {
  await checkScores({ seqLen: 64, headDim: 16 });
  assert.deepEqual(log.errors, []);
});

test('a heavy change: a labelled preview first, then the full picture, then posenc-change', async () => {
  const seen = await page.locator(SELECTOR).evaluate(async (node) => {
    const canvas = node.shadowRoot.querySelector('canvas.heatmap-cells');
    const changed = new Promise((resolve) =>
      node.addEventListener('posenc-change', (e) => resolve(e.detail.settings), { once: true }),
    );
    node.setAttribute('seq-len', '1024');
    node.setAttribute('head-dim', '128');
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    const first = canvas.dataset.resolution;
    const settings = await changed;
    return { first, finished: canvas.dataset.resolution, settings };
  });
  assert.equal(seen.first, 'preview');
  assert.equal(seen.finished, 'full');
  assert.deepEqual(seen.settings, {
    seqLen: 1024,
    headDim: 128,
    content: 'ones',
    seed: 1,
    layout: 'interleaved',
    base: 10000,
  });
  await waitForIdle(page);
  await checkScores({ seqLen: 1024, headDim: 128 });
  await page.locator(SELECTOR).evaluate((node) => {
    node.seqLen = 48;
    node.headDim = 8;
    node.base = 100;
  });
  await waitForIdle(page);
  await checkScores({ seqLen: 48, headDim: 8, base: 100 });
});

test('bad attributes: a message inside, an event, never a throw', async () => {
  const { thrown, names, message } = await problemsAfter(page, SELECTOR, [
    { attribute: 'head-dim', value: '7' },
    { attribute: 'content', value: 'zeros' },
    { attribute: 'seq-len', value: '1e9' },
  ]);
  assert.equal(thrown, null);
  assert.deepEqual(names, ['head-dim', 'content', 'seq-len']);
  assert.match(message, /head-dim="7" is odd \(this setting is even\); using 8/);
  assert.match(message, /content="zeros" is not one of ones, random/);
  assert.match(message, /seq-len="1e9" is outside 16…2048; using 2048/);
  await setAttributes(page, SELECTOR, { 'head-dim': '8', content: 'ones', 'seq-len': '48' });
  assert.equal(await page.locator(`${SELECTOR} [part~="message"]`).isHidden(), true);
  assert.deepEqual(log.errors, []);
});

test('keyboard read-out and posenc-pick with the positions', async () => {
  const lastPick = await recordPicks(page, SELECTOR);
  await page.locator(`${SELECTOR} canvas.heatmap-cells`).focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  const readout = await page.locator(`${SELECTOR} [part~="readout"]`).textContent();
  assert.match(readout, /^m = 2, n = 1, m − n = 1: score /);
  const last = await lastPick();
  assert.equal(last.m, 2);
  assert.equal(last.n, 1);
  assert.ok(Math.abs(last.value - onesScore(2, 1, 8, 100)) < 1e-5, `${last.value}`);
  await page.locator(`${SELECTOR} canvas.heatmap-cells`).blur();
});

test('toPNG and the dark theme', async () => {
  const png = await page.locator(SELECTOR).evaluate(async (node) => {
    node.setAttribute('theme', 'dark');
    const blob = await node.toPNG();
    const bitmap = await createImageBitmap(blob);
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d');
    context.drawImage(bitmap, 0, 0);
    const corner = [...context.getImageData(1, 1, 1, 1).data.slice(0, 3)];
    node.removeAttribute('theme');
    return { type: blob.type, corner };
  });
  assert.equal(png.type, 'image/png');
  assert.deepEqual(png.corner, [20, 23, 27], 'the PNG has the dark background');
});

galleryElementChecks(session, { selector: SELECTOR, section: '#rope-heatmap' });
