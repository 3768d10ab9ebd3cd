// WASM memory as one posenc instance uses it: which arrays may be used where they are (a
// WasmArray, a window of one, a view from view()), the scratch space of a call, and the call itself (operands
// written, one crossing, outputs read back).
//
// Memory can grow during any allocation, and growth detaches every view of it made before: so
// a call first takes all its scratch memory, then makes its views and writes, calls, and reads
// back. No user code runs in between: arguments were snapshotted before (snapshot.js).
import { describe, float32OnlyError, givenValues, rangeError, typeError } from './errors.js';
import { elementBytes, isTensorKind, kindDtype, storageType } from './dtype.js';
import { copyInto, isDetached, typedArrayKind, typedArrayParts } from './intrinsics.js';
import { errorForStatus } from './seam.js';
import { regionsCoincide, regionsOverlap } from './shared-memory.js';
import { tileBytesFor } from './tile-size.js';
import { Operands, READ, WRITE } from './operands.js';
import { viewOwners, wasmArrayState } from './wasm-array.js';

// Scratch kept for small calls (operands, lists, small JS arrays), taken once at load; a larger
// call allocates its own block and frees it, so the heap is the same after every call.
const ARENA_BYTES = 64 * 1024;
const ALIGN = 16;
const WASM = 'wasm'; // the region key of WASM memory, whatever its current ArrayBuffer
const FOREIGN_VIEW_RULE =
  "is a typed array over WASM memory that view() did not make: posenc uses WASM memory in place only through a WasmArray, a window from its subarray(), or a view from its view() (and that view's subarray())";

/**
 * A typed array or WasmArray argument as classified: `address` is set for arrays in WASM
 * memory, undefined for JS-owned ones (copied through scratch memory). Every field is declared
 * (own before the constructor runs), so nothing inherited (Object.prototype pollution) can stand
 * in for one or intercept its assignment.
 */
export class Argument {
  name;
  array;
  length; // in elements
  address;
  region; // its bytes: { key, start, end }
  buffer;
  byteOffset;
  Type; // the type its bits are copied through: Float32Array, Uint16Array (half types), Int32Array
  kind; // 'WasmArray' or the typed array's kind, for errors
  dtype; // 'float32', 'float16', 'bfloat16'; undefined for a Uint16Array until its call settles it (dtype.js)
  data; // a JS-owned array as `Type` over its bytes (a Float16Array as its bits): what is copied
  pieces = null; // a tile's window made of several runs of the array (tiles.js): `Type` views, copied in order

  constructor(name, array, length, address, region, buffer, byteOffset, Type = Float32Array, kind, dtype) {
    this.name = name;
    this.array = array;
    this.length = length;
    this.address = address;
    this.region = region;
    this.buffer = buffer;
    this.byteOffset = byteOffset;
    this.Type = Type;
    this.kind = kind;
    this.dtype = dtype;
    // A Float16Array is copied as its bits; any other array is of its Type already.
    if (buffer === undefined) this.data = null;
    else this.data = kind === 'Float16Array' ? new Type(buffer, byteOffset, length) : array;
  }
}

const aligned = (bytes) => Math.ceil(bytes / ALIGN) * ALIGN;

export class Memory {
  #mod;
  #description;
  #operands = Object.create(null);
  #arena = 0; // ARENA_BYTES of scratch
  #f64; // over all of WASM memory

  constructor(mod, description, tileBytes) {
    this.#mod = mod;
    this.tileBytes = tileBytes ?? tileBytesFor(); // (a browser's size where the entry gave none)
    this.#description = description;
    // Each operation is a plain WebAssembly export; looked up at each call, since the glue
    // replaces its first wrapper (which forwards through apply) by the export itself.
    for (const [operation, slots] of Object.entries(description.operands)) {
      const name = `_posenc_${operation}`;
      this.#operands[operation] = new Operands(operation, slots, (operands) => mod[name](operands));
    }
    this.#arena = this.malloc('loadPosenc', ARENA_BYTES);
  }

  /** The scratch bytes of one tile of a call on JS-owned arrays (tiles.js): from the machine's cache. */
  tileBytes;

  get bytes() {
    return this.#mod.HEAPU8.length;
  }

  /** The current ArrayBuffer of WASM memory (a new one after every growth). */
  get buffer() {
    return this.#views().buffer;
  }

