// posenc on a GPUDevice: each method checks everything first (options by the CPU's own rules,
// then the caller's buffers), then records compute passes onto the caller's GPUCommandEncoder
// (or submits its own). Angles never come from WGSL's sin/cos: RoPE and the sinusoidal table
// read rows posenc's WASM core computed in float64 and rounded once to float32 (tables.js),
// the same numbers its CPU rotation uses; only the rotation itself runs on the GPU.
import { rangeError, typeError } from '../js/errors.js';
import { copyIntegers, readSize } from '../js/snapshot.js';
import { assertDisjoint, bindingOf, checkBuffer, inPlace, readBuffer, sharedBinding } from './buffers.js';
import { checkedByCpu } from './cpu-checks.js';
import { Dispatcher, KERNEL_BINDINGS } from './dispatch.js';
import { isPlainList, readChoice, readDtype, readEncoder, requiredSize, splitOptions } from './options.js';
import { GrowingTable, TableCache } from './tables.js';
import {
  ADD_META,
  ADD_SINUSOIDAL_KERNEL,
  DISTANCE_META,
  distanceKernel,
  ROPE_META,
  ropeHalfKernel,
  ropeKernel,
} from './wgsl.js';

/** Bytes per element of each storage dtype the rotation kernels take. */
const ELEMENT_BYTES = { __proto__: null, float32: 4, float16: 2 };
/** The dtypes of rope, ropeQK, ropeCache and sinusoidal on the GPU (the others are float32). */
const HALF_TOO = ['float32', 'float16'];
const ROWS_KEYS = ['offset', 'positions', 'positionsType', 'maxPosition', 'minPosition'];
const XPOS_ROLES = ['query', 'key'];
/** Schedules whose frequencies change once the call's length passes originalMaxPositionEmbeddings. */
export const LENGTH_SCHEDULES = ['dynamic', 'longrope'];
/** Tables of calls whose first position is below this start at 0 (prefill, then decoding, share one). */
const NEAR_START = 1 << 16;

export class GpuEncoder {
  #device;
  #posenc;
  #lost; // GPUDeviceLostInfo once the device is lost
  #dispatcher;
  #tables = new TableCache();
  #specs = new Map(); // validated rope specs by their options (plain copies), so a decoding step checks once
  #limits; // the device limits every call reads, read once

  /** @internal Use `createGpuEncoder(device, { posenc })`. */
  constructor(device, posenc) {
    this.#device = device;
    this.#posenc = posenc;
    this.#dispatcher = new Dispatcher(device);
    const { minStorageBufferOffsetAlignment, maxStorageBufferBindingSize } = device.limits;
    this.#limits = { minStorageBufferOffsetAlignment, maxStorageBufferBindingSize };
    device.lost.then((info) => {
      this.#lost = info;
    });
    Object.freeze(this);
  }

  get device() {
    return this.#device;
  }
  get posenc() {
    return this.#posenc;
  }

  // ---- RoPE -------------------------------------------------------------------------------------

  /**
   * Rotates x ([batch, seqLen, numHeads, headDim] float32, or heads before tokens) in place or
   * into `out`, at offset / per-sequence offsets / positions (an array, or a GPUBuffer of int32
   * or uint32 with maxPosition). Records onto `encoder`, or submits (a promise).
   */
  rope(x, options) {
    const fn = 'webgpu.rope';
    this.#alive(fn);
    const { gpu, cpu } = splitOptions(fn, options, ['out', 'encoder', ...ROWS_KEYS]);
    const encoder = readEncoder(fn, gpu.encoder);
    const { spec, role, dtype } = this.#ropeSpec(fn, cpu, false);
    const rows = this.#rows(fn, gpu, spec);
    const bytes = ELEMENT_BYTES[dtype] * spec.batch * spec.seqLen * spec.numHeads * spec.headDim;
    const xArg = checkBuffer(fn, readBuffer(fn, 'x', x), { bytes, needs: ['STORAGE'] });
    const out =
      gpu.out === undefined
        ? undefined
        : checkBuffer(fn, readBuffer(fn, 'out', gpu.out), { bytes, needs: ['STORAGE'] });
    inPlace(fn, xArg, out);
    const table = this.#ropeTable(fn, spec, role, rows);
    return this.#dispatcher.record(
      fn,
      encoder,
      () => [this.#ropeDispatch(fn, spec, dtype, spec.numHeads, xArg, out, table, rows)],
      [xArg, out, rows.buffer].filter(Boolean),
    );
  }

