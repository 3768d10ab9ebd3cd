// Read-outs never show the numbers of a cell that is no longer drawn: after a control changes the
// picture, a heatmap's read-out (and the section read-outs that follow it) shows the same cell's
// new numbers, or the instruction again when the cell is gone. (They used to keep the old text:
// "dimension 38" after d_model became 16, "m = 115" after N became 16.)
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { gotoAndSettle, openPage, waitForIdle } from './support/browser.js';
import { useServedSite } from './support/session.js';

const site = useServedSite();
let browser;
let server;
before(async () => ({ browser, server } = await site));

/** Points at the cell at fractions (x, y) of a heatmap's cells. */
async function pointAt(page, cells, x, y) {
  await cells.scrollIntoViewIfNeeded();
  const box = await cells.boundingBox();
  await page.mouse.move(box.x + x * box.width, box.y + y * box.height);
}

async function setNumber(page, id, value) {
  await page.locator(id).fill(String(value));
  await page.locator(id).press('Enter');
  await waitForIdle(page);
}

test('§3: the read-out beside the table forgets a cell the new table does not have', async () => {
  const { page, context, log } = await openPage(browser, { width: 1280, height: 900 });
  await gotoAndSettle(page, server.pageUrl);
  await pointAt(page, page.locator('figure[data-plot="sinusoidal-table"] canvas.heatmap-cells'), 0.3, 0.4);
  const before = await page.locator('#pe-readout').textContent();
  assert.match(before, /^position \d+, dimension 3\d/);
  await page.mouse.move(5, 5); // the pointer leaves: the cell stays read
  assert.equal(await page.locator('#pe-readout').textContent(), before);
  await setNumber(page, '#ctl-pe-d', 16);
  const after = await page.locator('#pe-readout').textContent();
  assert.doesNotMatch(after, /dimension/, after);
  assert.doesNotMatch(await page.locator('#pe-hover-formula').textContent(), /PE/);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('family and long context: a shared read-out forgets a cell the new panels do not have', async () => {
  const { page, context, log } = await openPage(browser, { width: 1280, height: 900 });
  await gotoAndSettle(page, server.companionUrl);
  for (const [plot, readout, control, value] of [
    ['attention-none', '#fam-readout', '#ctl-fam-n', 16],
    ['long-context-plain', '#lc-readout', '#ctl-lc-cells', 32],
  ]) {
    const cells = page.locator(`figure[data-plot="${plot}"] canvas.heatmap-cells`);
    await cells.scrollIntoViewIfNeeded();
    await pointAt(page, cells, 0.9, 0.9);
    assert.match(await page.locator(readout).textContent(), /^(\S+ )*m = \d/, plot);
    await setNumber(page, control, value);
    assert.doesNotMatch(await page.locator(readout).textContent(), /m = \d/, `${plot} after ${control}`);
  }
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('a cell that is still drawn is read again with its new numbers (family, after a re-roll)', async () => {
  const { page, context, log } = await openPage(browser, { width: 1280, height: 900 });
  await gotoAndSettle(page, `${server.companionUrl}?fam.content=tokens`);
  // The pointer rests on a cell while the keyboard re-rolls the contents.
  await pointAt(page, page.locator('figure[data-plot="attention-rope"] canvas.heatmap-cells'), 0.5, 0.7);
  const before = await page.locator('#fam-readout').textContent();
  const cell = before.match(/^m = \d+, n = \d+ /)?.[0];
  assert.ok(cell, before);
  await page.locator('#fam-reroll').focus();
  await page.keyboard.press('Enter');
  await waitForIdle(page);
  const after = await page.locator('#fam-readout').textContent();
  assert.ok(after.startsWith(cell), after);
  assert.notEqual(after, before, 'the numbers of the new contents');
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('every heatmap on the page: after its picture changes, its read-out names no cell outside it', async () => {
  const { page, context, log } = await openPage(browser, { width: 1280, height: 900 });
  await gotoAndSettle(page, server.pageUrl);
  // §1: a read cell of a 6-word sentence, then a 2-word sentence.
  const order = page.locator('figure[data-plot="order-a-plain"]');
  await order.scrollIntoViewIfNeeded();
  await pointAt(page, order.locator('canvas.heatmap-cells'), 0.95, 0.95);
  assert.match(await order.locator('.readout').textContent(), /mat/);
  await page.locator('#ctl-order-a').fill('a b');
  await waitForIdle(page);
  assert.doesNotMatch(await order.locator('.readout').textContent(), /mat/);
  assert.deepEqual(log.errors, []);
  await context.close();
});
