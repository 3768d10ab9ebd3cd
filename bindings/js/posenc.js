// The posenc instance: one method per operation over one instantiated WASM module. Each call
// snapshots its options (options.js), classifies its arrays (memory.js), fills the core's operands
// (specs.js) and crosses into WASM, where the core checks and computes: once, or, for JS-owned
// arrays larger than a tile, once to check the whole call and once per tile (tiles.js). What each public
// method does is its declaration's contract (index.d.ts, and docs/api.md); the comments here
// say how it is done.
import { settleDtype } from './dtype.js';
import { READ, WRITE } from './operands.js';
import { Memory } from './memory.js';
import { segmentError } from './errors.js';
import { SEGMENT_FIELDS, SEGMENT_KINDS, readOptions } from './options.js';
import { PlanCache } from './plan-cache.js';
import { RopePlan } from './rope-plan.js';
import { readDescription } from './seam.js';
import { writeMropePositions, writeRopeSpec, writePositions, writeSchedule, xposRoleValue } from './specs.js';
import { runCall } from './tiles.js';
import {
  alibiBiasTiling,
  attentionScoresTiling,
  bucketsTiling,
  convertTiling,
  positionNumbersTiling,
  ropeCacheTiling,
  ropeGridTiling,
  ropeInPieces,
  ropeInTiles,
  similarityTiling,
  tableTiling,
} from './tilings.js';
import { allocateArray } from './wasm-array.js';

export class Posenc {
  #memory;
  #plans; // the plans rope() and ropeQK() made lately (plan-cache.js)
  #enums;
  #context; // what reading options needs: the enums, the core's defaults, the limits
  variant;
  simd;
  limits;
  module;
  wasmSource;
  wasmFile;

  /** @internal Use `loadPosenc()`. */
  constructor(mod, { variant, module, wasmSource, wasmFile, tileBytes }) {
    const description = readDescription(mod);
    this.#memory = new Memory(mod, description, tileBytes);
    this.#plans = new PlanCache((handle) => this.#memory.freePlan(handle));
    this.#enums = description.enums;
    this.#context = { enums: description.enums, defaults: description.defaults, limits: description.limits };
    this.variant = variant;
    this.simd = variant === 'simd';
    this.limits = description.limits;
    this.module = module;
    this.wasmSource = wasmSource;
    this.wasmFile = wasmFile === undefined ? undefined : Object.freeze(wasmFile);
    Object.freeze(this);
  }

  get memoryBytes() {
    return this.#memory.bytes;
  }

  // ---- arrays kept in WASM memory -------------------------------------------------------------

