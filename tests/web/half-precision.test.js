// "Half precision": the stored-table errors against float64 values rounded to each format by the
// test's own rounding, the score errors against their bound and their flatness in the position,
// the angle errors of 16-bit positions against a float64 rotation, and the format table.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { randomMatrix } from '../../widgets/tokens.js';
import { logSpacedPositions } from '../../widgets/vectors.js';
import { fromHalfBits, toHalfBits } from '../js/half-support.js';
import { gotoAndSettle, openPage } from './support/browser.js';
import { readLinePlot } from './support/lineplot.js';
import { useServedSite } from './support/session.js';

const site = useServedSite();
let browser;
let server;
before(async () => ({ browser, server } = await site));

/** x rounded once to `dtype`, as a number. */
const roundToDtype = (x, dtype) => fromHalfBits(toHalfBits(x, dtype), dtype);

const D = 128;
const BASE = 10000;
const DRAWS = 4;
const positions = logSpacedPositions(300, 1_000_000);
const omega = Array.from({ length: D / 2 }, (_, i) => BASE ** ((-2 * i) / D));

/** The largest |round(PE(p)) − PE(p)| over the channels of the float64 table at position p. */
function tableError(p, dtype) {
  let worst = 0;
  for (const w of omega) {
    for (const exact of [Math.sin(p * w), Math.cos(p * w)])
      worst = Math.max(worst, Math.abs(roundToDtype(exact, dtype) - exact));
  }
  return worst;
}

/** The largest |PE(at) − PE(p)| over the channels: a table computed at a wrong position. */
function angleError(p, at) {
  let worst = 0;
  for (const w of omega) {
    worst = Math.max(worst, Math.abs(Math.sin(at * w) - Math.sin(p * w)), Math.abs(Math.cos(at * w) - Math.cos(p * w)));
  }
  return worst;
}

/** The page's q and k: seeded normals on a grid of 1/64 in (−2, 2). */
function gridValues(seed) {
  return randomMatrix(seed, DRAWS, D).map((v) => Math.max(-127, Math.min(127, Math.round(v * 64))) / 64);
}

/** q (or k) of draw d rotated in float64 at position p (interleaved pairs). */
function rotate(v, d, p) {
  const out = new Float64Array(D);
  for (let i = 0; i < D / 2; i++) {
    const [a, b] = [v[d * D + 2 * i], v[d * D + 2 * i + 1]];
    const [c, s] = [Math.cos(p * omega[i]), Math.sin(p * omega[i])];
    out[2 * i] = a * c - b * s;
    out[2 * i + 1] = b * c + a * s;
  }
  return out;
}

const dot = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);

/** Points of a plotted series near position p (the plot's x is read back to 2 decimals of 1000). */
function pointAt(points, p) {
  return points.reduce((best, point) =>
    Math.abs(Math.log(point[0] / p)) < Math.abs(Math.log(best[0] / p)) ? point : best,
  );
}

const closeInLog = (y, want, tolerance) => Math.abs(Math.log10(y) - Math.log10(want)) <= tolerance;

// Every integer position the score plot reaches (queries up to 10^6 + Δ, Δ ≤ 4096) in bfloat16,
// rounded by the test's own rounding.
const LAST_POSITION = 1_000_000 + 4096;
const heldInBfloat16 = Float64Array.from({ length: LAST_POSITION + 1 }, (_, p) => roundToDtype(p, 'bfloat16'));

/**
 * Over every integer query position m in Δ … 10^6 + Δ (key m − Δ): the first m whose rounded
 * positions are not Δ apart, the last m whose are, and how many keep Δ among the query positions
 * from the first lost one up to 4096 and beyond 100 000.
 */
function keptDistance(delta) {
  const result = { firstLost: null, lastKept: null, early: { kept: 0, of: 0 }, late: { kept: 0, of: 0 } };
  for (let m = delta; m <= 1_000_000 + delta; m++) {
    const kept = heldInBfloat16[m] - heldInBfloat16[m - delta] === delta;
    if (kept) result.lastKept = m;
    else result.firstLost ??= m;
    const counted = m > 100_000 ? result.late : result.firstLost !== null && m <= 4096 ? result.early : null;
    if (counted) {
      counted.of += 1;
      if (kept) counted.kept += 1;
    }
  }
  return result;
}

