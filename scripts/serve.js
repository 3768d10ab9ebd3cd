#!/usr/bin/env node
// A tiny static file server for the built tutorial page (used by `npm start` and the page tests).
//   node scripts/serve.js [root]        (root defaults to web/site; port from $PORT, default 8080)
// Listens on 127.0.0.1 only. Serves files with the MIME types browsers insist on
// (application/wasm for streaming compilation, text/javascript for modules), never outside
// `root`, and with a strict Content-Security-Policy so the page is tested under one. A page that
// declares its own policy (the single file: its inline script and style by hash) is served with
// that policy instead, so it runs the same from the server as from disk.
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { declaredPolicy } from '../web/single-file-csp.js';

const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
};

// Everything the page needs comes from its own origin; WebAssembly compilation needs
// 'wasm-unsafe-eval' (it allows wasm only, not JS eval). No inline scripts or styles.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function mimeType(filePath) {
  return MIME_TYPES[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The file under `root` that a request path names, or null when it would leave `root`
 * (`..` segments, encoded or not, absolute paths, NUL bytes) or cannot be decoded.
 */
export function resolveRequestPath(root, requestUrl) {
  let pathname;
  try {
    pathname = decodeURIComponent(new URL(requestUrl, 'http://localhost').pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0')) return null;
  const rootDir = path.resolve(root);
  const resolved = path.resolve(rootDir, `.${path.posix.normalize(`/${pathname}`)}`);
  if (resolved !== rootDir && !resolved.startsWith(rootDir + path.sep)) return null;
  return resolved;
}

function send(res, status, text) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

async function handle(root, req, res, headers) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    return send(res, 405, 'method not allowed\n');
  }
  let filePath = resolveRequestPath(root, req.url);
  if (filePath === null) return send(res, 403, 'forbidden\n');
  let info;
  try {
    info = await stat(filePath);
    if (info.isDirectory()) {
      // A folder URL without its trailing slash would resolve the page's relative URLs wrongly.
      const { pathname, search } = new URL(req.url, 'http://localhost');
      if (!pathname.endsWith('/')) {
        res.writeHead(301, { Location: `${pathname}/${search}` });
        return res.end();
      }
      filePath = path.join(filePath, 'index.html');
      info = await stat(filePath);
    }
  } catch {
    return send(res, 404, 'not found\n');
  }
  if (!info.isFile()) return send(res, 404, 'not found\n');
  const own = filePath.endsWith('.html') ? declaredPolicy(await readFile(filePath, 'utf8')) : null;
  res.writeHead(200, {
    'Content-Type': mimeType(filePath),
    'Content-Length': info.size,
    'Content-Security-Policy': own ? `${own}; frame-ancestors 'none'` : CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache',
    ...headers,
  });
  if (req.method === 'HEAD') return res.end();
  createReadStream(filePath)
    .on('error', () => res.destroy())
    .pipe(res);
}

function listen(server, port, host) {
  return new Promise((resolve, reject) => {
    const onError = (error) => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/**
 * Serves `root` on `host:port` (port 0 = any free port). When `port` is taken and
 * `fallback` is true, listens on a free port instead. `headers` go with every file (a CDN's
 * `Access-Control-Allow-Origin`, for pages of other origins that import its modules).
 * @returns {Promise<{ server: import('node:http').Server, port: number, url: string, close: () => Promise<void> }>}
 */
export async function startServer({ root, port = 0, host = '127.0.0.1', fallback = true, headers = {} } = {}) {
  if (typeof root !== 'string') throw new TypeError('startServer: root must be a folder path');
  const server = createServer((req, res) => {
    handle(root, req, res, headers).catch(() => {
      if (!res.headersSent) send(res, 500, 'internal error\n');
      else res.destroy();
    });
  });
  try {
    await listen(server, port, host);
  } catch (error) {
    if (error.code !== 'EADDRINUSE' || !fallback || port === 0) throw error;
    await listen(server, 0, host);
  }
  const actualPort = server.address().port;
  return {
    server,
    port: actualPort,
    url: `http://${host}:${actualPort}/`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// Run as a script: serve a folder until interrupted.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const root = path.resolve(process.argv[2] ?? path.join(here, '..', 'web', 'site'));
  const requested = process.env.PORT === undefined || process.env.PORT === '' ? 8080 : Number(process.env.PORT);
  if (!Number.isInteger(requested) || requested < 0 || requested > 65535) {
    console.error(`serve.js: PORT must be an integer in 0..65535 (got ${process.env.PORT})`);
    process.exit(2);
  }
  const { port, url } = await startServer({ root, port: requested });
  if (requested !== 0 && port !== requested) console.log(`Port ${requested} is busy; using ${port} instead.`);
  console.log(`Serving ${root}`);
  console.log(`Open ${url}`);
}
