// Loading through each entry: where the .wasm comes from (disk, a URL, the inline chunk, the
// caller's bytes or compiled module), what happens when it is not there, and that every way gives
// the same bits.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as browserEntry from '../../bindings/js/index.js';
import * as inlineEntry from '../../bindings/js/inline.js';
import * as nodeEntry from '../../bindings/js/node.js';

const root = new URL('../../', import.meta.url);
const wasmBytes = (variant) => readFileSync(new URL(`dist/posenc-${variant}.wasm`, root));
const EMPTY_MODULE = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

/** One result of each kind of operation, as bits, to compare instances. */
function fingerprint(posenc) {
  const table = posenc.sinusoidal({ seqLen: 5, dModel: 12, offset: 1000 });
  const x = Float32Array.from({ length: 3 * 2 * 10 }, (_, i) => Math.sin(i) * 3);
  posenc.rope(x, { seqLen: 3, numHeads: 2, headDim: 10, layout: 'half', offset: 70000 });
  return [...new Uint32Array(table.buffer), ...new Uint32Array(x.buffer)];
}

/** Rejects with `type`, a message starting `posenc.loadPosenc: ` and matching `pattern`. */
async function rejectsWith(promise, type, pattern, parameter) {
  await assert.rejects(promise, (error) => {
    assert.equal(error.constructor, type, `${error.constructor.name}: ${error.message}`);
    assert.match(error.message, /^posenc\.loadPosenc: /);
    assert.match(error.message, pattern);
    assert.equal(error.parameter, parameter);
    return true;
  });
}

/** An HTTP server on 127.0.0.1 answering every path with `respond(request, response)`. */
async function serve(respond) {
  const server = createServer(respond);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() };
}

describe('loadPosenc: where the .wasm comes from', () => {
  it('the Node entry reads the package file from disk and exposes the compiled module', async () => {
    for (const simd of [true, false]) {
      const posenc = await nodeEntry.loadPosenc({ simd });
      assert.equal(posenc.variant, simd ? 'simd' : 'scalar');
      assert.equal(posenc.wasmSource, 'url');
      const file = fileURLToPath(new URL(`dist/posenc-${posenc.variant}.wasm`, root));
      assert.deepEqual(posenc.wasmFile, { from: 'package', location: file });
      assert.ok(posenc.module instanceof WebAssembly.Module);
    }
  });

  it('every source gives the same bits: disk, inline chunk, wasmBinary, module, and the browser entry (its glue)', async () => {
    for (const variant of ['simd', 'scalar']) {
      const simd = variant === 'simd';
      const reference = await nodeEntry.loadPosenc({ simd });
      const expected = fingerprint(reference);
      const others = [
        [await inlineEntry.loadPosenc({ simd }), 'inline'],
        [await nodeEntry.loadPosenc({ wasmBinary: wasmBytes(variant) }), 'wasmBinary'],
        [await nodeEntry.loadPosenc({ wasmBinary: new Uint8Array(wasmBytes(variant)).buffer }), 'wasmBinary'],
        [await nodeEntry.loadPosenc({ module: reference.module }), 'module'],
        [await inlineEntry.loadPosenc({ module: reference.module, simd }), 'module'],
        [await browserEntry.loadPosenc({ wasmBinary: wasmBytes(variant) }), 'wasmBinary'],
      ];
      for (const [posenc, source] of others) {
        assert.equal(posenc.wasmSource, source);
        assert.equal(posenc.wasmFile, undefined, `no file read (${source})`);
        assert.equal(posenc.variant, variant, 'the build is the one given (simd inferred from bytes/module)');
        assert.deepEqual(fingerprint(posenc), expected, `${source} (${variant})`);
      }
    }
  });

  it("in Node, 'posenc' and 'posenc/inline' resolve to one copy of the JS layer (one WasmArray class)", () => {
    // Imported from the package's own folder: 'posenc' by name (its exports map) resolves only
    // inside the package's scope, which ends above tests/ (tests/package.json, the suite's own).
    const consumer = `
      const [main, inline] = await Promise.all([import('posenc'), import('posenc/inline')]);
      console.log(JSON.stringify({ WasmArray: main.WasmArray === inline.WasmArray, RopePlan: main.RopePlan === inline.RopePlan }));`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', consumer], {
      cwd: fileURLToPath(root),
      encoding: 'utf8',
    });
    assert.deepEqual(JSON.parse(output), { WasmArray: true, RopePlan: true });
  });

  it('a module shared by many instances: each has its own memory', async () => {
    const first = await nodeEntry.loadPosenc();
    const second = await nodeEntry.loadPosenc({ module: first.module });
    assert.equal(second.module, first.module);
    const a = first.allocate([1, 2, 3]);
    const b = second.allocate([4, 5, 6]);
    assert.deepEqual([...a.view()], [1, 2, 3]);
    assert.deepEqual([...b.view()], [4, 5, 6]);
    a.free();
    b.free();
  });

  it('locateWasm: relative to the working directory in Node, and over HTTP', async () => {
    const cwd = process.cwd();
    process.chdir(fileURLToPath(new URL('dist/', root)));
    try {
      const posenc = await nodeEntry.loadPosenc({ simd: false, locateWasm: (file) => `./${file}` });
      assert.equal(posenc.variant, 'scalar');
    } finally {
      process.chdir(cwd);
    }
    const server = await serve((request, response) => {
      response.writeHead(200, { 'content-type': 'application/wasm' });
      response.end(wasmBytes(request.url.includes('simd') ? 'simd' : 'scalar'));
    });
    try {
      for (const entry of [nodeEntry, browserEntry, inlineEntry]) {
        const posenc = await entry.loadPosenc({ locateWasm: (file) => new URL(`assets/${file}`, server.url) });
        assert.equal(posenc.wasmSource, 'url');
        assert.deepEqual(posenc.wasmFile, { from: 'locateWasm', location: `${server.url}assets/posenc-simd.wasm` });
        assert.equal(posenc.variant, 'simd');
      }
    } finally {
      server.close();
    }
  });
});

