// Half precision: what storing in float16 or bfloat16 does to a sinusoidal table and to RoPE
// scores at long positions. posenc computes the angles and sin/cos in float64 and rounds once to
// the storage type, so the error is the storage's and does not grow with the position; a position
// that is itself stored in 16 bits (as under bfloat16 autocast) gives an angle error that does.
// Every stored value comes from posenc (`dtype`), every exact one from float64 in this file.
import { controlRow, numberControl, rerollButton } from '../../../widgets/controls.js';
import { byId, h, labelCellsByHeader } from '../../../widgets/dom.js';
import { formatSig, formatSigText } from '../../../widgets/format.js';
import { exactBits, halfAt, numberOfBits, readHalf } from '../half-bits.js';
import { createLinePlot } from '../../../widgets/plots/lineplot.js';
import { coalesceToAnimationFrame } from '../../../widgets/schedule.js';
import { randomMatrix } from '../../../widgets/tokens.js';
import { logSpacedPositions, rowMaxDifference, tile } from '../../../widgets/vectors.js';

export const id = 'half-precision';

const D = 128; // d_model of the table and head dim of q and k
const BASE = 10000;
const SAMPLES = 300; // positions sampled, log-spaced
const MAX_POSITION = 1_000_000;
const DRAWS = 4; // random q/k pairs, one per head
const DTYPES = ['float32', 'float16', 'bfloat16'];
// Okabe-Ito colours: one per storage type, and one per 16-bit type that holds the positions.
const COLORS = {
  float32: '#0072B2',
  float16: '#D55E00',
  bfloat16: '#009E73',
  bfloat16Position: '#CC79A7',
  float16Position: '#E69F00',
};
// Each format's fields (sign + exponent + fraction bits) and the bit patterns of the number after
// 1 and of the largest finite number.
const FORMATS = {
  float32: { bits: '1 + 8 + 23', afterOne: 0x3f800001, largest: 0x7f7fffff },
  float16: { bits: '1 + 5 + 10', afterOne: 0x3c01, largest: 0x7bff },
  bfloat16: { bits: '1 + 8 + 7', afterOne: 0x3f81, largest: 0x7f7f },
};
const MAX_DELTA = 4096;
// The note counts, over every integer query position, where the two positions held in bfloat16
// are still Δ apart: up to EARLY_END, and beyond LATE_START.
const EARLY_END = 4096;
const LATE_START = 100_000;

const FLOAT32 = new Float32Array(1);
const BITS32 = new Uint32Array(FLOAT32.buffer);

/** The number a bit pattern of `dtype` holds. */
function valueOfBits(bits, dtype) {
  if (dtype !== 'float32') return numberOfBits(bits, dtype);
  BITS32[0] = bits;
  return FLOAT32[0];
}

export const settings = {
  'hp.delta': { type: 'int', default: 16, min: 0, max: MAX_DELTA },
  'hp.seed': { type: 'int', default: 1, min: 1, max: 999999 },
};

/** The exact (float64) interleaved sinusoidal table at `positions`, [positions.length, D]. */
function exactTable(positions, frequencies) {
  const out = new Float64Array(positions.length * D);
  positions.forEach((p, row) => {
    frequencies.forEach((w, i) => {
      out[row * D + 2 * i] = Math.sin(p * w);
      out[row * D + 2 * i + 1] = Math.cos(p * w);
    });
  });
  return out;
}

/**
 * The exact RoPE score of q at m with k at m − delta (interleaved pairs), per draw: it depends on
 * delta only, Σ (q_a k_a + q_b k_b) cos(delta·ω) − (q_b k_a − q_a k_b) sin(delta·ω).
 */
function exactScores(q, k, frequencies, delta) {
  return Float64Array.from({ length: DRAWS }, (_, d) => {
    let sum = 0;
    frequencies.forEach((w, i) => {
      const at = d * D + 2 * i;
      const [qa, qb, ka, kb] = [q[at], q[at + 1], k[at], k[at + 1]];
      sum += (qa * ka + qb * kb) * Math.cos(delta * w) - (qb * ka - qa * kb) * Math.sin(delta * w);
    });
    return sum;
  });
}

/** Per row, the largest |score − exact| over the draws: rotated queries and keys [rows, DRAWS, D]. */
function scoreErrors(queries, keys, rows, exact) {
  return Float64Array.from({ length: rows }, (_, r) => {
    let worst = 0;
    for (let d = 0; d < DRAWS; d++) {
      let dot = 0;
      const at = (r * DRAWS + d) * D;
      for (let c = 0; c < D; c++) dot += queries[at + c] * keys[at + c];
      worst = Math.max(worst, Math.abs(dot - exact[d]));
    }
    return worst;
  });
}

