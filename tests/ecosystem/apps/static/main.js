// The bundler apps' consumer (../main.js), for a static folder with no build step: posenc is
// imported by its path in node_modules. Loads posenc, publishes a small table on window.__posenc.
import { loadPosenc } from './node_modules/posenc/bindings/js/index.js';

async function main() {
  const p = await loadPosenc();
  const t = p.sinusoidal({ seqLen: 3, dModel: 8 });
  window.__posenc = { values: Array.from(t), variant: p.variant, wasmSource: p.wasmSource };
  document.querySelector('#out').textContent = `posenc ${p.variant} (${p.wasmSource}): ${t.length} values`;
}

// No top-level await: the default build targets of Vite 5 and 6 and Parcel's dev server reject it.
main().catch((error) => {
  window.__posenc = { error: String(error?.message ?? error) };
  document.querySelector('#out').textContent = window.__posenc.error;
});
