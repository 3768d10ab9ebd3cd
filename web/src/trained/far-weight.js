// How much of a head's attention goes far back: the measure behind "a late query spreads its
// weight over keys farther back than any in training".

/**
 * The mean, over queries `from` … length − 1, of the share of head `head`'s weight on keys
 * `distance` or more positions back; `attention` is one layer's [numHeads, length, length].
 */
export function farWeight(attention, length, head, { from, distance }) {
  if (!(from >= 0 && from < length)) throw new RangeError(`farWeight: from must be in [0, ${length}), got ${from}`);
  let sum = 0;
  for (let i = from; i < length; i++) {
    const row = (head * length + i) * length;
    for (let j = 0; j <= i - distance; j++) sum += attention[row + j];
  }
  return sum / (length - from);
}
