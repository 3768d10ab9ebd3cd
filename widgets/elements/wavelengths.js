// <posenc-wavelengths>: chosen dimensions of the sinusoidal table as curves over position (each
// one a sine or cosine of its pair's frequency), the line plot of the tutorial's sinusoidal section.
// Attributes: seq-len, d-model, base, layout (the table's, as <posenc-pe-heatmap> has them) and
// dims (the dimensions to plot, 1 to 6 of them; the section's setting and range).
// posenc-pick's detail: { position, values: [{ dimension, value }], text }.
import { numbersControl } from '../controls.js';
import { formatSig } from '../format.js';
import { channelInfo } from '../layouts.js';
import { createLinePlot } from '../plots/lineplot.js';
import { range } from '../vectors.js';
import { defineElement, PosencElement } from './element.js';
import { PeHeatmap } from './pe-heatmap.js';

export class Wavelengths extends PosencElement {
  static settings = {
    ...PeHeatmap.settings,
    dims: {
      spec: { type: 'numbers', default: [0, 20, 60, 120], minLength: 1, maxLength: 6, min: 0, max: 2047 },
      control: (state, key) => numbersControl(state, key, { label: 'dimensions to plot (comma-separated)' }),
    },
  };

  #plot;
  #curves = [];
  #seqLen = 0;

  build() {
    this.#plot = createLinePlot({
      name: 'sinusoidal-dimensions',
      title: 'Single dimensions of PE over positions',
      xLabel: 'position',
      yLabel: 'PE value',
      summary: () => this.#summary(),
    });
    const figure = this.#plot.element;
    this.markParts(figure);
    this.#plot.onCursor((point) => this.pick(point && this.#pointInfo(point)));
    this.body.append(figure);
    return figure;
  }

  draw(posenc, { 'seq-len': seqLen, 'd-model': dModel, base, layout, dims }) {
    const table = posenc.sinusoidal({ seqLen, dModel, base, layout });
    const frequencies = posenc.ropeFrequencies({ rotaryDim: dModel, base });
    // Dimensions beyond the table are drawn as its last one; each dimension once.
    const plotted = [...new Set(dims.map((k) => Math.min(dModel - 1, Math.max(0, Math.round(k)))))];
    this.#seqLen = seqLen;
    this.#curves = plotted.map((dimension) => {
      const { pair, fn } = channelInfo(dimension, dModel, layout);
      const frequency = frequencies[pair];
      const y = new Float32Array(seqLen);
      for (let p = 0; p < seqLen; p++) y[p] = table[p * dModel + dimension];
      return { dimension, pair, fn, frequency, wavelength: (2 * Math.PI) / frequency, values: y };
    });
    const xs = range(seqLen);
    this.#plot.draw({
      series: this.#curves.map(({ dimension, values }) => ({ label: `dimension ${dimension}`, x: xs, y: values })),
      yDomain: [-1.05, 1.05],
    });
  }

  csv() {
    return this.#plot.csv();
  }

  /**
   * The drawn curves: [{ dimension, pair, fn, frequency, wavelength, values }] (frequency in
   * radians per position, wavelength 2π / frequency in positions, values float32 by position).
   */
  get curves() {
    return this.#curves.map((curve) => ({ ...curve }));
  }

  /** The text alternative: what is drawn, fastest and slowest curve, from the numbers. */
  #summary() {
    const curves = this.#curves;
    const describe = ({ dimension, pair, fn, wavelength }) =>
      `dimension ${dimension} (${fn} of pair i = ${pair}, wavelength ${formatSig(wavelength, 4)} positions)`;
    const byWavelength = [...curves].sort((a, b) => a.wavelength - b.wavelength);
    const [fastest, slowest] = [byWavelength[0], byWavelength.at(-1)];
    // Curves of one pair (a sine and its cosine) turn at one speed: no fastest and slowest then.
    const order =
      fastest.pair !== slowest.pair
        ? ` Fastest: ${describe(fastest)}; slowest: ${describe(slowest)}.`
        : curves.length > 1
          ? ` All at one speed, that of pair i = ${fastest.pair} (wavelength ${formatSig(fastest.wavelength, 4)} positions): ${curves.map(({ dimension, fn }) => `dimension ${dimension} is its ${fn}`).join(', ')}.`
          : ` ${describe(curves[0])}.`;
    return `Values of ${curves.map((c) => `dimension ${c.dimension}`).join(', ')} for positions 0 to ${this.#seqLen - 1}.${order}`;
  }

  #pointInfo({ index, text }) {
    return {
      position: index,
      values: this.#curves.map(({ dimension, values }) => ({ dimension, value: values[index] })),
      text,
    };
  }
}

defineElement('posenc-wavelengths', Wavelengths);
