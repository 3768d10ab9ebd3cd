#!/usr/bin/env node
// `npm run bench` (through scripts/bench.sh): the harness in Node, then in headless Chromium,
// then one report printed and written to bench/results/bench.{md,json}.
//
//   node --expose-gc bench/main.js [--env=node|chromium|both] [--only=<section or case id>,...]
//                                  [--budget=<ms per variant>] [--memory-calls=<n>] [--load-reps=<n>]
//                                  [--import-reps=<n>]
// Sections and case ids: see bench/cases.js. big-arrays: rope-wasm-interleaved, rope-wasm-half,
// rope-js-owned, rope-positions-partial, sinusoidal, addSinusoidal, ropeCache, similarity-dot.
// per-call: per-call-1, per-call-8, per-call-64, per-call-512, per-call-4096, per-call-half-1, per-call-half-8,
// per-call-half-64, per-call-table-16.
// page-redraw (Chromium only): the tutorial page cases of bench/page-redraw-cases.js, e.g. rope-heaviest.
// entry-import (Chromium only): cold import() of the packed package's browser entries (--import-reps, default 15).
// Exits 1 when a result was wrong or a case failed to run; never because of a time.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { selectCases } from './cases.js';
import { chromiumOnly, runInChromium } from './chromium-runner.js';
import { loadPosenc } from '../bindings/js/node.js';
import { runSuite } from './harness.js';
import { machineInfo } from './machine.js';
import { hasFailures, renderReport } from './report.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const log = (line) => process.stderr.write(`${line}\n`);

function parseArguments(argv) {
  const options = {
    env: 'both',
    only: null,
    budgetMs: undefined,
    memoryCalls: undefined,
    loadReps: 5,
    importReps: 15,
  };
  for (const argument of argv) {
    const [key, value] = argument.replace(/^--/, '').split('=');
    switch (key) {
      case 'env':
        options.env = value;
        break;
      case 'only':
        options.only = value.split(',');
        break;
      case 'budget':
        options.budgetMs = Number(value);
        break;
      case 'memory-calls':
        options.memoryCalls = Number(value);
        break;
      case 'load-reps':
        options.loadReps = Number(value);
        break;
      case 'import-reps':
        options.importReps = Number(value);
        break;
      default:
        throw new Error(`bench: unknown argument ${argument} (see the header of bench/main.js)`);
    }
  }
  if (!['node', 'chromium', 'both'].includes(options.env))
    throw new Error(`bench: --env must be node, chromium or both (got ${options.env})`);
  selectCases(harnessNames(options.only)); // throws on an unknown name
  return options;
}

/** The names of `only` that the shared harness runs (page-redraw and entry-import run in Chromium only). */
function harnessNames(only) {
  return only?.filter((name) => !chromiumOnly(name)) ?? null;
}

function gitDescription() {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${commit} + uncommitted changes` : commit;
  } catch {
    return 'unknown';
  }
}

function wasmSizes() {
  const sizes = {};
  for (const variant of ['simd', 'scalar']) {
    const bytes = readFileSync(path.join(root, 'dist', `posenc-${variant}.wasm`));
    sizes[variant] = { bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
  }
  return sizes;
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  const suiteOptions = Object.fromEntries(
    Object.entries({
      only: options.only,
      budgetMs: options.budgetMs,
      memoryCalls: options.memoryCalls,
    }).filter(([, value]) => value !== undefined && value !== null),
  );
  const started = Date.now();
  const machine = machineInfo();
  const runs = {};

  const harnessOnly = harnessNames(options.only);
  if (options.env !== 'chromium' && (!harnessOnly || harnessOnly.length > 0)) {
    log(`[node] ${machine.node}: running the harness`);
    runs.node = {
      env: 'node',
      suite: await runSuite(loadPosenc, { ...suiteOptions, only: harnessOnly, log: (line) => log(`[node] ${line}`) }),
    };
  }
  if (options.env !== 'node') {
    try {
      runs.chromium = await runInChromium({
        root,
        suiteOptions,
        loadReps: options.loadReps,
        importReps: options.importReps,
        log,
      });
    } catch (error) {
      log(`[chromium] failed: ${error?.stack ?? error}`);
      runs.chromium = { env: 'chromium', error: String(error?.message ?? error).split('\n')[0] };
    }
  }

  const report = {
    date: new Date().toISOString(),
    git: gitDescription(),
    machine,
    chromiumVersion: runs.chromium?.version ?? null,
    settings: (runs.node ?? runs.chromium)?.suite?.settings ?? null,
    wasmSizes: wasmSizes(),
    runs,
  };
  const markdown = renderReport(report);
  const resultsDir = path.join(root, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(path.join(resultsDir, 'bench.md'), markdown);
  writeFileSync(path.join(resultsDir, 'bench.json'), `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`\n${markdown}\n`);
  log(
    `bench: done in ${((Date.now() - started) / 1000).toFixed(0)} s; written to bench/results/bench.md and bench.json`,
  );
  if (hasFailures(runs) || runs.chromium?.error) {
    log('bench: some result was wrong or some case failed (ERROR / WRONG in the report)');
    process.exitCode = 1;
  }
}

main().catch((error) => {
  log(String(error?.message).startsWith('bench:') ? error.message : String(error?.stack ?? error));
  process.exitCode = 1;
});
