// End-to-end: controls change what they should, redraws are coalesced per frame, settings
// survive in the URL (permalink), and bad or extreme links fall back safely.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { gotoAndSettle, openPage, waitForIdle } from './support/browser.js';
import { checkHeatmapPixels, extentOf } from './support/colors.js';
import { ropeScores, sinusoidalTable } from './support/reference.js';
import { usePageSession } from './support/session.js';

const session = usePageSession();
let browser;
let server;
let page;
let log;
before(async () => ({ browser, server, page, log } = await session));

const cellsOf = (plot, on = page) => on.locator(`figure[data-plot="${plot}"] canvas.heatmap-cells`);

test('a slider moved with the keyboard redraws the heatmap and updates the URL', async () => {
  await page.locator('#ctl-pe-d-range').focus();
  await page.keyboard.press('ArrowRight'); // d_model 128 -> 130 (even steps)
  await waitForIdle(page);
  assert.equal(await page.locator('#ctl-pe-d').inputValue(), '130');
  const table = sinusoidalTable({ seqLen: 128, dModel: 130 });
  await checkHeatmapPixels(page, 'sinusoidal-table', {
    rows: 128,
    cols: 130,
    expected: (r, c) => table[r * 130 + c],
    domain: [-1, 1],
  });
  await page.waitForFunction(() => new URLSearchParams(location.search).get('pe.d') === '130');
  assert.match(await page.locator('#pe-code').textContent(), /d_model = 130/);
});

test('many slider events within one frame cause a single redraw', async () => {
  const redraws = await page.evaluate(async () => {
    const canvas = document
      .querySelector('posenc-pe-heatmap')
      .shadowRoot.querySelector('figure[data-plot="sinusoidal-table"] canvas.heatmap-cells');
    const slider = document.getElementById('ctl-pe-seq-range');
    let count = 0;
    const observer = new MutationObserver((records) => {
      count += records.filter((r) => r.attributeName === 'data-rows').length;
    });
    observer.observe(canvas, { attributes: true });
    for (let value = 100; value < 140; value++) {
      slider.value = String(value);
      slider.dispatchEvent(new Event('input', { bubbles: true }));
    }
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    observer.disconnect();
    return { count, rows: canvas.dataset.rows };
  });
  assert.deepEqual(redraws, { count: 1, rows: '139' });
  await page.locator('#ctl-pe-seq').fill('128');
  await page.locator('#ctl-pe-seq').press('Enter');
  await waitForIdle(page);
  assert.equal(await cellsOf('sinusoidal-table').getAttribute('data-rows'), '128');
});

test('the layout toggles change the tables they should', async () => {
  await page.locator('#ctl-pe-layout-concat').check();
  await waitForIdle(page);
  const concat = sinusoidalTable({ seqLen: 128, dModel: 130, layout: 'concat' });
  await checkHeatmapPixels(page, 'sinusoidal-table', {
    rows: 128,
    cols: 130,
    expected: (r, c) => concat[r * 130 + c],
    domain: [-1, 1],
  });
  assert.match(await page.locator('#pe-code').textContent(), /pe\[:, :d_model\/\/2\] = torch\.sin/);

  // RoPE: random contents, then the half pairing from the heatmap's own toggle; the rotation
  // demo's toggle follows (one setting, two controls).
  await page.locator('#ctl-rope-content-random').check();
  await page.locator('#ctl-rope-layout-heatmap-half').check();
  await waitForIdle(page);
  assert.equal(await page.locator('#ctl-rope-layout-half').isChecked(), true);
  const scores = ropeScores({ seqLen: 1001, headDim: 64, layout: 'half', content: 'random', seed: 1 });
  await checkHeatmapPixels(page, 'rope-similarity', {
    rows: 1001,
    cols: 1001,
    expected: (r, c) => scores[r * 1001 + c],
    domain: extentOf(scores),
  });
  assert.match(await page.locator('#rope-result').textContent(), /channels \(0, 4\) in the half layout/);
});

