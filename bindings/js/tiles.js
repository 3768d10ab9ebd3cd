// Calls on JS-owned arrays, a tile at a time. A JS array is copied into WASM memory, computed
// there and copied back; whole, that needs scratch memory the size of the arrays (and WASM memory
// never shrinks) and crosses main memory three times. A tile of it stays in cache from its copy
// in to its copy out, and the scratch is one tile whatever the call's size.
//
// An operation says how it splits (tilings.js): along one axis of `units` (rows of a table,
// queries, heads), `unitBytes` of scratch a unit, and how to fill its operands for units
// [first, first + count). The whole call is checked first, by the core, in one crossing that
// stops at a length check before any data is read; only then is a returned array allocated (in
// JS) and the first tile written, so a bad call writes nothing. The tiles are sub-calls that give
// the bits of the one call (tilings.js says why for each operation).
import { arrayType, storageType } from './dtype.js';
import { typedArrayKind, typedArrayParts } from './intrinsics.js';
import { Argument } from './memory.js';

/**
 * A window of `argument`: `length` elements from element `start`, or `runs` such runs, each
 * `stride` elements after the one before (gathered in order into one scratch array). A window of
 * an array in WASM memory is an address; it is one run.
 */
export function windowOf(argument, start, length, runs = 1, stride = 0) {
  const { Type, name, kind, dtype } = argument;
  const bytes = Type.BYTES_PER_ELEMENT;
  if (argument.address !== undefined) {
    if (runs !== 1) throw new TypeError('posenc: internal error: a window of WASM memory is one run');
    return new Argument(
      name,
      argument.array,
      length,
      argument.address + start * bytes,
      null,
      undefined,
      undefined,
      Type,
      kind,
      dtype,
    );
  }
  const at = argument.byteOffset + start * bytes;
  if (runs === 1) {
    const data = new Type(argument.buffer, at, length);
    return new Argument(name, data, length, undefined, null, argument.buffer, at, Type, kind, dtype);
  }
  const pieces = [];
  for (let run = 0; run < runs; run++) pieces.push(new Type(argument.buffer, at + run * stride * bytes, length));
  const window = new Argument(name, pieces, length * runs, undefined, null, argument.buffer, at, Type, kind, dtype);
  window.pieces = pieces;
  return window;
}

/** windowOf, giving one window object for the same request within a tile (an array in place: one scratch copy). */
function tileWindows() {
  let last = null;
  return (argument, start, length, runs = 1, stride = 0) => {
    if (
      last !== null &&
      last.argument === argument &&
      last.start === start &&
      last.length === length &&
      last.runs === runs &&
      last.stride === stride
    )
      return last.window;
    last = { argument, start, length, runs, stride, window: windowOf(argument, start, length, runs, stride) };
    return last.window;
  };
}

/**
 * Zeroes `doubles` doubles of a carry at `address`: no piece before the next tile (element
 * stores: no typed-array method a caller may have replaced runs mid-call).
 */
export function zeroCarry(memory, address, doubles) {
  const carry = new Float64Array(memory.buffer, address, doubles);
  for (let i = 0; i < doubles; i++) carry[i] = 0;
}

/** The whole call's arrays as the checking call gives them: by length only. */
const whole = (argument) => argument;

/** A returned output of `length` elements ({ name, dtype, Type: for int32 }), made in JS, as a JS-owned argument. */
function madeOutput(memory, fn, output, length) {
  const Type = output.Type ?? arrayType(output.dtype);
  let array;
  try {
    array = new Type(length);
  } catch {
    throw memory.outOfMemory(fn, length * Type.BYTES_PER_ELEMENT);
  }
  const { buffer } = typedArrayParts(array);
  const storage = output.Type ?? storageType(output.dtype);
  return new Argument(
    output.name,
    array,
    length,
    undefined,
    null,
    buffer,
    0,
    storage,
    typedArrayKind(array),
    output.dtype,
  );
}

/** A tile's bytes: the machine's, or the tiling's least where each tile costs more to set up (tables). */
const tileBytesOf = (memory, tiling) => Math.max(memory.tileBytes, tiling.minTileBytes ?? 0);

/**
 * Whether `tiling`'s call goes tile by tile: one of its arrays is JS-owned (an output not given
 * is made in JS) and the call is larger than one tile. A smaller call crosses once.
 */
function isTiled(memory, tiling, args) {
  if (tiling.units * tiling.unitBytes <= tileBytesOf(memory, tiling)) return false; // (also false for NaN)
  const jsOwned = tiling.slots.some((slot) => {
    const argument = args[slot];
    return argument === undefined
      ? (tiling.outputs ?? []).some((o) => o.slot === slot)
      : argument.address === undefined;
  });
  return jsOwned;
}

