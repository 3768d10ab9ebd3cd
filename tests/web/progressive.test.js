// End-to-end: progressive redraws. A heavy similarity heatmap shows a
// preview of every stride-th position first, then the full picture; a change that arrives while a
// redraw is under way drops it, so no stale picture is ever left; and the final picture is the
// full-resolution matrix, checked against a float64 reference computed here.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { randomQueryKey } from '../../widgets/tokens.js';
import { gotoAndSettle, waitForIdle } from './support/browser.js';
import { checkHeatmapPixels } from './support/colors.js';
import { usePageSession } from './support/session.js';

const session = usePageSession();
let server;
let page;
before(async () => ({ server, page } = await session));

const SEQ = 1024;

/** rot(q, m) · rot(k, n) in float64 (interleaved pairs, base 10000), from the definition. */
function ropeScore(q, k, m, n) {
  const dim = q.length;
  let sum = 0;
  for (let i = 0; i < dim / 2; i++) {
    const theta = 10000 ** ((-2 * i) / dim);
    const [a, b] = [m * theta, n * theta];
    const q0 = q[2 * i] * Math.cos(a) - q[2 * i + 1] * Math.sin(a);
    const q1 = q[2 * i] * Math.sin(a) + q[2 * i + 1] * Math.cos(a);
    const k0 = k[2 * i] * Math.cos(b) - k[2 * i + 1] * Math.sin(b);
    const k1 = k[2 * i] * Math.sin(b) + k[2 * i + 1] * Math.cos(b);
    sum += q0 * k0 + q1 * k1;
  }
  return sum;
}

/** The reference for head dim `dim`: sampled cells, and the scale's ends over every m − n. */
function reference(dim) {
  const { q, k } = randomQueryKey(1, dim);
  let lo = Infinity;
  let hi = -Infinity;
  // The score depends on m − n only (what the page teaches), so its extent is that of the curve.
  for (let d = -(SEQ - 1); d < SEQ; d++) {
    const v = d >= 0 ? ropeScore(q, k, d, 0) : ropeScore(q, k, 0, -d);
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  return { expected: (m, n) => ropeScore(q, k, m, n), domain: [lo, hi] };
}

const canvasState = () =>
  page.locator('figure[data-plot="rope-similarity"] canvas.heatmap-cells').evaluate((canvas) => ({
    resolution: canvas.dataset.resolution,
    drawn: Number(canvas.dataset.drawn),
    width: canvas.width,
  }));

test('a heavy heatmap shows a labelled preview first, then the full picture', async () => {
  await gotoAndSettle(page, `${server.pageUrl}?rope.seq=${SEQ}&rope.hd=128&rope.content=random`);
  assert.deepEqual(await canvasState().then(({ resolution, width }) => ({ resolution, width })), {
    resolution: 'full',
    width: SEQ,
  });
  // One frame after a change: the preview, one cell per sampled position, and the read-out says so.
  const preview = await page.evaluate(async () => {
    const slider = document.getElementById('ctl-rope-hd-range');
    slider.value = '126';
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    const canvas = document
      .querySelector('posenc-rope-heatmap')
      .shadowRoot.querySelector('figure[data-plot="rope-similarity"] canvas.heatmap-cells');
    canvas.focus();
    return {
      resolution: canvas.dataset.resolution,
      width: canvas.width,
      readout: document
        .querySelector('posenc-rope-heatmap')
        .shadowRoot.querySelector('figure[data-plot="rope-similarity"] .readout').textContent,
      caption: document
        .querySelector('posenc-rope-heatmap')
        .shadowRoot.querySelector('figure[data-plot="rope-similarity"] figcaption').textContent,
    };
  });
  assert.equal(preview.resolution, 'preview');
  assert.ok(preview.width < SEQ, `preview width ${preview.width}`);
  assert.match(preview.readout, /^Preview of every \d+(st|nd|rd|th) position; the full 1024 × 1024 picture follows\./);
  assert.match(preview.readout, /m = 0, n = 0/);
  assert.match(preview.caption, /^Preview of every/);
  await waitForIdle(page);
  const after = await canvasState();
  assert.equal(after.resolution, 'full');
  assert.equal(after.width, SEQ);
  const { expected, domain } = reference(126);
  await checkHeatmapPixels(page, 'rope-similarity', { rows: SEQ, cols: SEQ, expected, domain, samples: 60 });
  await page.locator('figure[data-plot="rope-similarity"] canvas.heatmap-cells').blur();
});

test('a change during a redraw supersedes it: the newest settings are drawn, at full resolution, and nothing after', async () => {
  await gotoAndSettle(page, `${server.pageUrl}?rope.seq=${SEQ}&rope.hd=128&rope.content=random`);
  // Three changes, each one frame after the last: the first two redraws are still refining.
  const log = await page.evaluate(async () => {
    const slider = document.getElementById('ctl-rope-hd-range');
    const canvas = document
      .querySelector('posenc-rope-heatmap')
      .shadowRoot.querySelector('figure[data-plot="rope-similarity"] canvas.heatmap-cells');
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    const seen = [];
    for (const value of ['100', '110', '120']) {
      slider.value = value;
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      await frame();
      seen.push(canvas.dataset.resolution);
    }
    return seen;
  });
  assert.deepEqual(log, ['preview', 'preview', 'preview'], 'each change shows its preview at once');
  await waitForIdle(page);
  const settled = await canvasState();
  assert.equal(settled.resolution, 'full');
  // No stale step of an older redraw draws over the newest picture later.
  await page.waitForTimeout(300);
  assert.equal((await canvasState()).drawn, settled.drawn, 'no draw after the page settled');
  const { expected, domain } = reference(120);
  await checkHeatmapPixels(page, 'rope-similarity', { rows: SEQ, cols: SEQ, expected, domain, samples: 60 });
  assert.match(await page.locator('#rope-heatmap-title').textContent(), /0 … 1023/);
});
