// Keyboard-only use of every control (the page's quality bar): Tab reaches each one, in page order,
// and each one works from the keyboard alone: sliders with the arrow keys, radio groups with the
// arrow keys, drop-down lists with the arrow keys, buttons with Enter, heatmaps' read-outs with the
// arrow keys. Generic over the page: a section added later is covered without a change here.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { waitForIdle } from './support/browser.js';
import { usePageSession } from './support/session.js';

const session = usePageSession();
let page;
before(async () => ({ page } = await session));

/** What is reachable by Tab: enabled, visible (not in a closed <details>), not tabindex -1 (a radio group is one stop). */
async function tabbableIds() {
  return page.evaluate(() =>
    [...document.querySelectorAll('main input, main select, main button, main textarea, main [tabindex="0"]')]
      .filter((node) => !node.disabled && node.tabIndex >= 0 && node.checkVisibility())
      .filter((node) => node.type !== 'radio' || node.checked)
      .map((node) => node.id || node.getAttribute('aria-label') || node.outerHTML.slice(0, 60)),
  );
}

test('Tab reaches every control of the page, in document order', async () => {
  const expected = await tabbableIds();
  assert.ok(expected.length > 40, `${expected.length} controls`);
  await page.locator('#order').evaluate((node) => node.scrollIntoView());
  await page.evaluate(() => document.activeElement?.blur());
  await page.locator('h1').click(); // start from the top of the page
  const reached = new Set(); // in the order Tab reached them (Sets keep insertion order)
  const missing = () => expected.filter((id) => !reached.has(id));
  for (let i = 0; i < expected.length * 2 + 40 && missing().length > 0; i++) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate(() => {
      const node = document.activeElement;
      return node?.closest('main') ? node.id || node.getAttribute('aria-label') || node.outerHTML.slice(0, 60) : null;
    });
    if (id) reached.add(id);
  }
  assert.deepEqual(missing(), [], 'controls Tab never reached');
  assert.deepEqual(
    [...reached].filter((id) => expected.includes(id)),
    expected,
    'Tab order is the page order',
  );
});

test('every slider moves with the arrow keys and its setting follows in the URL', async () => {
  const sliders = await page.locator('main input[type="range"]').evaluateAll((nodes) => nodes.map((n) => n.id));
  assert.ok(sliders.length > 10, `${sliders.length} sliders`);
  for (const id of sliders) {
    const slider = page.locator(`#${id}`);
    const before = await slider.inputValue();
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    if ((await slider.inputValue()) === before) await page.keyboard.press('ArrowLeft'); // at its maximum
    await waitForIdle(page);
    const after = await slider.inputValue();
    assert.notEqual(after, before, `${id} did not move`);
    const key = id
      .replace(/^ctl-/, '')
      .replace(/-range$/, '')
      .replace('-', '.');
    await page.waitForFunction((k) => new URLSearchParams(location.search).has(k), key, { timeout: 5000 });
    // Back where it was, so the next sliders' limits are the defaults' again.
    await page.keyboard.press(Number(after) > Number(before) ? 'ArrowLeft' : 'ArrowRight');
    await waitForIdle(page);
  }
});

test('radio groups and drop-down lists change with the arrow keys', async () => {
  const groups = await page
    .locator('main fieldset.control-choice')
    .evaluateAll((nodes) => nodes.map((n) => n.id).filter(Boolean));
  assert.ok(groups.length > 5, `${groups.length} radio groups`);
  for (const id of groups) {
    const checked = page.locator(`#${id} input[type="radio"]:checked`);
    const before = await checked.getAttribute('value');
    await checked.focus();
    await page.keyboard.press('ArrowDown');
    await waitForIdle(page);
    const after = await page.locator(`#${id} input[type="radio"]:checked`).getAttribute('value');
    assert.notEqual(after, before, `${id}: the arrow key did not change the choice`);
    await page.keyboard.press('ArrowUp');
    await waitForIdle(page);
  }
  const selects = await page.locator('main select').evaluateAll((nodes) => nodes.map((n) => n.id));
  for (const id of selects) {
    const select = page.locator(`#${id}`);
    const before = await select.inputValue();
    await select.focus();
    await page.keyboard.press('ArrowDown');
    await waitForIdle(page);
    assert.notEqual(await select.inputValue(), before, `${id}: the arrow key did not change the option`);
    await page.keyboard.press('ArrowUp');
    await waitForIdle(page);
  }
});

test('buttons work with Enter, and every heatmap reads out cells with the arrow keys', async () => {
  const reroll = page.locator('#rope-reroll');
  await reroll.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('rope.content') === 'random');
  const heatmaps = await page
    .locator('main figure.heatmap:visible')
    .evaluateAll((nodes) => nodes.map((n) => n.dataset.plot));
  assert.ok(heatmaps.length > 5, `${heatmaps.length} heatmaps`);
  for (const plot of heatmaps) {
    const canvas = page.locator(`figure[data-plot="${plot}"] canvas.heatmap-cells`);
    await canvas.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    const cursor = await page.locator(`figure[data-plot="${plot}"]`).evaluate((figure) => {
      const cross = figure.querySelector('.crosshair-x');
      return cross ? !cross.hidden : null;
    });
    assert.equal(cursor, true, `${plot}: no crosshair after the arrow keys`);
    await canvas.blur();
  }
});
