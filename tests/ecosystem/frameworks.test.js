// The framework apps: posenc, as packed by npm, in apps of the frameworks most demos are written
// in, each built with the framework's defaults (templates in tests/ecosystem/apps/<name>/): Vite +
// React 19 (attributes in JSX, a property set through a ref, the widgets' JSX types under strict
// tsc), Vite + Vue 3, Vite + Svelte 5, and Next.js 16's app router (a client component with the
// widgets; a server component that computes a table at build time with posenc's Node entry),
// built by Turbopack and by webpack and served by `next start`. Each is opened in headless
// Chromium, whose elements must draw the tables of the settings they were given, without a
// console error or a request beyond 127.0.0.1. Then every entry of posenc is imported by Node,
// Deno and Bun (the runtimes tests/package.json installs from npm), and docs/frameworks.md's code
// is checked to be these apps' code. The builds run side by side from one packed tarball; each
// result and build size goes to test-artifacts/ecosystem/frameworks.json, and a table closes the
// output.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startServer } from '../../scripts/serve.js';
import { pageBlocks } from '../readme/blocks.js';
import { typecheck } from '../typecheck.js';
import { launchBrowser } from '../web/support/browser.js';
import { APPS, filesUnder, modules, prepareApp, unpackPosenc, versionOf, WORK } from './support/apps.js';
import { assertTable, checkApp, D_MODEL, referenceTable, SEQ_LEN } from './support/check.js';
import { bundleCost } from './support/cost.js';
import { freePort, runToEnd, start, waitForHttp } from './support/processes.js';
import { formatTable, recorder } from './support/summary.js';

const node = (script, ...args) => [process.execPath, script, ...args];
const vite = modules('vite', 'bin', 'vite.js');
const next = modules('next', 'dist', 'bin', 'next');
// Next.js would otherwise report usage to its servers.
const NEXT_ENV = { NEXT_TELEMETRY_DISABLED: '1' };
// Builds share two cores with the rest of the suite: Next's may take a while.
const BUILD_TIMEOUT = 240_000;

/** The tables the page's elements must draw, in page order: one per element's base. */
const tablesOf = (...bases) => bases.flatMap((base) => referenceTable(SEQ_LEN, D_MODEL, base));

// Each app: its template, the packages that make it (for their versions), for a Vite app its page
// (apps/frameworks/index.html, loading the app's main module), its build (command, output folder
// to measure and serve), the page's publishing scripts (apps/frameworks/) and the app's folder
// they go into, and the tables its elements draw (the first element is given base="100" as
// markup text, the second 500 as a number through the framework's own binding).
const viteApp = (name, packages, main = 'main.js') => ({
  name,
  template: name,
  page: { at: 'index.html', script: `/src/${main}`, from: 'frameworks/index.html' },
  packages: ['vite', ...packages],
  build: { command: node(vite, 'build'), out: 'dist' },
  harness: { folder: 'src', files: ['drawn.js', 'publish.js'] },
  expected: tablesOf(100, 500),
});
const nextApp = (name, ...flags) => ({
  name,
  template: 'next',
  packages: ['next', 'react', 'react-dom'],
  build: { command: node(next, 'build', ...flags), out: path.join('.next', 'static') },
  harness: { folder: 'app', files: ['drawn.js'] },
  expected: tablesOf(100),
});
const FRAMEWORKS = [
  viteApp('react', ['react', 'react-dom', '@vitejs/plugin-react'], 'main.jsx'),
  viteApp('vue', ['vue', '@vitejs/plugin-vue']),
  viteApp('svelte', ['svelte', '@sveltejs/vite-plugin-svelte']),
  nextApp('next-turbopack'),
  nextApp('next-webpack', '--webpack'),
];

const results = [];
const record = recorder(results);
let browser;
let packageDir;
let builds;

/**
 * Copies an app's template with posenc installed and the publishing scripts beside its code, and
 * builds it; returns the app's folder and the build's time in seconds.
 */
async function buildApp(app, packageDir) {
  const folder = prepareApp(app.name, app.template, packageDir, { page: app.page });
  for (const file of app.harness.files) {
    cpSync(path.join(APPS, 'frameworks', file), path.join(folder, app.harness.folder, file));
  }
  const [command, ...args] = app.build.command;
  const { seconds } = await runToEnd(command, args, folder, { timeout: BUILD_TIMEOUT, env: NEXT_ENV });
  return { folder, seconds: Number(seconds.toFixed(1)) };
}

