// Accuracy against sequence length, measured: the seeded evaluation sequences of one length run
// through the forward pass, the argmax at every position with an answer compared with it.
import { forward } from './forward.js';
import { evalSeed, lagTargets, randomTokens } from './task.js';

/** The first index of the largest of `logits[row · vocab …]`. */
function argmaxRow(logits, row, vocab) {
  let best = 0;
  for (let c = 1; c < vocab; c++) if (logits[row * vocab + c] > logits[row * vocab + best]) best = c;
  return best;
}

/** The predicted token at every position of one forward pass. */
export function predictions(result, vocab) {
  return Int32Array.from({ length: result.logits.length / vocab }, (_, t) => argmaxRow(result.logits, t, vocab));
}

/** Positions from `from` on (at least `lag`: the first with an answer) that `predicted` gets right, and how many. */
export function score(tokens, predicted, lag, from = lag) {
  const targets = lagTargets(tokens, lag);
  const first = Math.max(lag, from);
  let correct = 0;
  for (let t = first; t < tokens.length; t++) if (predicted[t] === targets[t]) correct++;
  return { correct, total: Math.max(0, tokens.length - first) };
}

/** { correct, total } over the `count` evaluation sequences of `length` (seed base `seed`). */
export function accuracyAt(posenc, model, length, { count, seed }) {
  let correct = 0;
  let total = 0;
  for (let index = 0; index < count; index++) {
    const tokens = randomTokens(length, evalSeed(seed, length, index), model.vocab);
    const result = score(tokens, predictions(forward(posenc, model, tokens), model.vocab), model.lag);
    correct += result.correct;
    total += result.total;
  }
  return { correct, total };
}
