// "Why RoPE's base matters": the bold curves against the expected score's trend over random
// isotropic contents, ∫₀¹ cos(Δ·base^(−x)) dx, integrated here numerically in float64 (the page
// uses a closed form); the light curves against a float64 rotation of each random content with
// itself; the markers and the note's half distances against the trend's own; the log axis that
// shows them; and a re-roll that moves only the light curves.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { randomMatrix } from '../../widgets/tokens.js';
import { gotoAndSettle, openPage, waitForIdle } from './support/browser.js';
import { inside, overlappingPairs } from './support/layout.js';
import { readLinePlot } from './support/lineplot.js';
import { useServedSite } from './support/session.js';

const site = useServedSite();
let browser;
let server;
before(async () => ({ browser, server } = await site));

const BASES = [
  ['base 1e4', 1e4],
  ['base 5e5', 5e5],
  ['base 1e6', 1e6],
];

/** Pair i's angle per position, in float64. */
const omega = (base, headDim, i) => base ** ((-2 * i) / headDim);

/**
 * The trend of the expected score at distance Δ: cos(Δ·base^(−x)) averaged over x in [0, 1] by
 * Simpson's rule, with steps fine enough for the fastest turning at x = 0 (Δ·ln base per unit x).
 */
function trend(delta, base) {
  const steps = 2 * Math.ceil(Math.max(1000, 8 * delta * Math.log(base)) / 2);
  const h = 1 / steps;
  let sum = 0;
  for (let k = 0; k <= steps; k++) {
    const weight = k === 0 || k === steps ? 1 : k % 2 === 1 ? 4 : 2;
    sum += weight * Math.cos(delta * base ** (-k * h));
  }
  return (sum * h) / 3;
}

