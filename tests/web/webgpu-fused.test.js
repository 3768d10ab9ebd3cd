// The WGSL posenc/webgpu exports, in a kernel of one's own: docs/webgpu-fused-scores.js fuses
// RoPE (and ALiBi) into a q·kᵀ pass, checked against the CPU's rotation and bias; and why the
// angles come from posenc's table: WGSL's own sin/cos of position · inv_freq on this adapter,
// measured against float64 beside the table's.
import assert from 'node:assert/strict';
import precision from '../precision.json' with { type: 'json' };
import { useWebGpuPage } from './support/webgpu.js';

const { gpuTest } = useWebGpuPage();

gpuTest("the fused RoPE + q·kᵀ example matches posenc's CPU rotation and ALiBi bias", async (t, page) => {
  const cases = [
    { queryLen: 9, keyLen: 40, offset: 31, rope: { headDim: 64, layout: 'half' }, alibi: false },
    { queryLen: 5, keyLen: 3000, offset: 2995, rope: { headDim: 32, rotaryDim: 16, base: 500000 }, alibi: true },
    {
      queryLen: 4,
      keyLen: 70,
      offset: 66,
      rope: { headDim: 32, layout: 'half', scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 32 } },
      alibi: false,
    },
  ];
  for (const c of cases) {
    const result = await page.evaluate(async (c) => {
      const { gpu, posenc, device, upload, download, random } = window.__kit;
      const { fusedScores } = await import('../../docs/webgpu-fused-scores.js');
      const { headDim, layout = 'interleaved', ...schedule } = c.rope;
      const q = random(c.queryLen * headDim, 21);
      const k = random(c.keyLen * headDim, 22);
      const scores = upload(new Float32Array(c.queryLen * c.keyLen));
      const encoder = device.createCommandEncoder();
      fusedScores(gpu, {
        q: upload(q),
        k: upload(k),
        scores,
        queryLen: c.queryLen,
        keyLen: c.keyLen,
        offset: c.offset,
        rope: c.rope,
        alibi: c.alibi,
        encoder,
      });
      device.queue.submit([encoder.finish()]);
      const got = await download(scores);
      // the CPU: rotate, then the float64 dot of the rotated float32 vectors
      const rq = posenc.rope(q.slice(), { seqLen: c.queryLen, headDim, layout, ...schedule, offset: c.offset });
      const rk = posenc.rope(k.slice(), { seqLen: c.keyLen, headDim, layout, ...schedule });
      const bias = c.alibi
        ? posenc.alibiBias({ numHeads: 1, queryLen: c.queryLen, keyLen: c.keyLen, offset: c.offset })
        : undefined;
      const scale = 1 / Math.sqrt(headDim);
      let worst = 0;
      for (let i = 0; i < c.queryLen; i++) {
        for (let j = 0; j < c.keyLen; j++) {
          let dot = 0;
          let magnitude = 0;
          for (let d = 0; d < headDim; d++) {
            dot += rq[i * headDim + d] * rk[j * headDim + d];
            magnitude += Math.abs(rq[i * headDim + d] * rk[j * headDim + d]);
          }
          const b = bias ? bias[i * c.keyLen + j] : 0;
          const error = Math.abs(got[i * c.keyLen + j] - (scale * dot + b)) / (scale * magnitude + Math.abs(b));
          worst = Math.max(worst, error);
        }
      }
      return worst;
    }, c);
    t.diagnostic(`${JSON.stringify(c)}: largest error relative to Σ|q·k| + |bias|: ${result.toExponential(2)}`);
    // the rotation within ropeBound per pair, then float32 products and sums of headDim terms
    assert.ok(result <= 2 * precision.ropeBound + 64 * 2 ** -24, String(result));
  }
});

