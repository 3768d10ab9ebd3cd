// User-typed text is data, never markup or code: markup and script typed into every text
// field of the page must not execute, must not add elements, and must leave a working page.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { gotoAndSettle, openPage, waitForIdle } from './support/browser.js';
import { useServedSite } from './support/session.js';

const PAYLOADS = [
  '<img src=x onerror="window.__pwned = 1">',
  '<script>window.__pwned = 2</script>',
  '"><svg onload="window.__pwned = 3">',
  "'); window.__pwned = 4; ('",
  'javascript:window.__pwned = 5',
  '<b>bold</b> 1, 2, 3',
];

const site = useServedSite();
let browser;
let server;
before(async () => ({ browser, server } = await site));

test('markup and script typed into every text input never execute or inject elements', async () => {
  const { page, log, context } = await openPage(browser);
  await gotoAndSettle(page, server.pageUrl);
  const fields = await page.locator('input[type="text"], input:not([type]), textarea').all();
  assert.ok(fields.length >= 5, `found ${fields.length} text fields`);
  const elementsBefore = await page.evaluate(() => document.querySelectorAll('img, script, svg, b, iframe').length);

  for (const [index, field] of fields.entries()) {
    if (!(await field.isVisible()) || !(await field.isEditable())) continue;
    const original = await field.inputValue();
    for (const payload of PAYLOADS) {
      await field.fill(payload);
      await field.press('Enter');
      await waitForIdle(page);
    }
    await field.fill(original);
    await field.press('Enter');
    await waitForIdle(page);
    const pwned = await page.evaluate(() => window.__pwned);
    assert.equal(pwned, undefined, `field #${index} (${await field.getAttribute('id')}) executed a payload`);
  }

  const elementsAfter = await page.evaluate(() => document.querySelectorAll('img, script, svg, b, iframe').length);
  assert.equal(elementsAfter, elementsBefore, 'no element was injected');
  // Typed text shows up as text where the page echoes it (e.g. the sentence's tokens).
  assert.deepEqual(log.errors, [], 'no console errors (a CSP violation would be one)');
  // The page still computes: the sinusoidal heatmap is drawn.
  assert.equal(
    await page.locator('figure[data-plot="sinusoidal-table"] canvas.heatmap-cells').getAttribute('data-rows'),
    '128',
  );
  await context.close();
});
