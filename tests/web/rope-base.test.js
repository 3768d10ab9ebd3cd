// "Why RoPE's base matters": the curves against a float64 statement of the same average, and the
// half-score distances the note gives.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { gotoAndSettle, openPage } from './support/browser.js';
import { readLinePlot } from './support/lineplot.js';
import { useServedSite } from './support/session.js';
import { randomMatrix } from '../../web/src/tokens.js';

const site = useServedSite();
let browser;
let server;
before(async () => ({ browser, server } = await site));

/** Mean over the draws of Σ_i (q_2i² + q_2i+1²) cos(Δ ω_i) / |q|², the section's stated curve. */
function reference(base, span, headDim, seed, draws = 4) {
  const q = randomMatrix(seed, draws, headDim);
  const curve = new Float64Array(span);
  for (let d = 0; d < draws; d++) {
    const v = q.subarray(d * headDim, (d + 1) * headDim);
    const norm = v.reduce((s, x) => s + x * x, 0);
    for (let delta = 0; delta < span; delta++) {
      let sum = 0;
      for (let i = 0; i < headDim / 2; i++)
        sum += (v[2 * i] ** 2 + v[2 * i + 1] ** 2) * Math.cos(delta / base ** ((2 * i) / headDim));
      curve[delta] += sum / norm / draws;
    }
  }
  return curve;
}

for (const [query, span, headDim, seed] of [
  ['', 4096, 128, 1],
  ['?base.span=1000&base.hd=64&base.seed=7', 1000, 64, 7],
]) {
  test(`the decay curves at three bases match float64 (span ${span}, head dim ${headDim})`, async () => {
    const { page, log, context } = await openPage(browser);
    await gotoAndSettle(page, `${server.pageUrl}${query}#rope-base`);
    const drawn = await readLinePlot(page, 'rope-base-decay');
    const halves = [];
    for (const [label, base] of [
      ['base 1e4', 1e4],
      ['base 5e5', 5e5],
      ['base 1e6', 1e6],
    ]) {
      const want = reference(base, span, headDim, seed);
      const points = drawn.series[label];
      assert.equal(points.length, span, `${label}: one point per distance`);
      for (const [x, y] of points.filter((_, i) => i % 37 === 0)) {
        const d = Math.round(x);
        assert.ok(Math.abs(y - want[d]) <= drawn.yPerUnit * 0.006 + 1e-5, `${label} at ${d}: ${y} vs ${want[d]}`);
      }
      const at = want.findIndex((v) => v < want[0] / 2);
      halves.push(at < 0 ? null : at);
    }
    const shown = JSON.parse(await page.locator('#rope-base-note').getAttribute('data-halves'));
    // The page's float32 curve may cross half a step away from the float64 one.
    shown.forEach((at, i) => {
      if (halves[i] === null) assert.equal(at, null);
      else assert.ok(Math.abs(at - halves[i]) <= 1, `${at} vs ${halves[i]}`);
    });
    assert.ok(halves[0] !== null && (halves[1] === null || halves[1] > halves[0]), 'a larger base decays later');
    assert.deepEqual(log.errors, []);
    await context.close();
  });
}
