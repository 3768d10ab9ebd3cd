// End-to-end: the built tutorial page in headless Chromium, served under a sub-path (/site/).
// Checks that it loads cleanly and offline, and that what every plot shows is what posenc
// computes (recomputed here in Node, compared pixel by pixel at sampled cells).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { artifactPath, gotoAndSettle, openPage, waitForIdle } from './support/browser.js';
import { checkHeatmapPixels, contrast, extentOf } from './support/colors.js';
import { readLinePlot } from './support/lineplot.js';
import {
  comparisonPanels,
  peDotProducts,
  posenc,
  ropeScores,
  sentenceScores,
  sinusoidalTable,
  tile,
  wordEmbedding,
} from './support/reference.js';
import { usePageSession } from './support/session.js';

const session = usePageSession();
let browser;
let server;
let page;
let log;
let companion; // the advanced companion, open beside the lesson for the sections that moved there
before(async () => {
  ({ browser, server, page, log } = await session);
  companion = await openPage(browser);
  await gotoAndSettle(companion.page, server.companionUrl);
});
after(async () => companion?.context.close());

/** The page of the two that shows the plot `name`. */
async function pageWith(name) {
  return (await page.locator(`figure[data-plot="${name}"]`).count()) > 0 ? page : companion.page;
}

const PLOTS = {
  heatmap: [
    'order-a-plain',
    'order-b-plain',
    'order-diff-plain',
    'order-a-pos',
    'order-b-pos',
    'order-diff-pos',
    'sinusoidal-table',
    'relative-distance',
    'rope-similarity',
    'compare-naive',
    'compare-sinusoidal',
    'compare-rope',
    'layout-interleaved',
    'layout-concat',
  ],
  lineplot: [
    'naive-norms',
    'sinusoidal-dimensions',
    'relative-distance-curve',
    'rope-layout-mismatch',
    'float32-precision',
  ],
  vectors: ['tokens-2d', 'rope-rotation'],
};

test('loads with no console errors, under strict CSP, and makes no request beyond its own server', async () => {
  assert.deepEqual(log.errors, [], 'console errors');
  assert.deepEqual(log.warnings, [], 'console warnings');
  assert.deepEqual(companion.log.errors, [], 'console errors on the companion');
  assert.deepEqual(companion.log.warnings, [], 'console warnings on the companion');
  const foreign = [...log.requests, ...companion.log.requests].filter(
    (url) => !url.startsWith(`${server.origin}/site/`) && !url.startsWith('data:') && !url.startsWith('blob:'),
  );
  assert.deepEqual(foreign, [], "requests that leave the page's own folder");
  assert.ok(
    log.requests.some((url) => url.endsWith('.wasm')),
    'the WASM module was fetched from the server',
  );
  assert.ok(
    log.requests.some((url) => url.endsWith('.woff2')),
    'KaTeX fonts come from the server',
  );
  assert.match(await page.locator('#engine-status').textContent(), /SIMD WebAssembly/);
  const cspHeader = await page.evaluate(async () =>
    (await fetch(location.href)).headers.get('content-security-policy'),
  );
  assert.match(
    cspHeader,
    /script-src 'self' 'wasm-unsafe-eval'/,
    'the test server sends a strict CSP, so it was in force',
  );
});

test('the footer links to the widgets gallery, which the site serves', async () => {
  const href = await page.locator('#widgets-link').evaluate((link) => link.href);
  assert.equal(new URL(href).pathname, new URL('widgets.html', page.url()).pathname);
  const response = await page.request.get(href);
  assert.equal(response.status(), 200);
  assert.match(await response.text(), /<title>posenc widgets/);
});

test('every section has drawn its plots', async () => {
  for (const name of PLOTS.heatmap) {
    const distinct = await (await pageWith(name))
      .locator(`figure[data-plot="${name}"] canvas.heatmap-cells`)
      .evaluate((canvas) => {
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        const colours = new Set();
        for (let i = 0; i < data.length && colours.size < 3; i += 4)
          colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
        return { colours: colours.size, opaque: data[3] === 255, width: canvas.width };
      });
    assert.ok(distinct.opaque && distinct.width > 1, `${name} is drawn`);
    // The "without positions" difference panel is uniformly 0 by design; all others vary.
    if (name !== 'order-diff-plain') assert.ok(distinct.colours > 1, `${name} shows more than one colour`);
  }
  for (const name of PLOTS.lineplot) {
    const { series } = await readLinePlot(await pageWith(name), name);
    const counts = Object.values(series).map((points) => points.length);
    assert.ok(counts.length >= 2 && counts.every((n) => n > 10), `${name} has its series drawn (${counts})`);
  }
  for (const name of PLOTS.vectors) {
    assert.ok(
      (await (await pageWith(name)).locator(`figure[data-plot="${name}"] g.arrow`).count()) >= 2,
      `${name} has arrows`,
    );
  }
});

