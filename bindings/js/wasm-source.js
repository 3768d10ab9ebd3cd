// How the default browser entry finds a build's .wasm when the caller gave neither `module` nor
// `wasmBinary`: at the URL next to the package (or where `locateWasm` says). The entry carries
// no inline copy of the bytes and imports nothing lazily, so a bundle of it (a worker's chunk
// above all, which takes its module from the page) holds none of the base64 chunks and builds
// where a worker format cannot split code (Vite before 8 makes workers IIFE scripts). Where no
// URL can give the .wasm (esbuild and Rollup copy no assets, a page copied only the JS) the
// error says so and names posenc/inline, the entry with the .wasm embedded.
import { loadError, rangeError } from './errors.js';
import { WASM_FILE_NAMES, wasmFound } from './wasm-bytes.js';
import { fetchWasm } from './wasm-fetch.js';
import { fetchLocatedWasm, notFoundFixes } from './wasm-located.js';
import { installedPackageUrl, PACKAGE_WASM_URLS, packageUrlKind } from './wasm-urls.js';

function notFound(variant, url, problem) {
  return loadError(
    'loadPosenc',
    `could not load ${WASM_FILE_NAMES[variant]} from ${url}: ${problem}. ${notFoundFixes(variant)} ` +
      "In Vite before 8, optimizeDeps: { exclude: ['posenc'] } keeps the package's own URL working.",
  );
}

/**
 * Where the bytes are: the URL as the package wrote it ('package') or as a bundler rewrote it
 * ('bundler'); or, where a dev server moved this code into a folder of node_modules without the
 * .wasm (Vite 5-7 pre-bundle into node_modules/.vite/deps/), the package as installed in that
 * node_modules. `{ url, kind, found }`, found being fetchWasm's answer or `{ problem }`.
 */
async function fetchPackageWasm(variant) {
  const file = WASM_FILE_NAMES[variant];
  let url;
  try {
    url = PACKAGE_WASM_URLS[variant]();
    const kind = packageUrlKind(url, file);
    if (kind !== 'stranded') return { url, kind, found: await fetchWasm(url) };
    const installed = installedPackageUrl(file);
    if (installed) return { url: installed, kind: 'package', found: await fetchWasm(installed) };
  } catch (error) {
    // Bundled into a script without modules (esbuild's default iife), import.meta.url is empty.
    return { url, found: { problem: `no URL (import.meta.url is not available here: ${error?.message ?? error})` } };
  }
  const problem = 'the bundle holding posenc did not copy the .wasm (its URL was left as the package wrote it)';
  return { url, found: { problem } };
}

/** The URL (the package's, or where `locateWasm` says), or an error naming the ways out. */
export async function findWasmByUrl(variant, o) {
  if (o.inlineFallback === true)
    throw rangeError(
      'loadPosenc',
      'inlineFallback',
      "is true but this entry carries no inline .wasm: import { loadPosenc } from 'posenc/inline' (the .wasm embedded)",
    );
  if (o.locateWasm !== undefined) return fetchLocatedWasm(variant, o.locateWasm);
  const { url, kind, found } = await fetchPackageWasm(variant);
  if (found.bytes) return wasmFound(found.bytes, 'url', kind, url.href);
  throw notFound(variant, url, found.problem);
}
