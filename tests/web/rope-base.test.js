// "Why RoPE's base matters": the bold curves against the float64 expectation over random
// isotropic contents, Σ_i cos(Δ ω_i) / (d/2); the light curves against a float64 rotation of each
// random content with itself; the half-score distances the note gives against the float64
// expectation's; and a re-roll that moves only the light curves.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { randomMatrix } from '../../widgets/tokens.js';
import { gotoAndSettle, openPage, waitForIdle } from './support/browser.js';
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

/** The expectation over isotropic contents of q · R(Δ) q / |q|²: Σ_i cos(Δ ω_i) / (d/2), Δ < span. */
function expectation(base, span, headDim) {
  return Float64Array.from({ length: span }, (_, delta) => {
    let sum = 0;
    for (let i = 0; i < headDim / 2; i++) sum += Math.cos(delta * omega(base, headDim, i));
    return sum / (headDim / 2);
  });
}

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

/** The first distance where a curve falls below half its value at 0 (null: never). */
function halfDistance(curve) {
  const at = curve.findIndex((v) => v < curve[0] / 2);
  return at < 0 ? null : at;
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
]) {
  test(`bold expectations, light random contents and the half distances match float64 (span ${span}, head dim ${headDim})`, async () => {
    const { page, log, context } = await openPage(browser);
    await gotoAndSettle(page, `${server.pageUrl}${query}#rope-base`);
    const drawn = await readLinePlot(page, 'rope-base-decay');
    const tolerance = drawn.yPerUnit * 0.006 + 1e-5; // the read-back's resolution, and float32
    const halves = [];
    for (const [label, base] of BASES) {
      const want = expectation(base, span, headDim);
      const points = drawn.series[label];
      const xs = points.map(([x]) => Math.round(x));
      assert.equal(xs[0], 0, `${label} starts at distance 0`);
      assert.equal(xs.at(-1), span - 1, `${label} ends at distance ${span - 1}`);
      assert.ok(points.length >= Math.min(span, 1000), `${label}: ${points.length} points`);
      assertOnCurve(points, (d) => want[d], span, tolerance, label);
      halves.push(halfDistance(want));

      const light = lightCurves(drawn, label);
      const draws = Object.keys(light).length;
      assert.ok(draws >= 4, `${label}: ${draws} random contents`);
      const q = randomMatrix(seed, draws, headDim);
      for (const [k, curve] of Object.entries(light)) {
        const v = q.subarray((k - 1) * headDim, k * headDim);
        const sampled = curve.filter((_, i) => i % 23 === 0);
        assertOnCurve(sampled, (d) => contentScore(v, base, d), span, tolerance, `${label}, content ${k}`);
      }
    }
    // The key and the keyboard read-out name the bold curves only.
    const figure = page.locator('figure[data-plot="rope-base-decay"]');
    assert.deepEqual(
      await figure.locator('.series-key li').allTextContents(),
      BASES.map(([label]) => label),
    );
    await figure.locator('.lineplot-area').focus();
    await page.keyboard.press('ArrowRight');
    const readout = await figure.locator('output.readout').textContent();
    assert.equal(readout.split('; ').length, BASES.length, readout);
    assert.ok(!readout.includes('content'), readout);

    const note = page.locator('#rope-base-note');
    assert.deepEqual(JSON.parse(await note.getAttribute('data-halves')), halves);
    const text = await note.textContent();
    BASES.forEach(([label], i) => {
      const said = halves[i] === null ? `${label}: not within ${span}` : `${label}: at distance ${halves[i]}`;
      assert.ok(text.includes(said), `the note says "${said}": ${text}`);
    });
    assert.ok(halves[0] !== null && (halves[1] === null || halves[1] > halves[0]), 'a larger base decays later');
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
