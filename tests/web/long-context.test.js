// End-to-end: the long-context section (10). Its presets are the model configs of the golden
// scaling vectors (Hugging Face's formulas, torch float64); its wavelength curves, attention
// factor and score heatmaps are recomputed here in Node — from the golden configs, through
// posenc.rope (the page uses ropeQK) and, for some cells, in float64 from the golden
// frequencies alone — and compared with what the browser drew.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { artifactPath, gotoAndSettle, openPage, waitForIdle } from './support/browser.js';
import { readLinePlot } from './support/lineplot.js';
import { checkPanels, MODELS, model, sampledPositions } from './support/long-context.js';
import { posenc } from './support/reference.js';
import { usePageSession } from './support/session.js';
import { LONG_CONTEXT_PRESETS } from '../../web/src/long-context-presets.js';

const wavelengthsOf = (invFreq) => Array.from(invFreq, (w) => (2 * Math.PI) / w);

/** Every point of a drawn series equals `expected` (wavelength per pair) to the SVG's 2-decimal resolution. */
function assertSeries(drawn, expected, label) {
  assert.ok(drawn, `series "${label}" is drawn`);
  assert.equal(drawn.length, expected.length, `${label}: one point per pair`);
  drawn.forEach(([x, y], i) => {
    assert.ok(Math.abs(x - i) < 0.01, `${label}: x ${x} at pair ${i}`);
    assert.ok(Math.abs(y / expected[i] - 1) < 1e-3, `${label}: pair ${i} drawn at ${y}, expected ${expected[i]}`);
  });
}

function attentionFactorShown(page) {
  return page
    .locator('#lc-attention')
    .evaluate((node) => ({ exact: Number(node.dataset.attentionFactor), text: node.textContent }));
}

const session = usePageSession({ page: 'companion' });
let browser;
let server;
let page;
let log;
before(async () => ({ browser, server, page, log } = await session));

test("the presets are the real models' configs (base, rotary dim, scaling) and all are offered", async () => {
  assert.deepEqual(
    LONG_CONTEXT_PRESETS.map((p) => p.id),
    Object.keys(MODELS),
  );
  for (const preset of LONG_CONTEXT_PRESETS) {
    const golden = model(preset.id);
    assert.equal(preset.base, golden.base, `${preset.id} base`);
    assert.equal(preset.rotaryDim, golden.rotaryDim, `${preset.id} rotary dim`);
    assert.deepEqual(preset.scaling, golden.scaling, `${preset.id} scaling`);
    assert.equal(preset.trainedLength, golden.trainedLength, `${preset.id} training length`);
  }
  const options = await page.locator('#ctl-lc-preset option').evaluateAll((nodes) => nodes.map((n) => n.value));
  assert.deepEqual(options, Object.keys(MODELS));
  assert.equal(await page.locator('label[for="ctl-lc-preset"]').textContent(), 'model preset');
  assert.deepEqual(log.errors, []);
});

