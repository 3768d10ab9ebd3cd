// posenc/webgpu refuses bad buffers and options before it records anything: each a TypeError or
// RangeError naming the parameter (the CPU's rules renamed to the GPU method), the caller's
// buffers untouched and the encoder usable afterwards; a destroyed buffer and a lost device are
// errors that say so.
import assert from 'node:assert/strict';
import { useWebGpuPage } from './support/webgpu.js';

const { gpuTest } = useWebGpuPage();

/** Runs each named case in the page: { name, parameter, fn, message } of what it threw, or { threw: false }. */
function refusals(page) {
  return page.evaluate(async () => {
    const { gpu, device, upload, download } = window.__kit;
    const o = { seqLen: 4, numHeads: 2, headDim: 8 };
    const bytes = 4 * 2 * 4 * 8;
    const io = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    const x = upload(new Float32Array(64).fill(1));
    const encoder = device.createCommandEncoder();
    const cases = {
      'no STORAGE usage': () => gpu.rope(device.createBuffer({ size: bytes, usage: GPUBufferUsage.COPY_DST }), o),
      'too small': () => gpu.rope(upload(new Float32Array(63)), o),
      'offset not a multiple of 4': () => gpu.rope({ buffer: upload(new Float32Array(80)), offset: 2 }, o),
      'offset past the room': () => gpu.rope({ buffer: upload(new Float32Array(80)), offset: 128 }, o),
      'negative offset': () => gpu.rope({ buffer: x, offset: -4 }, o),
      'not a buffer': () => gpu.rope(new Float32Array(64), o),
      'out partly over x': () => {
        const both = upload(new Float32Array(128));
        return gpu.rope(both, { ...o, out: { buffer: both, offset: 4 } });
      },
      'out partly over x, at its end': () => {
        const both = upload(new Float32Array(128));
        return gpu.rope({ buffer: both, offset: 128 }, { ...o, out: { buffer: both, offset: 0 } });
      },
      'odd headDim (the CPU rule)': () => gpu.rope(x, { ...o, headDim: 7 }),
      'unknown option': () => gpu.rope(x, { ...o, fooBar: 1 }),
      'positions buffer without maxPosition': () => gpu.rope(x, { ...o, positions: upload(new Int32Array(4)) }),
      'maxPosition with positions on the CPU': () => gpu.rope(x, { ...o, positions: [0, 1, 2, 3], maxPosition: 3 }),
      'positions of the wrong length': () => gpu.rope(x, { ...o, positions: [0, 1, 2] }),
      'positions buffer too small': () => gpu.rope(x, { ...o, positions: upload(new Int32Array(3)), maxPosition: 9 }),
      'positions and offset': () => gpu.rope(x, { ...o, positions: [0, 1, 2, 3], offset: 2 }),
      'negative position': () => gpu.rope(x, { ...o, positions: [0, -1, 2, 3] }),
      'offset list of the wrong length': () => gpu.rope(x, { ...o, offset: [1, 2] }),
      'positionsType unknown': () =>
        gpu.rope(x, { ...o, positions: upload(new Int32Array(4)), maxPosition: 3, positionsType: 'int64' }),
      'encoder not an encoder': () => gpu.rope(x, { ...o, encoder: {} }),
      'xpos without a role (rope)': () => gpu.rope(x, { ...o, xpos: {} }),
      'xpos role in ropeQK': () => gpu.ropeQK(x, upload(new Float32Array(64)), { ...o, xpos: { role: 'query' } }),
      'numKvHeads in rope': () => gpu.rope(x, { ...o, numKvHeads: 1 }),
      'q and k overlapping': () => gpu.ropeQK({ buffer: x }, { buffer: x, offset: 64 }, { ...o, numKvHeads: 1 }),
      'mapped buffer': () => gpu.rope(device.createBuffer({ size: bytes, usage: io, mappedAtCreation: true }), o),
      'bfloat16 storage': () => gpu.rope(x, { ...o, dtype: 'bfloat16' }),
      'float16, half layout, rotaryDim 6': () => gpu.rope(x, { ...o, dtype: 'float16', layout: 'half', rotaryDim: 6 }),
      'float16 cache of an odd count': () => gpu.ropeCache({ seqLen: 3, rotaryDim: 2, dtype: 'float16' }),
      'float16 addSinusoidal': () => gpu.addSinusoidal(x, { seqLen: 4, dModel: 8, dtype: 'float16' }),
      'getter that throws': () =>
        gpu.rope(x, {
          ...o,
          encoder,
          get base() {
            throw new Error('no base today');
          },
        }),
      'ropeCache into a buffer without COPY_DST': () =>
        gpu.ropeCache({
          seqLen: 4,
          headDim: 8,
          out: {
            cos: device.createBuffer({ size: 64, usage: GPUBufferUsage.STORAGE }),
            sin: upload(new Float32Array(16)),
          },
        }),
      'ropeCache into too small a buffer': () =>
        gpu.ropeCache({
          seqLen: 4,
          headDim: 8,
          out: { cos: upload(new Float32Array(15)), sin: upload(new Float32Array(16)) },
        }),
      'alibiBias without out': () => gpu.alibiBias({ numHeads: 2, queryLen: 2, keyLen: 2 }),
      'alibiBias numHeads 0 (the CPU rule)': () => gpu.alibiBias({ numHeads: 0, queryLen: 2, keyLen: 2, out: x }),
      'buckets with too few numBuckets (the CPU rule)': () =>
        gpu.relativePositionBuckets({ queryLen: 2, keyLen: 2, numBuckets: 1, out: x }),
      'addSinusoidal with an offset list': () => gpu.addSinusoidal(x, { seqLen: 4, dModel: 16, offset: [1] }),
      'ropeTable without maxPosition': () => gpu.ropeTable({ headDim: 8 }),
    };
    const results = {};
    for (const [name, run] of Object.entries(cases)) {
      try {
        await run();
        results[name] = { threw: false };
      } catch (error) {
        results[name] = { name: error.name, parameter: error.parameter, fn: error.function, message: error.message };
      }
    }
    // the encoder the refused calls were given has nothing recorded: it submits and changes nothing
    device.queue.submit([encoder.finish()]);
    const untouched = (await download(x)).every((v) => v === 1);
    await gpu.rope(x, o);
    const works = (await download(x)).some((v) => v !== 1);
    return { results, untouched, works };
  });
}