/** A percentage in the note ("96", "0.21") against kept / of: 0 and 100 only when exact, else to 2 digits. */
function assertPercent(shown, { kept, of }, label) {
  const value = Number(shown);
  if (kept === 0 || kept === of) return assert.equal(value, kept === 0 ? 0 : 100, label);
  const want = (100 * kept) / of;
  assert.ok(value > 0 && value < 100 && Math.abs(value - want) <= 0.05 * want, `${label}: ${shown} % vs ${want} %`);
}

/** The note's account of bfloat16 positions at distance Δ against the test's integer scan. */
async function assertKeptNote(page, delta) {
  const note = page.locator('#half-precision-note');
  const text = (await note.textContent()).replace(/\s+/g, ' ');
  const want = keptDistance(delta);
  assert.deepEqual(JSON.parse(await note.getAttribute('data-kept')), want, `Δ ${delta}: the scan`);
  if (want.firstLost === null) {
    assert.match(text, new RegExp(`At distance ${delta} they round alike at every position`), `Δ ${delta}`);
    return;
  }
  if (want.firstLost > delta)
    assert.ok(
      text.includes(`float32’s`) && text.includes(`up to query position ${want.firstLost - 1}.`),
      `Δ ${delta}: ${text}`,
    );
  else assert.ok(text.includes(`already at query position ${delta} (key 0) they are not ${delta} apart`), text);
  if (want.lastKept === null || want.lastKept < want.firstLost) {
    assert.ok(text.includes(`From ${want.firstLost} on they are never ${delta} apart`), `Δ ${delta}: ${text}`);
    return;
  }
  const shares = text.match(
    new RegExp(
      `From ${want.firstLost} on they are ${delta} apart at (?:([\\d.]+) % of the query positions up to 4096 and at )?([\\d.]+) % of those beyond 100 000, the last at query position (\\d+)`,
    ),
  );
  assert.ok(shares, `Δ ${delta}: ${text}`);
  if (want.early.of > 0) assertPercent(shares[1], want.early, `Δ ${delta}, up to 4096`);
  else assert.equal(shares[1], undefined);
  assertPercent(shares[2], want.late, `Δ ${delta}, beyond 100 000`);
  assert.equal(Number(shares[3]), want.lastKept);
}

test('the stored table: each format’s error is the float64 table rounded once, at every position', async () => {
  const { page, log, context } = await openPage(browser);
  await gotoAndSettle(page, `${server.companionUrl}#half-precision`);
  const drawn = await readLinePlot(page, 'half-table-error');
  for (const dtype of ['float16', 'bfloat16']) {
    const points = drawn.series[`stored as ${dtype}`];
    assert.equal(points.length, positions.length, `${dtype}: one point per position`);
    for (const p of positions.filter((_, i) => i % 7 === 0)) {
      const [, y] = pointAt(points, p);
      const want = tableError(p, dtype);
      assert.ok(closeInLog(y, want, 0.01), `${dtype} at ${p}: ${y} vs ${want}`);
    }
    const bound = dtype === 'float16' ? 2 ** -12 : 2 ** -9; // half an ulp of values in [0.5, 1]
    assert.ok(Math.max(...points.map(([, y]) => y)) <= bound * 1.001, `${dtype} within half an ulp`);
  }
  const float32 = drawn.series['stored as float32'];
  assert.ok(
    float32.every(([, y]) => y <= 2 ** -25 * 1.001),
    'float32: half a float32 ulp',
  );

  // Positions held in 16 bits: the float64 table at the rounded position (float32 adds < 1e-7).
  for (const dtype of ['bfloat16', 'float16']) {
    const points = drawn.series[`float32 table, positions stored as ${dtype}`];
    for (const p of positions.filter((_, i) => i % 5 === 0)) {
      const at = roundToDtype(p, dtype);
      if (!Number.isFinite(at)) continue; // float16 holds no position above 65504: no point drawn
      const want = angleError(p, at);
      if (want < 1e-6) continue; // exact positions: float32 rounding only, below the plot's floor
      const [, y] = pointAt(points, p);
      assert.ok(closeInLog(y, want, 0.01), `${dtype} positions at ${p}: ${y} vs ${want}`);
    }
  }
  const beyond = drawn.series['float32 table, positions stored as float16'].filter(([x]) => x > 65520);
  assert.equal(beyond.length, 0, 'no float16 position is drawn past 65504');
  assert.deepEqual(log.errors, []);
  await context.close();
});

