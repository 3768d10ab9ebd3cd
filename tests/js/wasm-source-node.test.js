// Where the Node entry finds its .wasm, in order: the package's own file beside the code, then
// the file a bundler emitted (searched from the URL the bundler wrote), then the inline chunk;
// what it reports (wasmSource, wasmFile); and what it says when nothing serves. Each case runs
// a copy of the package's files in a folder of its own, with files taken away as the case needs.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { assertClose, TABLE_BOUND } from './support.js';
import { sinusoidalReference } from './reference.js';

const root = resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'posenc-wasm-source-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

let copies = 0;
/** A copy of the package's files (bindings/js and dist/), without `remove` (paths in dist/), with `replace` written over. */
function packageCopy({ remove = [], replace = {} } = {}) {
  const folder = join(scratch, `package-${copies++}`);
  for (const part of ['package.json', 'bindings/js', 'dist'])
    cpSync(join(root, part), join(folder, part), { recursive: true });
  for (const file of remove) rmSync(join(folder, 'dist', file));
  for (const [file, text] of Object.entries(replace)) writeFileSync(join(folder, 'dist', file), text);
  return folder;
}

/** The Node entry of a package copy (its own module graph). */
const nodeEntryOf = (folder) => import(pathToFileURL(join(folder, 'bindings/js/node.js')).href);

const WASM = ['posenc-simd.wasm', 'posenc-scalar.wasm'];
const CHUNKS = ['posenc-simd.inline.js', 'posenc-scalar.inline.js'];

function assertComputes(posenc, label) {
  const o = { seqLen: 4, dModel: 8, offset: 3 };
  assertClose(posenc.sinusoidal(o), sinusoidalReference(o), TABLE_BOUND, label);
}

/** Rejects with posenc's load error, its message matching every pattern. */
async function rejectsWith(promise, ...patterns) {
  await assert.rejects(promise, (error) => {
    assert.equal(error.constructor, Error, `${error.constructor.name}: ${error.message}`);
    assert.match(error.message, /^posenc\.loadPosenc: could not find posenc-(simd|scalar)\.wasm; tried /);
    for (const pattern of patterns) assert.match(error.message, pattern);
    return true;
  });
}

describe('the Node entry: the package file first', () => {
  it("reads the package's own dist/ file and names it", async () => {
    const folder = packageCopy();
    const { loadPosenc } = await nodeEntryOf(folder);
    for (const [simd, file] of [
      [true, 'posenc-simd.wasm'],
      [false, 'posenc-scalar.wasm'],
    ]) {
      const posenc = await loadPosenc({ simd });
      assert.equal(posenc.wasmSource, 'url');
      assert.deepEqual(posenc.wasmFile, { from: 'package', location: join(folder, 'dist', file) });
      assert.ok(Object.isFrozen(posenc.wasmFile));
      assertComputes(posenc, file);
    }
  });

  it('without the package file (or with something else in its place), the inline chunk serves', async () => {
    for (const folder of [
      packageCopy({ remove: WASM }),
      packageCopy({ replace: { 'posenc-simd.wasm': '<!doctype html>', 'posenc-scalar.wasm': '' } }),
    ]) {
      const { loadPosenc } = await nodeEntryOf(folder);
      for (const simd of [true, false]) {
        const posenc = await loadPosenc({ simd });
        assert.equal(posenc.wasmSource, 'inline');
        assert.equal(posenc.wasmFile, undefined);
        assertComputes(posenc, `inline, simd ${simd}`);
      }
    }
  });

  it('with inlineFallback: false, or no inline chunk either, the error says what was tried and the fixes', async () => {
    const missing = packageCopy({ remove: WASM });
    await rejectsWith(
      (await nodeEntryOf(missing)).loadPosenc({ inlineFallback: false }),
      new RegExp(`the package's file ${join(missing, 'dist', 'posenc-simd.wasm')} \\(ENOENT\\)`),
      /not the inline chunk \(inlineFallback: false\)/,
      /Fixes: .*locateWasm.*wasmBinary/,
    );
    const html = packageCopy({ replace: { 'posenc-scalar.wasm': '<!doctype html>' } });
    await rejectsWith(
      (await nodeEntryOf(html)).loadPosenc({ simd: false, inlineFallback: false }),
      /posenc-scalar\.wasm \(not WebAssembly, first bytes 3c 21 64 6f 63 74 79 70 \("<!doctyp"\)\)/,
    );
    const bare = packageCopy({ remove: [...WASM, ...CHUNKS] });
    await rejectsWith(
      (await nodeEntryOf(bare)).loadPosenc(),
      /the package's file .*\(ENOENT\); the inline chunk \(.*posenc-simd\.inline\.js/,
    );
  });

  it('locateWasm replaces the search: its file is named, and a missing one is an error even where the package file exists', async () => {
    const folder = packageCopy();
    const { loadPosenc } = await nodeEntryOf(folder);
    const elsewhere = join(scratch, 'located');
    mkdirSync(elsewhere, { recursive: true });
    cpSync(join(folder, 'dist', 'posenc-scalar.wasm'), join(elsewhere, 'posenc-scalar.wasm'));
    const posenc = await loadPosenc({ simd: false, locateWasm: (file) => pathToFileURL(join(elsewhere, file)) });
    assert.deepEqual(posenc.wasmFile, { from: 'locateWasm', location: join(elsewhere, 'posenc-scalar.wasm') });
    await assert.rejects(
      loadPosenc({ locateWasm: (file) => pathToFileURL(join(elsewhere, file)) }),
      /could not read posenc-simd\.wasm at .*located\/posenc-simd\.wasm \(ENOENT\)/,
    );
  });
});

