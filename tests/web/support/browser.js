// Headless Chromium (Debian's) driven by playwright-core, with every request and console
// message of a page recorded so tests can assert that nothing leaves the page's origin.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { launchChromium } from '../../../scripts/chromium.js';
import { ROOT } from './build.js';

export const ARTIFACTS = path.join(ROOT, 'test-artifacts');

export function launchBrowser() {
  return launchChromium();
}

/**
 * A new page that records requests, console errors/warnings and uncaught exceptions. `bypassCSP`
 * ignores the server's Content-Security-Policy (scripts/serve.js sends a strict one); `touch` makes
 * a phone: touch input, a mobile viewport meta, a 2× screen; `colorScheme` is what
 * prefers-color-scheme reports ('light' or 'dark').
 */
export async function openPage(
  browser,
  { width = 1280, height = 900, acceptDownloads = false, bypassCSP = false, touch = false, colorScheme = 'light' } = {},
) {
  const device = touch ? { hasTouch: true, isMobile: true, deviceScaleFactor: 2 } : {};
  const context = await browser.newContext({
    viewport: { width, height },
    acceptDownloads,
    bypassCSP,
    colorScheme,
    ...device,
  });
  const page = await context.newPage();
  const log = { requests: [], errors: [], warnings: [] };
  page.on('request', (request) => log.requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') log.errors.push(message.text());
    if (message.type() === 'warning') log.warnings.push(message.text());
  });
  page.on('pageerror', (error) => log.errors.push(`uncaught: ${error.message}`));
  return { page, context, log };
}

/** Waits until posenc is loaded, every section mounted and no redraw is pending. */
export async function waitForIdle(page, timeout = 30_000) {
  await page.waitForFunction(
    () => document.documentElement.dataset.ready === 'true' && document.documentElement.dataset.pendingRedraws === '0',
    null,
    { timeout },
  );
}

export async function gotoAndSettle(page, url, timeout = 30_000) {
  await page.goto(url);
  await waitForIdle(page, timeout);
}

export function artifactPath(name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  return path.join(ARTIFACTS, name);
}
