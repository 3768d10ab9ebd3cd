// <posenc-rope-heatmap>: RoPE's attention scores rot(q, m) · rot(k, n) over query positions m
// (rows) and key positions n (columns), the score heatmap of the tutorial's RoPE section. Every
// cell is the score of q and k rotated at its own m and n (the figure teaches that it depends on
// m − n only, so nothing is copied along diagonals); a labelled preview comes first when large.
// Attributes: seq-len, head-dim, content (ones | random), seed, layout (interleaved | half), base.
// posenc-pick's detail: { row, col, m, n, value, text }.
import { choiceControl } from '../controls.js';
import { formatSig } from '../format.js';
import { createHeatmap } from '../plots/heatmap.js';
import { similaritySteps } from '../plots/similarity-steps.js';
import { randomQueryKey } from '../tokens.js';
import { tile } from '../vectors.js';
import { defineElement, PosencElement } from './element.js';
import { baseSetting, numberSetting, seedSetting } from './settings.js';

export const ROPE_LAYOUT_OPTIONS = [
  { value: 'interleaved', label: 'interleaved: pairs (x₂ᵢ, x₂ᵢ₊₁)' },
  { value: 'half', label: 'half: pairs (xᵢ, xᵢ₊d/2) (rotate_half)' },
];

/** The query and key contents: all ones, or random (seeded) vectors. */
export function ropeContents(content, seed, headDim) {
  if (content === 'ones') return { q: new Float32Array(headDim).fill(1), k: new Float32Array(headDim).fill(1) };
  return randomQueryKey(seed, headDim);
}

export class RopeHeatmap extends PosencElement {
  static progressive = true;

  static settings = {
    'seq-len': numberSetting({ type: 'int', default: 1001, min: 16, max: 2048 }, 'positions'),
    'head-dim': numberSetting({ type: 'int', default: 64, min: 2, max: 256, even: true }, 'head dim'),
    content: {
      spec: { type: 'enum', default: 'ones', values: ['ones', 'random'] },
      control: (state, key) =>
        choiceControl(state, key, {
          label: 'q and k',
          options: [
            { value: 'ones', label: 'all ones' },
            { value: 'random', label: 'random' },
          ],
        }),
    },
    seed: seedSetting(1),
    layout: {
      spec: { type: 'enum', default: 'interleaved', values: ['interleaved', 'half'] },
      control: (state, key, instance) =>
        choiceControl(state, key, { label: 'layout', options: ROPE_LAYOUT_OPTIONS, instance }),
    },
    base: baseSetting(),
  };

  #heatmap;
  #current = { seqLen: 0, headDim: 0, content: 'ones' };

  build() {
    this.#heatmap = createHeatmap({
      name: 'rope-similarity',
      title: 'RoPE score rot(q, m) · rot(k, n)',
      xLabel: 'key position n',
      yLabel: 'query position m',
      valueLabel: 'score',
      colormap: 'viridis',
      square: true,
      summary: ({ lo, hi }) =>
        `RoPE attention scores between query positions and key positions 0 to ${this.#current.seqLen - 1}, from ${formatSig(lo, 3)} to ${formatSig(hi, 3)}, ` +
        `${this.#current.content === 'ones' ? 'all-ones' : 'random'} q and k, head dimension ${this.#current.headDim}. Colours repeat along diagonal stripes: the score depends only on m − n.`,
      readout: (cell) => this.#cellText(cell),
    });
    const figure = this.#heatmap.element;
    this.markParts(figure);
    this.#heatmap.onCursor((cell) => {
      if (!cell) return this.pick(null);
      const { rowFirst, colFirst, rowStep, colStep } = this.#heatmap.matrix;
      const m = rowFirst + cell.row * rowStep;
      const n = colFirst + cell.col * colStep;
      const value = this.#heatmap.valueAt(cell.row, cell.col);
      this.pick({ ...cell, m, n, value, text: this.#cellText({ rowPosition: m, colPosition: n, value }) });
    });
    this.body.append(figure);
    return figure;
  }

  *draw(posenc, { 'seq-len': seqLen, 'head-dim': headDim, content, seed, layout, base }) {
    this.#current = { seqLen, headDim, content };
    const { q, k } = ropeContents(content, seed, headDim);
    const rotateAll = (vector) => posenc.rope(tile(vector, seqLen), { seqLen, headDim, base, layout });
    // q and k are headDim numbers: the rotated rows (seqLen of each) are computed again when read.
    yield* similaritySteps(posenc, this.#heatmap, {
      inputs: () => ({ a: rotateAll(q), b: rotateAll(k) }),
      rows: seqLen,
      cols: seqLen,
      dim: headDim,
    });
  }

  csv() {
    return this.#heatmap.csv();
  }

  #cellText({ rowPosition: m, colPosition: n, value }) {
    return `m = ${m}, n = ${n}, m − n = ${m - n}: score ${formatSig(value, 6)}`;
  }
}

defineElement('posenc-rope-heatmap', RopeHeatmap);
