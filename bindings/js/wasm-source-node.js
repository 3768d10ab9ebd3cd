// How the Node entry finds a build's .wasm: read from disk next to the package (or where
// `locateWasm` says, relative to the working directory); http(s) URLs are fetched.
import { readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadError } from './errors.js';
import { fetchWasm } from './wasm-fetch.js';
import { firstBytes, locatedUrl, looksLikeWasm, WASM_FILE_NAMES } from './wasm-bytes.js';
import { PACKAGE_WASM_URLS } from './wasm-urls.js';

const fn = 'loadPosenc';

export async function findWasmOnDisk(variant, o) {
  const file = WASM_FILE_NAMES[variant];
  const url =
    o.locateWasm !== undefined
      ? locatedUrl(o.locateWasm, variant, pathToFileURL(`${process.cwd()}/`))
      : PACKAGE_WASM_URLS[variant]();
  if (url.protocol !== 'file:') {
    const found = await fetchWasm(url);
    if (found.bytes) return { bytes: found.bytes, source: 'url' };
    throw loadError(fn, `could not load ${file} from ${url}: ${found.problem}`);
  }
  const path = fileURLToPath(url);
  let bytes;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (error) {
    throw loadError(fn, `could not read ${file} at ${path} (${error?.code ?? error?.message ?? error})`, error);
  }
  if (!looksLikeWasm(bytes)) throw loadError(fn, `${path} is not a WebAssembly module (${firstBytes(bytes)})`);
  return { bytes, source: 'url' };
}
