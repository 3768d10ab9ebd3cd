// The tutorial's two pages (the lesson and the companion) for readers who use assistive
// technology or dark mode: axe-core finds no serious or critical violation on either, in light or
// dark mode, at a desktop's and a phone's size, and dark mode really is dark and legible.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { axeViolations, blocking } from './support/axe.js';
import { gotoAndSettle, openPage } from './support/browser.js';
import { contrast } from './support/colors.js';
import { useServedSite } from './support/session.js';

const site = useServedSite();
let browser;
let server;
before(async () => ({ browser, server } = await site));

const PAGES = { lesson: () => server.pageUrl, companion: () => server.companionUrl };

for (const [name, urlOf] of Object.entries(PAGES))
  for (const colorScheme of ['light', 'dark']) {
    test(`axe-core: no serious or critical violation (the ${name}, ${colorScheme} mode)`, async (t) => {
      // bypassCSP: axe is injected as an inline script, which the page's policy rightly forbids.
      const { page, log, context } = await openPage(browser, { bypassCSP: true, colorScheme });
      await gotoAndSettle(page, urlOf());
      const results = await axeViolations(page);
      const counts = {};
      for (const { impact } of results) counts[impact] = (counts[impact] ?? 0) + 1;
      t.diagnostic(`${colorScheme}: violations by impact ${JSON.stringify(counts)}`);
      for (const { id, impact, nodes } of results) t.diagnostic(`  ${impact} ${id}: ${nodes.join(' | ')}`);
      const found = blocking(results);
      assert.deepEqual(found, [], JSON.stringify(found, null, 2));
      assert.deepEqual(log.errors, []);
      await context.close();
    });
  }

// The wide formulas and tables that must wrap or stack on a phone, each on one of the two pages.
const WIDE = ['#bridge-shift-formula', '#rope-formula', '#rope-shift-demo .table-scroll', '#images > .formula'];
const formulasSeen = new Set();
let captionsSeen = 0;

for (const [name, urlOf] of Object.entries(PAGES))
  test(`a 390 × 844 phone (the ${name}): no serious axe violation, no formula or table cut off, captions as wide as their tables`, async (t) => {
    const { page, log, context } = await openPage(browser, { width: 390, height: 844, touch: true, bypassCSP: true });
    await gotoAndSettle(page, urlOf());
    const found = blocking(await axeViolations(page));
    assert.deepEqual(found, [], JSON.stringify(found, null, 2));
    const boxes = await page.evaluate((wide) => {
      const wider = [];
      const walk = (root) => {
        for (const node of root.querySelectorAll('*')) {
          if (node.shadowRoot) walk(node.shadowRoot);
          // KaTeX's MathML copy is clipped to 1 px for screen readers; a stacked table's header too.
          if (node.closest('.katex-mathml') || node.clientWidth <= 1) continue;
          if (getComputedStyle(node).overflowX === 'visible' || node.scrollWidth <= node.clientWidth + 1) continue;
          const label = node.id ? `#${node.id}` : `${node.localName}.${[...node.classList].join('.')}`;
          wider.push({ label, scroll: node.scrollWidth, box: node.clientWidth, focusable: node.tabIndex >= 0 });
        }
      };
      walk(document);
      const fits = (selector) => {
        const node = document.querySelector(selector);
        return node && { selector, scroll: node.scrollWidth, box: node.clientWidth };
      };
      return {
        page: document.documentElement.scrollWidth,
        wider,
        formulas: wide.map(fits).filter(Boolean),
        captions: [...document.querySelectorAll('caption')].map((caption) => ({
          text: caption.textContent.slice(0, 40),
          width: caption.getBoundingClientRect().width,
          table: caption.closest('table').getBoundingClientRect().width,
        })),
      };
    }, WIDE);
    for (const box of boxes.wider) t.diagnostic(`scrolls sideways: ${JSON.stringify(box)}`);
    assert.ok(boxes.page <= 390, `the page is ${boxes.page} px wide`);
    // Where scrolling is the only way to show a line (code), a keyboard can scroll it.
    assert.deepEqual(
      boxes.wider.filter(({ focusable }) => !focusable),
      [],
      'a box that scrolls sideways and cannot take focus',
    );
    // The formulas and the shift table wrap or stack instead.
    for (const { selector, scroll, box } of boxes.formulas) {
      formulasSeen.add(selector);
      assert.ok(scroll <= box + 1, `${selector}: ${scroll} px in ${box}`);
    }
    captionsSeen += boxes.captions.length;
    for (const { text, width, table } of boxes.captions)
      assert.ok(width >= Math.min(table, 300) - 1, `caption “${text}…”: ${width} px over a ${table}-px table`);
    assert.deepEqual(log.errors, []);
    await context.close();
  });

