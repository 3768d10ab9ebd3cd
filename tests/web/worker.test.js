// The worker pattern of docs/api.md (Workers), run as written in headless Chromium: 8 module workers get the
// main thread's compiled module, jobs are posted before they have loaded posenc, and every
// result is bit-identical to the main thread's. Only `from 'posenc'` is pointed at this checkout
// (the page is served under a strict CSP, which rules out an inline import map).
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startServer } from '../../scripts/serve.js';
import { labelledFile } from '../readme/blocks.js';
import { ARTIFACTS, launchBrowser, openPage } from './support/browser.js';
import { ROOT } from './support/build.js';

const folder = path.join(ARTIFACTS, 'worker-pattern');
const fromCheckout = (code) => code.replaceAll("from 'posenc'", "from '../../bindings/js/index.js'");

let browser;
let server;

before(async () => {
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'posenc-worker.js'), fromCheckout(labelledFile('posenc-worker.js')));
  // The documented main.js, plus what the test reads from it.
  writeFileSync(
    path.join(folder, 'main.js'),
    `${fromCheckout(labelledFile('main.js'))}\nexport { posenc, rotated, workers };\n`,
  );
  writeFileSync(
    path.join(folder, 'check.js'),
    `import { posenc, rotated, workers } from './main.js';
const bits = (array) => Array.from(new Uint32Array(array.buffer, array.byteOffset, array.length));
const results = rotated.map((x, i) => {
  const here = posenc.rope(new Float32Array(64 * 4 * 32).fill(1), { seqLen: 64, numHeads: 4, headDim: 32, offset: 1000 * i });
  return { length: x.length, same: JSON.stringify(bits(x)) === JSON.stringify(bits(here)), changed: x.some((v) => v !== 1) };
});
for (const worker of workers) worker.terminate();
window.__result = { workers: workers.length, results, source: posenc.wasmSource };
`,
  );
  writeFileSync(
    path.join(folder, 'index.html'),
    '<!doctype html><meta charset="utf-8"><title>workers</title><link rel="icon" href="data:,"><script type="module" src="./check.js"></script>\n',
  );
  server = await startServer({ root: ROOT, port: 0 });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test('the documented worker pattern: 8 module workers share one compiled module, bit-identical to the main thread', async () => {
  const { page, log, context } = await openPage(browser);
  try {
    await page.goto(`${server.url}test-artifacts/worker-pattern/index.html`);
    const result = await (await page.waitForFunction(() => window.__result, null, { timeout: 30_000 })).jsonValue();
    assert.deepEqual(log.errors, []);
    assert.equal(result.workers, 8);
    assert.equal(result.source, 'url');
    for (const [i, r] of result.results.entries()) {
      assert.deepEqual(r, { length: 64 * 4 * 32, same: true, changed: true }, `worker ${i}`);
    }
    const wasmRequests = log.requests.filter((url) => url.endsWith('.wasm'));
    assert.deepEqual(
      wasmRequests.map((url) => path.basename(url)),
      ['posenc-simd.wasm'],
      'one download, by the main thread',
    );
  } finally {
    await context.close();
  }
});
