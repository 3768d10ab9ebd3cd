// <posenc-compare> on the widgets gallery: the three encodings' scores against a float64 reference
// computed here (naive, sinusoidal and RoPE from their formulas), on one colour scale; redraws on
// attribute changes (dot products and the all-ones trap, typed-in q and k), bad attributes
// reported inside, the keyboard read-out moving all three crosshairs with posenc-pick, CSV/PNG,
// dark mode, axe and a phone's width.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { randomQueryKey } from '../../widgets/tokens.js';
import { checkHeatmapPixels } from './support/colors.js';
import {
  changesFrom,
  galleryElementChecks,
  pngOf,
  problemsAfter,
  recordPicks,
  setAttributes,
} from './support/gallery.js';
import { useGallerySession } from './support/session.js';

const SELECTOR = '#gallery-compare';
const KEYS = ['naive', 'sinusoidal', 'rope'];

/** `values` repeated to fill `d` channels (the q and k attributes). */
const repeatTo = (values, d) => Array.from({ length: d }, (_, i) => values[i % values.length]);

/** The query and key vectors of a content mode (the same at every position). */
function contents(content, { d, seed = 7, q = [], k = [] }) {
  if (content === 'ones') return { q: new Array(d).fill(1), k: new Array(d).fill(1) };
  if (content === 'edited') return { q: repeatTo(q, d), k: repeatTo(k, d) };
  const pair = randomQueryKey(seed, d);
  return { q: [...pair.q], k: [...pair.k] };
}

/**
 * The three panels in float64 ([n, n] each): naive adds the position number to every channel,
 * sinusoidal adds PE(p) (sin at 2i, cos at 2i + 1, angle p · base^(−2i/d)), RoPE turns pair
 * (2i, 2i + 1) by that angle; scores are dot products or cosines.
 */
function reference({ n, d, base = 10000, metric = 'cosine', content = 'qk', seed, q: qIn, k: kIn }) {
  const { q, k } = contents(content, { d, seed, q: qIn, k: kIn });
  const angle = (p, i) => p * base ** ((-2 * i) / d);
  const encode = {
    naive: (v, p) => v.map((x) => x + p),
    sinusoidal: (v, p) => v.map((x, c) => x + (c % 2 === 0 ? Math.sin(angle(p, c >> 1)) : Math.cos(angle(p, c >> 1)))),
    rope: (v, p) =>
      v.map((_, c) => {
        const t = angle(p, c >> 1);
        const [a, b] = [v[c & ~1], v[c | 1]];
        return c % 2 === 0 ? a * Math.cos(t) - b * Math.sin(t) : b * Math.cos(t) + a * Math.sin(t);
      }),
  };
  const dot = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);
  const score = (a, b) => (metric === 'dot' ? dot(a, b) : dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b)));
  return Object.fromEntries(
    KEYS.map((key) => {
      const queries = Array.from({ length: n }, (_, m) => encode[key](q, m));
      const keys = Array.from({ length: n }, (_, j) => encode[key](k, j));
      const out = new Float64Array(n * n);
      for (let m = 0; m < n; m++) for (let j = 0; j < n; j++) out[m * n + j] = score(queries[m], keys[j]);
      return [key, out];
    }),
  );
}

const extentOf = (arrays) => [Math.min(...arrays.flatMap((a) => [...a])), Math.max(...arrays.flatMap((a) => [...a]))];

const session = useGallerySession();
let page;
let log;
before(async () => ({ page, log } = await session));

/** Every panel's pixels against the reference, on the one scale `domain`. */
async function checkPanels(options, domain) {
  const want = reference(options);
  const { n } = options;
  for (const key of KEYS)
    await checkHeatmapPixels(page.locator(SELECTOR), `compare-${key}`, {
      rows: n,
      cols: n,
      expected: (r, c) => want[key][r * n + c],
      domain,
      samples: 32,
    });
  return want;
}

test('three panels on one scale, as float64 computes them; only RoPE is a function of m − n', async () => {
  const want = await checkPanels({ n: 64, d: 16 }, [-1, 1]);
  const csv = (await page.locator(SELECTOR).evaluate((node) => node.toCSV())).trim().split('\n');
  assert.equal(csv[0], 'query position m,key position n,naive,sinusoidal,rope');
  assert.equal(csv.length, 64 * 64 + 1);
  for (const [m, j] of [
    [0, 0],
    [63, 2],
    [17, 40],
  ]) {
    const [rowM, rowN, ...shown] = csv[1 + m * 64 + j].split(',').map(Number);
    assert.deepEqual([rowM, rowN], [m, j]);
    KEYS.forEach((key, i) => {
      const expected = want[key][m * 64 + j];
      assert.ok(Math.abs(shown[i] - expected) <= 1e-5, `${key} (${m}, ${j}): ${shown[i]}, expected ${expected}`);
    });
  }
  const spreads = await page.locator(`${SELECTOR} #cmp-spreads li`).allTextContents();
  assert.equal(spreads.length, 3);
  assert.match(spreads[2], /^rope: .* a function of m − n alone\.$/);
  assert.doesNotMatch(spreads[0], /alone/);
  assert.doesNotMatch(spreads[1], /alone/);
  assert.equal(await page.locator(`${SELECTOR} #cmp-trap`).isHidden(), true);
  assert.deepEqual(log.errors, []);
});

