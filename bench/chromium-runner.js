// Runs the shared harness inside headless Chromium (the system /usr/bin/chromium driven by
// playwright-core), plus the browser-only rows of the big-arrays table: cold module load +
// instantiate, and the tutorial page's slider -> heatmap redraw. They run when that section
// runs whole: no --only, or --only naming big-arrays (not with e.g. --only=per-call).
import { launchChromium } from '../scripts/chromium.js';
import { measurePageHeatmap } from './page-heatmap.js';
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

export async function runInChromium({ root, suiteOptions, loadReps = 5, log }) {
  // --expose-gc lets the harness collect garbage between cases, as in Node.
  const browser = await launchChromium(['--js-flags=--expose-gc']);
  try {
    const version = browser.version();
    log(`[chromium] ${version}: running the harness`);
    const suite = await runSuiteInPage(browser, root, suiteOptions, log);
    if (suiteOptions.only && !suiteOptions.only.includes('big-arrays')) return { env: 'chromium', version, suite };
    log('[chromium] module load + instantiate, cold');
    const moduleLoad = await measureModuleLoads(browser, root, loadReps, log);
    log('[chromium] page: slider -> heatmap');
    const pageHeatmap = await measurePageHeatmap(browser, root, log);
    if (pageHeatmap.timesMs) Object.assign(pageHeatmap, summarize(pageHeatmap.timesMs));
    return { env: 'chromium', version, suite, moduleLoad, pageHeatmap };
  } finally {
    await browser.close();
  }
}
