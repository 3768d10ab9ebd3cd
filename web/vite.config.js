// Two builds of the tutorial page (see scripts/build-web.sh):
//   default        -> web/site/: hashed assets next to index.html, relative base './' so the
//                     folder works from any static server under any sub-path;
//   --mode single  -> web/site/single/posenc-tutorial.html: one file with JS, CSS, fonts and
//                     WASM inlined, for file://.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';

// Emscripten's module names its own .wasm with `new URL('posenc-*.wasm', import.meta.url)`
// as a default location. posenc's loader always hands the module its bytes, so that default
// is never used; left in, Vite would bundle (and the single file would inline) each .wasm twice.
// (If a future build of the module drops that default, there is nothing to do.)
function dropEmscriptenDefaultWasmUrl() {
  const pattern = /new URL\((["'])(posenc-(?:simd|scalar)\.wasm)\1,\s*import\.meta\.url\)\.toString\(\)/g;
  return {
    name: 'posenc-drop-emscripten-default-wasm-url',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]dist[\\/]posenc-(simd|scalar)\.mjs$/.test(id)) return null;
      const replaced = code.replace(pattern, '$1$2$1');
      return replaced === code ? null : { code: replaced, map: null };
    },
  };
}

// KaTeX's CSS offers each font as woff2, woff and ttf. Every current browser reads woff2, so the
// page ships only those (a third of the bytes).
function katexWoff2Only() {
  return {
    name: 'posenc-katex-woff2-only',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]katex[\\/]dist[\\/]katex(\.min)?\.css$/.test(id)) return null;
      const stripped = code.replace(/,\s*url\([^)]*\.(woff|ttf)\)\s*format\("(woff|truetype)"\)/g, '');
      if (/\.(woff|ttf)\)/.test(stripped)) this.warn(`KaTeX's font list changed; shipping woff/ttf too (${id})`);
      return { code: stripped, map: null };
    },
  };
}

export default defineConfig(({ mode }) => {
  const single = mode === 'single';
  return {
    root: fileURLToPath(new URL('.', import.meta.url)),
    base: './',
    logLevel: 'warn',
    build: {
      outDir: single ? 'site/single' : 'site',
      emptyOutDir: !single,
      assetsInlineLimit: single ? Number.MAX_SAFE_INTEGER : 0,
      target: 'es2022',
      reportCompressedSize: false,
    },
    plugins: [
      dropEmscriptenDefaultWasmUrl(),
      katexWoff2Only(),
      ...(single ? [viteSingleFile({ outputFileName: 'posenc-tutorial.html' })] : []),
    ],
  };
});
