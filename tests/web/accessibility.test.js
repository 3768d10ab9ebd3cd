// The page for readers who use assistive technology or dark mode: axe-core finds no serious or
// critical violation in light or dark mode, and dark mode really is dark and legible.
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

for (const colorScheme of ['light', 'dark']) {
  test(`axe-core: no serious or critical violation (${colorScheme} mode)`, async (t) => {
    // bypassCSP: axe is injected as an inline script, which the page's policy rightly forbids.
    const { page, log, context } = await openPage(browser, { bypassCSP: true, colorScheme });
    await gotoAndSettle(page, server.pageUrl);
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

test('dark mode follows prefers-color-scheme: dark page, legible text, visible curves', async () => {
  const { page, log, context } = await openPage(browser, { colorScheme: 'dark' });
  await gotoAndSettle(page, server.pageUrl);
  const colours = await page.evaluate(() => {
    const style = (selector, property) => getComputedStyle(document.querySelector(selector))[property];
    const series = document.querySelector('figure[data-plot="long-context-wavelengths"] path.series');
    return {
      background: style('body', 'backgroundColor'),
      text: style('body', 'color'),
      muted: style('.engine-status', 'color'),
      link: style('a[href="#order"]', 'color'),
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
