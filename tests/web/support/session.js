// The built page served, and Chromium, for a whole test file. Each function registers node:test's
// before/after hooks and returns a promise of the session: await it in the file's own `before`
// (Node 20 does not wait for one root hook before starting the next).
//   useServedSite()     { browser, server }: the file opens its own pages
//   usePageSession(o)   { browser, server, page, context, log }: one page, open at the site's
//                       lesson, or at its companion with { page: 'companion' } (the rest of o
//                       goes to openPage)
//   useGallerySession(o)  the same, open at the widgets gallery (web/widgets.html), plus galleryUrl
import { after, before } from 'node:test';
import { gotoAndSettle, launchBrowser, openPage } from './browser.js';
import { ensureWebBuilt } from './build.js';
import { serveWeb } from './server.js';

/** Hooks that run `start(session)` before the file's tests and close what it opened after them. */
function useSession(start) {
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
      await start(session);
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

export function useServedSite() {
  return useSession(async () => {});
}

export function usePageSession({ page = 'lesson', ...pageOptions } = {}) {
  return useSession(async (session) => {
    Object.assign(session, await openPage(session.browser, pageOptions));
    await gotoAndSettle(session.page, page === 'companion' ? session.server.companionUrl : session.server.pageUrl);
  });
}

export function useGallerySession(pageOptions = {}) {
  return useSession(async (session) => {
    session.galleryUrl = `${session.server.url}site/widgets.html`;
    Object.assign(session, await openPage(session.browser, pageOptions));
    await gotoAndSettle(session.page, session.galleryUrl);
  });
}
