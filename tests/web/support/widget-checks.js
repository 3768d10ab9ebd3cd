// The checks every posenc element on the widgets gallery passes the same way: dark mode (the
// system setting and the theme attribute), axe-core in light and dark mode, and a 375-px phone
// width without horizontal overflow. Registered as tests by the element's own test file.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blockingViolations } from './axe.js';
import { gotoAndSettle, openPage, waitForIdle } from './browser.js';

const DARK = 'rgb(20, 23, 27)';
const LIGHT = 'rgb(255, 255, 255)';

/** session: the gallery session (useGallerySession); selector: the element; section: its gallery section. */
export function galleryElementChecks(session, { selector, section }) {
  test('dark mode: the system setting, and the theme attribute', async () => {
    const { browser, page, galleryUrl } = await session;
    const background = (target) => target.locator(selector).evaluate((node) => getComputedStyle(node).backgroundColor);
    const dark = await openPage(browser, { colorScheme: 'dark' });
    await gotoAndSettle(dark.page, galleryUrl);
    assert.equal(await background(dark.page), DARK);
    assert.deepEqual(dark.log.errors, []);
    await dark.context.close();
    await page.locator(selector).evaluate((node) => node.setAttribute('theme', 'dark'));
    assert.equal(await background(page), DARK);
    await page.locator(selector).evaluate((node) => node.removeAttribute('theme'));
    assert.equal(await background(page), LIGHT);
  });

  for (const colorScheme of ['light', 'dark']) {
    test(`axe-core: no serious or critical violation in the element (${colorScheme} mode)`, async () => {
      const { browser, galleryUrl } = await session;
      const fresh = await openPage(browser, { bypassCSP: true, colorScheme });
      await gotoAndSettle(fresh.page, galleryUrl);
      const blocking = await blockingViolations(fresh.page, section);
      assert.deepEqual(blocking, [], JSON.stringify(blocking, null, 2));
      assert.deepEqual(fresh.log.errors, []);
      await fresh.context.close();
    });
  }

  test('a 375-px container: no horizontal overflow, and no request beyond the site', async () => {
    const { browser, server, galleryUrl } = await session;
    const phone = await openPage(browser, { width: 375, height: 812, touch: true });
    await gotoAndSettle(phone.page, galleryUrl);
    const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the gallery scrolls sideways by ${overflow} px`);
    const inner = await phone.page.locator(selector).evaluate((node) => ({
      host: node.getBoundingClientRect().width,
      figure: node.shadowRoot.querySelector('figure').scrollWidth,
    }));
    assert.ok(inner.host <= 375 && inner.figure <= inner.host, JSON.stringify(inner));
    assert.ok(phone.log.requests.every((url) => url.startsWith(server.origin)));
    assert.deepEqual(phone.log.errors, []);
    await phone.context.close();
  });
}

/** Sets `attributes` on the element in one go; the posenc-change settings sent within the next two frames. */
export function changesAfter(page, selector, attributes) {
  return page.locator(selector).evaluate(async (node, list) => {
    const seen = [];
    node.addEventListener('posenc-change', (event) => seen.push(event.detail.settings));
    for (const [name, value] of Object.entries(list)) node.setAttribute(name, value);
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return seen;
  }, attributes);
}

/**
 * Applies bad settings ([{ attribute, value } | { property, value }], in order) to the element and
 * waits for its redraw: { thrown (an error's message or null), names (the posenc-invalid events'
 * names, in order), message (the text shown inside the element) }.
 */
export async function problemsAfter(page, selector, steps) {
  const { thrown, names } = await page.locator(selector).evaluate((node, list) => {
    const names = [];
    node.addEventListener('posenc-invalid', (event) => names.push(event.detail.name));
    try {
      for (const { attribute, property, value } of list) {
        if (attribute) node.setAttribute(attribute, value);
        else node[property] = value;
      }
    } catch (error) {
      return { thrown: error.message, names };
    }
    return { thrown: null, names };
  }, steps);
  await waitForIdle(page);
  const message = await page.locator(`${selector} [part~="message"]`).textContent();
  return { thrown, names, message };
}
