// The `js` baseline: plain JavaScript as a careful demo author writes it. Frequencies are
// hoisted out of the loops, cos/sin of a position are computed once and reused for every
// head, outputs are preallocated by the caller, Math.sin/Math.cos do the trigonometry.
// No SIMD tricks, no angle recurrences: the code people write today without posenc.
// For per-call costs (many small calls, as in a decode loop) the careful version is another:
// cos/sin of every position precomputed once, each call only looks them up (ropeWithTableJs).
import { inverseFrequencies } from './reference.js';

/**
 * Calls visitRow(t, cos, sin) for each row t of a rope call, with the row's cos/sin of each of
 * the rotaryDim/2 pairs (float64, times xPos's scale with options.xpos).
 */
function forEachRopeRow({ seqLen, headDim, rotaryDim = headDim, base = 10000, offset = 0, positions, xpos }, visitRow) {
  const half = rotaryDim / 2;
  const frequencies = inverseFrequencies(rotaryDim, base);
  const cos = new Float64Array(half);
  const sin = new Float64Array(half);
  // xPos (offset rows only): pair i scaled by ζᵢ^(±(p − center) / scaleBase), as a hand-written loop would
  const logZeta = new Float64Array(half);
  let center = 0;
  let sign = 0;
  if (xpos) {
    const { scaleBase = 512, gamma = 0.4, role } = xpos;
    for (let i = 0; i < half; i++) logZeta[i] = Math.log(((2 * i) / rotaryDim + gamma) / (1 + gamma)) / scaleBase;
    center = xpos.center ?? Math.ceil((offset + seqLen) / 2);
    sign = role === 'key' ? -1 : 1;
  }
  for (let t = 0; t < seqLen; t++) {
    const position = positions ? positions[t] : offset + t;
    for (let i = 0; i < half; i++) {
      const angle = position * frequencies[i];
      const scale = sign === 0 ? 1 : Math.exp(sign * (position - center) * logZeta[i]);
      cos[i] = scale * Math.cos(angle);
      sin[i] = scale * Math.sin(angle);
    }
    visitRow(t, cos, sin);
  }
}

/** Rotates the numHeads heads of one row of x, starting at x[start], by the row's cos/sin. */
function rotateRow(x, start, { numHeads, headDim, half, step, partner }, cos, sin) {
  for (let h = 0; h < numHeads; h++) {
    const head = start + h * headDim;
    for (let i = 0; i < half; i++) {
      const a = head + i * step;
      const b = a + partner;
      const xa = x[a];
      const xb = x[b];
      x[a] = xa * cos[i] - xb * sin[i];
      x[b] = xa * sin[i] + xb * cos[i];
    }
  }
}

/** The row geometry rotateRow reads. */
function rowShape({ numHeads = 1, headDim, rotaryDim = headDim, layout = 'interleaved' }) {
  const half = rotaryDim / 2;
  // step: distance between consecutive pairs; partner: from x_a to x_b
  return layout === 'interleaved'
    ? { numHeads, headDim, half, step: 2, partner: 1 }
    : { numHeads, headDim, half, step: 1, partner: half };
}

/**
 * Rotates x [seqLen, numHeads, headDim] in place: a Float32Array, or a Float16Array where the
 * engine has one (its elements widen on read and round once, from float64, on write).
 */
export function ropeJs(x, options) {
  const shape = rowShape(options);
  const rowLength = shape.numHeads * shape.headDim;
  forEachRopeRow(options, (t, cos, sin) => rotateRow(x, t * rowLength, shape, cos, sin));
  return x;
}

/**
 * ropeJs on 16-bit patterns (a Uint16Array: float16 where the engine has no Float16Array, and
 * bfloat16): each row widened through the format's 65,536-entry table into a float64 row,
 * rotated, and rounded once back (bench/half-bits.js).
 */
export function ropeBitsJs(bits, options, { values, narrow }) {
  const shape = rowShape(options);
  const rowLength = shape.numHeads * shape.headDim;
  const row = new Float64Array(rowLength);
  forEachRopeRow(options, (t, cos, sin) => {
    const start = t * rowLength;
    for (let i = 0; i < rowLength; i++) row[i] = values[bits[start + i]];
    rotateRow(row, 0, shape, cos, sin);
    for (let i = 0; i < rowLength; i++) bits[start + i] = narrow(row[i]);
  });
  return bits;
}

/**
 * A decode loop's cos/sin table: cos and sin of every position below `positions`, for each of
 * the rotaryDim/2 pairs ([positions, rotaryDim/2] each), computed once before the loop.
 * Float32, like the caches models ship (and half the bytes of float64 to read per call).
 */
export function ropeTableJs({ positions, rotaryDim, base = 10000 }) {
  const half = rotaryDim / 2;
  const table = { cos: new Float32Array(positions * half), sin: new Float32Array(positions * half) };
  ropeCacheJs(table, { seqLen: positions, rotaryDim, base });
  return { ...table, half };
}

/**
 * Rotates x [seqLen, numHeads, headDim] in place at positions offset, offset + 1, ..., reading
 * cos/sin from a ropeTableJs table that covers them: no trigonometry per call, only the
 * multiply-adds. What a demo author writes for the hot loop of token-by-token decoding.
 */
export function ropeWithTableJs(
  x,
  { cos, sin, half },
  { seqLen, numHeads = 1, headDim, layout = 'interleaved', offset = 0 },
) {
  const step = layout === 'interleaved' ? 2 : 1; // distance between consecutive pairs
  const partner = layout === 'interleaved' ? 1 : half; // distance from x_a to x_b
  for (let t = 0; t < seqLen; t++) {
    const row = (offset + t) * half;
    for (let h = 0; h < numHeads; h++) {
      const start = (t * numHeads + h) * headDim;
      for (let i = 0; i < half; i++) {
        const a = start + i * step;
        const b = a + partner;
        const c = cos[row + i];
        const s = sin[row + i];
        const xa = x[a];
        const xb = x[b];
        x[a] = xa * c - xb * s;
        x[b] = xa * s + xb * c;
      }
    }
  }
  return x;
}