test('editing text changes the sentences and the worked example', async () => {
  await page.locator('#ctl-order-b').fill('The cat sat on the mat');
  await waitForIdle(page);
  assert.match(await page.locator('#order-bag').textContent(), /in the same order/);
  assert.match(await page.locator('#order-pos-diff').textContent(), /= 0\. Still/);
  await page.locator('#ctl-order-b').fill('A dog barked');
  await waitForIdle(page);
  assert.match(await page.locator('#order-bag').textContent(), /do not hold the same words/);
  assert.equal(await page.locator('figure[data-plot="order-diff-pos"]').isHidden(), true);
  assert.equal(await cellsOf('order-b-pos').getAttribute('data-rows'), '3');
  // An empty sentence: no stale heatmaps or results from the previous text.
  await page.locator('#ctl-order-b').fill('  ,  ');
  await waitForIdle(page);
  assert.match(await page.locator('#order-bag').textContent(), /^Sentence B has no words/);
  assert.equal(await page.locator('figure[data-plot="order-a-plain"]').isVisible(), false);
  assert.deepEqual(
    await page
      .locator('#order-demo h3')
      .evaluateAll((hs) => hs.filter((h) => h.checkVisibility()).map((h) => h.textContent)),
    [],
  );
  assert.deepEqual(await page.locator('#order-plain-diff, #order-pos-diff, #order-pair').allTextContents(), [
    '',
    '',
    '',
  ]);
  // More words than the plots take: said, not cut silently.
  await page.locator('#ctl-order-b').fill(Array.from({ length: 20 }, (_, i) => `w${i}`).join(' '));
  await waitForIdle(page);
  assert.match(await page.locator('#order-bag').textContent(), /Only the first 16 words .* \(B has 20 words\)/);
  assert.equal(await cellsOf('order-b-pos').getAttribute('data-rows'), '16');
  assert.equal(await page.locator('figure[data-plot="order-a-plain"]').isVisible(), true);
  await page.locator('#ctl-order-b').fill('A dog barked'); // the permalink test below reads it
  await waitForIdle(page);

  await page.locator('#ctl-we-cat').fill('0, 0, 0, 0');
  await waitForIdle(page);
  assert.equal(
    await page.locator('#we-sum-table tr[data-word="cat"] td.exact').textContent(),
    '[0.841471, 0.5403023, 0.009999833, 0.99995]',
  );
  assert.match(await page.locator('#we-sum-table tr[data-word="cat"] td.seed').textContent(), /your own embeddings/);
});

test('comparison (the companion): the all-ones trap, re-rolling and typed-in contents', async () => {
  const companion = await openPage(browser);
  const { page } = companion;
  await gotoAndSettle(page, server.companionUrl);
  await page.locator('#ctl-cmp-content-ones').check();
  await page.locator('#ctl-cmp-metric-dot').check();
  await waitForIdle(page);
  const trap = await page.locator('#cmp-trap').textContent();
  const within = Number(/to within (\S+) /.exec(trap)[1]);
  assert.ok(within < 1e-3, trap);
  const scale = await page
    .locator('figure[data-plot="compare-rope"] canvas.heatmap-cells')
    .evaluate((c) => [Number(c.dataset.lo), Number(c.dataset.hi)]);
  const naive = await page
    .locator('figure[data-plot="compare-naive"] canvas.heatmap-cells')
    .evaluate((c) => [Number(c.dataset.lo), Number(c.dataset.hi)]);
  assert.deepEqual(scale, naive, 'one colour scale for all three panels');

  assert.match(await page.locator('#cmp-scale-note').textContent(), /dwarf/);
  await page.locator('#ctl-cmp-metric-cosine').check();
  await waitForIdle(page);
  assert.equal(await page.locator('#cmp-scale-note').isHidden(), true);
  const before = await page
    .locator('figure[data-plot="compare-rope"] canvas.heatmap-cells')
    .evaluate((c) => c.toDataURL());
  await page.locator('#cmp-reroll').click();
  await waitForIdle(page);
  assert.equal(await page.locator('#ctl-cmp-content-qk').isChecked(), true);
  await page.waitForFunction(() => new URLSearchParams(location.search).get('cmp.seed') === '8');
  assert.notEqual(
    await page.locator('figure[data-plot="compare-rope"] canvas.heatmap-cells').evaluate((c) => c.toDataURL()),
    before,
  );
  assert.equal(await page.locator('#cmp-trap').isHidden(), true);

  await page.locator('#ctl-cmp-q').fill('1, 2');
  await waitForIdle(page);
  assert.equal(await page.locator('#ctl-cmp-content-edited').isChecked(), true);
  assert.match(await page.locator('#cmp-spreads li[data-panel="rope"]').textContent(), /a function of m − n alone/);
  await page.locator('#ctl-cmp-q').fill('1, oops');
  assert.equal(await page.locator('#ctl-cmp-q').getAttribute('aria-invalid'), 'true');
  assert.deepEqual(companion.log.errors, []);
  await companion.context.close();
});

