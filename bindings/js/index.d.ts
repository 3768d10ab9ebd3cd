// Type declarations for posenc (hand-written; they mirror bindings/js/*.js).

/** Row-major float32 data: a JS array, or an array kept in WASM memory. */
export type FloatArray = Float32Array | WasmArray;

/** Explicit integer positions, one per row, each in [0, 2^31 - 1]. */
export type PositionList = Int32Array | Uint32Array | readonly number[];

export interface LoadOptions {
  /** Load the SIMD build (default: whether this engine supports WebAssembly SIMD). */
  simd?: boolean;
  /** The bytes of the matching .wasm (posenc-simd.wasm or posenc-scalar.wasm), e.g. for offline pages. */
  wasmBinary?: ArrayBuffer | ArrayBufferView;
  /** Where to fetch the .wasm from; gets the file name, returns a URL (relative to the page). */
  locateWasm?: (file: 'posenc-simd.wasm' | 'posenc-scalar.wasm') => string | URL;
}

export interface Limits {
  /** Largest seqLen (and similarity rows/cols). */
  readonly maxSeqLen: number;
  /** Largest dModel, headDim, rotaryDim, numHeads, dim. */
  readonly maxDim: number;
  /** Largest number of elements of any one array. */
  readonly maxElements: number;
  /** Largest position. */
  readonly maxPosition: number;
}

/** Where the rows sit: `offset, offset + 1, ...` or an explicit list (never both). */
export interface PositionOptions {
  /** First position (default 0). */
  offset?: number;
  /** One position per row; replaces offset. */
  positions?: PositionList;
}

export interface SinusoidalOptions extends PositionOptions {
  seqLen: number;
  /** Even: the table is made of sin/cos pairs. */
  dModel: number;
  /** Default 10000. */
  base?: number;
  /** 'interleaved' (default): sin at channel 2i, cos at 2i+1. 'concat': all sines, then all cosines. */
  layout?: 'interleaved' | 'concat';
}

export interface PositionNumbersOptions {
  seqLen: number;
  dModel: number;
  offset?: number;
  out?: FloatArray;
}

export interface RopeFrequencyOptions {
  /** Even; rotaryDim/2 frequencies are returned. */
  rotaryDim: number;
  /** Default 10000. */
  base?: number;
}

export interface RopeCacheOptions<T extends FloatArray = FloatArray> extends PositionOptions {
  seqLen: number;
  rotaryDim: number;
  base?: number;
  /** Write into these arrays (each [seqLen, rotaryDim/2]) instead of new ones. */
  out?: { cos: T; sin: T };
}

export interface RopeOptions extends PositionOptions {
  seqLen: number;
  /** Default 1. */
  numHeads?: number;
  headDim: number;
  /** 'interleaved' (default): pairs (x[2i], x[2i+1]). 'half': pairs (x[i], x[i + rotaryDim/2]). */
  layout?: 'interleaved' | 'half';
  /** Even, <= headDim (default headDim); channels from rotaryDim on pass through. */
  rotaryDim?: number;
  base?: number;
  /** Write here instead of rotating x in place; must not partly overlap x. */
  out?: FloatArray;
}

export interface SimilarityOptions {
  rows: number;
  cols: number;
  dim: number;
  /** 'dot' (default) or 'cosine' (0 where a row is all zeros). */
  metric?: 'dot' | 'cosine';
  out?: FloatArray;
}

/** A float32 array in WASM memory; repeated calls on it copy nothing. */
export class WasmArray {
  private constructor();
  /** The posenc instance whose memory holds the array. */
  readonly instance: Posenc;
  readonly length: number;
  /** Byte address in WASM memory. */
  readonly address: number;
  readonly freed: boolean;
  /** A view over the current WASM memory, valid only until the next posenc call (memory growth detaches it). */
  view(): Float32Array;
  /** Copies values in, starting at element offset. */
  set(values: ArrayLike<number>, offset?: number): this;
  /** A copy that survives memory growth and free(). */
  toArray(): Float32Array;
  /** Returns the memory; using the array afterwards throws a RangeError. */
  free(): void;
}

/** An instantiated posenc module. Errors are TypeError/RangeError with `parameter` and `function` set. */
export class Posenc {
  private constructor();
  readonly variant: 'simd' | 'scalar';
  readonly simd: boolean;
  readonly limits: Limits;
  /** Current size of the WASM memory in bytes. */
  readonly memoryBytes: number;

  /** A zero-filled array of `length` floats, or a copy of `values`, in WASM memory. */
  allocate(lengthOrValues: number | Float32Array | readonly number[]): WasmArray;

  /** The [seqLen, dModel] sinusoidal table. */
  sinusoidal<T extends FloatArray = Float32Array>(options: SinusoidalOptions & { out?: T }): T;
  /** Adds the sinusoidal table to token embeddings x ([seqLen, dModel]) in place; returns x. */
  addSinusoidal<T extends FloatArray>(x: T, options: SinusoidalOptions): T;
  /** The naive encoding: row p filled with offset + p. */
  positionNumbers<T extends FloatArray = Float32Array>(options: PositionNumbersOptions & { out?: T }): T;
  /** The rotaryDim/2 inverse frequencies 1 / base^(2i / rotaryDim), float64. */
  ropeFrequencies(options: RopeFrequencyOptions): Float64Array;
  /** cos and sin, each [seqLen, rotaryDim/2] (ONNX RotaryEmbedding's cache layout). */
  ropeCache(options: RopeCacheOptions & { out?: undefined }): { cos: Float32Array; sin: Float32Array };
  ropeCache<T extends FloatArray>(options: RopeCacheOptions<T> & { out: { cos: T; sin: T } }): { cos: T; sin: T };
  /** Rotates x ([seqLen, numHeads, headDim]) in place, or into options.out; returns the result. */
  rope<T extends FloatArray>(x: T, options: RopeOptions & { out?: undefined }): T;
  rope<O extends FloatArray>(x: FloatArray, options: RopeOptions & { out: O }): O;
  rope(x: FloatArray, options: RopeOptions): FloatArray;
  /** The [rows, cols] matrix of dot products (or cosines) between rows of a ([rows, dim]) and b ([cols, dim]). */
  similarity<T extends FloatArray = Float32Array>(a: FloatArray, b: FloatArray, options: SimilarityOptions & { out?: T }): T;
}

/** Loads and instantiates posenc (SIMD build where supported). */
export function loadPosenc(options?: LoadOptions): Promise<Posenc>;

/** Whether this engine validates WebAssembly SIMD128. */
export function simdSupported(): boolean;
