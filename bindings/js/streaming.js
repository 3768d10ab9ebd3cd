// rope on large JS-owned arrays, a block of rows at a time. Copying a whole tensor into WASM
// memory, rotating it and copying it back crosses main memory three times; a block of rows
// stays in cache from its copy in through its rotation to its copy out, and the scratch stays
// small. The blocks are pieces of one call of the core's plan (RopePlan::apply_piece): the
// recurrence carries on from block to block, so the result has the same bits as the arrays
// would get in WASM memory. Only one sequence of rows at offset, offset + 1, ... in token order
// splits that simply, with a schedule that does not depend on the sequence length.
import { READ, WRITE } from './frame.js';
import { copyInto } from './intrinsics.js';
import { Argument } from './memory.js';

const BLOCK_BYTES = 256 * 1024; // per block: well inside L2 together with its copy
const LENGTH_DEPENDENT = ['dynamic', 'longrope'];

/** Rows of a block, for elements of `bytes` bytes (4: float32, 2: the half types). */
const rowsPerBlock = (shape, bytes) => Math.max(1, Math.floor(BLOCK_BYTES / bytes / (shape.numHeads * shape.headDim)));

/**
 * Whether a rope call on `shape` (its options: seqLen, numHeads, headDim, batch, order,
 * scaling) with where-the-rows-sit options `rows` and arguments x/out goes block by block:
 * both arrays JS-owned, of the shape's length, larger than a block.
 */
export function streams(shape, rows, { x, out }) {
  if (x.address !== undefined || out.address !== undefined) return false; // WASM-resident: one call
  const length = shape.seqLen * shape.numHeads * shape.headDim;
  return (
    shape.batch === 1 &&
    shape.order === 'tokens' &&
    rows.positions === undefined &&
    typeof (rows.offset ?? 0) === 'number' &&
    !LENGTH_DEPENDENT.includes(shape.scaling?.type) &&
    shape.seqLen > rowsPerBlock(shape, x.Type.BYTES_PER_ELEMENT) &&
    x.length === length &&
    out.length === length
  );
}

/**
 * Rotates args.x into args.out a block of rows at a time through the core's plan `plan`
 * ({ handle, carryLength }, of the arrays' dtype) with xPos role `role` (an enum value, 0
 * without xPos); `context` words errors. Every piece is told the whole call's length, which
 * places xPos's default center. The bits are copied as they are (a Float16Array's as a Uint16Array's).
 */
export function ropeInBlocks(memory, plan, shape, offset, role, { x, out }, context) {
  const { Type } = x; // of the settled dtype: Float32Array, or Uint16Array for the half types
  const rowLength = shape.numHeads * shape.headDim;
  const blockRows = rowsPerBlock(shape, Type.BYTES_PER_ELEMENT);
  const carryBytes = Math.ceil(plan.carryLength / 2) * 16; // float64s, keeping the rows 16-byte aligned
  const block = memory.malloc(context.fn, carryBytes + blockRows * rowLength * Type.BYTES_PER_ELEMENT);
  const rowsAt = block + carryBytes;
  try {
    new Float64Array(memory.buffer, block, plan.carryLength).fill(0); // no piece before the first
    for (let row = 0; row < shape.seqLen; row += blockRows) {
      const rows = Math.min(blockRows, shape.seqLen - row);
      const count = rows * rowLength;
      const from = x.byteOffset + row * rowLength * Type.BYTES_PER_ELEMENT;
      copyInto(new Type(memory.buffer, rowsAt, count), new Type(x.buffer, from, count));
      const rowsInWasm = new Argument('x', null, count, rowsAt, null);
      const frame = memory
        .frame('ropePlanApply')
        .set('plan', plan.handle)
        .set('offset', offset + row)
        .set('pieceRows', rows)
        .set('sequenceLength', offset + shape.seqLen)
        .set('xposRole', role)
        .set('carry', block)
        .set('carryLength', plan.carryLength)
        .data('x', rowsInWasm, READ)
        .data('out', rowsInWasm, WRITE);
      memory.run(frame, context);
      copyInto(out.data, new Type(memory.buffer, rowsAt, count), row * rowLength);
    }
  } finally {
    memory.free(block);
  }
}
