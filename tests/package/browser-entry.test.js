// The packed package's browser entries in Chromium, from a static server: each is one ES module
// (the JS layer and the glue bundled), which finds its .wasm next to itself and imports an inline
// chunk only when it needs one (the default entry's fallback, posenc/inline's embedded build).
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { build } from 'esbuild';
import { startServer } from '../../scripts/serve.js';
import { packTarball, run } from '../pack.js';
import { launchBrowser, openPage } from '../web/support/browser.js';

let work;
let server;
let browser;
let exportsMap;
let packageDir;

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'posenc-browser-entry-'));
  run('tar', ['-xzf', packTarball(work), '-C', work]);
  packageDir = join(work, 'package');
  exportsMap = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).exports;
  // The package as a static folder, twice: as packed, and without its .wasm files (a page that
  // copied only the JS), where the default entry must fall back to its inline chunk.
  const site = join(work, 'site');
  cpSync(packageDir, join(site, 'posenc'), { recursive: true });
  cpSync(packageDir, join(site, 'posenc-without-wasm'), {
    recursive: true,
    filter: (source) => !source.endsWith('.wasm'),
  });
  // The bundles as a bundler that copies no assets leaves them: renamed, away from the .wasm,
  // with the modules they import beside them.
  const dist = join(packageDir, 'dist');
  for (const [from, to] of [
    ['posenc.browser.js', 'app.js'],
    ['posenc.mjs', 'posenc.mjs'],
    ['posenc-simd.inline.js', 'posenc-simd.inline.js'],
  ]) {
    cpSync(join(dist, from), join(site, 'moved', to));
  }
  // posenc/widgets imports the JS layer from the package's browser entry beside it: a bundler
  // pulls both into its one output file.
  await build({
    entryPoints: [join(dist, 'widgets.js')],
    outfile: join(site, 'moved', 'app-widgets.js'),
    bundle: true,
    format: 'esm',
    logLevel: 'warning',
  });
  // posenc/standalone alone in a folder, as a page saved for offline use keeps it.
  cpSync(join(dist, 'standalone.js'), join(site, 'alone', 'posenc.js'));
  server = await startServer({ root: site, port: 0 });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/**
 * Loads the module at `modulePath` (under the site's root) in a fresh page, gets an instance
 * from its export `loader`, computes with it, and returns what it computed with the JS and .wasm
 * requests the page made besides its own script.
 */
async function loadModule(modulePath, loader = 'loadPosenc') {
  const name = modulePath.replace(/\W/g, '-');
  writeFileSync(
    join(work, 'site', `${name}.js`),
    `import { ${loader} } from './${modulePath}';
const posenc = await ${loader}();
window.__result = { variant: posenc.variant, source: posenc.wasmSource, file: posenc.wasmFile, value: posenc.sinusoidal({ seqLen: 2, dModel: 2 })[2] };
`,
  );
  writeFileSync(
    join(work, 'site', `${name}.html`),
    `<!doctype html><meta charset="utf-8"><title>${name}</title><link rel="icon" href="data:,"><script type="module" src="./${name}.js"></script>\n`,
  );
  const { page, context, log } = await openPage(browser);
  try {
    await page.goto(`${server.url}${name}.html`);
    const result = await (await page.waitForFunction(() => window.__result, null, { timeout: 30_000 })).jsonValue();
    const requested = (pattern) =>
      log.requests
        .filter((url) => pattern.test(url) && !url.endsWith(`/${name}.js`))
        .map((url) => new URL(url).pathname);
    return { result, js: requested(/\.m?js$/), wasm: requested(/\.wasm$/), errors: log.errors };
  } finally {
    await context.close();
  }
}

/** `entry` (a path in the package, as its exports map says) from the package copy `folder`. */
const loadEntry = (folder, entry) => loadModule(`${folder}/${entry.replace(/^\.\//, '')}`);

/** The path the page requests for `entry` of the package copy `folder`, and for `file` beside it. */
const entryPath = (folder, entry) => new URL(entry, `http://x/${folder}/`).pathname;
const beside = (folder, entry, file) => new URL(file, new URL(entry, `http://x/${folder}/`)).pathname;

test('the browser entry is one module that fetches the .wasm beside it and none of the inline chunks', async () => {
  const entry = exportsMap['.'].browser;
  assert.equal(exportsMap['.'].default, entry, 'bundlers without the browser condition get the same file');
  const { result, js, wasm, errors } = await loadEntry('posenc', entry);
  assert.deepEqual(errors, []);
  assert.equal(result.source, 'url');
  assert.equal(result.variant, 'simd');
  assert.ok(Math.abs(result.value - Math.sin(1)) < 1e-7, String(result.value));
  assert.deepEqual(js, [entryPath('posenc', entry)], 'JS requests');
  assert.deepEqual(wasm, [beside('posenc', entry, 'posenc-simd.wasm')], '.wasm requests');
  const location = new URL(beside('posenc', entry, 'posenc-simd.wasm'), server.url).href;
  assert.deepEqual(result.file, { from: 'package', location }, "the package's own file");
});

