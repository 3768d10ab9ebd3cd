// End-to-end: the long-context section's redraws. Its heatmaps are block
// means over every distance (half a million at the heaviest settings). A change whose scores
// are not known yet shows a labelled preview first (block means over a sample of the distances),
// then the exact picture; scores that a change does not alter are kept (a span change reuses or
// extends them) and give the exact picture at once; a schedule that depends on the length
// (dynamic) is recomputed; a change during a redraw leaves no stale picture. Every final
// picture is checked against the float64 reference of tests/web/support/long-context.js.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { gotoAndSettle, waitForIdle } from './support/browser.js';
import { checkPanels } from './support/long-context.js';
import { usePageSession } from './support/session.js';

const session = usePageSession({ page: 'companion' });
let server;
let page;
before(async () => ({ server, page } = await session));

const HEAVY = 'lc.span=16&lc.cells=512'; // Llama 3.1: 131 072 distances per curve

/** Both panels' canvases: resolution and draw count. */
const canvases = () =>
  page.evaluate(() =>
    ['plain', 'scaled'].map((key) => {
      const canvas = document.querySelector(`figure[data-plot="long-context-${key}"] canvas.heatmap-cells`);
      return { resolution: canvas.dataset.resolution, drawn: Number(canvas.dataset.drawn) };
    }),
  );

/**
 * Makes a change in the page (a re-roll, or { span } through the slider's input event) and
 * returns what both panels show one painted frame later.
 */
const afterOneFrame = (change) =>
  page.evaluate(async ({ span }) => {
    if (span === undefined) document.getElementById('lc-reroll').click();
    else {
      const slider = document.getElementById('ctl-lc-span-range');
      slider.value = String(span);
      slider.dispatchEvent(new Event('input', { bubbles: true }));
    }
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    // The read-outs of that frame: the cursor on the first cell.
    const first = document.querySelector('figure[data-plot="long-context-plain"] canvas.heatmap-cells');
    first.focus();
    const readouts = {
      panel: document.querySelector('figure[data-plot="long-context-plain"] .readout').textContent,
      shared: document.getElementById('lc-readout').textContent,
    };
    first.blur();
    return ['plain', 'scaled'].map((key) => {
      const figure = document.querySelector(`figure[data-plot="long-context-${key}"]`);
      const canvas = figure.querySelector('canvas.heatmap-cells');
      return {
        resolution: canvas.dataset.resolution,
        drawn: Number(canvas.dataset.drawn),
        caption: figure.querySelector('figcaption').textContent,
        readouts,
      };
    });
  }, change);

const REROLL = {};
const setSpan = (span) => ({ span });

test('new scores show a labelled preview first, then the exact block means', async () => {
  await gotoAndSettle(page, `${server.companionUrl}?${HEAVY}`);
  assert.deepEqual(
    (await canvases()).map((c) => c.resolution),
    ['full', 'full'],
  );
  await checkPanels(page, 'llama3.1', { span: 16, cells: 512 });

  // A new q and k: no score is known, the first frame shows the preview, said so.
  const preview = await afterOneFrame(REROLL);
  for (const panel of preview) {
    assert.equal(panel.resolution, 'preview');
    assert.match(
      panel.caption,
      /^Preview: each cell the mean over every \d+(st|nd|rd|th) distance in its block; the exact block means follow\./,
    );
  }
  assert.match(preview[0].readouts.panel, /^Preview: /);
  assert.match(preview[0].readouts.shared, /^Preview: .* m = 0…255, n = 0…255 /);
  await waitForIdle(page);
  assert.deepEqual(
    (await canvases()).map((c) => c.resolution),
    ['full', 'full'],
  );
  assert.doesNotMatch(await page.locator('figure[data-plot="long-context-plain"] figcaption').textContent(), /Preview/);
  assert.match(
    await page.locator('figure[data-plot="long-context-distance"] figcaption').textContent(),
    /for every distance from 0 to 131071/,
  );
  await checkPanels(page, 'llama3.1', { span: 16, cells: 512, seed: 2 });
});

test('a span change reuses the kept scores: the exact picture in the first frame', async () => {
  await gotoAndSettle(page, `${server.companionUrl}?${HEAVY}&lc.seed=2`);
  const before = await canvases();
  // 15 × L0: every distance is known from 16 × L0 (llama3's schedule does not depend on the length).
  const shown = await afterOneFrame(setSpan(15));
  shown.forEach((panel, j) => {
    assert.equal(panel.resolution, 'full');
    assert.equal(panel.drawn, before[j].drawn + 1, 'drawn once, with no preview');
  });
  await waitForIdle(page);
  assert.deepEqual(
    (await canvases()).map((c) => c.drawn),
    shown.map((c) => c.drawn),
  );
  await checkPanels(page, 'llama3.1', { span: 15, cells: 512, seed: 2 });
  // Back to 16 × L0 (the scores kept), then the cells: each the exact picture.
  await afterOneFrame(setSpan(16));
  await waitForIdle(page);
  await checkPanels(page, 'llama3.1', { span: 16, cells: 512, seed: 2 });
  await page.locator('#ctl-lc-cells').fill('300');
  await page.locator('#ctl-lc-cells').press('Enter');
  await waitForIdle(page);
  await checkPanels(page, 'llama3.1', { span: 16, cells: 300, seed: 2 });
});

test('a schedule that depends on the length (dynamic) gets new scores at a new span', async () => {
  await gotoAndSettle(page, `${server.companionUrl}?lc.preset=dynamic&lc.span=3`);
  await checkPanels(page, 'dynamic', { span: 3 });
  await afterOneFrame(setSpan(4));
  await waitForIdle(page);
  await checkPanels(page, 'dynamic', { span: 4 });
  await afterOneFrame(setSpan(3));
  await waitForIdle(page);
  await checkPanels(page, 'dynamic', { span: 3 });
});

test('a change during a redraw supersedes it: the newest settings, exact, and nothing after', async () => {
  await gotoAndSettle(page, `${server.companionUrl}?${HEAVY}`);
  // Three new q and k, each one frame after the last: the first two redraws are still refining.
  const seen = [];
  for (let i = 0; i < 3; i++) seen.push((await afterOneFrame(REROLL))[0].resolution);
  assert.deepEqual(seen, ['preview', 'preview', 'preview']);
  await waitForIdle(page);
  const settled = await canvases();
  assert.deepEqual(
    settled.map((c) => c.resolution),
    ['full', 'full'],
  );
  await page.waitForTimeout(300);
  assert.deepEqual(await canvases(), settled, 'no draw after the page settled');
  await checkPanels(page, 'llama3.1', { span: 16, cells: 512, seed: 4 });
});
