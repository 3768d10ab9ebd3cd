// How many bytes of scratch one tile of a call on JS-owned arrays takes (tiles.js). A tile is
// copied in, computed and copied out while it stays in the core's own cache: its JS source, its
// scratch copy and the output together must fit in L2 beside the kernel's tables. With the
// caches' sizes known (Node reads them from Linux's sysfs, cache-sizes-node.js) a tile is a
// quarter of L2; a browser has no way to ask, so a tile fits the smallest L2 of current desktop
// and phone cores (256 KiB) the same way.
const SMALLEST_L2 = 256 * 1024;
const MIN_TILE = 32 * 1024;
const MAX_TILE = 1024 * 1024;

/** The tile size for caches `{ l2, l3 }` (bytes per core; undefined where unknown). */
export function tileBytesFor({ l2 } = {}) {
  const cache = Number.isFinite(l2) && l2 > 0 ? l2 : SMALLEST_L2;
  return Math.min(MAX_TILE, Math.max(MIN_TILE, Math.floor(cache / 4)));
}
