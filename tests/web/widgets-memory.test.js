// What an element keeps: a page of many figures at their largest settings holds their pictures
// (on the canvases, outside the JS heap) and not their numbers. Each element type at the largest
// sizes its settings allow is mounted in batches on the gallery; the JS heap after a forced
// garbage collection (objects and ArrayBuffer contents, through the DevTools protocol) grows by
// less than BOUND per element. A first batch comes before the measurement: what a page keeps
// once for all its elements (posenc's WASM memory, the last result of each posenc operation, the
// heatmaps' shared paint strip) is not any element's.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { waitForIdle } from './support/browser.js';
import { useGallerySession } from './support/session.js';

const MiB = 2 ** 20;
const BOUND = 0.5 * MiB; // the per-element bound of docs/widgets.md (Size)
const COUNT = 6; // elements measured per type
const WARM_UP = 2;

// Every element its own numbers (a seed or a base of its own), so none shares another's.
const CASES = [
  { tag: 'posenc-pe-heatmap', attributes: (i) => ({ 'seq-len': 2048, 'd-model': 2048, base: 10000 + i }) },
  {
    tag: 'posenc-rope-heatmap',
    attributes: (i) => ({ 'seq-len': 2048, 'head-dim': 256, content: 'random', seed: i + 1 }),
  },
  { tag: 'posenc-compare', attributes: (i) => ({ 'seq-len': 512, 'd-model': 256, content: 'tokens', seed: i + 1 }) },
  { tag: 'posenc-attention', attributes: (i) => ({ 'seq-len': 256, 'head-dim': 64, content: 'tokens', seed: i + 1 }) },
  {
    tag: 'posenc-wavelengths',
    attributes: (i) => ({ 'seq-len': 2048, 'd-model': 2048, base: 10000 + i, dims: '0,400,800,1200,1600,2047' }),
  },
  { tag: 'posenc-rotation', attributes: (i) => ({ position: 1000, 'd-model': 256, base: 10000 + i }) },
  { tag: 'posenc-vectors-2d', attributes: (i) => ({ offset: 1000 - i }) },
  { tag: 'posenc-worked-example', attributes: (i) => ({ the: `${i},0.1,0.8,0.3` }) },
];

const session = useGallerySession();
let page;
let cdp;
before(async () => {
  ({ page } = await session);
  cdp = await page.context().newCDPSession(page);
});

/** The JS heap in use after a forced garbage collection: objects plus ArrayBuffer contents. */
async function heapBytes() {
  for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize, backingStorageSize } = await cdp.send('Runtime.getHeapUsage');
  assert.equal(typeof backingStorageSize, 'number', 'this Chromium reports no ArrayBuffer contents');
  return usedSize + backingStorageSize;
}

/** Mounts elements `first` … `first + count − 1` of a case in a box of their own; waits until all are drawn. */
async function mount({ tag, attributes }, first, count) {
  const list = Array.from({ length: count }, (_, i) => attributes(first + i));
  await page.evaluate(
    async ({ tag, list }) => {
      const box = document.createElement('div');
      box.className = 'memory-check';
      const drawn = list.map((settings) => {
        const element = document.createElement(tag);
        for (const [name, value] of Object.entries(settings)) element.setAttribute(name, String(value));
        box.append(element);
        return new Promise((resolve) => element.addEventListener('posenc-change', resolve, { once: true }));
      });
      document.querySelector('main').append(box);
      await Promise.all(drawn);
    },
    { tag, list },
  );
  await waitForIdle(page, 120_000);
}

for (const item of CASES) {
  test(`${item.tag} at its largest settings keeps under ${BOUND / MiB} MiB of JS heap`, async (t) => {
    await mount(item, 0, WARM_UP);
    const start = await heapBytes();
    await mount(item, WARM_UP, COUNT);
    const perElement = ((await heapBytes()) - start) / COUNT;
    t.diagnostic(`${item.tag}: ${(perElement / MiB).toFixed(3)} MiB per element`);
    await page.evaluate(() => {
      for (const box of document.querySelectorAll('.memory-check')) box.remove();
    });
    assert.ok(perElement < BOUND, `${(perElement / MiB).toFixed(2)} MiB per element`);
  });
}
