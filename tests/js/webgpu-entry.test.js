// posenc/webgpu in Node: importing it touches no browser global (server-side rendering imports
// it), its WGSL is plain strings, createGpuEncoder refuses what is not a GPUDevice, and its
// hand-written types accept a consumer's calls and reject wrong ones.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { typecheckScratch } from '../typecheck.js';

const ENTRY = new URL('../../bindings/webgpu/index.js', import.meta.url);

test('importing posenc/webgpu reads no browser global (navigator, GPUBuffer, GPUDevice, GPUBufferUsage)', async () => {
  const touched = [];
  const names = ['navigator', 'GPUBuffer', 'GPUDevice', 'GPUBufferUsage', 'GPUCommandEncoder'];
  const saved = names.map((name) => Object.getOwnPropertyDescriptor(globalThis, name));
  for (const name of names) {
    Object.defineProperty(globalThis, name, {
      configurable: true,
      get() {
        touched.push(name);
        throw new Error(`${name} read at import`);
      },
    });
  }
  try {
    const webgpu = await import(`${ENTRY.href}?ssr`);
    assert.deepEqual(Object.keys(webgpu).sort(), [
      'ALIBI_WGSL',
      'ROTATE_WGSL',
      'bucketTableWgsl',
      'createGpuEncoder',
      'ropeTableWgsl',
    ]);
  } finally {
    names.forEach((name, i) => {
      if (saved[i]) Object.defineProperty(globalThis, name, saved[i]);
      else delete globalThis[name];
    });
  }
  assert.deepEqual(touched, []);
});

test('createGpuEncoder without WebGPU: a TypeError naming device, not a ReferenceError', async () => {
  const { createGpuEncoder } = await import(ENTRY.href);
  await assert.rejects(
    createGpuEncoder({}),
    (error) => error instanceof TypeError && error.parameter === 'device' && /GPUDevice/.test(error.message),
  );
});

test('the WGSL for authors: functions with the documented names, bindings where asked, bad slots refused', async () => {
  const { ALIBI_WGSL, ROTATE_WGSL, bucketTableWgsl, ropeTableWgsl } = await import(ENTRY.href);
  assert.match(ROTATE_WGSL, /fn posenc_rotate\(a: f32, b: f32, cs: vec2<f32>\) -> vec2<f32>/);
  assert.match(ALIBI_WGSL, /fn posenc_alibi\(slope: vec2<f32>, distance: i32\) -> f32/);
  assert.match(
    ropeTableWgsl({ group: 1, binding: 3 }),
    /@group\(1\) @binding\(3\) var<storage, read> posenc_rope_table/,
  );
  assert.match(ropeTableWgsl(), /@group\(0\) @binding\(0\)/);
  assert.match(
    bucketTableWgsl({ binding: 5 }),
    /@group\(0\) @binding\(5\) var<storage, read> posenc_bucket_table: array<i32>/,
  );
  assert.throws(() => ropeTableWgsl({ group: -1 }), /group must be an integer/);
  assert.throws(() => bucketTableWgsl({ binding: '2) var x' }), RangeError);
});

test("posenc/webgpu's types: a consumer's calls check, wrong ones do not", () => {
  const entry = fileURLToPath(new URL('../../bindings/webgpu/index.js', import.meta.url));
  const good = `
import { createGpuEncoder, ropeTableWgsl } from '${entry}';
declare const device: { limits: { minStorageBufferOffsetAlignment: number; maxStorageBufferBindingSize: number; maxBufferSize: number; maxComputeWorkgroupsPerDimension: number }; lost: Promise<unknown> };
declare const buffer: { size: number; usage: number; mapState: 'unmapped' };
declare const encoder: { beginComputePass(): unknown };
const gpu = await createGpuEncoder(device);
const recorded: undefined = gpu.rope(buffer, { seqLen: 1, numHeads: 32, headDim: 128, layout: 'half', offset: 7, encoder });
const submitted: Promise<void> = gpu.ropeQK({ buffer, offset: 256 }, buffer, { seqLen: 4, numHeads: 8, numKvHeads: 2, headDim: 64, positions: buffer, maxPosition: 4095 });
const table = gpu.ropeTable({ headDim: 128, maxPosition: 8191, scaling: { type: 'linear', factor: 2 } });
const pairs: number = table.pairs;
const wgsl: string = ropeTableWgsl({ group: 0, binding: 2 });
export { recorded, submitted, pairs, wgsl };
`;
  typecheckScratch(good);
  const bad = [
    'gpu.rope(buffer, { seqLen: 1, headDim: 8, positions: buffer });', // a positions buffer needs maxPosition
    "gpu.rope(buffer, { seqLen: 1, headDim: 8, dtype: 'bfloat16' });",
    'gpu.rope(buffer, { seqLen: 1, headDim: 8, offset: 1, positions: [0] });',
  ];
  for (const line of bad) {
    assert.throws(
      () =>
        typecheckScratch(`
import { createGpuEncoder } from '${entry}';
declare const device: { limits: { minStorageBufferOffsetAlignment: number; maxStorageBufferBindingSize: number; maxBufferSize: number; maxComputeWorkgroupsPerDimension: number }; lost: Promise<unknown> };
declare const buffer: { size: number; usage: number; mapState: 'unmapped' };
const gpu = await createGpuEncoder(device);
${line}
`),
      /tsc found errors/,
      line,
    );
  }
});
