// Loading: picks the SIMD or scalar build, gets its .wasm bytes (from the caller, from the
// file system in Node, or with fetch in browsers) and instantiates it.
//
// Emscripten 3.1.6's own Node loader is broken under Node 20 (it emits __dirname into an ES
// module), so the modules are built for the web environment and always handed their bytes.
import { rangeError } from './errors.js';
import { readOptions } from './options.js';
import { Posenc } from './posenc.js';
import { simdSupported } from './simd-support.js';

const BUILDS = {
  simd: {
    file: 'posenc-simd.wasm',
    url: () => new URL('../../dist/posenc-simd.wasm', import.meta.url),
    factory: () => import('../../dist/posenc-simd.mjs'),
  },
  scalar: {
    file: 'posenc-scalar.wasm',
    url: () => new URL('../../dist/posenc-scalar.wasm', import.meta.url),
    factory: () => import('../../dist/posenc-scalar.mjs'),
  },
};

const isNode = typeof process === 'object' && typeof process.versions?.node === 'string';

async function readBytes(url) {
  if (url.protocol === 'file:' && isNode) {
    const { readFile } = await import(/* @vite-ignore */ 'node:fs/promises');
    return readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`posenc: could not fetch ${url} (HTTP ${response.status})`);
  return response.arrayBuffer();
}

/**
 * Loads a posenc instance.
 * @param {import('./index').LoadOptions} [options]
 */
export async function loadPosenc(options) {
  const fn = 'loadPosenc';
  const { simd = simdSupported(), wasmBinary, locateWasm } = readOptions(fn, options, {});
  if (simd && !simdSupported()) throw rangeError(fn, 'simd', 'is true but this engine has no WebAssembly SIMD');

  const variant = simd ? 'simd' : 'scalar';
  const build = BUILDS[variant];
  let bytes = wasmBinary;
  if (bytes === undefined) {
    const located = locateWasm ? locateWasm(build.file) : build.url();
    bytes = await readBytes(new URL(located, typeof location === 'object' ? location.href : import.meta.url));
  }

  const { default: createModule } = await build.factory();
  let mod;
  try {
    mod = await createModule({ wasmBinary: bytes, printErr: () => {} });
  } catch (error) {
    throw new Error(
      `posenc.loadPosenc: could not instantiate the ${variant} build (is wasmBinary the bytes of ${build.file}?): ${error?.message ?? error}`,
    );
  }
  if (mod.simdBuild !== simd) {
    throw new Error(
      `posenc.loadPosenc: wasmBinary is the ${mod.simdBuild ? 'SIMD' : 'scalar'} build but the ${variant} build was requested`,
    );
  }
  return new Posenc(mod, variant);
}
