// In the tutorial page: finds the RoPE similarity heatmap and a slider that redraws it, then
// times "input event -> the next frame painted after every scheduled redraw ran".
//
// How the slider is found (first match wins):
//   1. an element with data-bench="rope-heatmap-slider";
//   2. #ctl-rope-hd-range, the head-dim slider next to the rope-similarity heatmap
//      (web/src/sections/rope.js; controls.js names sliders ctl-<setting>-range): it redraws
//      the heatmap at the same size, 1001 positions by default (the runner also pins
//      #rope.seq=1001 in the URL);
//   3. the first <input type=range> in the section of a heatmap figure
//      (figure.heatmap[data-plot], web/src/plots/heatmap.js) whose data-plot or title names
//      RoPE / rotary; among several, the one whose canvas has the most cells.
// The slider moves between its current value and the next step, as when it is dragged. Each
// input event is sent 0, 4, 8 or 12 ms after a frame, so the wait for the next frame (up to
// 16.7 ms at 60 Hz) is sampled as a user meets it, not always at its longest.
// The page counts redraws it scheduled but has not run yet on <html data-pending-frames>
// (web/src/schedule.js); the probe waits for that count to return to 0.

const nextPaint = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
const pendingFrames = () => Number(document.documentElement.dataset.pendingFrames ?? 0);

async function settle(limit = 600) {
  await nextPaint();
  for (let i = 0; pendingFrames() > 0; i++) {
    if (i >= limit) throw new Error('the page kept scheduling redraws');
    await nextPaint();
  }
}

function canvasCells(figure) {
  const canvas = figure.querySelector('canvas');
  return canvas ? canvas.width * canvas.height : 0;
}

function describe(figure, slider, how) {
  const canvas = figure?.querySelector('canvas');
  return {
    how,
    slider: slider.id || slider.getAttribute('aria-label') || '(unnamed range input)',
    plot: figure?.dataset.plot ?? null,
    canvas: canvas ? `${canvas.width}×${canvas.height}` : null,
  };
}

export function findRopeHeatmapSlider() {
  const hooked = document.querySelector('[data-bench="rope-heatmap-slider"]');
  if (hooked) {
    const figure = hooked.closest('section')?.querySelector('figure.heatmap') ?? null;
    return { slider: hooked, figure, how: 'data-bench hook' };
  }
  const headDim = document.getElementById('ctl-rope-hd-range');
  if (headDim) {
    return {
      slider: headDim,
      figure: document.querySelector('figure.heatmap[data-plot="rope-similarity"]'),
      how: 'head-dim slider of the rope-similarity heatmap',
    };
  }
  const named = (figure) =>
    /rope|rotary/i.test(`${figure.dataset.plot ?? ''} ${figure.querySelector('.plot-title')?.textContent ?? ''}`);
  const figures = [...document.querySelectorAll('figure.heatmap')]
    .filter(named)
    .sort((a, b) => canvasCells(b) - canvasCells(a));
  for (const figure of figures) {
    const slider = (figure.closest('section') ?? figure.parentElement)?.querySelector('input[type=range]');
    if (slider) return { slider, figure, how: 'heatmap named RoPE + first slider of its section' };
  }
  return null;
}

/** The slider's current value and its next step (the previous one at the top of its range). */
function alternatingValues(slider) {
  const original = slider.value;
  slider.stepUp();
  if (slider.value === original) slider.stepDown();
  const neighbour = slider.value;
  slider.value = original;
  return [neighbour, original];
}

export async function measureSliderRedraw({ reps = 16, warmups = 2 } = {}) {
  const found = findRopeHeatmapSlider();
  if (!found) return { status: 'n/a (no RoPE heatmap with a slider found on the page)' };
  const { slider, figure, how } = found;
  const values = alternatingValues(slider);
  if (values[0] === values[1])
    return { status: 'n/a (the slider has a single value)', ...describe(figure, slider, how) };
  figure?.scrollIntoView({ block: 'center' }); // in case the page draws only what is visible
  await settle();
  const samples = [];
  for (let i = 0; i < warmups + reps; i++) {
    await new Promise((resolve) => setTimeout(resolve, 4 * (i % 4)));
    const started = performance.now();
    slider.value = values[i % 2];
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    await settle();
    if (i >= warmups) samples.push(performance.now() - started);
    await nextPaint();
  }
  return { status: 'measured', timesMs: samples, ...describe(figure, slider, how) };
}
