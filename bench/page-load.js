// How fast the tutorial's two pages get ready: `node bench/page-load.js [--runs=5]`. Each run is a
// fresh page at 1280×800 (desktop) and 390×844 (phone), for the lesson (web/site/index.html) and
// the companion (companion.html), opened at the top and by a link to their heaviest section (so
// that its figures are the ones in the first screen). From navigation until
// <html data-ready> it records every main-thread task over 50 ms (PerformanceObserver
// 'longtask'), and, once a frame, when each figure first shows a picture (a canvas with a
// data-drawn count, or an SVG with content: on the page or in a posenc element's shadow root).
// Printed medians: the longest task, the total blocking time (the sum of each long task's time
// over 50 ms), the first figure, the last figure in the first viewport, the last figure of all,
// ready; and the heavy redraw (RoPE scores 2048×2048, head dim 256: bench/page-redraw-probe.js).
// `--runs=N` loads per viewport (default 5); `--site=DIR` measures another build of the page
// (the heavy redraw is then left out: it needs this checkout's bench/ served next to it).
// Targets: longest task ≤ 200 ms, first figure ≤ 1.0 s, all in view ≤ 1.5 s, redraw ≤ 100 ms.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../scripts/chromium.js';
import { ensureWebBuilt } from '../tests/web/support/build.js';
import { startServer } from '../scripts/serve.js';
import { ORIGIN, serveRepo } from './serve-repo.js';
import { PAGE_REDRAW_CASES } from './page-redraw-cases.js';
import { percentile } from './stats.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };
const HEAVY = PAGE_REDRAW_CASES.find((c) => c.id === 'rope-heaviest');

// Runs in the page before its scripts: the long tasks and the first-picture time of each figure.
function recordLoad() {
  const record = { tasks: [], figures: new Map() };
  window.__pageLoad = record;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) record.tasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  const roots = () => [document, ...[...document.querySelectorAll('*')].map((node) => node.shadowRoot).filter(Boolean)];
  const drawn = (figure) =>
    [...figure.querySelectorAll('canvas')].some((canvas) => Number(canvas.dataset.drawn) > 0) ||
    [...figure.querySelectorAll('svg')].some((svg) => svg.querySelector('path, rect, circle, line, text'));
  function scan() {
    const now = performance.now();
    // Before posenc is loaded, what shows is index.html's own drawing, not a section's picture.
    if (document.documentElement.dataset.posenc === undefined) return requestAnimationFrame(scan);
    for (const root of roots()) {
      for (const figure of root.querySelectorAll('figure')) {
        if (record.figures.has(figure) || !drawn(figure)) continue;
        const box = figure.getBoundingClientRect();
        // In the window when it is drawn (a link to a section scrolls there first).
        const inView = box.bottom > 0 && box.top < innerHeight && box.height > 0;
        record.figures.set(figure, { at: now, inView, top: box.top + scrollY });
      }
    }
    if (document.documentElement.dataset.ready !== 'true') requestAnimationFrame(scan);
    else record.readyAt = now;
  }
  requestAnimationFrame(scan);
}

// Each page, opened at its top and by a link to the section whose figures cost the most to draw.
const LOADS = [
  { label: 'lesson', file: 'index.html' },
  { label: 'lesson #rope', file: 'index.html#rope' },
  { label: 'companion', file: 'companion.html' },
  { label: 'companion #long-context', file: 'companion.html#long-context' },
];

async function measureLoad(browser, url, viewport) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.addInitScript(recordLoad);
  try {
    await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
    await page.waitForFunction(() => window.__pageLoad?.readyAt !== undefined, null, { timeout: 60_000 });
    return await page.evaluate(() => {
      const { tasks, figures, readyAt } = window.__pageLoad;
      const before = tasks.filter((task) => task.start < readyAt);
      const times = [...figures.values()];
      const inView = times.filter((figure) => figure.inView).map((figure) => figure.at);
      const all = times.map((figure) => figure.at);
      return {
        longestTask: Math.max(0, ...before.map((task) => task.duration)),
        blocking: before.reduce((sum, task) => sum + Math.max(0, task.duration - 50), 0),
        firstFigure: Math.min(...all),
        allInView: inView.length ? Math.max(...inView) : null, // null: no figure in the first screen
        inView: inView.length,
        allDrawn: Math.max(...all),
        ready: readyAt,
        figures: all.length,
      };
    });
  } finally {
    await context.close();
  }
}

// The redraw probe is imported from the repository: this page is served from it (serve-repo.js).
async function measureHeavyRedraw(browser) {
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
  await serveRepo(context, ROOT);
  const page = await context.newPage();
  try {
    await page.goto(`${ORIGIN}/web/site/index.html?${HEAVY.query}`, { waitUntil: 'load', timeout: 60_000 });
    await page.waitForFunction(
      () =>
        document.documentElement.dataset.ready === 'true' && document.documentElement.dataset.pendingRedraws === '0',
      null,
      { timeout: 60_000 },
    );
    return await page.evaluate(async (c) => {
      const { measureRedraw } = await import('/bench/page-redraw-probe.js');
      return measureRedraw(c);
    }, HEAVY);
  } finally {
    await context.close();
  }
}

const median = (values) =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
const ms = (value) => `${Math.round(value)} ms`;

async function main() {
  const option = (name) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const runs = Number(option('runs') ?? 5);
  // --site=DIR: another built copy of the page (e.g. an older commit's, to compare with).
  const site = path.resolve(option('site') ?? path.join(ROOT, 'web/site'));
  if (!option('site')) await ensureWebBuilt();
  if (!existsSync(path.join(site, 'index.html'))) throw new Error(`${site}/index.html was not built`);
  const server = await startServer({ root: site, port: 0 });
  const browser = await launchChromium();
  try {
    console.log(`page load, median of ${runs} fresh loads (navigation → <html data-ready>)`);
    console.log('| page | viewport | longest task | total blocking | first figure | all in view | all drawn | ready |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const load of LOADS) {
      if (!existsSync(path.join(site, load.file.split('#')[0]))) continue; // an older build: one page
      for (const [name, viewport] of Object.entries(VIEWPORTS)) {
        const samples = [];
        for (let i = 0; i < runs; i++) samples.push(await measureLoad(browser, `${server.url}${load.file}`, viewport));
        const m = (key) =>
          samples[0][key] === null ? 'none in view' : ms(median(samples.map((sample) => sample[key])));
        console.log(
          `| ${load.label} | ${name} ${viewport.width}×${viewport.height} | ${m('longestTask')} | ${m('blocking')} | ${m('firstFigure')} | ${m('allInView')} (${samples[0].inView} figures) | ${m('allDrawn')} | ${m('ready')} |`,
        );
      }
    }
    if (option('site')) return;
    const redraw = await measureHeavyRedraw(browser);
    if (redraw.status !== 'measured') console.log(`heavy redraw (${HEAVY.label}): ${redraw.status}`);
    else
      console.log(
        `heavy redraw (${HEAVY.label}), input → full picture painted: median ${ms(median(redraw.fullMs))}, first picture ${ms(median(redraw.firstMs))}`,
      );
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
