// The page row: slider change -> 1001×1001 RoPE similarity heatmap redrawn, in
// the built tutorial page (web/site/index.html). Until that page exists the row says so.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ORIGIN, serveRepo } from './serve-repo.js';

const PAGE = 'web/site/index.html';
const HEATMAP = '[data-bench="rope-heatmap-slider"], figure.heatmap[data-plot="rope-similarity"]';

export async function measurePageHeatmap(browser, root, log) {
  if (!existsSync(path.join(root, PAGE))) return { status: 'n/a (page not built)' };
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    await serveRepo(context, root);
    const page = await context.newPage();
    page.on('pageerror', (error) => log(`[page] ${error.message}`));
    await page.goto(`${ORIGIN}/${PAGE}#rope.seq=1001`, { waitUntil: 'load', timeout: 60_000 });
    // Let the page's first render (posenc load, plots) finish before looking for the heatmap.
    await page.waitForSelector(HEATMAP, { timeout: 30_000 }).catch(() => {}); // the probe reports a missing one
    await page.waitForFunction(() => Number(document.documentElement.dataset.pendingFrames ?? 0) === 0, null, {
      timeout: 60_000,
    });
    return await page.evaluate(async () => {
      const { measureSliderRedraw } = await import('/bench/page-heatmap-probe.js');
      return measureSliderRedraw();
    });
  } catch (error) {
    return { status: `error: ${String(error?.message ?? error).split('\n')[0]}` };
  } finally {
    await context.close();
  }
}