test('why order matters: A and reordered B identical without positions, different with them', async () => {
  const a = sentenceScores('The cat sat on the mat', false);
  const reorderedB = sentenceScores('The mat sat on the cat', false);
  assert.deepEqual(a.words, ['the', 'cat', 'sat', 'on', 'the', 'mat']);
  const n = a.words.length;
  const domain = extentOf(a.scores);
  await checkHeatmapPixels(page, 'order-a-plain', {
    rows: n,
    cols: n,
    expected: (r, c) => a.scores[r * n + c],
    domain,
    samples: 36,
  });
  // B's words in A's order: the→0, cat→5 (B's cat is last), sat→2, on→3, the→4, mat→1.
  const map = [0, 5, 2, 3, 4, 1];
  await checkHeatmapPixels(page, 'order-b-plain', {
    rows: n,
    cols: n,
    expected: (r, c) => reorderedB.scores[map[r] * n + map[c]],
    domain,
    samples: 36,
  });
  assert.match(await page.locator('#order-plain-diff').textContent(), /= 0\. Identical/);
  const withA = sentenceScores('The cat sat on the mat', true);
  const withB = sentenceScores('The mat sat on the cat', true);
  const diff = (r, c) => withA.scores[r * n + c] - withB.scores[map[r] * n + map[c]];
  let largest = 0;
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) largest = Math.max(largest, Math.abs(diff(r, c)));
  assert.ok(largest > 0.5);
  await checkHeatmapPixels(page, 'order-diff-pos', {
    rows: n,
    cols: n,
    expected: diff,
    domain: [-largest, largest],
    samples: 36,
  });
  assert.match(
    await page.locator('#order-pos-diff').textContent(),
    new RegExp(`Largest difference = ${largest.toPrecision(3)}`),
  );
});

