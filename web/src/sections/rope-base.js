// Why RoPE's base matters: the score of a query with a key of the same content, against their
// distance, for several bases. Rotated Δ apart, q · R(Δ) q = Σ_i |q_i|² cos(Δ·ω_i) (pair i's
// sines cancel), so every curve is RoPE's cos table (posenc.ropeCache) times the content's pair
// norms |q_i|² (posenc.similarity). Over random isotropic contents every pair has the same
// expected norm, so the expected score is proportional to Σ_i cos(Δ·ω_i), the score of all-ones
// q and k: the main curve per base, whose half-score distance does not move with the draw. Random
// contents are light curves around it. (For independent random q and k the expectation is 0:
// hence the key of the same content.)
import { choiceControl, controlRow, numberControl, rerollButton } from '../../../widgets/controls.js';
import { byId, h } from '../../../widgets/dom.js';
import { formatSig, formatTicks } from '../../../widgets/format.js';
import { createLinePlot } from '../../../widgets/plots/lineplot.js';
import { coalesceToFrame } from '../../../widgets/schedule.js';
import { randomMatrix } from '../../../widgets/tokens.js';
import { range } from '../../../widgets/vectors.js';

export const id = 'rope-base';

const BASES = [1e4, 5e5, 1e6];
const COLORS = ['#0072B2', '#D55E00', '#009E73'];
const DRAWS = 6; // random contents drawn around the expectation

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
    title: `Score of q with a key of the same content against the distance: expected (bold), ${DRAWS} random contents (light)`,
    xLabel: 'distance m − n',
    yLabel: 'score ÷ |q|²',
    summary: () => summary,
    thinning: 'unit', // 27 curves of up to 8192 points, redrawn as the span slider moves
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

  // RoPE's cos table per head dim and base, at every distance the span setting allows: a span or
  // content change then costs one similarity call per base.
  const maxSpan = settings['base.span'].max;
  const cosTables = new Map();
  function cosTable(headDim, base) {
    const key = `${headDim}|${base}`;
    if (!cosTables.has(key)) cosTables.set(key, posenc.ropeCache({ seqLen: maxSpan, rotaryDim: headDim, base }).cos);
    return cosTables.get(key);
  }

  /**
   * The pair norms |q_i|² of each content [heads, headDim / 2]: all-ones q first (every norm 2:
   * the expectation's), then DRAWS random contents.
   */
  function pairNorms(headDim, seed) {
    const half = headDim / 2;
    const q = randomMatrix(seed, DRAWS, headDim);
    const norms = new Float32Array((DRAWS + 1) * half).fill(2);
    for (let i = 0; i < DRAWS * half; i++) norms[half + i] = q[2 * i] ** 2 + q[2 * i + 1] ** 2;
    return norms;
  }

  /** Per content, q · R(Δ) q / |q|² at distances 0 … span − 1, at one base (content 0: the expectation). */
  function curvesFor(base, norms, span, headDim) {
    const half = headDim / 2;
    const heads = norms.length / half;
    const scores = posenc.similarity(cosTable(headDim, base).subarray(0, span * half), norms, {
      rows: span,
      cols: heads,
      dim: half,
    });
    return Array.from({ length: heads }, (_, d) => {
      const norm = norms.subarray(d * half, (d + 1) * half).reduce((sum, v) => sum + v, 0);
      return Float64Array.from({ length: span }, (_, distance) => scores[distance * heads + d] / norm);
    });
  }

  function draw() {
    const span = state.get('base.span');
    const headDim = Number(state.get('base.hd'));
    const seed = state.get('base.seed');
    const distances = range(span);
    const norms = pairNorms(headDim, seed);
    const curves = BASES.map((base) => curvesFor(base, norms, span, headDim));
    const labels = formatTicks(BASES).map((b) => `base ${b}`);
    const expected = curves.map(([expectation]) => expectation);
    const halves = expected.map(halfDistance);
    note.dataset.halves = JSON.stringify(halves);
    const described = halves.map((at, i) =>
      at === null ? `${labels[i]}: not within ${span}` : `${labels[i]}: at distance ${at}`,
    );
    note.textContent =
      `Where the expected score first falls below half its value at distance 0 — ${described.join('; ')}. ` +
      `The ${DRAWS} light curves, random contents, scatter around the expectation and move with each draw; the expectation does not. ` +
      'A larger base turns every pair more slowly, so a query keeps a high score with keys farther away; the fastest pair still turns one radian per position at any base, so neighbours stay distinguishable.';
    summary =
      `The RoPE score of q with a key of the same content, divided by |q|², for distances 0 to ${span - 1}, head dim ${headDim}, ` +
      `at bases ${BASES.map((b) => formatSig(b, 2)).join(', ')}: the expectation over random contents (bold) and ${DRAWS} random contents (light). ${note.textContent}`;
    const faint = curves.flatMap((perHead, i) =>
      perHead
        .slice(1)
        .map((y, d) => ({ label: `${labels[i]}, content ${d + 1}`, x: distances, y, color: COLORS[i], faint: true })),
    );
    plot.draw({
      series: [...faint, ...expected.map((y, i) => ({ label: labels[i], x: distances, y, color: COLORS[i] }))],
      // |q · R(Δ) q| ≤ |q|²: fixed axes, so that a re-roll moves the light curves and nothing else.
      yDomain: [-1, 1],
    });
  }

  const request = coalesceToFrame(draw);
  state.watch(['base.'], request);
  request();
}