/** Where the trend falls to half, by bisection on the numerical trend (it falls monotonically). */
function trendHalf(base) {
  let [lo, hi] = [1, 1e4];
  while (hi - lo > 1e-4) {
    const mid = (lo + hi) / 2;
    if (trend(mid, base) > 0.5) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
const HALVES = Object.fromEntries(BASES.map(([label, base]) => [label, trendHalf(base)]));

/** q · R(Δ) q / |q|² for one random content q, by rotating q pair by pair in float64. */
function contentScore(q, base, delta) {
  const headDim = q.length;
  let dot = 0;
  for (let i = 0; i < headDim / 2; i++) {
    const [a, b] = [q[2 * i], q[2 * i + 1]];
    const [c, s] = [Math.cos(delta * omega(base, headDim, i)), Math.sin(delta * omega(base, headDim, i))];
    dot += a * (a * c - b * s) + b * (b * c + a * s);
  }
  return dot / q.reduce((sum, v) => sum + v * v, 0);
}

/** Every drawn point of a series on its reference (the x read back is an integer distance). */
function assertOnCurve(points, reference, span, tolerance, label) {
  for (const [x, y] of points) {
    const d = Math.round(x);
    assert.ok(Math.abs(x - d) < 0.01 * span, `${label}: x ${x}`);
    assert.ok(Math.abs(y - reference(d)) <= tolerance, `${label} at ${d}: ${y} vs ${reference(d)}`);
  }
}

/** The light curves of one base: { content number: points }. */
function lightCurves(drawn, label) {
  return Object.fromEntries(
    Object.entries(drawn.series)
      .filter(([name]) => name.startsWith(`${label}, content `))
      .map(([name, points]) => [Number(name.slice(`${label}, content `.length)), points]),
  );
}

for (const [query, span, headDim, seed] of [
  ['', 4096, 128, 1],
  ['?base.span=1000&base.hd=64&base.seed=7', 1000, 64, 7],
  ['?base.span=256', 256, 128, 1],
]) {
  test(`bold trends, light random contents, markers and half distances match float64 (span ${span}, head dim ${headDim})`, async () => {
    const { page, log, context } = await openPage(browser);
    await gotoAndSettle(page, `${server.pageUrl}${query}#rope-base`);
    const drawn = await readLinePlot(page, 'rope-base-decay');
    assert.equal(drawn.xScale, 'log', 'a log axis: the half distances sit in the first percent of a linear one');
    const tolerance = drawn.yPerUnit * 0.006 + 1e-5; // the read-back's resolution, and float32
    for (const [label, base] of BASES) {
      const points = drawn.series[label];
      assert.ok(points.length >= 200, `${label}: ${points.length} points`);
      assert.ok(Math.abs(points[0][0] - 1) < 1e-3 && Math.abs(points.at(-1)[0] - (span - 1)) < 0.01 * span);
      // Smooth: the trend only falls (its slope never exceeds (1 − cos(Δ/base)) / (Δ ln base), < 1e-6).
      for (let k = 1; k < points.length; k++)
        assert.ok(points[k][1] <= points[k - 1][1] + tolerance, `${label} rises at ${points[k][0]}`);
      for (const [x, y] of points.filter((_, k) => k % 10 === 0 || k === points.length - 1))
        assert.ok(Math.abs(y - trend(x, base)) <= tolerance, `${label} at ${x}: ${y} vs ${trend(x, base)}`);

      const light = lightCurves(drawn, label);
      const draws = Object.keys(light).length;
      assert.ok(draws >= 4, `${label}: ${draws} random contents`);
      const q = randomMatrix(seed, draws, headDim);
      for (const [k, curve] of Object.entries(light)) {
        assert.equal(Math.round(curve[0][0]), 1, `${label}, content ${k} starts at distance 1`);
        assert.equal(Math.round(curve.at(-1)[0]), span - 1, `${label}, content ${k} ends at ${span - 1}`);
        const v = q.subarray((k - 1) * headDim, k * headDim);
        const sampled = curve.filter((_, i) => i % 23 === 0);
        assertOnCurve(sampled, (d) => contentScore(v, base, d), span, tolerance, `${label}, content ${k}`);
      }
    }
    // The key names the bold curves and the half line; the keyboard read-out the bold curves only.
    const figure = page.locator('figure[data-plot="rope-base-decay"]');
    assert.deepEqual(await figure.locator('.series-key li').allTextContents(), [
      ...BASES.map(([label]) => label),
      'half the score at distance 0',
    ]);
    await figure.locator('.lineplot-area').focus();
    await page.keyboard.press('ArrowRight');
    const readout = await figure.locator('output.readout').textContent();
    assert.equal(readout.split('; ').length, BASES.length, readout);
    assert.ok(!readout.includes('content'), readout);

    // A marker, with its label on the plot, at each half distance within the axis.
    const within = BASES.filter(([label]) => HALVES[label] <= span - 1);
    const markers = await figure
      .locator('path.marker-dot')
      .evaluateAll((dots) =>
        dots.map((dot) => ({ x: Number(dot.dataset.x), y: Number(dot.dataset.y), label: dot.dataset.marker })),
      );
    assert.equal(markers.length, within.length);
    within.forEach(([label], i) => {
      assert.ok(
        Math.abs(markers[i].x - HALVES[label]) < 1e-3,
        `${label}: marker at ${markers[i].x}, half at ${HALVES[label]}`,
      );
      assert.equal(markers[i].y, 0.5);
      assert.equal(markers[i].label, String(Math.round(HALVES[label])));
    });
    const dots = await figure.locator('path.marker-dot').evaluateAll((nodes) =>
      nodes.map((node) => {
        const { left, right } = node.getBoundingClientRect();
        return (left + right) / 2;
      }),
    );
    const area = await figure.locator('.lineplot-area').boundingBox();
    const labels = await figure.locator('.marker-label').evaluateAll((nodes) =>
      nodes.map((node) => {
        const { left, top, right, bottom } = node.getBoundingClientRect();
        return { left, top, right, bottom, text: node.textContent };
      }),
    );
    assert.deepEqual(
      labels.map(({ text }) => text),
      markers.map(({ label }) => label),
    );
    assert.deepEqual(overlappingPairs(labels), []);
    labels.forEach((box, i) => {
      const plotBox = { left: area.x, top: area.y, right: area.x + area.width, bottom: area.y + area.height };
      assert.ok(inside(box, plotBox), `label ${box.text} inside the plot`);
      assert.ok(Math.abs((box.left + box.right) / 2 - dots[i]) < 1, `label ${box.text} under its marker`);
    });

    const note = page.locator('#rope-base-note');
    const halves = JSON.parse(await note.getAttribute('data-halves'));
    BASES.forEach(([label], i) => {
      assert.ok(Math.abs(halves[i] - HALVES[label]) < 1e-3, label);
    });
    const text = await note.textContent();
    for (const [label] of BASES) {
      const said =
        HALVES[label] <= span - 1
          ? `${Math.round(HALVES[label])} (${label})`
          : `beyond ${span - 1}, the last distance shown (${label})`;
      assert.ok(text.includes(said), `the note says "${said}": ${text}`);
    }
    assert.deepEqual(log.errors, []);
    await context.close();
  });
}

test('a re-roll (keyboard) moves the light curves, not the bold expectations or the half distances', async () => {
  const { page, log, context } = await openPage(browser);
  await gotoAndSettle(page, `${server.pageUrl}#rope-base`);
  const note = page.locator('#rope-base-note');
  const before = { drawn: await readLinePlot(page, 'rope-base-decay'), text: await note.textContent() };
  await page.locator('#rope-base-reroll').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('base.seed') === '2');
  await waitForIdle(page);
  const after = { drawn: await readLinePlot(page, 'rope-base-decay'), text: await note.textContent() };
  assert.equal(after.text, before.text, 'the note (half distances) stays');
  for (const [label] of BASES) {
    assert.deepEqual(after.drawn.series[label], before.drawn.series[label], `${label}: the expectation stays`);
    const [old, now] = [lightCurves(before.drawn, label), lightCurves(after.drawn, label)];
    for (const k of Object.keys(old)) assert.notDeepEqual(now[k], old[k], `${label}, content ${k} moves`);
  }
  assert.deepEqual(log.errors, []);
  await context.close();
});
