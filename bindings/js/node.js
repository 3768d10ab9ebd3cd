// posenc for Node (the package's `node` condition; bundled as dist/posenc.cjs for require()):
// reads its .wasm from disk.
import { makeLoadPosenc } from './load.js';
import { findWasmOnDisk } from './wasm-source-node.js';

export * from './api.js';
export const loadPosenc = makeLoadPosenc(findWasmOnDisk);
