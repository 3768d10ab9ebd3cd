// Why RoPE's base matters: the score of a query with a key of the same content, against their
// distance, for several bases, averaged over random contents. Every pair's term is
// |q_i|² cos(Δ·ω_i); a larger base slows every pair, so the sum stays high over longer distances.
// Computed by posenc.attentionScores (encoding 'rope'): one query at the last position against
// keys at every position, one "head" per random draw.
import { choiceControl, controlRow, numberControl, rerollButton } from '../controls.js';
import { byId, h } from '../dom.js';
import { formatSig, formatTicks } from '../format.js';
import { createLinePlot } from '../plots/lineplot.js';
import { coalesceToFrame } from '../schedule.js';
import { randomMatrix } from '../tokens.js';
import { range, tile } from '../vectors.js';

export const id = 'rope-base';

const BASES = [1e4, 5e5, 1e6];
const COLORS = ['#0072B2', '#D55E00', '#009E73'];
const DRAWS = 4; // random contents averaged over

export const settings = {
  'base.span': { type: 'int', default: 4096, min: 256, max: 8192 },
  'base.hd': { type: 'enum', default: '128', values: ['64', '128'] },
  'base.seed': { type: 'int', default: 1, min: 1, max: 999999 },
};

/** The first distance where the curve falls below half its value at distance 0 (null: never). */
function halfDistance(curve) {
  const half = curve[0] / 2;
  const at = curve.findIndex((v) => v < half);
  return at < 0 ? null : at;
}

export function mount({ posenc, state }) {
  const root = byId('rope-base-demo');
  let summary = '';
  const plot = createLinePlot({
    name: 'rope-base-decay',
    title: 'Mean score of q with a key of the same content, against the distance',
    xLabel: 'distance m − n',
    yLabel: 'score ÷ |q|²',
    summary: () => summary,
  });
  const note = h('p', { class: 'result', id: 'rope-base-note' });
  const reroll = rerollButton(state, 'base.seed', {
    id: 'rope-base-reroll',
    label: 'New random contents',
    ariaLabel: 'New random contents for the base comparison',
  });
  root.append(
    controlRow(
      numberControl(state, 'base.span', { label: 'distances up to' }),
      choiceControl(state, 'base.hd', {
        label: 'head dim',
        options: [
          { value: '64', label: '64' },
          { value: '128', label: '128' },
        ],
      }),
      reroll,
    ),
    plot.element,
    note,
  );

  /** DRAWS random q and, per draw, `span` keys of the same content: q [DRAWS, headDim], keys [DRAWS, span, headDim]. */
  function contents(span, headDim, seed) {
    const q = randomMatrix(seed, DRAWS, headDim);
    const keys = new Float32Array(DRAWS * span * headDim);
    for (let d = 0; d < DRAWS; d++)
      keys.set(tile(q.subarray(d * headDim, (d + 1) * headDim), span), d * span * headDim);
    return { q, keys };
  }

  /**
   * The mean over the draws of q · k / |q|², k = q, at distances 0 … span − 1, at one base. `keys`
   * lives in WASM memory (a WasmArray), copied in once for every base.
   */
  function curveFor(base, { q, keys }, span, headDim) {
    // One query per draw at the last position, keys at 0 … span − 1: key j is span − 1 − j away.
    const scores = posenc.attentionScores(q, keys, {
      numHeads: DRAWS,
      queryLen: 1,
      keyLen: span,
      headDim,
      encoding: 'rope',
      base,
      scale: 1,
      offset: span - 1,
    });
    const norms = Array.from({ length: DRAWS }, (_, d) =>
      q.subarray(d * headDim, (d + 1) * headDim).reduce((sum, v) => sum + v * v, 0),
    );
    return Float64Array.from({ length: span }, (_, distance) => {
      let sum = 0;
      for (let d = 0; d < DRAWS; d++) sum += scores[d * span + (span - 1 - distance)] / norms[d];
      return sum / DRAWS;
    });
  }

  function draw() {
    const span = state.get('base.span');
    const headDim = Number(state.get('base.hd'));
    const seed = state.get('base.seed');
    const distances = range(span);
    const { q, keys } = contents(span, headDim, seed);
    const keysInWasm = posenc.allocate(keys);
    let curves;
    try {
      curves = BASES.map((base) => curveFor(base, { q, keys: keysInWasm }, span, headDim));
    } finally {
      keysInWasm.free();
    }
    const labels = formatTicks(BASES).map((b) => `base ${b}`);
    const halves = curves.map(halfDistance);
    note.dataset.halves = JSON.stringify(halves);
    const described = halves.map((at, i) =>
      at === null ? `${labels[i]}: not within ${span}` : `${labels[i]}: at distance ${at}`,
    );
    note.textContent =
      `Where the mean score first falls below half its value at distance 0 — ${described.join('; ')}. ` +
      'A larger base turns every pair more slowly, so a query keeps a high score with keys farther away; the fastest pair still turns one radian per position at any base, so neighbours stay distinguishable.';
    summary =
      `Mean over ${DRAWS} random contents of the RoPE score of q with a key of the same content, divided by |q|², ` +
      `for distances 0 to ${span - 1}, head dim ${headDim}, at bases ${BASES.map((b) => formatSig(b, 2)).join(', ')}. ${note.textContent}`;
    plot.draw({
      series: curves.map((y, i) => ({ label: labels[i], x: distances, y, color: COLORS[i] })),
    });
  }

  const request = coalesceToFrame(draw);
  state.watch(['base.'], request);
  request();
}
