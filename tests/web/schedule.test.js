// The widgets' redraw scheduler (widgets/schedule.js) in Chromium: redraws asked for at once run
// in request order, a frame's budget at a time (no frame runs many heavy redraws in one task);
// one that throws is reported and the others still run; data-pending-redraws counts down to 0
// and redrawsSettled() resolves once it has. Nothing is timed against a target: each redraw
// busy-waits for a fixed time, so how many fit in a frame follows from the budget alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openPage } from './support/browser.js';
import { scriptPage } from './support/script-page.js';

const REDRAW_MS = 25; // each redraw's cost: two fit in the frame's 40 ms budget, the second ends it
const REDRAWS = 8;

const PAGE = `import { coalesceToAnimationFrame, progressiveToAnimationFrame, redrawsSettled } from '../../widgets/schedule.js';
const result = { runs: [], pendingSeen: [], errors: [] };
let frame = 0;
(function countFrames() {
  frame++;
  requestAnimationFrame(countFrames);
})();
addEventListener('error', (event) => {
  result.errors.push(event.message);
  event.preventDefault();
});
const busy = (ms) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};
const redraws = Array.from({ length: ${REDRAWS} }, (_, i) =>
  coalesceToAnimationFrame(() => {
    busy(${REDRAW_MS});
    result.runs.push({ i, frame });
    if (i === 2) throw new Error('redraw 2 failed');
  }),
);
// A progressive redraw asked for last: its coarse step and its later steps follow the others.
const steps = progressiveToAnimationFrame(function* () {
  result.runs.push({ i: 'coarse', frame });
  yield;
  result.runs.push({ i: 'fine', frame });
});
for (const request of redraws) {
  request();
  request(); // asked twice before a frame: runs once
}
steps();
result.pendingSeen.push(document.documentElement.dataset.pendingRedraws);
await redrawsSettled();
result.pendingSeen.push(document.documentElement.dataset.pendingRedraws);
result.settledAtFrame = frame;
result.settledAgain = await Promise.race([redrawsSettled().then(() => true), new Promise((r) => setTimeout(() => r(false), 1000))]);
window.__result = result;
`;

const served = scriptPage('schedule', 'redraw scheduler', PAGE);

test('redraws asked for at once run in order, a frame budget at a time; a failing one does not stop the rest', async () => {
  const { page, context, log } = await openPage(served.browser);
  try {
    await page.goto(served.url);
    const r = await (await page.waitForFunction(() => window.__result, null, { timeout: 30_000 })).jsonValue();
    assert.deepEqual(
      r.runs.map((run) => run.i),
      [...Array.from({ length: REDRAWS }, (_, i) => i), 'coarse', 'fine'],
    );
    // Two 25 ms redraws reach the 40 ms budget: at most two per frame, so the eight span four frames or more.
    const perFrame = new Map();
    for (const run of r.runs.filter((run) => typeof run.i === 'number'))
      perFrame.set(run.frame, (perFrame.get(run.frame) ?? 0) + 1);
    assert.ok(
      [...perFrame.values()].every((count) => count <= 2),
      `redraws per frame: ${[...perFrame.values()]}`,
    );
    assert.ok(perFrame.size >= REDRAWS / 2, `${perFrame.size} frames`);
    // The progressive redraw's fine step comes in a later frame than its coarse one.
    const [coarse, fine] = r.runs.slice(-2);
    assert.ok(fine.frame > coarse.frame);
    assert.deepEqual(r.errors, ['Uncaught Error: redraw 2 failed']);
    assert.deepEqual(r.pendingSeen, [String(REDRAWS + 1), '0']);
    assert.ok(r.settledAtFrame >= fine.frame);
    assert.equal(r.settledAgain, true, 'redrawsSettled() resolves at once when nothing is pending');
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});
