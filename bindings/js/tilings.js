// How each operation's call splits into tiles (tiles.js), and why the tiles give the bits of the
// one call. A tiling is { operation, slots (its array arguments), units, unitBytes, fill(operands,
// first, count, window), checkedLast (the slot the core checks last), outputs, cuts }.
//
// - Tables (sinusoidal, addSinusoidal, ropeCache one sequence at a time) go by rows at any cut:
//   the core anchors a run of consecutive positions with direct sin/cos and steps by
//   recurrence, and a tile told its rows' positions and given the carry of the tile before
//   steps on from where that one stopped (table_pieces.h), as the one call does. ropeCache's
//   dynamic and longrope tiles are told the whole call's length, which sets their frequencies.
// - positionNumbers, relativePositionBuckets and alibiBias go by rows (queries) at any cut: each
//   value depends only on its own row's position, offset + row.
// - similarity goes by rows of a; convertLayout by heads: each output element reads only its
//   own row (and all of b), or its own head.
// - rope and ropeQK go through the core's plan in pieces with a carry (RopePlan::apply_piece):
//   the recurrence carries on from tile to tile, so any cut gives the bits of one call. In
//   'heads' order every head is a sequence of its own, through a plan of one head. xPos's
//   default center goes by the whole call's largest position, offsets or a positions list, and
//   every piece is told it, as are dynamic and longrope's frequencies (the core's piece takes the
//   call's length). A RopePlan's apply and applyQK go the same way. Rows the one call
//   would refuse (an offset past the largest position: one call; a row beyond xPos's reach: a
//   one-row probe first) are named before any piece is written.
// - ropeGrid goes by sequences of the batch, in 'heads' order by heads.
// - attentionScores goes by queries when the encoding adds nothing to the queries by position
//   (none, alibi, t5); with sinusoidal, rope and xpos by heads: each head's q and k are encoded
//   by the same rule at the same positions (xPos about one center, set by the rows alone), and
//   a head's scores read only its own q and k.
import { arrayType, elementBytes } from './dtype.js';
import { READ, READ_WRITE, WRITE } from './operands.js';
import { typedArrayParts } from './intrinsics.js';
import { Argument } from './memory.js';
import { runTiled, zeroCarry } from './tiles.js';
import {
  writeAttentionScores,
  writeRopeGrid,
  writeRotaryDim,
  writePositions,
  writeScaling,
  writeTable,
} from './specs.js';

const TABLE_PAIR_BLOCK = 128; // kTablePairBlock (table_pieces.h)
// A tile of a table computes its pairs' frequencies and one-row steps again (a pow and a sincos
// per pair: about 20 µs for 512 pairs), which 256 KiB tiles of a 1024-wide table pay every 64
// rows (a third more time in Chromium); 1 MiB tiles pay it every 256.
const TABLE_TILE_BYTES = 1024 * 1024;
const MAX_POSITION = 2 ** 31 - 1; // kMaxPosition (positions.h): a tile's offset must stay within it too

/** A call's output slot: the caller's array (a window of it), or one the call allocates (`Type`). */
function output(operands, slot, argument, Type, window, start, length, runs, stride) {
  if (argument === undefined) operands.allocate(slot, Type);
  else operands.data(slot, window(argument, start, length, runs, stride), WRITE);
}

/** Elements [first, first + count) of a private Int32Array list (no method of its prototype runs). */
function listWindow(list, first, count) {
  const { buffer, byteOffset } = typedArrayParts(list);
  return new Int32Array(buffer, byteOffset + first * 4, count);
}

/** A table tile's carry slots; at the first tile of a sequence the carry is zeroed first. */
function tableCarry(memory, operands, carry, firstOfSequence, doubles) {
  if (firstOfSequence) zeroCarry(memory, carry, doubles);
  operands.set('carry', carry).set('carryLength', doubles);
}