gpuTest(
  "WGSL's sin/cos of position · inv_freq against posenc's table, both against float64, at growing positions",
  async (t, page) => {
    const rows = await page.evaluate(async () => {
      const { gpu, device, posenc, download } = window.__kit;
      const headDim = 128;
      const invFreq = posenc.ropeFrequencies({ headDim });
      const positions = [5, 100, 1000, 10_000, 100_000, 1_000_000];
      // the naive shader: f32(position) · f32(inv_freq), then WGSL's cos and sin (the tutorial's helper)
      const { wgslAngleErrors } = await import('../../web/src/gpu-angles.js');
      const wgsl = await wgslAngleErrors(device, invFreq, positions);
      const pairs = invFreq.length;
      const result = [];
      for (const [n, p] of positions.entries()) {
        // posenc's table on the GPU for this position, read back as a kernel would read it
        const table = gpu.ropeTable({ headDim, minPosition: p, maxPosition: p });
        const row = await download(table.buffer, { offset: (1 + p - table.first) * pairs * 8, bytes: pairs * 8 });
        let posencError = 0;
        for (let i = 0; i < pairs; i++) {
          const angle = p * invFreq[i];
          posencError = Math.max(
            posencError,
            Math.abs(row[2 * i] - Math.cos(angle)),
            Math.abs(row[2 * i + 1] - Math.sin(angle)),
          );
        }
        result.push({ position: p, wgsl: wgsl[n], posenc: posencError });
      }
      return result;
    });
    for (const r of rows) {
      t.diagnostic(
        `position ${r.position}: WGSL sin/cos off by ${r.wgsl.toExponential(2)}, posenc's table by ${r.posenc.toExponential(2)}`,
      );
      assert.ok(r.posenc <= precision.tableBound, `posenc's table at ${r.position}: ${r.posenc}`);
    }
    // past a few thousand, f32(position) · f32(inv_freq) has lost the angle outright
    assert.ok(rows.at(-1).wgsl > 1e-2, JSON.stringify(rows.at(-1)));
  },
);

gpuTest(
  "posenc_bucket (bucketTableWgsl) and posenc_alibi (ALIBI_WGSL) in a kernel of one's own, against the CPU",
  async (t, page) => {
    const result = await page.evaluate(async () => {
      const { gpu, device, posenc, upload, download, webgpu } = window.__kit;
      const block = { queryLen: 6, keyLen: 50, offset: 20 };
      const heads = 5; // slopes that are not powers of two
      const buckets = gpu.bucketTable({ ...block, bidirectional: false });
      const slopes = gpu.alibiSlopes({ numHeads: heads });
      const code = /* wgsl */ `
      ${webgpu.bucketTableWgsl({ group: 0, binding: 0 })}
      ${webgpu.ALIBI_WGSL}
      @group(0) @binding(1) var<storage, read> slopes: array<vec2<f32>>;
      @group(0) @binding(2) var<storage, read_write> bucket_out: array<i32>;
      @group(0) @binding(3) var<storage, read_write> bias_out: array<f32>;
      @compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3<u32>) {
        let q = ${block.queryLen}u; let k = ${block.keyLen}u;
        if (id.x >= ${heads}u * q * k) { return; }
        let j = id.x % k; let i = (id.x / k) % q; let h = id.x / (q * k);
        let distance = i32(j) - i32(${block.offset}u + i);
        if (h == 0u) { bucket_out[id.x] = posenc_bucket(distance, ${buckets.first}, ${buckets.count}u); }
        bias_out[id.x] = posenc_alibi(slopes[h], distance);
      }`;
      const pipeline = device.createComputePipeline({
        layout: 'auto',
        compute: { module: device.createShaderModule({ code }), entryPoint: 'main' },
      });
      const bucketOut = upload(new Int32Array(block.queryLen * block.keyLen));
      const biasOut = upload(new Float32Array(heads * block.queryLen * block.keyLen));
      const group = device.createBindGroup({
        layout: pipeline.getBindGroupLayout(0),
        entries: [buckets.buffer, upload(slopes), bucketOut, biasOut].map((buffer, binding) => ({
          binding,
          resource: { buffer },
        })),
      });
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, group);
      pass.dispatchWorkgroups(Math.ceil((heads * block.queryLen * block.keyLen) / 64));
      pass.end();
      device.queue.submit([encoder.finish()]);
      const gotBuckets = await download(bucketOut, { Type: Int32Array });
      const gotBias = await download(biasOut);
      const cpuBuckets = posenc.relativePositionBuckets({ ...block, bidirectional: false });
      const cpuBias = posenc.alibiBias({ numHeads: heads, ...block });
      let worst = 0;
      for (let i = 0; i < cpuBias.length; i++) {
        if (cpuBias[i] !== 0) worst = Math.max(worst, Math.abs(gotBias[i] - cpuBias[i]) / Math.abs(cpuBias[i]));
        else if (gotBias[i] !== 0) worst = Number.POSITIVE_INFINITY;
      }
      return { bucketsSame: cpuBuckets.every((v, i) => v === gotBuckets[i]), worst };
    });
    t.diagnostic(`posenc_alibi: largest relative difference from the CPU's bias ${result.worst.toExponential(2)}`);
    assert.ok(result.bucketsSame);
    assert.ok(result.worst <= 2 ** -23, String(result.worst)); // hi · d + lo · d: within one float32 rounding
  },
);
