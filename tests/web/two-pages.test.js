// The tutorial's two pages: the lesson (index.html, the front page) and the advanced companion
// (companion.html). Each mounts its own sections in its own order with no console error, links to
// the other, and the lesson stays within its reading budget at 1280 × 800: at most 4,000 words of
// visible text and 12 screens (9,600 px) of document. A link from before the split, when one page
// held every section, still lands on the section it names, with its settings.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { gotoAndSettle, openPage, waitForIdle } from './support/browser.js';
import { useServedSite } from './support/session.js';

const site = useServedSite();
let browser;
let server;
before(async () => ({ browser, server } = await site));

const LESSON_ORDER = [
  'order',
  'big-picture',
  'naive',
  'sinusoidal',
  'tokens2d',
  'worked-example',
  'relative-distance',
  'bridge',
  'rope',
  'rope-base',
];
const COMPANION_ORDER = [
  'comparison',
  'family',
  'trained-models',
  'long-context',
  'half-precision',
  'gpu-precision',
  'images',
  'dimensions',
  'facts',
];

/**
 * What a reader sees of the page: the words (runs of characters holding a letter; numbers alone
 * are not words) of every text node that is rendered (closed <details> are not, nor hidden
 * elements; shadow roots are walked), KaTeX's MathML copy for screen readers left out; the
 * document's height; and the controls a reader can use.
 */
function measure(page) {
  return page.evaluate(() => {
    let words = 0;
    const walk = (root) => {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.nodeType === Node.ELEMENT_NODE) {
          if (node.shadowRoot) walk(node.shadowRoot);
          continue;
        }
        const parent = node.parentElement;
        if (!parent || parent.closest('script, style, .katex-mathml, title, desc')) continue;
        if (!parent.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true })) continue;
        words += node.data.split(/\s+/).filter((token) => /\p{L}/u.test(token)).length;
      }
    };
    walk(document.body);
    const controls = [...document.querySelectorAll('main input, main select, main textarea, main button')].filter(
      (control) => control.checkVisibility({ visibilityProperty: true }),
    ).length;
    return { words, height: document.documentElement.scrollHeight, controls };
  });
}

async function opened(url, viewport = { width: 1280, height: 800 }) {
  const view = await openPage(browser, viewport);
  await gotoAndSettle(view.page, url);
  return view;
}

const sectionIds = (page) => page.evaluate(() => [...document.querySelectorAll('main > section')].map((s) => s.id));

