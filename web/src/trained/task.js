// The lag-copy task the trained models learnt: random tokens, and at position t the answer is
// the token at t − lag. The inputs come from the project's one seeded generator, so the page, the
// tests and scripts/train_models.py (which transcribes it) draw the same sequences.
import { seededRandom } from '../../../widgets/random.js';

/** `length` tokens in [0, vocab), each floor(u · vocab) of mulberry32 seeded with `seed`. */
export function randomTokens(length, seed, vocab) {
  if (!Number.isInteger(length) || length < 1) throw new RangeError(`length must be an integer >= 1, got ${length}`);
  const uniform = seededRandom(seed);
  return Int32Array.from({ length }, () => Math.floor(uniform() * vocab));
}

/** The seed of evaluation sequence `index` of length `length` (train_models.py's eval_seed). */
export function evalSeed(base, length, index) {
  return base * 100003 + length * 101 + index;
}

/** The answer at each position: the token `lag` back, or -1 where there is none (t < lag). */
export function lagTargets(tokens, lag) {
  return Int32Array.from(tokens, (_, t) => (t >= lag ? tokens[t - lag] : -1));
}

/** The letters that name tokens 0 … vocab − 1 on the page: a, b, c, … */
export function tokenLetters(vocab) {
  if (!Number.isInteger(vocab) || vocab < 1 || vocab > 26)
    throw new RangeError(`vocab must be 1 … 26 to be named by letters, got ${vocab}`);
  return 'abcdefghijklmnopqrstuvwxyz'.slice(0, vocab);
}