test('wavelength plot (Llama 3.1 8B): every pair as posenc.ropeSchedule and the golden frequencies give it', async () => {
  const llama = model('llama3.1');
  const { series } = await readLinePlot(page, 'long-context-wavelengths');
  const plain = posenc.ropeSchedule({ rotaryDim: 128, base: 500000 });
  const scaled = posenc.ropeSchedule({ rotaryDim: 128, base: 500000, scaling: llama.scaling });
  const linear = posenc.ropeSchedule({ rotaryDim: 128, base: 500000, scaling: { type: 'linear', factor: 8 } });
  assertSeries(series['no scaling'], wavelengthsOf(plain.invFreq), 'no scaling');
  assertSeries(series['llama3, factor 8'], wavelengthsOf(scaled.invFreq), 'llama3');
  assertSeries(series['llama3, factor 8'], wavelengthsOf(llama.invFreq), 'llama3 vs golden');
  assertSeries(series['linear, factor 8 (for comparison)'], wavelengthsOf(linear.invFreq), 'linear comparison');
  // Independent of posenc: the unscaled wavelength of pair i is 2π · base^(2i/d).
  series['no scaling'].forEach(([, y], i) => {
    assert.ok(Math.abs(y / (2 * Math.PI * 500000 ** ((2 * i) / 128)) - 1) < 1e-3);
  });

  // The training length is a horizontal reference line at L0 = 8192, named in the key.
  const mark = await page.locator('figure[data-plot="long-context-wavelengths"] svg.lineplot-svg').evaluate((svg) => {
    const line = svg.querySelector('line.mark-line[data-mark]');
    return {
      y1: Number(line.getAttribute('y1')),
      y2: Number(line.getAttribute('y2')),
      label: line.dataset.mark,
      lo: Number(svg.dataset.yLo),
      hi: Number(svg.dataset.yHi),
    };
  });
  assert.equal(mark.y1, mark.y2, 'horizontal');
  const at = 10 ** (Math.log10(mark.lo) + (1 - mark.y1 / 600) * (Math.log10(mark.hi) - Math.log10(mark.lo)));
  assert.ok(Math.abs(at / 8192 - 1) < 1e-3, `L0 line drawn at ${at}`);
  assert.equal(mark.label, 'training length L0 = 8192');
  assert.match(
    await page.locator('figure[data-plot="long-context-wavelengths"] .series-key').textContent(),
    /training length L0 = 8192/,
  );
  assert.match(
    await page.locator('figure[data-plot="long-context-wavelengths"] figcaption').textContent(),
    /pairs 35–63 have their wavelengths above it, so they never complete a turn within it\. llama3 changes pairs 29–63, by its own rule, not by this line\./,
  );

  const shown = await attentionFactorShown(page);
  assert.equal(shown.exact, scaled.attentionFactor);
  assert.equal(shown.exact, llama.attentionFactor);
  assert.match(shown.text, /^Attention factor: 1 /);
  assert.match(
    await page.locator('#lc-stretch').textContent(),
    /Pairs 0–28 keep their wavelength; pairs 29–34 are stretched by .*; pairs 35–63 the most, 8×\./,
  );
});