const EXPECTED = {
  'no STORAGE usage': ['TypeError', 'x', /needs GPUBufferUsage\.STORAGE/],
  'too small': ['RangeError', 'x', /must hold 256 bytes .*has 252 bytes/],
  'offset not a multiple of 4': ['RangeError', 'x.offset', /multiple of 4/],
  'offset past the room': ['RangeError', 'x', /from byte offset 128/],
  'negative offset': ['RangeError', 'x.offset', /non-negative/],
  'not a buffer': ['TypeError', 'x.buffer', /must be a GPUBuffer/],
  'out partly over x': ['RangeError', 'out', /overlaps x/],
  'out partly over x, at its end': ['RangeError', 'out', /overlaps x/],
  'odd headDim (the CPU rule)': ['RangeError', 'headDim', /^posenc\.webgpu\.rope: headDim must be even/],
  'unknown option': ['TypeError', 'options', /fooBar/],
  'positions buffer without maxPosition': ['TypeError', 'maxPosition', /is required with positions in a GPUBuffer/],
  'maxPosition with positions on the CPU': ['TypeError', 'maxPosition', /only with positions in a GPUBuffer/],
  'positions of the wrong length': ['RangeError', 'positions', /batch · seqLen = 4/],
  'positions buffer too small': ['RangeError', 'positions', /must hold 16 bytes/],
  'positions and offset': ['TypeError', 'offset', /cannot be combined with positions/],
  'negative position': ['RangeError', 'positions[1]', /integer in \[0, 2147483647\]/],
  'offset list of the wrong length': ['RangeError', 'offset', /one offset per sequence/],
  'positionsType unknown': ['TypeError', 'positionsType', /'int32', 'uint32'/],
  'encoder not an encoder': ['TypeError', 'encoder', /GPUCommandEncoder/],
  'xpos without a role (rope)': ['TypeError', 'xpos.role', /required by rope/],
  'xpos role in ropeQK': ['TypeError', 'xpos.role', /not taken here/],
  'numKvHeads in rope': ['TypeError', 'numKvHeads', /ropeQK/],
  'q and k overlapping': ['RangeError', 'k', /must not share memory with q/],
  'mapped buffer': ['RangeError', 'x', /is mapped/],
  'bfloat16 storage': ['RangeError', 'dtype', /'float32' or 'float16' here on the GPU/],
  'float16, half layout, rotaryDim 6': ['RangeError', 'rotaryDim', /multiple of 4/],
  'float16 cache of an odd count': ['RangeError', 'seqLen', /count must be even/],
  'float16 addSinusoidal': ['RangeError', 'dtype', /must be 'float32' here/],
  'getter that throws': ['TypeError', 'base', /no base today/],
  'ropeCache into a buffer without COPY_DST': ['TypeError', 'out.cos', /COPY_DST/],
  'ropeCache into too small a buffer': ['RangeError', 'out.cos', /must hold 64 bytes/],
  'alibiBias without out': ['TypeError', 'out', /is required/],
  'alibiBias numHeads 0 (the CPU rule)': ['RangeError', 'numHeads', /^posenc\.webgpu\.alibiBias: numHeads/],
  'buckets with too few numBuckets (the CPU rule)': [
    'RangeError',
    'numBuckets',
    /^posenc\.webgpu\.relativePositionBuckets: numBuckets/,
  ],
  'addSinusoidal with an offset list': ['TypeError', 'offset', /must be a number/],
  'ropeTable without maxPosition': ['TypeError', 'maxPosition', /is required/],
};

