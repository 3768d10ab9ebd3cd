// On the GPU: what a shader that computes RoPE's angles itself makes of them, against posenc's.
// f32(position) · inv_freq loses the angle more as the position grows, and WGSL's sin/cos have
// implementation-defined accuracy. Where the page has WebGPU, a button measures the WGSL line
// on the reader's own adapter (web/src/gpu-angles.js; asked for, not on load: a browser without
// an adapter warns in the console when one is requested); until then, and where there is no
// WebGPU, the line is the measurement made on Chromium's software adapter (SwiftShader), drawn as
// points and labelled so. posenc's line is its cos/sin cache, the numbers posenc/webgpu uploads.
import { controlRow, numberControl } from '../../../widgets/controls.js';
import { byId, h } from '../../../widgets/dom.js';
import { formatSigText } from '../../../widgets/format.js';
import { wgslAngleErrors } from '../gpu-angles.js';
import { createLinePlot } from '../../../widgets/plots/lineplot.js';
import { coalesceToAnimationFrame } from '../../../widgets/schedule.js';
import { logSpacedPositions } from '../../../widgets/vectors.js';

export const id = 'gpu-precision';

export const settings = {
  'gp.dim': { type: 'int', default: 128, min: 8, max: 256, even: true },
};

const BASE = 10000;
const SAMPLES = 120;
const MAX_POSITION = 1_000_000;
/**
 * WGSL's cos/sin of f32(p) · f32(inv_freq), head dimension 128, base 10000, measured in headless
 * Chromium 156 on its software adapter (tests/web/webgpu-fused.test.js prints the same numbers).
 */
const MEASURED = {
  dim: 128,
  where: 'Chromium 156’s software adapter (SwiftShader)',
  positions: [5, 100, 1000, 10_000, 100_000, 1_000_000],
  errors: [1.89e-4, 1.89e-4, 1.9e-4, 7.1e-4, 4.5e-3, 5.11e-2],
};
const COLORS = { posenc: '#0072B2', product: '#E69F00', wgsl: '#D55E00' };

/** The largest |cos − cos_exact|, |sin − sin_exact| over the pairs of each row of a cache. */
function cacheErrors(cos, sin, positions, invFreq) {
  const pairs = invFreq.length;
  return Float64Array.from(positions, (p, row) => {
    let worst = 0;
    for (let i = 0; i < pairs; i++) {
      const angle = p * invFreq[i];
      worst = Math.max(
        worst,
        Math.abs(cos[row * pairs + i] - Math.cos(angle)),
        Math.abs(sin[row * pairs + i] - Math.sin(angle)),
      );
    }
    return worst;
  });
}

/** The same for angles rounded as a float32 shader rounds them, with exact sin and cos: the product's share. */
function productErrors(positions, invFreq) {
  return Float64Array.from(positions, (p) => {
    let worst = 0;
    for (const w of invFreq) {
      const angle = Math.fround(Math.fround(p) * Math.fround(w));
      worst = Math.max(worst, Math.abs(Math.cos(angle) - Math.cos(p * w)), Math.abs(Math.sin(angle) - Math.sin(p * w)));
    }
    return worst;
  });
}

/** A device of the page's WebGPU adapter, or the reason there is none. */
async function requestDevice() {
  if (!globalThis.navigator?.gpu) return { reason: 'this browser has no WebGPU' };
  try {
    const adapter = await navigator.gpu.requestAdapter();
    if (!adapter) return { reason: 'this browser offers no WebGPU adapter' };
    return {
      device: await adapter.requestDevice(),
      adapter: adapter.info?.architecture || adapter.info?.vendor || 'unnamed',
    };
  } catch (error) {
    return { reason: `WebGPU failed here (${error.message})` };
  }
}

