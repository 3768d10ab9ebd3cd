// End-to-end: the images section. The picked patch's score heatmaps are recomputed here in
// float64 from 2-D RoPE restated independently of posenc (Pixtral: freqs[::2] by the row,
// freqs[1::2] by the column, rotate_half pairs; SAM 2: the column then the row on the same d/4
// frequencies, adjacent channels as pairs) and from 1-D RoPE at the flattened index; the M-RoPE
// strip's ids against a restatement of transformers' get_rope_index.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { artifactPath, gotoAndSettle, openPage, waitForIdle } from './support/browser.js';
import { checkSharedScale } from './support/colors.js';
import { usePageSession } from './support/session.js';
import { randomQueryKey } from '../../widgets/tokens.js';

const BASE = 10000;

/** Each pair's channels and its angle at patch (r, c) of a grid `cols` wide, in float64. */
function pairAngles(variant, headDim, r, c, cols) {
  const half = headDim / 2;
  const pairs = [];
  if (variant === 'pixtral') {
    // transformers' PixtralRotaryEmbedding: freqs = 1 / base^(arange(0, d, 2) / d);
    // cat(h · freqs[::2], w · freqs[1::2]), then cat(inv_freq, inv_freq): rotate_half pairs.
    const freqs = Array.from({ length: half }, (_, j) => 1 / BASE ** ((2 * j) / headDim));
    const rowFreqs = freqs.filter((_, j) => j % 2 === 0);
    const colFreqs = freqs.filter((_, j) => j % 2 === 1);
    const angles = [...rowFreqs.map((w) => r * w), ...colFreqs.map((w) => c * w)];
    angles.forEach((angle, i) => {
      pairs.push({ a: i, b: i + half, angle });
    });
  } else if (variant === 'axial') {
    // SAM 2's compute_axial_cis: freqs = 1 / theta^(arange(0, d, 4)[: d // 4] / d);
    // cat(polar(t_x · freqs), polar(t_y · freqs)), applied to view_as_complex pairs (2i, 2i + 1).
    const freqs = Array.from({ length: headDim / 4 }, (_, j) => 1 / BASE ** ((4 * j) / headDim));
    const angles = [...freqs.map((w) => c * w), ...freqs.map((w) => r * w)];
    angles.forEach((angle, i) => {
      pairs.push({ a: 2 * i, b: 2 * i + 1, angle });
    });
  } else {
    // 1-D RoPE at the flattened index p = r · cols + c ('flat-half' or 'flat-interleaved' pairs).
    const p = r * cols + c;
    for (let i = 0; i < half; i++) {
      const angle = p / BASE ** ((2 * i) / headDim);
      pairs.push(variant === 'flat-half' ? { a: i, b: i + half, angle } : { a: 2 * i, b: 2 * i + 1, angle });
    }
  }
  return pairs;
}

function rotated(vector, pairs) {
  const out = Float64Array.from(vector);
  for (const { a, b, angle } of pairs) {
    out[a] = vector[a] * Math.cos(angle) - vector[b] * Math.sin(angle);
    out[b] = vector[b] * Math.cos(angle) + vector[a] * Math.sin(angle);
  }
  return out;
}

/** The picked patch's rotated query · every patch's rotated key, both panels, in float64. */
function referencePanels({
  rows = 16,
  cols = 16,
  variant = 'pixtral',
  headDim = 64,
  row = 7,
  col = 7,
  content = 'same',
  seed = 1,
}) {
  const { q, k } = randomQueryKey(seed, headDim);
  const key = content === 'same' ? q : k;
  const flatVariant = variant === 'pixtral' ? 'flat-half' : 'flat-interleaved';
  const panel = (kind) => {
    const query = rotated(q, pairAngles(kind, headDim, row, col, cols));
    return Float64Array.from({ length: rows * cols }, (_, p) => {
      const rotatedKey = rotated(key, pairAngles(kind, headDim, Math.floor(p / cols), p % cols, cols));
      return query.reduce((sum, v, i) => sum + v * rotatedKey[i], 0);
    });
  };
  const grid = panel(variant);
  const flat = panel(flatVariant);
  // The section's rule: both signs on the diverging map around 0, else viridis over the range.
  const lo = Math.min(...grid, ...flat);
  const hi = Math.max(...grid, ...flat);
  const reach = Math.max(-lo, hi);
  return lo < 0
    ? { grid, flat, rows, cols, domain: [-reach, reach], colormap: 'diverging' }
    : { grid, flat, rows, cols, domain: [lo, hi], colormap: 'viridis' };
}