test('the permalink restores the state in a fresh page', async () => {
  await page.waitForFunction(() => new URLSearchParams(location.search).get('we.cat') === '0,0,0,0');
  const permalink = await page.locator('#permalink').getAttribute('href');
  const query = new URL(permalink).searchParams;
  assert.equal(query.get('pe.d'), '130');
  assert.equal(query.get('pe.layout'), 'concat');
  assert.equal(query.get('rope.layout'), 'half');
  assert.equal(query.get('order.b'), 'A dog barked');

  const fresh = await openPage(browser);
  await gotoAndSettle(fresh.page, permalink);
  assert.equal(await fresh.page.locator('#ctl-pe-d').inputValue(), '130');
  assert.equal(await fresh.page.locator('#ctl-pe-layout-concat').isChecked(), true);
  assert.equal(await fresh.page.locator('#ctl-rope-layout-half').isChecked(), true);
  assert.equal(await fresh.page.locator('#ctl-order-b').inputValue(), 'A dog barked');
  assert.equal(await fresh.page.locator('#ctl-we-cat').inputValue(), '0, 0, 0, 0');
  const concat = sinusoidalTable({ seqLen: 128, dModel: 130, layout: 'concat' });
  await checkHeatmapPixels(fresh.page, 'sinusoidal-table', {
    rows: 128,
    cols: 130,
    expected: (r, c) => concat[r * 130 + c],
    domain: [-1, 1],
    samples: 24,
  });
  assert.equal(await fresh.page.locator('#url-problems').isHidden(), true);
  assert.deepEqual(fresh.log.errors, []);
  await fresh.context.close();
});

test('garbage in the link falls back to defaults (clamped where possible) with a visible message', async () => {
  const fresh = await openPage(browser);
  const query =
    '?pe.seq=abc&pe.d=99999999&pe.base=-5&rope.content=%3Cscript%3Ealert(1)%3C/script%3E&zzz=1&we.cat=1,2&cmp.q=1,x,3&order.a=' +
    'word%20'.repeat(40);
  await gotoAndSettle(fresh.page, server.pageUrl + query);
  // cmp.q is the companion's: the lesson neither uses nor reports it; the companion does.
  const problems = await fresh.page.locator('#url-problems li').allTextContents();
  assert.equal(problems.length, 7, problems.join('\n'));
  assert.doesNotMatch(problems.join('\n'), /cmp\.q/);
  assert.match(problems.join('\n'), /pe\.seq="abc" is not a number; using the default 128/);
  assert.match(problems.join('\n'), /pe\.d="99999999" is outside 2…2048; using 2048/);
  assert.match(problems.join('\n'), /Ignored the unknown setting "zzz"/);
  assert.equal(await cellsOf('sinusoidal-table', fresh.page).getAttribute('data-rows'), '128');
  assert.equal(await cellsOf('sinusoidal-table', fresh.page).getAttribute('data-cols'), '2048');
  assert.equal(await fresh.page.locator('#ctl-pe-base').inputValue(), '2');
  assert.equal(await fresh.page.locator('#ctl-rope-content-ones').isChecked(), true);
  assert.equal(await fresh.page.locator('script').count(), 1, 'no script injected');
  assert.deepEqual(fresh.log.errors, []);
  await gotoAndSettle(fresh.page, server.companionUrl + query);
  const companionProblems = await fresh.page.locator('#url-problems li').allTextContents();
  assert.equal(companionProblems.length, 2, companionProblems.join('\n'));
  assert.match(companionProblems.join('\n'), /^cmp\.q="1,x,3" /m);
  assert.match(companionProblems.join('\n'), /Ignored the unknown setting "zzz"/);
  assert.equal(await fresh.page.locator('script').count(), 1, 'no script injected');
  assert.deepEqual(fresh.log.errors, []);

  // An absurdly long value is reported by name; the other settings of the link still apply.
  await gotoAndSettle(fresh.page, `${server.pageUrl}?pe.seq=${'9'.repeat(5000)}&pe.d=64`);
  assert.match(await fresh.page.locator('#url-problems').textContent(), /pe\.seq="9+…" is not a finite number/);
  assert.equal(await cellsOf('sinusoidal-table', fresh.page).getAttribute('data-cols'), '64');
  await fresh.context.close();
});

test('keys that name Object.prototype members in a link are unknown settings, not a dead page', async () => {
  const fresh = await openPage(browser);
  const keys = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];
  await gotoAndSettle(fresh.page, `${server.pageUrl}?${keys.map((k) => `${k}=1`).join('&')}&pe.seq=64`);
  const problems = await fresh.page.locator('#url-problems li').allTextContents();
  assert.deepEqual(problems, [`Ignored ${keys.length} unknown settings: ${keys.map((k) => `"${k}"`).join(', ')}.`]);
  assert.equal(await cellsOf('sinusoidal-table', fresh.page).getAttribute('data-rows'), '64');
  assert.equal(await fresh.page.locator('#page-error').isHidden(), true);
  assert.deepEqual(fresh.log.errors, []);
  await fresh.context.close();
});

