// Sentences the page writes (captions, notes, prompts, the opening) against the settings shown:
// each must be true for the numbers the figure draws, checked against float64 sin/cos here, and a
// fixed sentence must not contradict a reachable setting.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { artifactPath, gotoAndSettle, openPage, waitForIdle } from './support/browser.js';
import { SINGLE_FILE } from './support/build.js';
import { useServedSite } from './support/session.js';

const site = useServedSite();
let browser;
let server;
before(async () => ({ browser, server } = await site));

/**
 * A page at the given settings, and a reader of the text of an element: the lesson, or the
 * companion with { page: 'companion' }.
 */
async function pageAt(query, { page = 'lesson', ...options } = {}) {
  const opened = await openPage(browser, options);
  await gotoAndSettle(opened.page, `${page === 'companion' ? server.companionUrl : server.pageUrl}${query}`);
  const text = (selector) => opened.page.locator(selector).first().textContent();
  return { ...opened, text };
}

const caption = (plot) => `figure[data-plot="${plot}"] figcaption`;
const number = (text) => Number(text.replace('−', '-'));

/** PE(0)·PE(Δ) = Σ_i cos(ω_i Δ), float64, Δ = 0 … seqLen − 1. */
function peDotCurve(dModel, seqLen, base = 10000) {
  return Array.from({ length: seqLen }, (_, delta) => {
    let sum = 0;
    for (let i = 0; i < dModel / 2; i++) sum += Math.cos(delta / base ** ((2 * i) / dModel));
    return sum;
  });
}

test('sinusoidal: the captions follow the layout (a second fast block at d/2 in concat) and one pair has one speed', async () => {
  const { page, log, context, text } = await pageAt('?pe.layout=concat&pe.d=16&pe.seq=64');
  const table = await text(caption('sinusoidal-table'));
  assert.doesNotMatch(table, /Columns on the left change quickly from row to row, columns on the right slowly/);
  assert.match(table, /cosines columns 8 … 15/);
  assert.match(table, /second fast block starts in the middle/);
  // The float64 table, concat layout: column 8 (cos of pair 0) changes as fast as column 0 and
  // far faster than column 7 (sin of the slowest pair), as the caption says.
  const change = (col) => {
    const pair = col % 8;
    const f = col < 8 ? Math.sin : Math.cos;
    let total = 0;
    for (let p = 1; p < 64; p++)
      total += Math.abs(f(p / 10000 ** ((2 * pair) / 16)) - f((p - 1) / 10000 ** ((2 * pair) / 16)));
    return total;
  };
  assert.ok(change(8) > 100 * change(7), `column 8 ${change(8)} vs column 7 ${change(7)}`);

  await gotoAndSettle(page, `${server.pageUrl}?pe.d=2`);
  assert.match(await text(caption('sinusoidal-table')), /one pair there is one speed/);
  assert.deepEqual(log.errors, []);
  await context.close();
  // The single dimensions are the companion's, with their own table settings.
  const companion = await pageAt('?dims.d=2&pe.dims=0,1', { page: 'companion' });
  const curves = await companion.text(caption('sinusoidal-dimensions'));
  assert.doesNotMatch(curves, /Fastest|slowest/);
  // Both channels of the one pair turn at ω_0 = 1: wavelength 2π.
  assert.match(curves, new RegExp(`one speed.*wavelength ${(2 * Math.PI).toFixed(3)} positions`));
  assert.deepEqual(companion.log.errors, []);
  await companion.context.close();
});

