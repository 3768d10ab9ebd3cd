// The surface of posenc-simd.mjs and posenc-scalar.mjs (bindings.cpp), as the JS layer
// (bindings/js) uses it. One exported function per operation, _posenc_<operation> (a plain
// WebAssembly export, not Embind: its call costs far less): it takes the address of the operation's
// operands in WASM memory (bindings/wasm/operands.h) and returns a status code (0 = ok). The operands'
// slots, the status codes and the enums are read once from describe(). An array slot holds an
// address and a length in elements: float32, or 16-bit patterns where the operands' dtype slot
// (a plan's: its own) is float16 or bfloat16.

/** The name of each operation: one operands layout and one function each. */
export type Operation =
  | 'sinusoidal'
  | 'addSinusoidal'
  | 'positionNumbers'
  | 'ropeSchedule'
  | 'ropeCache'
  | 'rope'
  | 'ropeQK'
  | 'ropePlanCreate'
  | 'ropePlanApply'
  | 'ropePlanApplyQK'
  | 'convertLayout'
  | 'similarity'
  | 'mropePositions'
  | 'alibiSlopes'
  | 'alibiBias'
  | 'relativePositionBuckets'
  | 'ropeGrid'
  | 'attentionScores';

export type PosencModule = {
  /**
   * Lines of words: `status <name> <parameter>` (one per status code, in code order),
   * `operands <operation> <slot>...` (slot i is float64 i of the operands), `enum <name> <value>...`
   * (names in the order of their values), `lengthDependent scalingType <value>...` (the scaling
   * types whose schedule goes by the call's length), `default <slot> <number>` (the core's
   * default of an option the specs share).
   */
  describe(): string;
  /** Releases a plan made by ropePlanCreate (the address its operands' `plan` slot received). */
  ropePlanFree(plan: number): void;

  readonly maxSeqLen: number;
  readonly maxDim: number;
  readonly maxElements: number;
  readonly maxPosition: number;
  /** Whether this is the SIMD128 build. */
  readonly simdBuild: boolean;

  /** WASM memory; replaced (and the previous one detached) whenever memory grows. */
  readonly HEAPU8: Uint8Array;
  _malloc(bytes: number): number;
  _free(address: number): void;
} & { [operation in Operation as `_posenc_${operation}`]: (operands: number) => number };

/** The factory Emscripten generates (-sMODULARIZE -sEXPORT_ES6); the JS layer hands it the .wasm bytes. */
export default function createPosencModule(options: {
  wasmBinary: ArrayBuffer | ArrayBufferView;
  printErr?: (text: string) => void;
}): Promise<PosencModule>;
