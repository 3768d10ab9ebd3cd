// The page's words: the two posts it follows are named by title and author, and the numbers its
// sentences state are the numbers the mathematics gives (recomputed here in float64).
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { gotoAndSettle, openPage, waitForIdle } from './support/browser.js';
import { usePageSession } from './support/session.js';
import { publishedText } from './support/text.js';

const session = usePageSession();
let page;
let log;
before(async () => ({ page, log } = await session));

test('the two posts are named by title and author, and nothing says “seed”', async () => {
  const explained = await page.locator('header #post-explained').textContent();
  assert.match(explained, /“Positional Embeddings\s+Explained”/);
  const jaitly = await page.locator('header #post-jaitly').textContent();
  assert.match(jaitly, /Arnav Jaitly’s “Foundations of Transformer\s+Models — Absolute Positional Embeddings”/);
  // The random contents' re-roll buttons say “New random …”, so no control needs the word either.
  const seeds = async () => (await publishedText(page)).filter(({ text }) => /seed/i.test(text));
  assert.deepEqual(await seeds(), []);
  // The code titles that change with the layouts, too.
  await page.locator('#ctl-pe-layout-concat').check();
  await page.locator('#ctl-rope-layout-half').check();
  await waitForIdle(page);
  assert.deepEqual(await seeds(), []);
  assert.match(await page.locator('#pe-code-title').textContent(), /Positional Embeddings Explained/);
  await page.locator('#ctl-pe-layout-interleaved').check();
  await page.locator('#ctl-rope-layout-interleaved').check();
  await waitForIdle(page);
  assert.deepEqual(log.errors, []);
});

test('RoPE’s angle names its pair: θ_{m,i}, never θ_m', async () => {
  // Every formula's TeX source, as KaTeX keeps it in the MathML annotation (shadow roots too).
  const sources = async () =>
    page.evaluate(() => {
      const found = [];
      const walk = (root) => {
        for (const node of root.querySelectorAll('*')) {
          if (node.shadowRoot) walk(node.shadowRoot);
          if (node.localName === 'annotation') found.push(node.textContent);
        }
      };
      walk(document);
      return found;
    });
  const unindexed = (list) => list.filter((tex) => /\\theta_\{?[mn]\}?(?![,\w])/.test(tex));
  const before = await sources();
  assert.ok(
    before.some((tex) => tex.includes('\\theta_{m,i}')),
    'the angle is written with its pair',
  );
  assert.deepEqual(unindexed(before), []);
  // The rotation's live formula at another pair.
  await page.locator('#ctl-rope-pair').fill('3');
  await waitForIdle(page);
  assert.deepEqual(unindexed(await sources()), []);
});

test('a link to another section reads as part of its sentence, not as an echo of it', async () => {
  // The links within each page and between the two pages, on the lesson and on the companion.
  const { browser, server } = await session;
  const companion = await openPage(browser);
  await gotoAndSettle(companion.page, server.companionUrl);
  const links = [];
  for (const view of [page, companion.page])
    links.push(
      ...(await view.locator('main a[href^="#"]:not([href^="#ctl-"]), main a[href*=".html#"]').evaluateAll((anchors) =>
        anchors.map((a) => {
          const block = a.closest('p, li, td, figcaption') ?? a.parentElement;
          const range = document.createRange();
          range.setStart(block, 0);
          range.setEndBefore(a);
          return {
            text: a.textContent.replace(/\s+/g, ' ').trim(),
            before: range.toString().replace(/\s+/g, ' '),
            after: (a.nextSibling?.textContent ?? '').slice(0, 1),
          };
        }),
      )),
    );
  await companion.context.close();
  assert.ok(links.length >= 5, `${links.length} links between sections`);
  const words = (text) => text.toLowerCase().match(/[a-z]{4,}/g) ?? [];
  for (const { text, before, after } of links) {
    // “… (the sinusoidal encoding)”: a link alone in parentheses is an aside that names the place again.
    assert.ok(!(before.endsWith('(') && after === ')'), `“${before.slice(-40)}${text})”: a link alone in parentheses`);
    // Nor do its words all stand in the sentence just before it.
    const near = new Set(words(before.slice(-60)));
    const own = words(text);
    assert.ok(own.length === 0 || !own.every((w) => near.has(w)), `“${before.slice(-60)}[${text}]” says it twice`);
  }
});