test('the phone checks saw every wide formula and the tables with captions, on one page or the other', () => {
  assert.deepEqual([...formulasSeen].sort(), [...WIDE].sort());
  assert.ok(captionsSeen >= 2, 'the tables with captions');
});

/** Chromium's own accessibility tree of a page (what a screen reader is given), as [{ role, name }]. */
async function accessibilityTree(page) {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  await cdp.detach();
  return nodes
    .filter((node) => !node.ignored)
    .map((node) => ({ role: node.role?.value, name: node.name?.value ?? '' }));
}

for (const [name, urlOf] of Object.entries(PAGES))
  test(`numbered headings are announced with their numbers (the ${name})`, async () => {
    const { page, log, context } = await openPage(browser);
    await gotoAndSettle(page, urlOf());
    const tree = await accessibilityTree(page);
    const seen = await page
      .locator('main > section > h2')
      .evaluateAll((headings) => headings.map((heading) => heading.textContent.replace(/\s+/g, ' ').trim()));
    const announced = tree.filter(({ role }) => role === 'heading').map(({ name }) => name);
    assert.ok(seen.length >= 8, `${seen.length} numbered sections`);
    seen.forEach((text, i) => {
      assert.match(text, new RegExp(`^${i + 1}\\. \\S`), `heading ${i + 1} as the reader sees it`);
      assert.ok(announced.includes(text), `announced as “${text}”`);
    });
    const first = name === 'lesson' ? '1. Why order matters' : '1. The three encodings compared';
    assert.ok(announced.includes(first), announced.slice(0, 3).join(' | '));
    assert.deepEqual(log.errors, []);
    await context.close();
  });

test('every figure has an accessible name', async () => {
  const figures = [];
  for (const urlOf of Object.values(PAGES)) {
    const { page, log, context } = await openPage(browser);
    await gotoAndSettle(page, urlOf());
    figures.push(...(await accessibilityTree(page)).filter(({ role }) => role === 'figure'));
    assert.deepEqual(log.errors, []);
    await context.close();
  }
  assert.ok(figures.length >= 40, `${figures.length} figures on the two pages`);
  assert.deepEqual(
    figures.filter(({ name }) => !name.trim()),
    [],
    'figures without an accessible name',
  );
});

test('dark mode follows prefers-color-scheme: dark page, legible text, visible curves', async () => {
  // The companion: it has the long-context curves.
  const { page, log, context } = await openPage(browser, { colorScheme: 'dark' });
  await gotoAndSettle(page, server.companionUrl);
  const colours = await page.evaluate(() => {
    const style = (selector, property) => getComputedStyle(document.querySelector(selector))[property];
    const series = document.querySelector('figure[data-plot="long-context-wavelengths"] path.series');
    return {
      background: style('body', 'backgroundColor'),
      text: style('body', 'color'),
      muted: style('.engine-status', 'color'),
      link: style('a[href="#comparison"]', 'color'),
      plot: style('.plot-area', 'backgroundColor'),
      curve: getComputedStyle(series).stroke,
    };
  });
  const [r, g, b] = colours.background.match(/\d+/g).map(Number);
  assert.ok(r + g + b < 120, `a dark background (${colours.background})`);
  assert.ok(contrast(colours.text, colours.background) >= 7, `text ${colours.text}`);
  assert.ok(contrast(colours.muted, colours.background) >= 4.5, `muted text ${colours.muted}`);
  assert.ok(contrast(colours.link, colours.background) >= 4.5, `links ${colours.link}`);
  assert.equal(colours.plot, colours.background, 'plots sit on the page background');
  assert.ok(contrast(colours.curve, colours.background) >= 3, `the 'no scaling' curve ${colours.curve}`);
  assert.deepEqual(log.errors, []);
  await context.close();
});
