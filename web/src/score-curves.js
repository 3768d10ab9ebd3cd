// The RoPE score of a fixed query q and key k at every distance, for the long-context section:
// ahead[d] = rot(q, d) · rot(k, 0) and behind[d] = rot(q, 0) · rot(k, d). With fixed q and k the
// score depends on m − n only, so these two curves are the whole score matrix, and its block
// means need every distance (half a million at 16 × L0, a third of a second of posenc calls).
//
// The curves are kept across redraws. A curve depends on q, k and the rotation's schedule at
// the sequence's length; a schedule that the length does not change (no scaling, linear, llama3,
// yarn) gives a longer sequence the same scores at the distances already computed, so a change
// of span or cells only extends a curve or reuses it. Length-dependent schedules (dynamic,
// longrope) key a new curve whenever their frequencies or attention factor move.
import { tile } from '../../widgets/vectors.js';

const CHUNK = 4096; // positions per posenc.ropeQK call: about 10 ms, several steps per animation frame
const KEPT = 4; // curves kept: both panels of the current and the previous settings

/**
 * A cache of score curves over posenc. A curve's spec: { q, k, contentKey, headDim, base,
 * layout, scaling? } where contentKey names q and k (equal keys, equal vectors).
 */
export function createScoreCurves(posenc) {
  const kept = new Map(); // identity → { ahead, behind, done, atZero }
  let tiled = null; // { contentKey, rows, q, k }: q and k tiled, shared by every call on one content

  /** What the scores at length `length` depend on: the content and the schedule posenc derives. */
  function identity(spec, length) {
    const { invFreq, attentionFactor } = posenc.ropeSchedule({
      rotaryDim: spec.headDim,
      base: spec.base,
      seqLen: length,
      ...(spec.scaling ? { scaling: spec.scaling } : {}),
    });
    return `${spec.contentKey}|${spec.layout}|${attentionFactor}|${Array.from(invFreq).join(',')}`;
  }

  function tiledRows(spec, rows) {
    if (tiled?.contentKey !== spec.contentKey || tiled.rows < rows)
      tiled = { contentKey: spec.contentKey, rows, q: tile(spec.q, rows), k: tile(spec.k, rows) };
    return tiled;
  }

  /**
   * Scores at `distances` (ascending) of a sequence of `length` positions, in one ropeQK call
   * whose positions end with length − 1: its largest position + 1 is `length`, the length
   * dynamic and longrope go by, as in one call over the whole sequence. `atZero` holds rot(q, 0)
   * and rot(k, 0), or is null when distances[0] is 0 (they are taken from there). Returns
   * { ahead, behind, atZero }.
   */
  function scoresAt(spec, length, distances, atZero) {
    const { headDim, base, layout, scaling } = spec;
    const count = distances.length;
    const size = (count + 1) * headDim;
    const source = tiledRows(spec, count + 1);
    // With k = q the key rotates as the query does: one rotation, and behind[d] = ahead[d].
    const same = spec.k === spec.q;
    // q and k copied into posenc's memory and rotated there.
    const work = { q: posenc.allocate(size), k: same ? null : posenc.allocate(size) };
    try {
      work.q.set(source.q.subarray(0, size));
      work.k?.set(source.k.subarray(0, size));
      const positions = Int32Array.from({ length: count + 1 }, (_, i) => (i < count ? distances[i] : length - 1));
      const rotation = { headDim, base, layout, ...(scaling ? { scaling } : {}), seqLen: count + 1, positions };
      if (same)
        posenc.rope(work.q, rotation); // in place
      else posenc.ropeQK(work.q, work.k, rotation);
      const rotatedK = work.k ?? work.q;
      const zero = atZero ?? { q: work.q.subarray(0, headDim).toArray(), k: rotatedK.subarray(0, headDim).toArray() };
      const column = (a, b) =>
        posenc.similarity(a.subarray(0, count * headDim), b, { rows: count, cols: 1, dim: headDim });
      const ahead = column(work.q, zero.k);
      return { ahead, behind: same ? ahead : column(rotatedK, zero.q), atZero: zero };
    } finally {
      work.q.free();
      work.k?.free();
    }
  }

  /** Distances 0 … length − 1 of the spec's curve that are already known (0 for a new curve). */
  function known(spec, length) {
    const curve = kept.get(identity(spec, length));
    return curve ? Math.min(curve.done, length) : 0;
  }

  /**
   * Steps (a generator) bringing the spec's curve to every distance below `length`, one ropeQK
   * call of at most CHUNK positions per step; returns { ahead, behind } of exactly `length`
   * scores (views of the kept curve).
   */
  function* exactSteps(spec, length) {
    const id = identity(spec, length);
    let curve = kept.get(id);
    kept.delete(id);
    curve ??= { ahead: new Float32Array(0), behind: new Float32Array(0), done: 0, atZero: null };
    kept.set(id, curve); // most recently used last
    while (kept.size > KEPT) kept.delete(kept.keys().next().value);
    if (curve.ahead.length < length) {
      const grown = { ahead: new Float32Array(length), behind: new Float32Array(length) };
      grown.ahead.set(curve.ahead.subarray(0, curve.done));
      grown.behind.set(curve.behind.subarray(0, curve.done));
      Object.assign(curve, grown);
    }
    while (curve.done < length) {
      const start = curve.done;
      const count = Math.min(CHUNK, length - start);
      const part = scoresAt(
        spec,
        length,
        Int32Array.from({ length: count }, (_, i) => start + i),
        curve.atZero,
      );
      curve.atZero = part.atZero;
      curve.ahead.set(part.ahead, start);
      curve.behind.set(part.behind, start);
      curve.done = start + count; // a redraw dropped between steps leaves what it finished
      if (curve.done < length) yield;
    }
    return { ahead: curve.ahead.subarray(0, length), behind: curve.behind.subarray(0, length) };
  }

  /**
   * The scores at distances 0, step, 2·step, … below `length` only, in one call: { ahead,
   * behind } with the score at distance j · step at index j.
   */
  function sampled(spec, length, step) {
    const count = Math.ceil(length / step);
    const distances = Int32Array.from({ length: count }, (_, j) => j * step);
    const { ahead, behind } = scoresAt(spec, length, distances, null);
    return { ahead, behind };
  }

  return { known, exactSteps, sampled };
}
