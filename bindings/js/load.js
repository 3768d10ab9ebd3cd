// Loading, shared by the entries (index.js for browsers and bundlers, node.js, inline.js): one
// compiled WebAssembly.Module (the caller's, or compiled from bytes) is instantiated through
// Emscripten's glue with `instantiateWasm`, so the glue never looks for a file itself and one
// glue serves both builds. Each entry only says how it finds a build's bytes (wasm-source*.js).
//
// Emscripten 3.1.6's own Node loader is broken under Node 20 (it emits __dirname into an ES
// module), so the glue is built for the web environment and always handed its module.
import createModule from '../../dist/posenc.mjs';
import { loadError, rangeError, typeError } from './errors.js';
import { readOptions } from './options.js';
import { Posenc } from './posenc.js';
import { simdSupported } from './simd-support.js';
import { tileBytesFor } from './tile-size.js';
import { firstBytes, looksLikeWasm } from './wasm-bytes.js';

const fn = 'loadPosenc';

/** The bytes of an ArrayBuffer or of a view's window. */
const bytesOf = (value) =>
  ArrayBuffer.isView(value) ? new Uint8Array(value.buffer, value.byteOffset, value.byteLength) : new Uint8Array(value);

/** What the caller passed, or the entry found, named for messages. */
const WHAT = { wasmBinary: 'wasmBinary', module: 'module', url: 'the .wasm', inline: 'the inline .wasm' };

/** A problem with a build the caller handed over names that parameter; any other is a load error. */
function buildError(source, rule, cause) {
  if (source === 'wasmBinary' || source === 'module') return typeError(fn, source, rule, { cause });
  return loadError(fn, `${WHAT[source]} ${rule}`, cause);
}

async function compile(bytes, source) {
  if (!looksLikeWasm(bytes)) throw buildError(source, `is not a WebAssembly module (${firstBytes(bytes)})`);
  try {
    return await WebAssembly.compile(bytes);
  } catch (error) {
    const hint = simdSupported() ? '' : '; this engine has no WebAssembly SIMD, so only posenc-scalar.wasm compiles';
    throw buildError(source, `could not be compiled (${error?.message ?? error})${hint}`, error);
  }
}

/** Emscripten's module object over an instance of `compiled`. */
function instantiate(compiled, source) {
  return new Promise((resolve, reject) => {
    const fail = (error) => reject(buildError(source, `is not a posenc build (${error?.message ?? error})`, error));
    createModule({
      printErr: () => {},
      instantiateWasm(imports, receive) {
        WebAssembly.instantiate(compiled, imports)
          .then((instance) => receive(instance, compiled))
          .catch(fail);
        return {};
      },
    }).then(resolve, fail);
  });
}

/**
 * The loadPosenc of one entry. `findWasm(variant, options)` returns `{ bytes, source, file }`
 * (wasm-bytes.js's wasmFound) for a build ('simd' or 'scalar') when the caller gave neither
 * `module` nor `wasmBinary`;
 * `cacheSizes()` the CPU's `{ l2, l3 }` where the entry can read them (tile-size.js).
 */
export function makeLoadPosenc(findWasm, cacheSizes = () => ({})) {
  /** @param {import('./index').LoadOptions} [options] */
  return async function loadPosenc(options) {
    const o = readOptions(fn, options, {});
    if (o.simd === true && !simdSupported())
      throw rangeError(fn, 'simd', 'is true but this engine has no WebAssembly SIMD');
    if (o.module !== undefined && o.wasmBinary !== undefined)
      throw typeError(fn, 'module', 'cannot be given together with wasmBinary (both are the build to load)');

    let compiled = o.module;
    let source = 'module';
    let file;
    if (compiled === undefined) {
      let bytes;
      if (o.wasmBinary !== undefined) {
        bytes = bytesOf(o.wasmBinary);
        source = 'wasmBinary';
      } else {
        ({ bytes, source, file } = await findWasm((o.simd ?? simdSupported()) ? 'simd' : 'scalar', o));
      }
      compiled = await compile(bytes, source);
    }
    const mod = await instantiate(compiled, source);
    const variant = mod.simdBuild ? 'simd' : 'scalar';
    if (o.simd !== undefined && o.simd !== mod.simdBuild) {
      const wanted = o.simd ? 'simd' : 'scalar';
      throw rangeError(fn, source, `is the ${variant} build but the ${wanted} build was requested (simd: ${o.simd})`);
    }
    return new Posenc(mod, {
      variant,
      module: compiled,
      wasmSource: source,
      wasmFile: file,
      tileBytes: tileBytesFor(cacheSizes()),
    });
  };
}
