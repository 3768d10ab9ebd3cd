// Every plot box on the tutorial's two pages (heatmaps, line plots, vector plots, in the page and in the
// elements' shadow roots): no tick label overlaps an axis title, another tick label of its axis or
// one of the other axis at the corner, at 1280 px and on a 375-px phone. (Long context's "10000"
// ticks used to run into "query position m", half precision's 1e−9 into 1e0 on a phone.)
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { gotoAndSettle, openPage } from './support/browser.js';
import { boxesWithin, overlap } from './support/layout.js';
import { useServedSite } from './support/session.js';

const site = useServedSite();
let browser;
let server;
before(async () => ({ browser, server } = await site));

/** Each visible plot box's tick labels (per axis) and axis titles, as boxes. */
const plotBoxes = (page) =>
  boxesWithin(page.locator('.plot-box'), { x: '.axis-x > .tick', y: '.axis-y > .tick', titles: '.axis-label' });

for (const [width, touch] of [
  [1280, false],
  [375, true],
]) {
  test(`at ${width} px no tick label overlaps an axis title or a neighbouring tick label`, async () => {
    const { page, context, log } = await openPage(browser, { width, height: 900, touch });
    const found = [];
    for (const url of [server.pageUrl, server.companionUrl]) {
      await gotoAndSettle(page, url);
      found.push(...(await plotBoxes(page)));
    }
    assert.ok(found.filter(({ plot }) => plot.startsWith('long-context-')).length >= 2, 'long context drawn');
    assert.ok(found.length > 20, `${found.length} plot boxes`);
    const problems = [];
    for (const { plot, x, y, titles } of found) {
      for (const tick of [...x, ...y])
        for (const title of titles.filter(({ text }) => text))
          if (overlap(tick, title)) problems.push(`${plot}: tick “${tick.text}” overlaps “${title.text}”`);
      for (const ticks of [x, y])
        for (let i = 1; i < ticks.length; i++)
          if (overlap(ticks[i - 1], ticks[i]))
            problems.push(`${plot}: “${ticks[i - 1].text}” overlaps “${ticks[i].text}”`);
      // The corner: the y axis's lowest label and the x axis's first one.
      for (const yTick of y)
        for (const xTick of x)
          if (overlap(yTick, xTick)) problems.push(`${plot}: “${yTick.text}” overlaps “${xTick.text}” at the corner`);
    }
    assert.deepEqual(problems, []);
    assert.deepEqual(log.errors, []);
    await context.close();
  });
}

test('at 1280 px the plots of one row of a grid start at the same height, whatever their titles wrap to', async () => {
  const { page, context, log } = await openPage(browser, { width: 1280, height: 900 });
  // §1 with long titles beside short ones (the first panel's title fits one line, the others two);
  // the rows of both pages.
  const rows = [];
  for (const url of [server.pageUrl, server.companionUrl]) {
    await gotoAndSettle(page, url);
    rows.push(
      ...(await page.evaluate(() =>
        [...document.querySelectorAll('.plot-grid.two, .plot-grid.three')]
          .filter((grid) => grid.offsetParent !== null)
          .flatMap((grid) => {
            const byRow = new Map();
            for (const figure of grid.querySelectorAll(':scope > figure')) {
              const area = figure.querySelector('.plot-area');
              if (!area) continue;
              const top = Math.round(figure.getBoundingClientRect().top);
              if (!byRow.has(top)) byRow.set(top, []);
              byRow.get(top).push({ plot: figure.dataset.plot, area: area.getBoundingClientRect().top });
            }
            return [...byRow.values()].filter((row) => row.length > 1);
          }),
      )),
    );
  }
  assert.ok(rows.length >= 4, `${rows.length} rows of figures side by side`);
  const problems = rows
    .filter((row) => Math.max(...row.map((f) => f.area)) - Math.min(...row.map((f) => f.area)) > 1)
    .map((row) => row.map(({ plot, area }) => `${plot} at ${area.toFixed(1)}`).join(', '));
  assert.deepEqual(problems, []);
  assert.deepEqual(log.errors, []);
  await context.close();
});