/**
 * Where positions held in `stored` (the value of every integer position) keep the distance
 * `delta` between a query at m and a key at m − delta, over every query position m in delta …
 * last: the first m where they do not (null: none), the last m where they do, and how many of the
 * query positions from that first one to EARLY_END, and beyond LATE_START, keep it.
 */
function keptDistance(stored, delta, last) {
  let firstLost = null;
  let lastKept = null;
  const early = { kept: 0, of: 0 };
  const late = { kept: 0, of: 0 };
  for (let m = delta; m <= last; m++) {
    const kept = stored[m] - stored[m - delta] === delta;
    if (kept) lastKept = m;
    else firstLost ??= m;
    const counted = m > LATE_START ? late : firstLost !== null && m <= EARLY_END ? early : null;
    if (counted) {
      counted.of++;
      if (kept) counted.kept++;
    }
  }
  return { firstLost, lastKept, early, late };
}

/** kept / of as a percentage in running text: "0" and "100" only when exact. */
function percentText({ kept, of }) {
  if (kept === 0 || kept === of) return kept === 0 ? '0' : '100';
  const share = (100 * kept) / of;
  let digits = 2;
  while (['0', '100'].includes(formatSig(share, digits))) digits++;
  return formatSigText(share, digits);
}

/** Random q or k values on a grid of 1/64 in (−2, 2): float32, float16 and bfloat16 all hold them. */
function gridValues(seed) {
  return randomMatrix(seed, DRAWS, D).map((v) => Math.max(-127, Math.min(127, Math.round(v * 64))) / 64);
}

