// Recording posenc's kernels: pipelines compiled once per device, each dispatch's parameters in
// a small storage buffer of its own (work recorded now may run after later calls: nothing is
// shared that a later call would overwrite), passes recorded onto the caller's command encoder
// or submitted here inside an error scope, so a destroyed buffer becomes an error that names it.
import { rangeError } from '../js/errors.js';
import { WORKGROUP } from './wgsl.js';

/** Bytes of one dispatch's parameters slot (a dynamic offset: a multiple of the storage alignment). */
const SLOT_BYTES = 256;
/** Bytes of each parameters arena (a new one when it is full: slots are never rewritten). */
const ARENA_BYTES = 1 << 20;
const BIND_GROUPS_KEPT = 256;

/**
 * The bindings of each kernel after binding 0 (its parameters, read at a dynamic offset):
 * 'read-only-storage' or 'storage' by binding number (wgsl.js declares the same).
 */
export const KERNEL_BINDINGS = Object.freeze({
  rope: { 1: 'read-only-storage', 2: 'read-only-storage', 3: 'storage', 4: 'read-only-storage' },
  ropeOneBuffer: { 1: 'read-only-storage', 3: 'storage', 4: 'read-only-storage' },
  addSinusoidal: { 1: 'read-only-storage', 3: 'storage', 4: 'read-only-storage' },
  distances: { 3: 'storage', 4: 'read-only-storage' },
});

export class Dispatcher {
  #device;
  #pipelines = new Map(); // name -> { pipeline, layout, reads positions }
  #probe; // a pipeline that reads one buffer: finds which one was destroyed
  #arena; // { buffer, used }: where each dispatch's parameters (and positions given on the CPU) go
  #groups = new Map(); // bind groups by the resources they hold, so a decoding step makes none
  #ids = new WeakMap(); // GPUBuffer -> a number, for those keys
  #nextId = 1;
  #limits; // the device's limits this reads on every dispatch, read once
  #scratch = new Uint32Array(SLOT_BYTES / 4); // the parameters being filled (writeBuffer copies them at once)

  constructor(device) {
    this.#device = device;
    const { minStorageBufferOffsetAlignment, maxComputeWorkgroupsPerDimension } = device.limits;
    this.#limits = { minStorageBufferOffsetAlignment, maxComputeWorkgroupsPerDimension };
  }

  /**
   * The compute pipeline of a kernel (entry point `main`; `code()` its WGSL, asked for once),
   * with an explicit layout of `bindings` (KERNEL_BINDINGS), made once.
   */
  pipeline(name, code, bindings) {
    let made = this.#pipelines.get(name);
    if (!made) {
      const device = this.#device;
      const entries = [
        {
          binding: 0,
          visibility: GPUShaderStage.COMPUTE,
          buffer: { type: 'read-only-storage', hasDynamicOffset: true },
        },
        ...Object.entries(bindings).map(([binding, type]) => ({
          binding: Number(binding),
          visibility: GPUShaderStage.COMPUTE,
          buffer: { type },
        })),
      ];
      const layout = device.createBindGroupLayout({ label: `posenc ${name}`, entries });
      const module = device.createShaderModule({ label: `posenc ${name}`, code: code() });
      const pipeline = device.createComputePipeline({
        label: `posenc ${name}`,
        layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
        compute: { module, entryPoint: 'main' },
      });
      made = { pipeline, layout, positions: 1 in bindings, name };
      this.#pipelines.set(name, made);
    }
    return made;
  }

  /** The parameters of the next dispatch, all 0: filled by the caller, then passed to dispatch(), which copies them. */
  parameters() {
    return this.#scratch.fill(0);
  }

