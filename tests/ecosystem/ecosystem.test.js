// The ecosystem suite: posenc, as packed by npm, in the setups where JS demos are built, each with
// the tool's default configuration (templates in tests/ecosystem/apps/). For each bundler, its
// production build (served by scripts/serve.js, strict CSP included) and its dev server are
// opened in headless Chromium, which must compute the reference table without a console error or
// a request beyond 127.0.0.1; Node consumers (ESM, CommonJS with and without require(esm),
// TypeScript node16/nodenext in CJS mode) run the same computation. Every result and each build's
// size goes to test-artifacts/ecosystem/summary.json, and a table closes the output.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startServer } from '../../scripts/serve.js';
import { ROOT, run } from '../pack.js';
import { typecheck } from '../typecheck.js';
import { launchBrowser } from '../web/support/browser.js';
import { APPS, modules, prepareApp, unpackPosenc, versionOf, WORK } from './support/apps.js';
import { assertTable, checkApp } from './support/check.js';
import { bundleCost } from './support/cost.js';
import { freePort, runToEnd, start, waitForHttp } from './support/processes.js';
import { formatTable, recorder } from './support/summary.js';

const node = (script, ...args) => [process.execPath, script, ...args];

const vite = (name, pkg, devSource) => ({
  name,
  tool: pkg,
  template: 'vite',
  page: { at: 'index.html', script: '/main.js' },
  wasmSource: { build: 'url', dev: devSource },
  build: { command: node(modules(pkg, 'bin', 'vite.js'), 'build'), out: 'dist', serve: 'dist' },
  dev: (port) => node(modules(pkg, 'bin', 'vite.js'), '--host', '127.0.0.1', '--port', port, '--strictPort'),
});
const webpackCli = modules('webpack-cli', 'bin', 'cli.js');
// esbuild is the one bundler of the root install (it builds posenc's own bundles).
const toolFolder = (tool) => (tool === 'esbuild' ? path.join(ROOT, 'node_modules', 'esbuild') : modules(tool));
const esbuild = path.join(toolFolder('esbuild'), 'bin', 'esbuild');
// The command the issue names: esbuild's defaults for the browser (an iife, where import.meta is empty).
const esbuildArgs = ['main.js', '--bundle', '--platform=browser', '--outdir=www/js'];
const parcel = modules('parcel', 'lib', 'bin.js');
// Parcel would install missing packages from the network: none may be missing here.
const parcelArgs = ['--no-autoinstall'];

// Each setup: the package that is the tool (for its version), the app template, its production
// build (command, output folder to measure, folder to serve) and its dev server (a command given a
// port), or a folder served as it is; the entry the app imports where it is not 'posenc'; and
// where posenc must find its wasm in each mode: 'url' where the tool serves the .wasm file
// posenc's default entry points at (Vite 5-7's dev server pre-bundles posenc into
// node_modules/.vite/deps/, and the entry finds the package's file beside that folder), 'inline'
// (the embedded bytes of posenc/inline) where no URL can give it: esbuild and Rollup copy no
// assets, and the default entry carries no inline copy.
const SETUPS = [
  vite('vite5', 'vite5', 'url'),
  vite('vite6', 'vite6', 'url'),
  vite('vite7', 'vite7', 'url'),
  vite('vite8', 'vite', 'url'),
  {
    name: 'webpack',
    tool: 'webpack',
    template: 'webpack',
    page: { at: 'index.html' }, // html-webpack-plugin adds the script
    wasmSource: { build: 'url', dev: 'url' },
    build: { command: node(webpackCli, '--mode', 'production'), out: 'dist', serve: 'dist' },
    dev: (port) => node(webpackCli, 'serve', '--mode', 'development', '--host', '127.0.0.1', '--port', port),
  },
  {
    name: 'esbuild',
    tool: 'esbuild',
    template: 'esbuild',
    page: { at: 'www/index.html', script: 'js/main.js' },
    consumer: 'posenc/inline',
    wasmSource: { build: 'inline', dev: 'inline' },
    build: { command: [esbuild, ...esbuildArgs], out: 'www/js', serve: 'www' },
    dev: (port) => [esbuild, ...esbuildArgs, '--servedir=www', `--serve=127.0.0.1:${port}`],
  },
  {
    name: 'rollup',
    tool: 'rollup',
    template: 'rollup',
    page: { at: 'index.html', script: 'dist/main.js' },
    consumer: 'posenc/inline',
    wasmSource: { build: 'inline' },
    build: { command: node(modules('rollup', 'dist', 'bin', 'rollup'), '-c'), out: 'dist', serve: '.' },
  },
  {
    name: 'parcel',
    tool: 'parcel',
    template: 'parcel',
    page: { at: 'index.html', script: 'main.js' },
    wasmSource: { build: 'url', dev: 'url' },
    build: { command: node(parcel, 'build', 'index.html', ...parcelArgs), out: 'dist', serve: 'dist' },
    dev: (port) => node(parcel, 'serve', 'index.html', ...parcelArgs, '--host', '127.0.0.1', '--port', port),
  },
  // No build step: the consumer imports posenc's browser entry (one module) by its path in node_modules.
  {
    name: 'static',
    template: 'static',
    page: { at: 'index.html', script: 'main.js' },
    static: './node_modules/posenc/dist/posenc.browser.js',
    wasmSource: { static: 'url' },
  },
  // posenc/inline, the entry with its wasm embedded, as from a CDN: no .wasm file is fetched.
  {
    name: 'inline',
    template: 'inline',
    page: { at: 'index.html', script: 'main.js' },
    static: './node_modules/posenc/dist/inline.js',
    wasmSource: { static: 'inline' },
  },
];

