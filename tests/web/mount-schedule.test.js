// End-to-end: how the page mounts its sections (web/src/mount-schedule.js). One section at a
// time, those near the reader's view first; each exactly once, its formulas typeset with it;
// a section whose mount fails says so in its place while the rest of the page still works;
// <html data-ready> only once every section has mounted; and all of it without
// scheduler.yield. Nothing here is timed: bench/page-load.js measures how fast.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { openPage, waitForIdle } from './support/browser.js';
import { useServedSite } from './support/session.js';

const session = useServedSite();
let browser;
let server;
before(async () => ({ browser, server } = await session));

/** Opens the page (after `initScript`, run before its own scripts) and waits until it is idle. */
async function load(url, { initScript, width = 1280, height = 800 } = {}) {
  const opened = await openPage(browser, { width, height });
  if (initScript) await opened.page.addInitScript(initScript);
  await opened.page.goto(url);
  await waitForIdle(opened.page);
  return opened;
}

/** Each section's state, the order the sections mounted in, and what would show a double mount. */
function pageState(page) {
  return page.evaluate(() => {
    const sections = [...document.querySelectorAll('main > section[id]')];
    const ids = [...document.querySelectorAll('[id]')].map((node) => node.id);
    return {
      ids: sections.map((section) => section.id),
      mounted: Object.fromEntries(sections.map((section) => [section.id, section.dataset.mounted])),
      errors: Object.fromEntries(
        sections.map((section) => [
          section.id,
          [...section.querySelectorAll('.section-error[role="alert"]')].map((node) => node.textContent),
        ]),
      ),
      duplicateIds: ids.filter((id, i) => ids.indexOf(id) !== i),
      untypeset: [...document.querySelectorAll('[data-tex]')].filter((node) => !node.querySelector('.katex')).length,
      mountOrder: performance
        .getEntriesByType('measure')
        .filter((entry) => entry.name.startsWith('mount '))
        .map((entry) => entry.name.slice('mount '.length)),
    };
  });
}

const PAGES = { lesson: () => server.pageUrl, companion: () => server.companionUrl };

for (const [name, urlOf] of Object.entries(PAGES))
  test(`every section mounts once, its formulas typeset, before the page says it is ready (the ${name})`, async () => {
    const { page, context, log } = await load(urlOf());
    try {
      const state = await pageState(page);
      assert.ok(state.ids.length >= 8, `${state.ids.length} sections`);
      for (const id of state.ids) assert.equal(state.mounted[id], 'true', `section #${id}`);
      assert.deepEqual(Object.values(state.errors).flat(), []);
      // Each section mounted once: one measure each, and no control or figure id twice.
      assert.deepEqual([...state.mountOrder].sort(), [...state.ids].sort());
      assert.deepEqual(state.duplicateIds, []);
      assert.equal(state.untypeset, 0, 'formulas left as TeX source');
      // From the top of the page, the first section is mounted first and the last one last.
      assert.equal(state.mountOrder[0], state.ids[0]);
      assert.equal(state.mountOrder.at(-1), state.ids.at(-1));
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  });

test('a link to a section mounts the sections around it first, then the rest, each once', async () => {
  const { page, context } = await load(`${server.companionUrl}#images`, { width: 390, height: 844 });
  try {
    const state = await pageState(page);
    assert.equal(new Set(state.mountOrder).size, state.ids.length);
    const first = state.mountOrder.indexOf('images');
    assert.ok(first < state.mountOrder.indexOf(state.ids[0]), `mounted in the order ${state.mountOrder.join(', ')}`);
    // The figures far from the link are drawn too: the top section's heatmaps hold pictures.
    await page.locator('#comparison').scrollIntoViewIfNeeded();
    const drawn = await page
      .locator('#comparison canvas.heatmap-cells')
      .evaluateAll((canvases) => canvases.map((canvas) => Number(canvas.dataset.drawn)));
    assert.ok(drawn.length > 0 && drawn.every((count) => count > 0), `drawn counts ${drawn}`);
  } finally {
    await context.close();
  }
});

test('a section whose mount fails shows why in its place; every other section still mounts', async () => {
  // The facts section's demo box goes missing before the page's scripts run its mount.
  const { page, context } = await load(server.companionUrl, {
    initScript: () =>
      document.addEventListener('DOMContentLoaded', () => document.getElementById('facts-layouts-demo')?.remove()),
  });
  try {
    const state = await pageState(page);
    assert.equal(state.mounted.facts, 'failed');
    assert.equal(state.errors.facts.length, 1);
    assert.match(state.errors.facts[0], /^This section failed: .*facts-layouts-demo/);
    for (const id of state.ids.filter((id) => id !== 'facts')) {
      assert.equal(state.mounted[id], 'true', `section #${id}`);
      assert.deepEqual(state.errors[id], [], `section #${id}`);
    }
    assert.equal(await page.evaluate(() => document.documentElement.dataset.ready), 'true');
  } finally {
    await context.close();
  }
});

for (const [name, urlOf] of Object.entries(PAGES))
  test(`without scheduler.yield the page mounts every section the same way (the ${name})`, async () => {
    const { page, context, log } = await load(urlOf(), {
      initScript: () => {
        delete globalThis.scheduler;
        delete globalThis.IntersectionObserver;
      },
    });
    try {
      assert.equal(await page.evaluate(() => 'scheduler' in globalThis), false);
      const state = await pageState(page);
      for (const id of state.ids) assert.equal(state.mounted[id], 'true', `section #${id}`);
      assert.deepEqual(state.mountOrder, state.ids);
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  });
