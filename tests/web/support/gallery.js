// What the tests of the widgets gallery's elements (web/widgets.html) share: axe-core on a fresh
// page in light or dark mode, a 375-px phone screen, dark mode, setting an element's attributes
// and bad values, and the checks every element passes alike (galleryElementChecks).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { axeViolations, blocking } from './axe.js';
import { gotoAndSettle, openPage, waitForIdle } from './browser.js';

/**
 * Asserts axe-core finds no serious or critical violation on a fresh page at `url` (within the
 * CSS selector `within`, or the whole page) and the page logs no console error.
 */
export async function assertAccessible(browser, url, { colorScheme, within = null }) {
  // bypassCSP: axe is injected as an inline script, which the page's policy rightly forbids.
  const fresh = await openPage(browser, { bypassCSP: true, colorScheme });
  await gotoAndSettle(fresh.page, url);
  const found = blocking(await axeViolations(fresh.page, within));
  await fresh.context.close();
  assert.deepEqual(found, [], JSON.stringify(found, null, 2));
  assert.deepEqual(fresh.log.errors, []);
}

/**
 * Asserts the gallery on a 375-px touch screen does not scroll sideways, the elements (CSS
 * selectors) and all their parts fit, no request leaves `origin` and no console error is logged.
 */
export async function assertFitsPhone(browser, url, { selectors, origin }) {
  const phone = await openPage(browser, { width: 375, height: 812, touch: true });
  await gotoAndSettle(phone.page, url);
  const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  const boxes = [];
  for (const selector of selectors) {
    const box = await phone.page.locator(selector).evaluate((node) => ({
      width: node.getBoundingClientRect().width,
      right: Math.max(...[...node.shadowRoot.querySelectorAll('*')].map((n) => n.getBoundingClientRect().right)),
    }));
    boxes.push({ selector, ...box });
  }
  await phone.context.close();
  assert.ok(overflow <= 0, `the gallery scrolls sideways by ${overflow} px`);
  for (const { selector, width, right } of boxes)
    assert.ok(width <= 375 && right <= 375, `${selector} is ${width} px wide, reaching ${right} px`);
  assert.deepEqual(
    phone.log.requests.filter((request) => !request.startsWith(origin)),
    [],
  );
  assert.deepEqual(phone.log.errors, []);
}

/**
 * Records the element's posenc-pick details from now on; returns an async function that gives
 * the last one (null when the pointer left; undefined before any).
 */
export async function recordPicks(page, selector) {
  const key = `posenc-picks ${selector}`;
  await page.locator(selector).evaluate((node, name) => {
    window[name] = [];
    node.addEventListener('posenc-pick', (event) => window[name].push(event.detail));
  }, key);
  return () => page.evaluate((name) => window[name].at(-1), key);
}

/** Sets attributes on the element at `selector` and waits for its redraw. */
export async function setAttributes(page, selector, attributes) {
  await page.locator(selector).evaluate((node, list) => {
    for (const [name, value] of Object.entries(list)) node.setAttribute(name, value);
  }, attributes);
  await waitForIdle(page);
}

/**
 * Sets attributes (`{ name: value }`) in one task and returns the `posenc-change` details sent in
 * the next two frames (one redraw expected).
 */
export function changesFrom(page, selector, attributes) {
  return page.locator(selector).evaluate(async (node, list) => {
    const seen = [];
    node.addEventListener('posenc-change', (event) => seen.push(event.detail.settings));
    for (const [name, value] of Object.entries(list)) node.setAttribute(name, value);
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return seen;
  }, attributes);
}

/**
 * Applies `steps` ([['attribute' | 'property', name, value], ...]) in order and returns what was
 * thrown (null, as it should be) and the `posenc-invalid` details sent; waits for the redraw.
 */
export async function applyBadValues(page, selector, steps) {
  const result = await page.locator(selector).evaluate((node, list) => {
    const events = [];
    node.addEventListener('posenc-invalid', (event) => events.push(event.detail));
    let thrown = null;
    try {
      for (const [kind, name, value] of list) {
        if (kind === 'attribute') node.setAttribute(name, value);
        else node[name] = value;
      }
    } catch (error) {
      thrown = error.message;
    }
    return { thrown, events };
  }, steps);
  await waitForIdle(page);
  return result;
}

/** The element's toPNG(): { type, width, height } of the decoded image. */
export function pngOf(page, selector) {
  return page.locator(selector).evaluate(async (node) => {
    const blob = await node.toPNG();
    const bitmap = await createImageBitmap(blob);
    return { type: blob.type, width: bitmap.width, height: bitmap.height };
  });
}

/**
 * Asserts the element follows dark mode: the system setting on a fresh page at `url` (background
 * and the (first) title in the dark palette; theme="light" overrides it), and on `page` the theme
 * attribute, then back to light without it.
 */
