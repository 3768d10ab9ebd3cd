// posenc's JS layer in Chromium, whose engine fails differently from Node's: a list whose length
// says more than it holds (a sparse Array, a Proxy) is posenc's RangeError naming the parameter
// (Chromium threw a bare "Array buffer allocation failed"); Chromium's own Symbol.dispose is
// free(); and dropped WasmArrays and RopePlans are freed once the collector reclaims them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openPage } from './support/browser.js';
import { scriptPage } from './support/script-page.js';

// The page loads the browser entry from this checkout and hands the instance to the test.
const PAGE = `import { loadPosenc } from '../../bindings/js/index.js';
window.posenc = await loadPosenc();
window.sparse = (length) => { const a = []; a.length = length; return a; };
window.claiming = (length) => new Proxy([], { get: (_target, key) => (key === 'length' ? length : 1) });
window.refusal = (call) => {
  try {
    call();
    return null;
  } catch (error) {
    return { name: error.name, parameter: error.parameter, message: error.message };
  }
};
window.probe = () => {
  const small = posenc.allocate(1);
  const large = posenc.allocate(1 << 16);
  const at = [small.address, large.address];
  large.free();
  small.free();
  return at;
};
// The calls that read a list, by the parameter they name.
const longrope = { type: 'longrope', longFactor: [1, 1], originalMaxPositionEmbeddings: 4, factor: 2 };
window.takers = {
  'scaling.shortFactor': (list) =>
    posenc.rope(new Float32Array(8), { seqLen: 1, headDim: 4, scaling: { ...longrope, shortFactor: list } }),
  lengthOrValues: (list) => posenc.allocate(list),
  positions: (list) => posenc.rope(new Float32Array(8), { seqLen: 2, headDim: 4, positions: list }),
  'mrope.section': (list) => posenc.rope(new Float32Array(8), { seqLen: 2, headDim: 4, mrope: { section: list } }),
};
window.ready = true;
`;

const served = scriptPage('seam-in-chromium', 'seam', PAGE);

async function open() {
  const opened = await openPage(served.browser);
  await opened.page.goto(served.url);
  await opened.page.waitForFunction(() => window.ready, null, { timeout: 60_000 });
  return opened;
}

test('lists whose length says more than they hold are RangeErrors naming the parameter', async () => {
  const { page, context } = await open();
  try {
    // One evaluate per case: each is posenc's RangeError, at once (the first one failing stops the test).
    for (const length of [2 ** 32 - 1, 2 ** 31]) {
      for (const make of ['sparse', 'claiming']) {
        for (const parameter of ['scaling.shortFactor', 'lengthOrValues', 'positions', 'mrope.section']) {
          const error = await page.evaluate(
            ({ parameter, make, length }) => refusal(() => takers[parameter](window[make](length))),
            { parameter, make, length },
          );
          const label = `${parameter}, ${make}(${length})`;
          assert.equal(error?.name, 'RangeError', `${label}: ${JSON.stringify(error)}`);
          assert.equal(error.parameter, parameter, `${label}: ${error.message}`);
          assert.match(error.message, new RegExp(`must hold at most \\d+ elements \\(got ${length}\\)$`), label);
        }
      }
    }
    // Within the limit: the first hole, not 1 GiB allocated for the length first.
    const hole = await page.evaluate(() => refusal(() => posenc.allocate(sparse(posenc.limits.maxElements))));
    assert.equal(hole.parameter, 'lengthOrValues[0]', hole.message);
    const still = await page.evaluate(() => posenc.sinusoidal({ seqLen: 2, dModel: 4 })[4]);
    assert.equal(still, Math.fround(Math.sin(1))); // the instance still computes
  } finally {
    await context.close();
  }
});

test("Chromium's Symbol.dispose is free(), and dropped arrays and plans are freed once collected", async () => {
  const { page, context, log } = await open();
  try {
    const disposed = await page.evaluate(() => {
      const array = posenc.allocate(4);
      const plan = posenc.ropePlan({ seqLen: 1, headDim: 4 });
      const native = typeof Symbol.dispose === 'symbol';
      array[Symbol.dispose]();
      plan[Symbol.dispose]();
      return { native, freed: [array.freed, plan.freed] };
    });
    assert.deepEqual(disposed, { native: true, freed: [true, true] });

    const cdp = await context.newCDPSession(page);
    const collect = async () => {
      for (let i = 0; i < 5; i++) {
        await cdp.send('HeapProfiler.collectGarbage');
        await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
      }
    };
    const drop = () =>
      page.evaluate(() => {
        for (let i = 0; i < 20_000; i++) posenc.allocate(1024);
        for (let i = 0; i < 20_000; i++) posenc.ropePlan({ seqLen: 1, numHeads: 32, headDim: 128 });
      });
    const before = await page.evaluate(() => probe());
    await drop();
    await collect();
    const first = await page.evaluate(() => ({ probe: probe(), bytes: posenc.memoryBytes }));
    await drop();
    await collect();
    const second = await page.evaluate(() => ({ probe: probe(), bytes: posenc.memoryBytes }));
    assert.deepEqual(first.probe, before, 'the heap is back where it was');
    assert.deepEqual(second, first, 'a second round of drops does not grow WASM memory');
    const warnings = log.warnings.filter((text) => text.startsWith('posenc: '));
    assert.deepEqual(
      warnings.map((text) => /^posenc: an? (\w+) made at .+ was garbage-collected without free\(\)/.exec(text)?.[1]),
      ['WasmArray', 'RopePlan'],
      warnings.join('\n'),
    );
  } finally {
    await context.close();
  }
});
