// Recording posenc's kernels: pipelines compiled once per device, each dispatch's parameters in
// a small storage buffer of its own (work recorded now may run after later calls: nothing is
// shared that a later call would overwrite), passes recorded onto the caller's command encoder
// or submitted here inside an error scope, so a destroyed buffer becomes an error that names it.
import { rangeError } from '../js/errors.js';
import { WORKGROUP } from './wgsl.js';

export class Dispatcher {
  #device;
  #pipelines = new Map();
  #probe; // a pipeline that reads one buffer: finds which one was destroyed

  constructor(device) {
    this.#device = device;
  }

  /** The compute pipeline of a kernel's WGSL (its entry point `main`), made once. */
  pipeline(name, code) {
    let pipeline = this.#pipelines.get(name);
    if (!pipeline) {
      const module = this.#device.createShaderModule({ label: `posenc ${name}`, code });
      pipeline = this.#device.createComputePipeline({
        label: `posenc ${name}`,
        layout: 'auto',
        compute: { module, entryPoint: 'main' },
      });
      this.#pipelines.set(name, pipeline);
    }
    return pipeline;
  }

  /**
   * A dispatch of `threads` threads: `meta` (a Uint32Array whose slot 0 and 1 this fills: threads
   * per row of the grid and the count) in a buffer of its own at binding 0, plus `entries`
   * ({ binding, resource }). A kernel that reads `positions` (binding 1) and is given none reads
   * the meta buffer there, where the positions given on the CPU follow the parameters.
   */
  dispatch(fn, pipeline, meta, threads, entries, { positions = false } = {}) {
    const limits = this.#device.limits;
    const groups = Math.ceil(threads / WORKGROUP);
    const x = Math.max(1, Math.min(groups, limits.maxComputeWorkgroupsPerDimension));
    const y = Math.max(1, Math.ceil(groups / x));
    if (y > limits.maxComputeWorkgroupsPerDimension || threads > 0xffffffff)
      throw rangeError(fn, 'options', `make ${threads} threads, more than one dispatch of this device holds`);
    meta[0] = x * WORKGROUP;
    meta[1] = threads;
    const buffer = this.#device.createBuffer({
      label: 'posenc parameters',
      size: Math.max(16, meta.byteLength + 15 - ((meta.byteLength + 15) % 16)),
      usage: GPUBufferUsage.STORAGE,
      mappedAtCreation: true,
    });
    new Uint32Array(buffer.getMappedRange(0, meta.byteLength)).set(meta);
    buffer.unmap();
    const all = [{ binding: 0, resource: { buffer } }];
    if (positions && !entries.some((e) => e.binding === 1)) all.push({ binding: 1, resource: { buffer } });
    all.push(...entries);
    const layout = pipeline.getBindGroupLayout(0);
    const group = this.#device.createBindGroup({ label: 'posenc', layout, entries: all });
    return { pipeline, group, x, y, threads };
  }

  /**
   * Records `dispatches` in one compute pass on `encoder`; without one, submits them and returns
   * a promise that settles once WebGPU has validated the submission. `buffers` are the caller's
   * ({ name, buffer }), checked one by one when the submission fails.
   */
  record(fn, encoder, dispatches, buffers) {
    const own = encoder === undefined;
    const commands = own ? this.#device.createCommandEncoder({ label: `posenc ${fn}` }) : encoder;
    const pass = commands.beginComputePass({ label: `posenc ${fn}` });
    for (const d of dispatches) {
      if (d.threads === 0) continue;
      pass.setPipeline(d.pipeline);
      pass.setBindGroup(0, d.group);
      pass.dispatchWorkgroups(d.x, d.y);
    }
    pass.end();
    if (!own) return undefined;
    return this.submit(fn, [commands.finish()], buffers);
  }

  /** Submits command buffers (or runs `write`, queue writes) in a validation error scope; a failure names its buffer. */
  async submit(fn, commandBuffers, buffers, write) {
    this.#device.pushErrorScope('validation');
    if (write) write();
    else this.#device.queue.submit(commandBuffers);
    const error = await this.#device.popErrorScope();
    if (error) throw await this.#explain(fn, error, buffers);
  }

  async #explain(fn, error, buffers) {
    for (const { name, buffer } of buffers) {
      if (await this.#destroyed(buffer)) {
        return rangeError(fn, name, 'was destroyed (GPUBuffer.destroy()): give a live buffer');
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
      this.#probe ??= this.pipeline(
        'probe',
        '@group(0) @binding(0) var<storage, read> b: array<u32>; @compute @workgroup_size(1) fn main() { _ = b[0]; }',
      );
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
