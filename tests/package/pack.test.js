// The npm tarball works on its own: packed, installed into an empty folder, imported from
// Node with no toolchain involved, and its TypeScript declarations type-check a consumer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packTarball, ROOT, run } from '../pack.js';
import { pageBlocks } from '../readme/blocks.js';
import { typecheck } from '../typecheck.js';
import { startServer } from '../../scripts/serve.js';
import { launchBrowser } from '../web/support/browser.js';

const CONSUMER_JS = `
import { loadPosenc, RopePlan, WasmArray } from 'posenc';
const posenc = await loadPosenc();
const table = posenc.sinusoidal({ seqLen: 2, dModel: 4 });
const expected = [0, 1, 0, 1, Math.sin(1), Math.cos(1), Math.sin(0.01), Math.cos(0.01)];
for (let i = 0; i < expected.length; i++) {
  if (Math.abs(table[i] - expected[i]) > 2.5e-7) throw new Error('table[' + i + '] = ' + table[i]);
}
const x = posenc.allocate([1, 0]);
posenc.rope(x, { seqLen: 1, headDim: 2, offset: 1 });
const [a, b] = x.view();
if (Math.abs(a - Math.cos(1)) > 1e-7 || Math.abs(b - Math.sin(1)) > 1e-7) throw new Error('rope ' + a + ' ' + b);
if (!(x instanceof WasmArray)) throw new Error('WasmArray export');
const plan = posenc.ropePlan({ seqLen: 1, headDim: 2 });
x.set([1, 0]);
plan.apply(x, { offset: 1 });
if (!(plan instanceof RopePlan) || x.view()[0] !== a) throw new Error('plan.apply does not give the bits of rope()');
plan.free();
x.free();
const scalar = await loadPosenc({ simd: false });
console.log(JSON.stringify({ variant: posenc.variant, scalar: scalar.variant }));
`;

const CONSUMER_TS = `
import { loadPosenc, type Posenc, type RopeOptions, type RopePlan, type WasmArray } from 'posenc';
const posenc: Posenc = await loadPosenc({ simd: false });
const table: Float32Array = posenc.sinusoidal({ seqLen: 4, dModel: 8, layout: 'concat' });
const options: RopeOptions = { seqLen: 4, headDim: 2, layout: 'half' };
const rotated = posenc.rope(new Float32Array(8), options);
const inPlace: Float32Array = posenc.rope(new Float32Array(8), { seqLen: 4, headDim: 2 });
const { cos, sin } = posenc.ropeCache({ seqLen: 4, rotaryDim: 8 });
const freqs: Float64Array = posenc.ropeFrequencies({ rotaryDim: 8 });
// @ts-expect-error: layout names are checked
posenc.rope(new Float32Array(8), { seqLen: 4, headDim: 2, layout: 'neox' });
// @ts-expect-error: seqLen is required
posenc.sinusoidal({ dModel: 8 });
const plan: RopePlan = posenc.ropePlan({ seqLen: 1, numHeads: 2, headDim: 4, numKvHeads: 1 });
const q = posenc.allocate(8);
const k = posenc.allocate(4);
const both: { q: WasmArray; k: WasmArray } = plan.applyQK(q, k, { offset: 3 });
const applied: WasmArray = plan.apply(q, { positions: [7] });
// @ts-expect-error: a plan's rows are fixed when it is made
plan.apply(q, { seqLen: 2 });
plan.free();
console.log(table.length, rotated.length, inPlace.length, cos.length + sin.length, freqs.length, both.q.length, applied.length);
`;

const CONSUMER_CJS = `
const { loadPosenc } = require('posenc');
loadPosenc().then((p) => console.log(JSON.stringify({ variant: p.variant, source: p.wasmSource, value: p.sinusoidal({ seqLen: 1, dModel: 2 })[1] })));
`;

const CONSUMER_INLINE = `
import { loadPosenc } from 'posenc/inline';
const p = await loadPosenc();
console.log(JSON.stringify({ variant: p.variant, source: p.wasmSource, value: p.sinusoidal({ seqLen: 1, dModel: 2 })[1] }));
`;

