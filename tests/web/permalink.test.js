// The permalink always reopens what the page shows: right after a link is read, the address bar
// and #permalink hold exactly the settings in effect (the messages about what was wrong stay in
// view); a link never reaches the length servers refuse (the settings it leaves out are named);
// text cut to its limit is cut between characters and said so.
import assert from 'node:assert/strict';
import { get } from 'node:http';
import { before, test } from 'node:test';
import { gotoAndSettle, openPage, waitForIdle } from './support/browser.js';
import { useServedSite } from './support/session.js';

const site = useServedSite();
let browser;
let server;
before(async () => ({ browser, server } = await site));

/**
 * The HTTP status the project's own server answers for `href` (431: request header too large), or
 * 'reset' when it closes the connection first: Node answers 431 and closes the socket while an
 * oversized request may still be on its way, so the client can see either.
 */
function statusOf(href) {
  return new Promise((resolve, reject) => {
    get(href, (response) => {
      response.resume();
      resolve(response.statusCode);
    }).on('error', (error) => (['ECONNRESET', 'EPIPE'].includes(error.code) ? resolve('reset') : reject(error)));
  });
}

/** Opens `query` and returns what the page shows: its address, permalink and messages. */
async function open(query) {
  const opened = await openPage(browser);
  await gotoAndSettle(opened.page, `${server.pageUrl}${query}`);
  const { page } = opened;
  return {
    ...opened,
    search: await page.evaluate(() => location.search),
    permalink: await page.locator('#permalink').getAttribute('href'),
    href: await page.evaluate(() => location.href),
    problems: await page.locator('#url-problems li').allTextContents(),
    problemsShown: await page.locator('#url-problems').isVisible(),
  };
}

const REWRITES = [
  {
    query: '?rope.d=2&rope.pair=3',
    search: '?rope.d=2',
    problem:
      /^rope\.pair="3" is above 0, its largest value with this link's other settings \(a pair index is below rope\.d \/ 2\); using 0\.$/,
  },
  { query: '?foo=1&pe.seq=5', search: '?pe.seq=5', problem: /^Ignored the unknown setting "foo"\.$/ },
  { query: '?pe.d=7', search: '?pe.d=8', problem: /^pe\.d="7" is odd \(this setting is even\); using 8\.$/ },
  { query: '?__proto__=1', search: '', problem: /^Ignored the unknown setting "__proto__"\.$/ },
  { query: '?pe.d=7.5', search: '?pe.d=8', problem: /^pe\.d="7\.5" is not a whole number; using 8\.$/ },
  { query: '?rope.pair=2.5', search: '?rope.pair=3', problem: /^rope\.pair="2\.5" is not a whole number; using 3\.$/ },
  { query: '?pe.d=64&pe.d=32', search: '?pe.d=32', problem: /^pe\.d appears 2 times; using the last, 32\.$/ },
  {
    query: '?fam.l0=64&fam.n=16',
    search: '?fam.n=16&fam.l0=8',
    problem:
      /^fam\.l0="64" is above 8, its largest value with this link's other settings \(the training length is at most half of fam\.n\); using 8\.$/,
  },
];

for (const { query, search, problem } of REWRITES) {
  test(`${query}: the address and the permalink hold the settings in effect; the message stays`, async () => {
    const first = await open(query);
    assert.equal(first.search, search);
    assert.equal(first.permalink, first.href);
    assert.ok(first.problemsShown, 'the message is in view');
    assert.equal(first.problems.length, 1, first.problems.join('\n'));
    assert.match(first.problems[0], problem);
    assert.doesNotMatch(first.problems[0], /undefined/);
    assert.deepEqual(first.log.errors, []);
    await first.context.close();

    const again = await open(search);
    assert.equal(again.search, search, 'the rewritten link reopens as it is');
    assert.deepEqual(again.problems, []);
    assert.equal(again.problemsShown, false);
    await again.context.close();
  });
}

test('a link too long for servers leaves out its longest settings, names them, and reopens the rest', async () => {
  const { page, context, log } = await openPage(browser);
  await gotoAndSettle(page, server.companionUrl); // cmp.q, cmp.k and img.prompt are the companion's
  // Numbers as long as a float64 gets, and text of 3-byte characters (9 characters each in a link).
  const numbers = (first) =>
    Array.from({ length: 256 }, (_, i) => -(first + i * 1.2345678901234567e-3) * 1e-99).join(', ');
  await page.locator('#ctl-cmp-q').fill(numbers(1.1));
  await page.locator('#ctl-cmp-k').fill(numbers(1.2));
  await page.locator('#ctl-img-prompt').fill('ࠀ'.repeat(200));
  await page.locator('#ctl-trained-text').fill('ࠀ'.repeat(240));
  await page.locator('#ctl-fx-seq').fill('300');
  await page.locator('#ctl-fx-seq').press('Enter');
  await waitForIdle(page);
  await page.waitForFunction(() => new URL(location.href).searchParams.get('fx.seq') === '300');

  const href = await page.evaluate(() => location.href);
  assert.ok(href.length < 8000, `${href.length} characters`);
  assert.equal(await page.locator('#permalink').getAttribute('href'), href);
  const note = await page.locator('#permalink-note').textContent();
  assert.match(
    note,
    /^The link leaves out cmp\.q \(6,\d{3} characters\) and cmp\.k \(6,\d{3} characters\): links of 8,000 characters or more fail on many servers; it reopens with the defaults for them\.$/,
  );
  assert.equal(await statusOf(href), 200, 'the project server serves the link');
  const whole = new URL(href);
  whole.searchParams.delete('omitted');
  whole.searchParams.set('cmp.q', numbers(1.1));
  whole.searchParams.set('cmp.k', numbers(1.2));
  const refused = await statusOf(whole.href);
  assert.ok(
    [431, 'reset'].includes(refused),
    `the whole link (${whole.href.length} characters) is refused: ${refused}`,
  );
  assert.deepEqual(log.errors, []);

  const fresh = await openPage(browser);
  await gotoAndSettle(fresh.page, href);
  assert.equal(await fresh.page.locator('#ctl-img-prompt').inputValue(), 'ࠀ'.repeat(200));
  assert.equal(await fresh.page.locator('#ctl-trained-text').inputValue(), 'ࠀ'.repeat(240));
  assert.equal(await fresh.page.locator('#ctl-fx-seq').inputValue(), '300');
  assert.deepEqual(await fresh.page.locator('#url-problems li').allTextContents(), [
    'The page that made this link left out cmp.q, cmp.k (too long for a link); they have their defaults here.',
  ]);
  assert.equal(await fresh.page.locator('#permalink-note').isHidden(), true, 'its own link fits');
  await fresh.context.close();
  await context.close();
});

