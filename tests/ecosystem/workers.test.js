// The worker pool of docs/workers-and-offline.md (its posenc-worker.js, posenc-pool.js and
// rope-jobs.js, as written there) as an app of each bundler with its default configuration,
// posenc installed from the packed tarball. The apps are built side by side, each served by
// scripts/serve.js and run in headless Chromium: the workers' results must be the bits Node's
// posenc computes, with no console error and no request beyond 127.0.0.1. Each worker's chunk
// (the script the page started as a worker) is measured, and must hold no base64 wasm: a worker
// takes its module from the page and never loads a .wasm of its own.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startServer } from '../../scripts/serve.js';
import { loadPosenc } from '../../bindings/js/node.js';
import { pageFile } from '../readme/blocks.js';
import { ROOT } from '../pack.js';
import { launchBrowser } from '../web/support/browser.js';
import { modules, prepareApp, unpackPosenc, WORK } from './support/apps.js';
import { openApp } from './support/check.js';
import { bundleCost, INLINE_WASM, total } from './support/cost.js';
import { runToEnd } from './support/processes.js';

const DOC = 'docs/workers-and-offline.md';
const FILES = ['posenc-worker.js', 'posenc-pool.js', 'rope-jobs.js'];
// esbuild is the one bundler of the root install (it builds posenc's own bundles).
const toolFolder = (tool) => (tool === 'esbuild' ? path.join(ROOT, 'node_modules', 'esbuild') : modules(tool));
const node = (script, ...args) => [process.execPath, script, ...args];
const vite = (name, pkg) => ({
  name,
  tool: pkg,
  template: 'vite',
  page: { at: 'index.html', script: '/main.js' },
  build: node(modules(pkg, 'bin', 'vite.js'), 'build'),
  out: 'dist',
});

// Each app: the tool's package (for its version), the template of tests/ecosystem/apps/, the
// build command and the folder it writes. esbuild does not follow `new Worker(new URL(…))`, so
// the worker is a second entry point; its default format (an IIFE) has no import.meta.url to
// resolve the worker's URL against, hence --format=esm; and since it copies no assets, the page
// imports posenc/inline (the worker keeps the default entry: it never needs the .wasm).
const APPS = [
  vite('vite5', 'vite5'),
  vite('vite6', 'vite6'),
  vite('vite7', 'vite7'),
  vite('vite8', 'vite'),
  {
    name: 'webpack',
    tool: 'webpack',
    template: 'webpack',
    page: { at: 'index.html' },
    build: node(modules('webpack-cli', 'bin', 'cli.js'), '--mode', 'production'),
    out: 'dist',
  },
  {
    name: 'esbuild',
    tool: 'esbuild',
    template: 'esbuild',
    page: { at: 'www/index.html', script: 'js/main.js' },
    pageEntry: 'posenc/inline',
    build: [
      path.join(toolFolder('esbuild'), 'bin', 'esbuild'),
      'main.js',
      'posenc-worker.js',
      '--bundle',
      '--format=esm',
      '--outdir=www/js',
    ],
    out: 'www',
  },
];

const SHAPE = { seqLen: 64, numHeads: 4, headDim: 32 };
const results = [];
let browser;
let built;
let expected;

before(async () => {
  const packageDir = unpackPosenc('.tarball-workers');
  const prepared = APPS.map((app) => {
    const folder = prepareApp(`workers-${app.name}`, app.template, packageDir, {
      consumer: 'posenc',
      page: app.page,
      source: 'workers.js',
    });
    for (const file of FILES) {
      let code = pageFile(DOC, file);
      if (file === 'rope-jobs.js' && app.pageEntry) code = code.replace("from 'posenc';", `from '${app.pageEntry}';`);
      writeFileSync(path.join(folder, file), code);
    }
    return folder;
  });
  // The builds run side by side; each outcome is kept for its own test.
  built = await Promise.allSettled(
    APPS.map(({ build: [command, ...args] }, i) => runToEnd(command, args, prepared[i], { timeout: 180_000 })),
  );
  built = built.map((outcome, i) => ({ ...outcome, folder: path.join(prepared[i], APPS[i].out) }));
  browser = await launchBrowser();
  // The bits the workers must send back: the same jobs in Node, on the same SIMD build.
  const posenc = await loadPosenc({ simd: true });
  expected = [0, 1, 2, 3].map((i) =>
    Array.from(posenc.rope(new Float32Array(64 * 4 * 32).fill(1), { ...SHAPE, offset: 1000 * i })),
  );
});