test('relative distance: the captions say "falls off" or "keeps coming back" as the float64 curve does, at every small d', async () => {
  const { page, log, context, text } = await pageAt('?rd.d=2');
  for (const d of [2, 4, 8, 16, 64]) {
    await gotoAndSettle(page, `${server.pageUrl}?rd.d=${d}`);
    const curve = peDotCurve(d, 128);
    let dip = 1;
    while (curve[dip + 1] < curve[dip]) dip++;
    const after = curve.slice(dip + 1);
    const peak = Math.max(...after);
    const at = dip + 1 + after.indexOf(peak);
    const line = await text(caption('relative-distance-curve'));
    const heatmap = await text(caption('relative-distance'));
    if (peak >= 0.9 * curve[0]) {
      // Few pairs: the curve comes back near its start and the heatmap has other bright stripes.
      assert.doesNotMatch(line, /falls off/, `d = ${d}`);
      assert.doesNotMatch(heatmap, /The brightest line is the diagonal/, `d = ${d}`);
      const [, shown, where] = line.match(/comes back to (\S+) at distance (\d+)/);
      assert.equal(Number(where), at, `d = ${d}: the distance it comes back at`);
      assert.ok(Math.abs(number(shown) - peak) <= 1e-3 * curve[0], `d = ${d}: ${shown} vs ${peak}`);
      assert.match(heatmap, new RegExp(`nearly as bright: \\S+ at distance ${at}`));
    } else {
      assert.match(line, new RegExp(`falls off with ripples: beyond distance ${dip} it stays at or below (\\S+)`));
      const shown = line.match(/at or below (\S+)/)[1];
      assert.ok(Math.abs(number(shown) - peak) <= 1e-3 * curve[0], `d = ${d}: ${shown} vs ${peak}`);
      assert.match(heatmap, /The brightest line is the diagonal/);
    }
  }
  // One notation for the distance: Δ, as the curve's axis calls it.
  const note = await text('#rd-anchor-note');
  assert.match(note, /PE\(64\)·PE\(64 \+ Δ\) and PE\(0\)·PE\(Δ\)/);
  assert.doesNotMatch(note, /\+ k\)/);
  const prose = await text('#relative-distance > p:nth-of-type(2)');
  assert.doesNotMatch(prose, /at distance 0 and falls off, with ripples, as the distance grows/);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('RoPE heatmap: the paragraph names the positions drawn and claims "twice PE·PE" only for all-ones contents', async () => {
  const { log, context, text } = await pageAt('?rope.seq=2048&rope.content=random');
  assert.equal(await text('#rope-heatmap-last'), '2047');
  const paragraph = await text('#rope-heatmap-contents');
  assert.match(paragraph, /random q and k, so no longer a multiple of PE\(m\)·PE\(n\)/);
  const whole = await text('#rope p:has(#rope-heatmap-contents)');
  assert.doesNotMatch(whole, /so this heatmap is exactly twice/);
  assert.match(whole, /with all-ones q and k the heatmap is exactly twice/);
  assert.equal(await text('#rope-heatmap-title'), 'The score over positions 0 … 2047');
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('bridge: every arrow in the text alternative is named, with the minus sign', async () => {
  const { log, context, text } = await pageAt('?bridge.p=2&bridge.k=3&bridge.pair=1');
  const summary = await text(caption('bridge-shift'));
  assert.doesNotMatch(summary, /(^|[;:])\s*at \(/, 'an arrow without a name');
  assert.doesNotMatch(summary, /-\d/, 'hyphen-minus in running text');
  // PE(5), pair 1 of d_model 16: (sin 5ω, cos 5ω), ω = 10000^(−2/16); the dashed arrow lands there.
  const w = 1 / 10000 ** (2 / 16);
  const expected = `(${Number(Math.sin(5 * w).toPrecision(4))}, ${Number(Math.cos(5 * w).toPrecision(4))})`.replace(
    '-',
    '−',
  );
  assert.ok(summary.includes(`PE(5) at ${expected}`), `${summary} / ${expected}`);
  assert.ok(summary.includes(`PE(2) turned by k·ω (dashed) at ${expected}`), summary);
  assert.deepEqual(log.errors, []);
  await context.close();
});

/** The rows of a downloaded CSV, without its header row and column. */
async function downloadCsv(page, plot) {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.locator(`figure[data-plot="${plot}"] button.export-csv`).click(),
  ]);
  const target = artifactPath(`text-${file.suggestedFilename()}`);
  await file.saveAs(target);
  return readFileSync(target, 'utf8')
    .trimEnd()
    .split('\n')
    .slice(1)
    .map((line) => line.split(',').map(Number));
}

test('comparison: "all ones" + dot makes RoPE’s panel exactly twice the relative-distance heatmap, as the prompt says', async () => {
  // The comparison is the companion's; the relative-distance heatmap the lesson's.
  const { page, log, context, text } = await pageAt('?cmp.content=ones&cmp.metric=dot&cmp.d=64&cmp.seq=128', {
    page: 'companion',
    acceptDownloads: true,
  });
  const lesson = await pageAt('?rd.d=64&rd.seq=128', { acceptDownloads: true });
  const prompt = await text('#comparison details.try li');
  assert.match(
    prompt,
    /all ones \(the trap\) and the metric\s+dot: at every \(m, n\) RoPE’s panel then shows exactly twice/,
  );
  assert.match(prompt, /relative-distance heatmap PE\(m\)·PE\(n\)/);
  assert.match(prompt, /\(1 \+ PE\(m\)\)·\(1 \+ PE\(n\)\)/);
  // Each panel's CSV and the PE·PE heatmap's: a row per query position m, its label first.
  const rope = await downloadCsv(page, 'compare-rope');
  const sinusoidal = await downloadCsv(page, 'compare-sinusoidal');
  const peDot = await downloadCsv(lesson.page, 'relative-distance');
  assert.deepEqual(lesson.log.errors, []);
  await lesson.context.close();
  assert.equal(rope.length, 128);
  let worst = 0;
  for (let m = 0; m < 128; m++)
    for (let n = 1; n <= 128; n++) worst = Math.max(worst, Math.abs(rope[m][n] - 2 * peDot[m][n]));
  assert.ok(worst < 1e-3, `RoPE panel vs 2 × PE·PE: ${worst}`);
  // The sinusoidal panel beside it is (1 + PE(0))·(1 + PE(1)), float64, not a multiple of PE·PE.
  let expected = 0;
  for (let i = 0; i < 32; i++) {
    const w = 1 / 10000 ** ((2 * i) / 64);
    expected += (1 + 0) * (1 + Math.sin(w)) + (1 + 1) * (1 + Math.cos(w));
  }
  assert.ok(Math.abs(sinusoidal[0][2] - expected) < 1e-3, `sinusoidal (0, 1): ${sinusoidal[0][2]} vs ${expected}`);
  assert.ok(Math.abs(sinusoidal[0][2] - 2 * peDot[0][2]) > 10, 'the sinusoidal panel is not twice PE·PE');
  // In the default cosine mode the trap note says what the panel shows instead.
  await gotoAndSettle(page, `${server.companionUrl}?cmp.content=ones`);
  assert.match(await text('#cmp-trap'), /in cosine it shows PE\(m\)·PE\(n\) \/ \(d\/2\)/);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('images: with the picked column at 0 the table shows the patch before it in the flattened order; counts read as words', async () => {
  const { page, log, context, text } = await pageAt('?img.col=0&img.row=7&img.cols=16', { page: 'companion' });
  const rows = await page
    .locator('#img-neighbours tbody tr')
    .evaluateAll((nodes) =>
      Object.fromEntries(
        nodes.map((n) => [n.dataset.neighbour, [...n.querySelectorAll('td')].map((td) => td.textContent)]),
      ),
    );
  assert.equal(rows.left, undefined);
  // Row-major flattening: patch (7, 0) is 7·16 = 112; 111 is (6, 15).
  assert.deepEqual(rows['before it when flattened'].slice(0, 3), ['(6, 15)', '−1 row, 15 columns', '1']);
  assert.deepEqual(rows.above.slice(1, 2), ['−1 row, 0 columns']);
  assert.deepEqual(rows.right.slice(1, 2), ['0 rows, 1 column']);
  assert.match(await text('#images details.try'), /gains “before it\s+when flattened”/);
  await page.locator('#ctl-img-prompt').fill('text 1, image 1x4x4, text 2');
  await waitForIdle(page);
  const names = await page.locator('#images-mrope-demo tbody th').evaluateAll((ths) => ths.map((th) => th.textContent));
  assert.deepEqual(names, ['text, 1 token', 'image 1×4×4 patches → 1 × 2 × 2 tokens', 'text, 2 tokens']);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('long context and family: 2·L0 − 1 said as such, no stray curve count, "point at or tap", minus signs, the "none" panel', async () => {
  const { page, log, context, text } = await pageAt('', { page: 'companion' });
  // Llama 3.1 (the default): L0 = 8192, span 2 → distances up to 16383 = 2 × 8192 − 1.
  const note = await text('#lc-heatmap-note');
  assert.match(note, /m − n = 16383 \(2 × L0 − 1\)/);
  assert.doesNotMatch(await text(caption('long-context-distance')), /curves\.$/);
  assert.match(await text('#lc-readout'), /^Point at or tap either panel/);
  const alibi = await text(caption('attention-alibi'));
  assert.doesNotMatch(alibi, /-\d/);
  assert.match(alibi, /colour scale −\d/);
  assert.doesNotMatch(await text(caption('family-distance')), /-\d/);
  for (const causal of ['off', 'on']) {
    await gotoAndSettle(page, `${server.companionUrl}?fam.causal=${causal}`);
    const title = await text('figure[data-plot="attention-none"] .plot-title');
    assert.doesNotMatch(title, /NoPE/, `mask ${causal}: NoPE means no positions in a causal model`);
    assert.match(title, /none/);
  }
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('no instruction says "hover" alone: a touch device has no hover, so they say "point at or tap"', async () => {
  const { page, log, context } = await pageAt('');
  assert.doesNotMatch(await page.locator('body').textContent(), /\bhover/i);
  assert.match(await page.locator('#pe-readout').textContent(), /^Point at or tap the heatmap/);
  assert.deepEqual(log.errors, []);
  await context.close();
  const companion = await pageAt('', { page: 'companion' });
  assert.doesNotMatch(await companion.page.locator('body').textContent(), /\bhover/i);
  assert.match(
    await companion.page.locator('posenc-compare').evaluate((e) => (e.shadowRoot ?? e).textContent),
    /Point at or tap any panel/,
  );
  assert.deepEqual(companion.log.errors, []);
  await companion.context.close();
});

test('numbers in running text, captions and labels take the minus sign (tables of values and code keep "-")', async () => {
  const stray = [];
  // The defaults, and settings that make more numbers negative (§1's differences, small d, random contents).
  // Each page reads its own settings of the query and ignores the other's.
  for (const query of ['', '?rd.d=2&rope.content=random&cmp.content=tokens&t2.check=-0.8,0.9&fam.causal=on'])
    for (const which of ['lesson', 'companion']) {
      const { page, log, context } = await pageAt(query, { page: which });
      stray.push(
        ...(await page.evaluate(() => {
          const hyphenNumber = /(^|[^\w])-(?=\.?\d)/;
          const found = [];
          const skip = 'pre, code, .katex, input, textarea, table.numbers td, [hidden]';
          const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (node.parentElement.closest(skip) || !hyphenNumber.test(node.textContent)) continue;
            found.push(`#${node.parentElement.closest('section')?.id}: ${node.textContent.trim().slice(0, 120)}`);
          }
          for (const element of document.querySelectorAll('main [aria-label]')) {
            const label = element.getAttribute('aria-label');
            if (hyphenNumber.test(label))
              found.push(`#${element.closest('section')?.id} aria-label: ${label.slice(0, 120)}`);
          }
          return found;
        })),
      );
      assert.deepEqual(log.errors, []);
      await context.close();
    }
  assert.deepEqual(stray, []);
});

test('the opening sentence itself admits that a causal mask lets a model infer some order', async () => {
  const { log, context, text } = await pageAt('');
  const opening = (await text('.lede')).split('. ')[0];
  assert.match(opening, /without a causal mask/);
  assert.match(opening, /Haviv et al\., 2022/);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('the single file under a foreign strict CSP says what to do; run normally, the hint is gone', async () => {
  const url = new URL('single/posenc-tutorial.html', server.pageUrl).href;
  const { page, log, context } = await openPage(browser);
  // A site-wide policy that allows no inline script: it overrides the file's own meta CSP.
  await page.route(url, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/html; charset=utf-8',
      headers: { 'Content-Security-Policy': "default-src 'self'" },
      body: readFileSync(SINGLE_FILE),
    }),
  );
  await page.goto(url, { waitUntil: 'load' });
  const status = page.locator('#engine-status');
  assert.ok(await status.isVisible());
  assert.match(
    await status.textContent(),
    /If this message stays, the page’s scripts\s+could not run here: .*Content-Security-Policy header/s,
  );
  assert.ok(
    log.errors.some((e) => /Content Security Policy/.test(e)),
    `the policy blocked the script: ${log.errors}`,
  );
  await context.close();

  const normal = await openPage(browser);
  await gotoAndSettle(normal.page, url);
  const shown = await normal.page.locator('#engine-status').textContent();
  assert.doesNotMatch(shown, /If this message stays/);
  assert.match(shown, /WebAssembly build/);
  assert.deepEqual(normal.log.errors, []);
  await normal.context.close();
});
