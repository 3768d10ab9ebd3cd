// §4's 2-D vectors: the arrows' labels never overlap one another and stay inside the plot, for
// vectors whose tips nearly coincide (tiny words: each sum sits on its PE), point the same way
// (large words: PE(0), PE(1), PE(2) crowd the origin), and at the defaults, where no arrow
// crosses a label either. Its caption and read-out write negative numbers with the minus sign.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { gotoAndSettle, openPage } from './support/browser.js';
import { inside, overlappingPairs } from './support/layout.js';
import { useServedSite } from './support/session.js';

const site = useServedSite();
let browser;
let server;
before(async () => ({ browser, server } = await site));

const FIGURE = 'figure[data-plot="tokens-2d"]';

/** Each label's box (page pixels), the plot area's box, and which labels an arrow's line crosses. */
function labels(page) {
  return page.locator(FIGURE).evaluate((figure) => {
    const box = (node) => {
      const { left, top, right, bottom } = node.getBoundingClientRect();
      return { left, top, right, bottom };
    };
    const texts = [...figure.querySelectorAll('text.arrow-label')];
    const crossed = [];
    for (const text of texts) {
      const b = text.getBBox(); // viewBox units, as the lines
      for (const line of figure.querySelectorAll('g.arrow line')) {
        const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map((name) => Number(line.getAttribute(name)));
        for (let k = 0; k <= 100; k++) {
          const [x, y] = [x1 + ((x2 - x1) * k) / 100, y1 + ((y2 - y1) * k) / 100];
          if (x > b.x && x < b.x + b.width && y > b.y && y < b.y + b.height) {
            crossed.push(`${text.textContent} by ${line.parentNode.dataset.label || line.parentNode.dataset.role}`);
            break;
          }
        }
      }
    }
    return {
      area: box(figure.querySelector('.vectors-area')),
      labels: texts.map((text) => ({ text: text.textContent, ...box(text) })),
      crossed,
    };
  });
}

const CASES = [
  ['the defaults', ''],
  ['tiny words at first position 5', 't2.check=0.01,0&t2.this=0,0.01&t2.out=-0.01,-0.01&t2.offset=5'],
  ['large words', 't2.check=10,-10&t2.this=-10,10&t2.out=10,10'],
  ['large words, all alike', 't2.check=10,10&t2.this=10,10&t2.out=10,10'],
];

for (const width of [1280, 375]) {
  for (const [what, query] of CASES) {
    test(`§4 at ${width} px, ${what}: labels inside the plot, none overlapping another`, async () => {
      const { page, context, log } = await openPage(
        browser,
        width < 500 ? { width, height: 812, touch: true } : { width, height: 900 },
      );
      await gotoAndSettle(page, `${server.pageUrl}${query ? `?${query}` : ''}`);
      const { area, labels: found, crossed } = await labels(page);
      assert.equal(found.length, 6);
      for (const label of found) assert.ok(inside(label, area), `“${label.text}” outside the plot`);
      assert.deepEqual(overlappingPairs(found), []);
      if (!query) assert.deepEqual(crossed, [], 'no arrow crosses a label at the defaults');
      assert.deepEqual(log.errors, []);
      await context.close();
    });
  }
}

test('§4 caption and read-out: negative numbers with the minus sign', async () => {
  const { page, context, log } = await openPage(browser, { width: 1280, height: 900 });
  await gotoAndSettle(page, server.pageUrl);
  await page.locator(`${FIGURE} .vectors-area`).focus();
  await page.keyboard.press('End'); // "out" = (0.3, −1.1)
  const texts = [
    await page.locator(`${FIGURE} figcaption`).textContent(),
    await page.locator(`${FIGURE} .readout`).textContent(),
  ];
  for (const text of texts) {
    assert.match(text, /−\d/, text);
    assert.doesNotMatch(text, /-\d/, text);
  }
  assert.deepEqual(log.errors, []);
  await context.close();
});