/** The position options of rows [first, first + count) of a sequence whose position options are `o`'s. */
function positionsOf(o, first, count) {
  if (o.positions !== undefined) return { positions: listWindow(o.positions, first, count), offset: undefined };
  return { positions: undefined, offset: (o.offset ?? 0) + first };
}

/** The doubles of a table's carry (table_carry_doubles in table_pieces.h): a block's state per 128 pairs. */
const tableCarryDoubles = (pairs) => Math.ceil(pairs / TABLE_PAIR_BLOCK) * (2 + 2 * TABLE_PAIR_BLOCK);

/**
 * sinusoidal (into `out`) and addSinusoidal (onto `x`, in place): [seqLen, dModel] by rows.
 * `dtypeIndex` is the dtype's enum value.
 */
export function tableTiling(memory, operation, fn, o, enums, dtype, args) {
  const slot = operation === 'sinusoidal' ? 'out' : 'x';
  const rowElements = o.dModel;
  return {
    operation,
    slots: [slot],
    units: o.seqLen,
    unitBytes: rowElements * elementBytes(dtype),
    checkedLast: slot,
    outputs: slot === 'out' ? [{ __proto__: null, slot, name: 'out', dtype }] : [],
    carryDoubles: tableCarryDoubles(o.dModel / 2),
    minTileBytes: TABLE_TILE_BYTES,
    fill(operands, first, count, window, carry) {
      writeTable(
        operands,
        fn,
        count === o.seqLen ? o : { ...o, seqLen: count, ...positionsOf(o, first, count) },
        enums,
      );
      operands.set('dtype', enums.dtype.indexOf(dtype));
      if (carry) tableCarry(memory, operands, carry, first === 0, this.carryDoubles);
      const start = first * rowElements;
      if (slot === 'x') operands.data('x', window(args.x, start, count * rowElements), READ_WRITE);
      else output(operands, 'out', args.out, arrayType(dtype), window, start, count * rowElements);
    },
  };
}

/** positionNumbers: [seqLen, dModel] by rows at any cut. */
export function positionNumbersTiling(o, enums, dtype, args) {
  return {
    __proto__: null, // optional fields read by tiles.js are absent, never inherited
    operation: 'positionNumbers',
    slots: ['out'],
    units: o.seqLen,
    unitBytes: o.dModel * elementBytes(dtype),
    checkedLast: 'out',
    outputs: [{ __proto__: null, slot: 'out', name: 'out', dtype }],
    fill(operands, first, count, window) {
      operands
        .set('seqLen', count)
        .set('dModel', o.dModel)
        .set('offset', o.offset + first)
        .set('dtype', enums.dtype.indexOf(dtype));
      output(operands, 'out', args.out, arrayType(dtype), window, first * o.dModel, count * o.dModel);
    },
  };
}

/**
 * ropeCache: cos and sin [batch, seqLen, rotaryDim/2] by rows of one sequence at a time (a
 * tile is one sequence's rows, told that sequence's offset or positions). Schedules that go by
 * the whole call's positions (dynamic, longrope) are told the call's length in every tile.
 */