  malloc(fn, bytes) {
    const address = this.#mod._malloc(bytes);
    if (!address) throw rangeError(fn, 'memory', `cannot grow WASM memory by ${bytes} bytes (${this.bytes} in use)`);
    return address;
  }

  /** The error of a failed allocation of `bytes` (WASM memory or a JS array). */
  outOfMemory(fn, bytes) {
    return rangeError(fn, 'memory', `cannot allocate ${bytes} bytes (${this.bytes} of WASM memory in use)`);
  }

  free(address) {
    this.#mod._free(address);
  }

  // ---- arguments ------------------------------------------------------------------------------------

  /**
   * A tensor argument, classified once the snapshot is complete: a WasmArray, a Float32Array,
   * and where `halves` (the operations with a dtype), a Float16Array or a Uint16Array of 16-bit
   * patterns, whose dtype the call settles (dtype.js). Elsewhere only float32 arrays are taken.
   */
  argument(fn, name, value, instance, halves = false) {
    const argument = this.#classify(fn, name, value, instance, halves);
    if (!halves && argument.dtype !== 'float32') throw float32OnlyError(fn, argument);
    return argument;
  }

  #classify(fn, name, value, instance, halves) {
    const state = wasmArrayState(value);
    if (state) {
      if (state.instance !== instance) throw typeError(fn, name, 'is a WasmArray of another posenc instance');
      if (state.freed) throw rangeError(fn, name, state.freedRule);
      const end = state.address + state.length * elementBytes(state.dtype);
      const region = { key: WASM, start: state.address, end };
      const Type = storageType(state.dtype);
      return new Argument(
        name,
        value,
        state.length,
        state.address,
        region,
        undefined,
        undefined,
        Type,
        'WasmArray',
        state.dtype,
      );
    }
    const kind = typedArrayKind(value);
    if (kind !== 'Float32Array' && !(halves && isTensorKind(kind))) {
      throw typeError(
        fn,
        name,
        halves
          ? `must be a Float32Array, a Float16Array, a Uint16Array (with dtype) or a WasmArray (got ${describe(value)})`
          : `must be a Float32Array or a WasmArray (got ${describe(value)})`,
      );
    }
    if (isDetached(value)) throw rangeError(fn, name, 'is backed by a detached ArrayBuffer');
    const dtype = kindDtype(kind);
    const Type = kind === 'Float32Array' ? Float32Array : Uint16Array;
    const { length, buffer, byteOffset } = typedArrayParts(value);
    const end = byteOffset + length * Type.BYTES_PER_ELEMENT;
    if (buffer === this.buffer && length > 0) {
      const owner = wasmArrayState(viewOwners.get(value));
      if (owner === undefined) throw rangeError(fn, name, FOREIGN_VIEW_RULE);
      if (owner.freed) throw rangeError(fn, name, owner.viewFreedRule);
      const region = { key: WASM, start: byteOffset, end };
      return new Argument(name, value, length, byteOffset, region, undefined, undefined, Type, kind, dtype);
    }
    const region = { key: buffer, start: byteOffset, end };
    return new Argument(name, value, length, undefined, region, buffer, byteOffset, Type, kind, dtype);
  }

  /**
   * An Int32Array argument (an int32 output, relativePositionBuckets' `out`): always JS-owned,
   * copied through scratch memory (WasmArrays hold float32).
   */
  int32Argument(fn, name, value) {
    if (typedArrayKind(value) !== 'Int32Array')
      throw typeError(fn, name, `must be an Int32Array (got ${describe(value)})`);
    if (isDetached(value)) throw rangeError(fn, name, 'is backed by a detached ArrayBuffer');
    const { length, buffer, byteOffset } = typedArrayParts(value);
    if (buffer === this.buffer && length > 0) {
      throw rangeError(
        fn,
        name,
        'must not be a view of WASM memory (an int32 output is written into a JS-owned array)',
      );
    }
    const region = { key: buffer, start: byteOffset, end: byteOffset + length * 4 };
    return new Argument(name, value, length, undefined, region, buffer, byteOffset, Int32Array, 'Int32Array');
  }

  /**
   * `out` is `source` itself (in place, where `inPlace`) or shares no memory with it; `out` is
   * written (two handles of one SharedArrayBuffer memory are told apart by it: shared-memory.js).
   */
  assertSeparate(fn, source, out, inPlace) {
    if (source.array === out.array || regionsCoincide(source.region, out.region, out.region)) {
      if (!inPlace) throw rangeError(fn, out.name, 'must be a different array from the inputs');
      return;
    }
    if (regionsOverlap(source.region, out.region, out.region)) {
      throw rangeError(
        fn,
        out.name,
        `must not overlap ${source.name}${inPlace ? ' (in place, pass the same array)' : ''}`,
      );
    }
  }

  /**
   * a and b share no memory at all (queries and keys are rotated together); `written` is the
   * one of them the call writes, if any (shared-memory.js).
   */
  assertDisjoint(fn, a, b, name, written) {
    if (a.array === b.array || regionsOverlap(a.region, b.region, written?.region)) {
      throw rangeError(fn, name, 'must not share memory with the other tensor (queries and keys are rotated together)');
    }
  }

  /** x and its output (in place: x itself, or `out`, which must not overlap it); `halves` as argument(). */
  xArguments(fn, x, out, instance, halves = false) {
    const args = { x: this.argument(fn, 'x', x, instance, halves), out: undefined };
    args.out = out === undefined ? args.x : this.argument(fn, 'out', out, instance, halves);
    this.assertSeparate(fn, args.x, args.out, true);
    return args;
  }

  /** q, k and their outputs (in place, or out: { q, k }): no two of them may share memory. */
  qkArguments(fn, q, k, out, instance) {
    const args = {
      q: this.argument(fn, 'q', q, instance, true),
      k: this.argument(fn, 'k', k, instance, true),
      outQ: undefined,
      outK: undefined,
    };
    args.outQ = out === undefined ? args.q : this.argument(fn, 'out.q', out.q, instance, true);
    args.outK = out === undefined ? args.k : this.argument(fn, 'out.k', out.k, instance, true);
    this.assertSeparate(fn, args.q, args.outQ, true);
    this.assertSeparate(fn, args.k, args.outK, true);
    const inPlace = out === undefined;
    this.assertDisjoint(fn, args.q, args.k, 'k', inPlace ? args.k : undefined);
    this.assertDisjoint(fn, args.outQ, args.outK, 'out.k', args.outK);
    this.assertDisjoint(fn, args.q, args.outK, 'out.k', args.outK);
    this.assertDisjoint(fn, args.k, args.outQ, 'out.q', args.outQ);
    return args;
  }

  /** The operand slots of qkArguments: queries and keys read, their outputs written. */
  writeQK(operands, { q, k, outQ, outK }) {
    operands.data('q', q, READ).data('outQ', outQ, WRITE).data('k', k, READ).data('outK', outK, WRITE);
  }

  /** Releases a plan of the core (rope-plan.js). */
  freePlan(handle) {
    this.#mod.ropePlanFree(handle);
  }

  // ---- a call ------------------------------------------------------------------------------------

  /** The operands of `operation`, emptied for a new call (operands.js). */
  operands(operation) {
    return this.#operands[operation].begin();
  }

  /**
   * Runs filled operands: takes the scratch memory its lists and JS-owned arrays need (the
   * arena, or more), copies them and the operands in, crosses once, then copies outputs back and
   * reads the operands' results. A non-ok status becomes the error `context` words:
   * { fn, o (the options snapshot), args (the classified arguments), shape (a plan's options) }.
   */
  run(operands, context) {
    const status = this.runStatus(operands, context);
    if (status !== 0) throw this.statusError(operands, context, status);
  }

  /**
   * run() without the throw: the status of the call; outputs are read back only when it is 0.
   * A tiled call (tiles.js) checks all its operands this way first.
   */
  runStatus(operands, context) {
    const bytes = this.#placeScratch(operands);
    const block = bytes <= ARENA_BYTES ? this.#arena : this.malloc(context.fn, bytes);
    try {
      this.#write(operands, block);
      const status = operands.call(block);
      const f64 = this.#views();
      const { results } = operands;
      for (let i = 0, at = block / 8; i < results.length; i++) results[i] = f64[at + i];
      if (status === 0) this.#readBack(operands, block);
      return status;
    } finally {
      if (block !== this.#arena) this.free(block);
    }
  }

  /** Whether scaling `type`'s schedule goes by the whole call's positions (the module's list). */
  dependsOnLength(type) {
    return this.#description.lengthDependent.includes(type);
  }

  /** The name of status `code` ('outLength', ...), as the module describes it. */
  statusName(code) {
    return this.#description.statuses[code]?.name;
  }

  /** The error of a non-ok status of `operands` (its results read back), worded from `context`. */
  statusError(operands, context, status) {
    const values = givenValues(context.o, context.args, context.shape);
    return errorForStatus(this.#description, status, {
      fn: context.fn,
      values,
      expected: operands.result('expectedLength'),
      sources: operands.sources,
    });
  }

  /**
   * An address inside this instance's scratch arena: what a checking call (tiles.js) gives
   * arrays whose data it never copies, as the call stops at a length check before it reads them.
   */
  get probeAddress() {
    return this.#arena;
  }

  /** Gives each list and JS-owned array its offset in the scratch block (after the operands); returns the block's size. */
  #placeScratch(operands) {
    let bytes = aligned(operands.values.length * 8);
    for (let e = 0; e < operands.entries.length; e++) {
      const entry = operands.entries[e];
      entry.offset = -1;
      const data = entry.list ?? (entry.argument && entry.argument.address === undefined ? entry.argument.array : null);
      if (data === null) continue;
      const shared = operands.entries.find(
        (other) => other !== entry && other.offset >= 0 && (other.list ?? other.argument?.array) === data,
      );
      if (shared) {
        // one JS array used twice (in place)
        entry.offset = shared.offset;
        continue;
      }
      entry.offset = bytes;
      const elements = entry.list ? entry.list.length : entry.argument.length;
      bytes += aligned(elements * (entry.list ?? entry.argument.Type).BYTES_PER_ELEMENT);
    }
    return bytes;
  }

  /** A Float64Array over all of WASM memory, made again once growth has detached the last one. */
  #views() {
    if (this.#f64 === undefined || this.#f64.length === 0) this.#f64 = new Float64Array(this.#mod.HEAPU8.buffer);
    return this.#f64;
  }

  #write(operands, block) {
    const f64 = this.#views();
    const base = block / 8;
    f64.set(operands.values, base);
    for (const entry of operands.entries) {
      let address = 0;
      let length;
      if (entry.allocate) {
        length = -1;
      } else if (entry.list) {
        // An empty list still is one (its address must not read as "no list"): it points at the block.
        length = entry.list.length;
        address = length > 0 ? block + entry.offset : block;
        if (length > 0) {
          const Type = entry.list instanceof Int32Array ? Int32Array : Float64Array;
          copyInto(new Type(this.buffer, address, length), entry.list);
        }
      } else {
        const { argument } = entry;
        length = argument.length;
        if (argument.address !== undefined) address = argument.address;
        else if (length > 0) {
          address = block + entry.offset;
          if (entry.mode & READ) this.#copyIn(argument, address);
        }
      }
      f64[base + entry.at] = address;
      f64[base + entry.lengthAt] = length;
    }
  }

  #copyIn(argument, address) {
    const { Type, pieces } = argument;
    if (pieces === null) {
      copyInto(new Type(this.buffer, address, argument.length), argument.data);
      return;
    }
    const wasm = new Type(this.buffer, address, argument.length);
    for (let i = 0, at = 0; i < pieces.length; at += pieces[i].length, i++) copyInto(wasm, pieces[i], at);
  }

  #copyOut(argument, address) {
    const { Type, pieces, length } = argument;
    if (pieces === null) {
      copyInto(argument.data, new Type(this.buffer, address, length));
      return;
    }
    for (let i = 0, at = address; i < pieces.length; at += pieces[i].length * Type.BYTES_PER_ELEMENT, i++)
      copyInto(pieces[i], new Type(this.buffer, at, pieces[i].length));
  }

  #readBack(operands, block) {
    for (const entry of operands.entries) {
      if (entry.allocate) {
        const address = operands.results[entry.at];
        const length = operands.results[entry.lengthAt];
        // new T(n) and set(): copying through the constructor, new T(view), is about 6× slower in Chromium
        entry.result = new entry.allocate(length);
        copyInto(entry.result, new entry.allocate(this.buffer, address, length));
        this.free(address);
      } else if (
        entry.argument &&
        entry.mode & WRITE &&
        entry.argument.address === undefined &&
        entry.argument.length > 0
      ) {
        this.#copyOut(entry.argument, block + entry.offset);
      }
    }
  }
}
