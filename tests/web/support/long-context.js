// The long-context section's reference (section 10), shared by its tests: the model configs of
// the golden scaling vectors and both heatmap panels recomputed in float64 in Node, independently
// of the page's code, and a check of the drawn pixels against them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './build.js';
import { checkHeatmapPixels } from './colors.js';
import { posenc, queryAndKey } from './reference.js';

const GOLDEN = JSON.parse(readFileSync(path.join(ROOT, 'tests/golden/rope-scaling.json'), 'utf8')).cases;

// Each preset of the page, the golden case holding its model's config, and the training length
// L0 the section uses (the config's originalMaxPositionEmbeddings; for linear, Llama 2's 4096).
export const MODELS = {
  'llama3.1': { golden: 'Llama 3.1 8B (llama3)', trainedLength: 8192 },
  'qwen2.5': { golden: 'Qwen2.5-7B-Instruct with YaRN (yarn, factor 4)', trainedLength: 32768 },
  'phi3.5': { golden: 'Phi-3.5-mini-instruct (longrope), long: seqLen 4097', trainedLength: 4096 },
  'deepseek-v3': { golden: 'DeepSeek-V3 (yarn, factor 40, mscale = mscale_all_dim = 1)', trainedLength: 4096 },
  linear: { golden: 'linear, factor 2 (Llama 2 7B geometry)', trainedLength: 4096 },
  dynamic: { golden: 'dynamic, factor 2, L0 2048: seqLen 4096 (above)', trainedLength: 2048 },
};

export function model(id) {
  const golden = GOLDEN.find((c) => c.name === MODELS[id].golden);
  assert.ok(golden, `golden case for ${id}`);
  return { ...golden, trainedLength: MODELS[id].trainedLength };
}

/** The section's documented sampling: positions 0, stride, … below span × L0, at most `cells`. */
export function sampledPositions(span, trainedLength, cells) {
  const total = span * trainedLength;
  const stride = Math.ceil(total / cells);
  const positions = [];
  for (let p = 0; p < total; p += stride) positions.push(p);
  return { positions, stride };
}

/**
 * Both panels in float64, independently of the page's code: the RoPE score of q and k (half
 * pairing) at distance Δ = m − n is att² Σ_i [(q·k)_i cos(Δ ω_i) − (q_b k_a − q_a k_b) sin(Δ ω_i)],
 * with ω and the attention factor of posenc.ropeSchedule at the sequence's length (count · stride,
 * what length-dependent schedules read); a cell is the mean over its stride × stride block of
 * (m, n) pairs, summed directly.
 */
export function referenceScores(id, { span = 2, cells = 256, seed = 1, content = 'same' } = {}) {
  const { base, rotaryDim, scaling, trainedLength } = model(id);
  const { positions, stride } = sampledPositions(span, trainedLength, cells);
  const count = positions.length;
  const length = count * stride;
  const [q, independentKey] = queryAndKey('random', seed, rotaryDim);
  const k = content === 'same' ? q : independentKey;
  const half = rotaryDim / 2;
  const panel = (s) => {
    const { invFreq, attentionFactor } = posenc.ropeSchedule({
      rotaryDim,
      base,
      seqLen: length,
      ...(s ? { scaling: s } : {}),
    });
    const score = new Float64Array(2 * length - 1); // Δ at Δ + length − 1
    for (let d = -(length - 1); d < length; d++) {
      let sum = 0;
      for (let i = 0; i < half; i++) {
        const [a, b] = [i, i + half];
        sum +=
          (q[a] * k[a] + q[b] * k[b]) * Math.cos(d * invFreq[i]) -
          (q[b] * k[a] - q[a] * k[b]) * Math.sin(d * invFreq[i]);
      }
      score[d + length - 1] = attentionFactor ** 2 * sum;
    }
    const byOffset = new Float64Array(2 * count - 1);
    for (let o = -(count - 1); o < count; o++) {
      let sum = 0;
      for (let a = 0; a < stride; a++) for (let b = 0; b < stride; b++) sum += score[o * stride + a - b + length - 1];
      byOffset[o + count - 1] = sum / (stride * stride);
    }
    return Float64Array.from({ length: count * count }, (_, cell) => {
      const [r, c] = [Math.floor(cell / count), cell % count];
      return byOffset[r - c + count - 1];
    });
  };
  const panels = { plain: panel(null), scaled: panel(scaling) };
  // The section's rule: both signs (each more than a tenth of the other side) on the diverging map
  // around 0, else a sequential map over the scores' range.
  let [lo, hi] = [Infinity, -Infinity];
  for (const values of Object.values(panels)) for (const v of values) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
  const bothSigns = lo < -0.1 * hi && hi > -0.1 * lo;
  const reach = Math.max(-lo, hi);
  const domain = bothSigns ? [-reach, reach] : [lo, hi];
  return { ...panels, positions, stride, count, length, q, domain, colormap: bothSigns ? 'diverging' : 'viridis' };
}

export async function checkPanels(page, id, options) {
  const expected = referenceScores(id, options);
  for (const key of ['plain', 'scaled']) {
    const drawn = await checkHeatmapPixels(page, `long-context-${key}`, {
      rows: expected.count,
      cols: expected.count,
      expected: (r, c) => expected[key][r * expected.count + c],
      domain: expected.domain,
      samples: 40,
    });
    assert.equal(drawn.colormap, expected.colormap, `${key}: colour map`);
  }
  return expected;
}
