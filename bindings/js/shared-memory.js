// Where two arrays' bytes lie relative to each other, when they may be the same memory under two
// names. Views of one buffer compare by offsets. Two SharedArrayBuffer objects can be handles of
// one memory (structuredClone of a SharedArrayBuffer, and every postMessage round trip, makes a
// new object over the same bytes), and no property tells them apart from two memories: the only
// test is a write. posenc writes one byte of an array the call is about to write anyway (an
// output), reads it through the other handle, and puts the byte back, before anything else is
// written. Two arrays that are only read are never probed: sharing memory cannot change what
// the call computes from them.
import { isSharedArrayBuffer } from './intrinsics.js';

/** Whether the byte ranges [start, end) of regions a and b (each { key, start, end }) meet. */
const rangesMeet = (a, b) => a.start < b.end && b.start < a.end;

/**
 * Whether the regions of two arguments are one memory where their ranges meet: the same
 * buffer, or two handles of one shared memory, told by a probe of `written` (the region of
 * the two that the call writes; undefined when it writes neither).
 */
function oneMemory(a, b, written) {
  if (a.key === b.key) return true;
  if (written === undefined || !isSharedArrayBuffer(a.key) || !isSharedArrayBuffer(b.key)) return false;
  const other = written === a ? b : a;
  const at = Math.max(a.start, b.start); // a byte inside both ranges
  const mine = new Uint8Array(written.key, at, 1);
  const theirs = new Uint8Array(other.key, at, 1);
  const saved = mine[0];
  const seen = theirs[0];
  mine[0] = saved ^ 0xff;
  const shared = theirs[0] !== seen;
  mine[0] = saved;
  return shared;
}

/** Whether regions a and b share any byte (`written`: as oneMemory). */
export function regionsOverlap(a, b, written) {
  return rangesMeet(a, b) && oneMemory(a, b, written);
}

/** Whether regions a and b cover exactly the same bytes (`written`: as oneMemory). */
export function regionsCoincide(a, b, written) {
  return a.start === b.start && a.end === b.end && a.start < a.end && oneMemory(a, b, written);
}