/**
 * The build of `app`. The first call starts every app's build, side by side (they are
 * independent); each test awaits its own, so a failure stays with its app, and a run of the
 * tests that need no build (the runtimes, the docs) builds nothing.
 */
function buildOf(app) {
  builds ??= new Map(
    FRAMEWORKS.map((each) => {
      const build = buildApp(each, packageDir);
      build.catch(() => {});
      return [each.name, build];
    }),
  );
  return builds.get(app.name);
}

before(async () => {
  packageDir = unpackPosenc('.tarball-frameworks');
  browser = await launchBrowser();
});

after(async () => {
  await Promise.allSettled(builds?.values() ?? []);
  await browser?.close();
});

/** The numbers of the server component's table in a page's HTML. */
function serverTable(html) {
  const table = html.match(/<table id="server-table">([\s\S]*?)<\/table>/);
  assert.ok(table, 'the page has the server-rendered table');
  return { values: [...table[1].matchAll(/<td>([^<]*)<\/td>/g)].map((match) => Number(match[1])) };
}

/** The production build of a Vite app, served as files. */
async function checkViteBuild(app, entry) {
  const { folder, seconds } = await buildOf(app);
  Object.assign(entry, { buildSeconds: seconds, cost: bundleCost(path.join(folder, app.build.out)) });
  const server = await startServer({ root: path.join(folder, app.build.out), port: 0 });
  try {
    await checkApp(browser, server.url, entry, 'url', app.expected);
  } finally {
    await server.close();
  }
}

for (const app of FRAMEWORKS.filter(({ template }) => template !== 'next')) {
  test(`Vite + ${app.name}`, { timeout: BUILD_TIMEOUT + 60_000 }, async (t) => {
    if (app.name === 'react') {
      // The component as a strict TypeScript project checks it: the elements' JSX types and the
      // ref's element type come from posenc/widgets' declarations.
      await t.test('strict tsc --noEmit of the .tsx component', () =>
        record(app.name, 'tsc', () => {
          // A folder of its own in the app (posenc and React resolve as from its src/), away from
          // the tsconfig.json the build reads; buildOf lays the app out before its first await.
          buildOf(app);
          const folder = path.join(WORK, app.name, 'typecheck');
          mkdirSync(folder, { recursive: true });
          const source = readFileSync(path.join(APPS, 'react', 'src', 'Heatmaps.tsx'), 'utf8');
          const options = { jsx: 'react-jsx', module: 'esnext', moduleResolution: 'bundler', types: [] };
          typecheck(folder, source, options, 'consumer.tsx');
        }),
      );
    }
    await t.test('production build, served', () => record(app.name, 'build', (entry) => checkViteBuild(app, entry)));
  });
}

for (const app of FRAMEWORKS.filter(({ template }) => template === 'next')) {
  test(`Next.js app router, ${app.name.replace('next-', '')}`, { timeout: BUILD_TIMEOUT + 60_000 }, async (t) => {
    let folder;
    await t.test('next build: the server component prerendered with the table', () =>
      record(app.name, 'build', async (entry) => {
        const build = await buildOf(app);
        folder = build.folder;
        Object.assign(entry, { buildSeconds: build.seconds, cost: bundleCost(path.join(folder, app.build.out)) });
        const prerendered = path.join(folder, '.next', 'server', 'app', 'index.html');
        assert.ok(existsSync(prerendered), 'the page was prerendered at build time');
        assertTable(serverTable(readFileSync(prerendered, 'utf8')));
      }),
    );
    await t.test('next start: the client component draws, the server table is served', () =>
      record(app.name, 'start', async (entry) => {
        assert.ok(folder, 'the build failed');
        const port = await freePort();
        const [command, ...args] = node(next, 'start', '--hostname', '127.0.0.1', '--port', port);
        const server = start(command, args, folder, NEXT_ENV);
        try {
          const url = `http://127.0.0.1:${port}/`;
          await waitForHttp(url, server);
          assertTable(serverTable(await (await fetch(url)).text()));
          await checkApp(browser, url, entry, 'url', app.expected);
        } catch (error) {
          error.message += `\n-- server output --\n${server.output()}`;
          throw error;
        } finally {
          await server.stop();
        }
      }),
    );
  });
}

