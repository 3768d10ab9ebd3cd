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
const byteLengthOf = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;
const typedArraySet = TypedArrayPrototype.set;
const { isArray } = Array;
const { apply } = Reflect;

/** The typed-array kind of a value ('Float32Array', 'Int32Array', ...), or undefined. */
export function typedArrayKind(value) {
  return apply(tagOf, value, []);
}

/** Elements, buffer and byte offset of a typed array (typedArrayKind(value) must be defined). */
export function typedArrayParts(value) {
  return { length: apply(lengthOf, value, []), buffer: apply(bufferOf, value, []), byteOffset: apply(byteOffsetOf, value, []) };
}

/**
 * Whether an ArrayBuffer is empty, as a detached one (transferred away) reads. Node 20 has no
 * `detached` getter yet; callers ask only about arrays that should hold elements.
 */
export function isEmptyBuffer(buffer) {
  try {
    return apply(byteLengthOf, buffer, []) === 0;
  } catch {
    return false; // a SharedArrayBuffer: never detached
  }
}

/** target.set(source, offset) by the built-in method, whatever the arrays' prototypes say. */
export function copyInto(target, source, offset = 0) {
  apply(typedArraySet, target, [source, offset]);
}

export { isArray };
