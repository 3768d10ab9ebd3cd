// The consumer every app runs, as a demo author writes it (written into each app by the ecosystem
// test, the import pointed at a path for static folders): load posenc, compute a small table and
// publish what came out on window.__posenc.
import { loadPosenc } from 'posenc';

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
