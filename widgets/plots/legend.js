// The colour bar under a heatmap: the lookup table drawn left to right with its value range.
import { h } from '../dom.js';
import { formatTicks } from '../format.js';
import { colormapLut, LUT_SIZE } from './colormap.js';

export function createLegend(colormap, { label = 'value' } = {}) {
  const bar = h('canvas', { class: 'legend-bar', width: LUT_SIZE, height: 1, 'aria-hidden': 'true' });
  const ticks = h('div', { class: 'legend-ticks', 'aria-hidden': 'true' });
  const caption = h('span', { class: 'legend-label' }, label);
  const element = h(
    'div',
    { class: 'legend', dataset: { colormap } },
    caption,
    h('div', { class: 'legend-scale' }, bar, ticks),
  );
  const paint = (name) => {
    const lut = colormapLut(name);
    const image = new ImageData(LUT_SIZE, 1);
    for (let i = 0; i < LUT_SIZE; i++) {
      image.data.set(lut.subarray(i * 3, i * 3 + 3), i * 4);
      image.data[i * 4 + 3] = 255;
    }
    bar.getContext('2d').putImageData(image, 0, 0);
    element.dataset.colormap = name;
  };
  paint(colormap);
  return {
    element,
    update([lo, hi], { colormap: name, label: text } = {}) {
      if (name && name !== element.dataset.colormap) paint(name);
      if (text) caption.textContent = text;
      const marks = [lo, hi];
      // Mark 0 too when it is inside the scale and not crowding an end label.
      if (lo < 0 && hi > 0 && Math.min(-lo, hi) > 0.15 * (hi - lo)) marks.splice(1, 0, 0);
      const labels = formatTicks(marks);
      ticks.replaceChildren(
        ...marks.map((v, i) =>
          h(
            'span',
            {
              class: 'tick',
              style: { left: `${(hi > lo ? ((v - lo) / (hi - lo)) * 100 : 50).toFixed(3)}%` },
            },
            labels[i],
          ),
        ),
      );
    },
  };
}
