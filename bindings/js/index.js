// posenc: sinusoidal positional encodings and rotary embeddings (RoPE), computed in WebAssembly.
export { loadPosenc } from './load.js';
export { fromHfConfig } from './hf-config.js';
export { Posenc } from './posenc.js';
export { RopePlan } from './rope-plan.js';
export { WasmArray } from './wasm-array.js';
export { simdSupported } from './simd-support.js';