const results = [];
const record = recorder(results);
let browser;
let packageDir;

before(async () => {
  packageDir = unpackPosenc();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

async function serveAndCheck(folder, entry, wasmSource) {
  const server = await startServer({ root: folder, port: 0 });
  try {
    await checkApp(browser, server.url, entry, wasmSource);
  } finally {
    await server.close();
  }
}

/** The checks of one app of a setup: served as files, its production build, its dev server. */
async function checkSetup(t, setup, app, name, wasmSource) {
  if (setup.static) {
    await t.test('served as files', () =>
      record(name, 'static', (entry) => serveAndCheck(app, entry, wasmSource.static)),
    );
  }
  if (setup.build) {
    await t.test('production build', () =>
      record(name, 'build', async (entry) => {
        const [command, ...args] = setup.build.command;
        await runToEnd(command, args, app);
        entry.cost = bundleCost(path.join(app, setup.build.out));
        await serveAndCheck(path.join(app, setup.build.serve), entry, wasmSource.build);
      }),
    );
  }
  if (setup.dev) {
    await t.test('dev server', () =>
      record(name, 'dev', async (entry) => {
        const port = await freePort();
        const [command, ...args] = setup.dev(port);
        const server = start(command, args, app);
        try {
          const url = `http://127.0.0.1:${port}/`;
          await waitForHttp(url, server);
          await checkApp(browser, url, entry, wasmSource.dev);
        } catch (error) {
          error.message += `\n-- server output --\n${server.output()}`;
          throw error;
        } finally {
          await server.stop();
        }
      }),
    );
  }
}

for (const setup of SETUPS) {
  test(setup.name, { timeout: 240_000 }, async (t) => {
    const app = prepareApp(setup.name, setup.template, packageDir, {
      consumer: setup.static ?? setup.consumer ?? 'posenc',
      page: setup.page,
    });
    await checkSetup(t, setup, app, setup.name, setup.wasmSource);
  });
}

// posenc/widgets alone (apps/widgets.js: an element on the page, the shared instance), in the
// setups most demos use and as a static folder: where the elements' posenc finds its wasm is
// the default entry's answer in each (dist/widgets.js loads it as index.js does), except where no
// URL gives the .wasm (esbuild copies no assets): there the elements hand the inline chunk's bytes
// to the default entry (wasmBinary).
const WIDGETS = [
  { setup: 'vite8', consumer: 'posenc/widgets' },
  { setup: 'webpack', consumer: 'posenc/widgets' },
  { setup: 'esbuild', consumer: 'posenc/widgets', wasmSource: { build: 'wasmBinary', dev: 'wasmBinary' } },
  { setup: 'static', consumer: './node_modules/posenc/dist/widgets.js' },
];

for (const { setup: setupName, consumer, wasmSource } of WIDGETS) {
  const setup = SETUPS.find(({ name }) => name === setupName);
  const name = `${setupName}-widgets`;
  test(`${setupName}, posenc/widgets`, { timeout: 240_000 }, async (t) => {
    const app = prepareApp(name, setup.template, packageDir, { consumer, page: setup.page, source: 'widgets.js' });
    await checkSetup(t, setup, app, name, wasmSource ?? setup.wasmSource);
  });
}

/** Runs a Node consumer and checks the table it printed (the wasm read from its file). */
function runConsumer(app, args, entry) {
  const printed = JSON.parse(run(process.execPath, args, app).trim().split('\n').at(-1));
  Object.assign(entry, { variant: printed.variant, wasmSource: printed.wasmSource });
  assertTable(printed);
  assert.equal(printed.wasmSource, 'url', 'where the wasm came from');
}

test('Node', async (t) => {
  const app = prepareApp('node', 'node', packageDir);
  await t.test('ESM import', () => record('node', 'esm', (entry) => runConsumer(app, ['consumer.mjs'], entry)));
  await t.test('CommonJS require', () => record('node', 'cjs', (entry) => runConsumer(app, ['consumer.cjs'], entry)));
  await t.test('CommonJS require, without require(esm) as before Node 20.19', () =>
    record('node', 'cjs-no-require-esm', (entry) =>
      runConsumer(app, ['--no-experimental-require-module', 'consumer.cjs'], entry),
    ),
  );
});

for (const module of ['node16', 'nodenext']) {
  test(`TypeScript, module ${module}, CommonJS project`, async (t) => {
    const app = prepareApp(`ts-${module}`, 'typescript', packageDir);
    const source = readFileSync(path.join(APPS, 'typescript', 'consumer.ts'), 'utf8');
    // Emits consumer.js beside consumer.ts; `types: []` keeps the repository's @types out.
    await t.test('type-checks and compiles', () =>
      record(`ts-${module}`, 'tsc', () =>
        typecheck(app, source, { module, moduleResolution: module, noEmit: false, types: [] }),
      ),
    );
    await t.test('the compiled output runs', () =>
      record(`ts-${module}`, 'run', (entry) => runConsumer(app, ['consumer.js'], entry)),
    );
    await t.test('the compiled output runs without require(esm)', () =>
      record(`ts-${module}`, 'run-no-require-esm', (entry) =>
        runConsumer(app, ['--no-experimental-require-module', 'consumer.js'], entry),
      ),
    );
  });
}

test('summary: test-artifacts/ecosystem/summary.json', (t) => {
  const versions = { node: process.version };
  for (const { tool } of SETUPS.filter((setup) => setup.tool)) {
    versions[tool] = versionOf(toolFolder(tool));
  }
  const summary = { versions, results };
  writeFileSync(path.join(WORK, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  for (const line of formatTable(results)) t.diagnostic(line);
  assert.ok(results.length > 0);
});