async function checkPanels(page, options) {
  const expected = referencePanels(options);
  await checkSharedScale(
    page,
    { 'images-grid': expected.grid, 'images-flat': expected.flat },
    { ...expected, samples: 60 },
  );
  return expected;
}

/**
 * transformers' Qwen2VLForConditionalGeneration.get_rope_index (and Qwen2.5-VL's), restated for
 * one prompt: the text before each vision segment continues from st_idx (the largest id + 1),
 * then the segment's (t, h, w) grid after the 2 × 2 merge at st_idx + text_len; Qwen2.5-VL's video
 * temporal id is frame · second_per_grid_t · tokens_per_second, truncated to an integer.
 */
function getRopeIndex(segments, { model = 'qwen2-vl', tokensPerSecond = 2 } = {}) {
  const lists = [];
  const stIdx = () => (lists.length ? Math.max(...lists.at(-1).flat()) + 1 : 0);
  let textLen = 0;
  const flushText = () => {
    const st = stIdx();
    if (textLen) lists.push([0, 1, 2].map(() => Array.from({ length: textLen }, (_, i) => st + i)));
    textLen = 0;
  };
  for (const segment of segments) {
    if ('text' in segment) {
      textLen += segment.text;
      continue;
    }
    const st = stIdx();
    const [t, hh, ww] = (segment.image ?? segment.video).map((v, i) => (i === 0 ? v : v / 2));
    const step =
      model === 'qwen2.5-vl' ? ('video' in segment ? Math.trunc(segment.secondsPerGrid ?? 1) * tokensPerSecond : 0) : 1;
    const ids = [[], [], []];
    for (let f = 0; f < t; f++)
      for (let y = 0; y < hh; y++)
        for (let x = 0; x < ww; x++) {
          ids[0].push(Math.trunc(f * step) + textLen + st);
          ids[1].push(y + textLen + st);
          ids[2].push(x + textLen + st);
        }
    if (textLen) lists.push([0, 1, 2].map(() => Array.from({ length: textLen }, (_, i) => st + i)));
    textLen = 0;
    lists.push(ids);
  }
  flushText();
  const positions = [0, 1, 2].map((row) => lists.flatMap((list) => list[row]));
  return { positions, nextPosition: Math.max(...positions.flat()) + 1 };
}

async function stripIds(page) {
  return page
    .locator('#img-strip .img-token')
    .evaluateAll((nodes) => nodes.map((n) => [n.dataset.index, n.dataset.t, n.dataset.h, n.dataset.w].map(Number)));
}

async function checkStrip(page, segments, options) {
  const { positions, nextPosition } = getRopeIndex(segments, options);
  const tokens = await stripIds(page);
  assert.equal(tokens.length, positions[0].length, 'one cell per token');
  tokens.forEach(([index, t, hh, ww], i) => {
    assert.equal(index, i);
    assert.deepEqual([t, hh, ww], [positions[0][i], positions[1][i], positions[2][i]], `token ${i}`);
  });
  const totals = await page.locator('#img-mrope-totals').evaluate((node) => ({ ...node.dataset }));
  assert.equal(Number(totals.nextPosition), nextPosition);
  assert.equal(Number(totals.seqLen), positions[0].length);
  assert.equal(Number(totals.ropeDelta), nextPosition - positions[0].length);
  // The segment table: each segment's token indices and its t, h and w id ranges.
  const table = await page
    .locator('#img-segments tbody tr')
    .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent)));
  const span = (lo, hi) => (lo === hi ? String(lo) : `${lo}–${hi}`);
  let start = 0;
  // Tokens per segment: text n, or t · (h / 2) · (w / 2) after the 2 × 2 merge.
  const tokensOf = (segment) => {
    if ('text' in segment) return segment.text;
    const [t, hh, ww] = segment.image ?? segment.video;
    return (t * hh * ww) / 4;
  };
  segments.forEach((segment, i) => {
    const n = tokensOf(segment);
    const ids = positions.map((row) => row.slice(start, start + n));
    assert.deepEqual(
      table[i],
      [span(start, start + n - 1), ...ids.map((row) => span(Math.min(...row), Math.max(...row)))],
      `segment ${i}`,
    );
    start += n;
  });
  return { positions, nextPosition };
}

