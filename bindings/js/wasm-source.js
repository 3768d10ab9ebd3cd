// How the default browser entry finds a build's .wasm when the caller gave neither `module` nor
// `wasmBinary`: at the URL next to the package (or where `locateWasm` says), else from the
// inline chunk. Dev servers that pre-bundle dependencies (Vite before 8), esbuild and Rollup
// without an asset plugin leave the package's URL pointing at nothing; the inline chunk still
// works there.
import { loadError } from './errors.js';
import { WASM_FILE_NAMES, wasmFound } from './wasm-bytes.js';
import { fetchWasm } from './wasm-fetch.js';
import { inlineWasm } from './wasm-inline.js';
import { fetchLocatedWasm, notFoundFixes } from './wasm-located.js';
import { PACKAGE_WASM_URLS, packageUrlKind } from './wasm-urls.js';

function notFound(variant, url, problem) {
  return loadError(
    'loadPosenc',
    `could not load ${WASM_FILE_NAMES[variant]} from ${url}: ${problem}. ${notFoundFixes(variant)} ` +
      "In Vite before 8, optimizeDeps: { exclude: ['posenc'] } keeps the package's own URL working.",
  );
}

/** The URL first, then (unless `inlineFallback: false`) the inline chunk. */
export async function findWasmByUrl(variant, o) {
  if (o.locateWasm !== undefined) return fetchLocatedWasm(variant, o.locateWasm);
  let url;
  let kind;
  let found;
  try {
    url = PACKAGE_WASM_URLS[variant]();
    kind = packageUrlKind(url, WASM_FILE_NAMES[variant]);
    found =
      kind === 'stranded'
        ? { problem: 'the bundle holding posenc did not copy the .wasm (its URL was left as the package wrote it)' }
        : await fetchWasm(url);
  } catch (error) {
    // Bundled into a script without modules (esbuild's default iife), import.meta.url is empty.
    found = { problem: `no URL (import.meta.url is not available here: ${error?.message ?? error})` };
  }
  if (found.bytes) return wasmFound(found.bytes, 'url', kind, url.href);
  if (o.inlineFallback === false) throw notFound(variant, url, found.problem);
  try {
    return wasmFound(await inlineWasm(variant), 'inline');
  } catch (error) {
    throw notFound(variant, url, `${found.problem}; the inline fallback failed too (${error?.message ?? error})`);
  }
}
