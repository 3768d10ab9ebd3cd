// Typed arrays as the engine knows them, read through the built-in %TypedArray% getters captured
// when this module loads. A subclass, an overridden Float32Array.prototype.length, a Proxy or
// Object.prototype pollution cannot change what these report, and calling them runs no user
// code: what posenc measures is what it will read and write.
const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const getter = (key) => Object.getOwnPropertyDescriptor(TypedArrayPrototype, key).get;
const tagOf = getter(Symbol.toStringTag);
const lengthOf = getter('length');
const bufferOf = getter('buffer');
const byteOffsetOf = getter('byteOffset');
const typedArraySet = TypedArrayPrototype.set;
const { isArray } = Array;
/**
 * The engine's Float16Array (Chromium 135+, Firefox 129+), captured at load; undefined where
 * there is none (Node 20). What an array is, is still read through the tag getter above.
 */
const Float16ArrayType = typeof globalThis.Float16Array === 'function' ? globalThis.Float16Array : undefined;
const { apply } = Reflect;
// SharedArrayBuffer's own byteLength getter accepts only SharedArrayBuffers (a brand check that
// runs no user code). Pages that are not cross-origin isolated have no SharedArrayBuffer at all.
const sharedByteLengthOf =
  typeof globalThis.SharedArrayBuffer === 'function'
    ? Object.getOwnPropertyDescriptor(globalThis.SharedArrayBuffer.prototype, 'byteLength').get
    : undefined;

/** The typed-array kind of a value ('Float32Array', 'Int32Array', ...), or undefined. */
export function typedArrayKind(value) {
  return apply(tagOf, value, []);
}

/** Elements, buffer and byte offset of a typed array (typedArrayKind(value) must be defined). */
export function typedArrayParts(value) {
  return {
    length: apply(lengthOf, value, []),
    buffer: apply(bufferOf, value, []),
    byteOffset: apply(byteOffsetOf, value, []),
  };
}

/**
 * Whether a typed array's buffer was detached (transferred away, or WASM memory that grew).
 * Node 20 has no `detached` getter yet, and a detached buffer reads as empty like a new one of
 * 0 bytes; only constructing a view over it tells them apart (and runs no user code).
 */
export function isDetached(typedArray) {
  const { length, buffer } = typedArrayParts(typedArray);
  if (length > 0) return false;
  try {
    new Uint8Array(buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
}

// What the brand check said of each buffer: a buffer never changes kind, and the check throws
// for every other buffer (about 5 µs in V8, several times a call of two arrays).
const sharedKind = new WeakMap();
const { get: weakGet, set: weakSet } = WeakMap.prototype;

/** Whether a buffer is a SharedArrayBuffer (its memory may have other handles: shared-memory.js). */
export function isSharedArrayBuffer(buffer) {
  if (sharedByteLengthOf === undefined || buffer === null || typeof buffer !== 'object') return false;
  let shared = apply(weakGet, sharedKind, [buffer]);
  if (shared === undefined) {
    try {
      apply(sharedByteLengthOf, buffer, []);
      shared = true;
    } catch {
      shared = false;
    }
    apply(weakSet, sharedKind, [buffer, shared]);
  }
  return shared;
}

/** target.set(source, offset) by the built-in method, whatever the arrays' prototypes say. */
export function copyInto(target, source, offset = 0) {
  apply(typedArraySet, target, [source, offset]);
}

export { Float16ArrayType, isArray };
