// Each build's .wasm embedded as base64 in its own module (generated into dist/ by
// scripts/package-dist.js). Imported lazily, one build at a time: a bundle that finds its .wasm
// by URL never loads these chunks.
const CHUNKS = {
  simd: () => import('../../dist/posenc-simd.inline.js'),
  scalar: () => import('../../dist/posenc-scalar.inline.js'),
};

/** The bytes of a build, decoded from its inline chunk. */
export async function inlineWasm(variant) {
  const { default: base64 } = await CHUNKS[variant]();
  if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(base64);
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
