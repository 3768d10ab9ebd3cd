// Deterministic stand-ins for learned token embeddings: seeded pseudo-random vectors, so the
// same seed or word always gives the same vector (the permalink stores only the seed).
import { randomNormal } from './random.js';

/** A [rows, cols] Float32Array of N(0, scale^2) samples from `seed`. */
export function randomMatrix(seed, rows, cols, scale = 1) {
  return randomNormal(rows * cols, seed, scale);
}

// The key vector of a random query/key pair comes from its own seed, far from the query's.
const KEY_SEED_OFFSET = 1000003;

/** One random query and one random key vector of `dim` channels, both from `seed`. */
export function randomQueryKey(seed, dim) {
  return { q: randomMatrix(seed, 1, dim), k: randomMatrix(seed + KEY_SEED_OFFSET, 1, dim) };
}

/** FNV-1a hash of a string, as an unsigned 32-bit seed. */
export function hashString(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The fixed embedding of a word: the same word always gets the same vector. */
export function wordEmbedding(word, dim, scale = 1) {
  return randomMatrix(hashString(word), 1, dim, scale);
}

/** Lower-case words of a sentence (punctuation dropped), at most `maxTokens` of them. */
export function tokenize(text, maxTokens) {
  return (text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []).slice(0, maxTokens);
}
