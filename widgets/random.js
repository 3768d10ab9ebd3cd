// The one seeded pseudo-random generator of the project: the page's stand-in token vectors, the
// tests' data and the benchmarks' inputs all come from it, so a seed means the same numbers
// everywhere.

/** mulberry32: a small, fast, well-mixed 32-bit generator. Returns floats in [0, 1). */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `length` standard normal values (Box-Muller) as a Float32Array, times `scale`. */
export function randomNormal(length, seed, scale = 1) {
  const uniform = seededRandom(seed);
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    const radius = Math.sqrt(-2 * Math.log(1 - uniform()));
    out[i] = scale * radius * Math.cos(2 * Math.PI * uniform());
  }
  return out;
}

/** `length` values uniform in [-scale, scale) as a Float32Array. */
export function randomUniform(length, seed, scale = 1) {
  const uniform = seededRandom(seed);
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = (2 * uniform() - 1) * scale;
  return out;
}

/** `count` random integers in [0, max] (unsorted, repeats possible). */
export function randomIntegers(count, max, seed) {
  const uniform = seededRandom(seed);
  return Array.from({ length: count }, () => Math.floor(uniform() * (max + 1)));
}
