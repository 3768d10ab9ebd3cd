// The CPU's data caches as Linux reports them (/sys/devices/system/cpu/cpu0/cache/index*/{level,
// type,size}): { l2, l3 } in bytes, undefined where the files are missing (not Linux, a sandbox).
import { readdirSync, readFileSync } from 'node:fs';

const CACHE = '/sys/devices/system/cpu/cpu0/cache';

/** "1024K", "32M" as bytes. */
function sizeBytes(text) {
  const match = /^(\d+)\s*([KMG]?)/i.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[match[2].toUpperCase()];
}

export function cacheSizes() {
  const sizes = { l2: undefined, l3: undefined };
  try {
    for (const entry of readdirSync(CACHE)) {
      if (!entry.startsWith('index')) continue;
      const read = (file) => readFileSync(`${CACHE}/${entry}/${file}`, 'utf8').trim();
      if (read('type') === 'Instruction') continue;
      const level = Number(read('level'));
      if (level === 2) sizes.l2 = sizeBytes(read('size'));
      if (level === 3) sizes.l3 = sizeBytes(read('size'));
    }
  } catch {
    // no sysfs: the sizes stay unknown
  }
  return sizes;
}