describe("the Node entry: where a bundler's file may be", async () => {
  const { bundlerFilePaths } = await import('../../bindings/js/wasm-source-node.js');
  it('a file URL is read where it points, then its path and each shorter tail under the working directory and .next/', () => {
    const url = new URL('file:///_next/static/media/posenc-simd.1a2b3c.wasm');
    const under = (...parts) => resolve(...parts);
    assert.deepEqual(bundlerFilePaths(url), [
      '/_next/static/media/posenc-simd.1a2b3c.wasm',
      under('_next/static/media/posenc-simd.1a2b3c.wasm'),
      under('.next/_next/static/media/posenc-simd.1a2b3c.wasm'),
      under('.next/server/_next/static/media/posenc-simd.1a2b3c.wasm'),
      under('static/media/posenc-simd.1a2b3c.wasm'),
      under('.next/static/media/posenc-simd.1a2b3c.wasm'),
      under('.next/server/static/media/posenc-simd.1a2b3c.wasm'),
      under('media/posenc-simd.1a2b3c.wasm'),
      under('.next/media/posenc-simd.1a2b3c.wasm'),
      under('.next/server/media/posenc-simd.1a2b3c.wasm'),
      under('posenc-simd.1a2b3c.wasm'),
      under('.next/posenc-simd.1a2b3c.wasm'),
      under('.next/server/posenc-simd.1a2b3c.wasm'),
    ]);
  });

  it('segments are file names: decoded, except where decoding would leave the folder', () => {
    const paths = bundlerFilePaths(new URL('file:///media/a%20b.wasm'));
    assert.ok(paths.includes(resolve('.next/media/a b.wasm')));
    for (const odd of ['x%2F..%2F..%2Fy.wasm', '%2E%2E', 'bad%E0%A4%A.wasm']) {
      const tails = bundlerFilePaths(new URL(`https://cdn.example/${odd}`));
      assert.ok(
        tails.every((path) => path.startsWith(process.cwd())),
        `${odd}: ${tails}`,
      );
    }
  });

  it('an http(s) URL is never fetched: only its path is looked for on disk', () => {
    const paths = bundlerFilePaths(new URL('https://cdn.example/assets/posenc-simd.abc.wasm'));
    assert.equal(paths[0], resolve('assets/posenc-simd.abc.wasm'));
    assert.ok(paths.every((path) => path.startsWith(process.cwd())));
  });
});
