// What every consumer app must show: the table posenc computed equals the float64 reference,
// and the page neither reached beyond 127.0.0.1 nor logged a console error.
import assert from 'node:assert/strict';
import { openPage } from '../../web/support/browser.js';

export const SEQ_LEN = 3;
export const D_MODEL = 8;
const TOLERANCE = 2.5e-7;

/** The sinusoidal table in float64: PE[pos, 2i] = sin(pos / base^(2i/d)), PE[pos, 2i+1] = cos(…). */
export function referenceTable(seqLen = SEQ_LEN, dModel = D_MODEL, base = 10000) {
  const table = [];
  for (let pos = 0; pos < seqLen; pos++) {
    for (let i = 0; i < dModel / 2; i++) {
      const angle = pos / base ** ((2 * i) / dModel);
      table.push(Math.sin(angle), Math.cos(angle));
    }
  }
  return table;
}

/**
 * Asserts that `published` ({ values, variant, wasmSource } or { error }) holds `expected` (by
 * default the reference table) to float32 rounding.
 */
export function assertTable(published, expected = referenceTable()) {
  assert.equal(published.error, undefined, `the app reported an error: ${published.error}`);
  assert.equal(published.values?.length, expected.length, 'number of values');
  published.values.forEach((value, i) => {
    assert.ok(Math.abs(value - expected[i]) <= TOLERANCE, `value ${i}: ${value}, expected ${expected[i]}`);
  });
}

function isLocal(url) {
  if (url.startsWith('data:') || url.startsWith('blob:')) return true;
  return new URL(url).hostname === '127.0.0.1';
}

/**
 * Opens `url` in a new browser context, waits for the app to publish window.__posenc (or for an
 * uncaught error, after which it never will), hands what it published to `check` (which records
 * into `entry`, the summary's record, before it asserts), then checks the page's log: no request
 * beyond 127.0.0.1, no console error. `watch(page)` runs before the page is opened. The page runs
 * as a user's server would serve it, without the strict CSP that scripts/serve.js adds (Parcel's
 * default build puts an inline import map into the page).
 */
export async function openApp(browser, url, entry, { check, watch = () => {} }) {
  const { page, context, log } = await openPage(browser, { bypassCSP: true });
  page.on('websocket', (socket) => log.requests.push(socket.url()));
  const failedResponses = [];
  page.on('response', (response) => {
    if (response.status() >= 400) failedResponses.push(`${response.status()} ${response.url()}`);
  });
  const uncaught = new Promise((_, reject) => page.once('pageerror', reject));
  uncaught.catch(() => {});
  watch(page);
  try {
    await page.goto(url);
    try {
      await Promise.race([
        page.waitForFunction(() => window.__posenc !== undefined, null, { timeout: 30_000 }),
        uncaught,
      ]);
    } catch (error) {
      throw new Error(
        `the app published nothing (${error.message.split('\n')[0]}); console: ${log.errors.join(' | ')}`,
      );
    }
    const published = await page.evaluate(() => window.__posenc);
    Object.assign(entry, { consoleErrors: log.errors, consoleWarnings: log.warnings, failedResponses });
    await check(published);
    const foreign = log.requests.filter((request) => !isLocal(request));
    assert.equal(foreign.length, 0, `requests beyond 127.0.0.1: ${foreign.join(' ')}`);
    const failed = failedResponses.length > 0 ? ` (failed responses: ${failedResponses.join(', ')})` : '';
    assert.equal(log.errors.length, 0, `console errors: ${log.errors.join(' | ')}${failed}`);
  } finally {
    await context.close();
  }
}

/**
 * openApp for the apps that publish a sinusoidal table: the table (`expected`, the reference
 * table unless given), and where the wasm came from.
 */
export function checkApp(browser, url, entry, wasmSource, expected = referenceTable()) {
  return openApp(browser, url, entry, {
    check(published) {
      Object.assign(entry, { variant: published.variant, wasmSource: published.wasmSource });
      assertTable(published, expected);
      assert.equal(published.wasmSource, wasmSource, 'where the wasm came from');
    },
  });
}