test('a number typed outside its rules is replaced, with a note saying why; the link follows what is shown', async () => {
  const fresh = await openPage(browser);
  await gotoAndSettle(fresh.page, `${server.pageUrl}?rope.d=16&rope.pair=5`);
  const box = fresh.page.locator('#ctl-rope-pair');
  await box.fill('50');
  await box.press('Enter');
  await waitForIdle(fresh.page);
  assert.equal(await box.inputValue(), '7');
  assert.equal(
    await fresh.page.locator('#ctl-rope-pair-note').textContent(),
    '50 is above the largest allowed here (a pair index is below rope.d / 2), 7: using 7.',
  );
  const d = fresh.page.locator('#ctl-rope-d');
  await d.fill('7');
  await d.press('Enter');
  await waitForIdle(fresh.page);
  assert.equal(await d.inputValue(), '8');
  assert.equal(await fresh.page.locator('#ctl-rope-d-note').textContent(), '7 is odd (this setting is even): using 8.');
  await fresh.page.waitForFunction(() => new URL(location.href).searchParams.get('rope.pair') === '3');
  assert.equal(await box.inputValue(), '3', 'pair lowered with d = 8, in the box and in the URL');
  await fresh.context.close();
});

test('every setting at its maximum still loads in reasonable time (no frozen tab)', async (t) => {
  const fresh = await openPage(browser);
  const query = new URLSearchParams({
    'naive.seq': '1e9',
    'naive.d': '1e9',
    'pe.seq': '1e9',
    'pe.d': '1e9',
    'rd.seq': '1e9',
    'rd.d': '1e9',
    'rope.seq': '1e9',
    'rope.hd': '1e9',
    'rope.pos': '1e9',
    'rope.d': '1e9',
    'rope.pair': '1e9',
    't2.offset': '1e9',
  });
  const companionQuery = new URLSearchParams({
    'cmp.seq': '1e9',
    'cmp.d': '1e9',
    'rope.m': '1e9',
    'rope.n': '1e9',
    'rope.shift': '1e9',
    'fx.seq': '1e9',
    'fx.d': '1e9',
  });
  const start = Date.now();
  await fresh.page.goto(`${server.pageUrl}?${query}`);
  await waitForIdle(fresh.page, 60_000);
  const seconds = (Date.now() - start) / 1000;
  assert.ok(seconds < 30, `took ${seconds} s`);
  t.diagnostic(`all settings at their maximum: ready after ${seconds.toFixed(1)} s`);
  assert.equal(
    await fresh.page.locator('figure[data-plot="rope-similarity"] canvas.heatmap-cells').getAttribute('data-rows'),
    '2048',
  );
  assert.equal(await fresh.page.locator('#url-problems li').count(), 12);
  const companionStart = Date.now();
  await fresh.page.goto(`${server.companionUrl}?${companionQuery}`);
  await waitForIdle(fresh.page, 60_000);
  const companionSeconds = (Date.now() - companionStart) / 1000;
  assert.ok(companionSeconds < 30, `the companion took ${companionSeconds} s`);
  assert.equal(await fresh.page.locator('#url-problems li').count(), 7);
  assert.deepEqual(fresh.log.errors, []);
  await fresh.context.close();
});

test('on a 375-px touch screen, tapping a heatmap reads the tapped cell (not cell 0, 0)', async () => {
  const phone = await openPage(browser, { width: 375, height: 812, touch: true });
  await gotoAndSettle(phone.page, server.pageUrl);
  const figure = phone.page.locator('figure[data-plot="sinusoidal-table"]');
  const canvas = figure.locator('canvas.heatmap-cells');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  // Row 96, column 40 of the 128 × 128 table, tapped at the cell's centre.
  await phone.page.touchscreen.tap(box.x + ((40 + 0.5) / 128) * box.width, box.y + ((96 + 0.5) / 128) * box.height);
  await waitForIdle(phone.page);
  const table = sinusoidalTable({ seqLen: 128, dModel: 128 });
  const readout = await phone.page.locator('#pe-readout').textContent();
  assert.match(readout, /^position 96, dimension 40 \(pair i = 20, sin\)/, readout);
  const shown = Number(readout.match(/value (−?-?[\d.]+)/)[1].replace('−', '-'));
  assert.ok(Math.abs(shown - table[96 * 128 + 40]) < 1e-4, `${readout}: expected ${table[96 * 128 + 40]}`);
  assert.deepEqual(phone.log.errors, []);
  await phone.context.close();
});
