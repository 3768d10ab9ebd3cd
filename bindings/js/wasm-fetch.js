// Fetching a build's .wasm over HTTP (browsers, workers, and Node for http(s) URLs). What comes
// back is checked: a dev server that answers every path with index.html (status 200) must read
// as "not found", with what it sent, not as a corrupt module.
import { firstBytes, looksLikeWasm } from './wasm-bytes.js';

/**
 * The bytes at `url`, or `{ problem }` saying what came back instead (a failed request, an HTTP
 * error, or something that is not WebAssembly: status, content type and first bytes).
 */
export async function fetchWasm(url) {
  let response;
  try {
    response = await fetch(url, { credentials: 'same-origin' });
  } catch (error) {
    return { problem: `the request failed (${error?.message ?? error})` };
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (response.ok && looksLikeWasm(bytes)) return { bytes };
  const type = response.headers.get('content-type') ?? 'no content type';
  return { problem: `got HTTP ${response.status}, ${type}, ${firstBytes(bytes)}` };
}