const CONSUMER_WIDGETS_TS = `
import { PeHeatmap, sharedPosenc, type ComparePick, type PeHeatmapPick, type PeHeatmapSettings, type RopeHeatmapPick, type RotationPick, type Vectors2dPick, type WavelengthsPick, type WorkedExamplePick } from 'posenc/widgets';
const element = document.createElement('posenc-pe-heatmap');
const same: PeHeatmap = element;
element.seqLen = 64;
element.layout = 'concat';
// @ts-expect-error: layout names are checked
element.layout = 'neox';
const settings: PeHeatmapSettings = element.settings;
element.addEventListener('posenc-pick', (event) => {
  const pick: PeHeatmapPick | RopeHeatmapPick | Vectors2dPick | WorkedExamplePick | WavelengthsPick | RotationPick | ComparePick | null = event.detail;
  console.log(pick?.text); // every pick has its read-out sentence
});
const rope = document.createElement('posenc-rope-heatmap');
rope.headDim = 128;
rope.content = 'random';
// @ts-expect-error: content is 'ones' or 'random'
rope.content = 'zeros';
const vectors = document.createElement('posenc-vectors-2d');
vectors.check = [0.5, -1];
vectors.offset = 3;
// @ts-expect-error: offset is a number
vectors.offset = 'three';
const worked = document.createElement('posenc-worked-example');
worked.cat = [0, 0, 0, 0];
const sums: Float32Array | undefined = worked.values?.sums;
const waves = document.createElement('posenc-wavelengths');
waves.dims = [0, 20];
// @ts-expect-error: dims is a list of numbers
waves.dims = 3;
const wavelength: number | undefined = waves.curves[0]?.wavelength;
const turn = document.createElement('posenc-rotation');
turn.pairValues = [1, 0.5];
// @ts-expect-error: layout is 'interleaved' or 'half'
turn.layout = 'concat';
const compare = document.createElement('posenc-compare');
compare.metric = 'dot';
compare.q = [1, 2];
// @ts-expect-error: metric is 'cosine' or 'dot'
compare.metric = 'l2';
const ropeScores: Float32Array | undefined = compare.scores?.rope;
// the elements' own instance, with posenc's types
const table: Promise<Float32Array> = sharedPosenc().then((posenc) => posenc.sinusoidal({ seqLen: 4, dModel: 8 }));
const csv: string = element.toCSV();
const png: Promise<Blob> = element.toPNG();
console.log(same, settings, csv, png, PeHeatmap.prototype, rope.settings.layout, vectors.vectors?.[0].sum, sums, wavelength, turn.rotation?.path, ropeScores, table);
`;

// The widgets' declarations under TypeScript's older node10 resolution, which reads no exports map
// (package.json's typesVersions points it at them), with no framework installed.
const CONSUMER_WIDGETS_NODE10 = `
import { PeHeatmap, type PosencTag } from 'posenc/widgets';
const element: PeHeatmap = document.createElement('posenc-pe-heatmap');
element.addEventListener('posenc-pick', (event) => console.log(event.detail?.fn));
// @ts-expect-error: a heatmap's pick has one value, no values (a rotation's)
element.addEventListener('posenc-pick', (event) => console.log(event.detail?.values));
const tag: PosencTag = 'posenc-rotation';
console.log(tag);
`;

// posenc/widgets on a server (Node, a framework's prerender): importing it, as an ES module or
// through require(), needs no DOM, defines the same classes and registers nothing; constructing an
// element says it needs a browser, and the shared instance computes.
const SERVER_WIDGETS = `
const report = async (widgets) => {
  const names = Object.keys(widgets).sort();
  const classes = names.filter((name) => /^[A-Z]/.test(name));
  let constructed;
  try {
    new widgets.PeHeatmap();
  } catch (error) {
    constructed = error.name;
  }
  const posenc = await widgets.sharedPosenc();
  return JSON.stringify({
    names,
    attributes: classes.every((name) => widgets[name].observedAttributes.includes('theme')),
    registry: typeof customElements,
    constructed,
    value: posenc.sinusoidal({ seqLen: 2, dModel: 2 })[2],
  });
};
`;
const SERVER_WIDGETS_ESM = `${SERVER_WIDGETS}console.log(await report(await import('posenc/widgets')));`;
const SERVER_WIDGETS_CJS = `${SERVER_WIDGETS}report(require('posenc/widgets')).then(console.log);`;

/**
 * A page that uses only the widgets entry, from the package's dist/ copied as a static folder:
 * the html example of docs/widgets.md, so the example is checked too.
 */