test('score heatmaps beyond L0, without and with llama3 scaling: pixels match posenc on one shared scale', async () => {
  const expected = await checkPanels(page, 'llama3.1');
  assert.equal(expected.stride, 64);
  assert.equal(expected.count, 256);
  // Some cells in closed form from the golden frequencies alone: with k = q the score at distance Δ
  // is Σ_i w_i cos(Δ ω_i), w_i = q_i² + q_{i+d/2}² (half pairing; attention factor 1 for llama3),
  // and its mean over a block pair at offset o is Σ_i w_i cos(o·S·ω_i) F(ω_i)², with the Fejér
  // factor F(ω) = sin(S ω / 2) / (S sin(ω / 2)) for blocks of S positions.
  const golden = model('llama3.1');
  const q = expected.q;
  const S = expected.stride;
  const weights = Array.from({ length: 64 }, (_, i) => q[i] ** 2 + q[i + 64] ** 2);
  const fejer = (w) => Math.sin((S * w) / 2) / (S * Math.sin(w / 2));
  const blockMean = (invFreq, offset) =>
    invFreq.reduce((sum, w, i) => sum + weights[i] * Math.cos(offset * S * w) * fejer(w) ** 2, 0);
  const tolerance = 1e-5 * weights.reduce((a, b) => a + b); // float32 rounding of ~128 products
  const plainInvFreq = Array.from({ length: 64 }, (_, i) => 1 / 500000 ** ((2 * i) / 128));
  for (const [r, c] of [
    [0, 0],
    [0, 255],
    [200, 3],
    [255, 128],
  ]) {
    assert.ok(Math.abs(expected.plain[r * 256 + c] - blockMean(plainInvFreq, r - c)) < tolerance, `plain (${r}, ${c})`);
    assert.ok(
      Math.abs(expected.scaled[r * 256 + c] - blockMean(golden.invFreq, r - c)) < tolerance,
      `scaled (${r}, ${c})`,
    );
  }
  // The score at every distance, without the blocks: the curve below the heatmaps, against the
  // closed form at each drawn point (the SVG's 2-decimal resolution). Its 16 384 distances are
  // drawn through their extremes per unit of the 1000-unit view: first and last distance, and
  // the lowest and highest score of all among the points drawn.
  const distance = await readLinePlot(page, 'long-context-distance');
  const at = (invFreq, d) => invFreq.reduce((sum, w, i) => sum + weights[i] * Math.cos(d * w), 0);
  const margin = distance.yPerUnit * 0.006 + tolerance;
  for (const [label, invFreq] of [
    ['no scaling', plainInvFreq],
    ['llama3, factor 8 scaling', golden.invFreq],
  ]) {
    const points = distance.series[label];
    assert.ok(points.length > 1000 && points.length <= 4000, `${label}: ${points.length} points`);
    assert.deepEqual([points[0][0], points.at(-1)[0]].map(Math.round), [0, 16383], `${label}: every distance spanned`);
    for (const [x, y] of points) {
      const d = Math.round(x);
      assert.ok(Math.abs(y - at(invFreq, d)) <= margin, `${label} at ${d}`);
    }
    const scores = Array.from({ length: 16384 }, (_, d) => at(invFreq, d));
    const drawn = points.map(([, y]) => y);
    assert.ok(Math.abs(Math.max(...drawn) - Math.max(...scores)) <= margin, `${label}: highest score drawn`);
    assert.ok(Math.abs(Math.min(...drawn) - Math.min(...scores)) <= margin, `${label}: lowest score drawn`);
  }
  // The axes and read-outs name positions, not cell numbers: the last cell is position 16320.
  const canvas = page.locator('figure[data-plot="long-context-plain"] canvas.heatmap-cells');
  await canvas.focus();
  await page.keyboard.press('End');
  assert.match(
    await page.locator('figure[data-plot="long-context-plain"] .readout').textContent(),
    /^query position m 0, key position n 16320: /,
  );
  assert.match(
    await page.locator('#lc-readout').textContent(),
    /^m = 0…63, n = 16320…16383 \(m − n = −16320 on average\): mean score without scaling \S+, with llama3 \S+$/,
  );
  assert.equal(
    await page.locator('figure[data-plot="long-context-scaled"] .crosshair-y').isHidden(),
    false,
    "the other panel's crosshair follows",
  );
  await canvas.blur();
  // |m − n| = L0 guides on both panels, and the count of pairs pushed past the trained angles.
  assert.equal(await page.locator('figure[data-plot^="long-context-"] line.guide-line').count(), 4);
  const note = await page.locator('#lc-heatmap-note').evaluate((node) => ({ ...node.dataset, text: node.textContent }));
  // RoPE sees an angle through cos and sin only: it counts modulo 2π, so a pair that has turned
  // on past a full circle back into the angles training met is not pushed past them.
  const unseen = (invFreq) =>
    plainInvFreq
      .map((w, i) => [i, 8191 * w, (16383 * invFreq[i]) % (2 * Math.PI)])
      .filter(([, trained, angle]) => trained < 2 * Math.PI && angle > trained)
      .map(([i]) => i);
  const plainUnseen = unseen(plainInvFreq);
  assert.deepEqual(
    plainUnseen,
    Array.from({ length: 25 }, (_, k) => 39 + k),
    'pairs 39–63',
  );
  assert.deepEqual(note.unseenPlain.split(' ').map(Number), plainUnseen);
  assert.deepEqual(unseen(golden.invFreq), []);
  assert.equal(note.unseenScaled, '');
  assert.match(
    note.text,
    /m − n = 16383 .* 25 \(pairs 39–63\) of the 64 pairs .* with llama3, factor 8 scaling, none do\./,
  );
});

