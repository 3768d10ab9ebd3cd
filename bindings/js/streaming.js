// rope on large JS-owned arrays, a block of rows at a time. Copying a whole tensor into WASM
// memory, rotating it and copying it back crosses main memory three times; a block of rows
// stays in cache from its copy in through its rotation to its copy out, and the scratch stays
// small. Only the common shape splits that simply: one sequence of rows at offset, offset + 1,
// ... in token order, with a schedule that does not depend on the sequence length.
import { READ, WRITE } from './frame.js';
import { copyInto } from './intrinsics.js';
import { Argument } from './memory.js';
import { writeRopeSpec } from './specs.js';

const BLOCK_FLOATS = 65536; // 256 KiB per block: well inside L2 together with its copy

/**
 * Rotates JS-owned args.x into args.out block by block through `frame` (rope's, its spec and
 * rows filled), when the call has that shape and its arrays match it. Returns false (nothing
 * done) otherwise: the caller then makes the one-crossing call, whose checks word any error.
 */
export function ropeInBlocks(memory, frame, fn, o, args, enums) {
  const rowLength = o.numHeads * o.headDim;
  const rowsPerBlock = Math.max(1, Math.floor(BLOCK_FLOATS / rowLength));
  const simple = o.batch === 1 && o.order === 'tokens' && o.positions === undefined && typeof (o.offset ?? 0) === 'number'
    && (o.scaling === undefined || o.scaling.type === 'default');
  const length = o.seqLen * rowLength;
  if (!simple || o.seqLen <= rowsPerBlock || args.x.address !== undefined || args.out.address !== undefined
      || args.x.length !== length || args.out.length !== length) {
    return false;
  }
  // Every rule of the whole call first: its plan is made (and dropped) by the core.
  const plan = memory.frame('ropePlanCreate').set('numKvHeads', o.numHeads);
  writeRopeSpec(plan, fn, o, enums);
  memory.run(plan, { fn, o, args });
  memory.freePlan(plan.result('plan'));

  const offset = o.offset ?? 0;
  const block = memory.malloc(fn, rowsPerBlock * rowLength * 4);
  try {
    for (let row = 0; row < o.seqLen; row += rowsPerBlock) {
      const rows = Math.min(rowsPerBlock, o.seqLen - row);
      const start = row * rowLength;
      const count = rows * rowLength;
      copyInto(new Float32Array(memory.buffer, block, count), new Float32Array(args.x.buffer, args.x.byteOffset + start * 4, count));
      const rowsInWasm = new Argument('x', null, count, block, null);
      frame.clearArrays().set('seqLen', rows).set('offset', offset + row).data('x', rowsInWasm, READ).data('out', rowsInWasm, WRITE);
      memory.run(frame, { fn, o, args });
      copyInto(args.out.array, new Float32Array(memory.buffer, block, count), start);
    }
  } finally {
    memory.free(block);
  }
  return true;
}
