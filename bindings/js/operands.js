// A call's operands: the slots of one operation (bindings/wasm/operands.h) filled in JS, and the
// arrays it names. Memory.run copies it into WASM memory, crosses once and reads the results
// back. Each instance keeps one Operands per operation and refills it per call, and its slots are
// looked up by name in a Map, so nothing inherited (Object.prototype pollution) can reach a slot.

/** How an array slot's data moves: read by the call, written by it, or both. */
export const READ = 1;
export const WRITE = 2;
export const READ_WRITE = READ | WRITE;

/** An array slot: a classified argument (memory.js), a private list, or an output to allocate. */
// Fields are declared (defined as own properties before the constructor runs), so assigning them
// can never reach an inherited setter (Object.prototype pollution); likewise Operands, Argument, Posenc.
class Entry {
  at;
  lengthAt;
  argument; // Argument, or null
  list; // private Int32Array/Float64Array, or null
  allocate; // Float32Array/Float64Array for outputs the call allocates, or null
  mode;
  offset = -1; // where a list or JS-owned array goes in the scratch block (memory.js)
  result = null; // the allocated output, once read back

  constructor(at, lengthAt, argument, list, allocate, mode) {
    this.at = at;
    this.lengthAt = lengthAt;
    this.argument = argument;
    this.list = list;
    this.allocate = allocate;
    this.mode = mode;
  }
}

export class Operands {
  operation;
  call; // the module's function for this operation: (operands address) => status
  index; // slot name -> index, a Map: nothing inherited
  lengthIndex; // array slot name -> the index of its length slot
  values;
  results;
  entries = [];
  // parameter -> the option its value came from when the caller did not give it (rotaryDim from
  // headDim, or from partialRotaryFactor): an error about it names that option (errors.js)
  sources = new Map();

  constructor(operation, slots, call) {
    this.operation = operation;
    this.call = call;
    this.index = new Map(slots.map((slot, i) => [slot, i]));
    // array slot -> its length slot, looked up once here (a name built per call would be hashed per call)
    this.lengthIndex = new Map(
      slots.filter((slot) => this.index.has(`${slot}Length`)).map((slot) => [slot, this.index.get(`${slot}Length`)]),
    );
    this.values = new Float64Array(slots.length);
    this.results = new Float64Array(slots.length);
  }

  /** Empties the operands for a new call. */
  begin() {
    this.values.fill(0);
    if (this.entries.length > 0) this.entries = [];
    if (this.sources.size > 0) this.sources.clear();
    return this;
  }

  /** Notes that `parameter`, not given, takes its value from option `source` (for errors). */
  source(parameter, source) {
    this.sources.set(parameter, source);
    return this;
  }

  /** A number, enum value or 0/1 flag. */
  set(slot, value) {
    this.values[this.#at(slot)] = value;
    return this;
  }

  /** A Float32Array/WasmArray argument (memory.js Argument), moved as `mode` says. */
  data(slot, argument, mode) {
    this.entries.push(new Entry(this.#at(slot), this.#lengthAt(slot), argument, null, null, mode));
    return this;
  }

  /** A private list (positions, offsets, factor lists), read by the call. */
  list(slot, list) {
    this.entries.push(new Entry(this.#at(slot), this.#lengthAt(slot), null, list, null, READ));
    return this;
  }

  /** An output the call allocates (its length slot -1), read back as a new `Type` array. */
  allocate(slot, Type) {
    this.entries.push(new Entry(this.#at(slot), this.#lengthAt(slot), null, null, Type, WRITE));
    return this;
  }

  /** A slot's value after the call. */
  result(slot) {
    return this.results[this.#at(slot)];
  }

  /** The array an allocated output was read back into. */
  output(slot) {
    const at = this.#at(slot);
    return this.entries.find((entry) => entry.at === at).result;
  }

  /** How many slots `slot` comes after `first` (the bit of a value in a group's given-mask). */
  distance(first, slot) {
    return this.#at(slot) - this.#at(first);
  }

  #lengthAt(slot) {
    const at = this.lengthIndex.get(slot);
    if (at === undefined)
      throw new TypeError(`posenc: internal error: ${this.operation} has no operand slot ${slot}Length`);
    return at;
  }

  #at(slot) {
    const at = this.index.get(slot);
    if (at === undefined) throw new TypeError(`posenc: internal error: ${this.operation} has no operand slot ${slot}`);
    return at;
  }
}
