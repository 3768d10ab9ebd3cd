// Offline, as docs/workers-and-offline.md sets it up: its precache lists are the files each
// browser entry of the packed package reaches (read from the built files, support/precache.js),
// and its static app (index.html, main.js, sw.js; the default entry's files, and only those, in
// posenc/) is served by scripts/serve.js under its strict CSP and opened in headless Chromium.
// The service worker precaches the list; then the server is stopped, the context goes offline
// and the page reloads: it must still print the reference table, from the cache. The same app
// with the SIMD .wasm left out of its list must fail offline, so the list is what keeps it up.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startServer } from '../../scripts/serve.js';
import { pageFile } from '../readme/blocks.js';
import { launchBrowser, openPage } from '../web/support/browser.js';
import { unpackPosenc, WORK } from './support/apps.js';
import { referenceTable } from './support/check.js';
import { browserEntries, precacheList } from './support/precache.js';

const DOC = 'docs/workers-and-offline.md';
const APP = ['index.html', 'main.js', 'sw.js'];
const SIMD_WASM = "'./posenc/posenc-simd.wasm', ";
const TOLERANCE = 3e-7; // 7 printed decimals of float32 results

let packageDir;
let browser;

before(async () => {
  packageDir = unpackPosenc('.tarball-offline');
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

/** The PRECACHE list of the document's sw.js. */
function swPrecache(code) {
  const list = /^const PRECACHE = (\[.*\]);$/m.exec(code)?.[1];
  assert.ok(list, 'sw.js declares const PRECACHE = [...] on one line');
  return JSON.parse(list.replaceAll("'", '"'));
}

test('the document lists, for each entry, the files its built files reach', () => {
  const entries = browserEntries(packageDir);
  const computed = Object.fromEntries(
    Object.entries(entries).map(([name, file]) => [name, precacheList(packageDir, file)]),
  );
  assert.deepEqual(JSON.parse(pageFile(DOC, 'precache.json')), computed);
  // The service worker's list is the default entry's, copied into posenc/.
  const posencFiles = swPrecache(pageFile(DOC, 'offline/sw.js')).filter((url) => url.startsWith('./posenc/'));
  assert.deepEqual(posencFiles.sort(), computed.posenc.map((file) => `./posenc/${path.basename(file)}`).sort());
});

/** The document's app in WORK/<name>, its sw.js edited by `edit`; returns its folder. */
function writeApp(name, edit = (code) => code) {
  const site = path.join(WORK, name);
  rmSync(site, { recursive: true, force: true });
  mkdirSync(path.join(site, 'posenc'), { recursive: true });
  for (const file of precacheList(packageDir, browserEntries(packageDir).posenc)) {
    cpSync(path.join(packageDir, file), path.join(site, 'posenc', path.basename(file)));
  }
  for (const file of APP) {
    const code = pageFile(DOC, `offline/${file}`);
    writeFileSync(path.join(site, file), file === 'sw.js' ? edit(code) : code);
  }
  return site;
}

/** What the page printed (the table's values), or the uncaught error that stopped it. */
async function printed(page) {
  const uncaught = new Promise((resolve) => page.once('pageerror', (error) => resolve({ error: error.message })));
  const shown = page
    .waitForFunction(() => document.querySelector('#out').textContent !== 'loading…', null, { timeout: 30_000 })
    .then(async () => ({ values: (await page.textContent('#out')).split(' ').map(Number) }));
  return Promise.race([shown, uncaught]);
}

function assertReference({ values, error }) {
  assert.equal(error, undefined, `the page failed: ${error}`);
  const expected = referenceTable();
  assert.equal(values.length, expected.length, 'values printed');
  values.forEach((value, i) => {
    assert.ok(Math.abs(value - expected[i]) <= TOLERANCE, `value ${i}: ${value}, expected ${expected[i]}`);
  });
}

/**
 * Opens the app at `site` online, waits for its service worker to control the page and lists what
 * it cached; then stops the server, goes offline and reloads. Returns both loads' results.
 */
async function onlineThenOffline(site) {
  const server = await startServer({ root: site, port: 0 });
  const { page, context, log } = await openPage(browser);
  try {
    await page.goto(server.url);
    const online = await printed(page);
    const cached = await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) {
        await new Promise((resolve) =>
          navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
        );
      }
      const cache = await caches.open('app-v1');
      return (await cache.keys()).map((request) => new URL(request.url).pathname).sort();
    });
    const onlineErrors = [...log.errors];
    await server.close();
    await context.setOffline(true);
    const requestsBefore = log.requests.length;
    await page.reload();
    const offline = await printed(page);
    const controlled = await page.evaluate(() => navigator.serviceWorker.controller !== null);
    return {
      online,
      onlineErrors,
      cached,
      offline,
      controlled,
      offlineLog: log.errors,
      offlineRequests: log.requests.slice(requestsBefore),
    };
  } finally {
    await context.close();
    await server.close();
  }
}

test('the app precaches its list, then reloads offline and computes the table from the cache', async () => {
  const run = await onlineThenOffline(writeApp('offline'));
  assertReference(run.online);
  assert.deepEqual(run.onlineErrors, []);
  const precache = swPrecache(pageFile(DOC, 'offline/sw.js'));
  assert.deepEqual(
    run.cached,
    precache.map((url) => new URL(url, 'http://x/').pathname).sort(),
    'what the worker cached',
  );
  assert.equal(run.controlled, true, 'the reloaded page is controlled by the service worker');
  assertReference(run.offline);
  assert.deepEqual(run.offlineLog, [], 'no console error offline');
  assert.ok(
    run.offlineRequests.some((url) => url.endsWith('/posenc/posenc-simd.wasm')),
    'the .wasm was asked for, offline',
  );
});

test('with the SIMD .wasm left out of the list, the offline reload fails', async () => {
  const site = writeApp('offline-incomplete', (code) => {
    assert.ok(code.includes(SIMD_WASM), `sw.js lists ${SIMD_WASM}`);
    return code.replace(SIMD_WASM, '');
  });
  const run = await onlineThenOffline(site);
  assertReference(run.online);
  assert.match(run.offline.error ?? '', /could not load posenc-simd\.wasm .*the request failed/);
});
