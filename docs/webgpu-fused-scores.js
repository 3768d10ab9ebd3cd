// An attention kernel of one's own with posenc's RoPE fused in: scores[i, j] = scale ·
// rot(q_i, offset + i) · rot(k_j, j) (+ ALiBi's bias), one head, in one pass, with no rotated
// copy of q or k. It shows the pieces posenc/webgpu exports for such kernels: the cos/sin table
// of a schedule (gpu.ropeTable and ropeTableWgsl), the rotation (ROTATE_WGSL) and the bias
// (gpu.alibiSlopes and ALIBI_WGSL). Tested by tests/web/webgpu-fused.test.js.
import { ALIBI_WGSL, ROTATE_WGSL, ropeTableWgsl } from '../bindings/webgpu/index.js';

const KERNEL = /* wgsl */ `
${ropeTableWgsl({ group: 0, binding: 0 })}
${ROTATE_WGSL}
${ALIBI_WGSL}
struct Shape {
  table: vec3<u32>,      // (pairs, first, rows), from gpu.ropeTable()
  query_len: u32,
  key_len: u32,
  head_dim: u32,
  offset: u32,           // the first query's position (keys sit at 0 … key_len − 1)
  half_layout: u32,      // 0: pairs (2p, 2p + 1); 1: pairs (p, p + rotaryDim / 2)
  slope: vec2<f32>,      // ALiBi's slope (hi, lo) from gpu.alibiSlopes(); (0, 0) for none
  scale: f32,
}
@group(0) @binding(1) var<storage, read> q: array<f32>;
@group(0) @binding(2) var<storage, read> k: array<f32>;
@group(0) @binding(3) var<storage, read_write> scores: array<f32>;
@group(0) @binding(4) var<uniform> shape: Shape;

fn channels(p: u32) -> vec2<u32> {
  if (shape.half_layout == 1u) { return vec2<u32>(p, p + shape.table.x); }
  return vec2<u32>(2u * p, 2u * p + 1u);
}

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  let i = id.x;
  let j = id.y;
  if (i >= shape.query_len || j >= shape.key_len) { return; }
  let qi = i * shape.head_dim;
  let kj = j * shape.head_dim;
  var sum = 0.0;
  for (var p = 0u; p < shape.table.x; p++) {
    let c = channels(p);
    let rq = posenc_rotate(q[qi + c.x], q[qi + c.y], posenc_rope_cos_sin(shape.offset + i, p, shape.table));
    let rk = posenc_rotate(k[kj + c.x], k[kj + c.y], posenc_rope_cos_sin(j, p, shape.table));
    sum += rq.x * rk.x + rq.y * rk.y;
  }
  for (var c = 2u * shape.table.x; c < shape.head_dim; c++) { sum += q[qi + c] * k[kj + c]; } // channels that do not turn
  scores[i * shape.key_len + j] = shape.scale * sum + posenc_alibi(shape.slope, i32(j) - i32(shape.offset + i));
}
`;

/**
 * Records the fused kernel: q [queryLen, headDim] and k [keyLen, headDim] (float32 GPUBuffers,
 * STORAGE) into scores [queryLen, keyLen]. `rope` holds rope's schedule options (headDim,
 * layout, rotaryDim, base, scaling…); `alibi: true` adds a one-head ALiBi bias.
 */
export function fusedScores(gpu, { q, k, scores, queryLen, keyLen, offset = 0, rope, alibi = false, encoder }) {
  const device = gpu.device;
  const { layout = 'interleaved', ...schedule } = rope;
  const table = gpu.ropeTable({ ...schedule, maxPosition: Math.max(offset + queryLen, keyLen) - 1 });
  const slope = alibi ? gpu.alibiSlopes({ numHeads: 1 }) : new Float32Array(2);
  const shape = new ArrayBuffer(48);
  new Uint32Array(shape, 0, 8).set([...table.table, queryLen, keyLen, rope.headDim, offset, layout === 'half' ? 1 : 0]);
  new Float32Array(shape, 32, 3).set([slope[0], slope[1], 1 / Math.sqrt(rope.headDim)]);
  const uniform = device.createBuffer({
    size: shape.byteLength,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(uniform, 0, shape);
  const module = device.createShaderModule({ code: KERNEL });
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const group = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [table.buffer, q, k, scores, uniform].map((buffer, binding) => ({ binding, resource: { buffer } })),
  });
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, group);
  pass.dispatchWorkgroups(Math.ceil(queryLen / 8), Math.ceil(keyLen / 8));
  pass.end();
}
