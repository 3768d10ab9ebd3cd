// The .wasm where the caller's `locateWasm` says (browser entries): relative URLs are relative to
// the page, or to the worker's script. No fallback: the caller chose the place.
import { loadError } from './errors.js';
import { locatedUrl, WASM_FILE_NAMES, wasmFound } from './wasm-bytes.js';
import { fetchWasm } from './wasm-fetch.js';

const pageUrl = () => (typeof location === 'object' && location !== null ? String(location.href) : undefined);

/** Ways out when a build's .wasm is not where it was looked for. */
export function notFoundFixes(variant) {
  const file = WASM_FILE_NAMES[variant];
  return (
    `Fixes: import loadPosenc from 'posenc/inline' (the .wasm embedded); or serve ${file} ` +
    `(node_modules/posenc/dist/${file}) and pass locateWasm: (file) => '/where/it/is/' + file; ` +
    'or pass wasmBinary (its bytes) or module (compiled).'
  );
}

export async function fetchLocatedWasm(variant, locateWasm) {
  const url = locatedUrl(locateWasm, variant, pageUrl());
  const found = await fetchWasm(url);
  if (found.bytes) return wasmFound(found.bytes, 'url', 'locateWasm', url.href);
  throw loadError(
    'loadPosenc',
    `could not load ${WASM_FILE_NAMES[variant]} from ${url} (the URL locateWasm returned): ${found.problem}. ` +
      notFoundFixes(variant),
  );
}