export function ropeCacheTiling(memory, fn, o, enums, dtype, args) {
  const half = Math.floor(o.rotaryDim / 2);
  const sequence = (b) => {
    if (o.positions !== undefined)
      return { positions: listWindow(o.positions, b * o.seqLen, o.seqLen), offset: undefined };
    return { positions: undefined, offset: o.offset instanceof Int32Array ? o.offset[b] : (o.offset ?? 0) };
  };
  let callLength; // the largest position + 1 of the whole call, found at the first tile (after the check)
  const lengthOfCall = () => {
    if (callLength !== undefined) return callLength;
    callLength = 0;
    if (o.positions !== undefined) {
      const { positions } = o; // a private snapshot: element reads run no code of the caller's
      for (let i = 0; i < positions.length; i++) callLength = Math.max(callLength, positions[i] + 1);
    } else {
      for (let b = 0; b < o.batch; b++) callLength = Math.max(callLength, sequence(b).offset + o.seqLen);
    }
    return callLength;
  };
  return {
    __proto__: null, // optional fields read by tiles.js are absent, never inherited
    operation: 'ropeCache',
    slots: ['outCos', 'outSin'],
    units: o.batch * o.seqLen,
    unitBytes: half * 2 * elementBytes(dtype),
    checkedLast: 'outSin',
    outputs: [
      { __proto__: null, slot: 'outCos', name: 'out.cos', dtype },
      { __proto__: null, slot: 'outSin', name: 'out.sin', dtype },
    ],
    carryDoubles: tableCarryDoubles(half),
    minTileBytes: TABLE_TILE_BYTES,
    *cuts(limit) {
      for (let first = 0; first < o.batch * o.seqLen; ) {
        const count = Math.min(limit, (Math.floor(first / o.seqLen) + 1) * o.seqLen - first); // within a sequence
        yield [first, count];
        first += count;
      }
    },
    fill(operands, first, count, window, carry) {
      operands.set('rotaryDim', o.rotaryDim).set('base', o.base).set('dtype', enums.dtype.indexOf(dtype));
      writeScaling(operands, o.scaling, enums);
      let start = 0;
      let length = o.batch * o.seqLen * half;
      if (count === o.batch * o.seqLen) {
        operands.set('seqLen', o.seqLen).set('batch', o.batch);
        writePositions(operands, fn, o);
      } else {
        const b = Math.floor(first / o.seqLen);
        const row = first - b * o.seqLen;
        operands.set('seqLen', count).set('batch', 1);
        writePositions(operands, fn, { ...o, ...positionsOf(sequence(b), row, count) });
        if (memory.dependsOnLength(o.scaling?.type)) operands.set('sequenceLength', lengthOfCall());
        if (carry) tableCarry(memory, operands, carry, row === 0, this.carryDoubles);
        start = first * half;
        length = count * half;
      }
      const Type = arrayType(dtype);
      output(operands, 'outCos', args.outCos, Type, window, start, length);
      output(operands, 'outSin', args.outSin, Type, window, start, length);
    },
  };
}

/** alibiBias: [numHeads, queryLen, keyLen] by queries (each tile every head's rows of its queries). */
export function alibiBiasTiling(o, args) {
  const offset = o.offset ?? o.keyLen - o.queryLen;
  const byQueries = offset + o.queryLen - 1 <= MAX_POSITION; // else one tile, and the core names the offset
  return {
    __proto__: null, // optional fields read by tiles.js are absent, never inherited
    operation: 'alibiBias',
    slots: ['out'],
    units: byQueries ? o.queryLen : 1,
    unitBytes: (byQueries ? 1 : o.queryLen) * o.numHeads * o.keyLen * 4,
    checkedLast: 'out',
    outputs: [{ __proto__: null, slot: 'out', name: 'out', dtype: 'float32' }],
    fill(operands, first, count, window) {
      const whole = !byQueries || count === o.queryLen;
      operands
        .set('numHeads', o.numHeads)
        .set('queryLen', whole ? o.queryLen : count)
        .set('keyLen', o.keyLen)
        .set('offset', offset + first)
        .set('maxBias', o.maxBias);
      const runs = whole ? 1 : o.numHeads;
      const length = whole ? o.numHeads * o.queryLen * o.keyLen : count * o.keyLen;
      output(operands, 'out', args.out, Float32Array, window, first * o.keyLen, length, runs, o.queryLen * o.keyLen);
    },
  };
}

