// What the numbers were measured on: CPU (from /proc/cpuinfo), cores, memory, load, Node.
import { readFileSync } from 'node:fs';
import os from 'node:os';

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

export function machineInfo() {
  const { model, simd } = cpuModel();
  return {
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
