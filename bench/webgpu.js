// The GPU rows of `npm run bench` (section webgpu, Chromium only): Chromium launched so WebGPU
// may take a hardware adapter (no --disable-gpu), the page served from 127.0.0.1 (WebGPU needs a
// secure context), bench/webgpu-page.js run there.
import { launchChromium } from '../scripts/chromium.js';
import { startServer } from '../scripts/serve.js';

const FLAGS = ['--enable-unsafe-webgpu', '--enable-features=Vulkan'];

export async function measureWebGpu(root, log) {
  const server = await startServer({ root, port: 0 });
  const browser = await launchChromium(FLAGS, { gpu: true });
  try {
    const page = await browser.newPage();
    page.on('pageerror', (error) => log(`[chromium] webgpu page error: ${error.message}`));
    await page.goto(`${server.url}bench/blank.html`);
    log('[chromium] webgpu: one decoding step recorded, RoPE [2048, 32, 128] against a copy');
    const result = await page.evaluate(async () => (await import('/bench/webgpu-page.js')).measureWebGpu());
    if (result.skip) log(`[chromium] webgpu rows skipped: ${result.skip}`);
    else if (result.adapter.software)
      log(`[chromium] webgpu: software adapter (${result.adapter.architecture}): GPU times are not a GPU's`);
    return result;
  } finally {
    await browser.close();
    await server.close();
  }
}