  /**
   * Rotates queries q (numHeads heads) and keys k (numKvHeads) of the same rows: in place, or
   * into `out: { q, k }`; with xPos, queries scaled up and keys down.
   */
  ropeQK(q, k, options) {
    const fn = 'webgpu.ropeQK';
    this.#alive(fn);
    const { gpu, cpu } = splitOptions(fn, options, ['out', 'encoder', ...ROWS_KEYS]);
    const encoder = readEncoder(fn, gpu.encoder);
    const { spec, dtype } = this.#ropeSpec(fn, cpu, true);
    const rows = this.#rows(fn, gpu, spec);
    const vectors = spec.batch * spec.seqLen * spec.headDim * ELEMENT_BYTES[dtype];
    const qBytes = vectors * spec.numHeads;
    const kBytes = vectors * spec.numKvHeads;
    const qArg = checkBuffer(fn, readBuffer(fn, 'q', q), { bytes: qBytes, needs: ['STORAGE'] });
    const kArg = checkBuffer(fn, readBuffer(fn, 'k', k), { bytes: kBytes, needs: ['STORAGE'] });
    let outQ;
    let outK;
    if (gpu.out !== undefined) {
      const given = readPair(fn, 'out', gpu.out, 'q', 'k');
      outQ = checkBuffer(fn, readBuffer(fn, 'out.q', given.q), { bytes: qBytes, needs: ['STORAGE'] });
      outK = checkBuffer(fn, readBuffer(fn, 'out.k', given.k), { bytes: kBytes, needs: ['STORAGE'] });
    }
    const qInPlace = inPlace(fn, qArg, outQ);
    const kInPlace = inPlace(fn, kArg, outK);
    assertDisjoint(fn, [qArg, kArg, qInPlace ? undefined : outQ, kInPlace ? undefined : outK].filter(Boolean));
    const both = spec.xpos === undefined;
    const qTable = this.#ropeTable(fn, spec, both ? undefined : 'query', rows);
    const kTable = both ? qTable : this.#ropeTable(fn, spec, 'key', rows);
    const dispatches = () => [
      this.#ropeDispatch(fn, spec, dtype, spec.numHeads, qArg, outQ, qTable, rows),
      this.#ropeDispatch(fn, spec, dtype, spec.numKvHeads, kArg, outK, kTable, rows),
    ];
    return this.#dispatcher.record(fn, encoder, dispatches, [qArg, kArg, outQ, outK, rows.buffer].filter(Boolean));
  }

  /**
   * The cos/sin table of a schedule on the device, for a kernel of one's own (ropeTableWgsl):
   * `{ buffer, pairs, first, rows, table }`, covering positions minPosition (default 0) …
   * maxPosition at least (`table` is the vec3<u32> (pairs, first, rows) posenc_rope_cos_sin takes).
   * Later calls may grow it into a new buffer: bind the buffer of the latest call.
   */
  ropeTable(options) {
    const fn = 'webgpu.ropeTable';
    this.#alive(fn);
    const { gpu, cpu } = splitOptions(fn, options, ['maxPosition', 'minPosition']);
    const last = requiredSize(
      fn,
      'maxPosition',
      gpu.maxPosition,
      '(the table covers positions minPosition … maxPosition)',
    );
    this.#assertPosition(fn, 'maxPosition', last);
    const first = gpu.minPosition === undefined ? 0 : readSize(fn, 'minPosition', gpu.minPosition);
    if (first > last) throw rangeError(fn, 'minPosition', `must be at most maxPosition (${last})`);
    const { spec, role } = this.#ropeSpec(fn, { ...cpu, seqLen: 1 }, false);
    const table = this.#ropeTable(fn, spec, role, { first, last });
    const pairs = spec.rotaryDim / 2;
    return {
      buffer: table.buffer,
      pairs,
      first: table.first,
      rows: table.rows,
      table: new Uint32Array([pairs, table.first, table.rows]),
    };
  }