  /**
   * A dispatch of `threads` threads of `kernel` (from pipeline()): `meta` (a Uint32Array whose
   * slots 0 and 1 this fills: threads per row of the grid and the count; slot 3 too when `list`,
   * positions given on the CPU, follows it) written to a slot of its own, plus `entries`
   * ({ binding, resource }); a kernel that reads positions and is given no binding 1 reads them
   * from the arena, after the parameters.
   */
  dispatch(fn, kernel, meta, threads, entries, list) {
    if (threads === 0) return { threads }; // nothing to bind or run (record() skips it)
    const limits = this.#limits;
    const groups = Math.ceil(threads / WORKGROUP);
    const x = Math.max(1, Math.min(groups, limits.maxComputeWorkgroupsPerDimension));
    const y = Math.max(1, Math.ceil(groups / x));
    if (y > limits.maxComputeWorkgroupsPerDimension || threads > 0xffffffff)
      throw rangeError(fn, 'options', `make ${threads} threads, more than one dispatch of this device holds`);
    meta[0] = x * WORKGROUP;
    meta[1] = threads;
    const all = [...entries];
    if (list) {
      const place = this.#place(list);
      meta[3] = place.offset / 4;
      all.push({ binding: 1, resource: { buffer: place.buffer } });
    }
    const slot = this.#place(meta, SLOT_BYTES);
    if (kernel.positions && !all.some((e) => e.binding === 1))
      all.push({ binding: 1, resource: { buffer: slot.buffer } });
    all.push({ binding: 0, resource: { buffer: slot.buffer, offset: 0, size: SLOT_BYTES } });
    return { pipeline: kernel.pipeline, group: this.#bindGroup(kernel, all), offset: slot.offset, x, y, threads };
  }

  /** Writes `array` into the arena (whole slots of `bytes`, or its own size aligned), or a buffer of its own when too large. */
  #place(array, bytes = array.byteLength) {
    const alignment = this.#limits.minStorageBufferOffsetAlignment;
    const size = Math.max(SLOT_BYTES, Math.ceil(bytes / alignment) * alignment);
    if (size > ARENA_BYTES / 4) {
      const buffer = this.#device.createBuffer({
        label: 'posenc positions',
        size,
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
      });
      this.#device.queue.writeBuffer(buffer, 0, array);
      return { buffer, offset: 0 };
    }
    if (!this.#arena || this.#arena.used + size > ARENA_BYTES) {
      // the full arena is dropped, not destroyed: work recorded but not yet submitted still reads it
      const buffer = this.#device.createBuffer({
        label: 'posenc parameters',
        size: ARENA_BYTES,
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
      });
      this.#arena = { buffer, used: 0 };
    }
    const offset = this.#arena.used;
    this.#arena.used += size;
    this.#device.queue.writeBuffer(this.#arena.buffer, offset, array);
    return { buffer: this.#arena.buffer, offset };
  }

  #id(buffer) {
    let id = this.#ids.get(buffer);
    if (id === undefined) {
      id = this.#nextId++;
      this.#ids.set(buffer, id);
    }
    return id;
  }

  /** The bind group of these resources, made once (a decoding step on the same buffers reuses it). */
  #bindGroup(kernel, entries) {
    entries.sort((a, b) => a.binding - b.binding);
    let key = kernel.name;
    for (const { binding, resource } of entries)
      key += `|${binding}:${this.#id(resource.buffer)}:${resource.offset ?? 0}:${resource.size ?? ''}`;
    let group = this.#groups.get(key);
    if (!group) {
      group = this.#device.createBindGroup({ label: 'posenc', layout: kernel.layout, entries });
      if (this.#groups.size >= BIND_GROUPS_KEPT) this.#groups.clear();
      this.#groups.set(key, group);
    }
    return group;
  }

  /**
   * Records the dispatches `make()` returns in one compute pass on `encoder`; without one,
   * submits them and returns a promise that settles once WebGPU has validated the work, from the
   * making of its bind groups to the submission (an error scope around all of it). `buffers` are
   * the caller's ({ name, buffer }), checked one by one when WebGPU reports an error.
   */
  record(fn, encoder, make, buffers) {
    const own = encoder === undefined;
    const device = this.#device;
    if (own) device.pushErrorScope('validation');
    try {
      const dispatches = make();
      const commands = own ? device.createCommandEncoder({ label: `posenc ${fn}` }) : encoder;
      const pass = commands.beginComputePass({ label: `posenc ${fn}` });
      for (const d of dispatches) {
        if (d.threads === 0) continue;
        pass.setPipeline(d.pipeline);
        pass.setBindGroup(0, d.group, [d.offset]);
        pass.dispatchWorkgroups(d.x, d.y);
      }
      pass.end();
      if (!own) return undefined;
      device.queue.submit([commands.finish()]);
    } catch (error) {
      if (own) device.popErrorScope().catch(() => {}); // the error thrown says what went wrong
      throw error;
    }
    return this.#settle(fn, buffers);
  }

  /** The error scope pushed by record() or submit(), popped: a validation error becomes posenc's. */
  async #settle(fn, buffers) {
    const error = await this.#device.popErrorScope();
    if (error) throw await this.#explain(fn, error, buffers);
  }

  /** Runs `write` (queue writes) in a validation error scope; a failure names its buffer. */
  submit(fn, buffers, write) {
    this.#device.pushErrorScope('validation');
    write();
    return this.#settle(fn, buffers);
  }

  async #explain(fn, error, buffers) {
    for (const { name, buffer } of buffers) {
      if (await this.#destroyed(buffer)) {
        return rangeError(
          fn,
          name,
          'cannot be used: it was destroyed (GPUBuffer.destroy()) or belongs to another GPUDevice',
        );
      }
    }
    return Object.assign(
      new Error(`posenc.webgpu.${fn}: WebGPU refused the work (${error.message})`, { cause: error }),
      {
        function: fn,
        parameter: undefined,
      },
    );
  }

  /** Whether using `buffer` in a submission fails: a one-thread pass that binds it (STORAGE), or a write (COPY_DST). */
  async #destroyed(buffer) {
    const device = this.#device;
    device.pushErrorScope('validation');
    if (buffer.usage & GPUBufferUsage.STORAGE) {
      this.#probe ??= device.createComputePipeline({
        layout: 'auto',
        compute: {
          module: device.createShaderModule({
            code: '@group(0) @binding(0) var<storage, read> b: array<u32>; @compute @workgroup_size(1) fn main() { _ = b[0]; }',
          }),
          entryPoint: 'main',
        },
      });
      const group = device.createBindGroup({
        layout: this.#probe.getBindGroupLayout(0),
        entries: [{ binding: 0, resource: { buffer, offset: 0, size: 4 } }],
      });
      const commands = device.createCommandEncoder();
      const pass = commands.beginComputePass();
      pass.setPipeline(this.#probe);
      pass.setBindGroup(0, group);
      pass.dispatchWorkgroups(1);
      pass.end();
      device.queue.submit([commands.finish()]);
    } else {
      device.queue.writeBuffer(buffer, 0, new Uint32Array(0));
    }
    return (await device.popErrorScope()) !== null;
  }
}
