// What frees a WasmArray's or RopePlan's WASM memory besides free(): garbage collection (a
// FinalizationRegistry frees what a dropped object held, and warns once naming where it was
// made) and `using` (Symbol.dispose), from TypeScript compiled for Node 20.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { typecheck } from '../typecheck.js';
import { mallocProbe } from './seam-support.js';
import { loadBothVariants } from './support.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc'); // this test file runs without --expose-gc
const root = fileURLToPath(new URL('../..', import.meta.url));
const nodeEntry = join(root, 'bindings/js/node.js');

const ARRAYS = 20_000;
const PLANS = 200_000;
const PLAN = { seqLen: 1, numHeads: 32, headDim: 128 };

/** Collects garbage and lets the finalization callbacks run, until `done()` or 50 turns. */
async function collect(done = () => false) {
  for (let turn = 0; turn < 50 && !done(); turn++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Where malloc would put a new small and a new large block (seam-support.js's probe). */
const heapProbe = mallocProbe;

/** Drops `count` objects made by `make`, then collects until the heap is back where it was. */
async function dropAndCollect(posenc, count, make) {
  const before = heapProbe(posenc);
  for (let i = 0; i < count; i++) make();
  await collect(() => {
    const now = heapProbe(posenc);
    return now.small === before.small && now.large === before.large;
  });
  return { before, after: heapProbe(posenc), memoryBytes: posenc.memoryBytes };
}

for (const posenc of await loadBothVariants()) {
  describe(`dropped without free() (${posenc.variant})`, () => {
    for (const [what, count, make] of [
      ['WasmArray(1024)', ARRAYS, () => posenc.allocate(1024)],
      ['RopePlan', PLANS, () => posenc.ropePlan(PLAN)],
    ]) {
      it(`${count} dropped ${what}s are freed once collected: the heap comes back and a second round does not grow memory`, async () => {
        const first = await dropAndCollect(posenc, count, make);
        assert.deepEqual(first.after, first.before, `the heap after ${count} dropped ${what}s and collection`);
        const second = await dropAndCollect(posenc, count, make);
        assert.deepEqual(second.after, second.before);
        assert.equal(second.memoryBytes, first.memoryBytes, 'the second round grew WASM memory');
      });
    }

    it("a window keeps its array's memory: dropping the array alone frees nothing", async () => {
      let array = posenc.allocate(Float32Array.of(1, 2, 3, 4));
      const window = array.subarray(2);
      array = null;
      for (let i = 0; i < 1000; i++) posenc.allocate(16); // garbage whose collection runs the registry
      await collect();
      const other = posenc.allocate(Float32Array.of(9, 9, 9, 9)); // would take a freed block
      assert.deepEqual(Array.from(window.toArray()), [3, 4]);
      assert.notEqual(other.address, window.address - 8);
      other.free();
      window.free();
    });

    it('an array or plan freed, then dropped, is not freed again by the collector', async () => {
      for (let i = 0; i < 100; i++) posenc.allocate(64).free();
      for (let i = 0; i < 100; i++) posenc.ropePlan(PLAN).free();
      const kept = posenc.allocate(Float32Array.of(5, 6, 7)); // at an address just freed above
      const plan = posenc.ropePlan({ seqLen: 1, headDim: 4 });
      await collect();
      const next = posenc.allocate(3);
      assert.notEqual(next.address, kept.address, 'a block was freed twice: malloc handed it out again');
      assert.deepEqual(Array.from(kept.toArray()), [5, 6, 7]);
      assert.equal(plan.freed, false);
      const x = posenc.allocate(Float32Array.of(1, 0, 1, 0));
      plan.apply(x, { offset: 0 }); // position 0 rotates by nothing
      assert.deepEqual(Array.from(x.toArray()), [1, 0, 1, 0]);
      for (const object of [next, kept, plan, x]) object.free();
    });

    it('[Symbol.dispose]() is free()', () => {
      const array = posenc.allocate(4);
      const window = array.subarray(1);
      const plan = posenc.ropePlan(PLAN);
      window[Symbol.dispose]();
      assert.equal(window.freed, true);
      assert.equal(array.freed, false, "a window's dispose retires only the window");
      array[Symbol.dispose]();
      plan[Symbol.dispose]();
      assert.equal(array.freed, true);
      assert.equal(plan.freed, true);
      array[Symbol.dispose](); // a second time does nothing, as free() does
    });
  });
}

/** Runs a script in a fresh Node process with --expose-gc: its stdout and stderr. */
function spawnNode(file) {
  const result = spawnSync(process.execPath, ['--expose-gc', file], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  return result;
}

describe('the warning for an object collected unfreed', () => {
  it('is given once per kind, naming the line that made a leaked object', () => {
    const folder = mkdtempSync(join(tmpdir(), 'posenc-lifetime-'));
    try {
      const file = join(folder, 'leak.mjs');
      const lines = [
        `import { loadPosenc } from ${JSON.stringify(pathToFileURL(nodeEntry).href)};`,
        'const posenc = await loadPosenc();',
        'const turns = async () => { for (let i = 0; i < 20; i++) { gc(); await new Promise((r) => setImmediate(r)); } };',
        'for (let round = 0; round < 3; round++) {',
        '  for (let i = 0; i < 1000; i++) posenc.allocate(16);',
        `  for (let i = 0; i < 1000; i++) posenc.ropePlan({ seqLen: 1, headDim: 4 });`,
        '  for (let i = 0; i < 1000; i++) posenc.allocate(16).free();',
        '  await turns();',
        '}',
      ];
      writeFileSync(file, `${lines.join('\n')}\n`);
      const { stderr } = spawnNode(file);
      const warnings = stderr.split('\n').filter((line) => line.startsWith('posenc: '));
      const url = pathToFileURL(file).href.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      assert.equal(warnings.length, 2, stderr);
      // One per kind, in whichever order the collector found them, each naming its line.
      for (const [kind, line] of [
        ['WasmArray', 5],
        ['RopePlan', 6],
      ]) {
        const pattern = new RegExp(
          `^posenc: a ${kind} made at ${url}:${line}:\\d+ was garbage-collected without free\\(\\); posenc freed it`,
        );
        assert.equal(warnings.filter((warning) => pattern.test(warning)).length, 1, `${kind}: ${stderr}`);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('`using` from TypeScript 5.9 compiled for ES2022, run on this Node', () => {
  it('type-checks against the declarations and frees the array and the plan at the end of the scope', () => {
    const folder = mkdtempSync(join(tmpdir(), 'posenc-using-'));
    try {
      writeFileSync(join(folder, 'package.json'), JSON.stringify({ type: 'module' }));
      const source = `
import { loadPosenc, type RopePlan, type WasmArray } from ${JSON.stringify(nodeEntry)};
const posenc = await loadPosenc();
let array: WasmArray | undefined;
let plan: RopePlan | undefined;
{
  using x = posenc.allocate(4);
  using p = posenc.ropePlan({ seqLen: 1, headDim: 4 });
  p.apply(x, { offset: 1 });
  array = x;
  plan = p;
  console.log(JSON.stringify({ inScope: [x.freed, p.freed] }));
}
console.log(JSON.stringify({ afterScope: [array.freed, plan.freed] }));
`;
      typecheck(folder, source, { noEmit: false });
      const out = execFileSync(process.execPath, [join(folder, 'consumer.js')], { encoding: 'utf8' });
      const [inScope, afterScope] = out
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      assert.deepEqual(inScope, { inScope: [false, false] });
      assert.deepEqual(afterScope, { afterScope: [true, true] });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