test('sinusoidal table heatmap: pixels match posenc.sinusoidal on the diverging scale [-1, 1]', async () => {
  const table = sinusoidalTable({ seqLen: 128, dModel: 128 });
  const { colormap } = await checkHeatmapPixels(page, 'sinusoidal-table', {
    rows: 128,
    cols: 128,
    expected: (r, c) => table[r * 128 + c],
    domain: [-1, 1],
    samples: 80,
  });
  assert.equal(colormap, 'diverging');
  // The post's snippet and the torch-style print of the live table sit side by side.
  assert.match(await page.locator('#pe-code').textContent(), /d_model = 128\nseq_len = 128\nn = 10000/);
  assert.match(await page.locator('#pe-output').textContent(), /\[ 0\.8415, {2}0\.5403, {2}0\.7617, {2}0\.6479/);
  // The posts' snippets start closed, the printed table shown; each title opens its code.
  assert.equal(await page.locator('#pe-output').isVisible(), true);
  for (const name of ['pe', 'rope']) {
    const code = page.locator(`#${name}-code`);
    assert.equal(await code.isVisible(), false, `#${name}-code starts closed`);
    await page.locator(`#${name}-code-title`).click();
    assert.equal(await code.isVisible(), true, `#${name}-code-title opens it`);
    await page.locator(`#${name}-code-title`).click();
    assert.equal(await code.isVisible(), false, `#${name}-code-title closes it again`);
  }
});

test('relative distance: PE(i)·PE(j) heatmap and curve, with the 0-vs-1 and 0-vs-10 numbers', async () => {
  const dots = peDotProducts({ seqLen: 128, dModel: 64 });
  await checkHeatmapPixels(page, 'relative-distance', {
    rows: 128,
    cols: 128,
    expected: (r, c) => dots[r * 128 + c],
    domain: extentOf(dots),
    samples: 60,
  });
  const { series, yPerUnit } = await readLinePlot(page, 'relative-distance-curve');
  const curve = series['from position 0'];
  assert.equal(curve.length, 128);
  curve.forEach(([x, y], k) => {
    assert.ok(Math.abs(x - k) < 0.01, `curve x ${x} at ${k}`);
    assert.ok(Math.abs(y - dots[k]) <= 0.006 * yPerUnit + 1e-6, `curve at distance ${k}: ${y} vs ${dots[k]}`);
  });
  // Independent of posenc: PE(0)·PE(k) = sum over pairs of cos(k * w_i), in float64.
  const exact = (k) =>
    Array.from({ length: 32 }, (_, i) => Math.cos(k / 10000 ** ((2 * i) / 64))).reduce((s, v) => s + v, 0);
  const claims = await page.locator('#rd-claims').textContent();
  assert.match(claims, new RegExp(`PE\\(0\\)·PE\\(1\\) = ${exact(1).toPrecision(6)}`));
  assert.match(claims, new RegExp(`PE\\(0\\)·PE\\(10\\) = ${exact(10).toPrecision(6)}`));
});

test('RoPE similarity heatmap over positions 0..1000 has diagonal stripes and matches posenc', async () => {
  const scores = ropeScores({ seqLen: 1001, headDim: 64 });
  await checkHeatmapPixels(page, 'rope-similarity', {
    rows: 1001,
    cols: 1001,
    expected: (r, c) => scores[r * 1001 + c],
    domain: extentOf(scores),
    samples: 80,
  });
  // Stripes: every pixel equals the one diagonally down-right of it (the score depends on m - n only).
  const stripes = await page.locator('figure[data-plot="rope-similarity"] canvas.heatmap-cells').evaluate((canvas) => {
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let differ = 0;
    for (let r = 0; r + 1 < canvas.height; r += 7) {
      for (let c = 0; c + 1 < canvas.width; c += 7) {
        const a = (r * canvas.width + c) * 4;
        const b = ((r + 1) * canvas.width + c + 1) * 4;
        if (Math.abs(data[a] - data[b]) + Math.abs(data[a + 1] - data[b + 1]) + Math.abs(data[a + 2] - data[b + 2]) > 6)
          differ++;
      }
    }
    return differ;
  });
  assert.equal(stripes, 0, 'pixels that differ from their diagonal neighbour');
});

test('three encodings side by side: one shared scale, pixels match, only RoPE is a function of m - n', async () => {
  const { page } = companion; // the section is the companion's
  const panels = comparisonPanels({ seqLen: 128, dModel: 32 });
  for (const [key, values] of Object.entries(panels)) {
    await checkHeatmapPixels(page, `compare-${key}`, {
      rows: 128,
      cols: 128,
      expected: (r, c) => values[r * 128 + c],
      domain: [-1, 1],
      samples: 40,
    });
  }
  const spreads = await page.locator('#cmp-spreads li').allTextContents();
  assert.match(spreads[2], /a function of m − n alone/);
  assert.doesNotMatch(spreads[1], /alone/);
  // The shift read-out: RoPE's score is unchanged by shifting both positions; the additive one is not.
  const ropeRow = await page.locator('#rope-shift-table tr[data-row="rope"] td').allTextContents();
  const addedRow = await page.locator('#rope-shift-table tr[data-row="added"] td').allTextContents();
  assert.ok(Math.abs(Number(ropeRow[0]) - Number(ropeRow[1])) < 1e-4, `RoPE ${ropeRow}`);
  assert.ok(Math.abs(Number(addedRow[0]) - Number(addedRow[1])) > 0.1, `added ${addedRow}`);
  // The crosshair is synchronised: hovering one panel moves the others' crosshairs to the same cell.
  const naive = page.locator('figure[data-plot="compare-naive"] canvas.heatmap-cells');
  await naive.scrollIntoViewIfNeeded();
  const box = await naive.boundingBox();
  await naive.hover({ position: { x: box.width * (40.5 / 128), y: box.height * (10.5 / 128) } });
  assert.match(await page.locator('#cmp-readout').textContent(), /m = 10, n = 40 \(m − n = -30\)/);
  const crosshairs = await page
    .locator('figure[data-plot^="compare-"] .crosshair-y')
    .evaluateAll((nodes) => nodes.map((n) => [n.hidden, n.style.left]));
  assert.equal(crosshairs.length, 3);
  for (const [hidden, left] of crosshairs) {
    assert.equal(hidden, false);
    assert.equal(left, crosshairs[0][1]);
  }
});

test('facts: layouts, RoPE pairings and float32 precision', async () => {
  const { page } = companion; // the section is the companion's
  for (const layout of ['interleaved', 'concat']) {
    const table = sinusoidalTable({ seqLen: 64, dModel: 64, layout });
    await checkHeatmapPixels(page, `layout-${layout}`, {
      rows: 64,
      cols: 64,
      expected: (r, c) => table[r * 64 + c],
      domain: [-1, 1],
      samples: 40,
    });
  }
  // The maxima of the float32 code of 'Positional Embeddings Explained' against posenc, as measured with PyTorch in the domain notes.
  const maxima = await page.locator('#fx-precision-table td').allTextContents();
  assert.deepEqual(maxima, ['0.00012', '0.0019', '0.061']);
  const limits = await page.locator('#fx-precision-table th[scope="row"]').allTextContents();
  assert.match(limits.at(-1), /^below \d+ \(every 61st beyond 32768\)$/, limits.at(-1));
  const { series } = await readLinePlot(page, 'float32-precision');
  const own = series['posenc − float64'].map(([, y]) => y);
  const float32 = series['float32 PyTorch code of “Positional Embeddings Explained” − posenc'].map(([, y]) => y);
  assert.ok(Math.max(...own) < 1.2e-7, `posenc's own error ${Math.max(...own)}`);
  assert.ok(Math.max(...float32) > 0.03, `float32 error near 1e6 ${Math.max(...float32)}`);
  // RoPE pairings: the same q, k scored at distance 0..63 with each layout (random vectors from seeds 11, 12).
  const { series: pairings, yPerUnit } = await readLinePlot(page, 'rope-layout-mismatch');
  const { randomMatrix } = await import('../../widgets/tokens.js');
  for (const layout of ['interleaved', 'half']) {
    const q = posenc.rope(tile(randomMatrix(11, 1, 64), 64), { seqLen: 64, headDim: 64, layout });
    const k = posenc.rope(randomMatrix(12, 1, 64), { seqLen: 1, headDim: 64, layout });
    const expected = posenc.similarity(q, k, { rows: 64, cols: 1, dim: 64 });
    pairings[`${layout} pairing`].forEach(([, y], d) => {
      assert.ok(Math.abs(y - expected[d]) <= 0.006 * yPerUnit + 1e-5, `${layout} at ${d}`);
    });
  }
});

test('line plots: single dimensions and the naive norm explosion match posenc', async () => {
  const table = sinusoidalTable({ seqLen: 128, dModel: 128 });
  const { series, yPerUnit } = await readLinePlot(companion.page, 'sinusoidal-dimensions');
  for (const k of [0, 20, 60, 120]) {
    const points = series[`dimension ${k}`];
    assert.equal(points.length, 128);
    points.forEach(([, y], p) => {
      assert.ok(Math.abs(y - table[p * 128 + k]) <= 0.006 * yPerUnit + 1e-6, `dimension ${k} at ${p}`);
    });
  }
  const naive = await readLinePlot(page, 'naive-norms');
  const cat = wordEmbedding('cat', 64);
  const numbers = posenc.positionNumbers({ seqLen: 1024, dModel: 64 });
  const sinus = posenc.addSinusoidal(tile(cat, 1024), { seqLen: 1024, dModel: 64 });
  const norm = (row) => Math.hypot(...row);
  naive.series['x + position number'].forEach(([, y], p) => {
    const expected = norm(Array.from(cat, (v, c) => v + numbers[p * 64 + c]));
    assert.ok(Math.abs(y - expected) <= 0.006 * naive.yPerUnit + 1e-3, `naive norm at ${p}: ${y} vs ${expected}`);
  });
  naive.series['x + sinusoidal PE'].forEach(([, y], p) => {
    assert.ok(
      Math.abs(y - norm(sinus.subarray(p * 64, (p + 1) * 64))) <= 0.006 * naive.yPerUnit + 1e-3,
      `sinusoidal norm at ${p}`,
    );
  });
});

test('2-D tokens and the RoPE rotation are drawn where posenc puts them', async () => {
  const words = new Float32Array([1.2, 0.4, -0.8, 0.9, 0.3, -1.1]);
  const sums = posenc.addSinusoidal(words.slice(), { seqLen: 3, dModel: 2 });
  const drawn = await page
    .locator('figure[data-plot="tokens-2d"] g.arrow[data-role="sum"]')
    .evaluateAll((nodes) => nodes.map((n) => n.dataset.to.split(',').map(Number)));
  assert.deepEqual(drawn, [
    [sums[0], sums[1]],
    [sums[2], sums[3]],
    [sums[4], sums[5]],
  ]);
  // Independent of posenc: (1.2, 0.4) + (sin 0, cos 0), (-0.8, 0.9) + (sin 1, cos 1), ...
  [0, 1, 2].forEach((p) => {
    assert.ok(Math.abs(drawn[p][0] - (words[2 * p] + Math.sin(p))) < 1e-6);
    assert.ok(Math.abs(drawn[p][1] - (words[2 * p + 1] + Math.cos(p))) < 1e-6);
  });
  // The unit circle relates to what is drawn: each PE(p) from the origin ends on it, and the dashed
  // arrow from the word's tip is that same vector.
  const pes = await page
    .locator('figure[data-plot="tokens-2d"] g.arrow[data-role="pe-origin"]')
    .evaluateAll((nodes) => nodes.map((n) => ({ to: n.dataset.to.split(',').map(Number), label: n.dataset.label })));
  const moved = await page
    .locator('figure[data-plot="tokens-2d"] g.arrow[data-role="pe"]')
    .evaluateAll((nodes) => nodes.map((n) => [n.dataset.from, n.dataset.to].map((v) => v.split(',').map(Number))));
  pes.forEach(({ to, label }, p) => {
    assert.equal(label, `PE(${p})`);
    assert.ok(Math.abs(Math.hypot(...to) - 1) < 1e-6, `PE(${p}) on the unit circle`);
    const [from, tip] = moved[p];
    assert.ok(Math.abs(tip[0] - from[0] - to[0]) < 1e-6 && Math.abs(tip[1] - from[1] - to[1]) < 1e-6);
  });
  // Labels stay inside the plot, also for vectors at the edge of the range.
  const fresh = await openPage(browser);
  await gotoAndSettle(fresh.page, `${server.pageUrl}?t2.check=10,0&t2.this=-10,0.5&t2.out=0,-10`);
  const outside = await fresh.page.locator('figure[data-plot="tokens-2d"] svg').evaluate((svg) => {
    const frame = svg.getBoundingClientRect();
    return [...svg.querySelectorAll('text.arrow-label')]
      .map((t) => ({ label: t.textContent, box: t.getBoundingClientRect() }))
      .filter(
        ({ box }) =>
          box.left < frame.left - 1 ||
          box.right > frame.right + 1 ||
          box.top < frame.top - 1 ||
          box.bottom > frame.bottom + 1,
      )
      .map(({ label }) => label);
  });
  assert.deepEqual(outside, []);
  await fresh.context.close();
  const rotated = await page
    .locator('figure[data-plot="rope-rotation"] g.arrow[data-role="rotated"]')
    .evaluate((n) => n.dataset.to.split(',').map(Number));
  const x = new Float32Array(8);
  x.set([1, 0.5]);
  const expected = posenc.rope(x, { seqLen: 1, headDim: 8, offset: 3 });
  assert.deepEqual(rotated, [expected[0], expected[1]]);
  assert.ok(Math.abs(rotated[0] - (Math.cos(3) - 0.5 * Math.sin(3))) < 1e-6);
});

test('the worked example shows exact values and flags where Jaitly truncated', async () => {
  const pe = await page.locator('#we-pe-table tr[data-word="cat"] td.exact').allTextContents();
  assert.deepEqual(pe, ['0.841471', '0.5403023', '0.009999833', '0.99995']);
  const flagged = await page.locator('#we-pe-table td.truncated').allTextContents();
  assert.equal(flagged.length, 1);
  assert.match(flagged[0], /^0\.999 ✗ truncated: 0\.99995 rounds to 1\.000/);
  const sums = await page.locator('#we-sum-table tr[data-word="cat"] td.exact').textContent();
  assert.equal(sums, '[1.041471, 1.440302, 0.4099998, 1.59995]');
  assert.deepEqual(await page.locator('#we-sum-table mark.truncated').allTextContents(), ['1.599']);
  assert.match(await page.locator('#we-note').textContent(), /cos\(0\.01\) = 0\.99995.*0\.6 \+ 0\.99995 = 1\.59995/);
});

test('controls are labelled and plots have text alternatives', async () => {
  const unlabelled = await page.evaluate(() =>
    [...document.querySelectorAll('input, select, textarea, button')]
      .filter((node) => !node.labels?.length && !node.getAttribute('aria-label') && !node.textContent.trim())
      .map((node) => node.id || node.outerHTML.slice(0, 80)),
  );
  assert.deepEqual(unlabelled, []);
  const ids = await page.evaluate(() => [...document.querySelectorAll('[id]')].map((n) => n.id));
  assert.equal(new Set(ids).size, ids.length, 'element ids are unique');
  const missing = await page.evaluate(() =>
    [...document.querySelectorAll('figure.plot')]
      .filter(
        (figure) =>
          !figure.querySelector('figcaption')?.textContent.trim() ||
          !figure.querySelector('[aria-label]')?.getAttribute('aria-label'),
      )
      .map((figure) => figure.dataset.plot),
  );
  assert.deepEqual(missing, []);
  // Keyboard: focusing a heatmap and pressing arrow keys moves the read-out.
  await page.locator('figure[data-plot="sinusoidal-table"] canvas.heatmap-cells').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  assert.match(await page.locator('#pe-readout').textContent(), /^position 1, dimension 1 \(pair i = 0, cos\)/);
  assert.match(await page.locator('#pe-hover-formula').textContent(), /cos/);
});

test('every control has a distinct name, and its border and focus ring contrast 3:1 (WCAG 1.4.11)', async () => {
  const names = await page.evaluate(() =>
    [...document.querySelectorAll('button')].map((b) => b.getAttribute('aria-label') ?? b.textContent.trim()),
  );
  const repeated = names.filter((name, i) => names.indexOf(name) !== i);
  assert.deepEqual(repeated, [], 'buttons with the same name');
  const box = page.locator('#ctl-pe-seq');
  await box.focus();
  const styles = await box.evaluate((node) => {
    const style = getComputedStyle(node);
    const background = getComputedStyle(document.body).backgroundColor;
    return { border: style.borderTopColor, outline: style.outlineColor, background };
  });
  assert.ok(contrast(styles.border, styles.background) >= 3, `border ${styles.border}`);
  assert.ok(contrast(styles.outline, styles.background) >= 3, `focus ring ${styles.outline}`);
  // A title that changes takes its buttons' names with it (the companion's long-context heatmap).
  await companion.page.locator('#ctl-lc-preset').selectOption('qwen2.5');
  await waitForIdle(companion.page);
  const scaled = companion.page.locator('figure[data-plot="long-context-scaled"]');
  const title = await scaled.locator('.plot-title').textContent();
  assert.equal(
    await scaled.locator('button.export-png').getAttribute('aria-label'),
    `Download the ${title} heatmap as PNG`,
  );
  await companion.page.locator('#ctl-lc-preset').selectOption('llama3.1');
  await waitForIdle(companion.page);
});

test('screenshots: desktop and 375-px phone (no horizontal scrolling)', async () => {
  await page.screenshot({ path: artifactPath('page-desktop.png'), fullPage: true });
  const phone = await openPage(browser, { width: 375, height: 800 });
  await gotoAndSettle(phone.page, server.pageUrl);
  const overflow = await phone.page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  assert.equal(overflow, 0, 'horizontal overflow on a phone-width screen');
  // Tables fit their box on both screens: nothing (the flagged 1.599, the post's column) needs scrolling.
  for (const [who, p] of [
    ['desktop', page],
    ['phone', phone.page],
  ]) {
    const hidden = await p.evaluate(() =>
      [...document.querySelector('posenc-worked-example').shadowRoot.querySelectorAll('#we-sum-table, #we-pe-table')]
        .filter((table) => table.parentElement.scrollWidth > table.parentElement.clientWidth)
        .map((table) => `${table.id}: ${table.parentElement.scrollWidth} > ${table.parentElement.clientWidth}`),
    );
    assert.deepEqual(hidden, [], `${who}: worked-example tables that scroll`);
  }
  await phone.page.screenshot({ path: artifactPath('page-phone.png'), fullPage: true });
  assert.deepEqual(phone.log.errors, []);
  await phone.context.close();
});

test('fixed text follows the settings and the posts are quoted, not echoed', async () => {
  const fresh = await openPage(browser);
  await gotoAndSettle(fresh.page, `${server.pageUrl}?naive.seq=2&pe.d=2&rope.seq=2048`);
  const naive = await fresh.page.locator('#naive-similarity').textContent();
  assert.doesNotMatch(naive, /drowns the meaning:/, naive);
  assert.match(naive, /the position is already pulling them together; longer sequences drown the meaning/);
  const peCaption = await fresh.page.locator('figure[data-plot="sinusoidal-table"] figcaption').textContent();
  assert.doesNotMatch(peCaption, /Columns on the left change quickly/);
  assert.match(peCaption, /With one pair there is one speed/);
  assert.equal(await fresh.page.locator('#rope-heatmap-title').textContent(), 'The score over positions 0 … 2047');

  // Defaults: the position does drown the meaning at 1023; the heading says 0 … 1000.
  await gotoAndSettle(fresh.page, server.pageUrl);
  assert.match(await fresh.page.locator('#naive-similarity').textContent(), /the position drowns the meaning/);
  assert.equal(await fresh.page.locator('#rope-heatmap-title').textContent(), 'The score over positions 0 … 1000');
  // §5: one notation, and no float32-rounding claim about an exact value.
  assert.deepEqual(await fresh.page.locator('#we-pe-table thead th').allTextContents(), [
    'word, channel',
    'formula (pair i = channel ÷ 2)',
    'exact value (posenc)',
    'Jaitly printed',
  ]);
  const note = await fresh.page.locator('#we-note').textContent();
  assert.doesNotMatch(note, /can carry float32 rounding/);
  assert.match(note, /0\.4099998 is the sum’s exact value \(0\.40999983…\)/);
  // The opening admits what a causal mask gives; claims carry their sources.
  // (On either page: the precision sections that cite transformers are the companion's.)
  const text = [
    await fresh.page.locator('main').textContent(),
    await companion.page.locator('main').textContent(),
  ].join('\n');
  assert.match(text, /causal\s+mask lets each token see only the tokens before it/);
  assert.doesNotMatch(text, /most reported class of RoPE bugs|why a RoPE model falls apart/);
  assert.match(text, /transformers pull request 29285/);
  // The posts' claims left standing before: extrapolation, and code the post never had.
  assert.match(await companion.page.locator('#pe-extrapolation').textContent(), /Press et al\. \(2021/);
  assert.equal(
    await fresh.page.locator('#pe-code-title').textContent(),
    'The PyTorch code of “Positional Embeddings Explained”, with these settings',
  );
  assert.match(
    await fresh.page.locator('#rope-code-title').textContent(),
    /of width d_model; a model rotates .* head_dim/,
  );
  await fresh.page.locator('#ctl-pe-layout-concat').check();
  await fresh.page.locator('#ctl-rope-layout-half').check();
  await waitForIdle(fresh.page);
  assert.match(
    await fresh.page.locator('#pe-code-title').textContent(),
    /changed for the concat layout \(the post has only/,
  );
  assert.match(
    await fresh.page.locator('#rope-code-title').textContent(),
    /changed for the half layout \(the post has only/,
  );
  assert.deepEqual(fresh.log.errors, []);
  await fresh.context.close();
});

test('hovering the top of the tall §3 heatmap keeps its read-out and formula on screen', async () => {
  // Below 1100 px the heatmap is tall, with its panel beside it (from 1100 px it stands beside the
  // section's text, with the panel under it: sinusoidal-readout.test.js). In a 600-px window the
  // panel would be out of sight under it.
  const fresh = await openPage(browser, { width: 1060, height: 600 });
  await gotoAndSettle(fresh.page, server.pageUrl);
  const canvas = fresh.page.locator('figure[data-plot="sinusoidal-table"] canvas.heatmap-cells');
  await canvas.evaluate((node) => node.scrollIntoView({ block: 'start' }));
  const box = await canvas.boundingBox();
  assert.ok(box.height > 400, `the heatmap is ${box.height} px tall`); // the read-out panel beside it takes 21rem
  await fresh.page.mouse.move(box.x + box.width * 0.3, box.y + 20);
  await waitForIdle(fresh.page);
  for (const selector of ['#pe-readout', '#pe-hover-formula']) {
    const shown = await fresh.page.locator(selector).boundingBox();
    assert.ok(shown && shown.y >= 0 && shown.y + shown.height <= 600, `${selector} at ${JSON.stringify(shown)}`);
  }
  assert.match(await fresh.page.locator('#pe-readout').textContent(), /^position \d+, dimension \d+/);
  assert.match(await fresh.page.locator('#pe-hover-formula').textContent(), /sin|cos/);
  await fresh.context.close();
});
