// A test page of one module script in test-artifacts/<name>/, served from the checkout (so the
// script imports posenc's sources by relative path), with a browser to open it in. Call
// scriptPage() at the top level of a test file: it registers the before/after hooks.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before } from 'node:test';
import { startServer } from '../../../scripts/serve.js';
import { ARTIFACTS, launchBrowser } from './browser.js';
import { ROOT } from './build.js';

/** `{ browser, url }` once the hooks ran: the browser, and the page's URL. */
export function scriptPage(name, title, script) {
  const folder = path.join(ARTIFACTS, name);
  const served = { browser: undefined, url: undefined };
  let server;
  before(async () => {
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'check.js'), script);
    writeFileSync(
      path.join(folder, 'index.html'),
      `<!doctype html><meta charset="utf-8"><title>${title}</title><link rel="icon" href="data:,"><script type="module" src="./check.js"></script>\n`,
    );
    server = await startServer({ root: ROOT, port: 0 });
    served.browser = await launchBrowser();
    served.url = `${server.url}test-artifacts/${name}/index.html`;
  });
  after(async () => {
    await served.browser?.close();
    await server?.close();
  });
  return served;
}