/** relativePositionBuckets: [queryLen, keyLen] int32 by queries. */
export function bucketsTiling(o, args) {
  return {
    __proto__: null, // optional fields read by tiles.js are absent, never inherited
    operation: 'relativePositionBuckets',
    slots: ['out'],
    units: o.queryLen,
    unitBytes: o.keyLen * 4,
    checkedLast: 'out',
    outputs: [{ __proto__: null, slot: 'out', name: 'out', dtype: undefined, Type: Int32Array }],
    fill(operands, first, count, window) {
      operands
        .set('queryLen', count)
        .set('keyLen', o.keyLen)
        .set('numBuckets', o.numBuckets)
        .set('maxDistance', o.maxDistance)
        .set('bidirectional', o.bidirectional ? 1 : 0)
        .set('offset', o.offset + first);
      output(operands, 'out', args.out, Int32Array, window, first * o.keyLen, count * o.keyLen);
    },
  };
}

/** similarity: [rows, cols] by rows of a (b whole in every tile). */
export function similarityTiling(o, enums, args) {
  return {
    __proto__: null, // optional fields read by tiles.js are absent, never inherited
    operation: 'similarity',
    slots: ['a', 'b', 'out'],
    units: o.rows,
    unitBytes: (o.dim + o.cols) * 4,
    checkedLast: 'out',
    outputs: [{ __proto__: null, slot: 'out', name: 'out', dtype: 'float32' }],
    fill(operands, first, count, window) {
      operands
        .set('rows', count)
        .set('cols', o.cols)
        .set('dim', o.dim)
        .set('metric', enums.metric.indexOf(o.metric))
        .data('a', window(args.a, first * o.dim, count * o.dim), READ)
        .data('b', window(args.b, 0, args.b.length), READ);
      output(operands, 'out', args.out, Float32Array, window, first * o.cols, count * o.cols);
    },
  };
}

/**
 * convertLayout and convertLayoutWeights: by heads (activations: every head vector of x;
 * weights: numHeads heads of headDim rows of `hidden` floats). `name` is x's slot's argument.
 */
export function convertTiling(fn, o, enums, args, name) {
  const weights = fn === 'convertLayoutWeights';
  const headElements = weights ? o.headDim * o.hidden : o.headDim;
  const heads = weights ? o.numHeads : o.headDim > 0 ? Math.floor(args[name].length / o.headDim) : 0;
  return {
    __proto__: null, // optional fields read by tiles.js are absent, never inherited
    operation: 'convertLayout',
    slots: [name, 'out'],
    units: heads,
    unitBytes: headElements * 8,
    checkedLast: 'out',
    outputs: [{ __proto__: null, slot: 'out', name: 'out', dtype: 'float32' }],
    fill(operands, first, count, window) {
      const whole = count === heads;
      operands
        .set('from', enums.ropeLayout.indexOf(o.from))
        .set('to', enums.ropeLayout.indexOf(o.to))
        .set('headDim', o.headDim)
        .set('weights', weights ? 1 : 0)
        .set('numHeads', weights ? count : 0)
        .set('hidden', weights ? o.hidden : 1);
      writeRotaryDim(operands, o, o.headDim);
      // Whole, x goes as given (its length may be wrong, for the core to name).
      const x = args[name];
      operands.data('x', whole ? window(x, 0, x.length) : window(x, first * headElements, count * headElements), READ);
      const length = whole ? x.length : count * headElements;
      output(operands, 'out', args.out, Float32Array, window, first * headElements, length);
    },
  };
}

/**
 * attentionScores: by queries where the encoding adds nothing to the queries by position (none,
 * alibi, t5: a score depends on its query's row only through offset + row, and each row's
 * softmax is its own), every head's rows of a tile's queries, with all of k. With sinusoidal,
 * rope and xpos by heads (a tile is the call on its heads' q, k and out: each head's rows are
 * encoded by the same rule at the same positions, xPos about the same center, which goes by the
 * rows only, and a score reads only its own head's q and k). A window of an array in WASM
 * memory must be one run (query windows: order 'tokens' or one head; head windows: order 'heads'
 * or one head): else one tile.
 */