/**
 * Runs the call `tiling` describes on `args` (the classified arguments by slot; an output not
 * given undefined): tile by tile, or in one crossing when it fits one tile or all its arrays are
 * in WASM memory. Returns { output(slot): the array of an output slot, result(slot): a slot the
 * call wrote back }.
 */
export function runCall(memory, tiling, args, context) {
  if (isTiled(memory, tiling, args)) {
    // errors quote the arguments as given, not the outputs made along the way
    const result = runTiled(memory, tiling, args, { ...context, args: { ...args } });
    return { output: (slot) => args[slot].array, result };
  }
  const operands = memory.operands(tiling.operation);
  tiling.fill(operands, 0, tiling.units, whole);
  memory.run(operands, context);
  return {
    output: (slot) => (args[slot] ? args[slot].array : operands.output(slot)),
    result: (slot) => operands.result(slot),
  };
}

/**
 * The tiles' [first, count]: `limit` units each (the last shorter), or the tiling's own cuts
 * (tiles that must start where the core starts a new run of rows).
 */
function* cutsOf(tiling, limit) {
  if (tiling.cuts) {
    yield* tiling.cuts(limit);
    return;
  }
  for (let first = 0; first < tiling.units; first += limit) yield [first, Math.min(limit, tiling.units - first)];
}

/**
 * Checks the whole call in one crossing: every JS-owned array given by its length at an address
 * whose data is never read, and the slot `tiling.checkedLast` (the one the core checks last)
 * and the outputs to be made empty, so the core stops at the first of those length checks (or
 * computes nothing, when it wants no elements). Returns the length that slot wants (every made
 * output has it), or throws the call's error.
 */
function checkWhole(memory, tiling, args, context, made) {
  const operands = memory.operands(tiling.operation);
  tiling.fill(operands, 0, tiling.units, whole);
  const emptiedSlots = [tiling.checkedLast, ...made.map((output) => output.slot)];
  const emptied = emptiedSlots.map((slot) => operands.index.get(slot));
  for (const entry of operands.entries) {
    const { argument } = entry;
    const empty = emptied.includes(entry.at);
    if (!argument || (argument.address !== undefined && !empty)) continue;
    entry.argument = new Argument(argument.name, null, empty ? 0 : argument.length, memory.probeAddress, null);
  }
  const status = memory.runStatus(operands, context);
  const results = new Float64Array(operands.results);
  const slotResult = (slot) => results[operands.index.get(slot)];
  if (status === 0) return { wanted: 0, slotResult };
  const slot = emptiedSlots.find((name) => memory.statusName(status) === `${name}Length`);
  if (slot === undefined) throw memory.statusError(operands, context, status);
  const wanted = slotResult('expectedLength');
  const given = made.some((output) => output.slot === slot) ? undefined : args[slot];
  if (given !== undefined && given.length !== wanted) throw memory.statusError(operands, context, status);
  return { wanted, slotResult };
}

/**
 * Runs `tiling`'s call on `args` (the classified arguments by slot; an output not given is
 * undefined, and `tiling.outputs` says how to make it: { slot, Type, kind, dtype }) tile by tile.
 * Returns `result(slot)`, a slot the call wrote back; made outputs are in `args`.
 */
export function runTiled(memory, tiling, args, context) {
  const made = (tiling.outputs ?? []).filter((output) => args[output.slot] === undefined);
  for (const output of made) args[output.slot] = madeOutput(memory, context.fn, output, 0); // for the check
  const { wanted, slotResult } = tiling.check ? tiling.check() : checkWhole(memory, tiling, args, context, made);
  for (const output of made) if (wanted > 0) args[output.slot] = madeOutput(memory, context.fn, output, wanted);
  if (wanted === 0 && !tiling.check) return slotResult;
  const limit = Math.max(1, Math.floor(tileBytesOf(memory, tiling) / tiling.unitBytes));
  // The recurrence's state between the tiles of one sequence (tilings.js), when the tiling has one.
  const carry = tiling.carryDoubles ? memory.malloc(context.fn, tiling.carryDoubles * 8) : 0;
  try {
    let operands;
    for (const [first, count] of cutsOf(tiling, limit)) {
      operands = memory.operands(tiling.operation);
      tiling.fill(operands, first, count, tileWindows(), carry);
      memory.run(operands, context);
    }
    return (slot) => operands.result(slot); // the last tile's (a value of the whole call, such as an attention factor)
  } finally {
    if (carry) memory.free(carry);
  }
}
