// The tutorial's GPU-precision section: until the reader asks for a measurement (and where the
// page has no adapter) it shows the one made on Chromium's software adapter and says so; with
// the software adapter on, the button measures WGSL's sin/cos live on it. posenc's line stays
// within the table bound of float64 either way.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import precision from '../precision.json' with { type: 'json' };
import { launchChromium } from '../../scripts/chromium.js';
import { gotoAndSettle, openPage } from './support/browser.js';
import { usePageSession } from './support/session.js';
import { WEBGPU_FLAGS } from './support/webgpu.js';

const session = usePageSession({ page: 'companion' });
let page;
let server;
before(async () => ({ page, server } = await session));

/** The note's text and data once the section has settled (measured, or told there is no adapter). */
async function settledNote(target) {
  const note = target.locator('#gpu-precision-note');
  await target.waitForFunction(() => {
    const text = document.getElementById('gpu-precision-note')?.textContent ?? '';
    return text !== '' && !text.includes('measuring');
  });
  return {
    text: await note.textContent(),
    live: await note.getAttribute('data-live'),
    errors: JSON.parse(await note.getAttribute('data-errors')),
  };
}

test('before a measurement is asked for (and where there is no adapter): the static one, labelled as such, beside posenc’s own line', async () => {
  await gotoAndSettle(page, `${server.companionUrl}#gpu-precision`);
  const note = await settledNote(page);
  assert.equal(note.live, 'false');
  assert.match(
    note.text,
    /not measured here \(press “Measure on this device’s GPU”\); measured on Chromium 156’s software adapter/,
  );
  assert.ok(note.errors.posenc <= precision.tableBound, String(note.errors.posenc));
  const keys = await page.locator('#gpu-precision-demo').textContent();
  assert.match(keys, /WGSL sin\/cos, measured on Chromium 156’s software adapter/);
});

test('another head dimension: posenc’s line follows; the static points, made at 128, are left out', async () => {
  await gotoAndSettle(page, `${server.companionUrl}?gp.dim=32#gpu-precision`);
  const note = await settledNote(page);
  assert.match(note.text, /the static measurement is of head dimension 128/);
  assert.ok(note.errors.posenc <= precision.tableBound);
});

let gpuBrowser;
after(async () => gpuBrowser?.close());

test('with WebGPU (the software adapter): WGSL’s sin/cos measured live on it, far off where posenc is not', async (t) => {
  gpuBrowser = await launchChromium(WEBGPU_FLAGS);
  const { page: gpuPage } = await openPage(gpuBrowser);
  await gotoAndSettle(gpuPage, `${server.companionUrl}#gpu-precision`);
  const none = await gpuPage.evaluate(async () =>
    navigator.gpu
      ? (await navigator.gpu.requestAdapter())
        ? null
        : 'requestAdapter() returned null'
      : 'no navigator.gpu',
  );
  if (none) {
    console.log(`skipped: no WebGPU adapter (${none})`);
    t.skip(`no WebGPU adapter (${none})`);
    return;
  }
  await gpuPage.locator('#ctl-gp-measure').click();
  await gpuPage.waitForFunction(() => document.getElementById('gpu-precision-note')?.dataset.live === 'true', null, {
    timeout: 30_000,
  });
  const note = await settledNote(gpuPage);
  assert.match(note.text, /measured on this page’s WebGPU adapter \(swiftshader\)/);
  assert.ok(note.errors.wgsl > 1e-2, note.text); // at one million
  assert.ok(note.errors.posenc <= precision.tableBound);
});
