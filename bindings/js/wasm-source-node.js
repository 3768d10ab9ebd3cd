// How the Node entry finds a build's .wasm when the caller gave neither `module` nor `wasmBinary`.
// It reads files and never fetches a site path (a server has no page to resolve one against):
//   1. the package's own file, beside this code while this code still sits in the package (or a
//      bundler kept its path, as webpack does): what an installed package always has;
//   2. the file a bundler emitted for the package's `new URL(…, import.meta.url)`: where the
//      rewritten URL points, else that URL's path under the working directory, since server
//      builds name their assets by the site path the browser would use (Next.js:
//      `/_next/static/media/….wasm`, a file under `.next/`);
//   3. the inline chunk, which a bundle carries with it (unless `inlineFallback: false`).
// `locateWasm` replaces all three, relative to the working directory: read from disk, or fetched
// when it is an http(s) URL; no fallback, since the caller chose the place.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadError } from './errors.js';
import { firstBytes, locatedUrl, looksLikeWasm, WASM_FILE_NAMES, wasmFound } from './wasm-bytes.js';
import { fetchWasm } from './wasm-fetch.js';
import { inlineWasm } from './wasm-inline.js';
import { PACKAGE_WASM_URLS, packageFileUrl, packageUrlKind } from './wasm-urls.js';

const fn = 'loadPosenc';

/**
 * Folders, relative to the working directory, that a server build's site paths are served from:
 * the working directory itself, and Next.js's build folder (it serves `/_next/…` from `.next/`
 * and keeps the assets of its server build in `.next/server/`).
 */
const SITE_ROOTS = ['.', '.next', '.next/server'];

/** The .wasm at `path` as `{ bytes }`, or why not: `{ code, cause }` (unreadable) or `{ head }` (not WebAssembly). */
async function readWasmFile(path) {
  let bytes;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (error) {
    return { __proto__: null, code: error?.code ?? error?.message ?? String(error), cause: error };
  }
  return looksLikeWasm(bytes) ? { __proto__: null, bytes } : { __proto__: null, head: firstBytes(bytes) };
}

const problemOf = (found) => found.code ?? `not WebAssembly, ${found.head}`;

/** A URL's path segment as a file name: decoded, unless that would make it a path of its own. */
function pathSegment(raw) {
  try {
    const name = decodeURIComponent(raw);
    return /[/\\]/.test(name) || name === '..' ? raw : name;
  } catch {
    return raw; // not valid percent-encoding: the name as written
  }
}

/**
 * Where the file a bundler emitted may be, given the URL it rewrote the package's to: the path
 * of a file: URL, then that URL's path and each shorter tail of it under each site root.
 */
export function bundlerFilePaths(url) {
  const paths = [];
  try {
    if (url.protocol === 'file:') paths.push(fileURLToPath(url));
  } catch {} // a file: URL naming another host (file://server/…) is no path here
  const segments = url.pathname.split('/').filter(Boolean).map(pathSegment);
  for (let i = 0; i < segments.length; i++) {
    for (const root of SITE_ROOTS) paths.push(resolve(root, ...segments.slice(i)));
  }
  return [...new Set(paths)];
}

/** The .wasm where the caller's `locateWasm` says. */
async function readLocated(variant, locateWasm) {
  const file = WASM_FILE_NAMES[variant];
  const url = locatedUrl(locateWasm, variant, pathToFileURL(`${process.cwd()}/`));
  if (url.protocol !== 'file:') {
    const found = await fetchWasm(url);
    if (found.bytes) return wasmFound(found.bytes, 'url', 'locateWasm', url.href);
    throw loadError(fn, `could not load ${file} from ${url}: ${found.problem}`);
  }
  const path = fileURLToPath(url);
  const found = await readWasmFile(path);
  if (found.code) throw loadError(fn, `could not read ${file} at ${path} (${found.code})`, found.cause);
  if (found.head) throw loadError(fn, `${path} is not a WebAssembly module (${found.head})`);
  return wasmFound(found.bytes, 'url', 'locateWasm', path);
}

export async function findWasmOnDisk(variant, o) {
  if (o.locateWasm !== undefined) return readLocated(variant, o.locateWasm);
  const file = WASM_FILE_NAMES[variant];
  const tried = [];

  const own = packageFileUrl(file);
  if (own !== undefined) {
    const path = fileURLToPath(own);
    const found = await readWasmFile(path);
    if (found.bytes) return wasmFound(found.bytes, 'url', 'package', path);
    tried.push(`the package's file ${path} (${problemOf(found)})`);
  }

  let url;
  try {
    url = PACKAGE_WASM_URLS[variant]();
  } catch (error) {
    // A CommonJS bundle of this code (esbuild's format=cjs) has an empty import.meta.
    tried.push(`no bundler's URL (import.meta.url is not available here: ${error?.message ?? error})`);
  }
  if (url !== undefined && packageUrlKind(url, file) === 'bundler') {
    const paths = bundlerFilePaths(url);
    for (const path of paths) {
      const found = await readWasmFile(path);
      if (found.bytes) return wasmFound(found.bytes, 'url', 'bundler', path);
    }
    tried.push(`the bundler's file ${url} (at none of: ${paths.join(', ')})`);
  }

  if (o.inlineFallback === false) throw notFound(file, [...tried, 'not the inline chunk (inlineFallback: false)']);
  try {
    return wasmFound(await inlineWasm(variant), 'inline');
  } catch (error) {
    throw notFound(file, [...tried, `the inline chunk (${error?.message ?? error})`], error);
  }
}

function notFound(file, tried, cause) {
  return loadError(
    fn,
    `could not find ${file}; tried ${tried.join('; ')}. Fixes: keep the .wasm files the bundler emitted beside ` +
      `its output, or copy node_modules/posenc/dist/${file} there and pass locateWasm: (file) => '/where/it/is/' + file; ` +
      'or pass wasmBinary (its bytes) or module (compiled).',
    cause,
  );
}
