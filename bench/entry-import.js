// Start-up in Chromium: how long `import()` of a browser entry of the packed package takes from a
// static server (scripts/serve.js on 127.0.0.1), each load in a fresh browser context (nothing
// cached: no HTTP cache, no compiled code), then, in the same context, loadPosenc() compiling and
// instantiating the SIMD build from bytes fetched beforehand. Each entry twice: as shipped by the
// exports map (one bundled module) and as its unbundled source in bindings/js/ (the module graph
// the exports map pointed at before). The entries take turns, so a busy machine slows all alike.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer } from '../scripts/serve.js';
import { packTarball, run } from '../tests/pack.js';
import { summarize } from './stats.js';

/** The target for import() of a shipped entry, median ms. */
export const ENTRY_IMPORT_TARGET_MS = 60;

/** The entries to time: the exports map's targets and the unbundled sources they were built from. */
function entriesOf(exportsMap) {
  return [
    { name: 'posenc', shipped: true, file: exportsMap['.'].browser },
    { name: 'posenc', shipped: false, file: './bindings/js/index.js' },
    { name: 'posenc/inline', shipped: true, file: exportsMap['./inline'].default },
    { name: 'posenc/inline', shipped: false, file: './bindings/js/inline.js' },
  ];
}

/** One cold load of `file`: import() time, compile + instantiate time, and the JS requests made. */
async function coldLoad(browser, origin, file) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const scripts = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.goto(origin);
    const timing = await page.evaluate(
      async ({ entry, wasm }) => {
        const started = performance.now();
        const { loadPosenc } = await import(entry);
        const importMs = performance.now() - started;
        const bytes = await (await fetch(wasm)).arrayBuffer();
        const loading = performance.now();
        await loadPosenc({ simd: true, wasmBinary: bytes });
        return { importMs, loadMs: performance.now() - loading };
      },
      { entry: `/posenc/${file.replace(/^\.\//, '')}`, wasm: '/posenc/dist/posenc-simd.wasm' },
    );
    return { ...timing, modules: scripts.length };
  } finally {
    await context.close();
  }
}

/** [{ name, shipped, file, modules, import, compileInstantiate }], medians of `reps` cold loads each. */
export async function measureEntryImports(browser, { reps, log }) {
  const work = mkdtempSync(path.join(tmpdir(), 'posenc-bench-entry-'));
  let server;
  try {
    run('tar', ['-xzf', packTarball(work), '-C', work]);
    const site = path.join(work, 'site');
    cpSync(path.join(work, 'package'), path.join(site, 'posenc'), { recursive: true });
    writeFileSync(path.join(site, 'index.html'), '<!doctype html><meta charset="utf-8"><title>blank</title>\n');
    const { exports: exportsMap } = JSON.parse(readFileSync(path.join(site, 'posenc', 'package.json'), 'utf8'));
    server = await startServer({ root: site, port: 0 });
    const entries = entriesOf(exportsMap).map((entry) => ({ ...entry, samples: [] }));
    for (let rep = 0; rep < reps; rep++) {
      log(`[chromium] entry import, cold: round ${rep + 1} of ${reps}`);
      for (const entry of entries) entry.samples.push(await coldLoad(browser, server.url, entry.file));
    }
    return entries.map(({ samples, ...entry }) => ({
      ...entry,
      modules: Math.max(...samples.map((s) => s.modules)),
      import: summarize(samples.map((s) => s.importMs)),
      compileInstantiate: summarize(samples.map((s) => s.loadMs)),
    }));
  } finally {
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  }
}
