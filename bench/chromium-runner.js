// Runs the shared harness inside headless Chromium (the system /usr/bin/chromium driven by
// playwright-core), plus the browser-only rows of the big-arrays table: cold module load +
// instantiate (when that section runs whole: no --only, or --only naming big-arrays), cold
// import() of the package's browser entries (bench/entry-import.js: with no --only, or --only
// naming big-arrays or entry-import), and the tutorial page's redraw cases
// (bench/page-redraw-cases.js: with no --only, or --only naming page-redraw or one of its cases).
import { launchChromium } from '../scripts/chromium.js';
import { measureEntryImports } from './entry-import.js';
import { PAGE_REDRAW_CASES } from './page-redraw-cases.js';
import { measurePageRedraws } from './page-redraw.js';
import { ORIGIN, serveRepo } from './serve-repo.js';
import { summarize } from './stats.js';

const HARNESS_PAGE = 'bench/blank.html';

async function openPage(browser, root, log) {
  const context = await browser.newContext();
  await serveRepo(context, root);
  const page = await context.newPage();
  page.on('console', (msg) => log(`[chromium] ${msg.text()}`));
  page.on('pageerror', (error) => log(`[chromium] page error: ${error.message}`));
  await page.goto(`${ORIGIN}/${HARNESS_PAGE}`);
  return { context, page };
}

async function runSuiteInPage(browser, root, suiteOptions, log) {
  const { context, page } = await openPage(browser, root, log);
  try {
    const userAgent = await page.evaluate(() => navigator.userAgent);
    const suite = await page.evaluate(async (options) => {
      const { runSuite } = await import('/bench/harness.js');
      const { loadPosenc } = await import('/bindings/js/index.js');
      return runSuite(loadPosenc, { ...options, log: (line) => console.log(line) });
    }, suiteOptions);
    return { userAgent, ...suite };
  } finally {
    await context.close();
  }
}

/** Cold loads: each in a new browser context, so no compiled module is reused. */
async function measureModuleLoads(browser, root, reps, log) {
  const loads = {};
  for (const variant of ['scalar', 'simd']) {
    const samples = [];
    for (let i = 0; i < reps; i++) {
      const { context, page } = await openPage(browser, root, log);
      try {
        const { loadMs } = await page.evaluate(async (simd) => {
          const { measureModuleLoad } = await import('/bench/module-load.js');
          return measureModuleLoad(simd);
        }, variant === 'simd');
        samples.push(loadMs);
      } finally {
        await context.close();
      }
    }
    loads[variant] = summarize(samples);
  }
  return loads;
}

/** The ids of `--only` that name Chromium-only measurements rather than harness cases. */
export function chromiumOnly(name) {
  return name === 'page-redraw' || name === 'entry-import' || PAGE_REDRAW_CASES.some((c) => c.id === name);
}

export async function runInChromium({ root, suiteOptions, loadReps = 5, importReps = 15, log }) {
  // --expose-gc lets the harness collect garbage between cases, as in Node.
  const browser = await launchChromium(['--js-flags=--expose-gc']);
  try {
    const version = browser.version();
    log(`[chromium] ${version}: running the harness`);
    const only = suiteOptions.only;
    const pageOnly = only?.filter((name) => chromiumOnly(name) && name !== 'entry-import');
    const harnessOnly = only?.filter((name) => !chromiumOnly(name));
    const result = { env: 'chromium', version };
    if (!only || harnessOnly.length > 0) {
      result.suite = await runSuiteInPage(browser, root, { ...suiteOptions, only: harnessOnly ?? undefined }, log);
      if (!only || harnessOnly.includes('big-arrays')) {
        log('[chromium] module load + instantiate, cold');
        result.moduleLoad = await measureModuleLoads(browser, root, loadReps, log);
      }
    }
    if (!only || only.includes('big-arrays') || only.includes('entry-import')) {
      log('[chromium] import() of the browser entries, cold');
      result.entryImports = await measureEntryImports(browser, { reps: importReps, log });
    }
    if (!only || pageOnly.length > 0)
      result.pageRedraws = await measurePageRedraws(browser, root, log, pageOnly ?? null);
    return result;
  } finally {
    await browser.close();
  }
}
