// The single file's own Content-Security-Policy, as a <meta> element: it works opened from disk
// (file:// has no headers) and scripts/serve.js sends the same policy for it. The file's one
// inline script and one inline style are allowed by their SHA-256 hashes, the inlined WASM by
// 'wasm-unsafe-eval', fonts and exported images by data:/blob: URLs; nothing else loads or runs.
import { createHash } from 'node:crypto';

const INLINE = /<(script|style)\b[^>]*>([\s\S]*?)<\/\1>/g;

const hash = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The policy for an HTML text whose scripts and styles are all inline. */
export function singleFilePolicy(html) {
  const sources = { script: [], style: [] };
  for (const [, kind, body] of html.matchAll(INLINE)) sources[kind].push(hash(body));
  return [
    "default-src 'none'",
    `script-src ${sources.script.join(' ')} 'wasm-unsafe-eval'`,
    `style-src ${sources.style.join(' ')}`,
    'img-src data: blob:',
    'font-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** The policy a page declares in its <meta http-equiv="Content-Security-Policy">, or null. */
export function declaredPolicy(html) {
  return html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/)?.[1] ?? null;
}

/** Vite plugin (after vite-plugin-singlefile): adds the meta policy first in <head>. */
export function singleFileCsp() {
  return {
    name: 'posenc-single-file-csp',
    enforce: 'post',
    generateBundle: {
      order: 'post', // listed after the single-file plugin, whose post hook inlines everything
      handler(_options, bundle) {
        for (const asset of Object.values(bundle)) {
          if (asset.type !== 'asset' || !asset.fileName.endsWith('.html')) continue;
          const html = String(asset.source);
          if (/<script\b[^>]*\bsrc=|<link\b[^>]*stylesheet/.test(html)) this.error('the single file still links files');
          const meta = `<meta http-equiv="Content-Security-Policy" content="${singleFilePolicy(html)}">`;
          asset.source = html.replace(/<head>/, `<head>\n    ${meta}`);
        }
      },
    },
  };
}
