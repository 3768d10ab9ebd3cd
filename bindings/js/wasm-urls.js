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

/**
 * Whether `url`, the URL of the package's `file`, is still as written while this code no longer
 * sits where the package put it: a bundler moved the code but did not copy the .wasm (esbuild,
 * Rollup, Vite before 8 pre-bundling for its dev server), so nothing can be there. Fetching it
 * would only log a 404 (or get the app's index.html). A bundler that copied the .wasm renamed it
 * (a hash) or moved it, so its URL differs from the one written.
 */
export function strandedPackageUrl(url, file) {
  const here = new URL(import.meta.url);
  const asWritten = new URL(`../../dist/${file}`, here);
  return url.href === asWritten.href && !HOME.test(here.pathname);
}

/**
 * Where the package's `file` is when this code was moved into a folder of a node_modules (a dev
 * server's pre-bundled copy, as Vite 5-7 make in node_modules/.vite/deps/) without the .wasm:
 * the package as npm installs it in that same node_modules. Undefined elsewhere.
 */
export function installedPackageUrl(file) {
  const here = new URL(import.meta.url);
  const at = here.pathname.lastIndexOf('/node_modules/');
  if (at < 0) return undefined;
  return new URL(`${here.pathname.slice(0, at)}/node_modules/posenc/dist/${file}`, here);
}
