// How posenc/inline finds a build's .wasm: its inline chunk, unless the caller located the
// .wasm elsewhere.
import { wasmFound } from './wasm-bytes.js';
import { inlineWasm } from './wasm-inline.js';
import { fetchLocatedWasm } from './wasm-located.js';

export async function findWasmInline(variant, o) {
  if (o.locateWasm !== undefined) return fetchLocatedWasm(variant, o.locateWasm);
  return wasmFound(await inlineWasm(variant), 'inline');
}