after(async () => {
  await browser?.close();
});

/**
 * The JS a worker runs: its script and what that script loaded (webpack's worker chunk
 * importScripts() the modules it shares with the page), followed by the Referer of each request.
 */
function workerScripts(workers, requests) {
  const scripts = new Set(workers);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [request, referer] of requests) {
      const { pathname } = new URL(request.url());
      if (!referer || scripts.has(pathname) || !/\.m?js$/.test(pathname)) continue;
      if (scripts.has(new URL(referer).pathname)) {
        scripts.add(pathname);
        grew = true;
      }
    }
  }
  return [...scripts];
}

/** Size of the files at these URL paths under `folder`, and whether any holds base64 wasm. */
function measure(folder, paths) {
  const files = paths.map((name) => ({ name, bytes: readFileSync(path.join(folder, decodeURIComponent(name))) }));
  return { ...total(files), base64Wasm: files.some(({ bytes }) => INLINE_WASM.test(bytes.toString('latin1'))) };
}

APPS.forEach((app, i) => {
  test(`${app.name}: the worker pool, built with the defaults`, { timeout: 240_000 }, async () => {
    const entry = { setup: app.name, ok: false };
    results.push(entry);
    const { status, reason, folder } = built[i];
    if (status === 'rejected') throw reason;
    entry.cost = bundleCost(folder);
    const server = await startServer({ root: folder, port: 0 });
    const workers = [];
    const requests = [];
    try {
      await openApp(browser, server.url, entry, {
        watch(page) {
          page.on('worker', (worker) => workers.push(new URL(worker.url()).pathname));
          page.on('request', (request) =>
            requests.push(request.allHeaders().then(({ referer }) => [request, referer])),
          );
        },
        check(published) {
          assert.equal(published.error, undefined, `the app reported an error: ${published.error}`);
          assert.equal(published.values.length, expected.length, 'jobs');
          published.values.forEach((values, job) => {
            assert.deepEqual(values, expected[job], `job ${job}: the bits of Node's posenc`);
          });
        },
      });
    } finally {
      await server.close();
    }
    assert.equal(workers.length, 2, `two workers started (${workers.join(', ')})`);
    const scripts = workerScripts(workers, await Promise.all(requests));
    entry.worker = measure(folder, scripts);
    assert.equal(entry.worker.base64Wasm, false, `base64 wasm in the worker's chunk ${scripts.join(', ')}`);
    entry.ok = true;
  });
});

const kB = (bytes) => (bytes / 1000).toFixed(1);

test('summary: each app’s worker JS and what the build emitted (test-artifacts/ecosystem/workers.json)', () => {
  writeFileSync(path.join(WORK, 'workers.json'), `${JSON.stringify(results, null, 2)}\n`);
  for (const { setup, ok, worker, cost } of results) {
    const chunk = worker
      ? `worker JS ${kB(worker.raw)} / ${kB(worker.gzip)} kB (${worker.files.join(', ')})`
      : 'no worker chunk measured';
    const emitted = cost
      ? `; JS emitted ${kB(cost.js.raw)} / ${kB(cost.js.gzip)} kB, of which base64 wasm ${kB(cost.inlineBase64.raw)} / ${kB(cost.inlineBase64.gzip)} kB; .wasm ${kB(cost.wasm.raw)} / ${kB(cost.wasm.gzip)} kB`
      : '';
    console.log(`${setup}: ${ok ? 'pass' : 'FAIL'}, ${chunk}${emitted}`);
  }
  assert.equal(results.length, APPS.length);
});