describe('loadPosenc: when the .wasm is not there', () => {
  it('HTML served in its place is reported with the URL, status, content type, first bytes and the fixes', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><title>app</title>');
    });
    try {
      for (const entry of [browserEntry, inlineEntry]) {
        await rejectsWith(
          entry.loadPosenc({ locateWasm: (file) => `${server.url}node_modules/dist/${file}` }),
          Error,
          /posenc-simd\.wasm from http:\/\/127\.0\.0\.1:\d+\/node_modules\/dist\/posenc-simd\.wasm \(the URL locateWasm returned\): got HTTP 200, text\/html, first bytes 3c 21 64 6f 63 74 79 70 \("<!doctyp"\)\. Fixes: .*posenc\/inline/,
          undefined,
        );
      }
    } finally {
      server.close();
    }
  });

  it('a 404 names its status', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
    });
    try {
      await rejectsWith(
        browserEntry.loadPosenc({ simd: false, locateWasm: (file) => server.url + file }),
        Error,
        /posenc-scalar\.wasm .*got HTTP 404, text\/plain, first bytes 6e 6f 74 20 66 6f 75 6e \("not foun"\)/,
        undefined,
      );
    } finally {
      server.close();
    }
  });

  it('where its URL gives nothing, the default entry names the URL it tried and posenc/inline, importing no inline chunk', async () => {
    // Node's fetch cannot read file: URLs: the browser entry's package URL gives nothing here.
    for (const options of [{}, { inlineFallback: false }]) {
      await rejectsWith(
        browserEntry.loadPosenc(options),
        Error,
        /could not load posenc-simd\.wasm from file:\/\/.*\/dist\/posenc-simd\.wasm: the request failed .*Fixes: import \{ loadPosenc \} from 'posenc\/inline' .*optimizeDeps/,
        undefined,
      );
    }
    await rejectsWith(
      browserEntry.loadPosenc({ inlineFallback: true }),
      RangeError,
      /inlineFallback is true but this entry carries no inline \.wasm: import \{ loadPosenc \} from 'posenc\/inline'/,
      'inlineFallback',
    );
  });

  it('a missing file in Node names its path; an unreachable server is a failed request', async () => {
    await rejectsWith(
      nodeEntry.loadPosenc({ locateWasm: (file) => `/nonexistent/${file}` }),
      Error,
      /could not read posenc-simd\.wasm at \/nonexistent\/posenc-simd\.wasm \(ENOENT\)/,
      undefined,
    );
    await rejectsWith(
      nodeEntry.loadPosenc({ locateWasm: (file) => `http://127.0.0.1:9/${file}` }),
      Error,
      /could not load posenc-simd\.wasm from http:\/\/127\.0\.0\.1:9\/posenc-simd\.wasm: the request failed/,
      undefined,
    );
  });
});

