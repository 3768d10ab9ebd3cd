// In the browser: how long loadPosenc() takes to compile and instantiate one build, Embind
// set-up included. The JS glue is imported (with the loader) and the .wasm bytes fetched before
// the clock starts, so the time does not include Playwright's request routing. Run it in a fresh
// browser context (a fresh renderer process): V8 caches compiled modules per process.
import { loadPosenc } from '../bindings/js/index.js';

export async function measureModuleLoad(simd) {
  const file = simd ? 'posenc-simd' : 'posenc-scalar';
  const response = await fetch(new URL(`../dist/${file}.wasm`, import.meta.url));
  const bytes = await response.arrayBuffer();
  const started = performance.now();
  const posenc = await loadPosenc({ simd, wasmBinary: bytes });
  const loadMs = performance.now() - started;
  return { loadMs, variant: posenc.variant };
}
