// A trained RoPE model's own query and key, scored at a query position m and a key position n as
// its forward pass scores them (posenc.rope under the model's base and layout, then q·k/√headDim):
// the score depends on m − n only, for learned vectors as for any.
import { projections } from './forward.js';

/**
 * Head `head`'s score for the query of token `queryToken` at position `m` against the key of
 * token `keyToken` at position `n`, for a model whose encoding is 'rope'.
 */
export function rotatedScore(posenc, model, { head, queryToken, keyToken, m, n }) {
  if (model.encoding !== 'rope')
    throw new RangeError(`rotatedScore: model ${JSON.stringify(model.encoding)} is not a RoPE model`);
  const { numHeads, headDim, options } = model;
  const { q, k } = projections(posenc, model, Int32Array.of(queryToken, keyToken));
  const rotate = (x, position) =>
    posenc.rope(x, { seqLen: 1, numHeads, headDim, base: options.base, layout: options.layout, positions: [position] });
  const dModel = numHeads * headDim;
  const query = rotate(q.slice(0, dModel), m);
  const key = rotate(k.slice(dModel, 2 * dModel), n);
  let dot = 0;
  for (let c = head * headDim; c < (head + 1) * headDim; c++) dot += query[c] * key[c];
  return dot / Math.sqrt(headDim);
}