export function mount({ posenc, state }) {
  const root = byId('half-precision-demo');
  const frequencies = posenc.ropeFrequencies({ rotaryDim: D, base: BASE });
  const positions = logSpacedPositions(SAMPLES, MAX_POSITION);
  const xs = Float64Array.from(positions);

  // Every position 0 … MAX_POSITION + MAX_DELTA as posenc stores it in each 16-bit dtype.
  const held = Object.fromEntries(
    ['float16', 'bfloat16'].map((dtype) => [
      dtype,
      posenc.positionNumbers({ seqLen: MAX_POSITION + MAX_DELTA + 1, dModel: 1, dtype }),
    ]),
  );
  const heldBfloat16 = readHalf(held.bfloat16, 'bfloat16'); // exact: bfloat16 values are float32s
  let keptMemo = { delta: -1, kept: null }; // keptDistance of the Δ drawn last
  // The Try-this prompt's query position for Δ = 17, from the same rounded positions: one past
  // the last query whose rounded key is still 17 behind it.
  const PROMPT_DELTA = 17;
  byId('hp-try-never').textContent = String(
    keptDistance(heldBfloat16, PROMPT_DELTA, MAX_POSITION + PROMPT_DELTA).lastKept + 1,
  );
  /** Position p as stored in `dtype` (a number; Infinity beyond float16's range). */
  const storedPosition = (p, dtype) => halfAt(held[dtype], p, dtype);
  /** The first integer position that `dtype` does not hold: up to it, positions are exact. */
  const firstInexact = (dtype) => {
    if (dtype === 'float32') return 2 ** 24 + 1; // beyond the positions shown (float32 holds all to 2^24)
    let p = 0;
    while (storedPosition(p, dtype) === p) p++;
    return p;
  };

  // ---- the table ------------------------------------------------------------------------------
  const tablePlot = createLinePlot({
    name: 'half-table-error',
    title: `Largest error of a stored sinusoidal table over its ${D} channels, at each position`,
    xLabel: 'position',
    yLabel: 'absolute error',
    xScale: 'log',
    yScale: 'log',
    aspect: 1.8,
    summary: () => tableSummary,
  });
  let tableSummary = '';
  const exact = exactTable(positions, frequencies);
  const tableSeries = DTYPES.map((dtype) => {
    const stored = readHalf(
      posenc.sinusoidal({ seqLen: positions.length, dModel: D, base: BASE, positions, dtype }),
      dtype,
    );
    return {
      label: `stored as ${dtype}`,
      x: xs,
      y: rowMaxDifference(stored, exact, positions.length, D),
      color: COLORS[dtype],
    };
  });
  // Angles from positions held in 16 bits (float16 holds none above 65504: no point there).
  const angleSeries = ['bfloat16', 'float16'].map((dtype) => {
    const rounded = Float64Array.from(positions, (p) => storedPosition(p, dtype));
    const finite = Int32Array.from(rounded.filter(Number.isFinite));
    const table = posenc.sinusoidal({ seqLen: finite.length, dModel: D, base: BASE, positions: finite });
    const errors = rowMaxDifference(table, exact, finite.length, D);
    const y = Float64Array.from(positions, (_, i) => (i < finite.length ? errors[i] : Number.NaN));
    return {
      label: `float32 table, positions stored as ${dtype}`,
      x: xs,
      y,
      color: COLORS[`${dtype}Position`],
      points: true,
    };
  });
  const tableWorst = Object.fromEntries(DTYPES.map((dtype, i) => [dtype, Math.max(...tableSeries[i].y)]));
  tableSummary =
    `Log-log plot. A table computed in float64 and stored once: the largest error is ${DTYPES.map((d) => `${formatSig(tableWorst[d], 2)} in ${d}`).join(', ')}, ` +
    'the same at position 1 as at position one million. Computed from positions stored in 16 bits instead, the error grows with the position until it is as large as the values.';
  tablePlot.draw({ series: [...tableSeries, ...angleSeries], xDomain: [1, MAX_POSITION], yDomain: [1e-9, 2] });

  // ---- RoPE scores ----------------------------------------------------------------------------
  const scorePlot = createLinePlot({
    name: 'half-score-error',
    title: 'Error of the RoPE score q·k (query at m, key at m − Δ), stored q and k',
    xLabel: 'query position m',
    yLabel: 'absolute error',
    xScale: 'log',
    yScale: 'log',
    aspect: 1.8,
    summary: () => scoreSummary,
  });
  let scoreSummary = '';
  const note = h('p', { class: 'result', id: 'half-precision-note' });
  const table = h('table', { class: 'numbers stacks', id: 'half-precision-table' });
  const reroll = rerollButton(state, 'hp.seed', {
    id: 'half-precision-reroll',
    label: 'New random q and k',
    ariaLabel: 'New random q and k for the half-precision scores',
  });
  root.append(
    tablePlot.element,
    controlRow(numberControl(state, 'hp.delta', { label: 'distance Δ' }), reroll),
    scorePlot.element,
    note,
    h('div', { class: 'table-scroll' }, table),
  );

  /** q and k rotated in `dtype` at queries m and keys m − delta, read back as numbers [rows, DRAWS, D]. */
  function rotated(values, at, dtype) {
    const rows = at.length;
    const options = { seqLen: rows, numHeads: DRAWS, headDim: D, base: BASE, positions: at };
    if (dtype === 'float32') return posenc.rope(tile(values, rows), options);
    const bits = tile(exactBits(values, dtype), rows, Uint16Array);
    return readHalf(posenc.rope(bits, { ...options, dtype }), dtype);
  }

  function draw() {
    const delta = state.get('hp.delta');
    const seed = state.get('hp.seed');
    const q = gridValues(seed);
    const k = gridValues(seed + 7919);
    const exactScore = exactScores(q, k, frequencies, delta);
    const queryAt = Int32Array.from(positions, (p) => p + delta);
    const keyAt = positions;
    const mx = Float64Array.from(queryAt);
    const series = DTYPES.map((dtype) => ({
      label: `q, k stored as ${dtype}`,
      x: mx,
      y: scoreErrors(rotated(q, queryAt, dtype), rotated(k, keyAt, dtype), positions.length, exactScore),
      color: COLORS[dtype],
    }));
    // Positions stored in bfloat16 (rotation and storage in float32).
    const bfQueryAt = Int32Array.from(queryAt, (p) => storedPosition(p, 'bfloat16'));
    const bfKeyAt = Int32Array.from(keyAt, (p) => storedPosition(p, 'bfloat16'));
    series.push({
      label: 'float32, positions stored as bfloat16',
      x: mx,
      y: scoreErrors(rotated(q, bfQueryAt, 'float32'), rotated(k, bfKeyAt, 'float32'), positions.length, exactScore),
      color: COLORS.bfloat16Position,
      dash: '7 5',
    });

    const near = (s, from, to) => Math.max(...s.y.filter((_, i) => queryAt[i] >= from && queryAt[i] < to));
    // Storage errors by the key's position (every Δ has keys below 1000; queries may not).
    const nearKey = (s, from, to) => Math.max(...s.y.filter((_, i) => keyAt[i] >= from && keyAt[i] < to));
    const rows = DTYPES.map((dtype, i) => ({
      dtype,
      early: nearKey(series[i], 0, 1000),
      late: nearKey(series[i], LATE_START, Number.POSITIVE_INFINITY),
    }));
    // RoPE's score sees only the rounded positions' difference: where is it still Δ, over every
    // integer query position (the samples drawn would miss most of the changes)?
    // A million positions scanned: once per Δ, not again for a new q and k.
    if (keptMemo.delta !== delta) keptMemo = { delta, kept: keptDistance(heldBfloat16, delta, MAX_POSITION + delta) };
    const { kept } = keptMemo;
    const angle = {
      // The largest error at the sampled query positions below the first lost one: float32's level.
      kept: near(series[3], 0, kept.firstLost ?? Number.POSITIVE_INFINITY),
      // The largest error at the sampled query positions whose rounded positions are not Δ apart.
      lost: Math.max(...series[3].y.filter((_, i) => bfQueryAt[i] - bfKeyAt[i] !== delta)),
    };
    note.dataset.errors = JSON.stringify({ rows, angle, table: tableWorst });
    note.dataset.kept = JSON.stringify(kept);
    const scale = Math.max(...exactScore.map(Math.abs));
    const level = Number.isFinite(angle.kept) ? ` (${formatSigText(angle.kept, 2)})` : '';
    note.textContent =
      `The exact scores at distance ${delta} are at most ${formatSigText(scale, 3)} in size. Stored in 16 bits, q and k lose about three (float16) or two (bfloat16) significant digits, ` +
      `and the score with them: its error is ${rows.map((r) => `${formatSigText(r.early, 2)} → ${formatSigText(r.late, 2)} in ${r.dtype}`).join(', ')} ` +
      `(largest with the key below position 1000 → beyond 100 000): no growth, because posenc computes every angle in float64. ` +
      'With the positions themselves in bfloat16, the score sees only the difference of the two rounded positions. ' +
      (kept.firstLost === null
        ? `At distance ${delta} they round alike at every position, wrong as they are beyond 256, so the error stays at float32’s level${level} everywhere.`
        : 'bfloat16 holds every integer only up to 256: ' +
          (kept.firstLost > delta
            ? `the rounded positions are ${delta} apart, and the error is float32’s${level}, up to query position ${kept.firstLost - 1}. `
            : `already at query position ${delta} (key 0) they are not ${delta} apart. `) +
          (kept.lastKept < kept.firstLost
            ? `From ${kept.firstLost} on they are never ${delta} apart (up to query position ${MAX_POSITION + delta})`
            : `From ${kept.firstLost} on they are ${delta} apart at ${kept.early.of > 0 ? `${percentText(kept.early)} % of the query positions up to ${EARLY_END} and at ` : ''}` +
              `${percentText(kept.late)} % of those beyond 100 000, the last at query position ${kept.lastKept}`) +
          '. Where they are not, the angles are wrong, not the storage' +
          (Number.isFinite(angle.lost)
            ? `: the error there reaches ${formatSigText(angle.lost, 2)} on the plot.`
            : '.'));
    scoreSummary = `Log-log plot of the score error against the query position. ${note.textContent}`;
    scorePlot.draw({ series, xDomain: [delta + 1, MAX_POSITION + delta], yDomain: [1e-9, 100] });

    table.replaceChildren(
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          [
            'storage',
            'bits (sign + exponent + fraction)',
            'next after 1',
            'largest finite',
            'every integer position up to',
            'largest table error',
            'score error beyond 100 000',
          ].map((t) => h('th', { scope: 'col' }, t)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map(({ dtype, late }) => {
          const format = FORMATS[dtype];
          const cells = [
            format.bits,
            formatSig(valueOfBits(format.afterOne, dtype), 8),
            formatSig(valueOfBits(format.largest, dtype), 5),
            String(firstInexact(dtype) - 1),
            formatSig(tableWorst[dtype], 2),
            formatSig(late, 2),
          ];
          return h('tr', { dataset: { dtype } }, h('th', { scope: 'row' }, dtype), ...cells.map((t) => h('td', {}, t)));
        }),
      ),
    );
    labelCellsByHeader(table);
  }

  const request = coalesceToAnimationFrame(draw);
  state.watch(['hp.'], request);
  request();
}
