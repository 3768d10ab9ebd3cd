// What ends a WasmArray's or RopePlan's hold on WASM memory besides free(): `using` (its
// Symbol.dispose method is free()) and, as a safety net, garbage collection. The memory of an
// object dropped without free() is unreachable for the program but not for WASM's allocator, so
// a FinalizationRegistry frees it once the collector reclaims the object, and warns once per
// kind, naming where such an object was made: a leak reclaimed late is still a leak (collection
// may come much later, or never, and WASM memory never shrinks).
//
// Where an object was made is a stack capture, which costs about as much as an allocate()
// itself; so none is taken until a first object of a kind is collected unfreed. From then on
// (a program that drops one usually drops more) each new object of that kind records where it
// was made, until the warning has named a site; then recording stops again.

/** Symbol.dispose where the engine (or a polyfill loaded before posenc) defines it. */
const DISPOSE = typeof Symbol.dispose === 'symbol' ? Symbol.dispose : undefined;

/** Gives the class a `[Symbol.dispose]()` that calls its free(), for `using`. */
export function disposable(Class) {
  if (DISPOSE === undefined) return;
  Object.defineProperty(Class.prototype, DISPOSE, {
    value: function dispose() {
      this.free();
    },
    writable: true,
    configurable: true,
  });
}

const captureStackTrace = Error.captureStackTrace; // V8's, JavaScriptCore's; read at load

/**
 * Where the caller of `madeBy` is, as the first frame of a stack cut at it. Formatted at once: an
 * unformatted capture keeps each frame's receiver alive, which may hold the very object watched.
 * Taken when the object is complete (a stack hook, Error.prepareStackTrace, is the caller's code).
 */
function creationSite(madeBy) {
  try {
    const capture = {};
    if (captureStackTrace) captureStackTrace(capture, madeBy);
    else capture.stack = new Error().stack;
    const frame = String(capture.stack)
      .split('\n')
      .find((line) => line.trim() !== '' && line !== 'Error');
    if (frame !== undefined) return frame.trim().replace(/^at /, '');
  } catch {
    // a stack hook that throws: no site
  }
  return 'an unknown place';
}

/**
 * Frees what objects of one kind (`kind`, as the warning names it) hold when they are collected
 * without free(). `release(resource)` frees a resource unless free() did, and says whether it
 * did; the resource must not reference the object it belongs to (it would never be collected).
 * free() does not unregister: an unregister token costs more than the register itself, and a
 * freed resource is simply not freed again.
 */
export class Reclaimer {
  #kind;
  #release;
  #registry;
  #recording = false;
  #warned = false;

  constructor(kind, release) {
    this.#kind = kind;
    this.#release = release;
    // (An engine without FinalizationRegistry frees only by free().)
    if (typeof FinalizationRegistry === 'function')
      this.#registry = new FinalizationRegistry((held) => this.#collected(held));
  }

  /** Watches `target`, which holds `resource`; `madeBy` is the public function that made it. */
  watch(target, resource, madeBy) {
    const site = this.#recording ? creationSite(madeBy) : undefined;
    this.#registry?.register(target, { resource, site });
  }

  #collected({ resource, site }) {
    if (!this.#release(resource) || this.#warned) return;
    if (site === undefined) {
      this.#recording = true;
      return;
    }
    this.#warned = true;
    this.#recording = false;
    console.warn(
      `posenc: a ${this.#kind} made at ${site} was garbage-collected without free(); posenc freed it. ` +
        `Call free() (or declare it with \`using\`) once it is no longer needed: collection may come late or never, ` +
        `and WASM memory never shrinks. (This warning is given once.)`,
    );
  }
}
