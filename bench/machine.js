// What the numbers were measured on: CPU (from /proc/cpuinfo), its L2 and L3 (sysfs), the copy
// bandwidth, cores, memory, load, Node.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { cacheSizes } from '../bindings/js/cache-sizes-node.js';
import { tileBytesFor } from '../bindings/js/tile-size.js';

function cpuModel() {
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8');
    const model = info.match(/^model name\s*:\s*(.+)$/m)?.[1]?.trim();
    const flags = info.match(/^flags\s*:\s*(.+)$/m)?.[1]?.split(/\s+/) ?? [];
    const simd = ['sse4_2', 'avx', 'avx2', 'fma', 'avx512f'].filter((flag) => flags.includes(flag));
    return { model: model ?? os.cpus()[0]?.model ?? 'unknown', simd };
  } catch {
    return { model: os.cpus()[0]?.model ?? 'unknown', simd: [] };
  }
}

/** GB/s of Float32Array.prototype.set over 64 MiB (twice any L3 here): the best of 5 copies. */
function copyBandwidth() {
  const bytes = 64 * 2 ** 20;
  const source = new Float32Array(bytes / 4).fill(1);
  const target = new Float32Array(bytes / 4);
  let best = Infinity;
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    target.set(source);
    best = Math.min(best, performance.now() - started);
  }
  return Number((bytes / (best / 1000) / 1e9).toFixed(1));
}

export function machineInfo() {
  const { model, simd } = cpuModel();
  const caches = cacheSizes();
  return {
    caches,
    copyGBps: copyBandwidth(),
    tileBytes: tileBytesFor(caches),
    cpu: model,
    cpuFlags: simd,
    cores: os.cpus().length,
    memoryGiB: Number((os.totalmem() / 2 ** 30).toFixed(1)),
    loadAverage: os.loadavg().map((value) => Number(value.toFixed(2))),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    v8: process.versions.v8,
  };
}
