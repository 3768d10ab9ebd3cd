// Float64 references for the correctness check every case runs before it is timed, written
// from the formulas (not from posenc's sources) with the precision contract of the
// core-library issue as the tolerance. Each check returns
//   { ok, worst: largest error / allowed error, maxAbsError }
// so a report can say how close to the bound a result is, not only whether it passed.

const FLOAT32_HALF_ULP = 2 ** -24; // relative rounding error of one float32 rounding
const SINUSOID_BOUND = 2.5e-7; // |value - float64 value|, positions < 2^24, dModel <= 8192
const ROPE_BOUND = 5e-7; // |component - float64 component| / (|x_a| + |x_b|)

/** inv_freq[i] = 1 / base^(2i / dim), i < dim/2, in float64. */
export function inverseFrequencies(dim, base = 10000) {
  const frequencies = new Float64Array(dim / 2);
  for (let i = 0; i < frequencies.length; i++) frequencies[i] = 1 / Math.pow(base, (2 * i) / dim);
  return frequencies;
}

function positionAt(row, offset, positions) {
  return positions ? positions[row] : offset + row;
}

/** Accumulates the worst error/bound ratio of a result. */
class ErrorTally {
  worst = 0;
  maxAbsError = 0;

  add(got, expected, bound) {
    const error = Math.abs(got - expected);
    if (!(error <= this.maxAbsError)) this.maxAbsError = Number.isNaN(error) ? Infinity : error;
    const ratio = bound > 0 ? error / bound : (error === 0 ? 0 : Infinity);
    if (!(ratio <= this.worst)) this.worst = Number.isNaN(ratio) ? Infinity : ratio;
  }

  result() {
    return { ok: this.worst <= 1, worst: this.worst, maxAbsError: this.maxAbsError };
  }
}

/**
 * Checks rotated x ([seqLen, numHeads, headDim]) against the float64 rotation of x0: each
 * rotated component within 5e-7 (|x_a| + |x_b|) of its pair's float64 result; channels at
 * or beyond rotaryDim passed through unchanged.
 */
export function checkRope(got, x0, { seqLen, numHeads = 1, headDim, rotaryDim = headDim, layout = 'interleaved', base = 10000, offset = 0, positions }) {
  const half = rotaryDim / 2;
  const frequencies = inverseFrequencies(rotaryDim, base);
  const tally = new ErrorTally();
  const cos = new Float64Array(half);
  const sin = new Float64Array(half);
  for (let row = 0; row < seqLen; row++) {
    const position = positionAt(row, offset, positions);
    for (let i = 0; i < half; i++) {
      cos[i] = Math.cos(position * frequencies[i]);
      sin[i] = Math.sin(position * frequencies[i]);
    }
    for (let head = 0; head < numHeads; head++) {
      const start = (row * numHeads + head) * headDim;
      for (let i = 0; i < half; i++) {
        const a = start + (layout === 'interleaved' ? 2 * i : i);
        const b = layout === 'interleaved' ? a + 1 : a + half;
        const xa = x0[a];
        const xb = x0[b];
        const bound = ROPE_BOUND * (Math.abs(xa) + Math.abs(xb));
        tally.add(got[a], xa * cos[i] - xb * sin[i], bound);
        tally.add(got[b], xa * sin[i] + xb * cos[i], bound);
      }
      for (let c = rotaryDim; c < headDim; c++) tally.add(got[start + c], x0[start + c], 0);
    }
  }
  return tally.result();
}

/** The float64 sinusoidal table [seqLen, dModel], interleaved (sin at 2i, cos at 2i+1). */
export function sinusoidalTable({ seqLen, dModel, base = 10000, offset = 0, positions }) {
  const frequencies = inverseFrequencies(dModel, base);
  const table = new Float64Array(seqLen * dModel);
  for (let row = 0; row < seqLen; row++) {
    const position = positionAt(row, offset, positions);
    for (let i = 0; i < frequencies.length; i++) {
      table[row * dModel + 2 * i] = Math.sin(position * frequencies[i]);
      table[row * dModel + 2 * i + 1] = Math.cos(position * frequencies[i]);
    }
  }
  return table;
}

/** Every value within 2.5e-7 of the float64 table. */
export function checkSinusoidal(got, table) {
  const tally = new ErrorTally();
  for (let i = 0; i < table.length; i++) tally.add(got[i], table[i], SINUSOID_BOUND);
  return tally.result();
}

/** x0 + table, where the table may be off by its bound and the sum by one float32 rounding. */
export function checkAddSinusoidal(got, x0, table) {
  const tally = new ErrorTally();
  for (let i = 0; i < table.length; i++) {
    const expected = x0[i] + table[i];
    tally.add(got[i], expected, SINUSOID_BOUND + FLOAT32_HALF_ULP * Math.abs(expected));
  }
  return tally.result();
}

/** cos and sin [seqLen, rotaryDim/2] of position * inv_freq, each within 2.5e-7. */
export function checkRopeCache({ cos, sin }, { seqLen, rotaryDim, base = 10000, offset = 0, positions }) {
  const frequencies = inverseFrequencies(rotaryDim, base);
  const half = rotaryDim / 2;
  const tally = new ErrorTally();
  for (let row = 0; row < seqLen; row++) {
    const position = positionAt(row, offset, positions);
    for (let i = 0; i < half; i++) {
      tally.add(cos[row * half + i], Math.cos(position * frequencies[i]), SINUSOID_BOUND);
      tally.add(sin[row * half + i], Math.sin(position * frequencies[i]), SINUSOID_BOUND);
    }
  }
  return tally.result();
}

/**
 * Dot products of the rows of a [rows, dim] and b [cols, dim]. No contract bounds them, so
 * the bound is the worst case of float32 summation in any order:
 * (dim + 1) * 2^-24 * sum_k |a_k b_k|.
 */
export function checkSimilarityDot(got, a, b, { rows, cols, dim }) {
  const tally = new ErrorTally();
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      let dot = 0;
      let magnitude = 0;
      for (let k = 0; k < dim; k++) {
        const product = a[r * dim + k] * b[c * dim + k];
        dot += product;
        magnitude += Math.abs(product);
      }
      tally.add(got[r * cols + c], dot, (dim + 1) * FLOAT32_HALF_ULP * magnitude);
    }
  }
  return tally.result();
}