const session = usePageSession({ page: 'companion' });
let browser;
let server;
let page;
let log;
before(async () => ({ browser, server, page, log } = await session));

test('default grid: both heatmaps match the float64 restatement of Pixtral 2-D RoPE and of 1-D RoPE', async () => {
  const expected = await checkPanels(page, {});
  // The neighbour table: the patch above and to the left, in both panels, as the reference gives them.
  const rowsShown = await page
    .locator('#img-neighbours tbody tr')
    .evaluateAll((nodes) =>
      Object.fromEntries(
        nodes.map((n) => [n.dataset.neighbour, [...n.querySelectorAll('td')].map((td) => td.textContent)]),
      ),
    );
  assert.deepEqual(Object.keys(rowsShown), ['itself', 'above', 'below', 'left', 'right']);
  for (const [name, dr, dc] of [
    ['above', -1, 0],
    ['left', 0, -1],
  ]) {
    const cell = (7 + dr) * 16 + 7 + dc;
    const [, , distance, grid, flat] = rowsShown[name];
    assert.equal(Number(distance), Math.abs(dr * 16 + dc));
    assert.ok(Math.abs(Number(grid) / expected.grid[cell] - 1) < 1e-3, `${name} 2-D ${grid} vs ${expected.grid[cell]}`);
    assert.ok(Math.abs(Number(flat) / expected.flat[cell] - 1) < 1e-3, `${name} 1-D ${flat} vs ${expected.flat[cell]}`);
  }
  // The claim in the note: flattened, the patch above is 16 positions away and scores lower than in 2-D.
  const above = 6 * 16 + 7;
  assert.ok(expected.flat[above] < expected.grid[above], 'flattening lowers the neighbour above');
  assert.match(await page.locator('#img-grid-note').textContent(), /Flattened, the patch above is 16 positions away/);
  assert.deepEqual(log.errors, []);
});

test('picking a patch by keyboard (arrow keys, then Enter) and by a click redraws both panels', async () => {
  const canvas = page.locator('figure[data-plot="images-grid"] canvas.heatmap-cells');
  const readout = page.locator('figure[data-plot="images-grid"] .readout');
  // Keyboard focus starts at the picked patch (the default, row 7, column 7), not at (0, 0).
  await canvas.focus();
  assert.match(await readout.textContent(), /^patch \(row 7, column 7\): /);
  for (const key of ['ArrowUp', 'ArrowUp', 'ArrowUp', 'ArrowUp']) await page.keyboard.press(key);
  for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowLeft');
  assert.match(
    await page.locator('figure[data-plot="images-grid"] .readout').textContent(),
    /^patch \(row 3, column 1\): /,
  );
  await page.keyboard.press('Enter');
  await waitForIdle(page);
  await page.waitForFunction(() => {
    const query = new URLSearchParams(location.search);
    return query.get('img.row') === '3' && query.get('img.col') === '1';
  });
  assert.equal(await page.locator('#ctl-img-row').inputValue(), '3');
  await checkPanels(page, { row: 3, col: 1 });
  await canvas.blur();
  // Focused again from the keyboard, it starts at the new pick.
  await canvas.focus();
  assert.match(await readout.textContent(), /^patch \(row 3, column 1\): /);
  await canvas.blur();

  // A click on the cell at row 12, column 14 of the flattened panel picks that patch.
  const flat = page.locator('figure[data-plot="images-flat"] canvas.heatmap-cells');
  const box = await flat.boundingBox();
  await page.mouse.click(box.x + ((14 + 0.5) / 16) * box.width, box.y + ((12 + 0.5) / 16) * box.height);
  await waitForIdle(page);
  assert.equal(await page.locator('#ctl-img-col').inputValue(), '14');
  assert.equal(await page.locator('#ctl-img-row').inputValue(), '12');
  await checkPanels(page, { row: 12, col: 14 });
});