  /** ONNX Runtime's cos/sin cache, [batch, seqLen, rotaryDim / 2] each, written into `out: { cos, sin }` (or new buffers). */
  async ropeCache(options) {
    const fn = 'webgpu.ropeCache';
    this.#alive(fn);
    const { gpu, cpu } = splitOptions(fn, options, ['out']);
    readDtype(fn, cpu.dtype, HALF_TOO);
    const cache = checkedByCpu(fn, () => this.#posenc.ropeCache(cpu));
    const bytes = writable(fn, 'seqLen', cache.cos.byteLength);
    let targets;
    if (gpu.out !== undefined) {
      const given = readPair(fn, 'out', gpu.out, 'cos', 'sin');
      targets = [
        checkBuffer(fn, readBuffer(fn, 'out.cos', given.cos), { bytes, needs: ['COPY_DST'] }),
        checkBuffer(fn, readBuffer(fn, 'out.sin', given.sin), { bytes, needs: ['COPY_DST'] }),
      ];
      assertDisjoint(fn, targets);
    } else {
      targets = ['cos', 'sin'].map((name) => ({ name, offset: 0, buffer: this.#newBuffer(`posenc ${name}`, bytes) }));
    }
    await this.#write(fn, targets, [cache.cos, cache.sin]);
    return { cos: targets[0].buffer, sin: targets[1].buffer, attentionFactor: cache.attentionFactor };
  }

  // ---- sinusoidal tables ------------------------------------------------------------------------

  /** The [seqLen, dModel] sinusoidal table written into `out` (or a new buffer): the CPU's numbers, uploaded. */
  async sinusoidal(options) {
    const fn = 'webgpu.sinusoidal';
    this.#alive(fn);
    const { gpu, cpu } = splitOptions(fn, options, ['out']);
    readDtype(fn, cpu.dtype, HALF_TOO);
    const table = checkedByCpu(fn, () => this.#posenc.sinusoidal(cpu));
    writable(fn, 'seqLen', table.byteLength);
    const target =
      gpu.out === undefined
        ? { name: 'out', offset: 0, buffer: this.#newBuffer('posenc sinusoidal', table.byteLength) }
        : checkBuffer(fn, readBuffer(fn, 'out', gpu.out), { bytes: table.byteLength, needs: ['COPY_DST'] });
    await this.#write(fn, [target], [table]);
    return target.buffer;
  }

  /** Adds the sinusoidal rows of x's positions to x ([seqLen, dModel] float32) in place, on the GPU. */
  addSinusoidal(x, options) {
    const fn = 'webgpu.addSinusoidal';
    this.#alive(fn);
    const { gpu, cpu } = splitOptions(fn, options, ['encoder', ...ROWS_KEYS]);
    const encoder = readEncoder(fn, gpu.encoder);
    readDtype(fn, cpu.dtype);
    const seqLen = requiredSize(fn, 'seqLen', cpu.seqLen, '');
    const { dModel, base, layout = 'interleaved' } = cpu; // base left out: the CPU's default
    checkedByCpu(fn, () => this.#posenc.sinusoidal({ ...cpu, seqLen: 1 })); // the table's own rules, the CPU's
    if (gpu.offset !== undefined && isPlainList(gpu.offset))
      throw typeError(fn, 'offset', 'must be a number (one sequence: addSinusoidal has no batch)');
    const rows = this.#rows(fn, gpu, { batch: 1, seqLen, mrope: undefined });
    const xArg = checkBuffer(fn, readBuffer(fn, 'x', x), { bytes: 4 * seqLen * dModel, needs: ['STORAGE'] });
    const key = JSON.stringify(['sinusoidal', dModel, base, layout]);
    const compute = (first, count) => this.#posenc.sinusoidal({ seqLen: count, dModel, base, layout, offset: first });
    const end = this.#posenc.limits.maxPosition + 1;
    const make = (first) => new GrowingTable(this.#device, { rowFloats: dModel, compute, first, end });
    const table = this.#covering(fn, key, make, rows);
    const binding = bindingOf(fn, this.#limits, xArg);
    const meta = this.#meta(rows);
    meta[ADD_META.dModel] = dModel;
    meta[ADD_META.base] = binding.base;
    meta[ADD_META.first] = table.first;
    meta[ADD_META.rows] = table.rows;
    const entries = [
      { binding: 3, resource: binding.resource },
      { binding: 4, resource: { buffer: table.buffer } },
      ...this.#positionsEntry(rows),
    ];
    const kernel = this.#dispatcher.pipeline(
      'add-sinusoidal',
      () => ADD_SINUSOIDAL_KERNEL,
      KERNEL_BINDINGS.addSinusoidal,
    );
    const dispatch = () => [this.#dispatcher.dispatch(fn, kernel, meta, seqLen * dModel, entries, rows.list)];
    return this.#dispatcher.record(fn, encoder, dispatch, [xArg, rows.buffer].filter(Boolean));
  }

  // ---- ALiBi and T5 buckets ---------------------------------------------------------------------

  /** Each head's ALiBi slope as two float32s (hi, lo), 2 · numHeads numbers, for posenc_alibi (ALIBI_WGSL). */
  alibiSlopes(options) {
    const fn = 'webgpu.alibiSlopes';
    const slopes = checkedByCpu(fn, () => this.#posenc.alibiSlopes(options));
    const pairs = new Float32Array(2 * slopes.length);
    for (let h = 0; h < slopes.length; h++) {
      pairs[2 * h] = slopes[h];
      pairs[2 * h + 1] = slopes[h] - pairs[2 * h];
    }
    return pairs;
  }

  /**
   * The [numHeads, queryLen, keyLen] ALiBi bias slope_h · (j − (offset + i)) into `out`
   * (float32), on the GPU: each head's bias of every distance the block meets comes from the
   * CPU (one row of queryLen + keyLen − 1 keys), so every value is the CPU's.
   */
  alibiBias(options) {
    const fn = 'webgpu.alibiBias';
    this.#alive(fn);
    const { gpu, cpu } = splitOptions(fn, options, ['out', 'encoder']);
    const encoder = readEncoder(fn, gpu.encoder);
    const numHeads = requiredSize(fn, 'numHeads', cpu.numHeads, '');
    const queryLen = this.#length(fn, 'queryLen', cpu.queryLen);
    const keyLen = this.#length(fn, 'keyLen', cpu.keyLen);
    // the block's own rules (offset, maxBias, sizes) are the CPU's; zero-length blocks compute nothing
    checkedByCpu(fn, () => this.#posenc.alibiBias({ ...cpu, keyLen: 0 }));
    checkedByCpu(fn, () => this.#posenc.alibiBias({ ...cpu, queryLen: 0 }));
    const offset = cpu.offset ?? keyLen - queryLen;
    const out = checkBuffer(fn, readBuffer(fn, 'out', requiredBuffer(fn, gpu.out)), {
      bytes: 4 * numHeads * queryLen * keyLen,
      needs: ['STORAGE'],
    });
    const last = offset + queryLen - 1; // the distance j − (offset + i) is j' − last for one row of queryLen + keyLen − 1 keys
    const table =
      queryLen === 0 || keyLen === 0
        ? new Float32Array(0)
        : checkedByCpu(fn, () =>
            this.#posenc.alibiBias({ ...cpu, queryLen: 1, keyLen: queryLen + keyLen - 1, offset: last }),
          );
    return this.#distances(fn, encoder, 'alibi', 'f32', { table, first: -last, count: queryLen + keyLen - 1 }, out, {
      heads: numHeads,
      queryLen,
      keyLen,
      offset,
    });
  }

  /**
   * T5's buckets of every distance a [queryLen, keyLen] block at `offset` meets, on the device,
   * for posenc_bucket (bucketTableWgsl): `{ buffer, first, count }` (entry e: distance first + e).
   */
  bucketTable(options) {
    const fn = 'webgpu.bucketTable';
    this.#alive(fn);
    const { buckets, first } = this.#buckets(fn, options);
    const buffer = this.#newBuffer('posenc buckets', buckets.byteLength);
    this.#device.queue.writeBuffer(buffer, 0, buckets);
    return { buffer, first, count: buckets.length };
  }

  /** T5's relative position buckets [queryLen, keyLen] (int32) into `out`, on the GPU: the CPU's buckets of each distance. */
  relativePositionBuckets(options) {
    const fn = 'webgpu.relativePositionBuckets';
    this.#alive(fn);
    const { gpu, cpu } = splitOptions(fn, options, ['out', 'encoder']);
    const encoder = readEncoder(fn, gpu.encoder);
    const { buckets, first, queryLen, keyLen, offset } = this.#buckets(fn, cpu);
    const out = checkBuffer(fn, readBuffer(fn, 'out', requiredBuffer(fn, gpu.out)), {
      bytes: 4 * queryLen * keyLen,
      needs: ['STORAGE'],
    });
    return this.#distances(fn, encoder, 'buckets', 'i32', { table: buckets, first, count: buckets.length }, out, {
      heads: 1,
      queryLen,
      keyLen,
      offset,
    });
  }

  /** Records the distance-table kernel: out[h, i, j] = table[h · count + (j − (offset + i)) − first]. */
  #distances(fn, encoder, name, type, { table, first, count }, out, { heads, queryLen, keyLen, offset }) {
    const buffer = this.#newBuffer(`posenc ${name}`, table.byteLength);
    if (table.length) this.#device.queue.writeBuffer(buffer, 0, table);
    const binding = bindingOf(fn, this.#limits, out);
    const meta = this.#dispatcher.parameters();
    meta[DISTANCE_META.queryLen] = queryLen;
    meta[DISTANCE_META.keyLen] = keyLen;
    meta[DISTANCE_META.offset] = offset; // an int32's bits
    meta[DISTANCE_META.outBase] = binding.base;
    meta[DISTANCE_META.first] = first; // an int32's bits
    meta[DISTANCE_META.count] = count;
    const kernel = this.#dispatcher.pipeline(name, () => distanceKernel(type), KERNEL_BINDINGS.distances);
    const entries = [
      { binding: 3, resource: binding.resource },
      { binding: 4, resource: { buffer } },
    ];
    const dispatch = () => [this.#dispatcher.dispatch(fn, kernel, meta, heads * queryLen * keyLen, entries)];
    return this.#dispatcher.record(fn, encoder, dispatch, [out]);
  }

  // ---- plumbing ---------------------------------------------------------------------------------

  #alive(fn) {
    if (this.#lost)
      throw rangeError(
        fn,
        'device',
        `was lost (${this.#lost.reason}${this.#lost.message ? `: ${this.#lost.message}` : ''}): make a new GPUDevice and createGpuEncoder() for it`,
      );
  }

  /**
   * rope's options checked by the CPU's rules (posenc.ropePlan makes and frees the core's plan:
   * every rule but the rows'), once per distinct options: `{ spec, role }`, the values resolved.
   */
  #ropeSpec(fn, cpu, pair) {
    const dtype = readDtype(fn, cpu.dtype, HALF_TOO);
    const { dtype: _dtype, xpos, ...rest } = cpu;
    if (!pair && rest.numKvHeads !== undefined)
      throw typeError(fn, 'numKvHeads', 'is taken by ropeQK (rope rotates one tensor of numHeads heads)');
    let role;
    let planXpos = xpos;
    if (xpos !== null && typeof xpos === 'object' && !Array.isArray(xpos)) {
      ({ role, ...planXpos } = xpos);
      if (pair && role !== undefined)
        throw typeError(fn, 'xpos.role', 'is not taken here: ropeQK scales queries up and keys down');
      if (!pair && role === undefined)
        throw typeError(fn, 'xpos.role', "is required by rope: 'query' (scaled up) or 'key' (scaled down)");
      readChoice(fn, 'xpos.role', role, XPOS_ROLES);
    }
    const key = JSON.stringify([rest, planXpos ?? null]);
    let spec = this.#specs.get(key);
    if (!spec) {
      spec = checkedByCpu(fn, () => {
        const plan = this.#posenc.ropePlan({ ...rest, ...(planXpos === undefined ? {} : { xpos: planXpos }) });
        try {
          return Object.freeze({
            seqLen: plan.seqLen,
            batch: plan.batch,
            numHeads: plan.numHeads,
            numKvHeads: plan.numKvHeads,
            headDim: plan.headDim,
            rotaryDim: plan.rotaryDim,
            layout: plan.layout,
            order: plan.order,
            base: rest.base, // left out: the CPU's default
            scaling: rest.scaling,
            inverse: rest.inverse ?? false,
            xpos: planXpos && { ...planXpos }, // scaleBase and gamma left out: the CPU's defaults
            mrope: rest.mrope && { section: rest.mrope.section, interleaved: rest.mrope.interleaved ?? false },
          });
        } finally {
          plan.free();
        }
      });
      if (this.#specs.size > 64) this.#specs.clear();
      this.#specs.set(key, spec);
    }
    if (dtype === 'float16' && spec.layout === 'half' && spec.rotaryDim % 4 !== 0) {
      throw rangeError(
        fn,
        cpu.rotaryDim === undefined ? 'headDim' : 'rotaryDim',
        `gives ${spec.rotaryDim} rotary channels: float16 storage in the 'half' layout needs a multiple of 4 (channels are read two to a 32-bit word)`,
      );
    }
    return { spec, role, dtype };
  }

  #assertPosition(fn, name, last) {
    const max = this.#posenc.limits.maxPosition;
    if (last > max) throw rangeError(fn, name, `must be at most ${max}`);
  }

  /** A queryLen or keyLen: a size within the CPU's sequence limit. */
  #length(fn, name, value) {
    const size = requiredSize(fn, name, value, '');
    if (size > this.#posenc.limits.maxSeqLen)
      throw rangeError(fn, name, `must be at most ${this.#posenc.limits.maxSeqLen}`);
    return size;
  }

  /**
   * Where the rows sit: `{ mode: 0, offset, first, last }` (offset + row), or `{ mode: 1, list }`
   * (positions known here, per-sequence offsets spelled out) or `{ mode: 1, buffer, signed }`
   * (positions on the GPU, bounded by minPosition/maxPosition); first/last bound the positions.
   */
  #rows(fn, gpu, spec) {
    const axes = spec.mrope ? 3 : 1;
    const perAxis = spec.batch * spec.seqLen;
    const count = perAxis * axes;
    const onGpu = gpu.positions !== undefined && !isPlainList(gpu.positions);
    for (const name of ['positionsType', 'maxPosition', 'minPosition']) {
      if (gpu[name] !== undefined && !onGpu)
        throw typeError(fn, name, 'is taken only with positions in a GPUBuffer (the bound of what the buffer holds)');
    }
    if (gpu.positions !== undefined && gpu.offset !== undefined)
      throw typeError(fn, 'offset', 'cannot be combined with positions (give one of them)');
    const shape = `batch · seqLen${axes === 3 ? ' · 3 (M-RoPE: [3, batch, seqLen])' : ''} = ${count}`;
    if (onGpu) {
      const buffer = checkBuffer(fn, readBuffer(fn, 'positions', gpu.positions), {
        bytes: 4 * count,
        needs: ['STORAGE'],
      });
      const signed = readChoice(fn, 'positionsType', gpu.positionsType, ['int32', 'uint32'], 'int32') === 'int32';
      const last = requiredSize(
        fn,
        'maxPosition',
        gpu.maxPosition,
        'with positions in a GPUBuffer: the largest position it holds (positions above it come out NaN)',
      );
      this.#assertPosition(fn, 'maxPosition', last);
      const first = gpu.minPosition === undefined ? 0 : readSize(fn, 'minPosition', gpu.minPosition);
      if (first > last) throw rangeError(fn, 'minPosition', `must be at most maxPosition (${last})`);
      return { mode: 1, buffer, signed, first, last };
    }
    let list;
    if (gpu.positions !== undefined) {
      list = copyIntegers(fn, 'positions', gpu.positions);
      if (list.length !== count) throw rangeError(fn, 'positions', `must hold ${shape} positions (got ${list.length})`);
    } else if (gpu.offset !== undefined && isPlainList(gpu.offset)) {
      const offsets = copyIntegers(fn, 'offset', gpu.offset);
      if (offsets.length !== spec.batch)
        throw rangeError(
          fn,
          'offset',
          `must hold one offset per sequence, batch = ${spec.batch} (got ${offsets.length})`,
        );
      list = new Int32Array(count);
      for (let b = 0; b < spec.batch; b++) {
        this.#assertPosition(fn, `offset[${b}]`, offsets[b] + Math.max(spec.seqLen - 1, 0));
        for (let t = 0; t < spec.seqLen; t++) list[b * spec.seqLen + t] = offsets[b] + t;
      }
      for (let a = 1; a < axes; a++) list.copyWithin(a * perAxis, 0, perAxis);
    } else {
      const offset = gpu.offset === undefined ? 0 : readSize(fn, 'offset', gpu.offset);
      const last = offset + Math.max(spec.seqLen - 1, 0);
      if (last > this.#posenc.limits.maxPosition)
        throw rangeError(fn, 'offset', `plus seqLen - 1 must be at most ${this.#posenc.limits.maxPosition}`);
      return { mode: 0, offset, first: offset, last };
    }
    let first = list.length ? list[0] : 0;
    let last = first;
    for (const p of list) {
      if (p < first) first = p;
      if (p > last) last = p;
    }
    return { mode: 1, list, signed: false, first, last };
  }

  /** The cos/sin table that covers `rows` for this schedule (and xPos role), kept and grown (#covering). */
  #ropeTable(fn, spec, role, rows) {
    const length = rows.last + 1; // the call's length, as dynamic and longrope scaling and xPos's center take it
    let end = this.#posenc.limits.maxPosition + 1;
    let regime = 0;
    if (spec.scaling && LENGTH_SCHEDULES.includes(spec.scaling.type)) {
      const original = spec.scaling.originalMaxPositionEmbeddings;
      // up to the original length the schedule is one; beyond, each length has its own
      regime = length <= original ? 'within' : length;
      end = Math.max(length, original);
    }
    const xpos = spec.xpos && { ...spec.xpos, center: spec.xpos.center ?? Math.ceil(length / 2), role };
    const key = JSON.stringify([spec.rotaryDim, spec.base, spec.scaling ?? null, xpos ?? null, spec.inverse, regime]);
    const compute = (first, count) => this.#ropeRows(spec, xpos, first, count);
    const make = (first) => new GrowingTable(this.#device, { rowFloats: spec.rotaryDim, compute, first, end });
    return this.#covering(fn, key, make, rows);
  }

  /**
   * The table kept under `key` that covers rows.first … rows.last, grown or made anew by
   * `make(first)`. It starts at position 0, or at the call's first position when that is far
   * out (a long context) or when rows from 0 cannot exist (xPos far from its center) or fit the
   * device.
   */
  #covering(fn, key, make, rows) {
    const start = rows.first < NEAR_START ? 0 : rows.first;
    return checkedByCpu(fn, () => {
      let table = this.#tables.get(key, () => make(start));
      if (rows.first < table.first) table = this.#tables.set(key, make(start));
      try {
        return table.cover(fn, 'positions', rows.last);
      } catch (error) {
        if (!(error instanceof RangeError) || table.first === rows.first) throw error;
        return this.#tables.set(key, make(rows.first)).cover(fn, 'positions', rows.last);
      }
    });
  }

  /**
   * Rows `first … first + count − 1` of a schedule's cos/sin, (cos, sin) per pair: the CPU's
   * rope of unit pairs (1, 0), whose rotation is exactly (cos, sin), attention factor and xPos
   * scale included, as the CPU rotation applies them.
   */
  #ropeRows(spec, xpos, first, count) {
    const rd = spec.rotaryDim;
    const unit = new Float32Array(count * rd);
    for (let i = 0; i < unit.length; i += 2) unit[i] = 1;
    return this.#posenc.rope(unit, {
      seqLen: count,
      headDim: rd,
      base: spec.base,
      ...(spec.scaling === undefined ? {} : { scaling: spec.scaling }),
      inverse: spec.inverse,
      ...(xpos === undefined ? {} : { xpos }),
      offset: first,
    });
  }

  #ropeDispatch(fn, spec, dtype, heads, xArg, out, table, rows) {
    const samePlace = out === undefined || (out.buffer === xArg.buffer && out.offset === xArg.offset);
    const oneBuffer = out === undefined || out.buffer === xArg.buffer;
    const pairs = spec.rotaryDim / 2;
    const copy = !samePlace && spec.rotaryDim < spec.headDim;
    const meta = this.#meta(rows);
    const entries = [{ binding: 4, resource: { buffer: table.buffer } }, ...this.#positionsEntry(rows)];
    if (samePlace) {
      const binding = bindingOf(fn, this.#limits, xArg);
      meta[ROPE_META.inBase] = binding.base;
      meta[ROPE_META.outBase] = binding.base;
      entries.push({ binding: 3, resource: binding.resource });
    } else if (oneBuffer) {
      const binding = sharedBinding(fn, this.#limits, xArg, out);
      [meta[ROPE_META.inBase], meta[ROPE_META.outBase]] = binding.bases;
      entries.push({ binding: 3, resource: binding.resource });
    } else {
      const input = bindingOf(fn, this.#limits, xArg);
      const output = bindingOf(fn, this.#limits, out);
      meta[ROPE_META.inBase] = input.base;
      meta[ROPE_META.outBase] = output.base;
      entries.push({ binding: 2, resource: input.resource }, { binding: 3, resource: output.resource });
    }
    meta[ROPE_META.seqLen] = spec.seqLen;
    meta[ROPE_META.numHeads] = heads;
    meta[ROPE_META.headDim] = spec.headDim;
    meta[ROPE_META.pairs] = pairs;
    meta[ROPE_META.batch] = spec.batch;
    meta[ROPE_META.order] = spec.order === 'heads' ? 1 : 0;
    meta[ROPE_META.layout] = spec.layout === 'half' ? 1 : 0;
    meta[ROPE_META.copy] = copy ? 1 : 0;
    meta[ROPE_META.first] = table.first;
    meta[ROPE_META.rows] = table.rows;
    if (spec.mrope) {
      meta[ROPE_META.mrope] = spec.mrope.interleaved ? 2 : 1;
      [meta[ROPE_META.sectionT], meta[ROPE_META.sectionH], meta[ROPE_META.sectionW]] = spec.mrope.section;
    }
    const half = dtype === 'float16';
    // float16: one thread per 32-bit word (a pair, or two pairs of the half layout)
    const turning = half && spec.layout === 'half' ? pairs / 2 : pairs;
    const passing = (copy ? spec.headDim - spec.rotaryDim : 0) / (half ? 2 : 1);
    const threads = spec.batch * spec.seqLen * heads * (turning + passing);
    const name = `rope${half ? '-float16' : ''}${oneBuffer ? '-one-buffer' : ''}`;
    const kernel = this.#dispatcher.pipeline(
      name,
      () => (half ? ropeHalfKernel : ropeKernel)(oneBuffer),
      oneBuffer ? KERNEL_BINDINGS.ropeOneBuffer : KERNEL_BINDINGS.rope,
    );
    return this.#dispatcher.dispatch(fn, kernel, meta, threads, entries, rows.list);
  }

  /** A kernel's parameters with the rows' mode (positions given on the CPU go beside them: Dispatcher.dispatch). */
  #meta(rows) {
    const meta = this.#dispatcher.parameters();
    meta[2] = rows.mode;
    if (rows.mode === 0) meta[3] = rows.offset;
    else if (!rows.list) meta[4] = rows.signed ? 1 : 0;
    return meta;
  }

  /** Binding 1 for positions in the caller's buffer (others are read from the parameters' buffer). */
  #positionsEntry(rows) {
    return rows.buffer ? [{ binding: 1, resource: bindingOf('', this.#limits, rows.buffer).resource }] : [];
  }

  /** T5 buckets of the distances of a [queryLen, keyLen] block, from the CPU's own function. */
  #buckets(fn, options) {
    const { cpu } = splitOptions(fn, options, []);
    const queryLen = this.#length(fn, 'queryLen', cpu.queryLen);
    const keyLen = this.#length(fn, 'keyLen', cpu.keyLen);
    const offset = cpu.offset ?? 0;
    // the block's own rules first, by the CPU (zero-length blocks compute nothing)
    checkedByCpu(fn, () => this.#posenc.relativePositionBuckets({ ...cpu, keyLen: 0 }));
    checkedByCpu(fn, () => this.#posenc.relativePositionBuckets({ ...cpu, queryLen: 0 }));
    if (queryLen === 0 || keyLen === 0) return { buckets: new Int32Array(0), first: 0, queryLen, keyLen, offset };
    // every distance j − (offset + i) is j' − (offset + queryLen − 1) for one row of queryLen + keyLen − 1 keys
    const last = offset + queryLen - 1;
    const buckets = checkedByCpu(fn, () =>
      this.#posenc.relativePositionBuckets({ ...cpu, queryLen: 1, keyLen: queryLen + keyLen - 1, offset: last }),
    );
    return { buckets, first: -last, queryLen, keyLen, offset };
  }

  #newBuffer(label, bytes) {
    return this.#device.createBuffer({
      label,
      size: Math.max(4, Math.ceil(bytes / 4) * 4),
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
    });
  }

  /** Queue writes of `arrays` into `targets`, validated (a destroyed buffer named). */
  #write(fn, targets, arrays) {
    return this.#dispatcher.submit(fn, targets, () => {
      for (const [i, target] of targets.entries())
        this.#device.queue.writeBuffer(target.buffer, target.offset, arrays[i]);
    });
  }
}

/** `bytes`, which the queue writes: a multiple of 4 (an odd count of float16 values is not). */
function writable(fn, name, bytes) {
  if (bytes % 4 !== 0)
    throw rangeError(
      fn,
      name,
      `makes ${bytes / 2} float16 values: the queue writes whole 4-byte words, so the count must be even`,
    );
  return bytes;
}

/** An out buffer that must be given (the GPU methods do not allocate what they write with a kernel). */
function requiredBuffer(fn, value) {
  if (value === undefined) throw typeError(fn, 'out', 'is required: the GPUBuffer (or { buffer, offset }) to write');
  return value;
}

/** `{ first, second }` of an out option, read once. */
function readPair(fn, name, value, first, second) {
  if (value === null || typeof value !== 'object')
    throw typeError(fn, name, `must be an object { ${first}, ${second} } of GPUBuffers`);
  let pair;
  try {
    pair = { [first]: value[first], [second]: value[second] };
  } catch (error) {
    throw typeError(fn, name, `could not be read (${error?.message ?? error})`, { cause: error });
  }
  for (const key of [first, second]) if (pair[key] === undefined) throw typeError(fn, `${name}.${key}`, 'is required');
  return pair;
}
