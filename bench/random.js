// Deterministic pseudo-random inputs, so every run (and every environment) benchmarks and
// checks the same numbers. mulberry32: tiny, fast, good enough for test data.
export function randomFloat32(length, seed, scale = 1) {
  const values = new Float32Array(length);
  let state = seed >>> 0;
  for (let i = 0; i < length; i++) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const unit = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    values[i] = (2 * unit - 1) * scale;
  }
  return values;
}
