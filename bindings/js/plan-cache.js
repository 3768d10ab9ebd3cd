// The core's rope plans that rope() and ropeQK() made lately, kept for the next call with the
// same options: a decoding loop that calls rope() token by token (without reading about
// ropePlan) would otherwise make the same plan, its frequencies and scaling schedule included,
// at every step.
//
// A plan is found by what determines it and nothing else: the slots of the ropePlanCreate frame
// that the call's snapshot filled (validated numbers, the caller's object never consulted) and
// the lists it names (longrope's factors), compared bit for bit (so -0 is not 0 and NaN is
// itself). Only plans whose creation succeeded are kept, so a refused call leaves nothing behind.
// The cache is small and least recently used plans are freed first.

/** How many plans one instance keeps: a few models' or layers' configurations. */
export const PLAN_CACHE_CAPACITY = 16;

/** The bits of a float64 array as int32 words (a new view over the same memory). */
const wordsOf = (values) => new Int32Array(values.buffer, values.byteOffset, values.length * 2);

function sameWords(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A frame's list entries as [slot, words of a copy] (their values, not the caller's arrays). */
function listsOf(frame) {
  const lists = [];
  for (const entry of frame.entries)
    if (entry.list) lists.push({ at: entry.at, words: wordsOf(Float64Array.from(entry.list)) });
  return lists;
}

function sameLists(lists, frame) {
  let n = 0;
  for (const entry of frame.entries) {
    if (!entry.list) continue;
    const kept = lists[n++];
    if (kept === undefined || kept.at !== entry.at || !sameWords(kept.words, wordsOf(entry.list))) return false;
  }
  return n === lists.length;
}

class CachedPlan {
  words; // the frame's slots, bit for bit
  lists;
  made; // { handle, rotaryDim, attentionFactor, carryLength }

  constructor(words, lists, made) {
    this.words = words;
    this.lists = lists;
    this.made = made;
  }
}

export class PlanCache {
  #entries = []; // most recently used first
  #capacity;
  #free; // (handle) => void: releases a plan of the core

  constructor(free, capacity = PLAN_CACHE_CAPACITY) {
    this.#free = free;
    this.#capacity = capacity;
  }

  get size() {
    return this.#entries.length;
  }

  /**
   * The plan of a filled ropePlanCreate frame: a kept one, or `create(frame)`'s (which runs the
   * frame and throws on a refused call; then nothing is kept).
   */
  planOf(frame, create) {
    const words = wordsOf(frame.values);
    const entries = this.#entries;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i];
      if (!sameWords(entry.words, words) || !sameLists(entry.lists, frame)) continue;
      if (i > 0) {
        entries.copyWithin(1, 0, i);
        entries[0] = entry;
      }
      return entry.made;
    }
    const kept = new CachedPlan(words.slice(), listsOf(frame), null); // before the frame runs
    kept.made = create(frame);
    if (entries.length === this.#capacity) this.#free(entries.pop().made.handle);
    entries.unshift(kept);
    return kept.made;
  }

  /** Frees every kept plan. */
  clear() {
    for (const entry of this.#entries.splice(0)) this.#free(entry.made.handle);
  }
}