for (const [query, delta, seed] of [
  ['', 16, 1],
  ['?hp.delta=0&hp.seed=5', 0, 5],
  ['?hp.delta=17', 17, 1],
]) {
  test(`RoPE scores from 16-bit q and k: bounded, flat in the position (Δ ${delta}, seed ${seed})`, async () => {
    const { page, log, context } = await openPage(browser);
    await gotoAndSettle(page, `${server.companionUrl}${query}#half-precision`);
    const drawn = await readLinePlot(page, 'half-score-error');
    const q = gridValues(seed);
    const k = gridValues(seed + 7919);
    // Rounding each channel of q and k (each below 2·√2 after rotation) moves the score by at most
    // Σ_c (|q_c| + |k_c| + 1 ulp) · ulp_c, a 16-bit ulp of 2^-10 · 4 (float16) or 2^-7 · 4 (bfloat16).
    const sizes = Array.from({ length: DRAWS }, (_, d) => {
      let sum = 0;
      for (let c = 0; c < D; c++) sum += Math.abs(q[d * D + c]) + Math.abs(k[d * D + c]);
      return sum * Math.SQRT2;
    });
    for (const [dtype, unit] of [
      ['float16', 2 ** -11],
      ['bfloat16', 2 ** -8],
    ]) {
      const points = drawn.series[`q, k stored as ${dtype}`];
      assert.equal(points.length, positions.length);
      const bound = Math.max(...sizes) * 2 * unit * 1.01;
      assert.ok(
        points.every(([, y]) => y <= bound),
        `${dtype}: every score error within ${bound}`,
      );
      const early = Math.max(...points.filter(([x]) => x < 1000).map(([, y]) => y));
      const late = Math.max(...points.filter(([x]) => x >= 100_000).map(([, y]) => y));
      assert.ok(late < 4 * early && early < 4 * late, `${dtype}: ${early} below 1000, ${late} beyond 100 000`);
    }
    // Positions in bfloat16, rotation in float32: the float64 rotation at the rounded positions.
    const points = drawn.series['float32, positions stored as bfloat16'];
    const exact = Array.from({ length: DRAWS }, (_, d) => dot(rotate(q, d, 0), rotate(k, d, -delta)));
    for (const p of positions.filter((_, i) => i % 9 === 0)) {
      const m = p + delta;
      let want = 0;
      for (let d = 0; d < DRAWS; d++) {
        const score = dot(rotate(q, d, roundToDtype(m, 'bfloat16')), rotate(k, d, roundToDtype(p, 'bfloat16')));
        want = Math.max(want, Math.abs(score - exact[d]));
      }
      if (want < 1e-3) continue; // exact positions: float32 rounding only
      const [, y] = pointAt(points, m);
      assert.ok(closeInLog(y, want, 0.01), `bfloat16 positions at ${m}: ${y} vs ${want}`);
    }
    await assertKeptNote(page, delta);
    assert.deepEqual(log.errors, []);
    await context.close();
  });
}

