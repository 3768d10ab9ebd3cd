// The page's plots recomputed in Node through posenc's API, from the page's documented inputs
// (defaults, seeds, word embeddings), to compare with what the browser drew.
import { loadPosenc } from '../../../bindings/js/node.js';
import { randomQueryKey, tokenize, wordEmbedding } from '../../../widgets/tokens.js';

export const posenc = await loadPosenc();

function tile(vector, rows) {
  const out = new Float32Array(rows * vector.length);
  for (let r = 0; r < rows; r++) out.set(vector, r * vector.length);
  return out;
}

export function sinusoidalTable({ seqLen, dModel, base = 10000, layout = 'interleaved' }) {
  return posenc.sinusoidal({ seqLen, dModel, base, layout });
}

export function peDotProducts({ seqLen, dModel, base = 10000 }) {
  const table = sinusoidalTable({ seqLen, dModel, base });
  return posenc.similarity(table, table, { rows: seqLen, cols: seqLen, dim: dModel });
}

export function queryAndKey(content, seed, dim) {
  if (content === 'ones') return [new Float32Array(dim).fill(1), new Float32Array(dim).fill(1)];
  const { q, k } = randomQueryKey(seed, dim); // the page's seeded stand-ins for learned vectors
  return [q, k];
}

export function ropeScores({ seqLen, headDim, base = 10000, layout = 'interleaved', content = 'ones', seed = 1 }) {
  const [q, k] = queryAndKey(content, seed, headDim);
  const rotate = (v) => posenc.rope(tile(v, seqLen), { seqLen, headDim, base, layout });
  return posenc.similarity(rotate(q), rotate(k), { rows: seqLen, cols: seqLen, dim: headDim });
}

/** The comparison section's three panels for its 'qk' (default) or 'ones' contents. */
export function comparisonPanels({ seqLen, dModel, base = 10000, content = 'qk', seed = 7, metric = 'cosine' }) {
  const [q, k] = queryAndKey(content === 'ones' ? 'ones' : 'random', seed, dModel);
  const queries = tile(q, seqLen);
  const keys = tile(k, seqLen);
  const numbers = posenc.positionNumbers({ seqLen, dModel });
  const plus = (a, b) => a.map((v, i) => v + b[i]);
  const score = (a, b) => posenc.similarity(a, b, { rows: seqLen, cols: seqLen, dim: dModel, metric });
  return {
    naive: score(plus(queries, numbers), plus(keys, numbers)),
    sinusoidal: score(
      posenc.addSinusoidal(queries.slice(), { seqLen, dModel, base }),
      posenc.addSinusoidal(keys.slice(), { seqLen, dModel, base }),
    ),
    rope: score(
      posenc.rope(queries.slice(), { seqLen, headDim: dModel, base }),
      posenc.rope(keys.slice(), { seqLen, headDim: dModel, base }),
    ),
  };
}

/** Section 1: token scores of a sentence (16-dim word embeddings scaled by 0.6), optionally with positions. */
export function sentenceScores(sentence, withPositions) {
  const words = tokenize(sentence, 16);
  const x = new Float32Array(words.length * 16);
  words.forEach((word, i) => {
    x.set(wordEmbedding(word, 16, 0.6), i * 16);
  });
  if (withPositions) posenc.addSinusoidal(x, { seqLen: words.length, dModel: 16 });
  return { words, scores: posenc.similarity(x, x, { rows: words.length, cols: words.length, dim: 16 }) };
}

export { tile, wordEmbedding };
