// "Try this" prompts and self-check questions: every section of both pages ends with prompts whose
// links lead to the control they name, the questions open from the keyboard, and their math is
// typeset.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { gotoAndSettle, openPage } from './support/browser.js';
import { usePageSession } from './support/session.js';

const session = usePageSession();
let page;
let companion;
before(async () => {
  let browser;
  let server;
  ({ page, browser, server } = await session);
  companion = await openPage(browser);
  await gotoAndSettle(companion.page, server.companionUrl);
});
after(async () => companion?.context.close());

for (const name of ['lesson', 'companion'])
  test(`every section has "Try this" prompts that link to existing controls (the ${name})`, async () => {
    const view = name === 'lesson' ? page : companion.page;
    const sections = await view.evaluate(() =>
      [...document.querySelectorAll('main > section[id]')].map((section) => ({
        id: section.id,
        prompts: [...section.querySelectorAll('details.try li')].map((li) => ({
          text: li.textContent.trim(),
          targets: [...li.querySelectorAll('a[href^="#ctl-"]')].map((a) => a.getAttribute('href').slice(1)),
        })),
      })),
    );
    // Sections of reference tables and conventions, or of text and a diagram: nothing to try.
    const facts = new Set(['facts', 'big-picture']);
    for (const { id, prompts } of sections) {
      if (facts.has(id)) continue;
      assert.ok(prompts.length > 0, `section ${id} has no "Try this" prompt`);
      for (const { text, targets } of prompts) {
        assert.ok(targets.length > 0, `${id}: "${text.slice(0, 40)}…" names no control`);
        for (const target of targets) {
          const exists = await view.evaluate((t) => document.getElementById(t) !== null, target);
          assert.ok(exists, `${id}: the prompt's control #${target} does not exist`);
        }
      }
    }
  });

test('self-check answers are hidden until asked for, open from the keyboard, and typeset', async () => {
  const checks = page.locator('details.self-check');
  assert.ok((await checks.count()) >= 5, `${await checks.count()} self-check questions`);
  const first = checks.first();
  assert.equal(await first.locator('p').isVisible(), false, 'the answer starts hidden');
  await first.locator('summary').focus();
  await page.keyboard.press('Enter');
  assert.equal(await first.locator('p').isVisible(), true, 'Enter opens it');
  assert.equal(await page.locator('details.self-check [data-tex]:not(:has(.katex))').count(), 0, 'untypeset math');
});
