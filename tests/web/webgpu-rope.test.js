// posenc/webgpu's rope and ropeQK on the software WebGPU adapter, against posenc's CPU path of
// the same options (same page, same instance) and against a float64 rotation: every case
// within the precision contract, ropeBound · (|x_a| + |x_b|) · attention factor.
import assert from 'node:assert/strict';
import precision from '../precision.json' with { type: 'json' };
import { useWebGpuPage } from './support/webgpu.js';

const { gpuTest } = useWebGpuPage();
const BOUND = precision.ropeBound;

/**
 * Runs rope on the GPU and the CPU: `o` the CPU's options, `gpuOptions` what the GPU call adds
 * or replaces (positions in a buffer, bounds), `place` where x and out sit. Returns the errors
 * against the CPU and against float64 (relative to the pair), and whether the channels that do
 * not turn came through bit for bit.
 */
function ropeCase(page, o, { place = 'in-place', positionsOnGpu, role, xOffset = 0 } = {}) {
  return page.evaluate(
    async ({ o, place, positionsOnGpu, role, xOffset }) => {
      const { gpu, posenc, upload, download, random, pairError, ropeReference } = window.__kit;
      const heads = o.numHeads ?? 1;
      const length = (o.batch ?? 1) * o.seqLen * heads * o.headDim;
      const x = random(length, 7);
      const cpuOptions = { ...o, ...(role ? { xpos: { ...o.xpos, role } } : {}) };
      const cpu = posenc.rope(x.slice(), cpuOptions);
      const xBuffer = upload(x, { offset: xOffset, extra: place === 'same-buffer' ? xOffset + x.byteLength + 256 : 0 });
      const options = { ...cpuOptions };
      if (positionsOnGpu) {
        const Type = positionsOnGpu === 'uint32' ? Uint32Array : Int32Array;
        options.positions = { buffer: upload(Type.from(o.positions)), offset: 0 };
        options.positionsType = positionsOnGpu;
        options.maxPosition = Math.max(...o.positions);
      }
      const xArg = { buffer: xBuffer, offset: xOffset };
      let outArg = xArg;
      if (place === 'out') outArg = { buffer: upload(new Float32Array(length).fill(9), { offset: 12 }), offset: 12 };
      if (place === 'same-buffer') outArg = { buffer: xBuffer, offset: xOffset + x.byteLength + 256 };
      if (place !== 'in-place') options.out = outArg;
      await gpu.rope(xArg, options);
      const got = await download(outArg.buffer, { offset: outArg.offset, bytes: x.byteLength });
      const reference = ropeReference(x, cpuOptions, role);
      const shape = {
        headDim: o.headDim,
        rotaryDim: reference.rotaryDim,
        layout: o.layout,
        factor: reference.attentionFactor,
      };
      let passThrough = true;
      for (let i = 0; i < length; i++) if (i % o.headDim >= reference.rotaryDim && got[i] !== x[i]) passThrough = false;
      return {
        cpu: pairError(got, cpu, x, shape),
        float64: pairError(got, reference.out, x, shape),
        cpuFloat64: pairError(cpu, reference.out, x, shape),
        passThrough,
      };
    },
    { o, place, positionsOnGpu, role, xOffset },
  );
}

function assertWithin(t, label, result) {
  t.diagnostic(
    `${label}: GPU vs CPU ${result.cpu.toExponential(2)}, GPU vs float64 ${result.float64.toExponential(2)} (CPU vs float64 ${result.cpuFloat64.toExponential(2)})`,
  );
  assert.ok(result.cpu <= BOUND, `${label}: GPU vs CPU ${result.cpu} > ${BOUND}`);
  assert.ok(result.float64 <= BOUND, `${label}: GPU vs float64 ${result.float64} > ${BOUND}`);
  assert.ok(result.passThrough, `${label}: the channels that do not turn changed`);
}

gpuTest(
  'rope: both layouts, partial rotary, in place, into another buffer and into the same buffer at any 4-byte offset',
  async (t, page) => {
    for (const layout of ['interleaved', 'half']) {
      for (const [rotary, place, xOffset] of [
        [{}, 'in-place', 0],
        [{ rotaryDim: 8 }, 'out', 0],
        [{ partialRotaryFactor: 0.25 }, 'same-buffer', 260],
        [{ rotaryDim: 12 }, 'in-place', 4],
      ]) {
        const o = { seqLen: 37, numHeads: 3, headDim: 32, layout, offset: 5, ...rotary };
        assertWithin(
          t,
          `${layout} ${JSON.stringify(rotary)} ${place} at ${xOffset}`,
          await ropeCase(page, o, { place, xOffset }),
        );
      }
    }
  },
);