function staticPage() {
  const snippet = pageBlocks('docs/widgets.md').find((block) => block.lang === 'html').code;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>widgets from the tarball</title><link rel="icon" href="data:,"></head>
<body>${snippet}</body></html>
`;
}

/** Packs the repository into `work` and installs the tarball into an empty app there; returns the app folder. */
function installPacked(work) {
  const tarball = packTarball(work);
  const app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  run('npm', ['install', '--no-audit', '--no-fund', '--silent', tarball], app);
  return app;
}

/** Every file the package.json points at (main, module, types, exports), as tarball paths. */
function pointedAt(manifest) {
  const targets = [];
  const walk = (value) => {
    if (typeof value === 'string') targets.push(value.replace(/^\.\//, ''));
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk([manifest.main, manifest.module, manifest.types, manifest.exports]);
  return [...new Set(targets)];
}

test('the tarball holds every file package.json points at, and no stale build output', () => {
  const [{ files }] = JSON.parse(run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], ROOT));
  const paths = files.map((file) => file.path);
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  for (const target of pointedAt(manifest)) assert.ok(paths.includes(target), `${target} is in the tarball`);
  const dist = paths.filter((path) => path.startsWith('dist/')).sort();
  assert.deepEqual(dist, [
    'dist/inline.js',
    'dist/posenc-scalar.inline.js',
    'dist/posenc-scalar.wasm',
    'dist/posenc-simd.inline.js',
    'dist/posenc-simd.wasm',
    'dist/posenc.browser.js',
    'dist/posenc.cjs',
    'dist/posenc.d.cts',
    'dist/posenc.mjs',
    'dist/standalone.js',
    'dist/widgets.js',
  ]);
  assert.ok(!paths.some((path) => path.startsWith('tests/') || path.startsWith('src/')), 'no sources or tests');
  // The README and the declarations (the API's reference) ship; the docs/ pages stay in the repository.
  for (const shipped of ['README.md', 'bindings/js/index.d.ts', 'bindings/webgpu/index.d.ts', 'widgets/index.d.ts'])
    assert.ok(paths.includes(shipped), `${shipped} is in the tarball`);
  assert.ok(!paths.some((path) => path.startsWith('docs/')), 'no docs/ pages');
  assert.ok(paths.includes('LICENSE'), 'the license text ships with the package');
  assert.match(readFileSync(join(ROOT, 'LICENSE'), 'utf8'), new RegExp(`^${manifest.license} License`), 'as declared');
});

test('npm pack installs into an empty folder and works there, types included', () => {
  const work = mkdtempSync(join(tmpdir(), 'posenc-pack-'));
  try {
    const app = installPacked(work);

    writeFileSync(join(app, 'consumer.mjs'), CONSUMER_JS);
    const out = run('node', ['consumer.mjs'], app);
    assert.deepEqual(JSON.parse(out.trim()), { variant: 'simd', scalar: 'scalar' });

    typecheck(app, CONSUMER_TS);

    // The other entries from the installed package: require() and posenc/inline.
    const required = run('node', ['-e', CONSUMER_CJS], app);
    assert.deepEqual(JSON.parse(required.trim()), { variant: 'simd', source: 'url', value: 1 });
    writeFileSync(join(app, 'inline.mjs'), CONSUMER_INLINE);
    assert.deepEqual(JSON.parse(run('node', ['inline.mjs'], app).trim()), {
      variant: 'simd',
      source: 'inline',
      value: 1,
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test('posenc/widgets from the tarball: imported on a server without a DOM; dist/ as a static folder draws an element in Chromium; its types check (node10 resolution too)', async () => {
  const work = mkdtempSync(join(tmpdir(), 'posenc-pack-widgets-'));
  let browser;
  let server;
  try {
    const app = installPacked(work);
    typecheck(app, CONSUMER_WIDGETS_TS);
    typecheck(app, CONSUMER_WIDGETS_NODE10, { module: 'commonjs', moduleResolution: 'node10' });

    writeFileSync(join(app, 'server-widgets.mjs'), SERVER_WIDGETS_ESM);
    const imported = JSON.parse(run('node', ['server-widgets.mjs'], app));
    assert.deepEqual(imported, {
      names: [
        'Attention',
        'Compare',
        'PeHeatmap',
        'RopeHeatmap',
        'Rotation',
        'Vectors2d',
        'Wavelengths',
        'WorkedExample',
        'providePosenc',
        'sharedPosenc',
      ],
      attributes: true,
      registry: 'undefined',
      constructed: 'TypeError',
      value: Math.fround(Math.sin(1)),
    });
    // require() of the ES module (Node 20.19 and later): the same module.
    assert.deepEqual(JSON.parse(run('node', ['-e', SERVER_WIDGETS_CJS], app)), imported);

    const site = join(work, 'site');
    cpSync(join(app, 'node_modules/posenc/dist'), join(site, 'posenc'), { recursive: true });
    writeFileSync(join(site, 'index.html'), staticPage());
    server = await startServer({ root: site, port: 0 });
    browser = await launchBrowser();
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    const fetched = [];
    page.on('requestfinished', (request) => fetched.push(new URL(request.url()).pathname));
    await page.goto(server.url);
    const element = page.locator('posenc-pe-heatmap');
    await element.locator('canvas.heatmap-cells[data-drawn]').waitFor();
    const drawn = await element.evaluate((node) => ({
      rows: node.shadowRoot.querySelector('canvas.heatmap-cells').dataset.rows,
      csv: node.toCSV().trim().split('\n'),
    }));
    assert.equal(drawn.rows, '64'); // the example's seq-len="64" d-model="128"
    // Row 3, dimension 2 (pair 1's sine): sin(3 / 10000^(2/128)), float64 here.
    const value = Number(drawn.csv[4].split(',')[3]);
    assert.ok(Math.abs(value - Math.sin(3 / 10000 ** (2 / 128))) < 1e-7, drawn.csv[4]);
    assert.deepEqual(errors, []);
    // The .wasm by URL next to widgets.js; the base64 fallback is not loaded.
    assert.ok(fetched.includes('/posenc/posenc-simd.wasm'), fetched.join(' '));
    assert.ok(!fetched.some((path) => path.endsWith('.inline.js')), fetched.join(' '));
  } finally {
    await browser?.close();
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  }
});
