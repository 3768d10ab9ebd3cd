// A Node ESM consumer: import, load, print what came out as JSON.
import { loadPosenc } from 'posenc';

const p = await loadPosenc();
const t = p.sinusoidal({ seqLen: 3, dModel: 8 });
console.log(
  JSON.stringify({ values: Array.from(t), variant: p.variant, wasmSource: p.wasmSource, wasmFile: p.wasmFile }),
);