test('SAM 2 axial, random query and key, a 12 × 20 grid: pixels match; the permalink restores it', async () => {
  await page.locator('#ctl-img-variant-axial').check();
  await page.locator('#ctl-img-content-qk').check();
  await page.locator('#ctl-img-dim').selectOption('32');
  for (const [id, value] of [
    ['#ctl-img-rows', '12'],
    ['#ctl-img-cols', '20'],
    ['#ctl-img-row', '5'],
    ['#ctl-img-col', '18'],
  ]) {
    await page.locator(id).fill(value);
    await page.locator(id).press('Enter');
  }
  await page.locator('#img-reroll').click();
  await waitForIdle(page);
  const options = { variant: 'axial', content: 'qk', headDim: 32, rows: 12, cols: 20, row: 5, col: 18, seed: 2 };
  await checkPanels(page, options);
  await page.waitForFunction(() => new URLSearchParams(location.search).get('img.seed') === '2');

  const fresh = await openPage(browser);
  await gotoAndSettle(fresh.page, await page.locator('#permalink').getAttribute('href'));
  assert.equal(await fresh.page.locator('#url-problems').isHidden(), true);
  assert.equal(await fresh.page.locator('#ctl-img-variant-axial').isChecked(), true);
  await checkPanels(fresh.page, options);
  assert.deepEqual(fresh.log.errors, []);
  await fresh.context.close();
});

test('M-RoPE strip: every token’s (t, h, w) as get_rope_index gives them; presets and Qwen2.5-VL video', async () => {
  await checkStrip(page, [{ text: 5 }, { image: [1, 8, 12] }, { text: 4 }]);
  assert.match(await page.locator('#img-mrope-totals').textContent(), /^33 tokens; .* nextPosition = 15 .* = −?-?18/);

  await page.locator('#img-preset-1').click();
  await waitForIdle(page);
  await checkStrip(page, [{ text: 3 }, { image: [1, 4, 6] }, { text: 3 }, { image: [1, 6, 4] }, { text: 4 }]);

  await page.locator('#img-preset-2').click();
  await page.locator('#ctl-img-model').selectOption('qwen2.5-vl');
  await waitForIdle(page);
  const video = [{ text: 4 }, { video: [3, 4, 6], secondsPerGrid: 2 }, { text: 5 }];
  const { positions } = await checkStrip(page, video, { model: 'qwen2.5-vl' });
  assert.deepEqual(
    [positions[0][4], positions[0][10], positions[0][16]],
    [4, 8, 12],
    'frames 4 apart (2 s × 2 tokens/s)',
  );
  const qwen2 = getRopeIndex(video).positions[0];
  assert.equal(
    await page.locator('#img-video-note').textContent(),
    `Temporal ids of the video frames: Qwen2-VL ${[4, 10, 16].map((i) => qwen2[i]).join(', ')}; Qwen2.5-VL 4, 8, 12 (the video’s start + frame × whole seconds per grid × 2 tokens per second).`,
  );
  await page.locator('#ctl-img-model').selectOption('qwen2-vl');
  await waitForIdle(page);
  await checkStrip(page, video);

  // A typed prompt, applied as it is typed; an impossible one is explained, not drawn.
  await page.locator('#ctl-img-prompt').fill('text 2, image 2x4x4, text 1');
  await waitForIdle(page);
  await checkStrip(page, [{ text: 2 }, { image: [2, 4, 4] }, { text: 1 }]);
  await page.locator('#ctl-img-prompt').fill('text 2, image 1x5x4');
  await waitForIdle(page);
  assert.match(
    await page.locator('#img-prompt-problem').textContent(),
    /segments\[1\]\.image\[1\].*multiple of spatialMergeSize/,
  );
  assert.equal(await page.locator('#img-strip .img-token').count(), 0);
  await page.locator('#img-preset-0').click();
  await waitForIdle(page);
  assert.equal(await page.locator('#img-prompt-problem').isHidden(), true);
  assert.deepEqual(log.errors, []);
});

