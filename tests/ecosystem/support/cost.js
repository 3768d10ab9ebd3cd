// What a production build costs a page: the JS and the .wasm it emitted, raw and gzipped, and
// which JS files carry a wasm module as base64 (posenc's inline fallback, "AGFzbQ" being the
// base64 of the wasm magic "\0asm").
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { filesUnder } from './apps.js';

const JS = new Set(['.js', '.mjs', '.cjs']);
export const INLINE_WASM = /AGFzbQ[A-Za-z0-9+/]{1000}/;

/** The names of `files` ({ name, bytes }), and their sizes raw and gzipped, summed. */
export function total(files) {
  return {
    files: files.map((file) => file.name),
    raw: files.reduce((sum, file) => sum + file.bytes.length, 0),
    gzip: files.reduce((sum, file) => sum + gzipSync(file.bytes).length, 0),
  };
}

/**
 * Sizes of the JS and wasm files under `folder` (source maps and HTML left out), and of the JS
 * files among them that carry base64 wasm (counted in `js` too).
 */
export function bundleCost(folder) {
  const files = filesUnder(folder).map((name) => ({ name, bytes: readFileSync(path.join(folder, name)) }));
  const js = files.filter((file) => JS.has(path.extname(file.name)));
  const wasm = files.filter((file) => path.extname(file.name) === '.wasm');
  return {
    js: total(js),
    wasm: total(wasm),
    inlineBase64: total(js.filter((file) => INLINE_WASM.test(file.bytes.toString('latin1')))),
  };
}
