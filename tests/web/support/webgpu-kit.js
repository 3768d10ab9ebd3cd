// The page side of the posenc/webgpu tests (a module served from the checkout): a device on
// the adapter Chromium offers (SwiftShader's, headless), posenc, an encoder, and helpers that
// upload arrays to buffers, read buffers back and measure GPU results against the CPU's and
// against float64. Sets window.__kit, or window.__kit = { skip } saying why there is no adapter.
import { loadPosenc } from '../../../bindings/js/index.js';
import * as webgpu from '../../../bindings/webgpu/index.js';

const STORAGE_IO = () => GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

async function start() {
  if (!navigator.gpu) return { skip: 'navigator.gpu is undefined (no WebGPU in this browser)' };
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) return { skip: 'navigator.gpu.requestAdapter() returned null (no adapter)' };
  const features = [...adapter.features];
  const device = await adapter.requestDevice();
  const posenc = await loadPosenc();
  const gpu = await webgpu.createGpuEncoder(device, { posenc });

  /** A buffer holding `array` at byte `offset` (STORAGE | COPY_SRC | COPY_DST unless `usage`). */
  function upload(array, { offset = 0, usage = STORAGE_IO(), extra = 0 } = {}) {
    const size = Math.ceil((offset + array.byteLength + extra) / 4) * 4;
    const buffer = device.createBuffer({ size: Math.max(size, 4), usage });
    if (array.byteLength) device.queue.writeBuffer(buffer, offset, array);
    return buffer;
  }
  /** `bytes` of `buffer` from `offset`, as a `Type`. */
  async function download(buffer, { offset = 0, bytes = buffer.size - offset, Type = Float32Array } = {}) {
    const staging = device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const commands = device.createCommandEncoder();
    commands.copyBufferToBuffer(buffer, offset, staging, 0, bytes);
    device.queue.submit([commands.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const copy = new Type(staging.getMappedRange().slice(0));
    staging.destroy();
    return copy;
  }
  /** Seeded values in [-1, 1). */
  function random(length, seed = 1) {
    const out = new Float32Array(length);
    let s = seed >>> 0 || 1;
    for (let i = 0; i < length; i++) {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      out[i] = s / 2 ** 31 - 1;
    }
    return out;
  }
  /**
   * The largest |a − b| / scale over every element: scale is |x_a| + |x_b| of the element's pair
   * (its own |x| for a channel that does not turn; 1e-30 keeps zeros finite), times `factor`.
   */
  function pairError(a, b, x, { headDim, rotaryDim = headDim, layout = 'interleaved', factor = 1 }) {
    let worst = 0;
    for (let i = 0; i < a.length; i++) {
      const c = i % headDim;
      const start = i - c;
      let scale;
      if (c >= rotaryDim) scale = Math.abs(x[i]);
      else if (layout === 'interleaved') scale = Math.abs(x[start + (c & ~1)]) + Math.abs(x[start + (c | 1)]);
      else {
        const k = c % (rotaryDim / 2);
        scale = Math.abs(x[start + k]) + Math.abs(x[start + k + rotaryDim / 2]);
      }
      const e = Math.abs(a[i] - b[i]) / (Math.max(scale, 1e-30) * factor);
      if (!(e <= worst)) worst = Number.isNaN(e) ? Number.POSITIVE_INFINITY : Math.max(worst, e);
    }
    return worst;
  }
  /** Each row's position, [axes][batch · seqLen], from rope's options (offset, per-sequence offsets, positions). */
  function rowPositions(o) {
    const batch = o.batch ?? 1;
    const rows = batch * o.seqLen;
    const axes = o.mrope ? 3 : 1;
    const out = [];
    for (let a = 0; a < axes; a++) {
      const axis = new Float64Array(rows);
      for (let r = 0; r < rows; r++) {
        const b = Math.floor(r / o.seqLen);
        const t = r % o.seqLen;
        if (o.positions) axis[r] = Number(o.positions[a * rows + r]);
        else if (Array.isArray(o.offset)) axis[r] = o.offset[b] + t;
        else axis[r] = (o.offset ?? 0) + t;
      }
      out.push(axis);
    }
    return out;
  }
  /** M-RoPE's axis of pair k (transformers' apply_multimodal_rotary_pos_emb / apply_interleaved_mrope). */
  function mropeAxis(mrope, k) {
    const [t, h, w] = mrope.section;
    if (mrope.interleaved) {
      if (k % 3 === 1 && k < 3 * h) return 1;
      if (k % 3 === 2 && k < 3 * w) return 2;
      return 0;
    }
    return k < t ? 0 : k < t + h ? 1 : 2;
  }
  /** The float64 rotation of x by rope's options o (xPos as `role`), from posenc's float64 schedule. */
  function ropeReference(x, o, role) {
    const heads = o.numHeads ?? 1;
    const positions = rowPositions(o);
    const length = Math.max(...positions.map((axis) => Math.max(...axis))) + 1;
    const schedule = posenc.ropeSchedule({
      headDim: o.headDim,
      ...(o.rotaryDim === undefined ? {} : { rotaryDim: o.rotaryDim }),
      ...(o.partialRotaryFactor === undefined ? {} : { partialRotaryFactor: o.partialRotaryFactor }),
      ...(o.base === undefined ? {} : { base: o.base }),
      ...(o.scaling === undefined ? {} : { scaling: o.scaling }),
      seqLen: length,
    });
    const rd = schedule.rotaryDim;
    const half = rd / 2;
    const sign = o.inverse ? -1 : 1;
    const xp = o.xpos && { scaleBase: 512, gamma: 0.4, ...o.xpos };
    const center = xp && (xp.center ?? Math.ceil(length / 2));
    const out = Float64Array.from(x);
    const rows = (o.batch ?? 1) * o.seqLen;
    for (let r = 0; r < rows; r++) {
      const b = Math.floor(r / o.seqLen);
      const t = r % o.seqLen;
      for (let h = 0; h < heads; h++) {
        const vector = o.order === 'heads' ? (b * heads + h) * o.seqLen + t : r * heads + h;
        const start = vector * o.headDim;
        for (let k = 0; k < half; k++) {
          const p = positions[o.mrope ? mropeAxis(o.mrope, k) : 0][r];
          const angle = p * schedule.invFreq[k];
          let scale = schedule.attentionFactor;
          if (xp) {
            const zeta = ((2 * k) / rd + xp.gamma) / (1 + xp.gamma);
            const power = ((p - center) / xp.scaleBase) * (role === 'key' ? -1 : 1) * sign;
            scale *= zeta ** power;
          }
          const c = Math.cos(angle) * scale;
          const s = sign * Math.sin(angle) * scale;
          const [ia, ib] = o.layout === 'half' ? [start + k, start + k + half] : [start + 2 * k, start + 2 * k + 1];
          const a = x[ia];
          const bb = x[ib];
          out[ia] = a * c - bb * s;
          out[ib] = bb * c + a * s;
        }
      }
    }
    return { out, rotaryDim: rd, attentionFactor: schedule.attentionFactor };
  }
  return {
    rowPositions,
    ropeReference,
    adapter: { architecture: adapter.info.architecture, vendor: adapter.info.vendor, features },
    device,
    posenc,
    gpu,
    webgpu,
    upload,
    download,
    random,
    pairError,
  };
}

start().then(
  (kit) => {
    window.__kit = kit;
  },
  (error) => {
    window.__kit = { error: `${error.name}: ${error.message}` };
  },
);
