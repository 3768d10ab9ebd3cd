// Telling a .wasm from what a server sends in its place, and the caller's locateWasm.
import { describe, typeError } from './errors.js';

/**
 * What an entry's search found (load.js): the bytes, their source ('url' or 'inline'), and for
 * a file or URL `{ from, location }`; every field present, so none is read through a prototype.
 */
export const wasmFound = (bytes, source, from, location) => ({
  bytes,
  source,
  file: from === undefined ? undefined : { from, location },
});

/** Each build's file name. */
export const WASM_FILE_NAMES = { simd: 'posenc-simd.wasm', scalar: 'posenc-scalar.wasm' };

const MAGIC = [0x00, 0x61, 0x73, 0x6d]; // "\0asm"

/** Whether these bytes start like a WebAssembly module. */
export function looksLikeWasm(bytes) {
  return bytes.length >= 8 && MAGIC.every((byte, i) => bytes[i] === byte);
}

/** The first bytes in hex and as text, for messages: `3c 21 64 6f 63 74 79 70 ("<!doctyp")`. */
export function firstBytes(bytes) {
  const head = Array.from(bytes.subarray(0, 8));
  const hex = head.map((byte) => byte.toString(16).padStart(2, '0')).join(' ');
  const text = head.map((byte) => (byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.')).join('');
  return head.length === 0 ? 'no bytes' : `first bytes ${hex} (${JSON.stringify(text)})`;
}

/** The URL the caller's `locateWasm` gives for a build's file, resolved against `base`. */
export function locatedUrl(locateWasm, variant, base) {
  const value = locateWasm(WASM_FILE_NAMES[variant]);
  if (typeof value === 'string' || value instanceof URL) {
    try {
      return new URL(value, base);
    } catch {}
  }
  throw typeError('loadPosenc', 'locateWasm', `must return a URL or a string (returned ${describe(value)})`);
}
