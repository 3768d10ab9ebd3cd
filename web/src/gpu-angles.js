// What a shader that computes RoPE's angles itself gets: f32(position) · f32(inv_freq), then
// WGSL's cos and sin, on a GPUDevice. Returns, per position, the largest error of cos/sin over
// the pairs against float64. The tutorial's GPU-precision section and the posenc/webgpu tests
// measure with it; posenc/webgpu itself never computes an angle on the GPU.

const KERNEL = /* wgsl */ `
@group(0) @binding(0) var<storage, read> inv: array<f32>;
@group(0) @binding(1) var<storage, read> pos: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<vec2<f32>>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  let n = arrayLength(&inv);
  if (id.x >= n * arrayLength(&pos)) { return; }
  let angle = f32(pos[id.x / n]) * inv[id.x % n];
  out[id.x] = vec2<f32>(cos(angle), sin(angle));
}`;

/** Float64Array of the largest |WGSL cos/sin − float64| over the pairs, one per position. */
export async function wgslAngleErrors(device, invFreq, positions) {
  const pairs = invFreq.length;
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
  const upload = (array) => {
    const buffer = device.createBuffer({ size: Math.max(4, array.byteLength), usage });
    device.queue.writeBuffer(buffer, 0, array);
    return buffer;
  };
  const bytes = 8 * pairs * positions.length;
  const out = device.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const read = device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const module = device.createShaderModule({ code: KERNEL });
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const inputs = [upload(Float32Array.from(invFreq)), upload(Uint32Array.from(positions)), out];
  const group = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: inputs.map((buffer, binding) => ({ binding, resource: { buffer } })),
  });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, group);
  pass.dispatchWorkgroups(Math.ceil((pairs * positions.length) / 64));
  pass.end();
  encoder.copyBufferToBuffer(out, 0, read, 0, bytes);
  device.queue.submit([encoder.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const values = new Float32Array(read.getMappedRange().slice(0));
  for (const buffer of [...inputs, read]) buffer.destroy();
  const errors = new Float64Array(positions.length);
  for (let n = 0; n < positions.length; n++) {
    for (let i = 0; i < pairs; i++) {
      const angle = positions[n] * invFreq[i];
      const at = 2 * (n * pairs + i);
      errors[n] = Math.max(
        errors[n],
        Math.abs(values[at] - Math.cos(angle)),
        Math.abs(values[at + 1] - Math.sin(angle)),
      );
    }
  }
  return errors;
}
