// Why RoPE's base matters: the score of a query with a key of the same content, against their
// distance on a log scale, for several bases. Rotated Δ apart, q · R(Δ) q = Σ_i |q_i|² cos(Δ·ω_i)
// (pair i's sines cancel), so every random content's curve is RoPE's cos table (posenc.ropeCache)
// times the content's pair norms |q_i|² (posenc.similarity): the light curves. Over random
// isotropic contents every pair has the same expected norm, so the expected score is the mean of
// cos(Δ·ω_i) over the pairs. Far out, the fast pairs have turned so often that their cosines add
// up to a ripple with no trend; the trend is that mean with the pairs' frequencies, evenly spaced
// in log-frequency between 1/base and 1, spread over the whole range: ∫₀¹ cos(Δ·base^(−x)) dx
// = 1 − (Cin(Δ) − Cin(Δ/base)) / ln base, smooth and falling, the bold curve per base, marked where
// it falls to half (at about e^(−γ)·√base). (For independent random q and k the expectation is 0:
// hence the key of the same content.)
import { choiceControl, controlRow, numberControl, rerollButton } from '../../../widgets/controls.js';
import { byId, h } from '../../../widgets/dom.js';
import { formatSig, formatTicks } from '../../../widgets/format.js';
import { createLinePlot } from '../../../widgets/plots/lineplot.js';
import { cin } from '../cosine-integral.js';
import { coalesceToAnimationFrame } from '../../../widgets/schedule.js';
import { randomMatrix } from '../../../widgets/tokens.js';

export const id = 'rope-base';

const BASES = [1e4, 5e5, 1e6];
const COLORS = ['#0072B2', '#D55E00', '#009E73'];
const DRAWS = 6; // random contents drawn around the expectation

export const settings = {
  'base.span': { type: 'int', default: 4096, min: 256, max: 8192 },
  'base.hd': { type: 'enum', default: '128', values: ['64', '128'] },
  'base.seed': { type: 'int', default: 1, min: 1, max: 999999 },
};

const TREND_POINTS = 400; // the smooth curves, evaluated at log-spaced distances

/**
 * The expected score's trend at distance Δ: the mean of cos(Δ·base^(−x)) over x uniform in
 * [0, 1], i.e. over frequencies spread evenly in log-frequency from 1/base to 1, in closed form.
 */
export function expectedTrend(distance, base) {
  return 1 - (cin(distance) - cin(distance / base)) / Math.log(base);
}

/**
 * Where the trend falls to half its value at distance 0 (it only falls: its slope is
 * (cos Δ − cos(Δ/base)) / (Δ ln base), never above the vanishing (1 − cos(Δ/base)) / (Δ ln base)).
 */
export function halfDistance(base) {
  let [lo, hi] = [0, base];
  for (let step = 0; step < 200 && hi - lo > 1e-9 * hi; step++) {
    const mid = (lo + hi) / 2;
    if (expectedTrend(mid, base) > 0.5) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

export function mount({ posenc, state }) {
  const root = byId('rope-base-demo');
  let summary = '';
  const plot = createLinePlot({
    name: 'rope-base-decay',
    title: `Score of q with a key of the same content against the distance (log scale): expected trend (bold, marked where it halves), ${DRAWS} random contents (light)`,
    xLabel: 'distance m − n',
    yLabel: 'score ÷ |q|²',
    xScale: 'log',
    summary: () => summary,
    thinning: 'unit', // 18 curves of up to 8192 points, redrawn as the span slider moves
  });
  const note = h('p', { class: 'result', id: 'rope-base-note' });
  const reroll = rerollButton(state, 'base.seed', {
    id: 'rope-base-reroll',
    label: 'New random contents',
    ariaLabel: 'New random contents for the base comparison',
  });
  root.append(
    // On a wide screen the controls and the plot stand beside the section's text (styles.css).
    h(
      'div',
      { class: 'beside' },
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
    ),
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

  /** The pair norms |q_i|² of DRAWS random contents, [DRAWS, headDim / 2]. */
  function pairNorms(headDim, seed) {
    const half = headDim / 2;
    const q = randomMatrix(seed, DRAWS, headDim);
    return Float32Array.from({ length: DRAWS * half }, (_, i) => q[2 * i] ** 2 + q[2 * i + 1] ** 2);
  }

  /** Per content, q · R(Δ) q / |q|² at distances 1 … span − 1, at one base. */
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
      return Float64Array.from({ length: span - 1 }, (_, k) => scores[(k + 1) * heads + d] / norm);
    });
  }

  function draw() {
    const span = state.get('base.span');
    const headDim = Number(state.get('base.hd'));
    const seed = state.get('base.seed');
    const last = span - 1;
    const distances = Float64Array.from({ length: last }, (_, k) => k + 1); // a log axis has no 0
    const trendAt = Float64Array.from({ length: TREND_POINTS }, (_, k) => last ** (k / (TREND_POINTS - 1)));
    const norms = pairNorms(headDim, seed);
    const labels = formatTicks(BASES).map((b) => `base ${b}`);
    const halves = BASES.map(halfDistance);
    const shown = halves.map((at) => at <= last);
    note.dataset.halves = JSON.stringify(halves);
    const said = halves.map((at, i) =>
      shown[i] ? `${Math.round(at)} (${labels[i]})` : `beyond ${last}, the last distance shown (${labels[i]})`,
    );
    note.textContent =
      `The expected trend falls to half its value at distance 0 at distance ${said.join(', ')}: ` +
      'about 0.56·√base, so a base 100 times larger keeps half the score 10 times farther. ' +
      `The ${DRAWS} light curves, random contents, ripple around it and move with each draw: far out, the fast pairs’ cosines ` +
      `add up to noise, larger with fewer pairs (head dim ${headDim}: ${headDim / 2} pairs).`;
    summary =
      `The RoPE score of q with a key of the same content, divided by |q|², for distances 1 to ${last} on a log scale, head dim ${headDim}, ` +
      `at bases ${BASES.map((b) => formatSig(b, 2)).join(', ')}: the expected trend over random contents (bold) and ${DRAWS} random contents (light), marked where each trend falls to half (the note below gives the distances).`;
    const faint = BASES.flatMap((base, i) =>
      curvesFor(base, norms, span, headDim).map((y, d) => ({
        label: `${labels[i]}, content ${d + 1}`,
        x: distances,
        y,
        color: COLORS[i],
        faint: true,
      })),
    );
    const trends = BASES.map((base, i) => ({
      label: labels[i],
      x: trendAt,
      y: trendAt.map((d) => expectedTrend(d, base)),
      color: COLORS[i],
      bold: true,
    }));
    plot.draw({
      series: [...faint, ...trends],
      xDomain: [1, last],
      // |q · R(Δ) q| ≤ |q|²: fixed axes, so that a re-roll moves the light curves and nothing else.
      yDomain: [-1, 1],
      marks: [{ y: 0.5, label: 'half the score at distance 0' }],
      markers: halves.flatMap((at, i) =>
        shown[i] ? [{ x: at, y: 0.5, color: COLORS[i], label: String(Math.round(at)) }] : [],
      ),
    });
  }

  const request = coalesceToAnimationFrame(draw);
  state.watch(['base.'], request);
  request();
}
