// End-to-end: the single-file build works opened straight from disk (file://), WASM included.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { gotoAndSettle, launchBrowser, openPage } from './support/browser.js';
import { ensureWebBuilt, SINGLE_FILE } from './support/build.js';
import { checkHeatmapPixels, extentOf } from './support/colors.js';
import { ropeScores, sinusoidalTable } from './support/reference.js';

let browser;

before(async () => {
  await ensureWebBuilt();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

test('the single HTML file holds everything: no script, style or font files beside it', () => {
  const html = readFileSync(SINGLE_FILE, 'utf8');
  assert.doesNotMatch(html, /<script[^>]+src=/, 'external scripts');
  assert.doesNotMatch(html, /<link[^>]+rel="stylesheet"/, 'external stylesheets');
  assert.doesNotMatch(html, /url\((?!["']?data:)[^)]*\.woff2/, 'font files');
  // posenc/inline: each build as one base64 string (no second copy as a data: URL).
  for (const variant of ['simd', 'scalar']) {
    const base64 = readFileSync(new URL(`../../dist/posenc-${variant}.wasm`, import.meta.url)).toString('base64');
    assert.equal(html.split(base64).length - 1, 1, `the ${variant} module, once`);
  }
  assert.doesNotMatch(html, /data:application\/wasm/, 'no .wasm data: URL beside the inline chunks');
});

test('opened from file://, it computes and draws with no request anywhere', async () => {
  const { page, log, context } = await openPage(browser);
  const url = pathToFileURL(SINGLE_FILE).href;
  await gotoAndSettle(page, url);
  assert.deepEqual(log.errors, []);
  const elsewhere = log.requests.filter(
    (request) => request !== url && !request.startsWith('data:') && !request.startsWith('blob:'),
  );
  assert.deepEqual(elsewhere, []);
  assert.match(await page.locator('#engine-status').textContent(), /WebAssembly build/);
  assert.equal(await page.locator('#offline-copy').isHidden(), true, 'the download link to itself is hidden');
  const table = sinusoidalTable({ seqLen: 128, dModel: 128 });
  await checkHeatmapPixels(page, 'sinusoidal-table', {
    rows: 128,
    cols: 128,
    expected: (r, c) => table[r * 128 + c],
    domain: [-1, 1],
    samples: 32,
  });
  const scores = ropeScores({ seqLen: 1001, headDim: 64 });
  await checkHeatmapPixels(page, 'rope-similarity', {
    rows: 1001,
    cols: 1001,
    expected: (r, c) => scores[r * 1001 + c],
    domain: extentOf(scores),
    samples: 32,
  });
  // KaTeX's fonts are inlined too: the formulas are typeset with them.
  assert.ok(await page.evaluate(() => document.fonts.check('16px KaTeX_Main')), 'KaTeX_Main font available');
  await context.close();
});

test('from file://, a link naming Object.prototype members reports them and keeps the page alive', async () => {
  const { page, log, context } = await openPage(browser);
  await gotoAndSettle(page, `${pathToFileURL(SINGLE_FILE).href}?__proto__=1&constructor=1&pe.seq=64`);
  assert.deepEqual(await page.locator('#url-problems li').allTextContents(), [
    'Ignored the unknown setting "__proto__".',
    'Ignored the unknown setting "constructor".',
  ]);
  assert.equal(
    await page.locator('figure[data-plot="sinusoidal-table"] canvas.heatmap-cells').getAttribute('data-rows'),
    '64',
  );
  assert.deepEqual(log.errors, []);
  await context.close();
});
