// Every entry of posenc in server code (run by Node, or bundled for Node): each entry that
// computes loads, computes the table and says where its .wasm came from; posenc/webgpu imports
// (its WGSL is plain text) and refuses on use, since Node has no GPU device.
import * as posenc from 'posenc';
import * as inline from 'posenc/inline';
import * as standalone from 'posenc/standalone';
import { createGpuEncoder, ROTATE_WGSL } from 'posenc/webgpu';

const results = {};
for (const [name, entry] of Object.entries({ posenc, 'posenc/inline': inline, 'posenc/standalone': standalone })) {
  const p = await entry.loadPosenc();
  const values = Array.from(p.sinusoidal({ seqLen: 3, dModel: 8 }));
  results[name] = { values, variant: p.variant, wasmSource: p.wasmSource, wasmFile: p.wasmFile };
}
results['posenc/webgpu'] = {
  wgsl: ROTATE_WGSL.includes('fn posenc_rotate('),
  onUse: await createGpuEncoder(undefined).then(
    () => 'no error',
    (error) => `${error.name}: ${error.message}`,
  ),
};
console.log(JSON.stringify(results));
