// Linked heatmaps (the family's six panels, the comparison's three, long context's two): a tap or
// a click on a second panel reads the cell under the finger in every panel of the group, not
// cell (0, 0) (the panel losing focus hides every crosshair; the one gaining it must restore the
// pressed cell). Touch on a 375-px phone, and the mouse on a desktop without moving it after.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { gotoAndSettle, openPage, waitForIdle } from './support/browser.js';
import { useServedSite } from './support/session.js';

const site = useServedSite();
let browser;
let server;
before(async () => ({ browser, server } = await site));

const AT = [0.3, 0.8]; // (row, column) fractions of the cells where each press lands

/** The cell the press lands on, and presses it (tap or click) on the canvas of figure `plot`. */
async function press(page, plot, touch) {
  const canvas = page.locator(`figure[data-plot="${plot}"] canvas.heatmap-cells`);
  await canvas.scrollIntoViewIfNeeded();
  const [rows, cols] = (await canvas.evaluate((c) => [c.dataset.rows, c.dataset.cols])).map(Number);
  const box = await canvas.boundingBox();
  const [row, col] = [Math.floor(AT[0] * rows), Math.floor(AT[1] * cols)];
  const x = box.x + ((col + 0.5) / cols) * box.width;
  const y = box.y + ((row + 0.5) / rows) * box.height;
  if (touch) await page.touchscreen.tap(x, y);
  else await page.mouse.click(x, y);
  await waitForIdle(page);
  return { row, col, rows, cols };
}

/** Every panel's vertical crosshair sits at the centre of column `col` of its cells. */
async function crosshairsAt(page, plots, { col, cols }) {
  for (const plot of plots) {
    const figure = page.locator(`figure[data-plot="${plot}"]`);
    const canvas = await figure.locator('canvas.heatmap-cells').boundingBox();
    const line = await figure.locator('.crosshair-y').boundingBox();
    assert.ok(line, `${plot}: crosshair hidden`);
    const expected = canvas.x + ((col + 0.5) / cols) * canvas.width;
    assert.ok(
      Math.abs(line.x - expected) < canvas.width / cols,
      `${plot}: crosshair at ${line.x}, cell at ${expected}`,
    );
  }
}

const GROUPS = [
  {
    section: 'family',
    plots: ['attention-none', 'attention-sinusoidal'],
    readout: '#fam-readout',
    expected: ({ row, col }) => new RegExp(`^m = ${row}, n = ${col} \\(`),
  },
  {
    section: 'comparison',
    plots: ['compare-naive', 'compare-sinusoidal'],
    readout: '#cmp-readout',
    expected: ({ row, col }) => new RegExp(`^m = ${row}, n = ${col} \\(`),
  },
];

for (const touch of [true, false]) {
  for (const { section, plots, readout, expected } of GROUPS) {
    test(`${touch ? 'tapping (375-px phone)' : 'clicking (desktop)'} one ${section} panel, then another, then back: each reads the pressed cell`, async () => {
      const { page, context, log } = await openPage(
        browser,
        touch ? { width: 375, height: 812, touch: true } : { width: 1280, height: 900 },
      );
      await gotoAndSettle(page, server.companionUrl);
      for (const plot of [plots[0], plots[1], plots[0]]) {
        const cell = await press(page, plot, touch);
        assert.ok(cell.row > 0 && cell.col > 0, `${plot}: ${cell.rows} × ${cell.cols}`);
        const text = await page.locator(readout).textContent();
        assert.match(text, expected(cell), `${plot}: ${text}`);
        await crosshairsAt(page, plots, cell);
      }
      assert.deepEqual(log.errors, []);
      await context.close();
    });
  }
}

test('long context: clicking the second panel without moving the mouse reads the clicked block', async () => {
  const { page, context, log } = await openPage(browser, { width: 1280, height: 900 });
  await gotoAndSettle(page, server.companionUrl);
  const plots = ['long-context-plain', 'long-context-scaled'];
  for (const plot of [plots[0], plots[1], plots[0]]) {
    const cell = await press(page, plot, false);
    const text = await page.locator(`figure[data-plot="${plot}"] .readout`).textContent();
    assert.doesNotMatch(text, /^query position m 0, key position n 0:/, `${plot}: ${text}`);
    assert.doesNotMatch(await page.locator('#lc-readout').textContent(), /^m = 0…/);
    await crosshairsAt(page, plots, cell);
  }
  assert.deepEqual(log.errors, []);
  await context.close();
});
