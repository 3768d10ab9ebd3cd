// The posenc/webgpu tests' browser: headless Chromium with its software WebGPU adapter
// (SwiftShader; these flags only here), a page served from 127.0.0.1 (an opaque origin has no
// navigator.gpu) that loads tests/web/support/webgpu-kit.js, and `gpuTest`, which runs a test
// only where an adapter came up and otherwise skips it with the reason, printed.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { launchChromium } from '../../../scripts/chromium.js';
import { startServer } from '../../../scripts/serve.js';
import { ARTIFACTS, openPage } from './browser.js';
import { ROOT } from './build.js';

export const WEBGPU_FLAGS = ['--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-webgpu-adapter=swiftshader'];

const folder = path.join(ARTIFACTS, 'webgpu');

/** Starts the browser and the page once for a test file; returns { page: () => page, kit: () => kit info, log }. */
export function useWebGpuPage() {
  const state = { browser: undefined, server: undefined, page: undefined, log: undefined, kit: undefined };
  before(async () => {
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      path.join(folder, 'index.html'),
      '<!doctype html><meta charset="utf-8"><title>posenc/webgpu</title><link rel="icon" href="data:,">' +
        '<script type="module" src="../../tests/web/support/webgpu-kit.js"></script>\n',
    );
    state.server = await startServer({ root: ROOT, port: 0 });
    state.browser = await launchChromium(WEBGPU_FLAGS);
    const { page, log } = await openPage(state.browser);
    state.page = page;
    state.log = log;
    await page.goto(`${state.server.url}test-artifacts/webgpu/index.html`);
    await page.waitForFunction(() => window.__kit, null, { timeout: 60_000 });
    state.kit = await page.evaluate(() => {
      const kit = window.__kit;
      return kit.skip || kit.error ? { skip: kit.skip, error: kit.error } : { adapter: kit.adapter };
    });
    if (state.kit.error) throw new Error(`the WebGPU test page failed: ${state.kit.error}`);
    if (state.kit.skip) console.log(`posenc/webgpu tests skipped: ${state.kit.skip}`);
    else
      console.log(
        `posenc/webgpu tests on the '${state.kit.adapter.architecture}' adapter (${state.kit.adapter.vendor})`,
      );
  });
  after(async () => {
    await state.browser?.close();
    await state.server?.close();
  });

  /** A test that needs the adapter: skipped, with the reason, where none came up. */
  function gpuTest(name, body) {
    test(name, async (t) => {
      if (state.kit.skip) {
        t.diagnostic(`skipped: ${state.kit.skip}`);
        t.skip(state.kit.skip);
        return;
      }
      await body(t, state.page);
    });
  }
  return { gpuTest, state };
}
