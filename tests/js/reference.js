// An independent float64 reference for the posenc API, written from the math (the
// "Attention Is All You Need" table, RoFormer's rotation, dot/cosine) in plain JavaScript
// numbers. It shares no code with bindings/ or src/: the tests compare posenc against it.
//
// Shapes and option names follow the API (row-major, x is [seqLen, numHeads, headDim]).

/** Pair i of a dim-wide schedule turns at base^(-2i/dim) radians per position. */
export function inverseFrequency(pair, dim, base = 10000) {
  return Math.pow(base, (-2 * pair) / dim);
}

/** The position of every row: explicit `positions`, or offset, offset + 1, ... */
export function rowPositions({ seqLen, offset = 0, positions }) {
  if (positions !== undefined) return Array.from(positions, Number);
  return Array.from({ length: seqLen }, (_, row) => offset + row);
}

/** Channel of sin / cos of pair i in a sinusoidal table row. */
export function tableChannels(pair, dModel, layout = 'interleaved') {
  return layout === 'interleaved' ? [2 * pair, 2 * pair + 1] : [pair, dModel / 2 + pair];
}

/** The [seqLen, dModel] sinusoidal table in float64. */
export function sinusoidalReference({ seqLen, dModel, base = 10000, layout = 'interleaved', offset, positions }) {
  const rows = rowPositions({ seqLen, offset, positions });
  const table = new Float64Array(seqLen * dModel);
  for (let row = 0; row < seqLen; row++) {
    for (let i = 0; i < dModel / 2; i++) {
      const theta = rows[row] * inverseFrequency(i, dModel, base);
      const [sinAt, cosAt] = tableChannels(i, dModel, layout);
      table[row * dModel + sinAt] = Math.sin(theta);
      table[row * dModel + cosAt] = Math.cos(theta);
    }
  }
  return table;
}

/** The naive encoding: row p filled with offset + p. */
export function positionNumbersReference({ seqLen, dModel, offset = 0 }) {
  const table = new Float64Array(seqLen * dModel);
  for (let row = 0; row < seqLen; row++) table.fill(offset + row, row * dModel, (row + 1) * dModel);
  return table;
}

/** The two channels of rotary pair i within a head; a is rotated by +theta towards b. */
export function ropePairChannels(pair, rotaryDim, layout = 'interleaved') {
  return layout === 'interleaved' ? [2 * pair, 2 * pair + 1] : [pair, pair + rotaryDim / 2];
}

/** Full RoPE options with the API's defaults filled in. */
export function ropeShape(options) {
  const {
    seqLen,
    numHeads = 1,
    headDim,
    rotaryDim = headDim,
    base = 10000,
    layout = 'interleaved',
    offset,
    positions,
  } = options;
  return { seqLen, numHeads, headDim, rotaryDim, base, layout, offset, positions };
}

/**
 * Calls visit(a, b, pair, row) with the flat indices of both channels of every rotary pair
 * of every head of every row.
 */
export function forEachRopePair(options, visit) {
  const { seqLen, numHeads, headDim, rotaryDim, layout } = ropeShape(options);
  for (let row = 0; row < seqLen; row++) {
    for (let head = 0; head < numHeads; head++) {
      const start = (row * numHeads + head) * headDim;
      for (let pair = 0; pair < rotaryDim / 2; pair++) {
        const [a, b] = ropePairChannels(pair, rotaryDim, layout);
        visit(start + a, start + b, pair, row);
      }
    }
  }
}

/** x rotated by RoPE, in float64; channels from rotaryDim on pass through. */
export function ropeReference(x, options) {
  const shape = ropeShape(options);
  const rows = rowPositions(shape);
  const out = Float64Array.from(x);
  forEachRopePair(shape, (a, b, pair, row) => {
    const theta = rows[row] * inverseFrequency(pair, shape.rotaryDim, shape.base);
    const c = Math.cos(theta);
    const s = Math.sin(theta);
    out[a] = x[a] * c - x[b] * s;
    out[b] = x[a] * s + x[b] * c;
  });
  return out;
}

/**
 * xPos's scale of pair `pair` at row `row` of a rope call with `options.xpos` (role 'query' or
 * 'key'; center default ceil((largest position + 1) / 2)): ζᵢ^(±(p − center) / scaleBase),
 * ζᵢ = (2i/rotaryDim + γ)/(1 + γ), in float64. A function (pair, row) => scale; 1 without xpos.
 */
export function xposScales(options) {
  if (options.xpos === undefined) return () => 1;
  const { rotaryDim } = ropeShape(options);
  const rows = rowPositions(ropeShape(options));
  const { scaleBase = 512, gamma = 0.4, role } = options.xpos;
  const center = options.xpos.center ?? Math.ceil((rows.reduce((m, p) => Math.max(m, p), 0) + 1) / 2);
  const sign = role === 'key' ? -1 : 1;
  return (pair, row) => (((2 * pair) / rotaryDim + gamma) / (1 + gamma)) ** ((sign * (rows[row] - center)) / scaleBase);
}

/** x rotated by RoPE with xPos's scale (`options.xpos`, its role given), in float64. */
export function xposReference(x, options) {
  const out = ropeReference(x, options);
  const scale = xposScales(options);
  forEachRopePair(options, (a, b, pair, row) => {
    out[a] *= scale(pair, row);
    out[b] *= scale(pair, row);
  });
  return out;
}

/** cos and sin of position * inv_freq_i, each [seqLen, rotaryDim / 2], float64. */
export function ropeCacheReference({ seqLen, rotaryDim, base = 10000, offset, positions }) {
  const rows = rowPositions({ seqLen, offset, positions });
  const half = rotaryDim / 2;
  const cos = new Float64Array(seqLen * half);
  const sin = new Float64Array(seqLen * half);
  for (let row = 0; row < seqLen; row++) {
    for (let i = 0; i < half; i++) {
      const theta = rows[row] * inverseFrequency(i, rotaryDim, base);
      cos[row * half + i] = Math.cos(theta);
      sin[row * half + i] = Math.sin(theta);
    }
  }
  return { cos, sin };
}

/** Dot product of a[aAt .. aAt + dim) and b[bAt .. bAt + dim) in float64. */
export function dot(a, b, dim = a.length, aAt = 0, bAt = 0) {
  let sum = 0;
  for (let i = 0; i < dim; i++) sum += a[aAt + i] * b[bAt + i];
  return sum;
}

/** Sum of |a_i b_i|: what rounding errors of a float32 dot product scale with. */
export function absDot(a, b, dim = a.length, aAt = 0, bAt = 0) {
  let sum = 0;
  for (let i = 0; i < dim; i++) sum += Math.abs(a[aAt + i] * b[bAt + i]);
  return sum;
}

/** The [rows, cols] matrix of dot products or cosines of the rows of a and b, float64. */
export function similarityReference(a, b, { rows, cols, dim, metric = 'dot' }) {
  const out = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      let value = dot(a, b, dim, r * dim, c * dim);
      if (metric === 'cosine') {
        const norms = Math.sqrt(dot(a, a, dim, r * dim, r * dim)) * Math.sqrt(dot(b, b, dim, c * dim, c * dim));
        value = norms > 0 ? value / norms : 0; // the API defines an all-zero row's cosine as 0
      }
      out[r * cols + c] = value;
    }
  }
  return out;
}