export function attentionScoresTiling(fn, o, enums, args) {
  const { numHeads, queryLen, keyLen, headDim } = o;
  const tokens = o.order === 'tokens';
  const strided = numHeads > 1; // a query window is one run per head (per head of out; of q in 'heads' order)
  const resident = (argument) => argument !== undefined && argument.address !== undefined;
  const encodes = !['none', 'alibi', 't5'].includes(o.encoding);
  const byQueries =
    !encodes &&
    (o.offset ?? keyLen - queryLen) + queryLen - 1 <= MAX_POSITION &&
    !(strided && resident(args.out)) &&
    !(strided && !tokens && resident(args.q));
  // a head window is one run per token in 'tokens' order
  const byHeads = encodes && !(strided && tokens && (resident(args.q) || resident(args.k)));
  const offset = o.offset ?? keyLen - queryLen;
  const headBytes = ((queryLen + keyLen) * headDim + queryLen * keyLen) * 4;
  return {
    __proto__: null, // optional fields read by tiles.js are absent, never inherited
    operation: 'attentionScores',
    slots: ['q', 'k', 'bias', 'out'],
    units: byQueries ? queryLen : byHeads ? numHeads : 1,
    unitBytes: byQueries ? numHeads * (headDim + keyLen) * 4 : byHeads ? headBytes : numHeads * headBytes,
    checkedLast: 'out',
    outputs: [{ __proto__: null, slot: 'out', name: 'out', dtype: 'float32' }],
    fill(operands, first, count, window) {
      if (byHeads && count < numHeads) {
        writeAttentionScores(operands, fn, { ...o, numHeads: count }, enums);
        const side = (argument, rows) =>
          tokens
            ? window(argument, first * headDim, count * headDim, rows, numHeads * headDim)
            : window(argument, first * rows * headDim, count * rows * headDim);
        operands.data('q', side(args.q, queryLen), READ).data('k', side(args.k, keyLen), READ);
        if (args.bias) operands.data('bias', window(args.bias, 0, args.bias.length), READ);
        output(operands, 'out', args.out, Float32Array, window, first * queryLen * keyLen, count * queryLen * keyLen);
        return;
      }
      const whole = !byQueries || count === queryLen;
      writeAttentionScores(operands, fn, whole ? o : { ...o, queryLen: count, offset: offset + first }, enums);
      if (whole) operands.data('q', window(args.q, 0, args.q.length), READ);
      else if (tokens) operands.data('q', window(args.q, first * numHeads * headDim, count * numHeads * headDim), READ);
      else operands.data('q', window(args.q, first * headDim, count * headDim, numHeads, queryLen * headDim), READ);
      operands.data('k', window(args.k, 0, args.k.length), READ);
      if (args.bias) operands.data('bias', window(args.bias, 0, args.bias.length), READ);
      if (whole) output(operands, 'out', args.out, Float32Array, window, 0, numHeads * queryLen * keyLen);
      else
        output(
          operands,
          'out',
          args.out,
          Float32Array,
          window,
          first * keyLen,
          count * keyLen,
          numHeads,
          queryLen * keyLen,
        );
    },
  };
}

/**
 * Whether rope on `shape` (the options of the rope call or plan: seqLen, numHeads, headDim,
 * batch, order, scaling, xpos, mrope) at `positionOptions` (offset, per-sequence offsets or positions)
 * goes through a plan in pieces: x and out JS-owned, of the shape's length (else the one call
 * names the wrong one), larger than one tile, and one position per row. Rows in 'heads' order
 * only where `heads` (the caller can make a plan of one head: every head is then a sequence of
 * its own).
 */
