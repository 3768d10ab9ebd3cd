// posenc where server code runs. Every entry imported by Node (ESM; require() for the entry that
// exports it), then bundled for Node by webpack 5 (target node, and a Next.js-shaped build whose
// asset URLs are site paths) and esbuild (platform node, with and without a plugin for
// `new URL` assets). The bundles run in the app, then, with the package moved away, from a copy
// of their output in another folder, so only the file the bundler emitted or the inline chunk
// can serve. Each run computes the reference table and says which .wasm served (wasmSource,
// wasmFile, checked to the path). The server code and the bundler configurations are
// docs/server.md's code blocks, written into the app as they stand there.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { before, test } from 'node:test';
import { ROOT, run } from '../pack.js';
import { labelledFile } from '../readme/blocks.js';
import { APPS, prepareApp, unpackPosenc, WORK } from './support/apps.js';
import { assertTable } from './support/check.js';
import { runToEnd } from './support/processes.js';

const ESBUILD = path.join(ROOT, 'node_modules', 'esbuild', 'bin', 'esbuild');
const webpack = createRequire(import.meta.url)('webpack');
const SIMD = readFileSync(path.join(ROOT, 'dist', 'posenc-simd.wasm'));

let packageDir;
let app;
const elsewhere = path.join(WORK, 'server-elsewhere'); // a working directory with nothing in it

before(async () => {
  packageDir = unpackPosenc('.tarball-server');
  app = prepareApp('server', 'server', packageDir);
  for (const file of ['server.mjs', 'webpack.config.cjs', 'esbuild.mjs']) {
    writeFileSync(path.join(app, file), labelledFile(file));
  }
  // require('posenc') in server code webpack bundles: the `require` condition, dist/posenc.cjs.
  cpSync(path.join(APPS, 'node', 'consumer.cjs'), path.join(app, 'consumer.cjs'));
  rmSync(elsewhere, { recursive: true, force: true });
  mkdirSync(elsewhere, { recursive: true });
  const config = createRequire(path.join(app, 'webpack.config.cjs'))('./webpack.config.cjs');
  const entry = { server: './server.mjs', entries: './entries.mjs', consumer: './consumer.cjs' };
  // Unminified: terser's seconds are not what these checks are about.
  const optimization = { minimize: false };
  await Promise.all([
    webpackBuild([
      { ...config, context: app, entry, optimization },
      // Next.js's server build, in shape: URLs under the site path /_next/, assets in .next/server/.
      {
        ...config,
        context: app,
        entry,
        optimization,
        output: {
          ...config.output,
          path: path.join(app, '.next', 'server'),
          publicPath: '/_next/',
          assetModuleFilename: 'static/media/[name].[hash][ext]',
        },
      },
    ]),
    runToEnd(process.execPath, ['esbuild.mjs', 'server.mjs', 'entries.mjs'], app),
    runToEnd(
      ESBUILD,
      [
        'server.mjs',
        'entries.mjs',
        '--bundle',
        '--platform=node',
        '--format=esm',
        '--outdir=build-plain',
        '--out-extension:.js=.mjs',
      ],
      app,
    ),
  ]);
});

function webpackBuild(configs) {
  return new Promise((resolve, reject) => {
    webpack(configs, (error, stats) => {
      if (error) reject(error);
      else if (stats.hasErrors()) reject(new Error(stats.toString('errors-only')));
      else resolve(stats);
    });
  });
}

/** Runs a script with Node in `cwd` and returns its last line of output, as JSON. */
const runScript = (script, cwd, flags = []) =>
  JSON.parse(
    run(process.execPath, [...flags, script], cwd)
      .trim()
      .split('\n')
      .at(-1),
  );

/** The file in `folder` (the bundler's output) whose bytes are posenc-simd.wasm's. */
function emittedSimd(folder) {
  const names = readdirSync(folder).filter((name) => name.endsWith('.wasm'));
  const found = names.filter((name) => readFileSync(path.join(folder, name)).equals(SIMD));
  assert.equal(found.length, 1, `one copy of posenc-simd.wasm in ${folder} (has ${names.join(', ')})`);
  return path.join(folder, found[0]);
}

/** The reference table, from the file `from` read at `location`, or from the inline chunk (`from` undefined). */
function assertServed(result, from, location) {
  assertTable(result);
  assert.equal(result.variant, 'simd');
  if (from === undefined) {
    assert.equal(result.wasmSource, 'inline', 'the inline chunk served');
    assert.equal(result.wasmFile, undefined);
  } else {
    assert.equal(result.wasmSource, 'url', `a file served (${from})`);
    assert.deepEqual(result.wasmFile, { from, location });
  }
}

