// scripts/serve.js: MIME types, no way out of the root, strict CSP, busy-port fallback, CLI.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { resolveRequestPath, startServer } from '../../scripts/serve.js';
import { ROOT } from './support/build.js';

let folder;
let root;
let server;

before(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'posenc-serve-'));
  root = path.join(folder, 'site');
  mkdirSync(path.join(root, 'assets'), { recursive: true });
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(path.join(root, 'assets', 'a.js'), 'export {};');
  writeFileSync(path.join(root, 'assets', 'b.mjs'), 'export {};');
  writeFileSync(path.join(root, 'assets', 'c.wasm'), Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]));
  writeFileSync(path.join(root, 'assets', 'd.css'), 'body{}');
  writeFileSync(path.join(root, 'assets', 'e.woff2'), 'x');
  writeFileSync(path.join(folder, 'secret.txt'), 'outside the root');
  server = await startServer({ root, port: 0 });
});

after(async () => {
  await server?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** A raw GET (the path is sent exactly as given, without URL normalisation). */
function get(rawPath, method = 'GET') {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path: rawPath, method }, (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('serves files with the MIME types browsers require', async () => {
  const expected = {
    '/': 'text/html; charset=utf-8',
    '/assets/a.js': 'text/javascript; charset=utf-8',
    '/assets/b.mjs': 'text/javascript; charset=utf-8',
    '/assets/c.wasm': 'application/wasm',
    '/assets/d.css': 'text/css; charset=utf-8',
    '/assets/e.woff2': 'font/woff2',
  };
  for (const [url, type] of Object.entries(expected)) {
    const response = await get(url);
    assert.equal(response.status, 200, url);
    assert.equal(response.headers['content-type'], type, url);
    assert.match(response.headers['content-security-policy'], /default-src 'self'/);
    assert.equal(response.headers['x-content-type-options'], 'nosniff');
  }
  assert.equal((await get('/assets/a.js', 'HEAD')).status, 200);
});

test('never serves anything outside the root', async () => {
  for (const attempt of [
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/..%5csecret.txt',
    '/%00',
    '/%E0%A4%A',
  ]) {
    const response = await get(attempt);
    assert.ok([400, 403, 404].includes(response.status), `${attempt} -> ${response.status}`);
    assert.doesNotMatch(response.body, /outside the root/, attempt);
  }
  assert.equal(
    resolveRequestPath(root, '/../secret.txt'),
    path.join(root, 'secret.txt'),
    'dot-dot segments are clamped at the root',
  );
  assert.equal(resolveRequestPath(root, '/a%00b'), null);
  assert.equal((await get('/missing.js')).status, 404);
  assert.equal((await get('/', 'POST')).status, 405);
  const folderWithoutSlash = await get('/assets?x=1');
  assert.equal(folderWithoutSlash.status, 301);
  assert.equal(folderWithoutSlash.headers.location, '/assets/?x=1');
});

test('falls back to a free port when the requested one is busy', async () => {
  const blocker = createServer();
  await new Promise((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const busy = blocker.address().port;
  try {
    const other = await startServer({ root, port: busy });
    assert.notEqual(other.port, busy);
    assert.equal(other.url, `http://127.0.0.1:${other.port}/`);
    await other.close();
    await assert.rejects(startServer({ root, port: busy, fallback: false }), { code: 'EADDRINUSE' });
  } finally {
    blocker.close();
  }
});

test('as a script it serves a folder on $PORT and prints the URL', async () => {
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/serve.js'), root], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const url = await new Promise((resolve, reject) => {
      let output = '';
      child.stdout.on('data', (chunk) => {
        output += chunk;
        const match = /Open (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
        if (match) resolve(match[1]);
      });
      child.on('exit', (code) => reject(new Error(`serve.js exited with ${code}: ${output}`)));
    });
    const response = await fetch(url);
    assert.equal(response.status, 200);
    assert.match(await response.text(), /<title>t<\/title>/);
  } finally {
    child.kill();
  }
});