gpuTest(
  'rope at long positions: offsets into the millions, where position · inv_freq in float32 loses the angle',
  async (t, page) => {
    for (const offset of [4096, 1_000_000, 2 ** 31 - 64]) {
      const o = { seqLen: 17, numHeads: 2, headDim: 64, layout: 'half', offset };
      assertWithin(t, `offset ${offset}`, await ropeCase(page, o, { place: 'out' }));
    }
  },
);

gpuTest(
  'rope: per-sequence offsets, positions arrays and int32 / uint32 position buffers, batches, heads order',
  async (t, page) => {
    const positions = Array.from({ length: 3 * 9 }, (_, i) => (i * 7919) % 5000);
    const cases = [
      [{ seqLen: 9, batch: 3, numHeads: 2, headDim: 16, offset: [0, 40, 3000] }, {}],
      [{ seqLen: 9, batch: 3, numHeads: 2, headDim: 16, order: 'heads', positions }, {}],
      [{ seqLen: 9, batch: 3, numHeads: 2, headDim: 16, layout: 'half', positions }, { positionsOnGpu: 'int32' }],
      [
        { seqLen: 9, batch: 3, numHeads: 2, headDim: 16, order: 'heads', positions },
        { positionsOnGpu: 'uint32', place: 'out' },
      ],
    ];
    for (const [o, how] of cases)
      assertWithin(t, JSON.stringify({ ...o, positions: undefined, ...how }), await ropeCase(page, o, how));
  },
);

gpuTest(
  "rope: every Hugging Face scaling type, inverse, xPos, M-RoPE (Qwen2-VL's sections and Qwen3-VL's interleaved ones)",
  async (t, page) => {
    const pairs = 16; // headDim 32
    const cases = [
      { scaling: { type: 'linear', factor: 4 } },
      { scaling: { type: 'dynamic', factor: 2, originalMaxPositionEmbeddings: 64 }, offset: 10 }, // within: the plain schedule
      { scaling: { type: 'dynamic', factor: 2, originalMaxPositionEmbeddings: 64 }, offset: 200 }, // beyond: grown base
      { scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 128 }, offset: 900 },
      {
        scaling: { type: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 256 },
      },
      {
        scaling: {
          type: 'longrope',
          shortFactor: Array.from({ length: pairs }, (_, i) => 1 + i / 16),
          longFactor: Array.from({ length: pairs }, (_, i) => 1 + i / 4),
          originalMaxPositionEmbeddings: 64,
          maxPositionEmbeddings: 1024,
        },
        offset: 100,
      },
      { scaling: { type: 'proportional', factor: 2, partialRotaryFactor: 0.5 } },
      { inverse: true, offset: 77 },
      {
        mrope: { section: [4, 6, 6] },
        layout: 'half',
        positions: Array.from({ length: 3 * 20 }, (_, i) => (i * 31) % 97),
      },
      {
        mrope: { section: [6, 5, 5], interleaved: true },
        positions: Array.from({ length: 3 * 20 }, (_, i) => (i * 13) % 50),
      },
    ];
    for (const extra of cases) {
      const o = { seqLen: 20, numHeads: 2, headDim: 32, ...extra };
      assertWithin(
        t,
        JSON.stringify({ ...extra, positions: undefined }).slice(0, 120),
        await ropeCase(page, o, { place: 'out' }),
      );
    }
    for (const role of ['query', 'key']) {
      const o = { seqLen: 20, numHeads: 2, headDim: 32, layout: 'half', offset: 30, xpos: { scaleBase: 512 } };
      assertWithin(t, `xPos ${role}`, await ropeCase(page, o, { role }));
    }
  },
);

gpuTest(
  'rope: positions a buffer holds beyond maxPosition come out NaN, never as silently wrong angles',
  async (t, page) => {
    const result = await page.evaluate(async () => {
      const { gpu, upload, download } = window.__kit;
      const x = upload(new Float32Array(4 * 8).fill(1));
      const positions = upload(new Int32Array([0, 1, 500, -3]));
      await gpu.rope(x, { seqLen: 4, headDim: 8, positions, maxPosition: 1 });
      return Array.from(await download(x), (v) => (Number.isNaN(v) ? 'NaN' : v));
    });
    t.diagnostic(JSON.stringify(result));
    assert.ok(result.slice(0, 16).every((v) => typeof v === 'number'));
    assert.ok(result.slice(16).every((v) => v === 'NaN'));
  },
);

