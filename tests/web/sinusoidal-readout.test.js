// §3's read-out and formula stay in view while the heatmap is hovered, without covering the
// hovered cell. Below 1100 px the heatmap is tall and the panel beside it sticks to the top of the
// window (it used to stick over the heatmap's last rows, its x axis and its colour bar: a pointer
// at 95 % of the height landed on the panel, not on the cells); from 1100 px the heatmap stands
// beside the section's text with the panel under it, and both fit in the window together.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { gotoAndSettle, openPage, waitForIdle } from './support/browser.js';
import { useServedSite } from './support/session.js';

const site = useServedSite();
let browser;
let server;
before(async () => ({ browser, server } = await site));

const BESIDE_ITS_PANEL = { width: 1060, height: 900 };
const BESIDE_THE_TEXT = { width: 1280, height: 900 };

for (const [VIEWPORT, where, scroll] of [
  [
    BESIDE_ITS_PANEL,
    'the heatmap’s top 60 px below the window’s',
    (node) => window.scrollBy(0, node.getBoundingClientRect().top - 60),
  ],
  [BESIDE_ITS_PANEL, 'the heatmap’s bottom at the window’s', (node) => node.scrollIntoView({ block: 'end' })],
  [
    BESIDE_THE_TEXT,
    'the heatmap and its panel in the window',
    (node) => node.getRootNode().host.closest('.hover-group').scrollIntoView({ block: 'center' }),
  ],
]) {
  test(`${VIEWPORT.width} × ${VIEWPORT.height}: hovering §3's bottom row with ${where}: the cell is not covered, the read-out and formula are on screen`, async () => {
    const { page, context, log } = await openPage(browser, VIEWPORT);
    await gotoAndSettle(page, server.pageUrl);
    const canvas = page.locator('figure[data-plot="sinusoidal-table"] canvas.heatmap-cells');
    await canvas.evaluate(scroll);
    const box = await canvas.boundingBox();
    const rows = Number(await canvas.getAttribute('data-rows'));
    const y = Math.min(box.y + box.height - (0.5 * box.height) / rows, VIEWPORT.height - 2);
    assert.ok(y > box.y + 0.9 * box.height, `the last rows are in the window (canvas ${JSON.stringify(box)})`);
    const x = box.x + box.width * 0.3;
    // What the pointer is over: the canvas itself (inside the element's shadow root), not the panel.
    const hit = await page.evaluate(
      ([px, py]) => {
        let node = document.elementFromPoint(px, py);
        while (node?.shadowRoot) {
          const inner = node.shadowRoot.elementFromPoint(px, py);
          if (!inner || inner === node) break;
          node = inner;
        }
        return node?.className;
      },
      [x, y],
    );
    assert.match(String(hit), /heatmap-cells/, `the pointer at y ${y} is over “${hit}”`);
    await page.mouse.move(x, y);
    await waitForIdle(page);
    const row = Math.floor(((y - box.y) / box.height) * rows);
    assert.match(await page.locator('#pe-readout').textContent(), new RegExp(`^position ${row}, dimension \\d+`));
    for (const selector of ['#pe-readout', '#pe-hover-formula']) {
      const shown = await page.locator(selector).boundingBox();
      assert.ok(
        shown && shown.y >= 0 && shown.y + shown.height <= VIEWPORT.height,
        `${selector} at ${JSON.stringify(shown)}`,
      );
    }
    assert.match(await page.locator('#pe-hover-formula').textContent(), /sin|cos/);
    assert.deepEqual(log.errors, []);
    await context.close();
  });
}
