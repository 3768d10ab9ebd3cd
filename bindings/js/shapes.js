// The shape each array argument has, by function and parameter, in the caller's option names:
// what a length error prints ("[batch=1, seqLen=4, numHeads=1, headDim=64] = 256 elements"),
// with a guess at the option that is missing or wrong. Which length is right is the core's rule
// (it reports the length it wanted); this file only explains it.

/**
 * A dimension: its option's name and value; `count` for dimensions that count rows or heads (a
 * length off by a whole factor is most often one of these); `fallback`, for options with a
 * default, the value they take when left out.
 */
const dim = (name, value, count = false, fallback = undefined) => ({ name, value, count, fallback });

/** [batch, seqLen, heads, headDim] (or heads before seqLen with order 'heads'); heads: numHeads or numKvHeads. */
function ropeShape(given, heads) {
  const numHeads = given('numHeads');
  const headCount =
    heads === 'numKvHeads'
      ? dim('numKvHeads', given('numKvHeads') ?? numHeads, true, numHeads)
      : dim('numHeads', numHeads, true, 1);
  const rows = [dim('seqLen', given('seqLen'), true), headCount];
  if (given('order') === 'heads') rows.reverse();
  return [dim('batch', given('batch'), true, 1), ...rows, dim('headDim', given('headDim'))];
}

const queries = (given) => ropeShape(given, 'numHeads');
/** [batch, frames·rows·cols, numHeads, headDim] (patches after heads with order 'heads'). */
const grid = (given) => {
  const frames = given('frames') ?? 1;
  const patches =
    frames === 1
      ? dim('rows·cols', given('rows') * given('cols'), true)
      : dim('frames·rows·cols', frames * given('rows') * given('cols'), true);
  const rows = [patches, dim('numHeads', given('numHeads'), true, 1)];
  if (given('order') === 'heads') rows.reverse();
  return [dim('batch', given('batch'), true, 1), ...rows, dim('headDim', given('headDim'))];
};
const keys = (given) => ropeShape(given, 'numKvHeads');
const table = (given) => [dim('seqLen', given('seqLen'), true), dim('dModel', given('dModel'))];
const cache = (given) => [
  dim('batch', given('batch'), true, 1),
  dim('seqLen', given('seqLen'), true),
  dim('rotaryDim/2', given('rotaryDim') / 2),
];
const weights = (given) => [
  dim('numHeads', given('numHeads'), true),
  dim('headDim', given('headDim')),
  dim('hidden', given('hidden')),
];

/** attentionScores' q or k: [numHeads, rows, headDim], or [rows, numHeads, headDim] with order 'tokens'. */
const attentionRows = (rowsName) => (given) => {
  const dims = [dim('numHeads', given('numHeads'), true, 1), dim(rowsName, given(rowsName), true)];
  if (given('order') === 'tokens') dims.reverse();
  return [...dims, dim('headDim', given('headDim'))];
};
/** [numHeads, queryLen, keyLen]: alibiBias and attentionScores. */
const headScores = (given) => [
  dim('numHeads', given('numHeads'), true, 1),
  dim('queryLen', given('queryLen'), true),
  dim('keyLen', given('keyLen'), true),
];

// parameter -> function -> its shape from the caller's values (given(name)).
export const SHAPES = {
  __proto__: null,
  x: { __proto__: null, rope: queries, 'RopePlan.apply': queries, addSinusoidal: table, ropeGrid: grid },
  out: {
    __proto__: null,
    rope: queries,
    'RopePlan.apply': queries,
    ropeGrid: grid,
    sinusoidal: table,
    positionNumbers: table,
    convertLayoutWeights: weights,
    similarity: (given) => [dim('rows', given('rows'), true), dim('cols', given('cols'), true)],
    alibiBias: headScores,
    attentionScores: headScores,
    relativePositionBuckets: (given) => [
      dim('queryLen', given('queryLen'), true),
      dim('keyLen', given('keyLen'), true),
    ],
  },
  q: { __proto__: null, ropeQK: queries, 'RopePlan.applyQK': queries, attentionScores: attentionRows('queryLen') },
  'out.q': { __proto__: null, ropeQK: queries, 'RopePlan.applyQK': queries },
  k: { __proto__: null, ropeQK: keys, 'RopePlan.applyQK': keys, attentionScores: attentionRows('keyLen') },
  bias: {
    __proto__: null,
    attentionScores: (given) => [dim('numBuckets', given('numBuckets')), dim('numHeads', given('numHeads'), true, 1)],
  },
  'out.k': { __proto__: null, ropeQK: keys, 'RopePlan.applyQK': keys },
  'out.cos': { __proto__: null, ropeCache: cache },
  'out.sin': { __proto__: null, ropeCache: cache },
  a: { __proto__: null, similarity: (given) => [dim('rows', given('rows'), true), dim('dim', given('dim'))] },
  b: { __proto__: null, similarity: (given) => [dim('cols', given('cols'), true), dim('dim', given('dim'))] },
  w: { __proto__: null, convertLayoutWeights: weights },
};

/**
 * The dimensions of array `parameter` of `fn` whose product is `expected` (the core's length),
 * or undefined where the shape is not a product of options (or does not come to `expected`).
 */
export function arrayShape(fn, parameter, given, expected) {
  const dims = SHAPES[parameter]?.[fn]?.(given);
  if (!dims?.every((d) => Number.isInteger(d.value))) return undefined;
  return dims.reduce((product, d) => product * d.value, 1) === expected ? dims : undefined;
}

/** "[batch=1, seqLen=4, numHeads=1, headDim=64]" */
export const formatShape = (dims) => `[${dims.map((d) => `${d.name}=${d.value}`).join(', ')}]`;

const either = (words) => (words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`);

/**
 * Where a length `got` is a whole multiple or fraction of `expected`: the ratio and the
 * dimensions that would account for it, options left at their default first (an option left
 * out is the likeliest cause): " = 4 × 256: perhaps numHeads: 4 or batch: 4 is missing, or
 * seqLen should be 16". Empty otherwise.
 */
export function lengthHint(dims, expected, got) {
  if (!(expected > 0 && got > 0) || got === expected) return '';
  let ratio;
  let scale;
  if (got % expected === 0) {
    const k = got / expected;
    ratio = `${k} × ${expected}`;
    scale = (value) => value * k;
  } else if (expected % got === 0) {
    const k = expected / got;
    ratio = `${expected} / ${k}`;
    scale = (value) => (value % k === 0 ? value / k : undefined);
  } else {
    return '';
  }
  const guesses = dims
    .filter((d) => d.count)
    .map((d) => ({ ...d, wanted: scale(d.value) }))
    .filter((d) => d.wanted !== undefined);
  const missing = guesses.filter((d) => d.fallback !== undefined && d.value === d.fallback);
  const wrong = guesses.filter((d) => !missing.includes(d));
  const parts = [];
  if (missing.length) parts.push(`${either(missing.map((d) => `${d.name}: ${d.wanted}`))} is missing`);
  for (const d of wrong) parts.push(`${d.name} should be ${d.wanted}`);
  if (parts.length === 0) return ` = ${ratio}`;
  return ` = ${ratio}: perhaps ${parts.join(', or ')}`;
}
