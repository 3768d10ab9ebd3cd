// Where each build's .wasm sits, relative to this file, written out as literal
// `new URL('…', import.meta.url)`: the pattern webpack 5, Vite and Parcel recognise, so a
// production bundle carries the .wasm as an asset and the URL points at it. Only the entries that
// look for the package's own files import this (posenc/inline does not, so bundles of it carry
// no second copy).
export const PACKAGE_WASM_URLS = {
  simd: () => new URL('../../dist/posenc-simd.wasm', import.meta.url),
  scalar: () => new URL('../../dist/posenc-scalar.wasm', import.meta.url),
};
