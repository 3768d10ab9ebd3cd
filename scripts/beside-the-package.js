// An esbuild plugin for the bundles that ship in dist/ next to the package's other files
// (dist/posenc.browser.js, dist/inline.js, dist/widgets.js): they refer to those files from
// './' instead of copying them in. The base64 inline chunks stay separate modules, imported
// lazily (unless `separateChunks: false` bundles them in: a file with its .wasm embedded); the
// glue (dist/posenc.mjs) is bundled in, unless `separateGlue` keeps it beside.
// The .wasm URLs of bindings/js/wasm-urls.js are rewritten to be relative to the bundle (still
// literal `new URL('./posenc-simd.wasm', import.meta.url)`, so bundlers that consume the bundle
// find and copy the .wasm), and its check for a stranded URL to the bundle's own file name.
import { readFileSync } from 'node:fs';

const INLINE_CHUNKS = /(^|\/)dist\/(posenc-(simd|scalar)\.inline\.js)$/;
const GLUE = /(^|\/)dist\/(posenc\.mjs)$/;
const WASM_URLS = /bindings[\\/]js[\\/]wasm-urls\.js$/;

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** `text` with each `[from, to, count]` replaced, exactly `count` times, or the build stops. */
function rewritten(text, edits, file) {
  for (const [from, to, count] of edits) {
    const found = text.split(from).length - 1;
    if (found !== count)
      throw new Error(`beside-the-package: expected ${JSON.stringify(from)} ${count}× in ${file}, found ${found}`);
    text = text.replaceAll(from, to);
  }
  return text;
}

/** The plugin for a bundle written to dist/<bundleName>. */
export function besideThePackage({ bundleName, separateGlue = false, separateChunks = true }) {
  const separate = [separateChunks && INLINE_CHUNKS, separateGlue && GLUE].filter(Boolean);
  return {
    name: 'posenc-beside-the-package',
    setup(b) {
      for (const filter of separate) {
        b.onResolve({ filter }, ({ path }) => ({ path: `./${path.match(filter)[2]}`, external: true }));
      }
      b.onLoad({ filter: WASM_URLS }, ({ path }) => ({
        loader: 'js',
        contents: rewritten(
          readFileSync(path, 'utf8'),
          [
            ['../../dist/', './', 3],
            ['const HOME = /\\/bindings\\/js\\/[^/]+$/;', `const HOME = /\\/${escapeRegExp(bundleName)}$/;`, 1],
          ],
          path,
        ),
      }));
    },
  };
}