  allocate(lengthOrValues, options) {
    const o = this.#read('allocate', options);
    return allocateArray(this, this.#memory, lengthOrValues, o.dtype);
  }

  // ---- sinusoidal tables ----------------------------------------------------------------------

  sinusoidal(options) {
    const fn = 'sinusoidal';
    const o = this.#read(fn, options);
    const args = { out: this.#optional(fn, 'out', o.out, true) };
    const dtype = settleDtype(fn, o.dtype, [args.out]);
    return this.#call(tableTiling(this.#memory, 'sinusoidal', fn, o, this.#enums, dtype, args), fn, o, args).output(
      'out',
    );
  }

  addSinusoidal(x, options) {
    const fn = 'addSinusoidal';
    const o = this.#read(fn, options);
    const args = { x: this.#memory.argument(fn, 'x', x, this, true) };
    const dtype = settleDtype(fn, o.dtype, [args.x]);
    this.#call(tableTiling(this.#memory, 'addSinusoidal', fn, o, this.#enums, dtype, args), fn, o, args);
    return x;
  }

  positionNumbers(options) {
    const fn = 'positionNumbers';
    const o = this.#read(fn, options);
    const args = { out: this.#optional(fn, 'out', o.out, true) };
    const dtype = settleDtype(fn, o.dtype, [args.out]);
    return this.#call(positionNumbersTiling(o, this.#enums, dtype, args), fn, o, args).output('out');
  }

  // ---- rotary embeddings -----------------------------------------------------------------------

  ropeSchedule(options) {
    return this.#schedule('ropeSchedule', options);
  }

  ropeFrequencies(options) {
    return this.#schedule('ropeFrequencies', options).invFreq;
  }

  ropeCache(options) {
    const fn = 'ropeCache';
    const o = this.#read(fn, options);
    const args = { outCos: undefined, outSin: undefined };
    if (o.out !== undefined) {
      args.outCos = this.#memory.argument(fn, 'out.cos', o.out.cos, this, true);
      args.outSin = this.#memory.argument(fn, 'out.sin', o.out.sin, this, true);
      this.#memory.assertSeparate(fn, args.outCos, args.outSin, false);
    }
    const dtype = settleDtype(fn, o.dtype, [args.outCos, args.outSin]);
    const call = this.#call(ropeCacheTiling(this.#memory, fn, o, this.#enums, dtype, args), fn, o, args);
    return {
      cos: call.output('outCos'),
      sin: call.output('outSin'),
      attentionFactor: call.result('appliedAttentionFactor'),
    };
  }

  rope(x, options) {
    const fn = 'rope';
    const o = this.#read(fn, options);
    const args = this.#memory.xArguments(fn, x, o.out, this, true);
    const dtype = settleDtype(fn, o.dtype, [args.x, args.out]);
    if (ropeInPieces(this.#memory, o, o, args, true)) {
      const role = xposRoleValue(o.xpos?.role, this.#enums);
      this.#inPieces({
        fn,
        shape: o,
        positionOptions: o,
        tensors: [{ shape: o, role, x: args.x, out: args.out }],
        dtype,
        args,
      });
      return args.out.array;
    }
    const create = this.#planOperands(fn, o, o.numHeads, dtype);
    const operands = this.#applyOperands('ropePlanApply', fn, o, create);
    operands.data('x', args.x, READ).data('out', args.out, WRITE);
    this.#runCached(operands, create, fn, o, args);
    return args.out.array;
  }

  ropeQK(q, k, options) {
    const fn = 'ropeQK';
    const o = this.#read(fn, options);
    const args = this.#memory.qkArguments(fn, q, k, o.out, this);
    const numKvHeads = o.numKvHeads ?? o.numHeads;
    const keys = { ...o, numHeads: numKvHeads };
    const qArgs = { x: args.q, out: args.outQ };
    const kArgs = { x: args.k, out: args.outK };
    if (ropeInPieces(this.#memory, o, o, qArgs, true) && ropeInPieces(this.#memory, keys, o, kArgs, true)) {
      const dtype = settleDtype(fn, o.dtype, [args.q, args.k, args.outQ, args.outK]);
      const roles = o.xpos ? ['query', 'key'].map((role) => xposRoleValue(role, this.#enums)) : [0, 0];
      const tensors = [
        { shape: o, role: roles[0], ...qArgs },
        { shape: keys, role: roles[1], ...kArgs },
      ];
      this.#inPieces({ fn, shape: o, positionOptions: o, tensors, dtype, args, numKvHeads });
      return { q: args.outQ.array, k: args.outK.array };
    }
    const create = this.#memory.operands('ropePlanCreate').set('numKvHeads', numKvHeads);
    writeRopeSpec(create, fn, o, this.#enums);
    this.#dtype(create, fn, o.dtype, [args.q, args.k, args.outQ, args.outK]);
    const operands = this.#applyOperands('ropePlanApplyQK', fn, o, create);
    this.#memory.writeQK(operands, args);
    this.#runCached(operands, create, fn, o, args);
    return { q: args.outQ.array, k: args.outK.array };
  }

  ropePlan(options) {
    const fn = 'ropePlan';
    const o = this.#read(fn, options);
    const numKvHeads = o.numKvHeads ?? o.numHeads;
    const dtype = o.dtype ?? 'float32'; // a plan's arrays come later: they must be of its dtype
    return RopePlan.create(
      this,
      this.#memory,
      this.#enums,
      Object.freeze({ ...o, numKvHeads, dtype }),
      this.#makePlan(fn, o, numKvHeads, dtype),
      (call) => this.#inPieces(call), // its calls on JS arrays go in pieces as rope's do
    );
  }

  /**
   * Frees the prepared plans that rope() and ropeQK() keep for their next calls with the same
   * options (at most PLAN_CACHE_CAPACITY, a little WASM memory each); later calls make them again.
   */
  freeCachedPlans() {
    this.#plans.clear();
  }

  /**
   * Rotates each of `tensors` ({ shape: its rope options, role, x, out }, ropeInPieces accepted
   * them) at `positionOptions` (offset, per-sequence offsets or positions) through a plan in pieces
   * (tilings.js). The plan of the whole call (`shape` with `numKvHeads` keys) is `callPlan`
   * (a RopePlan's) or made first, so every option is checked before the first piece is written;
   * each tensor then goes through a plan of its own heads (in 'heads' order, of one head).
   * `context` words errors (a RopePlan's quote its own options).
   */
  #inPieces({ fn, shape: o, positionOptions, tensors, dtype, args, numKvHeads = o.numHeads, callPlan, context }) {
    const plans = [];
    try {
      const call = callPlan ?? this.#makePlan(fn, o, numKvHeads, dtype);
      if (callPlan === undefined) plans.push(call);
      const pieces = tensors.map(({ shape }) => {
        const heads = shape.order === 'heads' ? 1 : shape.numHeads;
        if (heads === o.numHeads) return call; // the call's plan rotates its numHeads heads
        const plan = this.#makePlan(fn, { ...shape, numHeads: heads, order: 'tokens' }, heads, dtype);
        plans.push(plan);
        return plan;
      });
      for (let i = 0; i < tensors.length; i++) {
        const { shape, role, x, out } = tensors[i];
        ropeInTiles(
          this.#memory,
          pieces[i],
          shape,
          positionOptions,
          role,
          { x, out },
          context ?? { fn, o, args, shape: null },
        );
      }
    } finally {
      for (const plan of plans) this.#memory.freePlan(plan.handle);
    }
  }

  /** The core's plan of rope options `o` on arrays of `dtype`: { handle, rotaryDim, attentionFactor, carryLength }. */
  #makePlan(fn, o, numKvHeads, dtype) {
    return this.#madePlan(this.#planOperands(fn, o, numKvHeads, dtype), fn, o, null);
  }

  /** The ropePlanCreate operands of rope options `o` on arrays of `dtype`, filled (not run). */
  #planOperands(fn, o, numKvHeads, dtype) {
    const operands = this.#memory.operands('ropePlanCreate').set('numKvHeads', numKvHeads);
    writeRopeSpec(operands, fn, o, this.#enums);
    this.#dtype(operands, fn, dtype, []);
    return operands;
  }

  /** Runs filled ropePlanCreate operands (errors quote `o` and `args`): the plan it made. */
  #madePlan(operands, fn, o, args) {
    this.#run(operands, fn, o, args);
    return {
      handle: operands.result('plan'),
      rotaryDim: operands.result('resolvedRotaryDim'),
      attentionFactor: operands.result('appliedAttentionFactor'),
      carryLength: operands.result('carryLength'),
    };
  }

  /**
   * The operands that apply rope()'s or ropeQK()'s plan, their position options filled (their rules checked
   * before the plan is made, as the one-call operation did) and the parameters the plan's
   * operands noted as defaulted from another option (for the wording of errors).
   */
  #applyOperands(operation, fn, o, create) {
    const operands = this.#memory.operands(operation);
    for (const [parameter, source] of create.sources) operands.source(parameter, source);
    writePositions(operands, fn, o);
    return operands;
  }

  /** Runs the operands of an apply with the cached plan of the filled ropePlanCreate operands `create` (made if new). */
  #runCached(operands, create, fn, o, args) {
    const plan = this.#plans.planOf(create, (filled) => this.#madePlan(filled, fn, o, args));
    this.#run(operands.set('plan', plan.handle), fn, o, args);
  }

  ropeGrid(x, options) {
    const fn = 'ropeGrid';
    const o = this.#read(fn, options);
    const args = this.#memory.xArguments(fn, x, o.out, this);
    this.#call(ropeGridTiling(o, this.#enums, args), fn, o, args);
    return args.out.array;
  }

  // ---- layout conversion ------------------------------------------------------------------------

  convertLayout(x, options) {
    return this.#convert('convertLayout', 'x', x, options);
  }

  convertLayoutWeights(w, options) {
    return this.#convert('convertLayoutWeights', 'w', w, options);
  }

  // ---- similarity -------------------------------------------------------------------------------

  similarity(a, b, options) {
    const fn = 'similarity';
    const o = this.#read(fn, options);
    const args = {
      a: this.#memory.argument(fn, 'a', a, this),
      b: this.#memory.argument(fn, 'b', b, this),
      out: undefined,
    };
    args.out = this.#optional(fn, 'out', o.out);
    if (args.out) {
      this.#memory.assertSeparate(fn, args.a, args.out, false);
      this.#memory.assertSeparate(fn, args.b, args.out, false);
    }
    return this.#call(similarityTiling(o, this.#enums, args), fn, o, args).output('out');
  }

  // ---- M-RoPE position ids -------------------------------------------------------------------------

  mropePositions(options) {
    const fn = 'mropePositions';
    const o = this.#read(fn, options);
    const operands = this.#memory.operands('mropePositions').allocate('out', Int32Array);
    writeMropePositions(operands, fn, o, this.#enums);
    try {
      this.#run(operands, fn, o, null);
    } catch (error) {
      throw segmentError(error, o.segments, operands.result('badSegment'), SEGMENT_KINDS, SEGMENT_FIELDS);
    }
    return { positions: operands.output('out'), nextPosition: operands.result('nextPosition') };
  }

  // ---- ALiBi ------------------------------------------------------------------------------------

  alibiSlopes(options) {
    const fn = 'alibiSlopes';
    const o = this.#read(fn, options);
    const operands = this.#memory
      .operands('alibiSlopes')
      .set('numHeads', o.numHeads)
      .set('maxBias', o.maxBias)
      .allocate('slopes', Float64Array);
    this.#run(operands, fn, o, null);
    return operands.output('slopes');
  }

  alibiBias(options) {
    const fn = 'alibiBias';
    const o = this.#read(fn, options);
    const args = { out: this.#optional(fn, 'out', o.out) };
    return this.#call(alibiBiasTiling(o, args), fn, o, args).output('out');
  }

  // ---- relative position buckets ------------------------------------------------------------------

  relativePositionBuckets(options) {
    const fn = 'relativePositionBuckets';
    const o = this.#read(fn, options);
    const args = { out: o.out === undefined ? undefined : this.#memory.int32Argument(fn, 'out', o.out) };
    return this.#call(bucketsTiling(o, args), fn, o, args).output('out');
  }

  // ---- attention scores ---------------------------------------------------------------------------

  attentionScores(q, k, options) {
    const fn = 'attentionScores';
    const o = this.#read(fn, options);
    const args = {
      q: this.#memory.argument(fn, 'q', q, this),
      k: this.#memory.argument(fn, 'k', k, this),
      bias: this.#optional(fn, 'bias', o.bias),
      out: this.#optional(fn, 'out', o.out),
    };
    if (args.out) {
      for (const input of [args.q, args.k, args.bias])
        if (input) this.#memory.assertSeparate(fn, input, args.out, false);
    }
    return this.#call(attentionScoresTiling(fn, o, this.#enums, args), fn, o, args).output('out');
  }

  // ---- plumbing ---------------------------------------------------------------------------------

  #read(fn, options) {
    return readOptions(fn, options, this.#context);
  }

  /** An optional array option, classified (undefined when not given); `halves` as Memory.argument. */
  #optional(fn, name, value, halves = false) {
    return value === undefined ? undefined : this.#memory.argument(fn, name, value, this, halves);
  }

  /**
   * The dtype of a call: `declared` (the option) agreed with its arrays (dtype.js; undefined
   * ones, options not given, are skipped), written to the operands' dtype slot.
   */
  #dtype(operands, fn, declared, args) {
    const dtype = settleDtype(fn, declared, args);
    operands.set('dtype', this.#enums.dtype.indexOf(dtype));
    return dtype;
  }

  #run(operands, fn, o, args) {
    this.#memory.run(operands, { fn, o, args, shape: null });
  }

  /**
   * Runs the call a tiling describes (tilings.js): tile by tile on large JS-owned arrays, else in
   * one crossing (tiles.js).
   */
  #call(tiling, fn, o, args) {
    return runCall(this.#memory, tiling, args, { fn, o, args, shape: null });
  }

  #schedule(fn, options) {
    const o = this.#read(fn, options);
    const operands = this.#memory.operands('ropeSchedule').allocate('invFreq', Float64Array);
    writeSchedule(operands, fn, o, this.#enums);
    this.#run(operands, fn, o, null);
    return {
      invFreq: operands.output('invFreq'),
      attentionFactor: operands.result('appliedAttentionFactor'),
      rotaryDim: operands.result('resolvedRotaryDim'),
    };
  }

  #convert(fn, name, x, options) {
    const o = this.#read(fn, options);
    const args = { [name]: this.#memory.argument(fn, name, x, this), out: this.#optional(fn, 'out', o.out) };
    if (args.out) this.#memory.assertSeparate(fn, args[name], args.out, false);
    return this.#call(convertTiling(fn, o, this.#enums, args, name), fn, o, args).output('out');
  }
}
