// The GPU rows of the benchmark, run in the page (bench/webgpu.js serves it from 127.0.0.1):
// the CPU time to record one decoding step's RoPE (queries and keys of one token, Llama 3 8B's
// 32 and 8 heads of 128) onto a command encoder, and, on the GPU, RoPE on [2048, 32, 128]
// float32 in place against a buffer copy of the same bytes. A software adapter (SwiftShader)
// runs every row once, so the code is exercised, but its GPU times say nothing of a real GPU.
import { loadPosenc } from '../bindings/js/index.js';
import { createGpuEncoder } from '../bindings/webgpu/index.js';
import { summarize } from './stats.js';

const DECODE = { seqLen: 1, numHeads: 32, numKvHeads: 8, headDim: 128, layout: 'half', base: 500000 };
const PREFILL = { seqLen: 2048, numHeads: 32, headDim: 128, layout: 'half' };

/** Per-call ms of `call(i)`: batches of `perBatch` calls, each batch's time / perBatch, after a warm-up. */
function perCall(call, { batches, perBatch, after }) {
  for (let i = 0; i < perBatch; i++) call(i);
  after();
  const samples = [];
  for (let b = 0; b < batches; b++) {
    const started = performance.now();
    for (let i = 0; i < perBatch; i++) call(b * perBatch + i);
    samples.push((performance.now() - started) / perBatch);
    after();
  }
  return summarize(samples);
}

/** Wall ms per pass of `record(encoder)` on the device: `passes` per submission, until onSubmittedWorkDone. */
async function gpuTime(device, record, { samples, passes }) {
  const times = [];
  for (let s = -1; s < samples; s++) {
    const encoder = device.createCommandEncoder();
    for (let p = 0; p < passes; p++) record(encoder);
    const started = performance.now();
    device.queue.submit([encoder.finish()]);
    await device.queue.onSubmittedWorkDone();
    if (s >= 0) times.push((performance.now() - started) / passes); // s = -1: warm-up (pipelines, tables)
  }
  return summarize(times);
}

export async function measureWebGpu() {
  if (!navigator.gpu) return { skip: 'navigator.gpu is undefined (no WebGPU in this browser)' };
  const adapter = await navigator.gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) return { skip: 'navigator.gpu.requestAdapter() returned null (no adapter)' };
  const { architecture, vendor, description } = adapter.info;
  const software = architecture === 'swiftshader' || adapter.info.isFallbackAdapter === true;
  const device = await adapter.requestDevice({
    requiredLimits: {
      maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
      maxBufferSize: adapter.limits.maxBufferSize,
    },
  });
  const gpu = await createGpuEncoder(device, { posenc: await loadPosenc() });
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

  // one decoding step, recorded onto the step's encoder: the CPU time of the call
  const q = device.createBuffer({ size: 32 * 128 * 4, usage });
  const k = device.createBuffer({ size: 8 * 128 * 4, usage });
  let encoder = device.createCommandEncoder();
  const recording = perCall((step) => gpu.ropeQK(q, k, { ...DECODE, offset: step, encoder }), {
    batches: software ? 10 : 30,
    perBatch: 100,
    after: () => {
      device.queue.submit([encoder.finish()]);
      encoder = device.createCommandEncoder();
    },
  });
  await device.queue.onSubmittedWorkDone();

  // RoPE on [2048, 32, 128] float32 in place, and a copy of the same 32 MiB
  const bytes = PREFILL.seqLen * PREFILL.numHeads * PREFILL.headDim * 4;
  const x = device.createBuffer({ size: bytes, usage });
  const y = device.createBuffer({ size: bytes, usage });
  const runs = software ? { samples: 1, passes: 1 } : { samples: 15, passes: 10 };
  const rope = await gpuTime(device, (e) => gpu.rope(x, { ...PREFILL, encoder: e }), runs);
  const copy = await gpuTime(device, (e) => e.copyBufferToBuffer(x, 0, y, 0, bytes), runs);
  for (const buffer of [q, k, x, y]) buffer.destroy();
  device.destroy();
  return { adapter: { architecture, vendor, description, software }, recording, rope, copy, bytes };
}
