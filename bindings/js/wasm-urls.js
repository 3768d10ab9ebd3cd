// Where each build's .wasm sits, relative to this file, written out as literal
// `new URL('…', import.meta.url)`: the pattern webpack 5, Vite and Parcel recognise, so a
// production bundle carries the .wasm as an asset and the URL points at it. Only the entries that
// look for the package's own files import this (posenc/inline does not, so bundles of it carry
// no second copy). The package's bundles in dist/ (scripts/beside-the-package.js) rewrite the
// relative path and HOME to their own place.
export const PACKAGE_WASM_URLS = {
  simd: () => new URL('../../dist/posenc-simd.wasm', import.meta.url),
  scalar: () => new URL('../../dist/posenc-scalar.wasm', import.meta.url),
};

/** Where this code sits in the package, as the end of its URL's path. */
const HOME = /\/bindings\/js\/[^/]+$/;

/** The folder of the package's files, relative to this code (the same text as the URLs above). */
const DIST = '../../dist/';

/**
 * The URL of the package's `file` beside this code, made at run time so that no bundler rewrites
 * it; undefined when this code no longer sits where the package put it. A bundler that keeps
 * `import.meta.url` as the module's own place (webpack writes in the path it built from) still
 * names the package's file here, which exists wherever the package is still installed.
 */
export function packageFileUrl(file) {
  const here = new URL(import.meta.url);
  return HOME.test(here.pathname) ? new URL(`${DIST}${file}`, here) : undefined;
}

/**
 * What `url`, the URL of the package's `file` as this code's literal gives it, points at:
 * 'package' (still as written, this code in the package: the package's own file), 'bundler' (a
 * bundler rewrote it to the copy it emitted, renamed with a hash or moved) or 'stranded' (as
 * written while a bundler moved the code without copying the .wasm: esbuild, Rollup, Vite before
 * 8 pre-bundling for its dev server, so nothing can be there, and fetching it would only log a
 * 404 or get the app's index.html).
 */
export function packageUrlKind(url, file) {
  const here = new URL(import.meta.url);
  if (url.href !== new URL(`${DIST}${file}`, here).href) return 'bundler';
  return HOME.test(here.pathname) ? 'package' : 'stranded';
}