export function ropeInPieces(memory, shape, positionOptions, { x, out }, heads = false) {
  if (x.address !== undefined || out.address !== undefined) return false; // WASM-resident: one call
  const length = shape.batch * shape.seqLen * shape.numHeads * shape.headDim;
  return (
    (shape.order === 'tokens' || heads) &&
    offsetsFit(shape, positionOptions) && // else the one call names the offset before it writes
    !shape.mrope &&
    (positionOptions.positions === undefined || positionOptions.offset === undefined) &&
    x.length === length &&
    out.length === length &&
    length * x.Type.BYTES_PER_ELEMENT > memory.tileBytes
  );
}

/** Whether every sequence's rows placed by offsets (positionOptions.offset: one, or one per sequence) stay within kMaxPosition. */
function offsetsFit(shape, positionOptions) {
  if (positionOptions.positions !== undefined || shape.seqLen === 0) return true;
  const perSequence = positionOptions.offset instanceof Int32Array;
  for (let b = 0; b < (perSequence ? positionOptions.offset.length : 1); b++) {
    const offset = perSequence ? positionOptions.offset[b] : (positionOptions.offset ?? 0);
    if (offset + shape.seqLen - 1 > MAX_POSITION) return false;
  }
  return true;
}

/**
 * xPos: the call's first and last positions each rotated as a piece of one row into scratch,
 * so that a row beyond the reach of the center is named before any piece of the caller's is
 * written (the reach is a distance from the center: the rows farthest from it are these two).
 */
function checkXposReach(memory, plan, rowElements, Type, first, last, callLength, role, context) {
  const rowBytes = Math.ceil((rowElements * Type.BYTES_PER_ELEMENT) / 8) * 8;
  const doubles = Math.max(1, plan.carryLength);
  const scratch = memory.malloc(context.fn, rowBytes + doubles * 8);
  try {
    for (const position of [first, last]) {
      zeroCarry(memory, scratch, rowBytes / 8 + doubles);
      const operands = memory
        .operands('ropePlanApply')
        .set('plan', plan.handle)
        .set('pieceRows', 1)
        .set('sequenceLength', callLength)
        .set('xposRole', role)
        .set('carry', scratch + rowBytes)
        .set('carryLength', plan.carryLength)
        .set('offset', position)
        .data('x', new Argument('x', null, rowElements, scratch, null), READ)
        .data('out', new Argument('out', null, rowElements, scratch, null), WRITE);
      memory.run(operands, context);
    }
  } finally {
    memory.free(scratch);
  }
}

/**
 * Rotates args.x into args.out (a call ropeInPieces accepts) through the core's plan `plan`
 * ({ handle, carryLength }, of the arrays' dtype; in 'heads' order a plan of one head) with xPos
 * role `role` (its enum value, 0 without xPos), each sequence (in 'heads' order each head of
 * each sequence) in pieces of rows carrying the recurrence on. Every piece is told the whole
 * call's length (its largest position + 1), which places xPos's default center and sets the
 * dynamic and longrope frequencies. `context` words errors.
 */
