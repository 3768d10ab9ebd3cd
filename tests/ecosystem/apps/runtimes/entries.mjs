// Every entry of posenc, imported by a server-side runtime (Node, Deno, Bun), printed as one JSON
// line: the entries that compute load posenc and compute the table; posenc/webgpu (a browser API)
// and posenc/widgets (custom elements) must import without failing, and show their exports.
const entries = {};
for (const name of ['posenc', 'posenc/inline', 'posenc/standalone']) {
  try {
    const { loadPosenc } = await import(name);
    const p = await loadPosenc();
    const values = Array.from(p.sinusoidal({ seqLen: 3, dModel: 8 }));
    entries[name] = { values, variant: p.variant, wasmSource: p.wasmSource };
  } catch (error) {
    entries[name] = { error: String(error?.message ?? error) };
  }
}
for (const name of ['posenc/webgpu', 'posenc/widgets']) {
  try {
    entries[name] = { exports: Object.keys(await import(name)).sort() };
  } catch (error) {
    entries[name] = { error: String(error?.message ?? error) };
  }
}
console.log(JSON.stringify(entries));