gpuTest('ropeQK: grouped-query attention, in place and into out, xPos queries up and keys down', async (t, page) => {
  const cases = [
    { seqLen: 13, numHeads: 4, numKvHeads: 2, headDim: 32, layout: 'half', offset: 3 },
    { seqLen: 13, numHeads: 4, numKvHeads: 1, headDim: 32, rotaryDim: 16, batch: 2, order: 'heads', offset: [5, 900] },
    { seqLen: 13, numHeads: 2, headDim: 32, xpos: {}, offset: 10 },
  ];
  for (const o of cases) {
    for (const into of [false, true]) {
      const result = await page.evaluate(
        async ({ o, into }) => {
          const { gpu, posenc, upload, download, random, pairError } = window.__kit;
          const rows = (o.batch ?? 1) * o.seqLen * o.headDim;
          const q = random(rows * o.numHeads, 3);
          const k = random(rows * (o.numKvHeads ?? o.numHeads), 4);
          const cpu = posenc.ropeQK(q.slice(), k.slice(), o);
          const qb = upload(q);
          const kb = upload(k);
          const out = into
            ? { q: upload(new Float32Array(q.length)), k: upload(new Float32Array(k.length)) }
            : undefined;
          await gpu.ropeQK(qb, kb, { ...o, ...(out ? { out } : {}) });
          const gq = await download(out ? out.q : qb);
          const gk = await download(out ? out.k : kb);
          const shape = {
            headDim: o.headDim,
            rotaryDim: o.rotaryDim ?? o.headDim,
            layout: o.layout,
            factor: o.xpos ? 2 : 1,
          };
          return { q: pairError(gq, cpu.q, q, shape), k: pairError(gk, cpu.k, k, shape) };
        },
        { o, into },
      );
      t.diagnostic(`${JSON.stringify(o)} out ${into}: q ${result.q.toExponential(2)}, k ${result.k.toExponential(2)}`);
      assert.ok(result.q <= BOUND && result.k <= BOUND, JSON.stringify(result));
    }
  }
});

gpuTest(
  'rope into a caller-given command encoder: nothing runs until the caller submits; decoding steps share one table',
  async (_t, page) => {
    const result = await page.evaluate(async () => {
      const { gpu, posenc, device, upload, download, random, pairError } = window.__kit;
      const o = { seqLen: 1, numHeads: 4, numKvHeads: 2, headDim: 64, layout: 'half' };
      const errors = [];
      let before;
      const steps = 40;
      const q = random(steps * 4 * 64, 11);
      const k = random(steps * 2 * 64, 12);
      const qb = upload(q);
      const kb = upload(k);
      const encoder = device.createCommandEncoder();
      for (let step = 0; step < steps; step++) {
        const recorded = gpu.ropeQK(
          { buffer: qb, offset: step * 4 * 64 * 4 },
          { buffer: kb, offset: step * 2 * 64 * 4 },
          { ...o, offset: step, encoder },
        );
        if (recorded !== undefined) errors.push('returned something');
        if (step === 0) before = await download(qb, { bytes: 4 * 64 * 4 });
      }
      device.queue.submit([encoder.finish()]);
      const gq = await download(qb);
      const gk = await download(kb);
      let worst = 0;
      for (let step = 0; step < steps; step++) {
        const cq = posenc.ropeQK(q.slice(step * 256, step * 256 + 256), k.slice(step * 128, step * 128 + 128), {
          ...o,
          offset: step,
        });
        worst = Math.max(
          worst,
          pairError(gq.subarray(step * 256, step * 256 + 256), cq.q, q.subarray(step * 256, step * 256 + 256), o),
          pairError(gk.subarray(step * 128, step * 128 + 128), cq.k, k.subarray(step * 128, step * 128 + 128), o),
        );
      }
      return { errors, unchangedBeforeSubmit: before.every((v, i) => v === q[i]), worst };
    });
    assert.deepEqual(result.errors, []);
    assert.ok(result.unchangedBeforeSubmit);
    assert.ok(result.worst <= BOUND, String(result.worst));
  },
);

