// Node's worker_threads take a loaded instance's compiled module like browser workers do: 8
// workers at once, each instantiating posenc.module (no file read, no compile), give the main
// thread's bits.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { loadPosenc } from '../../bindings/js/node.js';

const WORKER = `
  import { parentPort, workerData } from 'node:worker_threads';
  import { loadPosenc } from ${JSON.stringify(new URL('../../bindings/js/node.js', import.meta.url).href)};
  const posenc = await loadPosenc({ module: workerData.module });
  const x = new Float32Array(32 * 2 * 48).map((_, i) => Math.cos(i));
  posenc.rope(x, { seqLen: 32, numHeads: 2, headDim: 48, layout: 'half', offset: workerData.offset });
  const table = posenc.sinusoidal({ seqLen: 16, dModel: 40, offset: workerData.offset });
  parentPort.postMessage({ source: posenc.wasmSource, variant: posenc.variant, x, table });
`;

for (const simd of [true, false]) {
  it(`8 worker_threads share the ${simd ? 'SIMD' : 'scalar'} module and match the main thread bit for bit`, async () => {
    const posenc = await loadPosenc({ simd });
    const offsets = Array.from({ length: 8 }, (_, i) => i * 123457);
    const results = await Promise.all(
      offsets.map(
        (offset) =>
          new Promise((resolve, reject) => {
            const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(WORKER)}`), {
              workerData: { module: posenc.module, offset },
            });
            worker.once('message', (message) => worker.terminate().then(() => resolve(message)));
            worker.once('error', reject);
          }),
      ),
    );
    for (const [i, result] of results.entries()) {
      const x = new Float32Array(32 * 2 * 48).map((_, j) => Math.cos(j));
      posenc.rope(x, { seqLen: 32, numHeads: 2, headDim: 48, layout: 'half', offset: offsets[i] });
      const table = posenc.sinusoidal({ seqLen: 16, dModel: 40, offset: offsets[i] });
      assert.equal(result.source, 'module');
      assert.equal(result.variant, posenc.variant);
      assert.deepEqual(new Uint32Array(result.x.buffer), new Uint32Array(x.buffer), `worker ${i}: rope`);
      assert.deepEqual(new Uint32Array(result.table.buffer), new Uint32Array(table.buffer), `worker ${i}: table`);
    }
  });
}