test('the format table: what each format holds, measured through posenc', async () => {
  const { page, log, context } = await openPage(browser);
  await gotoAndSettle(page, `${server.companionUrl}#half-precision`);
  const rows = await page
    .locator('#half-precision-table tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [tr.dataset.dtype, ...[...tr.cells].slice(1).map((c) => c.textContent)]));
  const byDtype = Object.fromEntries(rows.map(([dtype, ...cells]) => [dtype, cells]));
  assert.deepEqual(byDtype.float16.slice(0, 4), ['1 + 5 + 10', '1.0009766', '65504', '2048']);
  assert.deepEqual(byDtype.bfloat16.slice(0, 4), ['1 + 8 + 7', '1.0078125', '3.3895e38', '256']);
  assert.deepEqual(byDtype.float32.slice(0, 4), ['1 + 8 + 23', '1.0000001', '3.4028e38', '16777216']);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('the note on bfloat16 positions at distances past 256 and at the largest one, against an integer scan', async () => {
  const { page, log, context } = await openPage(browser);
  for (const delta of [1, 257, 1000, 4096]) {
    await gotoAndSettle(page, `${server.companionUrl}?hp.delta=${delta}#half-precision`);
    await assertKeptNote(page, delta);
  }
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('the prose’s bound on a position held in bfloat16 holds for every integer position, and is tight', async () => {
  const { page, log, context } = await openPage(browser);
  await gotoAndSettle(page, `${server.companionUrl}#half-precision`);
  const tex = await page
    .locator('#half-precision p [data-tex]')
    .evaluateAll((spans) => spans.map((span) => span.dataset.tex).find((t) => /^2\^\{-\d+\}\\,p$/.test(t)));
  const exponent = Number(tex.match(/-(\d+)/)[1]);
  let worst = 0; // the largest |round(p) − p| / p
  for (let p = 1; p <= LAST_POSITION; p++) worst = Math.max(worst, Math.abs(heldInBfloat16[p] - p) / p);
  assert.ok(worst <= 2 ** -exponent, `off by up to ${worst} p, more than the prose's 2^-${exponent} p`);
  assert.ok(worst > 2 ** -(exponent + 1), `off by up to ${worst} p: the prose's 2^-${exponent} p is not tight`);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('the "Try this" prompts on bfloat16 positions hold for every integer position', async () => {
  const { page, log, context } = await openPage(browser);
  await gotoAndSettle(page, `${server.companionUrl}#half-precision`);
  const prompts = (await page.locator('#half-precision details.try li').allTextContents()).map((t) =>
    t.replace(/\s+/g, ' '),
  );
  const float32Level = async () => {
    const drawn = await readLinePlot(page, 'half-score-error');
    return {
      float32: Math.max(...drawn.series['q, k stored as float32'].map(([, y]) => y)),
      positions: drawn.series['float32, positions stored as bfloat16'],
    };
  };

  // Δ = 0: the two positions round alike everywhere; the line stays at float32's level.
  assert.ok(prompts.some((t) => t.includes('to 0.') && t.includes('stays at float32’s level at every position')));
  await gotoAndSettle(page, `${server.companionUrl}?hp.delta=0#half-precision`);
  assert.equal(keptDistance(0).firstLost, null);
  const atZero = await float32Level();
  assert.ok(
    atZero.positions.every(([, y]) => y <= 2 * atZero.float32),
    'Δ 0: every point at float32’s level',
  );

  // Held integers above 256: even up to 512, multiples of 4 up to 1024; spacing 512 from 65 536
  // to 131 072 (so beyond 100 000).
  const held = (from, to) =>
    Array.from({ length: to - from + 1 }, (_, i) => from + i).filter((p) => heldInBfloat16[p] === p);
  assert.deepEqual(
    held(257, 512),
    Array.from({ length: 128 }, (_, i) => 258 + 2 * i),
  );
  assert.deepEqual(
    held(513, 1024),
    Array.from({ length: 128 }, (_, i) => 516 + 4 * i),
  );
  assert.ok(held(65_536, 131_071).every((p) => p % 512 === 0));

  // Δ = 17: never 17 apart from query position 273 on (the tight bound: query 272 still has its
  // key 17 behind), and the line far above float32's level there.
  const seventeen = prompts.find((t) => t.includes('to 17.'));
  const at17 = keptDistance(17);
  assert.equal(at17.lastKept, 272, 'the last query position 17 apart');
  assert.ok(seventeen?.includes(`from query position ${at17.lastKept + 1} on they are never 17 apart`), seventeen);
  await gotoAndSettle(page, `${server.companionUrl}?hp.delta=17#half-precision`);
  const lost = await float32Level();
  const beyond = lost.positions.filter(([x]) => x >= 273);
  assert.ok(beyond.length > 100);
  assert.ok(
    beyond.every(([, y]) => y > 100 * lost.float32),
    'Δ 17: every point from 273 on far above float32’s level',
  );

  // Δ = 16: most query positions up to 4096 still 16 apart, none beyond 100 000.
  assert.ok(
    seventeen.includes(
      'At Δ = 16 the note counts most query positions up to 4096 still 16 apart, and none beyond 100 000',
    ),
  );
  const at16 = keptDistance(16);
  assert.ok(at16.early.kept > at16.early.of / 2, `${at16.early.kept} of ${at16.early.of}`);
  assert.equal(at16.late.kept, 0);
  assert.deepEqual(log.errors, []);
  await context.close();
});