test('text longer than its limit is cut between characters, with a note naming the setting and the limit', async () => {
  const { page, context } = await openPage(browser);
  await gotoAndSettle(page, server.pageUrl);
  const a = page.locator('#ctl-order-a');
  const note = page.locator('#ctl-order-a-note');
  const words = Array.from({ length: 12 }, (_, i) => `extraordinary${i}`); // 12 words, 167 characters
  await a.fill(words.join(' '));
  await page.locator('#ctl-order-b').fill(words.toReversed().join(' '));
  await waitForIdle(page);
  assert.equal(await a.inputValue(), words.join(' ').slice(0, 120));
  assert.equal(await note.textContent(), 'order.a holds at most 120 characters; the text was cut to that length.');
  assert.equal(
    await page.locator('#ctl-order-b-note').textContent(),
    'order.b holds at most 120 characters; the text was cut to that length.',
  );

  // A script setting .value: cut before a surrogate pair that the limit would split.
  await page.evaluate(() => {
    const input = document.getElementById('ctl-order-a');
    input.value = `cats ${'😀'.repeat(100)}`;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  const expected = `cats ${'😀'.repeat(57)}`; // 119 code units: the 58th emoji would need units 120 and 121
  await page.waitForFunction((text) => new URL(location.href).searchParams.get('order.a') === text, expected);
  assert.equal(await a.inputValue(), expected);
  assert.equal(await note.textContent(), 'order.a holds at most 120 characters; the text was cut to that length.');
  await a.fill('The cat sat');
  assert.equal(await note.textContent(), '', 'the note goes with the cut text');
  await context.close();
});

test('Back within the page (after a table-of-contents link): the settings follow the address', async () => {
  const { page, context, log } = await openPage(browser);
  await gotoAndSettle(page, `${server.pageUrl}?naive.seq=100`);
  await page.locator('#toc a[href="#order"]').click();
  await page.locator('#ctl-naive-seq').fill('200');
  await page.locator('#ctl-naive-seq').press('Enter');
  await waitForIdle(page);
  await page.waitForFunction(() => new URL(location.href).searchParams.get('naive.seq') === '200');
  await page.goBack();
  await waitForIdle(page);
  const shown = await page.evaluate(() => ({
    address: new URL(location.href).searchParams.get('naive.seq'),
    permalink: new URL(document.querySelector('#permalink').href).searchParams.get('naive.seq'),
    box: document.querySelector('#ctl-naive-seq').value,
  }));
  assert.deepEqual(shown, { address: '100', permalink: '100', box: '100' });
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('the fragment of a link does not count against its length limit', async () => {
  const { page, context, log } = await openPage(browser);
  await gotoAndSettle(page, `${server.pageUrl}?naive.seq=100#${'x'.repeat(8000)}`);
  const search = await page.evaluate(() => location.search);
  assert.equal(search, '?naive.seq=100');
  assert.equal(await page.locator('#permalink-note').isHidden(), true);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('a list box says when numbers were held to its range, and when the list cannot be used', async () => {
  const { page, context, log } = await openPage(browser);
  await gotoAndSettle(page, server.companionUrl);
  const note = page.locator('#ctl-cmp-q-note');
  await page.locator('#ctl-cmp-q').fill('1, 2, 1000, -3');
  await waitForIdle(page);
  assert.equal(await note.textContent(), 'cmp.q holds numbers from −100 to 100: 1000 was held to that range.');
  assert.equal(await page.locator('#ctl-cmp-q').inputValue(), '1, 2, 100, -3');
  await page.locator('#ctl-cmp-q').fill('1, two');
  await waitForIdle(page);
  assert.match(
    await note.textContent(),
    /^cmp\.q needs 1…256 comma-separated numbers; the figure keeps the last list that had them\.$/,
  );
  assert.equal(await page.locator('#ctl-cmp-q').getAttribute('aria-invalid'), 'true');
  await page.locator('#ctl-cmp-q').fill('3, 4');
  await waitForIdle(page);
  assert.equal(await note.textContent(), '');
  assert.deepEqual(log.errors, []);
  await context.close();
});
