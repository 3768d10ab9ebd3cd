// The caller's GPU buffers, checked before anything is recorded: a GPUBuffer or a binding
// `{ buffer, offset? }`, its usage flags, its size against the shape, its byte offset's alignment,
// its map state; then the range a kernel binds (aligned down to the device's storage-offset
// alignment, the rest an element offset the kernel adds) and the overlap rules between ranges.
import { describe, rangeError, typeError } from '../js/errors.js';

// GPUBufferUsage's bits (the globals exist only in browsers; SSR imports this file in Node).
export const USAGE = Object.freeze({ COPY_SRC: 0x4, COPY_DST: 0x8, UNIFORM: 0x40, STORAGE: 0x80 });
const USAGE_NAMES = Object.entries(USAGE);

/** Whether a value is a GPUBuffer of this realm (the class exists only where WebGPU does). */
export function isGpuBuffer(value) {
  return typeof GPUBuffer === 'function' && value instanceof GPUBuffer;
}

/**
 * A buffer argument, read once: `{ name, buffer, offset, size, usage }` (offset in bytes). A
 * GPUBuffer stands for offset 0; `{ buffer, offset }` names a place inside one.
 */
export function readBuffer(fn, name, value) {
  let buffer = value;
  let offset = 0;
  if (!isGpuBuffer(value)) {
    if (value === null || typeof value !== 'object')
      throw typeError(fn, name, `must be a GPUBuffer or { buffer, offset } (got ${describe(value)})`);
    let given;
    try {
      given = { buffer: value.buffer, offset: value.offset };
    } catch (error) {
      throw typeError(fn, name, `could not be read (${error?.message ?? error})`, { cause: error });
    }
    buffer = given.buffer;
    if (!isGpuBuffer(buffer)) throw typeError(fn, `${name}.buffer`, `must be a GPUBuffer (got ${describe(buffer)})`);
    if (given.offset !== undefined) offset = given.offset;
    if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0)
      throw rangeError(fn, `${name}.offset`, `must be a non-negative integer byte offset (got ${describe(offset)})`);
  }
  const read = { name, buffer, offset, size: buffer.size, usage: buffer.usage, mapState: buffer.mapState };
  if (read.mapState !== 'unmapped')
    throw rangeError(fn, name, `is ${read.mapState === 'mapped' ? 'mapped' : 'being mapped'}: unmap it first`);
  return read;
}

/** The rules for one buffer: its usage includes `needs` (names of USAGE), `bytes` fit from its offset, 4-byte aligned. */
export function checkBuffer(fn, argument, { bytes, needs }) {
  const { name, offset, size, usage } = argument;
  for (const flag of needs) {
    if ((usage & USAGE[flag]) === 0) {
      const has = USAGE_NAMES.filter(([, bit]) => usage & bit).map(([n]) => n);
      throw typeError(
        fn,
        name,
        `needs GPUBufferUsage.${flag} (its usage is ${has.length ? has.join(' | ') : usage}: create it with ${needs.map((n) => `GPUBufferUsage.${n}`).join(' | ')})`,
      );
    }
  }
  // only a { buffer, offset } binding has an offset of its own (a GPUBuffer's is 0)
  if (offset % 4 !== 0) throw rangeError(fn, `${name}.offset`, `must be a multiple of 4 bytes (got ${offset})`);
  if (offset + bytes > size) {
    const at = offset === 0 ? '' : ` from byte offset ${offset}`;
    throw rangeError(fn, name, `must hold ${bytes} bytes${at} for the given shape (the buffer has ${size} bytes)`);
  }
  return { ...argument, bytes };
}

/**
 * The binding of a checked range: from its offset aligned down to the device's
 * minStorageBufferOffsetAlignment, so any 4-byte offset binds; `base` is the element offset the
 * kernel adds. `limits` are the device's (GPUSupportedLimits, or a copy of the two read here).
 */
export function bindingOf(fn, limits, range, elementBytes = 4) {
  const alignment = limits.minStorageBufferOffsetAlignment;
  const start = range.offset - (range.offset % alignment);
  const size = Math.max(range.offset + range.bytes - start, 4);
  if (size > limits.maxStorageBufferBindingSize) {
    throw rangeError(
      fn,
      range.name,
      `needs a binding of ${size} bytes, above this device's maxStorageBufferBindingSize (${limits.maxStorageBufferBindingSize})`,
    );
  }
  return { resource: { buffer: range.buffer, offset: start, size }, base: (range.offset - start) / elementBytes };
}

/** One binding spanning two ranges of the same buffer, and each range's element base in it. */
export function sharedBinding(fn, limits, a, b) {
  const low = Math.min(a.offset, b.offset);
  const high = Math.max(a.offset + a.bytes, b.offset + b.bytes);
  const whole = bindingOf(fn, limits, { name: a.name, buffer: a.buffer, offset: low, bytes: high - low });
  const start = whole.resource.offset;
  return { resource: whole.resource, bases: [(a.offset - start) / 4, (b.offset - start) / 4] };
}

const overlaps = (a, b) => a.buffer === b.buffer && a.offset < b.offset + b.bytes && b.offset < a.offset + a.bytes;

/** `out` is its input exactly (in place) or shares none of its bytes. Returns whether it is in place. */
export function inPlace(fn, input, out) {
  if (out === undefined) return true;
  if (out.buffer === input.buffer && out.offset === input.offset) return true;
  if (overlaps(input, out))
    throw rangeError(
      fn,
      out.name,
      `overlaps ${input.name} without being it: give the same place (in place) or a separate range`,
    );
  return false;
}

/** None of `ranges` shares a byte with another (ropeQK's q, k and their outputs). */
export function assertDisjoint(fn, ranges) {
  for (let i = 0; i < ranges.length; i++) {
    for (let j = i + 1; j < ranges.length; j++) {
      if (overlaps(ranges[i], ranges[j]))
        throw rangeError(fn, ranges[j].name, `must not share memory with ${ranges[i].name}`);
    }
  }
}