test('the "Try this" prompts hold: a wider grid moves the neighbour above away only when flattened; a large image', async () => {
  const fresh = await openPage(browser);
  await gotoAndSettle(fresh.page, server.companionUrl);
  const above = () =>
    fresh.page
      .locator('#img-neighbours tr[data-neighbour="above"] td')
      .evaluateAll((cells) => cells.map((cell) => cell.textContent));
  const [, , , grid16] = await above();
  await fresh.page.locator('#ctl-img-cols').fill('64');
  await fresh.page.locator('#ctl-img-cols').press('Enter');
  await waitForIdle(fresh.page);
  const [, , distance, grid64] = await above();
  assert.equal(distance, '64');
  assert.equal(grid64, grid16, 'the 2-D score of the neighbour above does not depend on the grid width');
  await checkPanels(fresh.page, { cols: 64 });

  await fresh.page.locator('#ctl-img-prompt').fill('text 5, image 1x56x56, text 4');
  await waitForIdle(fresh.page);
  const segments = [{ text: 5 }, { image: [1, 56, 56] }, { text: 4 }];
  const { positions } = await checkStrip(fresh.page, segments);
  assert.equal(positions[0][5 + 784], 33, 'the text after the image starts at 33');
  assert.match(await fresh.page.locator('#img-mrope-totals').textContent(), /^793 tokens; .*= 37 − 793 = −756/);
  assert.deepEqual(fresh.log.errors, []);
  await fresh.context.close();
});

test('hostile image settings in the link are reported and clamped', async () => {
  const fresh = await openPage(browser);
  const query =
    '?img.rows=1e9&img.cols=-4&img.row=999&img.variant=%3Cscript%3E&img.dim=7&img.seed=abc&img.prompt=image%209x999x999';
  await gotoAndSettle(fresh.page, server.companionUrl + query);
  const problems = (await fresh.page.locator('#url-problems li').allTextContents()).join('\n');
  assert.match(problems, /img\.rows="1e9" is outside 2…64; using 64/);
  assert.match(problems, /img\.cols="-4" is outside 2…64; using 2/);
  assert.match(problems, /img\.row="999" is outside 0…63; using 63/);
  assert.match(problems, /img\.variant=.* is not one of pixtral, axial; using the default pixtral/);
  assert.match(problems, /img\.dim="7" is not one of 8, 16, 32, 64, 128, 256; using the default 64/);
  assert.match(problems, /img\.seed="abc" is not a number; using the default 1/);
  await checkPanels(fresh.page, { rows: 64, cols: 2, row: 63, col: 1 });
  assert.match(await fresh.page.locator('#img-prompt-problem').textContent(), /h and w must be 1 to 64 patches/);
  assert.deepEqual(fresh.log.errors, []);
  await fresh.context.close();
});

test('375-px touch phone: no horizontal scrolling, a tap picks a patch, the wide strip scrolls in its own box', async () => {
  const phone = await openPage(browser, { width: 375, height: 900, touch: true });
  await gotoAndSettle(phone.page, `${server.companionUrl}?img.prompt=text%203,image%201x28x28,text%202`);
  const widths = await phone.page.evaluate(() => {
    const strip = document.querySelector('.img-strip-scroll');
    return {
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      stripScrolls: strip.scrollWidth > strip.clientWidth,
    };
  });
  assert.equal(widths.page, 0, 'horizontal overflow of the page');
  assert.equal(widths.stripScrolls, true, 'the 14-token-wide image scrolls inside its box');

  // A tap on row 2, column 10 of the 2-D panel picks that patch.
  const canvas = phone.page.locator('figure[data-plot="images-grid"] canvas.heatmap-cells');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  await phone.page.touchscreen.tap(box.x + ((10 + 0.5) / 16) * box.width, box.y + ((2 + 0.5) / 16) * box.height);
  await waitForIdle(phone.page);
  assert.equal(await phone.page.locator('#ctl-img-row').inputValue(), '2');
  assert.equal(await phone.page.locator('#ctl-img-col').inputValue(), '10');
  await checkPanels(phone.page, { row: 2, col: 10 });
  await phone.page.locator('#images').screenshot({ path: artifactPath('images-phone.png') });
  assert.deepEqual(phone.log.errors, []);
  await phone.context.close();
});
