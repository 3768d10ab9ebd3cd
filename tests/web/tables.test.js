// The page's wide tables (§5's worked example, §4's drawn vectors, the family's and the facts'
// tables, every table that stacks into cards in a narrow box) fit their box at every width from a
// 320-px phone to a 1400-px desktop: no table wider than its box, every flagged ("✗ truncated: …")
// text fully visible. (At 610–800 px §5's first table was 770 px in a 736-px box with its flag
// cut; the family's table scrolled sideways on a phone.) §4's table writes negative numbers with
// the minus sign.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { gotoAndSettle, openPage, waitForIdle } from './support/browser.js';
import { useServedSite } from './support/session.js';

const site = useServedSite();
let browser;
let server;
before(async () => ({ browser, server } = await site));

// The lesson's tables, and the companion's.
const TABLES = {
  lesson: ['#we-pe-table', '#we-sum-table', '#t2-table'],
  companion: ['.family-table', '#fx-precision-table'],
};
const WIDTHS = [320, 375, 414, 480, 540, 600, 610, 640, 700, 736, 768, 800, 860, 900, 1024, 1280, 1400];

/** For each table: its width, its box's, and the flags (each with whether it is cut or outside). */
function measure(page, selector) {
  return page.locator(`table${selector}`).evaluate((table) => {
    const box = table.parentElement;
    const outer = box.getBoundingClientRect();
    return {
      table: table.scrollWidth,
      scroll: box.scrollWidth,
      box: box.clientWidth,
      flags: [...table.querySelectorAll('.flag')].map((flag) => {
        const r = flag.getBoundingClientRect();
        return {
          text: flag.textContent,
          cut: flag.scrollWidth > flag.clientWidth + 0.5,
          outside: r.left < outer.left - 0.5 || r.right > outer.left + box.clientWidth + 0.5,
        };
      }),
    };
  });
}

test('the wide tables fit their box at every width from 320 to 1400 px, flags fully visible', async () => {
  const problems = [];
  let flagsSeen = 0;
  for (const [name, tables] of Object.entries(TABLES)) {
    const { page, context, log } = await openPage(browser, { width: 1280, height: 900 });
    await gotoAndSettle(page, name === 'lesson' ? server.pageUrl : server.companionUrl);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await waitForIdle(page);
      for (const id of tables) {
        const m = await measure(page, id);
        if (m.scroll > m.box || m.table > m.box)
          problems.push(`${width} px: ${id} is ${m.table} px in a ${m.box}-px box`);
        for (const flag of m.flags) {
          flagsSeen++;
          if (flag.cut || flag.outside) problems.push(`${width} px: ${id}'s “${flag.text}” is cut`);
        }
      }
    }
    assert.deepEqual(log.errors, []);
    await context.close();
  }
  assert.deepEqual(problems, []);
  assert.ok(flagsSeen >= WIDTHS.length, 'the seed values are flagged');
});

test('§4 table: negative numbers with the minus sign', async () => {
  const { page, context, log } = await openPage(browser, { width: 1280, height: 900 });
  await gotoAndSettle(page, `${server.pageUrl}?t2.check=-0.8,0.9`);
  const text = await page.locator('#t2-table').textContent();
  assert.match(text, /\(−0\.8, 0\.9\)/);
  assert.doesNotMatch(text, /-\d/);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('which models use which encoding is one table on the companion, not two', async () => {
  const { page, context, log } = await openPage(browser, { width: 1280, height: 900 });
  await gotoAndSettle(page, server.companionUrl);
  // A table of who uses what names GPT-2 and BERT (learned absolute) and LLaMA (RoPE) in its rows.
  const tables = await page
    .locator('main table')
    .evaluateAll(
      (all) =>
        all.filter((table) => ['GPT-2', 'BERT', 'LLaMA'].every((name) => table.textContent.includes(name))).length,
    );
  assert.equal(tables, 1);
  assert.deepEqual(log.errors, []);
  await context.close();
});
