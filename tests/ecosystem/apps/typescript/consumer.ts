// A TypeScript consumer in a CommonJS project (package.json without "type"): tsc compiles the
// import to require('posenc'), under module node16 or nodenext.
import { loadPosenc, type Posenc } from 'posenc';

async function main(): Promise<void> {
  const p: Posenc = await loadPosenc();
  const t: Float32Array = p.sinusoidal({ seqLen: 3, dModel: 8 });
  const source: string = p.wasmSource;
  console.log(JSON.stringify({ values: Array.from(t), variant: p.variant, wasmSource: source }));
}

// A rejection left unhandled ends the process with an error, as a failed load should.
void main();
