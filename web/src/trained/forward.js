// The forward pass of a trained model (scripts/train_models.py's LagCopyModel): token embedding
// (plus the learned or sinusoidal table), one causal attention layer whose scores posenc computes
// under the model's encoding, the residual sum, the unembedding. posenc supplies every
// positional number — the sinusoidal table, RoPE's and xPos's rotations, ALiBi's slopes, T5's
// buckets — so the page runs the models with the library it explains.

/** a [rows, inner] times b [inner, cols], row-major, summed in float64 and stored as float32. */
function matmul(a, b, rows, inner, cols) {
  const out = new Float32Array(rows * cols);
  const sums = new Float64Array(cols);
  for (let r = 0; r < rows; r++) {
    sums.fill(0);
    for (let i = 0; i < inner; i++) {
      const value = a[r * inner + i];
      if (value === 0) continue;
      for (let c = 0; c < cols; c++) sums[c] += value * b[i * cols + c];
    }
    out.set(sums, r * cols);
  }
  return out;
}

/** The embeddings [length, dModel] of `tokens`, with the model's absolute positions added. */
function embed(posenc, model, tokens) {
  const { dModel, tensors, options } = model;
  const length = tokens.length;
  const x = new Float32Array(length * dModel);
  for (let t = 0; t < length; t++)
    x.set(tensors.embed.subarray(tokens[t] * dModel, (tokens[t] + 1) * dModel), t * dModel);
  if (model.encoding === 'learned') {
    // The table has rows for the training positions only: a later position takes the last row.
    for (let t = 0; t < length; t++) {
      const row = Math.min(t, options.rows - 1) * dModel;
      for (let c = 0; c < dModel; c++) x[t * dModel + c] += tensors.pos[row + c];
    }
  } else if (model.encoding === 'sinusoidal') {
    posenc.addSinusoidal(x, { seqLen: length, dModel, base: options.base, layout: options.layout });
  }
  return x;
}

/** attentionScores' encoding options for the model: what position does inside the scores. */
function scoreEncoding(model) {
  const { options } = model;
  switch (model.encoding) {
    case 'rope':
      return { encoding: 'rope', base: options.base, layout: options.layout };
    case 'xpos':
      return { encoding: 'xpos', base: options.base, layout: options.layout, xpos: { ...options.xpos } };
    case 'alibi':
      return { encoding: 'alibi', maxBias: options.maxBias };
    case 't5':
      return {
        encoding: 't5',
        bias: model.tensors.t5_bias,
        numBuckets: options.numBuckets,
        maxDistance: options.maxDistance,
        bidirectional: options.bidirectional,
        scale: 1 / Math.sqrt(model.headDim), // the models scale every score alike; T5's own default is 1
      };
    default: // none, learned, sinusoidal: position is already in the embeddings, or nowhere
      return { encoding: 'none' };
  }
}

/** Checks `tokens` against the model: a non-empty list of integers in [0, vocab). */
function checkTokens(tokens, vocab) {
  if (!ArrayBuffer.isView(tokens) && !Array.isArray(tokens)) throw new TypeError('tokens must be an array of integers');
  if (tokens.length < 1) throw new RangeError('tokens must hold at least one token');
  for (let t = 0; t < tokens.length; t++) {
    if (!Number.isInteger(tokens[t]) || tokens[t] < 0 || tokens[t] >= vocab)
      throw new RangeError(`tokens[${t}] must be an integer in [0, ${vocab}), got ${tokens[t]}`);
  }
}

/**
 * The embeddings x of `tokens` (with the model's absolute positions, if any) and the queries,
 * keys and values made from them, each [length, numHeads, headDim] (rope's 'tokens' order, which
 * attentionScores takes as it is): before any rotation, which attentionScores applies.
 */
export function projections(posenc, model, tokens) {
  checkTokens(tokens, model.vocab);
  const { dModel, tensors } = model;
  const length = tokens.length;
  const x = embed(posenc, model, tokens);
  const project = (weight) => matmul(x, weight, length, dModel, dModel);
  return { x, q: project(tensors.wq), k: project(tensors.wk), v: project(tensors.wv) };
}

/**
 * Runs `model` (decodeModel's) on `tokens`: { logits [length, vocab] (Float32Array), attention:
 * one Float32Array [numHeads, length, length] per layer (causal softmax weights, row = query) }.
 */
export function forward(posenc, model, tokens) {
  const { dModel, numHeads, headDim, vocab, tensors } = model;
  const length = tokens.length;
  const { x, q, k, v } = projections(posenc, model, tokens);
  const attention = posenc.attentionScores(q, k, {
    queryLen: length,
    keyLen: length,
    headDim,
    numHeads,
    order: 'tokens',
    causal: true,
    softmax: true,
    ...scoreEncoding(model),
  });
  // Each head's weighted sum of its values, back in [length, dModel].
  const mixed = new Float32Array(length * dModel);
  const sums = new Float64Array(headDim);
  for (let h = 0; h < numHeads; h++) {
    for (let i = 0; i < length; i++) {
      sums.fill(0);
      const row = attention.subarray((h * length + i) * length, (h * length + i + 1) * length);
      for (let j = 0; j <= i; j++) {
        const w = row[j];
        const base = j * dModel + h * headDim;
        for (let c = 0; c < headDim; c++) sums[c] += w * v[base + c];
      }
      mixed.set(sums, i * dModel + h * headDim);
    }
  }
  const out = matmul(mixed, tensors.wo, length, dModel, dModel);
  for (let i = 0; i < out.length; i++) out[i] += x[i];
  return { logits: matmul(out, tensors.unembed, length, dModel, vocab), attention: [attention] };
}
