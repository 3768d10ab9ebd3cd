// Float64 references for RoPE as models call it (batches, head orders, GQA, scaling), in plain JavaScript numbers and
// sharing no code with bindings/ or src/: batches of sequences at their own positions, the two
// head orders, any frequency schedule (e.g. a scaled one from the golden file) with its
// attention factor, the inverse rotation, and Hugging Face's permute of q/k weights.
import { ropePairChannels } from './reference.js';

/** The positions of each sequence: from `positions` (batch * seqLen), a list of offsets, or one offset. */
export function sequencePositions({ batch = 1, seqLen, offset = 0, positions }) {
  return Array.from({ length: batch }, (_, b) => {
    if (positions !== undefined) return Array.from(positions, Number).slice(b * seqLen, (b + 1) * seqLen);
    const start = typeof offset === 'number' ? offset : Number(offset[b]);
    return Array.from({ length: seqLen }, (_, t) => start + t);
  });
}

/** Flat index of element (b, t, h, c) in tokens-major [B, S, H, D] or heads-major [B, H, S, D]. */
export function elementIndex({ seqLen, numHeads, headDim }, order, b, t, h, c) {
  if (order === 'heads') return ((b * numHeads + h) * seqLen + t) * headDim + c;
  return ((b * seqLen + t) * numHeads + h) * headDim + c;
}

/** x re-laid from one head order to the other (same type as x). */
export function reorder(x, shape, from, to) {
  const { batch = 1, seqLen, numHeads, headDim } = shape;
  const out = new x.constructor(x.length);
  for (let b = 0; b < batch; b++) {
    for (let t = 0; t < seqLen; t++) {
      for (let h = 0; h < numHeads; h++) {
        for (let c = 0; c < headDim; c++)
          out[elementIndex(shape, to, b, t, h, c)] = x[elementIndex(shape, from, b, t, h, c)];
      }
    }
  }
  return out;
}

/**
 * x rotated in float64: pair i of the first 2 * invFreq.length channels of every head turns by
 * position * invFreq[i] (negated with `inverse`), cos and sin times attentionFactor.
 */
export function rotateReference(x, options) {
  const {
    batch = 1,
    seqLen,
    numHeads = 1,
    headDim,
    layout = 'interleaved',
    order = 'tokens',
    invFreq,
    attentionFactor = 1,
    inverse = false,
  } = options;
  const rotaryDim = 2 * invFreq.length;
  const shape = { seqLen, numHeads, headDim };
  const out = Float64Array.from(x);
  const rows = sequencePositions(options);
  for (let b = 0; b < batch; b++) {
    for (let t = 0; t < seqLen; t++) {
      for (let i = 0; i < invFreq.length; i++) {
        const theta = (inverse ? -1 : 1) * rows[b][t] * invFreq[i];
        const c = Math.cos(theta) * attentionFactor;
        const s = Math.sin(theta) * attentionFactor;
        const [pa, pb] = ropePairChannels(i, rotaryDim, layout);
        for (let h = 0; h < numHeads; h++) {
          const a = elementIndex(shape, order, b, t, h, pa);
          const bIndex = elementIndex(shape, order, b, t, h, pb);
          out[a] = x[a] * c - x[bIndex] * s;
          out[bIndex] = x[a] * s + x[bIndex] * c;
        }
      }
    }
  }
  return out;
}

/**
 * Hugging Face's permute(w, n_heads, dim1, dim2) from convert_llama_weights_to_hf.py:
 * w.view(n_heads, dim1 / n_heads / 2, 2, dim2).transpose(1, 2).reshape(dim1, dim2).
 */
export function hfPermute(w, nHeads, dim1, dim2) {
  const half = dim1 / nHeads / 2;
  const out = new Float32Array(w.length);
  for (let h = 0; h < nHeads; h++) {
    for (let i = 0; i < half; i++) {
      for (let j = 0; j < 2; j++) {
        for (let c = 0; c < dim2; c++)
          out[((h * 2 + j) * half + i) * dim2 + c] = w[((h * half + i) * 2 + j) * dim2 + c];
      }
    }
  }
  return out;
}
