// The page rows: each case of bench/page-redraw-cases.js in the built tutorial page
// (web/site/index.html), a fresh page per case opened at the case's permalink.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PAGE_REDRAW_CASES } from './page-redraw-cases.js';
import { ORIGIN, serveRepo } from './serve-repo.js';
import { summarize } from './stats.js';

const PAGE = 'web/site/index.html';

async function measureCase(context, testCase, log) {
  const page = await context.newPage();
  page.on('pageerror', (error) => log(`[page] ${error.message}`));
  try {
    await page.goto(`${ORIGIN}/${PAGE}?${testCase.query}`, { waitUntil: 'load', timeout: 60_000 });
    await page.waitForFunction(
      () =>
        document.documentElement.dataset.pendingRedraws !== undefined &&
        Number(document.documentElement.dataset.pendingRedraws) === 0,
      null,
      { timeout: 60_000 },
    );
    const result = await page.evaluate(async (c) => {
      const { measureRedraw } = await import('/bench/page-redraw-probe.js');
      return measureRedraw(c);
    }, testCase);
    if (result.status !== 'measured') return result;
    return { ...result, first: summarize(result.firstMs), full: summarize(result.fullMs) };
  } catch (error) {
    return { status: `error: ${String(error?.message ?? error).split('\n')[0]}` };
  } finally {
    await page.close();
  }
}

/** [{ ...case, result }] for the cases named by `only` (all when it names page-redraw or nothing). */
export async function measurePageRedraws(browser, root, log, only = null) {
  const cases = PAGE_REDRAW_CASES.filter((c) => !only || only.includes('page-redraw') || only.includes(c.id));
  if (!existsSync(path.join(root, PAGE)))
    return cases.map((c) => ({ ...c, result: { status: 'n/a (page not built)' } }));
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    await serveRepo(context, root);
    const rows = [];
    for (const testCase of cases) {
      log(`[chromium] page redraw: ${testCase.id}`);
      rows.push({ ...testCase, result: await measureCase(context, testCase, log) });
    }
    return rows;
  } finally {
    await context.close();
  }
}
