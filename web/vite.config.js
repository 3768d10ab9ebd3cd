// The builds of the tutorial's two pages, the lesson (index.html) and the advanced companion
// (companion.html); see scripts/build-web.sh:
//   default                  -> web/site/: both pages and the widgets gallery, hashed assets
//                               next to them, relative base './' so the folder works from any
//                               static server under any sub-path;
//   --mode single            -> web/site/single/posenc-tutorial.html (the lesson) and
//   --mode single-companion  -> web/site/single/posenc-companion.html: one file each, with JS,
//                               CSS, fonts and WASM inlined, for file://, linking to each other
//                               by file name. They load posenc through posenc/inline (the .wasm
//                               as base64 chunks), so each file carries each build once.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';
import { noticeComment } from '../scripts/third-party-notices.js';
import { singleFileCsp } from './single-file-csp.js';

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

// The lesson and the companion share their status line, message boxes and footer: a page writes
// `<!-- part: NAME -->` where web/parts/NAME.html goes, before any other plugin reads the page.
function pageParts() {
  return {
    name: 'posenc-page-parts',
    transformIndexHtml: {
      order: 'pre',
      handler: (html) =>
        html.replace(/<!-- part: ([a-z-]+) -->/g, (_, name) =>
          readFileSync(pagePath(`parts/${name}.html`), 'utf8').trimEnd(),
        ),
    },
  };
}

// Each page's single file: the page it is built from and its file name (web/src/pages.js names
// the same files, for the links its script writes).
const SINGLE_FILES = {
  single: { page: 'index.html', file: 'posenc-tutorial.html' },
  'single-companion': { page: 'companion.html', file: 'posenc-companion.html' },
};

// A single file holds one page of the tutorial: paragraphs marked data-site-only (links to the
// site's other pages, such as the widgets gallery) would lead nowhere from it, and the links
// between the two pages name the other page's single file, which lies next to it.
function singleFilePage() {
  const renamed = (html) =>
    Object.values(SINGLE_FILES).reduce(
      (text, { page, file }) => text.replaceAll(`href="./${page}`, `href="./${file}`),
      html,
    );
  return {
    name: 'posenc-single-file-page',
    transformIndexHtml: (html) => renamed(html.replace(/\s*<p data-site-only>[\s\S]*?<\/p>/g, '')),
  };
}

// Minifying drops the packages' own comments: each JS chunk that embeds code from node_modules
// starts with the notices of those packages (scripts/third-party-notices.js), before the single
// file's plugin inlines it.
function thirdPartyNotices() {
  return {
    name: 'posenc-third-party-notices',
    generateBundle(_, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const names = new Set();
        for (const id of chunk.moduleIds) {
          const match = id.match(/node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/);
          if (match) names.add(match[1].replace(/\\/g, '/'));
        }
        if (names.size > 0) chunk.code = `${noticeComment([...names].sort())}\n${chunk.code}`;
      }
    },
  };
}

const pagePath = (name) => fileURLToPath(new URL(name, import.meta.url));
const inlineEntry = fileURLToPath(new URL('../bindings/js/inline.js', import.meta.url));

export default defineConfig(({ mode }) => {
  const single = SINGLE_FILES[mode];
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
      // The folder build has both pages and the widgets gallery; a single file, one page.
      rollupOptions: {
        input: single
          ? pagePath(single.page)
          : { index: pagePath('index.html'), companion: pagePath('companion.html'), widgets: pagePath('widgets.html') },
      },
    },
    resolve: single ? { alias: { '../../bindings/js/index.js': inlineEntry } } : {},
    plugins: [
      pageParts(),
      katexWoff2Only(),
      thirdPartyNotices(),
      ...(single ? [singleFilePage(), viteSingleFile({ outputFileName: single.file }), singleFileCsp()] : []),
    ],
  };
});
