// The widgets consumer (written into an app by the ecosystem test, as apps/main.js is): a page
// that imports posenc/widgets only, puts a <posenc-pe-heatmap> on itself and publishes on
// window.__posenc the table the element drew and where the shared instance found its wasm.
import { sharedPosenc } from 'posenc/widgets';

async function main() {
  const element = Object.assign(document.createElement('posenc-pe-heatmap'), { seqLen: 3, dModel: 8 });
  const drawn = new Promise((resolve) => element.addEventListener('posenc-change', resolve, { once: true }));
  document.body.append(element);
  const p = await sharedPosenc();
  await drawn;
  window.__posenc = { values: Array.from(element.table.values), variant: p.variant, wasmSource: p.wasmSource };
  document.querySelector('#out').textContent = `posenc ${p.variant} (${p.wasmSource}): the element drew`;
}

// No top-level await (see main.js).
main().catch((error) => {
  window.__posenc = { error: String(error?.message ?? error) };
  document.querySelector('#out').textContent = window.__posenc.error;
});