gpuTest(
  'bad buffers and options: errors naming the parameter, before anything is recorded; the encoder stays usable',
  async (t, page) => {
    const { results, untouched, works } = await refusals(page);
    for (const [name, [errorName, parameter, message]] of Object.entries(EXPECTED)) {
      const got = results[name];
      t.diagnostic(`${name}: ${got.message}`);
      assert.equal(got.name, errorName, `${name}: ${JSON.stringify(got)}`);
      assert.equal(got.parameter, parameter, `${name}: ${JSON.stringify(got)}`);
      assert.match(got.message, message, name);
      assert.match(got.message, /^posenc\.webgpu\./, name);
    }
    assert.deepEqual(Object.keys(results).sort(), Object.keys(EXPECTED).sort());
    assert.ok(untouched, 'a refused call changed x');
    assert.ok(works, 'the encoder did not work after the refusals');
  },
);

gpuTest('a destroyed buffer: the submitting call rejects with a RangeError naming it', async (t, page) => {
  const result = await page.evaluate(async () => {
    const { gpu, upload } = window.__kit;
    const o = { seqLen: 4, headDim: 8 };
    const out = {};
    for (const which of ['x', 'positions', 'out']) {
      const buffers = {
        x: upload(new Float32Array(32)),
        positions: upload(new Int32Array([0, 1, 2, 3])),
        out: upload(new Float32Array(32)),
      };
      buffers[which].destroy();
      try {
        await gpu.rope(buffers.x, { ...o, positions: buffers.positions, maxPosition: 3, out: buffers.out });
        out[which] = { message: 'resolved' };
      } catch (error) {
        out[which] = { name: error.name, parameter: error.parameter, message: error.message };
      }
    }
    const cos = upload(new Float32Array(16));
    cos.destroy();
    try {
      await gpu.ropeCache({ seqLen: 4, headDim: 8, out: { cos, sin: upload(new Float32Array(16)) } });
      out.cache = { message: 'resolved' };
    } catch (error) {
      out.cache = { name: error.name, parameter: error.parameter, message: error.message };
    }
    return out;
  });
  for (const [which, parameter] of [
    ['x', 'x'],
    ['positions', 'positions'],
    ['out', 'out'],
    ['cache', 'out.cos'],
  ]) {
    t.diagnostic(`${which}: ${result[which].message}`);
    assert.equal(result[which].name, 'RangeError', which);
    assert.equal(result[which].parameter, parameter, which);
    assert.match(result[which].message, /was destroyed/, which);
  }
});