/** What entries.mjs printed: `posenc` served as given, the inline entries by their chunk, webgpu refusing on use. */
function assertEntries(results, from, location) {
  assertServed(results.posenc, from, location);
  assertServed(results['posenc/inline']);
  assertServed(results['posenc/standalone']);
  assert.equal(results['posenc/webgpu'].wgsl, true);
  assert.match(
    results['posenc/webgpu'].onUse,
    /^TypeError: posenc\.webgpu\.createGpuEncoder: device must be a GPUDevice.*this runtime has no WebGPU/,
  );
}

/** Takes node_modules/posenc out of the app (once): the bundles' own copies must serve. */
function movePackageAway() {
  const installed = path.join(app, 'node_modules', 'posenc');
  rmSync(`${installed}-moved`, { recursive: true, force: true });
  try {
    renameSync(installed, `${installed}-moved`);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
}

/** A copy of the app's output folder `name` in a folder of its own, without `.wasm` files if told. */
function outputCopy(name, { withoutWasm = false } = {}) {
  const copy = path.join(WORK, 'server-copies', `${name}${withoutWasm ? '-no-wasm' : ''}`);
  rmSync(copy, { recursive: true, force: true });
  cpSync(path.join(app, name), copy, { recursive: true, filter: (file) => !(withoutWasm && file.endsWith('.wasm')) });
  return copy;
}

const packageFile = () => path.join(app, 'node_modules', 'posenc', 'dist', 'posenc-simd.wasm');

test('Node imports every entry (ESM) and the Node entry reads the package file', () => {
  assertServed(runScript('server.mjs', app), 'package', packageFile());
  assertEntries(runScript('entries.mjs', app), 'package', packageFile());
});

test("require('posenc') (dist/posenc.cjs) reads the package file, with and without require(esm)", () => {
  const cjsApp = prepareApp('server-cjs', 'node', packageDir);
  const file = path.join(cjsApp, 'node_modules', 'posenc', 'dist', 'posenc-simd.wasm');
  assertServed(runScript('consumer.cjs', cjsApp), 'package', file);
  assertServed(runScript('consumer.cjs', cjsApp, ['--no-experimental-require-module']), 'package', file);
});

test('webpack, target node, the package installed: the package file, where webpack found it', () => {
  assertServed(runScript('build/server.cjs', app), 'package', packageFile());
  assertEntries(runScript(path.join(app, 'build', 'entries.cjs'), elsewhere), 'package', packageFile());
});

test('webpack, target node, a copy of the output without the package: the emitted file, else the inline chunk', () => {
  movePackageAway();
  const copy = outputCopy('build');
  assertServed(runScript(path.join(copy, 'server.cjs'), elsewhere), 'bundler', emittedSimd(copy));
  assertEntries(runScript(path.join(copy, 'entries.cjs'), elsewhere), 'bundler', emittedSimd(copy));
  const bare = outputCopy('build', { withoutWasm: true });
  assertServed(runScript(path.join(bare, 'server.cjs'), elsewhere));
  // dist/posenc.cjs names its files from its own place, which is now the bundle's: its inline chunk serves.
  assertServed(runScript(path.join(copy, 'consumer.cjs'), elsewhere));
});

test('webpack, Next.js-shaped site paths (/_next/static/media/…), without the package: read under .next/ from the project folder, else inline', () => {
  movePackageAway();
  const media = path.join(app, '.next', 'server', 'static', 'media');
  assertServed(runScript('.next/server/server.cjs', app), 'bundler', emittedSimd(media));
  assertEntries(runScript('.next/server/entries.cjs', app), 'bundler', emittedSimd(media));
  assertServed(runScript(path.join(app, '.next', 'server', 'server.cjs'), elsewhere));
});

test("esbuild, platform node, with docs/server.md's plugin: a copy of the output reads the file esbuild wrote", () => {
  movePackageAway();
  const copy = outputCopy('build-esbuild');
  assertServed(runScript(path.join(copy, 'server.mjs'), elsewhere), 'bundler', emittedSimd(copy));
  assertEntries(runScript(path.join(copy, 'entries.mjs'), elsewhere), 'bundler', emittedSimd(copy));
});

test('esbuild, platform node, no plugin (the URL left as the package wrote it): the inline chunk it bundled', () => {
  movePackageAway();
  const copy = outputCopy('build-plain');
  assertServed(runScript(path.join(copy, 'server.mjs'), elsewhere));
  assertEntries(runScript(path.join(copy, 'entries.mjs'), elsewhere));
});