gpuTest(
  "float16 storage: rope and ropeQK on binary16 buffers against the CPU's float16 rotation (no shader-f16 needed)",
  async (t, page) => {
    const features = await page.evaluate(() => window.__kit.adapter.features);
    t.diagnostic(
      `the float16 kernels use core WGSL (unpack2x16float / pack2x16float); this adapter ${features.includes('shader-f16') ? 'has' : 'has no'} shader-f16`,
    );
    const cases = [
      { seqLen: 11, numHeads: 3, headDim: 32, offset: 40 },
      { seqLen: 11, numHeads: 3, headDim: 32, layout: 'half', rotaryDim: 16, offset: 3000 },
      {
        seqLen: 6,
        batch: 2,
        numHeads: 2,
        headDim: 16,
        layout: 'half',
        order: 'heads',
        positions: [0, 5, 9, 200, 7, 1, 2, 3, 4, 5, 6, 7],
      },
      {
        seqLen: 8,
        numHeads: 2,
        headDim: 32,
        mrope: { section: [4, 6, 6] },
        layout: 'half',
        positions: Array.from({ length: 24 }, (_, i) => (i * 7) % 19),
      },
    ];
    for (const o of cases) {
      for (const place of ['in-place', 'out']) {
        const result = await page.evaluate(
          async ({ o, place }) => {
            const { gpu, posenc, upload, download, random } = window.__kit;
            const length = (o.batch ?? 1) * o.seqLen * (o.numHeads ?? 1) * o.headDim;
            const values = random(length, 9);
            // the values as float16 bits (the engine's Float16Array rounds to nearest even)
            const x = new Uint16Array(Float16Array.from(values).buffer);
            const cpu = posenc.rope(x.slice(), { ...o, dtype: 'float16' });
            const buffer = upload(x);
            const out = place === 'out' ? upload(new Uint16Array(length)) : undefined;
            await gpu.rope(buffer, { ...o, dtype: 'float16', ...(out ? { out } : {}) });
            const got = await download(out ?? buffer, { bytes: x.byteLength, Type: Uint16Array });
            let differ = 0;
            let worstUlps = 0;
            for (let i = 0; i < length; i++) {
              if (got[i] !== cpu[i]) {
                differ++;
                worstUlps = Math.max(worstUlps, Math.abs(got[i] - cpu[i]));
              }
            }
            return { differ, worstUlps, length };
          },
          { o, place },
        );
        t.diagnostic(
          `${JSON.stringify({ ...o, positions: undefined })} ${place}: ${result.differ} of ${result.length} differ from the CPU's bits`,
        );
        assert.equal(result.differ, 0, JSON.stringify(result));
      }
    }
    const qk = await page.evaluate(async () => {
      const { gpu, posenc, upload, download, random } = window.__kit;
      const o = { seqLen: 7, numHeads: 4, numKvHeads: 2, headDim: 32, layout: 'half', xpos: { center: 20 }, offset: 9 };
      const q = new Uint16Array(Float16Array.from(random(7 * 4 * 32, 1)).buffer);
      const k = new Uint16Array(Float16Array.from(random(7 * 2 * 32, 2)).buffer);
      const cpu = posenc.ropeQK(q.slice(), k.slice(), { ...o, dtype: 'float16' });
      const qb = upload(q);
      const kb = upload(k);
      await gpu.ropeQK(qb, kb, { ...o, dtype: 'float16' });
      const gq = await download(qb, { Type: Uint16Array });
      const gk = await download(kb, { Type: Uint16Array });
      return cpu.q.every((v, i) => v === gq[i]) && cpu.k.every((v, i) => v === gk[i]);
    });
    assert.ok(qk, 'ropeQK on float16 (GQA, xPos) differs from the CPU');
  },
);

gpuTest('tables are kept per schedule and grown geometrically; empty calls record nothing', async (t, page) => {
  const result = await page.evaluate(async () => {
    const { gpu, upload } = window.__kit;
    const schedule = { headDim: 128, base: 500000 };
    const first = gpu.ropeTable({ ...schedule, layout: 'half', maxPosition: 10 });
    const same = gpu.ropeTable({ ...schedule, maxPosition: 200 }); // the layout does not change cos/sin
    const grown = gpu.ropeTable({ ...schedule, maxPosition: 5000 });
    const other = gpu.ropeTable({ ...schedule, base: 10000, maxPosition: 10 });
    // a call of no rows at the very end of a buffer binds nothing out of range: WebGPU reports nothing
    const { device } = window.__kit;
    const uncaptured = [];
    const listener = (event) => uncaptured.push(event.error.message);
    device.addEventListener('uncapturederror', listener);
    const x = upload(new Float32Array(64));
    let empty;
    try {
      await gpu.rope({ buffer: x, offset: 256 }, { seqLen: 0, headDim: 8 });
      await gpu.ropeQK({ buffer: x, offset: 256 }, { buffer: x, offset: 256 }, { seqLen: 4, batch: 0, headDim: 8 });
      await device.queue.onSubmittedWorkDone();
      await new Promise((resolve) => setTimeout(resolve, 50));
      empty = uncaptured.length ? uncaptured.join('; ') : 'resolved';
    } catch (error) {
      empty = error.message;
    }
    device.removeEventListener('uncapturederror', listener);
    return {
      reused: first.buffer === same.buffer && same.rows >= 201,
      firstRows: first.rows,
      grew: grown.buffer !== same.buffer && grown.rows >= 5001 && grown.rows < 2 * 5001 + 256,
      grownRows: grown.rows,
      separate: other.buffer !== first.buffer,
      empty,
    };
  });
  t.diagnostic(`table rows: ${result.firstRows} at first, ${result.grownRows} once position 5000 was asked for`);
  assert.ok(result.reused, 'a position inside the table made a new one');
  assert.ok(result.grew, JSON.stringify(result));
  assert.ok(result.separate, 'another base shared the table');
  assert.equal(result.empty, 'resolved');
});
