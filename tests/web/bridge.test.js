// The bridge from the sinusoidal table to RoPE: what the section draws and prints against float64
// sin/cos in the test, and the two facts it teaches (a shift turns a pair of PE by k·ω; RoPE's
// angle between q and k, and so the score, stays when both move: drawn in the companion).
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { gotoAndSettle, openPage } from './support/browser.js';
import { useServedSite } from './support/session.js';

const site = useServedSite();
let browser;
let server;
before(async () => ({ browser, server } = await site));

const omega = (pair, dModel = 16) => 1 / 10000 ** ((2 * pair) / dModel);
const arrowsOf = (page, plot) =>
  page
    .locator(`figure[data-plot="${plot}"] g.arrow`)
    .evaluateAll((nodes) =>
      Object.fromEntries(nodes.map((n) => [n.dataset.role, n.dataset.to.split(',').map(Number)])),
    );
function close(a, b, tolerance, what) {
  for (const [i, v] of a.entries()) assert.ok(Math.abs(v - b[i]) <= tolerance, `${what}: ${a} vs ${b}`);
}

for (const [p, k, pair] of [
  [2, 3, 1],
  [100, 37, 3],
  [999, 1000, 0],
]) {
  test(`a shift is a rotation: PE(${p}) turned by ${k}·ω_${pair} is PE(${p + k})`, async () => {
    const { page, log, context } = await openPage(browser);
    await gotoAndSettle(page, `${server.pageUrl}?bridge.p=${p}&bridge.k=${k}&bridge.pair=${pair}`);
    const drawn = await arrowsOf(page, 'bridge-shift');
    const w = omega(pair);
    close(drawn.before, [Math.sin(p * w), Math.cos(p * w)], 1e-7, 'PE(p)');
    close(drawn.after, [Math.sin((p + k) * w), Math.cos((p + k) * w)], 1e-7, 'PE(p + k)');
    close(drawn.turned, drawn.after, 4e-7, 'the turned arrow lands on PE(p + k)');
    const rows = await page
      .locator('#bridge-shift-table tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => Number(td.textContent))));
    close(rows[0], [Math.sin(p * w), Math.cos(p * w)], 1e-6, 'the table’s PE(p)');
    close(rows[2], [Math.sin((p + k) * w), Math.cos((p + k) * w)], 1e-6, 'the table’s PE(p + k)');
    assert.match(await page.locator('#bridge-shift-formula').textContent(), new RegExp(`${k}`));
    assert.deepEqual(log.errors, []);
    await context.close();
  });
}

test('RoPE: moving q and k together turns both by the shift, and keeps their angle and score', async () => {
  const { page, log, context } = await openPage(browser);
  const read = async (shift) => {
    await gotoAndSettle(page, `${server.companionUrl}?bridge.m=9&bridge.n=4&bridge.shift=${shift}`);
    const note = await page.locator('#bridge-rope-note').evaluate((n) => ({ ...n.dataset, text: n.textContent }));
    return { arrows: await arrowsOf(page, 'bridge-rope'), angle: Number(note.angle), score: Number(note.score), note };
  };
  const turn = ([x, y], a) => [x * Math.cos(a) - y * Math.sin(a), x * Math.sin(a) + y * Math.cos(a)];
  const at0 = await read(0);
  const at500 = await read(500);
  // Head dim 2: ω = 1, so a vector at position m is turned by m radians.
  close(at0.arrows.query, turn([1, 0.3], 9), 1e-6, 'q at 9');
  close(at0.arrows.key, turn([0.6, 0.8], 4), 1e-6, 'k at 4');
  close(at500.arrows.query, turn([1, 0.3], 509), 1e-5, 'q at 509');
  close(at500.arrows.key, turn([0.6, 0.8], 504), 1e-5, 'k at 504');
  assert.ok(Math.abs(at0.angle - at500.angle) < 1e-5, `angle ${at0.angle} vs ${at500.angle}`);
  assert.ok(Math.abs(at0.score - at500.score) < 1e-5, `score ${at0.score} vs ${at500.score}`);
  // Independent of the page: q · k = (q_a k_a + q_b k_b) cos(m − n) − (q_b k_a − q_a k_b) sin(m − n).
  const exact = (1 * 0.6 + 0.3 * 0.8) * Math.cos(5) - (0.3 * 0.6 - 1 * 0.8) * Math.sin(5);
  assert.ok(Math.abs(at0.score - exact) < 1e-6, `${at0.score} vs ${exact}`);
  assert.match(at500.note.text, /^m − n = 5: /);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('the text says which way each pair turns, and the figures turn that way', async () => {
  const { page, log, context } = await openPage(browser);
  await gotoAndSettle(page, server.pageUrl); // p = 2, k = 3, pair 1: a turn of 0.95 rad; RoPE: m = 3, pair 0
  // The sign of the cross product of the vector before and after a turn below π: + counter-clockwise.
  const cross = ([a, b], [c, d]) => a * d - b * c;
  const shift = await arrowsOf(page, 'bridge-shift');
  assert.ok(cross(shift.before, shift.after) < 0, 'PE(p) → PE(p + k) turns clockwise');
  const rope = await arrowsOf(page, 'rope-rotation');
  assert.ok(cross(rope.original, rope.rotated) > 0, 'x → x′ turns counter-clockwise');
  const text = async (selector) => (await page.locator(selector).textContent()).replace(/\s+/g, ' ');
  assert.match(await text('#bridge'), /as p grows the arrow turns clockwise/);
  assert.match(await text('#bridge'), /RoPE’s pairs in the next section .* turn counter-clockwise/);
  assert.match(await text('#rope'), /The pair turns counter-clockwise as m grows/);
  assert.deepEqual(log.errors, []);
  await context.close();
});