test('dot products of all-ones contents: one redraw, the naive range on every panel, and the trap explained', async () => {
  const changes = await changesFrom(page, SELECTOR, { content: 'ones', metric: 'dot', 'seq-len': '32' });
  assert.deepEqual(changes, [
    {
      seqLen: 32,
      dModel: 16,
      base: 10000,
      metric: 'dot',
      content: 'ones',
      seed: 7,
      q: [1, 0.5, -0.5, 0.25],
      k: [0.5, 1, 0.25, -0.5],
    },
  ]);
  const want = reference({ n: 32, d: 16, metric: 'dot', content: 'ones' });
  await checkPanels({ n: 32, d: 16, metric: 'dot', content: 'ones' }, extentOf(Object.values(want)));
  assert.match(await page.locator(`${SELECTOR} #cmp-scale-note`).textContent(), /dwarf/);
  const trap = await page.locator(`${SELECTOR} #cmp-trap`).textContent();
  const within = Number(/to within ([0-9.e+-]+)/.exec(trap)[1]);
  assert.ok(within >= 0 && within < 1e-3, trap);
  // RoPE on all ones replays twice the sinusoidal table's similarity: sum_i 2 cos((m − n) θ_i).
  for (const [m, j] of [
    [5, 2],
    [31, 0],
  ]) {
    let twice = 0;
    for (let i = 0; i < 8; i++) twice += 2 * Math.cos((m - j) * 10000 ** (-i / 8));
    assert.ok(Math.abs(want.rope[m * 32 + j] - twice) < 1e-9, 'the reference itself agrees');
  }
});

test('typed-in q and k (content="edited"), repeated to fill d-model', async () => {
  await setAttributes(page, SELECTOR, { content: 'edited', metric: 'cosine', q: '1, 2', k: '0.5, -1, 3' });
  await checkPanels({ n: 32, d: 16, content: 'edited', q: [1, 2], k: [0.5, -1, 3] }, [-1, 1]);
  const spreads = await page.locator(`${SELECTOR} #cmp-spreads li`).allTextContents();
  assert.match(spreads[2], /a function of m − n alone/);
});

test('bad attributes: a message inside, an event each, never a throw; the drawing stays', async () => {
  const { thrown, names, message } = await problemsAfter(page, SELECTOR, [
    { attribute: 'd-model', value: '7' },
    { attribute: 'metric', value: 'l2' },
    { attribute: 'q', value: '1, oops' },
    { attribute: 'seq-len', value: '1e9' },
    { property: 'content', value: 'zeros' },
  ]);
  assert.equal(thrown, null);
  assert.deepEqual(names, ['d-model', 'metric', 'q', 'seq-len', 'content']);
  assert.match(message, /d-model="7" is odd \(this setting is even\); using 8/);
  assert.match(message, /metric="l2" is not one of cosine, dot/);
  assert.match(message, /q="1, oops"/);
  assert.match(message, /seq-len="1e9" is outside 8…512; using 512/);
  assert.match(
    message,
    /content = "zeros" \(a string\) cannot be used \(it is not one of qk, tokens, ones, edited\); it stays edited/,
  );
  await setAttributes(page, SELECTOR, { 'd-model': '16', metric: 'cosine', q: '1, 2', 'seq-len': '32', content: 'qk' });
  assert.equal(await page.locator(`${SELECTOR} [part~="message"]`).isHidden(), true);
  await checkPanels({ n: 32, d: 16 }, [-1, 1]);
  assert.deepEqual(log.errors, []);
});

test('keyboard read-out: one cell in all three panels, posenc-pick with the three scores', async () => {
  const lastPick = await recordPicks(page, SELECTOR);
  const sinusoidal = page.locator(`${SELECTOR} figure[data-plot="compare-sinusoidal"] canvas.heatmap-cells`);
  await sinusoidal.focus();
  for (const key of ['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowRight']) await page.keyboard.press(key);
  const readout = await page.locator(`${SELECTOR} #cmp-readout`).textContent();
  assert.match(readout, /^m = 3, n = 1 \(m − n = 2\), cosine: naive .*, sinusoidal .*, rope /);
  const last = await lastPick();
  assert.deepEqual([last.m, last.n], [3, 1]);
  const want = reference({ n: 32, d: 16 });
  for (const key of KEYS)
    assert.ok(Math.abs(last.scores[key] - want[key][3 * 32 + 1]) < 1e-5, `${key}: ${last.scores[key]}`);
  const crosshairs = await page
    .locator(`${SELECTOR} figure[data-plot^="compare-"] .crosshair-y`)
    .evaluateAll((nodes) => nodes.map((node) => [node.hidden, node.style.left]));
  assert.equal(crosshairs.length, 3);
  for (const [hidden, left] of crosshairs) assert.deepEqual([hidden, left], [false, crosshairs[0][1]]);
  await sinusoidal.blur();
});

test('toPNG: the three panels in one picture', async () => {
  const png = await pngOf(page, SELECTOR);
  const width = await page
    .locator(`${SELECTOR} [part~="figures"]`)
    .evaluate((node) => node.getBoundingClientRect().width);
  assert.equal(png.type, 'image/png');
  assert.ok(png.width >= width, `${png.width} px wide, the panels take ${width}`);
});

galleryElementChecks(session, { selector: SELECTOR, section: '#compare' });