// The runtimes: Node itself, and Deno and Bun from their npm packages (each a binary in an
// optional platform package), left out with a note where npm installed none for this platform.
const RUNTIMES = [
  { name: 'node', command: [process.execPath, 'entries.mjs'] },
  {
    name: 'deno',
    bin: modules('.bin', 'deno'),
    // Reading the package's .wasm file needs --allow-read (without it the default entry quietly
    // uses its inline copy); its own cache in the app; no update check.
    command: [modules('.bin', 'deno'), 'run', '--allow-read', 'entries.mjs'],
    env: (app) => ({ DENO_DIR: path.join(app, '.deno'), DENO_NO_UPDATE_CHECK: '1' }),
  },
  { name: 'bun', bin: modules('.bin', 'bun'), command: [modules('.bin', 'bun'), 'entries.mjs'] },
];
// What each computing entry says of its wasm: read from the package's file, or embedded.
const COMPUTING = { posenc: 'url', 'posenc/inline': 'inline', 'posenc/standalone': 'inline' };
const IMPORTED = { 'posenc/webgpu': 'createGpuEncoder', 'posenc/widgets': 'PeHeatmap' };

/** Runs entries.mjs in `runtime` and checks what each entry printed (every entry recorded, then any failure thrown). */
async function checkRuntime(runtime, packageDir) {
  const app = prepareApp(`runtime-${runtime.name}`, 'runtimes', packageDir);
  let printed;
  await record(runtime.name, 'run', async () => {
    const [command, ...args] = runtime.command;
    const { output } = await runToEnd(command, args, app, { env: runtime.env?.(app) });
    printed = JSON.parse(output.trim().split('\n').at(-1));
  });
  const failures = [];
  const check = (name, assertions) =>
    record(`${runtime.name} ${name}`, 'import', assertions).catch((error) => failures.push(error.message));
  for (const [name, wasmSource] of Object.entries(COMPUTING)) {
    await check(name, (entry) => {
      Object.assign(entry, { variant: printed[name].variant, wasmSource: printed[name].wasmSource });
      assertTable(printed[name]);
      assert.equal(printed[name].wasmSource, wasmSource, `${name}: where the wasm came from`);
    });
  }
  for (const [name, exported] of Object.entries(IMPORTED)) {
    await check(name, () => {
      assert.equal(printed[name].error, undefined, `${name} failed to import: ${printed[name].error}`);
      assert.ok(printed[name].exports.includes(exported), `${name} exports ${exported}`);
    });
  }
  assert.equal(failures.length, 0, failures.join('\n'));
}

test('every entry imported by Node, Deno and Bun', { concurrency: true }, async (t) => {
  await Promise.all(
    RUNTIMES.map((runtime) =>
      t.test(runtime.name, (t) => {
        if (runtime.bin && !existsSync(runtime.bin)) {
          t.skip(`${runtime.name} is not installed: npm put no binary of it for this platform`);
          return;
        }
        return checkRuntime(runtime, packageDir);
      }),
    ),
  );
});

test('docs/frameworks.md: every code block is the code of an app', () => {
  const blocks = pageBlocks('docs/frameworks.md').map(({ code }) => code);
  assert.ok(blocks.length >= 4, 'the doc has a recipe per framework');
  const templates = ['react', 'vue', 'svelte', 'next'].flatMap((name) =>
    filesUnder(path.join(APPS, name)).map((file) => readFileSync(path.join(APPS, name, file), 'utf8')),
  );
  for (const block of blocks) {
    assert.ok(
      templates.some((text) => text.includes(block)),
      `this block of docs/frameworks.md is in no app's files:\n${block}`,
    );
  }
});

test('summary: test-artifacts/ecosystem/frameworks.json', (t) => {
  const versions = { node: process.version };
  for (const name of new Set(FRAMEWORKS.flatMap(({ packages }) => packages))) versions[name] = versionOf(modules(name));
  for (const name of ['deno', 'bun'].filter((name) => existsSync(modules(name))))
    versions[name] = versionOf(modules(name));
  writeFileSync(path.join(WORK, 'frameworks.json'), `${JSON.stringify({ versions, results }, null, 2)}\n`);
  for (const line of formatTable(results)) t.diagnostic(line);
  assert.ok(results.length > 0);
});
