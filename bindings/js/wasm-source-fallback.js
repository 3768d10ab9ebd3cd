// How posenc/widgets finds a build's .wasm: as the default entry does (wasm-source.js), then,
// where no URL gives it, from the inline chunk, imported lazily. The elements run on pages, never
// in workers, and a page built by esbuild or Rollup (which copy no assets) still draws them.
import { inlineWasm } from './wasm-inline.js';
import { fetchLocatedWasm } from './wasm-located.js';
import { fetchPackageWasm, notFound } from './wasm-source.js';

export async function findWasmOrInline(variant, o) {
  if (o.locateWasm !== undefined) return fetchLocatedWasm(variant, o.locateWasm);
  const { url, found } = await fetchPackageWasm(variant);
  if (found.bytes) return { bytes: found.bytes, source: 'url' };
  try {
    return { bytes: await inlineWasm(variant), source: 'inline' };
  } catch (error) {
    throw notFound(variant, url, `${found.problem}; the inline fallback failed too (${error?.message ?? error})`);
  }
}
