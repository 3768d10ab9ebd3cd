// Tables the kernels read instead of computing sin/cos in WGSL: rows computed by posenc's WASM
// core (float64, rounded once to float32), uploaded once and kept per schedule on the device.
// A table covers positions [first, first + rows) of one schedule; row 0 of its buffer is a NaN
// sentinel that positions outside it read, so a wrong bound shows as NaN, never as a silently
// wrong angle. Tables grow geometrically, appending rows with queue.writeBuffer (rows already
// there never change, so work recorded earlier reads what it was recorded with).
import { rangeError } from '../js/errors.js';

const FIRST_ROWS = 256;
const KEPT = 8; // tables per encoder, least recently used dropped (a moving xPos center makes a new one per call)

export class GrowingTable {
  #device;
  #rowFloats;
  #compute; // (first, count) => Float32Array of count rows
  #cap; // the most rows it may hold (a schedule that changes past a length ends there)
  buffer;
  first;
  rows = 0;
  #capacity = 0;

  /** Rows of positions first … end − 1 at most, `rowFloats` floats each, made by `compute(first, count)`. */
  constructor(device, { rowFloats, compute, first = 0, end = Number.POSITIVE_INFINITY }) {
    this.#device = device;
    this.#rowFloats = rowFloats;
    this.#compute = compute;
    this.first = first;
    this.#cap = end - first;
  }

  /** The table holding every position up to `last`; `fn` and `name` name the option at fault when it cannot. */
  cover(fn, name, last) {
    const needed = last - this.first + 1;
    if (needed <= this.rows) return this;
    const target = Math.min(this.#cap, Math.max(needed, 2 * this.rows, FIRST_ROWS));
    if (target > this.#capacity) this.#reallocate(fn, name, needed, target);
    const count = Math.min(target, this.#capacity) - this.rows;
    const values = this.#compute(this.first + this.rows, count);
    this.#device.queue.writeBuffer(this.buffer, (1 + this.rows) * this.#rowFloats * 4, values);
    this.rows += count;
    return this;
  }

  /** A new buffer of `target` rows (fewer if the device's binding limit says so), the rows there so far copied. */
  #reallocate(fn, name, needed, target) {
    const rowBytes = this.#rowFloats * 4;
    const limit = Math.min(this.#device.limits.maxStorageBufferBindingSize, this.#device.limits.maxBufferSize);
    const fits = Math.floor(limit / rowBytes) - 1;
    if (needed > fits) {
      throw rangeError(
        fn,
        name,
        `needs a table of ${needed} rows of ${rowBytes} bytes, beyond this device's maxStorageBufferBindingSize (${limit} bytes)`,
      );
    }
    const capacity = Math.min(target, fits);
    const buffer = this.#device.createBuffer({
      label: 'posenc table',
      size: (capacity + 1) * rowBytes,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
    });
    const sentinel = new Float32Array(this.#rowFloats).fill(Number.NaN);
    this.#device.queue.writeBuffer(buffer, 0, sentinel);
    if (this.rows > 0) {
      // the rows there so far, recomputed (the CPU is cheaper than a copy pass plus its ordering)
      this.#device.queue.writeBuffer(buffer, rowBytes, this.#compute(this.first, this.rows));
    }
    // the old buffer is not destroyed: work recorded but not yet submitted may still read it
    this.buffer = buffer;
    this.#capacity = capacity;
  }
}

/** Tables by key (a string of the options that decide their rows), the least recently used dropped. */
export class TableCache {
  #tables = new Map();

  get(key, make) {
    const table = this.#tables.get(key);
    return table ? this.set(key, table) : this.set(key, make());
  }

  /** Keeps `table` under `key` (in place of another), as the most recently used. */
  set(key, table) {
    this.#tables.delete(key);
    if (this.#tables.size >= KEPT) this.#tables.delete(this.#tables.keys().next().value);
    this.#tables.set(key, table);
    return table;
  }
}
