// In the tutorial page: times one redraw case (bench/page-redraw-cases.js). A slider is moved
// between its current value and the next step, as when it is dragged; each input event is sent
// 0, 4, 8 or 12 ms after a frame, so the wait for the next frame (up to 16.7 ms at 60 Hz) is
// sampled as a user meets it. Two times per change:
//   - first: input event -> the next animation frame painted after the case's heatmap was drawn again
//     (its canvas's data-drawn count moved; widgets/plots/heatmap.js), a coarse picture when the
//     page renders progressively;
//   - full: input event -> the next animation frame painted once the page has no redraw pending
//     (<html data-pending-redraws> back to 0, widgets/schedule.js): the full-resolution picture.
// Without a heatmap named by the case, both are the full time.

const nextPaint = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
const pendingRedraws = () => Number(document.documentElement.dataset.pendingRedraws ?? 0);

async function settle(limit = 2000) {
  await nextPaint();
  for (let i = 0; pendingRedraws() > 0; i++) {
    if (i >= limit) throw new Error('the page kept scheduling redraws');
    await nextPaint();
  }
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

export async function measureRedraw({ slider: sliderId, figure: plot }, { reps = 12, warmups = 2 } = {}) {
  const slider = document.getElementById(sliderId);
  if (!slider) return { status: `n/a (no slider #${sliderId})` };
  // The figure, on the page or in a posenc element's shadow root.
  const selector = `figure.heatmap[data-plot="${plot}"]`;
  const figure = plot
    ? (document.querySelector(selector) ??
      [...document.querySelectorAll('*')].map((node) => node.shadowRoot?.querySelector(selector)).find(Boolean))
    : null;
  if (plot && !figure) return { status: `n/a (no heatmap ${plot})` };
  const canvas = figure?.querySelector('canvas') ?? null;
  const values = alternatingValues(slider);
  if (values[0] === values[1]) return { status: 'n/a (the slider has a single value)' };
  (figure ?? slider).scrollIntoView({ block: 'center' });
  await settle();
  const first = [];
  const full = [];
  for (let i = 0; i < warmups + reps; i++) {
    await new Promise((resolve) => setTimeout(resolve, 4 * (i % 4)));
    const drawn = canvas?.dataset.drawn;
    const started = performance.now();
    slider.value = values[i % 2];
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    let firstMs = null;
    await nextPaint();
    for (let n = 0; pendingRedraws() > 0; n++) {
      if (n >= 2000) throw new Error('the page kept scheduling redraws');
      if (firstMs === null && canvas && canvas.dataset.drawn !== drawn) firstMs = performance.now() - started;
      await nextPaint();
    }
    const fullMs = performance.now() - started;
    if (i >= warmups) {
      first.push(firstMs ?? fullMs);
      full.push(fullMs);
    }
    await nextPaint();
  }
  return {
    status: 'measured',
    firstMs: first,
    fullMs: full,
    canvas: canvas ? `${canvas.width}×${canvas.height}` : null,
    resolution: canvas?.dataset.resolution ?? null,
  };
}
