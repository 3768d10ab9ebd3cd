// What every entry exports besides loadPosenc (each entry makes its own: see load.js).
export { Posenc } from './posenc.js';
export { RopePlan } from './rope-plan.js';
export { simdSupported } from './simd-support.js';
export { fromHfConfig } from './hf-config.js';
export { WasmArray } from './wasm-array.js';
