// Whether this engine validates a WebAssembly module that uses SIMD128: the smallest such
// module, one function returning `v128.const 0`.
const SIMD_PROBE = new Uint8Array([
  0x00,
  0x61,
  0x73,
  0x6d,
  0x01,
  0x00,
  0x00,
  0x00, // magic, version
  0x01,
  0x05,
  0x01,
  0x60,
  0x00,
  0x01,
  0x7b, // type section: () -> v128
  0x03,
  0x02,
  0x01,
  0x00, // function section: one function of type 0
  0x0a,
  0x16,
  0x01,
  0x14,
  0x00,
  0xfd,
  0x0c, // code section: v128.const ...
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0x0b, // end
]);

let cached;

export function simdSupported() {
  if (cached === undefined) {
    try {
      cached = typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
    } catch {
      cached = false;
    }
  }
  return cached;
}