describe('loadPosenc: what the caller hands over is checked', () => {
  it('module and wasmBinary are one or the other; module must be a WebAssembly.Module', async () => {
    const { module } = await nodeEntry.loadPosenc();
    await rejectsWith(
      nodeEntry.loadPosenc({ module, wasmBinary: wasmBytes('simd') }),
      TypeError,
      /module cannot be given together with wasmBinary/,
      'module',
    );
    for (const bad of [{}, wasmBytes('simd'), Promise.resolve(module), null]) {
      await rejectsWith(
        nodeEntry.loadPosenc({ module: bad }),
        TypeError,
        /module must be a WebAssembly\.Module/,
        'module',
      );
    }
  });

  it('a build that does not match simd is refused, naming where it came from', async () => {
    const scalar = await nodeEntry.loadPosenc({ simd: false });
    await rejectsWith(
      nodeEntry.loadPosenc({ simd: true, module: scalar.module }),
      RangeError,
      /module is the scalar build but the simd build was requested/,
      'module',
    );
    await rejectsWith(
      nodeEntry.loadPosenc({ simd: true, wasmBinary: wasmBytes('scalar') }),
      RangeError,
      /wasmBinary is the scalar build but the simd build was requested/,
      'wasmBinary',
    );
  });

  it('bytes that are not WebAssembly, and WebAssembly that is not posenc', async () => {
    await rejectsWith(
      nodeEntry.loadPosenc({ wasmBinary: new TextEncoder().encode('<!doctype html>') }),
      TypeError,
      /wasmBinary is not a WebAssembly module \(first bytes 3c 21 64 6f/,
      'wasmBinary',
    );
    await rejectsWith(
      nodeEntry.loadPosenc({ wasmBinary: wasmBytes('simd').subarray(0, 1000) }),
      TypeError,
      /wasmBinary could not be compiled/,
      'wasmBinary',
    );
    await rejectsWith(
      nodeEntry.loadPosenc({ wasmBinary: EMPTY_MODULE }),
      TypeError,
      /is not a posenc build/,
      'wasmBinary',
    );
    await rejectsWith(
      nodeEntry.loadPosenc({ module: new WebAssembly.Module(EMPTY_MODULE) }),
      TypeError,
      /module is not a posenc build/,
      'module',
    );
  });

  it('locateWasm must return a URL or a string', async () => {
    for (const bad of [() => 42, () => undefined, () => ({ href: 'x' })]) {
      await rejectsWith(
        nodeEntry.loadPosenc({ locateWasm: bad }),
        TypeError,
        /locateWasm must return a URL/,
        'locateWasm',
      );
    }
  });

  it('the instance stays usable after a failed load beside it', async () => {
    const posenc = await nodeEntry.loadPosenc();
    await assert.rejects(nodeEntry.loadPosenc({ wasmBinary: EMPTY_MODULE }));
    assert.equal(posenc.sinusoidal({ seqLen: 1, dModel: 2 })[1], 1);
  });
});

describe('require() (CommonJS)', () => {
  const consumer = `
    const { loadPosenc, Posenc, WasmArray } = require('posenc');
    loadPosenc().then((posenc) => {
      const x = posenc.allocate([1, 0]);
      posenc.rope(x, { seqLen: 1, headDim: 2, offset: 1 });
      console.log(JSON.stringify({ ok: posenc instanceof Posenc && x instanceof WasmArray, variant: posenc.variant,
        source: posenc.wasmSource, values: Array.from(x.view()) }));
    });`;
  // Run from inside the package: require('posenc') resolves through its own exports map.
  for (const flags of [[], ['--no-experimental-require-module']]) {
    it(`require('posenc') resolves to the CommonJS bundle and computes ${flags.length ? '(as Node < 20.19, no require(esm))' : ''}`, () => {
      const output = execFileSync(process.execPath, [...flags, '-e', consumer], {
        cwd: fileURLToPath(root),
        encoding: 'utf8',
      });
      const result = JSON.parse(output);
      assert.deepEqual(result, {
        ok: true,
        variant: 'simd',
        source: 'url',
        values: [Math.fround(Math.cos(1)), Math.fround(Math.sin(1))],
      });
    });
  }
});
