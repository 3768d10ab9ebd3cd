// posenc for Node (the package's `node` condition; bundled as dist/posenc.cjs for require()):
// reads its .wasm from disk, and the CPU's cache sizes from sysfs (the size of a tile, tile-size.js).
import { cacheSizes } from './cache-sizes-node.js';
import { makeLoadPosenc } from './load.js';
import { findWasmOnDisk } from './wasm-source-node.js';

export * from './api.js';
export const loadPosenc = makeLoadPosenc(findWasmOnDisk, cacheSizes);
