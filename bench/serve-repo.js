// Serves the repository's files to a Playwright browser context at http://posenc.bench/
// without a network server: every request to that origin is fulfilled from disk.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

export const ORIGIN = 'http://posenc.bench';

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
};

async function fileFor(root, pathname) {
  const file = path.resolve(root, `.${decodeURIComponent(pathname)}`);
  if (file !== root && !file.startsWith(root + path.sep)) return null; // outside the repo
  try {
    const info = await stat(file);
    return info.isDirectory() ? path.join(file, 'index.html') : file;
  } catch {
    return null;
  }
}

/** Routes http://posenc.bench/<path> to <root>/<path> for every page of `context`. */
export async function serveRepo(context, root) {
  await context.route(`${ORIGIN}/**`, async (route) => {
    const { pathname } = new URL(route.request().url());
    const file = await fileFor(root, pathname);
    let body;
    try {
      body = file && (await readFile(file));
    } catch {
      body = null;
    }
    if (!body) {
      await route.fulfill({ status: 404, contentType: 'text/plain', body: `not found: ${pathname}` });
      return;
    }
    const contentType = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
    await route.fulfill({ status: 200, contentType, body });
  });
}