test('switching the preset redraws everything for that model and updates the URL', async () => {
  const cases = [
    {
      id: 'qwen2.5',
      series: ['yarn, factor 4', 'linear, factor 4 (for comparison)'],
      attention: /^Attention factor: 1\.138629 — .* its square, 1\.29648\.$/,
    },
    {
      id: 'phi3.5',
      series: [
        'longrope, L ≤ 4096 (short factors)',
        'longrope, L > 4096 (long factors)',
        'linear, factor 32 (for comparison)',
      ],
      attention: /^Attention factor: 1\.190238 /,
    },
    {
      id: 'deepseek-v3',
      series: ['yarn, factor 40', 'linear, factor 40 (for comparison)'],
      attention: /^Attention factor: 1 /,
    },
    { id: 'linear', series: ['linear, factor 2'], attention: /^Attention factor: 1 / },
    {
      id: 'dynamic',
      series: ['dynamic at L = 4096', 'linear, factor 2 (for comparison)'],
      attention: /^Attention factor: 1 /,
    },
  ];
  for (const { id, series: labels, attention } of cases) {
    const golden = model(id);
    const plotSvg = page.locator('figure[data-plot="long-context-wavelengths"] svg.lineplot-svg');
    const before = await plotSvg.innerHTML();
    await page.locator('#ctl-lc-preset').selectOption(id);
    await waitForIdle(page);
    await page.waitForFunction((value) => new URLSearchParams(location.search).get('lc.preset') === value, id);
    assert.notEqual(await plotSvg.innerHTML(), before, `${id}: the plot changed`);

    const { series } = await readLinePlot(page, 'long-context-wavelengths');
    assert.deepEqual(Object.keys(series), ['no scaling', ...labels], `${id}: series`);
    const schedule = (scaling, seqLen) =>
      posenc.ropeSchedule({ rotaryDim: golden.rotaryDim, base: golden.base, scaling, seqLen });
    assertSeries(series['no scaling'], wavelengthsOf(schedule().invFreq), `${id} no scaling`);
    const { positions, stride } = sampledPositions(2, golden.trainedLength, 256);
    const length = positions.length * stride; // the heatmap's length L (count · stride), which dynamic and longrope read
    if (id === 'phi3.5') {
      assertSeries(series[labels[0]], wavelengthsOf(schedule(golden.scaling, 4096).invFreq), 'longrope short');
      assertSeries(series[labels[1]], wavelengthsOf(golden.invFreq), 'longrope long vs golden');
    } else {
      assertSeries(series[labels[0]], wavelengthsOf(schedule(golden.scaling, length).invFreq), `${id} scaled`);
      if (id !== 'dynamic') assertSeries(series[labels[0]], wavelengthsOf(golden.invFreq), `${id} scaled vs golden`);
    }
    const comparison = labels.find((label) => label.startsWith('linear, factor') && label.endsWith('(for comparison)'));
    if (comparison) {
      const factor = Number(/factor (\d+)/.exec(comparison)[1]);
      assertSeries(
        series[comparison],
        wavelengthsOf(schedule({ type: 'linear', factor }).invFreq),
        `${id} linear comparison`,
      );
    }

    // The caption's claims about the pairs match the schedules (they once said the pairs above
    // L0 are the ones stretched, false for every preset).
    const plain = schedule().invFreq;
    const applied = schedule(golden.scaling, length).invFreq;
    const ranges = (list) =>
      list
        .reduce((runs, i) => {
          const last = runs.at(-1);
          if (last && last[1] === i - 1) last[1] = i;
          else runs.push([i, i]);
          return runs;
        }, [])
        .map(([a, b]) => (a === b ? `${a}` : `${a}–${b}`))
        .join(', ');
    const indices = [...plain.keys()];
    const above = indices.filter((i) => (2 * Math.PI) / plain[i] > golden.trainedLength);
    const changed = indices.filter((i) => Math.abs(plain[i] / applied[i] - 1) > 1e-9);
    const caption = await page.locator('figure[data-plot="long-context-wavelengths"] figcaption').textContent();
    assert.ok(caption.includes(`pairs ${ranges(above)} have their wavelengths above it`), `${id}: ${caption}`);
    const changes =
      changed.length === indices.length ? 'all pairs, the short wavelengths too' : `pairs ${ranges(changed)}`;
    assert.ok(caption.includes(`${golden.scaling.type} changes ${changes}`), `${id}: ${caption}`);

    const shown = await attentionFactorShown(page);
    assert.equal(
      shown.exact,
      schedule(golden.scaling, length).attentionFactor,
      `${id}: attention factor is ropeSchedule's`,
    );
    assert.ok(
      Math.abs(shown.exact - golden.attentionFactor) <= 1e-12 * golden.attentionFactor,
      `${id}: attention factor ${shown.exact} vs golden ${golden.attentionFactor}`,
    );
    assert.match(shown.text, attention, id);
    await checkPanels(page, id);
  }
  // Dynamic NTK at L = 4081 > L0 = 2048 really differs from no scaling (and its golden value at 4096 is close).
  const dynamicPlain = posenc.ropeSchedule({ rotaryDim: 128, base: 10000 }).invFreq;
  const dynamicAt = posenc.ropeSchedule({
    rotaryDim: 128,
    base: 10000,
    scaling: model('dynamic').scaling,
    seqLen: 4081,
  }).invFreq;
  assert.ok(dynamicPlain[63] / dynamicAt[63] > 2.5);
  assert.ok(Math.abs(dynamicAt[63] / model('dynamic').invFreq[63] - 1) < 0.01);
});

