// posenc/webgpu: RoPE and the other encodings on a GPUDevice, on the caller's GPUBuffers, with
// posenc's own angles (float64 on the CPU, rounded once, uploaded and kept per schedule), and
// the WGSL of the rotation, the table lookups, ALiBi and T5's buckets for one's own kernels.
// Importing it touches no browser global (navigator, GPUBuffer…): safe in server-side rendering.
import { describe, typeError } from '../js/errors.js';
import { GpuEncoder } from './encoder.js';

export { ALIBI_WGSL, ROTATE_WGSL, bucketTableWgsl, ropeTableWgsl } from './wgsl.js';

/** Why there can be no device here: said on use, never at import (server code imports this entry). */
const NO_WEBGPU =
  '; this runtime has no WebGPU (no GPUDevice global: Node has none, and a server render has no GPU to record on; ' +
  'call createGpuEncoder in the browser, where navigator.gpu is offered in secure contexts)';

/**
 * An encoder of posenc's operations for `device`. `posenc` is the instance whose angles it
 * uploads (an app's own, so it loads once); without one, posenc's default entry loads one.
 */
export async function createGpuEncoder(device, options) {
  const fn = 'webgpu.createGpuEncoder';
  if (typeof GPUDevice !== 'function' || !(device instanceof GPUDevice))
    throw typeError(
      fn,
      'device',
      `must be a GPUDevice, from (await navigator.gpu.requestAdapter()).requestDevice() (got ${describe(device)})` +
        (typeof GPUDevice === 'function' ? '' : NO_WEBGPU),
    );
  let posenc = options?.posenc;
  if (posenc === undefined) posenc = await (await import('../js/index.js')).loadPosenc();
  else if (posenc === null || typeof posenc !== 'object' || typeof posenc.ropePlan !== 'function' || !posenc.limits)
    throw typeError(
      fn,
      'posenc',
      `must be a loaded posenc instance, from await loadPosenc() (got ${describe(posenc)})`,
    );
  return new GpuEncoder(device, posenc);
}
