// How many bytes of scratch one tile of a call on JS-owned arrays takes (tiles.js). A tile is
// copied in, computed and copied out while it stays in the core's own cache, beside the
// kernel's tables and the copies' streams: a quarter of L2. Each tile also costs a crossing
// (about 3 µs), so tiles much smaller than that cost more than they save. Node reads L2 from
// Linux's sysfs (cache-sizes-node.js); a browser cannot ask, and takes 128 KiB, which leaves
// half of a 256 KiB L2 (the smallest of current desktop and phone cores) to the rest.
// Measured on an AMD EPYC (1 MiB L2, 32 MiB L3) for rope on a JS Float32Array [2048, 32, 128]
// into out, SIMD build, time over a copy of x: 32 KiB tiles 3.0×, 64 KiB 2.4–2.7×, 128 KiB
// 2.3–2.6×, 256 KiB 2.2×, 512 KiB–4 MiB 2.0–2.5× (Node and Chromium alike; bench/README.md).
const BROWSER_TILE = 128 * 1024;
const MIN_TILE = 64 * 1024;
const MAX_TILE = 1024 * 1024;

/** The tile size for caches `{ l2, l3 }` (bytes per core; undefined where unknown). */
export function tileBytesFor({ l2 } = {}) {
  if (!(Number.isFinite(l2) && l2 > 0)) return BROWSER_TILE;
  return Math.min(MAX_TILE, Math.max(MIN_TILE, Math.floor(l2 / 4)));
}