test('content, re-roll and span: seeded q and k in the URL, pixels still match', async () => {
  await page.locator('#ctl-lc-preset').selectOption('qwen2.5');
  await page.locator('#ctl-lc-content-qk').check();
  await page.locator('#lc-reroll').click();
  await page.locator('#ctl-lc-span').fill('3');
  await page.locator('#ctl-lc-span').press('Enter');
  await page.locator('#ctl-lc-cells').fill('200');
  await page.locator('#ctl-lc-cells').press('Enter');
  await waitForIdle(page);
  await page.waitForFunction(() => {
    const query = new URLSearchParams(location.search);
    return (
      query.get('lc.seed') === '2' &&
      query.get('lc.content') === 'qk' &&
      query.get('lc.span') === '3' &&
      query.get('lc.cells') === '200'
    );
  });
  const expected = await checkPanels(page, 'qwen2.5', { span: 3, cells: 200, seed: 2, content: 'qk' });
  assert.equal(expected.stride, 492);
  assert.equal(expected.count, 200);

  // The permalink restores it in a fresh page, with no problems reported.
  const fresh = await openPage(browser);
  await gotoAndSettle(fresh.page, await page.locator('#permalink').getAttribute('href'));
  assert.equal(await fresh.page.locator('#ctl-lc-preset').inputValue(), 'qwen2.5');
  assert.equal(await fresh.page.locator('#ctl-lc-content-qk').isChecked(), true);
  assert.equal(await fresh.page.locator('#url-problems').isHidden(), true);
  await checkPanels(fresh.page, 'qwen2.5', { span: 3, cells: 200, seed: 2, content: 'qk' });
  assert.deepEqual(fresh.log.errors, []);
  await fresh.context.close();
});

test('bad or extreme long-context settings in the link fall back or clamp, with visible messages', async () => {
  const fresh = await openPage(browser);
  const query = '?lc.preset=gpt-5&lc.span=1e9&lc.cells=1e9&lc.content=%3Cb%3Ex%3C/b%3E&lc.seed=-3';
  const start = Date.now();
  await gotoAndSettle(fresh.page, server.companionUrl + query);
  const seconds = (Date.now() - start) / 1000;
  assert.ok(seconds < 20, `took ${seconds} s`);
  const problems = (await fresh.page.locator('#url-problems li').allTextContents()).join('\n');
  assert.match(
    problems,
    /lc\.preset="gpt-5" is not one of llama3\.1, qwen2\.5, phi3\.5, deepseek-v3, linear, dynamic; using the default llama3\.1/,
  );
  assert.match(problems, /lc\.span="1e9" is outside 1…16; using 16/);
  assert.match(problems, /lc\.cells="1e9" is outside 32…512; using 512/);
  assert.match(problems, /lc\.content=.* is not one of same, qk; using the default same/);
  assert.match(problems, /lc\.seed="-3" is outside 1…999999; using 1/);
  assert.equal(await fresh.page.locator('#ctl-lc-preset').inputValue(), 'llama3.1');
  assert.equal(await fresh.page.locator('#ctl-lc-span').inputValue(), '16');
  // 16 × 8192 positions, at most 512 per side: every 256th position.
  await checkPanels(fresh.page, 'llama3.1', { span: 16, cells: 512 });
  assert.match(
    await fresh.page.locator('#lc-heatmap-note').textContent(),
    /m − n = 131071 .* with llama3, factor 8 scaling, \d+ \(pairs [\d–, ]+\) still do\./,
  );
  assert.deepEqual(fresh.log.errors, []);
  await fresh.context.close();
});

test('screenshots of the section: desktop and 375-px phone (no horizontal scrolling)', async () => {
  for (const [name, width] of [
    ['desktop', 1280],
    ['phone', 375],
  ]) {
    const view = await openPage(browser, { width, height: 900 });
    await gotoAndSettle(view.page, server.companionUrl);
    const overflow = await view.page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.equal(overflow, 0, `horizontal overflow at ${width} px`);
    await view.page.locator('#long-context').screenshot({ path: artifactPath(`long-context-${name}.png`) });
    assert.deepEqual(view.log.errors, []);
    await view.context.close();
  }
});
