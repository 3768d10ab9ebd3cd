// A prepared rope call for hot loops (token-by-token decoding): posenc.ropePlan() validates the
// shape, layout, base and scaling once and keeps the core's prepared plan (its frequencies
// computed); each apply() then passes only positions and addresses. A plan holds no object of
// the caller's: its options were snapshotted. A plan collected unfreed is freed by the collector
// (lifetime.js).
import { settleDtype } from './dtype.js';
import { freedError, typeError } from './errors.js';
import { READ, WRITE } from './operands.js';
import { Reclaimer, disposable } from './lifetime.js';
import { readOptions } from './options.js';
import { writePositions, xposRoleValue } from './specs.js';
import { ropeInPieces } from './tilings.js';

const CREATE = Symbol('posenc.RopePlan');

/** Frees the core's plan of a RopePlan collected unfreed: { memory, made } (not the RopePlan). */
const unfreed = new Reclaimer('RopePlan', ({ memory, made }) => release(memory, made));

/** Frees the core's plan; whether it was still held. */
function release(memory, made) {
  if (made.handle === 0) return false;
  memory.freePlan(made.handle);
  made.handle = 0;
  return true;
}

export class RopePlan {
  #instance;
  #memory;
  #context; // what reading options needs: the enums, the limits
  #shape; // the options it was made with (a snapshot: plain and frozen)
  #made; // the core's plan: { handle (an address in WASM memory, 0 once freed), rotaryDim, attentionFactor, carryLength }
  #inPieces; // rotates JS arrays in pieces through this plan, as posenc.rope does

  /** @internal Use `posenc.ropePlan(options)`. */
  constructor(token, instance, memory, enums, shape, made, inPieces) {
    if (token !== CREATE) throw new TypeError('posenc: RopePlans are made by posenc.ropePlan()');
    this.#instance = instance;
    this.#memory = memory;
    this.#context = { enums, limits: instance.limits };
    this.#shape = shape;
    this.#made = made;
    this.#inPieces = inPieces;
  }

  /** @internal */
  static create(instance, memory, enums, shape, made, inPieces) {
    const plan = new RopePlan(CREATE, instance, memory, enums, shape, made, inPieces);
    unfreed.watch(plan, { memory, made }, instance.ropePlan);
    return plan;
  }

  get seqLen() {
    return this.#shape.seqLen;
  }
  get batch() {
    return this.#shape.batch;
  }
  get numHeads() {
    return this.#shape.numHeads;
  }
  get numKvHeads() {
    return this.#shape.numKvHeads;
  }
  get headDim() {
    return this.#shape.headDim;
  }
  get rotaryDim() {
    return this.#made.rotaryDim;
  }
  get layout() {
    return this.#shape.layout;
  }
  get order() {
    return this.#shape.order;
  }
  get attentionFactor() {
    return this.#made.attentionFactor;
  }
  get dtype() {
    return this.#shape.dtype;
  }
  get freed() {
    return this.#made.handle === 0;
  }

  apply(x, options) {
    const fn = 'RopePlan.apply';
    const o = this.#read(fn, options);
    const role = this.#role(fn, o.role);
    const args = this.#memory.xArguments(fn, x, o.out, this.#instance, true);
    settleDtype(fn, this.#shape.dtype, [args.x, args.out], 'plan');
    if (ropeInPieces(this.#memory, this.#shape, o, args, true))
      this.#pieces(fn, o, [{ shape: this.#shape, role, x: args.x, out: args.out }], args);
    else {
      const operands = this.#operands('ropePlanApply', fn, o).set('xposRole', role);
      this.#run(operands.data('x', args.x, READ).data('out', args.out, WRITE), fn, o, args);
    }
    return args.out.array;
  }

  /** The xPos role of one tensor's apply() as the core's enum value: required with xPos, refused without. */
  #role(fn, role) {
    if (this.#shape.xpos === undefined) {
      if (role !== undefined) throw typeError(fn, 'role', 'is for plans made with xpos (this plan has none)');
      return 0;
    }
    if (role === undefined)
      throw typeError(fn, 'role', "is required by a plan made with xpos: 'query' (scaled up) or 'key' (scaled down)");
    return xposRoleValue(role, this.#context.enums);
  }

  applyQK(q, k, options) {
    const fn = 'RopePlan.applyQK';
    const o = this.#read(fn, options);
    const args = this.#memory.qkArguments(fn, q, k, o.out, this.#instance);
    settleDtype(fn, this.#shape.dtype, [args.q, args.k, args.outQ, args.outK], 'plan');
    const keys = { ...this.#shape, numHeads: this.#shape.numKvHeads };
    const qArgs = { x: args.q, out: args.outQ };
    const kArgs = { x: args.k, out: args.outK };
    if (ropeInPieces(this.#memory, this.#shape, o, qArgs, true) && ropeInPieces(this.#memory, keys, o, kArgs, true)) {
      const roles = this.#shape.xpos
        ? ['query', 'key'].map((role) => xposRoleValue(role, this.#context.enums))
        : [0, 0];
      const tensors = [
        { shape: this.#shape, role: roles[0], ...qArgs },
        { shape: keys, role: roles[1], ...kArgs },
      ];
      this.#pieces(fn, o, tensors, args);
      return { q: args.outQ.array, k: args.outK.array };
    }
    const operands = this.#operands('ropePlanApplyQK', fn, o);
    this.#memory.writeQK(operands, args);
    this.#run(operands, fn, o, args);
    return { q: args.outQ.array, k: args.outK.array };
  }

  free() {
    release(this.#memory, this.#made);
  }

  #read(fn, options) {
    this.#assertLive(fn);
    const o = readOptions(fn, options, this.#context);
    this.#assertLive(fn); // reading the options may have run code that freed the plan
    return o;
  }

  /** Rotates `tensors` (ropeInPieces accepted them) at the position options `o` in pieces through this plan. */
  #pieces(fn, o, tensors, args) {
    const shape = this.#shape;
    const { numKvHeads, dtype } = shape;
    const context = this.#errorContext(fn, o, args);
    this.#inPieces({ fn, shape, positionOptions: o, tensors, dtype, args, numKvHeads, callPlan: this.#made, context });
  }

  /** The operands of one of the plan's operations, with the plan and the position options filled in. */
  #operands(operation, fn, o) {
    const operands = this.#memory.operands(operation).set('plan', this.#made.handle);
    writePositions(operands, fn, o);
    return operands;
  }

  #run(operands, fn, o, args) {
    this.#memory.run(operands, this.#errorContext(fn, o, args));
  }

  /** What errors quote: the apply options, the arguments, and the plan's own options. */
  #errorContext(fn, o, args) {
    return { fn, o, args, shape: this.#shape };
  }

  #assertLive(fn) {
    if (this.#made.handle === 0) throw freedError(fn, 'plan');
  }
}
disposable(RopePlan); // `using plan = posenc.ropePlan(…)` frees it at the end of the scope