gpuTest('a lost device: every method then throws a RangeError naming device, with the reason', async (t, page) => {
  const result = await page.evaluate(async () => {
    const { posenc, webgpu } = window.__kit;
    const device = await (await navigator.gpu.requestAdapter()).requestDevice();
    const gpu = await webgpu.createGpuEncoder(device, { posenc });
    const x = device.createBuffer({ size: 256, usage: GPUBufferUsage.STORAGE });
    device.destroy();
    await device.lost;
    const out = [];
    for (const run of [
      () => gpu.rope(x, { seqLen: 1, headDim: 8 }),
      () => gpu.ropeTable({ headDim: 8, maxPosition: 9 }),
    ]) {
      try {
        await run();
        out.push({ message: 'resolved' });
      } catch (error) {
        out.push({ name: error.name, parameter: error.parameter, message: error.message });
      }
    }
    return out;
  });
  for (const r of result) {
    t.diagnostic(r.message);
    assert.equal(r.name, 'RangeError');
    assert.equal(r.parameter, 'device');
    assert.match(r.message, /was lost \(destroyed/);
  }
});

gpuTest(
  'a buffer of another GPUDevice: the submitting call rejects naming it, and WebGPU reports nothing uncaught',
  async (t, page) => {
    const result = await page.evaluate(async () => {
      const { gpu, device, upload } = window.__kit;
      const other = await (await navigator.gpu.requestAdapter()).requestDevice();
      const foreign = other.createBuffer({ size: 256, usage: GPUBufferUsage.STORAGE });
      const uncaptured = [];
      const listener = (event) => uncaptured.push(event.error.message);
      device.addEventListener('uncapturederror', listener);
      let rejected;
      try {
        await gpu.rope(upload(new Float32Array(32)), { seqLen: 4, headDim: 8, out: foreign });
        rejected = { message: 'resolved' };
      } catch (error) {
        rejected = { name: error.name, parameter: error.parameter, message: error.message };
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      device.removeEventListener('uncapturederror', listener);
      other.destroy();
      return { rejected, uncaptured };
    });
    t.diagnostic(result.rejected.message);
    assert.equal(result.rejected.name, 'RangeError');
    assert.equal(result.rejected.parameter, 'out');
    assert.match(result.rejected.message, /belongs to another GPUDevice/);
    assert.deepEqual(result.uncaptured, []);
  },
);

gpuTest(
  'createGpuEncoder: without posenc it loads one from the default entry; a wrong posenc or device is a TypeError',
  async (_t, page) => {
    const result = await page.evaluate(async () => {
      const { device, webgpu, upload, download, posenc } = window.__kit;
      const own = await webgpu.createGpuEncoder(device);
      const x = upload(new Float32Array(16).fill(1));
      await own.rope(x, { seqLen: 2, headDim: 8, offset: 3 });
      const same = posenc.rope(new Float32Array(16).fill(1), { seqLen: 2, headDim: 8, offset: 3 });
      const got = await download(x);
      const refusals = [];
      for (const [device_, options] of [
        [device, { posenc: {} }],
        [{}, undefined],
      ]) {
        try {
          await webgpu.createGpuEncoder(device_, options);
          refusals.push('resolved');
        } catch (error) {
          refusals.push(`${error.name} ${error.parameter}`);
        }
      }
      return { loaded: own.posenc !== posenc && got.every((v, i) => v === same[i]), refusals };
    });
    assert.ok(result.loaded);
    assert.deepEqual(result.refusals, ['TypeError posenc', 'TypeError device']);
  },
);
