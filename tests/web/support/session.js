// One built page, served and open in Chromium for a whole test file. Registers node:test's
// before/after hooks and returns a promise of { browser, server, page, context, log }: await it
// in the file's own `before` (Node 20 does not wait for one root hook before starting the next).
import { after, before } from 'node:test';
import { gotoAndSettle, launchBrowser, openPage } from './browser.js';
import { ensureWebBuilt } from './build.js';
import { serveWeb } from './server.js';

export function usePageSession(pageOptions = {}) {
  const session = {};
  let settle;
  const ready = new Promise((resolve, reject) => {
    settle = { resolve, reject };
  });
  ready.catch(() => {}); // reported through the awaiting hook
  before(async () => {
    try {
      await ensureWebBuilt();
      session.server = await serveWeb();
      session.browser = await launchBrowser();
      Object.assign(session, await openPage(session.browser, pageOptions));
      await gotoAndSettle(session.page, session.server.pageUrl);
      settle.resolve(session);
    } catch (error) {
      settle.reject(error);
      throw error;
    }
  });
  after(async () => {
    await session.browser?.close();
    await session.server?.close();
  });
  return ready;
}