test('without the .wasm beside it, the browser entry imports one more module: the inline chunk of its build', async () => {
  const entry = exportsMap['.'].browser;
  const { result, js } = await loadEntry('posenc-without-wasm', entry);
  assert.equal(result.source, 'inline');
  assert.equal(result.file, undefined);
  assert.ok(Math.abs(result.value - Math.sin(1)) < 1e-7, String(result.value));
  assert.deepEqual(
    js,
    [entryPath('posenc-without-wasm', entry), beside('posenc-without-wasm', entry, 'posenc-simd.inline.js')],
    'JS requests',
  );
});

test('posenc/inline is one module plus the inline chunk of the build it loads, and fetches no .wasm', async () => {
  const entry = exportsMap['./inline'].default;
  const { result, js, wasm, errors } = await loadEntry('posenc', entry);
  assert.deepEqual(errors, []);
  assert.equal(result.source, 'inline');
  assert.ok(Math.abs(result.value - Math.sin(1)) < 1e-7, String(result.value));
  assert.deepEqual(js, [entryPath('posenc', entry), beside('posenc', entry, 'posenc-simd.inline.js')], 'JS requests');
  assert.deepEqual(wasm, []);
});

test('moved away from its .wasm under another name, a bundle imports its inline chunk without requesting the .wasm URL', async () => {
  for (const [file, loader] of [
    ['app.js', 'loadPosenc'],
    ['app-widgets.js', 'sharedPosenc'],
  ]) {
    const { result, wasm, errors } = await loadModule(`moved/${file}`, loader);
    assert.equal(result.source, 'inline', file);
    assert.ok(Math.abs(result.value - Math.sin(1)) < 1e-7, String(result.value));
    assert.deepEqual(wasm, [], `${file}: no request for a .wasm that cannot be there`);
    assert.deepEqual(errors, [], file);
  }
});

test('posenc/widgets in a browser registers every tag its declarations name, each as the class it exports', async () => {
  // The tags and classes of HTMLElementTagNameMap in the shipped declarations.
  const types = readFileSync(join(packageDir, exportsMap['./widgets'].types), 'utf8');
  const map = types.slice(types.indexOf('interface HTMLElementTagNameMap'));
  const declared = Object.fromEntries(
    [...map.slice(0, map.indexOf('}')).matchAll(/'(posenc-[a-z0-9-]+)': (\w+);/g)].map(([, tag, name]) => [tag, name]),
  );
  assert.equal(Object.keys(declared).length, 8, JSON.stringify(declared));
  const entry = exportsMap['./widgets'].default;
  writeFileSync(
    join(work, 'site', 'registered.js'),
    `import * as widgets from './posenc/${entry.replace(/^\.\//, '')}';
const declared = ${JSON.stringify(declared)};
window.__result = Object.fromEntries(Object.entries(declared).map(([tag, name]) => [tag, customElements.get(tag) === widgets[name] && document.createElement(tag) instanceof widgets[name]]));
`,
  );
  writeFileSync(
    join(work, 'site', 'registered.html'),
    `<!doctype html><meta charset="utf-8"><title>registered</title><link rel="icon" href="data:,"><script type="module" src="./registered.js"></script>\n`,
  );
  const { page, context, log } = await openPage(browser);
  try {
    await page.goto(`${server.url}registered.html`);
    const registered = await (await page.waitForFunction(() => window.__result)).jsonValue();
    assert.deepEqual(registered, Object.fromEntries(Object.keys(declared).map((tag) => [tag, true])));
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('posenc/standalone is one file: alone in a folder it loads with one request and no .wasm', async () => {
  assert.equal(exportsMap['./standalone'].default, './dist/standalone.js');
  const { result, js, wasm, errors } = await loadModule('alone/posenc.js');
  assert.deepEqual(errors, []);
  assert.equal(result.source, 'inline');
  assert.equal(result.variant, 'simd');
  assert.ok(Math.abs(result.value - Math.sin(1)) < 1e-7, String(result.value));
  assert.deepEqual(js, ['/alone/posenc.js'], 'JS requests');
  assert.deepEqual(wasm, []);
});

test('posenc/standalone from file:// (Node imports it by path; both builds are inside)', async () => {
  const file = join(work, 'site', 'alone', 'posenc.js');
  const { loadPosenc } = await import(pathToFileURL(file).href);
  for (const simd of [true, false]) {
    const posenc = await loadPosenc({ simd });
    assert.equal(posenc.wasmSource, 'inline');
    assert.equal(posenc.variant, simd ? 'simd' : 'scalar');
    assert.ok(Math.abs(posenc.sinusoidal({ seqLen: 2, dModel: 2 })[2] - Math.sin(1)) < 1e-7);
  }
});

test('an app that imports posenc and posenc/widgets bundles the JS layer once', async () => {
  const app = join(work, 'both-entries');
  mkdirSync(join(app, 'node_modules'), { recursive: true });
  symlinkSync(join(work, 'package'), join(app, 'node_modules', 'posenc'), 'dir');
  writeFileSync(
    join(app, 'main.js'),
    "import { loadPosenc } from 'posenc';\nimport { sharedPosenc } from 'posenc/widgets';\nexport { loadPosenc, sharedPosenc };\n",
  );
  const result = await build({
    entryPoints: [join(app, 'main.js')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'warning',
    loader: { '.wasm': 'file' },
    outdir: join(app, 'out'),
  });
  const code = result.outputFiles.find((file) => file.path.endsWith('main.js')).text;
  // A sentence of the JS layer's loader, written once in its source.
  assert.equal(code.split('is not a posenc build').length - 1, 1, 'copies of the JS layer in the bundle');
});
