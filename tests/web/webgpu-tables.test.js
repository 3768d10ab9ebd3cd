// posenc/webgpu's tables on the software WebGPU adapter against the CPU path of the same
// options: ropeCache and sinusoidal (the CPU's numbers, uploaded: bit for bit), addSinusoidal
// (float32 additions of table rows on the GPU), ALiBi's bias and T5's buckets (each value the
// CPU's value of its distance: bit for bit).
import assert from 'node:assert/strict';
import precision from '../precision.json' with { type: 'json' };
import { useWebGpuPage } from './support/webgpu.js';

const { gpuTest } = useWebGpuPage();

gpuTest(
  'ropeCache: ONNX Runtime cos/sin caches in GPU buffers, bit for bit the CPU cache (positions, batch, scaling)',
  async (_t, page) => {
    const result = await page.evaluate(async () => {
      const { gpu, posenc, upload, download } = window.__kit;
      const cases = [
        { seqLen: 33, headDim: 64, offset: 100 },
        { seqLen: 5, rotaryDim: 32, batch: 2, positions: [0, 9, 3, 4000, 7, 1, 2, 3, 4, 5] },
        {
          seqLen: 9,
          headDim: 32,
          scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 64 },
          offset: 300,
        },
        { seqLen: 10, headDim: 16, offset: 7, dtype: 'float16' },
      ];
      const same = [];
      for (const o of cases) {
        const cpu = posenc.ropeCache(o);
        const made = await gpu.ropeCache(o);
        const into = {
          cos: upload(new Float32Array(cpu.cos.length + 3)),
          sin: upload(new Float32Array(cpu.sin.length)),
        };
        const given = await gpu.ropeCache({ ...o, out: { cos: { buffer: into.cos, offset: 12 }, sin: into.sin } });
        const views = [
          await download(made.cos, { bytes: cpu.cos.byteLength, Type: cpu.cos.constructor }),
          await download(made.sin, { bytes: cpu.cos.byteLength, Type: cpu.cos.constructor }),
          await download(into.cos, { offset: 12, bytes: cpu.cos.byteLength, Type: cpu.cos.constructor }),
          await download(into.sin, { bytes: cpu.cos.byteLength, Type: cpu.cos.constructor }),
        ];
        same.push(
          views.every((v, i) => v.every((x, j) => Object.is(x, (i % 2 ? cpu.sin : cpu.cos)[j]))) &&
            made.attentionFactor === cpu.attentionFactor &&
            given.cos === into.cos,
        );
      }
      return same;
    });
    assert.deepEqual(result, [true, true, true, true]);
  },
);

gpuTest(
  'sinusoidal into a GPU buffer is the CPU table bit for bit; addSinusoidal adds its rows on the GPU as the CPU does',
  async (t, page) => {
    const result = await page.evaluate(async () => {
      const { gpu, posenc, upload, download, random } = window.__kit;
      const table = { seqLen: 40, dModel: 48, layout: 'concat', offset: 70 };
      const cpuTable = posenc.sinusoidal(table);
      const gpuTable = await download(await gpu.sinusoidal(table), { bytes: cpuTable.byteLength });
      const tableSame = cpuTable.every((v, i) => Object.is(v, gpuTable[i]));
      const errors = [];
      for (const [o, onGpu] of [
        [{ seqLen: 40, dModel: 48, offset: 70 }, false],
        [{ seqLen: 40, dModel: 48, layout: 'concat', base: 500 }, false],
        [{ seqLen: 6, dModel: 16, positions: [5, 0, 70000, 3, 3, 1] }, false],
        [{ seqLen: 6, dModel: 16, positions: [5, 0, 900, 3, 3, 1] }, true],
        [{ seqLen: 9, dModel: 1024, offset: 3_000_000 }, false], // far out: a window of the table, not rows from 0
      ]) {
        const x = random(o.seqLen * o.dModel, 5);
        const cpu = posenc.addSinusoidal(x.slice(), o);
        const buffer = upload(x, { offset: 8 });
        const options = onGpu ? { ...o, positions: upload(Int32Array.from(o.positions)), maxPosition: 900 } : o;
        await gpu.addSinusoidal({ buffer, offset: 8 }, options);
        const got = await download(buffer, { offset: 8, bytes: x.byteLength });
        let worst = 0;
        for (let i = 0; i < x.length; i++) worst = Math.max(worst, Math.abs(got[i] - cpu[i]));
        errors.push(worst);
      }
      return { tableSame, errors };
    });
    t.diagnostic(`addSinusoidal, largest |GPU − CPU|: ${result.errors.map((e) => e.toExponential(2)).join(', ')}`);
    assert.ok(result.tableSame);
    // the GPU's rows may come from another call's recurrence than the CPU's: both within tableBound of float64
    for (const e of result.errors) assert.ok(e <= 2 * precision.tableBound, String(e));
  },
);

gpuTest(
  "alibiBias on the GPU against the CPU's: bit for bit, with offsets past and before the keys",
  async (t, page) => {
    const result = await page.evaluate(async () => {
      const { gpu, posenc, upload, download } = window.__kit;
      const out = [];
      for (const o of [
        { numHeads: 8, queryLen: 7, keyLen: 300 },
        { numHeads: 12, queryLen: 16, keyLen: 16, offset: 40000 },
        { numHeads: 5, queryLen: 3, keyLen: 9, offset: -20, maxBias: 6 },
      ]) {
        const cpu = posenc.alibiBias(o);
        const buffer = upload(new Float32Array(cpu.length + 64));
        await gpu.alibiBias({ ...o, out: { buffer, offset: 256 } });
        const got = await download(buffer, { offset: 256, bytes: cpu.byteLength });
        let worst = 0;
        let equal = 0;
        for (let i = 0; i < cpu.length; i++) {
          if (got[i] === cpu[i]) equal++;
          if (cpu[i] !== 0) worst = Math.max(worst, Math.abs(got[i] - cpu[i]) / Math.abs(cpu[i]));
          else if (got[i] !== 0) worst = Number.POSITIVE_INFINITY;
        }
        out.push({ worst, equal, length: cpu.length });
      }
      return out;
    });
    for (const r of result) {
      t.diagnostic(`alibi: ${r.equal} of ${r.length} equal, largest relative difference ${r.worst.toExponential(2)}`);
      assert.equal(r.equal, r.length);
    }
  },
);

gpuTest(
  "relativePositionBuckets on the GPU: T5's buckets, equal to the CPU's (encoder and decoder, with an offset)",
  async (_t, page) => {
    const result = await page.evaluate(async () => {
      const { gpu, posenc, upload, download } = window.__kit;
      const same = [];
      for (const o of [
        { queryLen: 20, keyLen: 300 },
        { queryLen: 7, keyLen: 64, bidirectional: false, offset: 50, numBuckets: 16, maxDistance: 40 },
        { queryLen: 1, keyLen: 5000, offset: 4999 },
      ]) {
        const cpu = posenc.relativePositionBuckets(o);
        const buffer = upload(new Int32Array(cpu.length));
        await gpu.relativePositionBuckets({ ...o, out: buffer });
        const got = await download(buffer, { Type: Int32Array });
        same.push(cpu.every((v, i) => v === got[i]));
      }
      return same;
    });
    assert.deepEqual(result, [true, true, true]);
  },
);
