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
import { APPS, prepareApp, unpackPosenc, WORK } from './support/apps.js';
import { assertTable, checkApp } from './support/check.js';
import { bundleCost } from './support/cost.js';
import { freePort, runToEnd, start, waitForHttp } from './support/processes.js';
import { formatTable } from './support/summary.js';

const modules = (...parts) => path.join(ROOT, 'node_modules', ...parts);
const node = (script, ...args) => [process.execPath, script, ...args];

const vite = (name, pkg) => ({
  name,
  template: 'vite',
  build: { command: node(modules(pkg, 'bin', 'vite.js'), 'build'), out: 'dist', serve: 'dist' },
  dev: (port) => node(modules(pkg, 'bin', 'vite.js'), '--host', '127.0.0.1', '--port', port, '--strictPort'),
});
const webpackCli = modules('webpack-cli', 'bin', 'cli.js');
const esbuild = modules('esbuild', 'bin', 'esbuild');
const esbuildArgs = ['main.js', '--bundle', '--format=esm', '--outdir=www/js'];
const parcel = modules('parcel', 'lib', 'bin.js');
// Parcel would install missing packages from the network; its cache stays in the app's folder
// (it would otherwise go to the repository's root, the first folder up with a lockfile).
const parcelArgs = ['--no-autoinstall', '--cache-dir', '.parcel-cache'];

// Each setup: the app template, its production build (command, output folder to measure, folder
// to serve) and its dev server (a command given a port), or a folder served as it is.
const SETUPS = [
  vite('vite5', 'vite5'),
  vite('vite6', 'vite6'),
  vite('vite7', 'vite7'),
  vite('vite8', 'vite'),
  {
    name: 'webpack',
    template: 'webpack',
    build: { command: node(webpackCli, '--mode', 'production'), out: 'dist', serve: 'dist' },
    dev: (port) => node(webpackCli, 'serve', '--mode', 'development', '--host', '127.0.0.1', '--port', port),
  },
  {
    name: 'esbuild',
    template: 'esbuild',
    build: { command: [esbuild, ...esbuildArgs], out: 'www/js', serve: 'www' },
    dev: (port) => [esbuild, ...esbuildArgs, '--servedir=www', `--serve=127.0.0.1:${port}`],
  },
  {
    name: 'rollup',
    template: 'rollup',
    build: { command: node(modules('rollup', 'dist', 'bin', 'rollup'), '-c'), out: 'dist', serve: '.' },
  },
  {
    name: 'parcel',
    template: 'parcel',
    build: { command: node(parcel, 'build', 'index.html', ...parcelArgs), out: 'dist', serve: 'dist' },
    dev: (port) => node(parcel, 'serve', 'index.html', ...parcelArgs, '--host', '127.0.0.1', '--port', port),
  },
  { name: 'static', template: 'static', static: '.' },
  { name: 'inline', template: 'inline', static: '.' },
];

const results = [];
let browser;
let packageDir;

before(async () => {
  packageDir = unpackPosenc();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

/** Runs `check` and records its outcome (and `extra`) for the summary; rethrows a failure. */
async function record(setup, mode, check) {
  const started = performance.now();
  const entry = { setup, mode, ok: false };
  results.push(entry);
  try {
    Object.assign(entry, await check(entry));
    entry.ok = true;
  } catch (error) {
    entry.error = error.message;
    throw error;
  } finally {
    entry.seconds = Number(((performance.now() - started) / 1000).toFixed(1));
  }
}

const published = ({ variant, wasmSource }) => ({ variant, wasmSource });

async function serveAndCheck(folder) {
  const server = await startServer({ root: folder, port: 0 });
  try {
    return published(await checkApp(browser, server.url));
  } finally {
    await server.close();
  }
}

for (const setup of SETUPS) {
  test(setup.name, { timeout: 240_000 }, async (t) => {
    const app = prepareApp(setup.name, setup.template, packageDir, setup.static ? [] : ['main.js']);
    if (setup.static) {
      await t.test('served as files', () => record(setup.name, 'static', () => serveAndCheck(app)));
    }
    if (setup.build) {
      await t.test('production build', () =>
        record(setup.name, 'build', async (entry) => {
          const [command, ...args] = setup.build.command;
          await runToEnd(command, args, app);
          entry.cost = bundleCost(path.join(app, setup.build.out));
          return serveAndCheck(path.join(app, setup.build.serve));
        }),
      );
    }
    if (setup.dev) {
      await t.test('dev server', () =>
        record(setup.name, 'dev', async () => {
          const port = await freePort();
          const [command, ...args] = setup.dev(port);
          const server = start(command, args, app);
          try {
            const url = `http://127.0.0.1:${port}/`;
            await waitForHttp(url, server);
            return published(await checkApp(browser, url));
          } catch (error) {
            error.message += `\n-- server output --\n${server.output()}`;
            throw error;
          } finally {
            await server.stop();
          }
        }),
      );
    }
  });
}

/** Runs a Node consumer and checks the table it printed. */
function runConsumer(app, args) {
  const printed = JSON.parse(run(process.execPath, args, app).trim().split('\n').at(-1));
  assertTable(printed);
  return published(printed);
}

test('Node', async (t) => {
  const app = prepareApp('node', 'node', packageDir);
  await t.test('ESM import', () => record('node', 'esm', () => runConsumer(app, ['consumer.mjs'])));
  await t.test('CommonJS require', () => record('node', 'cjs', () => runConsumer(app, ['consumer.cjs'])));
  await t.test('CommonJS require, without require(esm) as before Node 20.19', () =>
    record('node', 'cjs-no-require-esm', () => runConsumer(app, ['--no-experimental-require-module', 'consumer.cjs'])),
  );
});

for (const module of ['node16', 'nodenext']) {
  test(`TypeScript, module ${module}, CommonJS project`, async (t) => {
    const app = prepareApp(`ts-${module}`, 'typescript', packageDir);
    const source = readFileSync(path.join(APPS, 'typescript', 'consumer.ts'), 'utf8');
    // Emits consumer.js beside consumer.ts; `types: []` keeps the repository's @types out.
    await t.test('type-checks and compiles', () =>
      record(`ts-${module}`, 'tsc', () => {
        typecheck(app, source, { module, moduleResolution: module, noEmit: false, types: [] });
        return {};
      }),
    );
    await t.test('the compiled output runs', () =>
      record(`ts-${module}`, 'run', () => runConsumer(app, ['consumer.js'])),
    );
    await t.test('the compiled output runs without require(esm)', () =>
      record(`ts-${module}`, 'run-no-require-esm', () =>
        runConsumer(app, ['--no-experimental-require-module', 'consumer.js']),
      ),
    );
  });
}

test('summary: test-artifacts/ecosystem/summary.json', (t) => {
  const summary = { node: process.version, results };
  writeFileSync(path.join(WORK, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  for (const line of formatTable(results)) t.diagnostic(line);
  assert.ok(results.length > 0);
});