export function ropeInTiles(memory, plan, shape, positionOptions, role, args, context) {
  const heads = shape.order === 'heads';
  const rowElements = heads ? shape.headDim : shape.numHeads * shape.headDim;
  const sequences = heads ? shape.batch * shape.numHeads : shape.batch;
  const batchOf = (sequence) => (heads ? Math.floor(sequence / shape.numHeads) : sequence);
  const perSequence = positionOptions.offset instanceof Int32Array;
  const offsetOf = (b) => (perSequence ? positionOptions.offset[b] : (positionOptions.offset ?? 0));
  // The call's first position and its length (its largest position + 1), as the one call finds them.
  let callLength = 0;
  let firstPosition = MAX_POSITION;
  if (positionOptions.positions !== undefined) {
    const { positions } = positionOptions; // a private snapshot: element reads run no code of the caller's
    for (let i = 0; i < positions.length; i++) {
      callLength = Math.max(callLength, positions[i] + 1);
      firstPosition = Math.min(firstPosition, positions[i]);
    }
  } else {
    for (let b = 0; b < shape.batch; b++) {
      callLength = Math.max(callLength, offsetOf(b) + shape.seqLen);
      firstPosition = Math.min(firstPosition, offsetOf(b));
    }
  }
  if (role !== 0 && shape.seqLen > 0 && shape.batch > 0)
    checkXposReach(memory, plan, rowElements, args.x.Type, firstPosition, callLength - 1, callLength, role, context);
  const tiling = {
    __proto__: null,
    operation: 'ropePlanApply',
    slots: ['x', 'out'],
    units: sequences * shape.seqLen,
    unitBytes: rowElements * args.x.Type.BYTES_PER_ELEMENT,
    check: () => ({ wanted: 0, slotResult: () => undefined }), // the plan checked the options, ropeInPieces the lengths
    carryDoubles: Math.max(1, plan.carryLength),
    *cuts(limit) {
      for (let first = 0; first < sequences * shape.seqLen; ) {
        const end = (Math.floor(first / shape.seqLen) + 1) * shape.seqLen; // a tile stays in its sequence
        const count = Math.min(limit, end - first);
        yield [first, count];
        first += count;
      }
    },
    fill(operands, first, count, window, carry) {
      const sequence = Math.floor(first / shape.seqLen);
      const row = first - sequence * shape.seqLen;
      const b = batchOf(sequence);
      if (row === 0) zeroCarry(memory, carry, plan.carryLength); // a new sequence
      const x = window(args.x, first * rowElements, count * rowElements);
      const out = window(args.out, first * rowElements, count * rowElements);
      out.array = x.array; // rotated in place in scratch: one copy of the tile
      operands
        .set('plan', plan.handle)
        .set('pieceRows', count)
        .set('sequenceLength', callLength)
        .set('xposRole', role)
        .set('carry', carry)
        .set('carryLength', plan.carryLength)
        .data('x', x, READ)
        .data('out', out, WRITE);
      if (positionOptions.positions !== undefined)
        operands.list('positions', listWindow(positionOptions.positions, b * shape.seqLen + row, count));
      else operands.set('offset', offsetOf(b) + row);
    },
  };
  runTiled(memory, tiling, args, context);
}

/**
 * ropeGrid: by sequences of the batch, and in 'heads' order by heads of a sequence (each head's
 * patches are contiguous there, and every head turns by the same phases).
 */
export function ropeGridTiling(o, enums, args) {
  const patches = o.frames * o.rows * o.cols;
  const heads = o.order === 'heads';
  const unitHeads = heads ? 1 : o.numHeads;
  const unitElements = unitHeads * patches * o.headDim;
  const units = o.batch * (heads ? o.numHeads : 1);
  return {
    __proto__: null, // optional fields read by tiles.js are absent, never inherited
    operation: 'ropeGrid',
    slots: ['x', 'out'],
    units,
    unitBytes: unitElements * 4,
    checkedLast: 'out',
    *cuts(limit) {
      const perSequence = units / o.batch; // a tile stays in its sequence
      for (let first = 0; first < units; ) {
        const count = Math.min(limit, (Math.floor(first / perSequence) + 1) * perSequence - first);
        yield [first, count];
        first += count;
      }
    },
    fill(operands, first, count, window) {
      const whole = count === units;
      const batch = whole ? o.batch : heads ? 1 : count;
      writeRopeGrid(operands, { ...o, batch, numHeads: !whole && heads ? count : o.numHeads }, enums);
      // Whole, the arrays go as given (a wrong length is for the core to name).
      const start = first * unitElements;
      const x = whole ? window(args.x, 0, args.x.length) : window(args.x, start, count * unitElements);
      const out = whole ? window(args.out, 0, args.out.length) : window(args.out, start, count * unitElements);
      if (!whole) out.array = x.array; // rotated in place in scratch: one copy of the tile
      operands.data('x', x, READ);
      operands.data('out', out, WRITE);
    },
  };
}
