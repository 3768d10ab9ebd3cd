// The core's rope plans that rope() and ropeQK() made lately, kept for the next call with the
// same options: a decoding loop that calls rope() token by token (without reading about
// ropePlan) would otherwise make the same plan, its frequencies and scaling schedule included,
// at every step.
//
// A plan is found by what determines it and nothing else: the slots of the ropePlanCreate operands
// that the call's snapshot filled (validated numbers, the caller's object never consulted) and
// the lists it names (longrope's factors), compared bit for bit (-0 is not 0; a NaN matches
// nothing). Only plans whose creation succeeded are kept, so a refused call leaves nothing behind.
// The cache is small and least recently used plans are freed first.
import { copyInto } from './intrinsics.js';

/** How many plans one instance keeps: a few models' or layers' configurations. */
export const PLAN_CACHE_CAPACITY = 16;

/**
 * Whether two float64 arrays hold the same bits: equal numbers, with -0 told from 0. A NaN
 * equals nothing (such a plan is made again, if the core takes it at all).
 */
function sameValues(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    if (x !== b[i] || (x === 0 && 1 / x !== 1 / b[i])) return false;
  }
  return true;
}

/** A copy of a float64 array by the built-in set (no species or iterator a caller could patch runs). */
function copyOf(values) {
  const copy = new Float64Array(values.length);
  copyInto(copy, values);
  return copy;
}

/** The list entries of operands as { at, values }: copies of their values, not the caller's arrays. */
function listsOf(operands) {
  const lists = [];
  for (const entry of operands.entries) if (entry.list) lists.push({ at: entry.at, values: copyOf(entry.list) });
  return lists;
}

function sameLists(lists, operands) {
  let n = 0;
  for (const entry of operands.entries) {
    if (!entry.list) continue;
    const kept = lists[n++];
    if (kept === undefined || kept.at !== entry.at || !sameValues(kept.values, entry.list)) return false;
  }
  return n === lists.length;
}

class CachedPlan {
  values; // a copy of the operands' slots
  lists;
  made; // { handle, rotaryDim, attentionFactor, carryLength }

  constructor(values, lists, made) {
    this.values = values;
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
   * The plan of filled ropePlanCreate operands: a kept one, or `create(operands)`'s (which runs the
   * operands and throws on a refused call; then nothing is kept).
   */
  planOf(operands, create) {
    const { values } = operands;
    const entries = this.#entries;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i];
      if (!sameValues(entry.values, values) || !sameLists(entry.lists, operands)) continue;
      if (i > 0) {
        entries.copyWithin(1, 0, i);
        entries[0] = entry;
      }
      return entry.made;
    }
    const kept = new CachedPlan(copyOf(values), listsOf(operands), null); // before the operands run
    kept.made = create(operands);
    if (entries.length === this.#capacity) this.#free(entries.pop().made.handle);
    entries.unshift(kept);
    return kept.made;
  }

  /** Frees every kept plan. */
  clear() {
    for (const entry of this.#entries.splice(0)) this.#free(entry.made.handle);
  }
}
