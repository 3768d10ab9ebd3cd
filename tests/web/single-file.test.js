// End-to-end: the single-file builds, posenc-tutorial.html (the lesson) and posenc-companion.html
// (the companion), work opened straight from disk (file://), WASM included, and link to each other.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { artifactPath, gotoAndSettle, openPage } from './support/browser.js';
import { SINGLE_COMPANION, SINGLE_FILE } from './support/build.js';
import { useServedSite } from './support/session.js';
import { declaredPolicy } from '../../web/single-file-csp.js';
import { checkHeatmapPixels, extentOf } from './support/colors.js';
import { ropeScores, sinusoidalTable } from './support/reference.js';

const site = useServedSite();
let browser;
let server;
before(async () => ({ browser, server } = await site));

/** The sinusoidal table's rows once drawn (a page that hangs, as under a blocking CSP, times out). */
async function sinusoidalRows(page) {
  const cells = page.locator('figure[data-plot="sinusoidal-table"] canvas.heatmap-cells');
  await cells.waitFor({ state: 'attached', timeout: 20_000 });
  return cells.getAttribute('data-rows');
}

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
  // The site's other pages (the widgets gallery) are not in the file: no link leads to them.
  const hrefs = [...html.matchAll(/<a[^>]+href="([^"]*)"/g)].map((match) => match[1]);
  assert.ok(hrefs.length > 10, `${hrefs.length} links`);
  assert.deepEqual(
    hrefs.filter((href) => href.includes('widgets.html')),
    [],
  );
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
    'Ignored 2 unknown settings: "__proto__", "constructor".',
  ]);
  assert.equal(
    await page.locator('figure[data-plot="sinusoidal-table"] canvas.heatmap-cells').getAttribute('data-rows'),
    '64',
  );
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('the single file carries its own CSP: its script and style by hash, WASM, nothing else', () => {
  const policy = declaredPolicy(readFileSync(SINGLE_FILE, 'utf8'));
  assert.ok(policy, 'a <meta http-equiv="Content-Security-Policy">');
  const directives = Object.fromEntries(policy.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
  assert.deepEqual(directives['default-src'], ["'none'"]);
  assert.match(directives['script-src'].join(' '), /^'sha256-[A-Za-z0-9+/]{43}=' 'wasm-unsafe-eval'$/);
  assert.match(directives['style-src'].join(' '), /^'sha256-[A-Za-z0-9+/]{43}='$/);
  assert.doesNotMatch(policy, /unsafe-inline|'unsafe-eval'|\*/);
});

test('its CSP holds from disk: the page runs, an injected inline script does not', async () => {
  const { page, log, context } = await openPage(browser);
  await gotoAndSettle(page, pathToFileURL(SINGLE_FILE).href);
  assert.equal(await sinusoidalRows(page), '128');
  const blocked = await page.evaluate(
    () =>
      new Promise((resolve) => {
        document.addEventListener('securitypolicyviolation', (event) => resolve(event.effectiveDirective), {
          once: true,
        });
        const script = document.createElement('script');
        script.textContent = 'window.__ran = true';
        document.body.append(script);
        setTimeout(() => resolve(window.__ran ? 'ran' : 'no event'), 2000);
      }),
  );
  assert.equal(blocked, 'script-src-elem');
  assert.deepEqual(
    log.errors.filter((e) => !e.includes('script-src')),
    [],
  );
  await context.close();
});

test('served by the project server at /site/single/, it runs under the same policy', async () => {
  const { page, log, context } = await openPage(browser);
  const url = new URL('single/posenc-tutorial.html', server.pageUrl).href;
  const response = await page.goto(url);
  const policy = declaredPolicy(readFileSync(SINGLE_FILE, 'utf8'));
  assert.equal(response.headers()['content-security-policy'], `${policy}; frame-ancestors 'none'`);
  await gotoAndSettle(page, url);
  assert.equal(await sinusoidalRows(page), '128');
  assert.match(await page.locator('#engine-status').textContent(), /WebAssembly build/);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('the offline copy downloaded from the served page opens with the settings it was downloaded with', async () => {
  const { page, log, context } = await openPage(browser, { acceptDownloads: true });
  await gotoAndSettle(page, `${server.pageUrl}?pe.seq=64&order.a=A%20%22quoted%22%20%26%20odd%20sentence`);
  const [file] = await Promise.all([page.waitForEvent('download'), page.locator('#offline-copy a').click()]);
  assert.equal(file.suggestedFilename(), 'posenc-tutorial.html');
  const saved = artifactPath('offline-copy-with-settings.html');
  await file.saveAs(saved);
  assert.deepEqual(log.errors, []);
  const copy = await openPage(browser);
  await gotoAndSettle(copy.page, pathToFileURL(saved).href);
  assert.equal(await sinusoidalRows(copy.page), '64');
  assert.equal(await copy.page.locator('#ctl-order-a').inputValue(), 'A "quoted" & odd sentence');
  assert.equal(await copy.page.locator('#url-problems').isHidden(), true);
  assert.deepEqual(copy.log.errors, [], 'the copy still runs under its own CSP');
  await copy.context.close();
  await context.close();
});

test('the two single files each hold everything and link to each other by file name', () => {
  for (const [file, other] of [
    [SINGLE_FILE, 'posenc-companion.html'],
    [SINGLE_COMPANION, 'posenc-tutorial.html'],
  ]) {
    const html = readFileSync(file, 'utf8');
    assert.doesNotMatch(html, /<script[^>]+src=|<link[^>]+rel="stylesheet"/, `${file}: external files`);
    assert.ok(declaredPolicy(html), `${file}: its own CSP`);
    const hrefs = [...html.matchAll(/<a[^>]+href="([^"]*)"/g)].map((match) => match[1]);
    assert.ok(hrefs.includes(`./${other}`), `${file} links to ${other}`);
    assert.deepEqual(
      hrefs.filter((href) => /(^|\/)(index|companion)\.html/.test(href)),
      [],
      `${file}: no link to the folder build's pages`,
    );
  }
});

test('from file://, the lesson links to the companion and back, and an old hash link lands on the companion', async () => {
  const { page, log, context } = await openPage(browser);
  const lesson = pathToFileURL(SINGLE_FILE).href;
  const companion = pathToFileURL(SINGLE_COMPANION).href;
  await gotoAndSettle(page, lesson);
  await page.locator('nav a.other-page').click();
  await page.waitForURL(companion);
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 30_000 });
  assert.deepEqual(
    await page.evaluate(() => [...document.querySelectorAll('main > section')].map((s) => s.dataset.mounted)),
    Array(9).fill('true'),
  );
  assert.equal(await page.locator('#offline-copy').isHidden(), true);
  await page.locator('.page-header a.other-page').first().click();
  await page.waitForURL(lesson);
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 30_000 });
  // A hash link of the one long page, opened from disk: the lesson sends it to the companion.
  await page.goto(`${lesson}#family`);
  await page.waitForURL(`${companion}#family`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 30_000 });
  assert.equal(await page.locator('#family').getAttribute('data-mounted'), 'true');
  const elsewhere = log.requests.filter(
    (request) => !request.startsWith(lesson) && !request.startsWith(companion) && !/^(data|blob):/.test(request),
  );
  assert.deepEqual(elsewhere, []);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('the companion downloads its own single file as its offline copy', async () => {
  const { page, log, context } = await openPage(browser, { acceptDownloads: true });
  await gotoAndSettle(page, `${server.companionUrl}?fx.seq=32`);
  const [file] = await Promise.all([page.waitForEvent('download'), page.locator('#offline-copy a').click()]);
  assert.equal(file.suggestedFilename(), 'posenc-companion.html');
  const saved = artifactPath('offline-companion-with-settings.html');
  await file.saveAs(saved);
  const copy = await openPage(browser);
  await gotoAndSettle(copy.page, pathToFileURL(saved).href);
  assert.equal(await copy.page.locator('#ctl-fx-seq').inputValue(), '32');
  assert.equal(await copy.page.locator('#url-problems').isHidden(), true);
  assert.deepEqual([...log.errors, ...copy.log.errors], []);
  await copy.context.close();
  await context.close();
});
