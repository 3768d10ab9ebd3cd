// What the training script measured (web/models/training-log.json, passed in: this module stays
// plain JavaScript that Node imports too): each model's accuracy at each evaluation length, and
// the prose that quotes it. An element marked data-accuracy="ENCODING LENGTH" gets that model's
// logged accuracy at that length as its text, so no measured number is typed into a page.
import { formatFixed } from '../../../widgets/format.js';

/** Accuracy as a percentage with one decimal: "99.4%". */
export const percent = ({ correct, total }) => `${formatFixed((100 * correct) / total, 1)}%`;

/** { correct, total } the training script counted for the model of `encoding` at `length`. */
export function loggedAccuracy(log, encoding, length) {
  const counts = log.models[encoding]?.accuracy[String(length)];
  if (!counts) throw new RangeError(`training log: no accuracy of ${JSON.stringify(encoding)} at length ${length}`);
  const [correct, total] = counts;
  return { correct, total };
}

/** Writes the logged accuracy into every [data-accuracy] element under `root`. */
export function fillLoggedAccuracies(root, log) {
  for (const element of root.querySelectorAll('[data-accuracy]')) {
    const [encoding, length] = element.dataset.accuracy.split(' ');
    element.textContent = percent(loggedAccuracy(log, encoding, Number(length)));
  }
}
