// posenc/standalone (dist/standalone.js from the packed tarball) as docs/workers-and-offline.md
// uses it: its index.html beside the file, copied as posenc.js, opened in headless Chromium from
// file:// and from a page of one origin importing the file from another (a CDN). The page
// prints the sinusoidal table, which must be the float64 reference. From file:// Chromium
// refuses every module fetch (the page's origin is "null"); the test holds that, with the
// message, so the document's account of it cannot go stale.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { launchChromium } from '../../scripts/chromium.js';
import { startServer } from '../../scripts/serve.js';
import { pageFile } from '../readme/blocks.js';
import { openPage } from '../web/support/browser.js';
import { unpackPosenc, WORK } from './support/apps.js';
import { referenceTable } from './support/check.js';

const DOC = 'docs/workers-and-offline.md';
const PAGE = pageFile(DOC, 'index.html');
const site = path.join(WORK, 'standalone');
const cdn = path.join(WORK, 'standalone-cdn');
// The printed values have 7 decimals, of float32 results.
const TOLERANCE = 3e-7;

before(() => {
  const packageDir = unpackPosenc('.tarball-standalone');
  for (const folder of [site, cdn]) {
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    cpSync(path.join(packageDir, 'dist', 'standalone.js'), path.join(folder, 'posenc.js'));
  }
  writeFileSync(path.join(site, 'index.html'), PAGE);
});

/**
 * Opens `url` in `browser` and returns what the page printed (the table's values, or null when a
 * console error came first) and what the console and the network said.
 */
async function printed(browser, url) {
  const { page, context, log } = await openPage(browser, { bypassCSP: true });
  const failed = [];
  page.on('requestfailed', (request) => failed.push(`${request.url()} ${request.failure()?.errorText}`));
  try {
    const refused = page.waitForEvent('console', { predicate: (message) => message.type() === 'error' });
    await page.goto(url);
    const done = await Promise.race([
      page.waitForFunction(() => document.querySelector('#out').textContent !== 'loading…', null, { timeout: 15_000 }),
      refused.then(() => false),
    ]);
    const text = done ? await page.textContent('#out') : null;
    return { values: text?.split(' ').map(Number) ?? null, errors: log.errors, failed, requests: log.requests };
  } finally {
    await context.close();
  }
}

function assertReference(values) {
  const expected = referenceTable();
  assert.equal(values?.length, expected.length, 'values printed');
  values.forEach((value, i) => {
    assert.ok(Math.abs(value - expected[i]) <= TOLERANCE, `value ${i}: ${value}, expected ${expected[i]}`);
  });
}

const browsers = [];
const launch = async (flags) => {
  const browser = await launchChromium(flags);
  browsers.push(browser);
  return browser;
};

after(async () => {
  for (const browser of browsers) await browser.close();
});

test('from file://, Chromium blocks the module import by default (origin "null", CORS)', async () => {
  const url = pathToFileURL(path.join(site, 'index.html')).href;
  const result = await printed(await launch([]), url);
  assert.equal(result.values, null, 'the page printed nothing');
  // The message as the document quotes it, the page's folder written as …
  const blocked = result.errors.find((text) => text.includes('posenc.js')) ?? result.errors.join(' | ');
  assert.equal(blocked.replace(pathToFileURL(site).href, 'file:///…'), pageFile(DOC, 'file-url-console.txt').trim());
  assert.ok(
    result.failed.some((line) => line.endsWith('/posenc.js net::ERR_FAILED')),
    result.failed.join(' | '),
  );
});

test('from file://, with --allow-file-access-from-files, the page computes the table', async () => {
  const url = pathToFileURL(path.join(site, 'index.html')).href;
  const result = await printed(await launch(['--allow-file-access-from-files']), url);
  assert.deepEqual(result.errors, []);
  assertReference(result.values);
  const fetched = result.requests.filter((request) => !request.endsWith('/index.html'));
  assert.deepEqual(
    fetched.map((request) => path.basename(new URL(request).pathname)),
    ['posenc.js'],
    'one file, nothing else',
  );
});

test('from another origin (a CDN sending Access-Control-Allow-Origin), the page computes the table', async () => {
  const browser = await launch([]);
  const withCors = await startServer({ root: cdn, port: 0, headers: { 'Access-Control-Allow-Origin': '*' } });
  const withoutCors = await startServer({ root: cdn, port: 0 });
  const pages = await startServer({ root: site, port: 0 });
  try {
    for (const [server, allowed] of [
      [withCors, true],
      [withoutCors, false],
    ]) {
      const html = PAGE.replace("from './posenc.js'", `from '${server.url}posenc.js'`);
      assert.notEqual(html, PAGE, 'the page imports ./posenc.js');
      const name = allowed ? 'cdn.html' : 'cdn-without-cors.html';
      writeFileSync(path.join(site, name), html);
      const result = await printed(browser, `${pages.url}${name}`);
      if (allowed) {
        assert.deepEqual(result.errors, []);
        assertReference(result.values);
        assert.ok(result.requests.includes(`${server.url}posenc.js`));
        assert.deepEqual(
          result.requests.filter((request) => request.startsWith(server.url)),
          [`${server.url}posenc.js`],
          'one request to the CDN',
        );
      } else {
        // Module scripts are fetched in CORS mode: without the header the import is refused.
        assert.equal(result.values, null, 'nothing printed without the CORS header');
        assert.match(
          result.errors.join(' | '),
          /has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header/,
        );
      }
    }
  } finally {
    await Promise.all([withCors.close(), withoutCors.close(), pages.close()]);
  }
});
