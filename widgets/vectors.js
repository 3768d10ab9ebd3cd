// Small array helpers for arranging inputs and summarising outputs of posenc calls.
// (posenc computes the encodings, rotations and dot products; these only copy and compare.)

/** `rows` copies of `vector`, as a row-major [rows, vector.length] array of `Type` (Float32Array). */
export function tile(vector, rows, Type = Float32Array) {
  const out = new Type(rows * vector.length);
  if (out.length === 0) return out;
  out.set(vector);
  // Doubling copies: log2(rows) memmoves instead of one set() call per row (half a second for
  // the 524 288 rows of §10's longest view).
  for (let filled = vector.length; filled < out.length; filled *= 2)
    out.copyWithin(filled, 0, Math.min(filled, out.length - filled));
  return out;
}

/** `values` repeated (or cut) to exactly `length` entries. */
export function cycleTo(values, length) {
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = values.length ? values[i % values.length] : 0;
  return out;
}

/** Euclidean norm of each row of a row-major [rows, dim] matrix. */
export function rowNorms(matrix, rows, dim) {
  const out = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let sum = 0;
    for (let c = 0; c < dim; c++) sum += matrix[r * dim + c] ** 2;
    out[r] = Math.sqrt(sum);
  }
  return out;
}

/** Largest |a[i] - b[i]|. */
export function maxAbsDifference(a, b) {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

/** Largest |a - b| in each row of two [rows, dim] tables, as a Float64Array of rows. */
export function rowMaxDifference(a, b, rows, dim) {
  const out = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let max = 0;
    for (let c = 0; c < dim; c++) max = Math.max(max, Math.abs(a[r * dim + c] - b[r * dim + c]));
    out[r] = max;
  }
  return out;
}

/** About `count` integers from 1 to max, evenly spaced on a log scale, without repeats (Int32Array). */
export function logSpacedPositions(count, max) {
  const set = new Set();
  for (let i = 0; i < count; i++) set.add(Math.round(10 ** ((i / (count - 1)) * Math.log10(max))));
  return Int32Array.from([...set].sort((a, b) => a - b));
}

/** Element-wise sum of two equally long arrays, as a new Float32Array. */
export function addArrays(a, b) {
  const out = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i] + b[i];
  return out;
}

/** 0, 1, ..., n - 1 as a Float64Array (x values for line plots). */
export function range(n, start = 0) {
  return Float64Array.from({ length: n }, (_, i) => start + i);
}

/** The rows `indices` of a row-major matrix of rows of `dim` numbers, as one Float32Array. */
export function pickRows(matrix, dim, indices) {
  const out = new Float32Array(indices.length * dim);
  for (let i = 0; i < indices.length; i++) out.set(matrix.subarray(indices[i] * dim, (indices[i] + 1) * dim), i * dim);
  return out;
}
