// posenc for browsers, workers and bundlers (the package's default entry): sinusoidal positional
// encodings and rotary embeddings (RoPE), computed in WebAssembly. Finds its .wasm by URL and
// carries no inline copy (posenc/inline does), so workers' bundles stay small; nothing here
// imports Node's modules.
import { makeLoadPosenc } from './load.js';
import { findWasmByUrl } from './wasm-source.js';

export * from './api.js';
export const loadPosenc = makeLoadPosenc(findWasmByUrl);