export function mount({ posenc, state }) {
  const root = byId('gpu-precision-demo');
  const plot = createLinePlot({
    name: 'gpu-angle-error',
    title: 'Largest error of cos and sin over the pairs of a head, at each position',
    xLabel: 'position',
    yLabel: 'absolute error',
    xScale: 'log',
    yScale: 'log',
    aspect: 1.8,
    summary: () => summary,
  });
  const note = h('p', { class: 'result', id: 'gpu-precision-note' });
  const hasWebGpu = Boolean(globalThis.navigator?.gpu);
  const button = h(
    'button',
    { type: 'button', id: 'ctl-gp-measure', disabled: !hasWebGpu },
    'Measure on this device’s GPU',
  );
  root.append(controlRow(numberControl(state, 'gp.dim', { label: 'head dimension' }), button), plot.element, note);
  const positions = logSpacedPositions(SAMPLES, MAX_POSITION);
  const xs = Float64Array.from(positions);
  let summary = '';
  let live; // { dim, errors, adapter } once measured on this page's adapter
  let unavailable = hasWebGpu ? 'press “Measure on this device’s GPU”' : 'this browser has no WebGPU';
  let measuring = false;
  let gpu; // the device, requested on the first press

  function draw() {
    const dim = state.get('gp.dim');
    const invFreq = posenc.ropeFrequencies({ rotaryDim: dim, base: BASE });
    const cache = posenc.ropeCache({ seqLen: positions.length, rotaryDim: dim, base: BASE, positions });
    const ours = cacheErrors(cache.cos, cache.sin, positions, invFreq);
    const series = [
      { label: 'posenc: float64 angles, rounded once', x: xs, y: ours, color: COLORS.posenc },
      {
        label: 'f32(position) · f32(inv_freq), exact sin/cos',
        x: xs,
        y: productErrors(positions, invFreq),
        color: COLORS.product,
        dash: '7 5',
      },
    ];
    let wgslText;
    if (live?.dim === dim) {
      series.push({
        label: `WGSL sin/cos on this page’s adapter (${live.adapter})`,
        x: xs,
        y: live.errors,
        color: COLORS.wgsl,
      });
      wgslText = `measured on this page’s WebGPU adapter (${live.adapter}): ${formatSigText(live.errors[0], 2)} near position 1 and ${formatSigText(live.errors.at(-1), 2)} at one million`;
    } else if (dim === MEASURED.dim) {
      series.push({
        label: `WGSL sin/cos, measured on ${MEASURED.where}`,
        x: Float64Array.from(MEASURED.positions),
        y: Float64Array.from(MEASURED.errors),
        color: COLORS.wgsl,
        points: true,
      });
      wgslText = `not measured here (${measuring ? 'measuring' : unavailable}); measured on ${MEASURED.where}: ${formatSigText(MEASURED.errors[0], 2)} at position 5 and ${formatSigText(MEASURED.errors.at(-1), 2)} at one million`;
    } else {
      wgslText = `not measured here (${measuring ? 'measuring' : unavailable}), and the static measurement is of head dimension ${MEASURED.dim}`;
    }
    note.dataset.live = live?.dim === dim ? 'true' : 'false';
    note.dataset.errors = JSON.stringify({
      posenc: Math.max(...ours),
      product: series[1].y.at(-1),
      wgsl: live?.dim === dim ? live.errors.at(-1) : null,
    });
    note.textContent =
      `posenc’s cos and sin are within ${formatSigText(Math.max(...ours), 2)} of float64 at every position up to one million. ` +
      `A shader that multiplies the position by the frequency in float32 has lost up to ${formatSigText(series[1].y.at(-1), 2)} there before it calls sin at all. ` +
      `WGSL’s own sin and cos: ${wgslText}.`;
    summary = `Log-log plot. ${note.textContent}`;
    plot.draw({ series, xDomain: [1, MAX_POSITION], yDomain: [1e-9, 2] });
  }

  /** Measures WGSL's sin/cos on the page's adapter for the current head dimension, then redraws. */
  async function measure() {
    if (measuring) return;
    measuring = true;
    try {
      gpu ??= requestDevice();
      const { device, adapter, reason } = await gpu;
      if (!device) {
        unavailable = reason;
        return;
      }
      const dim = state.get('gp.dim');
      const invFreq = posenc.ropeFrequencies({ rotaryDim: dim, base: BASE });
      live = { dim, adapter, errors: await wgslAngleErrors(device, invFreq, positions) };
    } finally {
      measuring = false;
      request();
    }
  }

  const request = coalesceToAnimationFrame(() => {
    draw();
    if (live && live.dim !== state.get('gp.dim')) measure().catch(() => {}); // a new head dimension: measure it
  });
  state.watch(['gp.'], request);
  request();
  button.addEventListener('click', () =>
    measure().catch((error) => {
      unavailable = `WebGPU failed here (${error.message})`;
      request();
    }),
  );
}
