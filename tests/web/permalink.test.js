// The permalink always reopens what the page shows: text cut to its limit is cut between
// characters and said so.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { gotoAndSettle, openPage, waitForIdle } from './support/browser.js';
import { useServedSite } from './support/session.js';

const site = useServedSite();
let browser;
let server;
before(async () => ({ browser, server } = await site));

test('text longer than its limit is cut between characters, with a note naming the setting and the limit', async () => {
  const { page, context } = await openPage(browser);
  await gotoAndSettle(page, server.pageUrl);
  const a = page.locator('#ctl-order-a');
  const note = page.locator('#ctl-order-a-note');
  const words = Array.from({ length: 12 }, (_, i) => `extraordinary${i}`); // 12 words, 167 characters
  await a.fill(words.join(' '));
  await page.locator('#ctl-order-b').fill(words.toReversed().join(' '));
  await waitForIdle(page);
  assert.equal(await a.inputValue(), words.join(' ').slice(0, 120));
  assert.equal(await note.textContent(), 'order.a holds at most 120 characters; the text was cut to that length.');
  assert.equal(
    await page.locator('#ctl-order-b-note').textContent(),
    'order.b holds at most 120 characters; the text was cut to that length.',
  );

  // A script setting .value: cut before a surrogate pair that the limit would split.
  await page.evaluate(() => {
    const input = document.getElementById('ctl-order-a');
    input.value = `cats ${'😀'.repeat(100)}`;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  const expected = `cats ${'😀'.repeat(57)}`; // 119 code units: the 58th emoji would need units 120 and 121
  await page.waitForFunction((text) => new URL(location.href).searchParams.get('order.a') === text, expected);
  assert.equal(await a.inputValue(), expected);
  assert.equal(await note.textContent(), 'order.a holds at most 120 characters; the text was cut to that length.');
  await a.fill('The cat sat');
  assert.equal(await note.textContent(), '', 'the note goes with the cut text');
  await context.close();
});
