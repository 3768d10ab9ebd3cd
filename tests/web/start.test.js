// `npm start` (scripts/start.sh): installs what is missing, builds, serves web/site on
// 127.0.0.1 and prints the URL, where the page then loads.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, test } from 'node:test';
import { gotoAndSettle, launchBrowser, openPage } from './support/browser.js';
import { ensureWebBuilt, ROOT } from './support/build.js';

let child;
let browser;

after(async () => {
  await browser?.close();
  // start.sh runs in its own process group (detached): end exactly that group.
  if (child && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
});

test('npm start builds, serves on 127.0.0.1 and prints a working URL', { timeout: 300_000 }, async () => {
  await ensureWebBuilt(); // holds the build lock while another test file may be building
  child = spawn('bash', ['scripts/start.sh'], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise((resolve, reject) => {
    const read = (chunk) => {
      output += chunk;
      const match = /Open (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
      if (match) resolve(match[1]);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => reject(new Error(`start.sh exited with ${code}:\n${output}`)));
  });
  assert.match(output, /web build sizes/);
  browser = await launchBrowser();
  const { page, log } = await openPage(browser);
  // This test is about what npm start serves, not how fast: the page may mount while another test
  // file builds or drives Chromium on the same two cores (speed is the benchmarks' concern).
  await gotoAndSettle(page, url, 120_000);
  assert.match(await page.locator('#engine-status').textContent(), /computed in your browser by posenc/);
  assert.deepEqual(log.errors, []);
  assert.ok(
    log.requests.every((request) => request.startsWith(url) || request.startsWith('data:')),
    log.requests.join('\n'),
  );
});
