// <posenc-rotation>: one pair of a query's channels rotated by RoPE, from position 0 to m (the
// arrow before and after, the angle, and a dot per position on the way), the vector plot of the
// tutorial's RoPE section.
// Attributes: position, base, d-model, pair, pair-values, layout (the section's settings and ranges).
// posenc-pick's detail: { position, values: [x_a, x_b], angle, text } (focus, left and right arrows).
import { numberControl, numbersControl } from '../controls.js';
import { h } from '../dom.js';
import { formatSig } from '../format.js';
import { ropePairChannels } from '../layouts.js';
import { createVectorPlot } from '../plots/arrows.js';
import { tile } from '../vectors.js';
import { defineElement, PosencElement } from './element.js';
import { RopeHeatmap } from './rope-heatmap.js';
import { numberSetting } from './settings.js';

const MAX_DOTS = 400; // dots along the path: more would only blur into a circle

export class Rotation extends PosencElement {
  static settings = {
    position: numberSetting({ type: 'int', default: 3, min: 0, max: 1000 }, 'position m'),
    base: RopeHeatmap.settings.base,
    'd-model': numberSetting({ type: 'int', default: 8, min: 2, max: 256, even: true }, 'd_model'),
    pair: {
      spec: {
        type: 'int',
        default: 0,
        min: 0,
        max: 127,
        maxFrom: (get) => get('d-model') / 2 - 1,
        maxNote: 'a pair index is below d-model / 2',
      },
      control: (state, key) => numberControl(state, key, { label: 'pair i' }),
    },
    'pair-values': {
      spec: { type: 'numbers', default: [1, 0.5], minLength: 2, maxLength: 2, min: -10, max: 10 },
      control: (state, key) => numbersControl(state, key, { label: 'pair values (x_a, x_b)', size: 10 }),
    },
    layout: RopeHeatmap.settings.layout,
  };

  #plot;
  #readout;
  #rotation = null;
  #cursor = null; // the position the keyboard reads

  build() {
    this.#plot = createVectorPlot({
      name: 'rope-rotation',
      title: 'One channel pair, rotated by RoPE',
      summary: () => this.#summary(),
    });
    const figure = this.#plot.element;
    const area = figure.querySelector('.plot-area');
    area.tabIndex = 0;
    this.#readout = h('output', { class: 'readout', 'aria-live': 'polite' });
    figure.querySelector('figcaption').before(this.#readout);
    area.addEventListener('keydown', (event) => this.#onKey(event));
    area.addEventListener('blur', () => this.#moveCursor(null));
    this.markParts(figure);
    this.body.append(figure);
    return figure;
  }

  draw(posenc, { position, base, 'd-model': headDim, pair, 'pair-values': [xa, xb], layout }) {
    const [a, b] = ropePairChannels(pair, headDim, layout);
    const x = new Float32Array(headDim);
    x[a] = xa;
    x[b] = xb;
    // Positions 0..m in one call: row p is x rotated to position p (the last row is the answer).
    const rows = posenc.rope(tile(x, position + 1), { seqLen: position + 1, headDim, base, layout });
    const path = new Float32Array(2 * (position + 1));
    for (let p = 0; p <= position; p++) {
      path[2 * p] = rows[p * headDim + a];
      path[2 * p + 1] = rows[p * headDim + b];
    }
    const frequency = posenc.ropeFrequencies({ rotaryDim: headDim, base })[pair];
    const rotated = [path[2 * position], path[2 * position + 1]];
    this.#rotation = { position, pair, channels: [a, b], original: [xa, xb], rotated, frequency, path };
    if (this.#cursor !== null && this.#cursor > position) this.#cursor = position;

    const theta = position * frequency;
    const start = Math.atan2(xb, xa);
    const radius = Math.hypot(xa, xb);
    const stride = Math.max(1, Math.ceil((position + 1) / MAX_DOTS));
    const dots = [];
    for (let p = 0; p <= position; p += stride) dots.push({ at: [path[2 * p], path[2 * p + 1]], color: '#56B4E9' });
    this.#plot.draw({
      arrows: [
        { from: [0, 0], to: [xa, xb], color: '#777777', width: 2.5, label: 'x', role: 'original' },
        { from: [0, 0], to: rotated, color: '#0072B2', width: 3.5, label: `x′ (m = ${position})`, role: 'rotated' },
      ],
      circles: [{ radius }],
      arcs:
        theta > 0 && radius > 0
          ? [{ radius: radius * 0.35, from: start, to: start + (theta % (2 * Math.PI)), color: '#D55E00' }]
          : [],
      dots,
    });
    this.#showCursor();
  }

  csv() {
    if (!this.#rotation) return '';
    const { channels, path } = this.#rotation;
    const lines = [`position,x_${channels[0]},x_${channels[1]}`];
    for (let p = 0; 2 * p < path.length; p++) lines.push(`${p},${path[2 * p]},${path[2 * p + 1]}`);
    return `${lines.join('\n')}\n`;
  }

  /**
   * The drawn rotation: { position, pair, channels: [a, b], original: [x_a, x_b], rotated,
   * frequency (radians per position), path (float32 [x_a, x_b] for positions 0..m, flat) }.
   */
  get rotation() {
    return this.#rotation && { ...this.#rotation, path: this.#rotation.path.slice() };
  }

  #summary() {
    const { position, pair, channels, original, rotated, frequency } = this.#rotation;
    const before = Math.hypot(...original);
    const after = Math.hypot(...rotated);
    return (
      `Pair i = ${pair} (channels ${channels[0]} and ${channels[1]}): (${original.map((v) => formatSig(v, 3)).join(', ')}) ` +
      `rotated by ${formatSig(position * frequency, 4)} rad to (${rotated.map((v) => formatSig(v, 4)).join(', ')}) at position ${position}; ` +
      `dots mark positions 0 to ${position}. Length ${formatSig(before, 5)} before, ${formatSig(after, 5)} after. ` +
      'Focus and use the left and right arrow keys to read each position.'
    );
  }

  #onKey(event) {
    if (!this.#rotation) return;
    const last = this.#rotation.position;
    const step = event.shiftKey ? Math.max(1, Math.round((last + 1) / 20)) : 1;
    if (event.key === 'ArrowRight') this.#moveCursor(Math.min(last, (this.#cursor ?? -1) + step));
    else if (event.key === 'ArrowLeft') this.#moveCursor(Math.max(0, (this.#cursor ?? 1) - step));
    else return;
    event.preventDefault();
  }

  #moveCursor(position) {
    this.#cursor = position;
    this.pick(this.#showCursor());
  }

  /** Shows the read-out of the keyboard's position; returns its posenc-pick detail (null when none). */
  #showCursor() {
    if (this.#cursor === null || !this.#rotation) {
      this.#readout.textContent = '';
      return null;
    }
    const { path, frequency, channels } = this.#rotation;
    const p = this.#cursor;
    const values = [path[2 * p], path[2 * p + 1]];
    const angle = p * frequency;
    const text = `position ${p}: angle ${formatSig(angle, 6)} rad, x_${channels[0]} = ${formatSig(values[0], 6)}, x_${channels[1]} = ${formatSig(values[1], 6)}`;
    this.#readout.textContent = text;
    return { position: p, values, angle, text };
  }
}

defineElement('posenc-rotation', Rotation);