/** Writes the interleaved sinusoidal table [seqLen, dModel] into out. */
export function sinusoidalJs(out, { seqLen, dModel, base = 10000 }) {
  const frequencies = inverseFrequencies(dModel, base);
  for (let p = 0; p < seqLen; p++) {
    const row = p * dModel;
    for (let i = 0; i < frequencies.length; i++) {
      const angle = p * frequencies[i];
      out[row + 2 * i] = Math.sin(angle);
      out[row + 2 * i + 1] = Math.cos(angle);
    }
  }
  return out;
}

/** sinusoidalJs into 16-bit patterns (a Uint16Array), each value rounded once by narrow (bench/half-bits.js). */
export function sinusoidalBitsJs(bits, { seqLen, dModel, base = 10000 }, narrow) {
  const frequencies = inverseFrequencies(dModel, base);
  for (let p = 0; p < seqLen; p++) {
    const row = p * dModel;
    for (let i = 0; i < frequencies.length; i++) {
      const angle = p * frequencies[i];
      bits[row + 2 * i] = narrow(Math.sin(angle));
      bits[row + 2 * i + 1] = narrow(Math.cos(angle));
    }
  }
  return bits;
}

/** Adds the interleaved sinusoidal table to x [seqLen, dModel] in place. */
export function addSinusoidalJs(x, { seqLen, dModel, base = 10000 }) {
  const frequencies = inverseFrequencies(dModel, base);
  for (let p = 0; p < seqLen; p++) {
    const row = p * dModel;
    for (let i = 0; i < frequencies.length; i++) {
      const angle = p * frequencies[i];
      x[row + 2 * i] += Math.sin(angle);
      x[row + 2 * i + 1] += Math.cos(angle);
    }
  }
  return x;
}

/** Writes the cos and sin tables [seqLen, rotaryDim/2] into the given arrays. */
export function ropeCacheJs({ cos, sin }, { seqLen, rotaryDim, base = 10000 }) {
  const frequencies = inverseFrequencies(rotaryDim, base);
  const half = frequencies.length;
  for (let p = 0; p < seqLen; p++) {
    for (let i = 0; i < half; i++) {
      const angle = p * frequencies[i];
      cos[p * half + i] = Math.cos(angle);
      sin[p * half + i] = Math.sin(angle);
    }
  }
  return { cos, sin };
}

/** ropeCacheJs into 16-bit patterns (Uint16Arrays), each value rounded once by narrow. */
export function ropeCacheBitsJs({ cos, sin }, { seqLen, rotaryDim, base = 10000 }, narrow) {
  const frequencies = inverseFrequencies(rotaryDim, base);
  const half = frequencies.length;
  for (let p = 0; p < seqLen; p++) {
    for (let i = 0; i < half; i++) {
      const angle = p * frequencies[i];
      cos[p * half + i] = narrow(Math.cos(angle));
      sin[p * half + i] = narrow(Math.sin(angle));
    }
  }
  return { cos, sin };
}

/** out[r, c] = dot(a[r], b[c]) for a [rows, dim], b [cols, dim]. */
export function similarityDotJs(out, a, b, { rows, cols, dim }) {
  for (let r = 0; r < rows; r++) {
    const rowA = r * dim;
    for (let c = 0; c < cols; c++) {
      const rowB = c * dim;
      let dot = 0;
      for (let k = 0; k < dim; k++) dot += a[rowA + k] * b[rowB + k];
      out[r * cols + c] = dot;
    }
  }
  return out;
}

/** ALiBi bias [numHeads, queryLen, keyLen]: slope · (j − (offset + i)) per element, in plain JS. */
export function alibiBiasJs(out, slopes, { numHeads, queryLen, keyLen, offset = keyLen - queryLen }) {
  for (let h = 0; h < numHeads; h++) {
    const slope = slopes[h];
    for (let i = 0; i < queryLen; i++) {
      const row = (h * queryLen + i) * keyLen;
      const start = -(offset + i);
      for (let j = 0; j < keyLen; j++) out[row + j] = slope * (start + j);
    }
  }
  return out;
}
/**
 * T5's relative position buckets in plain JS: transformers' float32 expression per element,
 * float32 steps by Math.fround (out [queryLen, keyLen], bucket of j - (offset + i)).
 */
export function relativePositionBucketsJs(
  out,
  { queryLen, keyLen, numBuckets = 32, maxDistance = 128, bidirectional = true, offset = 0 },
) {
  const half = bidirectional ? Math.floor(numBuckets / 2) : numBuckets;
  const maxExact = Math.floor(half / 2);
  const divisor = Math.fround(Math.log(maxDistance / maxExact));
  const span = half - maxExact;
  for (let i = 0; i < queryLen; i++) {
    for (let j = 0; j < keyLen; j++) {
      const n = j - (offset + i);
      let bucket = bidirectional && n > 0 ? half : 0;
      const d = bidirectional ? Math.abs(n) : Math.max(-n, 0);
      if (d < maxExact) bucket += d;
      else {
        const scaled = Math.fround(Math.fround(Math.fround(Math.log(Math.fround(d / maxExact))) / divisor) * span);
        bucket += Math.min(maxExact + Math.trunc(scaled), half - 1);
      }
      out[i * keyLen + j] = bucket;
    }
  }
  return out;
}