export async function assertDarkMode(browser, page, url, selector) {
  const background = (target) => target.locator(selector).evaluate((node) => getComputedStyle(node).backgroundColor);
  const dark = await openPage(browser, { colorScheme: 'dark' });
  await gotoAndSettle(dark.page, url);
  assert.equal(await background(dark.page), 'rgb(20, 23, 27)');
  const title = await dark.page
    .locator(`${selector} [part~="title"]`)
    .first()
    .evaluate((node) => getComputedStyle(node).color);
  assert.equal(title, 'rgb(227, 231, 236)');
  await dark.page.locator(selector).evaluate((node) => node.setAttribute('theme', 'light'));
  assert.equal(await background(dark.page), 'rgb(255, 255, 255)');
  assert.deepEqual(dark.log.errors, []);
  await dark.context.close();
  await page.locator(selector).evaluate((node) => node.setAttribute('theme', 'dark'));
  assert.equal(await background(page), 'rgb(20, 23, 27)');
  await page.locator(selector).evaluate((node) => node.removeAttribute('theme'));
  assert.equal(await background(page), 'rgb(255, 255, 255)');
}

/**
 * Applies bad settings ([{ attribute, value } | { property, value }], in order) and waits for the
 * redraw: { thrown (null, as it should be), names (of the posenc-invalid events), message (shown inside) }.
 */
export async function problemsAfter(page, selector, steps) {
  const list = steps.map(({ attribute, property, value }) =>
    attribute ? ['attribute', attribute, value] : ['property', property, value],
  );
  const { thrown, events } = await applyBadValues(page, selector, list);
  const message = await page.locator(`${selector} [part~="message"]`).textContent();
  return { thrown, names: events.map((event) => event.name), message };
}

/**
 * Asserts `theme` is held to its values like every setting, as an attribute and as a property: a
 * bad one is named inside the element, warned about once and sent as posenc-invalid; the
 * attribute's falls back to the default (the system's scheme, light here), the property's leaves
 * the theme as it was, and neither styles anything (no red text from `dark;color:red`).
 */
export async function assertThemeValidated(page, log, selector) {
  const looks = () =>
    page.locator(selector).evaluate((node) => {
      const style = getComputedStyle(node);
      return { background: style.backgroundColor, color: style.color, theme: node.theme };
    });
  const [light, dark] = [
    { background: 'rgb(255, 255, 255)', color: 'rgb(29, 35, 43)' },
    { background: 'rgb(20, 23, 27)', color: 'rgb(227, 231, 236)' },
  ];
  await setAttributes(page, selector, { theme: 'dark' });
  assert.deepEqual(await looks(), { ...dark, theme: 'dark' });
  const attribute = await problemsAfter(page, selector, [{ attribute: 'theme', value: 'dark;color:red' }]);
  assert.deepEqual({ thrown: attribute.thrown, names: attribute.names }, { thrown: null, names: ['theme'] });
  assert.match(
    attribute.message,
    /theme="dark;color:red" is not one of system, light, dark; using the default system\./,
  );
  assert.deepEqual(await looks(), { ...light, theme: 'system' });
  await page.locator(selector).evaluate((node) => {
    node.theme = 'dark';
  });
  assert.equal(await page.locator(selector).getAttribute('theme'), 'dark');
  assert.equal(await page.locator(`${selector} [part~="message"]`).isHidden(), true);
  const property = await problemsAfter(page, selector, [{ property: 'theme', value: 'sideways' }]);
  assert.deepEqual({ thrown: property.thrown, names: property.names }, { thrown: null, names: ['theme'] });
  assert.match(
    property.message,
    /theme = "sideways" \(a string\) cannot be used \(it is not one of system, light, dark\); it stays dark\./,
  );
  assert.deepEqual(await looks(), { ...dark, theme: 'dark' });
  assert.equal(await page.locator(selector).getAttribute('theme'), 'dark');
  assert.equal(log.warnings.filter((text) => text.includes('theme = "sideways"')).length, 1);
  await page.locator(selector).evaluate((node) => node.removeAttribute('theme'));
  assert.equal(await page.locator(`${selector} [part~="message"]`).isHidden(), true);
  assert.deepEqual(await looks(), { ...light, theme: 'system' });
}

/**
 * Registers the tests every gallery element passes alike: dark mode (system setting and theme
 * attribute), a bad theme reported like every setting, axe-core within its gallery `section` (null: the whole gallery) in light and dark
 * mode, a 375-px phone (the element and `others` of its section). `session`: the gallery session
 * (useGallerySession).
 */
export function galleryElementChecks(session, { selector, section, others = [] }) {
  test('dark mode: the system setting, and the theme attribute', async () => {
    const { browser, page, galleryUrl } = await session;
    await assertDarkMode(browser, page, galleryUrl, selector);
  });
  test('theme: a bad value, attribute or property, is reported like every setting and styles nothing', async () => {
    const { page, log } = await session;
    await assertThemeValidated(page, log, selector);
  });
  for (const colorScheme of ['light', 'dark']) {
    test(`axe-core: no serious or critical violation ${section ? 'in the element' : 'on the whole gallery'} (${colorScheme} mode)`, async () => {
      const { browser, galleryUrl } = await session;
      await assertAccessible(browser, galleryUrl, { colorScheme, within: section });
    });
  }
  test('a 375-px phone: no horizontal overflow, and no request beyond the site', async () => {
    const { browser, server, galleryUrl } = await session;
    await assertFitsPhone(browser, galleryUrl, { selectors: [selector, ...others], origin: server.origin });
  });
}