for (const [name, urlOf, order] of [
  ['lesson', () => server.pageUrl, LESSON_ORDER],
  ['companion', () => server.companionUrl, COMPANION_ORDER],
]) {
  test(`the ${name} mounts its sections, in its order, with no console error`, async (t) => {
    const { page, context, log } = await opened(urlOf());
    try {
      assert.deepEqual(await sectionIds(page), order);
      const mounted = await page.evaluate(() =>
        [...document.querySelectorAll('main > section')].map((s) => s.dataset.mounted),
      );
      assert.deepEqual(
        mounted,
        order.map(() => 'true'),
      );
      assert.equal(await page.locator('#toc li').count(), order.length, 'one table-of-contents entry per section');
      assert.deepEqual(log.errors, []);
      for (const viewport of [
        { width: 1280, height: 800 },
        { width: 390, height: 844 },
      ]) {
        await page.setViewportSize(viewport);
        await waitForIdle(page);
        const { words, height, controls } = await measure(page);
        t.diagnostic(
          `${name} at ${viewport.width}×${viewport.height}: ${words} words, ${height} px, ${controls} controls`,
        );
        assert.ok(controls > 0, 'the page has controls');
        if (name === 'lesson' && viewport.width === 1280) {
          // The reading budget: 4,000 words and 12 screens of 800 px.
          assert.ok(words <= 4000, `the lesson has ${words} words of visible text (at most 4,000)`);
          assert.ok(height <= 12 * 800, `the lesson is ${height} px tall at 1280 × 800 (at most 9,600)`);
        }
      }
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  });
}

test('each page links to the other near the top and beside the table of contents', async () => {
  for (const [from, to, title] of [
    [server.pageUrl, server.companionUrl, /advanced companion/],
    [server.companionUrl, `${server.pageUrl}index.html`, /Positional encodings, computed live/],
  ]) {
    const { page, context, log } = await opened(from);
    try {
      const header = page.locator('.page-header > p a.other-page');
      const beside = page.locator('nav a.other-page');
      assert.equal(await header.count(), 1, `${from}: one link to the other page in the header`);
      assert.equal(await beside.count(), 1, `${from}: one link to the other page beside the table of contents`);
      for (const link of [header, beside]) {
        assert.equal(await link.evaluate((a) => a.href), to);
        assert.ok(await link.isVisible());
      }
      // The link's target in the page: its header is seen in the first screen.
      const top = await header.evaluate((a) => a.getBoundingClientRect().bottom);
      assert.ok(top < 800, `the header's link to the other page is ${top} px down`);
      await beside.click();
      await page.waitForURL(to);
      await waitForIdle(page);
      assert.match(await page.title(), title);
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  }
});

test('a link from before the split that names a moved section lands on the companion, query and hash kept', async () => {
  const { page, context, log } = await opened(`${server.pageUrl}?fam.n=64&pe.base=500#family`);
  try {
    const url = new URL(page.url());
    assert.equal(url.pathname, new URL(server.companionUrl).pathname);
    assert.equal(url.hash, '#family');
    assert.equal(url.searchParams.get('fam.n'), '64', 'the companion uses its own setting');
    assert.equal(await page.locator('#ctl-fam-n').inputValue(), '64');
    // The lesson's setting is not the companion's: not used, not called a problem, and carried
    // by the links back to the lesson.
    assert.equal(await page.locator('#url-problems').isHidden(), true, 'no problem box');
    for (const href of await page.locator('a.other-page').evaluateAll((links) => links.map((a) => a.href)))
      assert.equal(new URL(href).search, '?pe.base=500');
    const top = await page.locator('#family').evaluate((section) => section.getBoundingClientRect().top);
    assert.ok(Math.abs(top) < 40, `the companion opens at #family (its top is at ${top} px)`);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('a link to the front page with only companion settings goes there; a lesson section stays on the lesson', async () => {
  {
    const { page, context, log } = await opened(`${server.pageUrl}?lc.preset=dynamic`);
    try {
      assert.equal(new URL(page.url()).pathname, new URL(server.companionUrl).pathname);
      assert.equal(new URL(page.url()).search, '?lc.preset=dynamic');
      assert.equal(await page.locator('#url-problems').isHidden(), true);
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  }
  {
    // An old permalink of the one long page, settings of both pages and a lesson section's hash.
    const { page, context, log } = await opened(`${server.pageUrl}?pe.base=500&fam.n=64#sinusoidal`);
    try {
      const url = new URL(page.url());
      assert.equal(url.pathname, new URL(server.pageUrl).pathname, 'stays on the lesson');
      assert.equal(url.search, '?pe.base=500', 'the address keeps the lesson’s own settings');
      assert.equal(await page.locator('#url-problems').isHidden(), true, 'the companion’s setting is no problem');
      for (const href of await page.locator('a.other-page').evaluateAll((links) => links.map((a) => a.href)))
        assert.equal(new URL(href).searchParams.get('fam.n'), '64', 'the links to the companion carry its setting');
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  }
  {
    // The companion sends a lesson section's link to the lesson; an unknown setting is still reported.
    const { page, context } = await opened(`${server.companionUrl}?nonsense=1#rope`);
    try {
      const url = new URL(page.url());
      assert.equal(url.pathname, new URL('index.html', server.pageUrl).pathname);
      assert.equal(url.hash, '#rope');
      assert.match(await page.locator('#url-problems').textContent(), /unknown setting "nonsense"/);
    } finally {
      await context.close();
    }
  }
});
