// Type declarations for posenc (hand-written; they mirror bindings/js/*.js).
/// <reference lib="esnext.disposable" />

/** Row-major float32 data: a JS array, or an array kept in WASM memory. */
export type FloatArray = Float32Array | WasmArray<'float32'>;

/**
 * A tensor's element type: float32, or half precision in 16 bits, 'float16' (IEEE 754 binary16)
 * or 'bfloat16' (float32's upper half).
 */
export type Dtype = 'float32' | 'float16' | 'bfloat16';

/** Float16Array where TypeScript's lib declares it (lib esnext.float16 and later), else never. */
export type Float16ArrayIfDeclared = typeof globalThis extends { Float16Array: { prototype: infer A } } ? A : never;

/**
 * The JS array of a dtype's values, as calls return them: float16 is a Float16Array where the
 * engine has one (Chromium 135+), else a Uint16Array of the bits; bfloat16 a Uint16Array of the bits.
 */
export type DtypeArray<D extends Dtype> = D extends 'float32'
  ? Float32Array
  : D extends 'float16'
    ? Float16ArrayIfDeclared | Uint16Array
    : Uint16Array;

/** Half-precision data: a Float16Array, a Uint16Array of the bits (its dtype given), or a half WasmArray. */
export type HalfArray = Float16ArrayIfDeclared | Uint16Array | WasmArray<'float16'> | WasmArray<'bfloat16'>;

/** The arrays of the operations with a dtype (the tables, the cache, rope): float32 or half. */
export type TensorArray = FloatArray | HalfArray;

/**
 * Explicit integer positions, one per row, each in [0, 2^31 - 1]; the int64 arrays are what
 * ONNX Runtime's int64 tensors (position_ids) hold.
 */
export type PositionList = Int32Array | Uint32Array | BigInt64Array | BigUint64Array | readonly (number | bigint)[];

/** Which build to load and where its .wasm comes from. Give at most one of `module` and `wasmBinary`. */
export interface LoadOptions {
  /**
   * Load the SIMD build (default: whether this engine supports WebAssembly SIMD). With `module` or
   * `wasmBinary` the build is the one given; `simd`, if given too, must match it.
   */
  simd?: boolean;
  /** The bytes of posenc-simd.wasm or posenc-scalar.wasm, e.g. for offline pages. */
  wasmBinary?: ArrayBuffer | ArrayBufferView;
  /**
   * A compiled build, e.g. `posenc.module` of an instance posted to a worker: N workers compile
   * once. Not with wasmBinary.
   */
  module?: WebAssembly.Module;
  /**
   * Where to fetch the .wasm from: gets the file name, returns a URL (relative to the page or
   * worker script; in Node, relative to the working directory, read from disk, or fetched when it
   * is http(s)). No other place is tried and there is no inline fallback.
   */
  locateWasm?: (file: 'posenc-simd.wasm' | 'posenc-scalar.wasm') => string | URL;
  /**
   * Default entry in browsers: when the package's .wasm URL gives no WebAssembly (a dev server's
   * index.html, a 404, a bundle without assets), load the inline chunk instead (default true).
   * In Node: when neither the package's file nor the file a bundler emitted can be read.
   * false: fail with an error naming what was tried, and the fixes.
   */
  inlineFallback?: boolean;
}

/**
 * Where an instance's .wasm came from: a file or URL (`'url'`, which one is in
 * `Posenc.wasmFile`), the inline chunk, or the caller (`wasmBinary`, `module`).
 */
export type WasmSource = 'url' | 'inline' | 'wasmBinary' | 'module';

/** The file or URL an instance's .wasm was read from (`Posenc.wasmFile`, when `wasmSource` is `'url'`). */
export interface WasmFile {
  /**
   * - `'package'`: posenc's own `dist/` file, beside the code that loaded it (an installed package,
   *   or a bundle that kept the package's path, as webpack does when the package is still there);
   * - `'bundler'`: the copy a bundler emitted for the package's `new URL(…, import.meta.url)`
   *   (webpack's hashed asset beside the bundle; in Node, a site path such as Next.js's
   *   `/_next/static/media/….wasm` is read under the working directory, from `.next/`);
   * - `'locateWasm'`: where the caller's `locateWasm` pointed.
   */
  readonly from: 'package' | 'bundler' | 'locateWasm';
  /** The path read from disk (Node), or the URL fetched. */
  readonly location: string;
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
export type PositionOptions =
  | {
      /** First position (default 0). */
      offset?: number;
      positions?: never;
    }
  | {
      offset?: never;
      /** One position per row; replaces offset. */
      positions: PositionList;
    };

export type SinusoidalOptions = PositionOptions & {
  seqLen: number;
  /** Even: the table is made of sin/cos pairs. */
  dModel: number;
  /** Default 10000. */
  base?: number;
  /** 'interleaved' (default): sin at channel 2i, cos at 2i+1. 'concat': all sines, then all cosines. */
  layout?: 'interleaved' | 'concat';
  /** The arrays' element type; default: the arrays' own (a Float16Array's, a WasmArray's), else 'float32'. */
  dtype?: Dtype;
};

export interface PositionNumbersOptions {
  seqLen: number;
  dModel: number;
  offset?: number;
  /** The table's element type; default: out's own, else 'float32'. */
  dtype?: Dtype;
  out?: TensorArray;
}

/**
 * Long-context scaling: Hugging Face's `rope_scaling` config with its keys in camelCase
 * (`rope_type` -> `type`). The attention factor (YaRN, LongRoPE) multiplies cos and sin.
 */
export type RopeScaling =
  | { type: 'default' }
  /** Position interpolation: inv_freq / factor. */
  | { type: 'linear'; factor: number }
  /** NTK-aware: the base grows with the current length L (largest position + 1) once L > originalMaxPositionEmbeddings. */
  | { type: 'dynamic'; factor: number; originalMaxPositionEmbeddings: number }
  | {
      type: 'yarn';
      factor: number;
      originalMaxPositionEmbeddings: number;
      /** Default 32. */
      betaFast?: number;
      /** Default 1. */
      betaSlow?: number;
      /** Default: 0.1 ln(factor) + 1, or the mscale / mscaleAllDim ratio when both are given. */
      attentionFactor?: number;
      mscale?: number;
      mscaleAllDim?: number;
      /** Floor/ceil the correction range (default true). */
      truncate?: boolean;
    }
  | {
      type: 'llama3';
      factor: number;
      lowFreqFactor: number;
      highFreqFactor: number;
      originalMaxPositionEmbeddings: number;
    }
  | {
      type: 'longrope';
      /** rotaryDim / 2 numbers each: long ones once the current length exceeds originalMaxPositionEmbeddings. */
      shortFactor: readonly number[] | Float64Array | Float32Array;
      longFactor: readonly number[] | Float64Array | Float32Array;
      originalMaxPositionEmbeddings: number;
      /** For the default attention factor sqrt(1 + ln(s) / ln(L0)), s = maxPositionEmbeddings / L0 (or factor). */
      maxPositionEmbeddings?: number;
      factor?: number;
      attentionFactor?: number;
    }
  | {
      /**
       * Gemma 4's global layers: the first int(partialRotaryFactor · rotaryDim // 2) pairs turn at
       * 1 / base^(2i / rotaryDim) / factor, the others not at all (rotaryDim defaults to headDim).
       */
      type: 'proportional';
      /** Default 1. */
      factor?: number;
      /** The share of pairs that turn, in [0, 1] (default 1): Hugging Face's rope_parameters key, not the top-level option. */
      partialRotaryFactor?: number;
    };

/**
 * A scaling config whose `type` TypeScript has widened to `string`: an object declared in a
 * variable without `as const`, or typed from a JSON file. Accepted with every key optional; the
 * keys are checked at run time (an unknown type or a missing key is a TypeError naming it).
 */
export interface RopeScalingConfig {
  type: string;
  factor?: number;
  originalMaxPositionEmbeddings?: number;
  maxPositionEmbeddings?: number;
  attentionFactor?: number;
  betaFast?: number;
  betaSlow?: number;
  mscale?: number;
  mscaleAllDim?: number;
  truncate?: boolean;
  lowFreqFactor?: number;
  highFreqFactor?: number;
  shortFactor?: readonly number[] | Float64Array | Float32Array;
  longFactor?: readonly number[] | Float64Array | Float32Array;
  partialRotaryFactor?: number;
}

/**
 * The `scaling` option for a value of type S: checked against RopeScaling (its keys per type)
 * when `type` is a literal, RopeScalingConfig when TypeScript widened it to `string`.
 */
export type ScalingOption<S> = S extends { type: infer T }
  ? string extends T
    ? RopeScalingConfig
    : RopeScaling
  : RopeScaling;

/** Long-context scaling (see RopeScaling); S is inferred from the value given. */
export interface WithScaling<S = RopeScaling> {
  scaling?: S & ScalingOption<S>;
}

/** The rotary dimension: rotaryDim (default headDim), or Hugging Face's partialRotaryFactor instead (never both). */
export type RotaryOptions =
  | {
      /** Even, at most headDim (default headDim): rotaryDim/2 pairs rotate, channels from rotaryDim on pass through. */
      rotaryDim?: number;
      partialRotaryFactor?: never;
    }
  | {
      rotaryDim?: never;
      /** Hugging Face's partial_rotary_factor: rotaryDim = int(headDim * factor). */
      partialRotaryFactor: number;
    };

export type RopeFrequencyOptions<S = RopeScaling> = RotaryOptions &
  WithScaling<S> & {
    /** Needed with partialRotaryFactor, or instead of rotaryDim. */
    headDim?: number;
    /** Default 10000. */
    base?: number;
    /** Checked and not used: the schedule has one value per pair, whichever channels a pair occupies. */
    layout?: 'interleaved' | 'half';
    /** Read and not used: M-RoPE keeps each pair's frequency (a model's options pass unchanged). */
    mrope?: MropeOptions;
    /** The current sequence length (largest position + 1) that dynamic and longrope go by. */
    seqLen?: number;
  };

export interface RopeSchedule {
  /** rotaryDim/2 inverse frequencies, float64. */
  invFreq: Float64Array;
  /** What cos and sin are multiplied by (1 without YaRN/LongRoPE). */
  attentionFactor: number;
  rotaryDim: number;
}

/** Where the rows of a batch sit: one offset for all, one per sequence, or explicit positions (never both). */
export type BatchPositionOptions =
  | {
      /** First position of every sequence (default 0), or one per sequence (batch integers). */
      offset?: number | PositionList;
      positions?: never;
    }
  | {
      offset?: never;
      /** One position per row, batch × seqLen of them (with mrope: 3 × batch × seqLen, the t rows, then h, then w); replaces offset. */
      positions: PositionList;
    };

export type RopeCacheOptions<T extends TensorArray = TensorArray, S = RopeScaling> = BatchPositionOptions &
  WithScaling<S> & {
    seqLen: number;
    /** Even, <= headDim; default headDim (one of the two is required). */
    rotaryDim?: number;
    /** The model's head size: the default rotaryDim. */
    headDim?: number;
    base?: number;
    /** Checked and not used: the cache has one cos/sin per pair, whichever channels a pair occupies. */
    layout?: 'interleaved' | 'half';
    /** Read and not used: the cache is per position; M-RoPE takes each pair's from its row's position. */
    mrope?: MropeOptions;
    /** Sequences (default 1): the cache is [batch, seqLen, rotaryDim/2]. */
    batch?: number;
    /** The cache's element type; default: out's own, else 'float32'. */
    dtype?: Dtype;
    /** Write into these arrays (each [batch, seqLen, rotaryDim/2]) instead of new ones. */
    out?: { cos: T; sin: T };
  };

/** The shape and rotation of a rope call, but for the rotary dimension: what rope, ropeQK and ropePlan share. */
export interface RopeShapeOptions {
  seqLen: number;
  /** Default 1. */
  numHeads?: number;
  headDim: number;
  /** 'interleaved' (default): pairs (x[2i], x[2i+1]). 'half': pairs (x[i], x[i + rotaryDim/2]). */
  layout?: 'interleaved' | 'half';
  base?: number;
  /** Sequences (default 1). */
  batch?: number;
  /** 'tokens' (default): [batch, seqLen, numHeads, headDim]. 'heads': [batch, numHeads, seqLen, headDim]. */
  order?: 'tokens' | 'heads';
  /** Rotate by -theta (undo a rotation). Default false. */
  inverse?: boolean;
  /**
   * The arrays' element type; default: the arrays' own (a Float16Array's, a WasmArray's), else
   * 'float32' (a plan's: 'float32'). A Uint16Array of half bits needs it.
   */
  dtype?: Dtype;
  /**
   * M-RoPE (Qwen2-VL, Qwen2.5-VL, Qwen3-VL): each pair takes its position from the temporal,
   * height or width row of `positions` ([3, batch, seqLen]: mropePositions(...).positions for batch 1).
   */
  mrope?: MropeOptions;
}

/** M-RoPE's sections: section[0] + section[1] + section[2] = rotaryDim / 2 pairs. */
export interface MropeOptions {
  /** [t, h, w] pairs: Qwen2-VL's [16, 24, 24] (three runs), Qwen3-VL's [24, 20, 20] (interleaved). */
  section: readonly number[] | Int32Array | Uint32Array;
  /** Qwen3-VL's order: pair k is h when k % 3 = 1 and k < 3h, w when k % 3 = 2 and k < 3w, else t. Default false. */
  interleaved?: boolean;
}

/** 2-D RoPE over an image grid (posenc.ropeGrid). */
export interface RopeGridOptions {
  /** Patches down and across: x holds rows · cols patches per sequence, row-major. */
  rows: number;
  cols: number;
  /** Default 1. */
  numHeads?: number;
  /** pixtral: even and >= 4; axial: a multiple of 4. */
  headDim: number;
  /** Default 10000 (Pixtral's rope_theta and SAM 2's). */
  base?: number;
  /** 'pixtral': transformers' PixtralRotaryEmbedding. 'axial': SAM 2's compute_axial_cis. */
  variant: 'pixtral' | 'axial';
  /** Default: the variant's own ('half' for pixtral, 'interleaved' for axial). */
  layout?: 'interleaved' | 'half';
  /** 'tokens' (default): [batch, rows·cols, numHeads, headDim]. 'heads': [batch, numHeads, rows·cols, headDim]. */
  order?: 'tokens' | 'heads';
  /** Images (default 1). */
  batch?: number;
  /** Copies of the grid per sequence (default 1): SAM 2's repeat_freqs_k, keys of several memory frames. */
  frames?: number;
  /** Write here instead of rotating x in place; must not partly overlap x. */
  out?: FloatArray;
}

/**
 * xPos (Sun et al., "A Length-Extrapolatable Transformer"; torchscale's XPOS): pair i of the
 * rotated channels is also scaled by ζᵢ^(±(position − center) / scaleBase), ζᵢ = (2i/rotaryDim +
 * gamma)/(1 + gamma): up for queries, down for keys, so q·k still depends on m − n only.
 */
export interface XposOptions {
  /** Default 512 (torchscale's xpos_scale_base). */
  scaleBase?: number;
  /** Default 0.4. */
  gamma?: number;
  /**
   * An integer in [0, maxPosition]. Default: ceil((largest position of the call + 1) / 2), as
   * torchscale. Give one fixed center when keys rotated by earlier calls meet later queries (a KV cache).
   */
  center?: number;
}

/** rope's xpos: it rotates one tensor, so the role is required. */
export interface XposRopeOptions extends XposOptions {
  /** 'query': scaled up with the distance from the center; 'key': scaled down. */
  role: 'query' | 'key';
}

/** ropeQK's and ropePlan's xpos: the roles are implied (queries up, keys down) or given per plan.apply(). */
export interface XposQKOptions extends XposOptions {
  role?: never;
}

export type RopeOptions<S = RopeScaling> = RopeShapeOptions &
  WithScaling<S> &
  RotaryOptions &
  BatchPositionOptions & {
    /** xPos on top of the rotation. */
    xpos?: XposRopeOptions;
    /** Write here instead of rotating x in place; must not partly overlap x. */
    out?: TensorArray;
  };

export type RopeQKOptions<
  Q extends TensorArray = TensorArray,
  K extends TensorArray = TensorArray,
  S = RopeScaling,
> = RopeShapeOptions &
  WithScaling<S> &
  RotaryOptions &
  BatchPositionOptions & {
    /** Heads of k (default numHeads); q has numHeads. */
    numKvHeads?: number;
    /** xPos on top of the rotation: queries scaled up, keys down, about one center. */
    xpos?: XposQKOptions;
    /** Write here instead of rotating q and k in place. */
    out?: { q: Q; k: K };
  };

/** The options of ropePlan: everything of rope but where the rows sit and out. */
export type RopePlanOptions<S = RopeScaling> = RopeShapeOptions &
  WithScaling<S> &
  RotaryOptions & {
    /** Heads of k for applyQK (default numHeads). */
    numKvHeads?: number;
    /** xPos on top of the rotation; apply() takes the role, applyQK implies it. */
    xpos?: XposQKOptions;
  };

/** Where one apply() puts its rows, and where it writes. */
export type RopePlanApplyOptions = BatchPositionOptions & {
  /** Plans made with xpos: whose scale x gets, 'query' (up) or 'key' (down). Required there, refused otherwise. */
  role?: 'query' | 'key';
  /** Write here instead of rotating x in place; must not partly overlap x. */
  out?: TensorArray;
};

export type RopePlanApplyQKOptions<
  Q extends TensorArray = TensorArray,
  K extends TensorArray = TensorArray,
> = BatchPositionOptions & {
  /** Write here instead of rotating q and k in place. */
  out?: { q: Q; k: K };
};

/**
 * A prepared rope call for hot loops (token-by-token decoding): validated once by
 * posenc.ropePlan(); apply() passes only positions and arrays. Results are bit-identical to
 * posenc.rope() with the same options.
 */
export class RopePlan implements Disposable {
  private constructor();
  readonly seqLen: number;
  readonly batch: number;
  readonly numHeads: number;
  readonly numKvHeads: number;
  readonly headDim: number;
  /** The rotary dimension in use (from rotaryDim, headDim or partialRotaryFactor). */
  readonly rotaryDim: number;
  readonly layout: 'interleaved' | 'half';
  readonly order: 'tokens' | 'heads';
  /** What cos and sin are multiplied by (1 without YaRN/LongRoPE scaling). */
  readonly attentionFactor: number;
  /** The element type of the arrays it rotates. */
  readonly dtype: Dtype;
  readonly freed: boolean;
  /** Rotates x ([batch, seqLen, numHeads, headDim] or heads-major) in place, or into options.out. */
  apply<T extends TensorArray>(x: T, options?: RopePlanApplyOptions & { out?: undefined }): T;
  apply<O extends TensorArray>(x: TensorArray, options: RopePlanApplyOptions & { out: O }): O;
  /** Rotates queries (numHeads) and keys (numKvHeads) of the same rows, in place or into options.out. */
  applyQK<Q extends TensorArray, K extends TensorArray>(
    q: Q,
    k: K,
    options?: RopePlanApplyQKOptions & { out?: undefined },
  ): { q: Q; k: K };
  applyQK<Q extends TensorArray, K extends TensorArray>(
    q: TensorArray,
    k: TensorArray,
    options: RopePlanApplyQKOptions<Q, K> & { out: { q: Q; k: K } },
  ): { q: Q; k: K };
  /**
   * Releases the plan; using it afterwards throws a RangeError, and a second free() does nothing.
   * (One dropped unfreed is released when collected.)
   */
  free(): void;
  /** free(), so `using plan = posenc.ropePlan(…)` releases it at the end of the scope. */
  [Symbol.dispose](): void;
}

export interface LayoutConversionOptions {
  from: 'interleaved' | 'half';
  to: 'interleaved' | 'half';
  headDim: number;
  /** Channels that rotate (default headDim); the rest keep their place. */
  rotaryDim?: number;
}

export interface SimilarityOptions {
  rows: number;
  cols: number;
  dim: number;
  /** 'dot' (default) or 'cosine' (0 where a row is all zeros). */
  metric?: 'dot' | 'cosine';
  out?: FloatArray;
}

export interface AlibiSlopesOptions {
  /** Any head count >= 1: the power-of-two rule, then interleaved extra heads (the paper, BLOOM, MPT). */
  numHeads: number;
  /** B in 2^(-B (h+1) / n) (default 8; MPT's alibi_bias_max). */
  maxBias?: number;
}

export interface AlibiBiasOptions extends AlibiSlopesOptions {
  queryLen: number;
  keyLen: number;
  /** Query row i sits at position offset + i, key j at j (default keyLen - queryLen: the KV-cache case). */
  offset?: number;
  out?: FloatArray;
}
/** The options every encoding of attentionScores reads: the shape, where rows sit, masking, softmax. */
export interface AttentionScoresShape<T extends FloatArray = FloatArray> {
  queryLen: number;
  keyLen: number;
  headDim: number;
  /** Default 1. */
  numHeads?: number;
  /** 'heads' (default): q [numHeads, queryLen, headDim], k [numHeads, keyLen, headDim]. 'tokens': [len, numHeads, headDim] (rope's). */
  order?: 'heads' | 'tokens';
  /** Query row i sits at position offset + i, key j at j (default keyLen - queryLen); >= 0 for sinusoidal and rope. */
  offset?: number;
  /** Multiplies q · k (default 1 / sqrt(headDim); T5 uses 1). */
  scale?: number;
  /** Mask keys j > offset + i: score -Infinity, weight 0 (a row with no key left is all 0). Default false. */
  causal?: boolean;
  /** Softmax weights instead of raw scores (each row sums to 1). Default false. */
  softmax?: boolean;
  /** Write here ([numHeads, queryLen, keyLen]) instead of a new array. */
  out?: T;
}

/** The options of one encoding only; the others' are refused. */
type AttentionEncodingKeys =
  | 'base'
  | 'layout'
  | 'rotaryDim'
  | 'partialRotaryFactor'
  | 'scaling'
  | 'maxBias'
  | 'bias'
  | 'numBuckets'
  | 'maxDistance'
  | 'bidirectional'
  | 'xpos';
type WithoutKeys<K extends string> = { [P in K]?: never };

/** attentionScores' encoding and its own options (a discriminated union on `encoding`). */
export type AttentionEncodingOptions<S = RopeScaling> =
  | ({ encoding: 'none' } & WithoutKeys<AttentionEncodingKeys>)
  | ({
      /** The sinusoidal table of width headDim at each row's position, added to q and k. */
      encoding: 'sinusoidal';
      /** Default 10000. */
      base?: number;
      /** 'interleaved' (default): sin at 2i, cos at 2i+1. 'concat': [sin... | cos...]. */
      layout?: 'interleaved' | 'concat';
    } & WithoutKeys<Exclude<AttentionEncodingKeys, 'base' | 'layout'>>)
  | ({
      /** q and k rotated at their positions, as rope() rotates them. */
      encoding: 'rope';
      /** Default 10000. */
      base?: number;
      /** 'interleaved' (default) or 'half' pairs. */
      layout?: 'interleaved' | 'half';
    } & RotaryOptions &
      WithScaling<S> &
      WithoutKeys<'maxBias' | 'bias' | 'numBuckets' | 'maxDistance' | 'bidirectional' | 'xpos'>)
  | ({
      /** rope with xPos: queries scaled up, keys down, about one center for both (torchscale's XPOS). */
      encoding: 'xpos';
      /** Default 10000. */
      base?: number;
      /** 'interleaved' (default, torchscale's) or 'half' pairs. */
      layout?: 'interleaved' | 'half';
      /** scaleBase (512), gamma (0.4) and center (default ceil(L / 2), L = the largest position + 1 of q and k). */
      xpos?: XposQKOptions;
    } & RotaryOptions &
      WithScaling<S> &
      WithoutKeys<'maxBias' | 'bias' | 'numBuckets' | 'maxDistance' | 'bidirectional'>)
  | ({
      /** slope_h · (j - (offset + i)) added to the scores (alibiSlopes' slopes). */
      encoding: 'alibi';
      /** Default 8. */
      maxBias?: number;
    } & WithoutKeys<Exclude<AttentionEncodingKeys, 'maxBias'>>)
  | ({
      /** bias[bucket(j - (offset + i)) * numHeads + h] added to the scores (relativePositionBuckets' buckets). */
      encoding: 't5';
      /** T5's relative_attention_bias weight, [numBuckets, numHeads]. */
      bias: FloatArray;
      /** Default 32. */
      numBuckets?: number;
      /** Default 128. */
      maxDistance?: number;
      /** Default true (T5's encoder); false in its decoder. */
      bidirectional?: boolean;
    } & WithoutKeys<Exclude<AttentionEncodingKeys, 'bias' | 'numBuckets' | 'maxDistance' | 'bidirectional'>>);

export type AttentionScoresOptions<T extends FloatArray = FloatArray, S = RopeScaling> = AttentionScoresShape<T> &
  AttentionEncodingOptions<S>;

/**
 * T5's relative position buckets (transformers' T5Attention._relative_position_bucket, bit for
 * bit): row i, column j holds the bucket of j - (offset + i).
 */
export interface RelativePositionBucketsOptions {
  queryLen: number;
  keyLen: number;
  /** Default 32 (T5's relative_attention_num_buckets); at least 4 when bidirectional, 2 otherwise. */
  numBuckets?: number;
  /** Default 128 (relative_attention_max_distance); must exceed maxExact (numBuckets / 4 bidirectional, / 2 otherwise). */
  maxDistance?: number;
  /** Default true: T5's encoder. false: its (causal) decoder, where j > offset + i shares bucket 0. */
  bidirectional?: boolean;
  /** The position of query row 0, default 0: the KV cache's past length (compute_bias's cache_position[0]). */
  offset?: number;
  /** An Int32Array of queryLen · keyLen elements to write into. */
  out?: Int32Array;
}

/** An array in WASM memory (float32 by default, or half precision); repeated calls on it copy nothing. */
export class WasmArray<D extends Dtype = 'float32'> implements Disposable {
  private constructor();
  /** The posenc instance whose memory holds the array. */
  readonly instance: Posenc;
  /** Its element type. */
  readonly dtype: D;
  /** Elements. */
  readonly length: number;
  /** Byte address in WASM memory. */
  readonly address: number;
  /** True once free() was called (on a window: its own, or its array's). */
  readonly freed: boolean;
  /**
   * A window onto elements [begin, end) of this array: a WasmArray over the same memory (no
   * copy), accepted wherever a WasmArray is, valid until this array is freed. Like
   * TypedArray.subarray (negative indices count from the end, end defaults to the length), but
   * strict: integers in [-length, length] and end >= begin, else a RangeError (no clamping).
   * A window's free() only retires the window; its array's memory stays.
   */
  subarray(begin?: number, end?: number): WasmArray<D>;
  /**
   * A view over the current WASM memory, valid only until the next posenc call (memory growth
   * detaches it): a Float32Array, or for the half types a Float16Array (float16, where the engine
   * has one) or a Uint16Array of the bits.
   */
  view(): DtypeArray<D>;
  /** Copies values in, starting at element offset (half types: their bits, a Uint16Array or a Float16Array). */
  set(
    values: D extends 'float32'
      ? Float32Array | readonly number[]
      : Exclude<HalfArray, WasmArray<'float16'> | WasmArray<'bfloat16'>>,
    offset?: number,
  ): this;
  /** A copy that survives memory growth and free(). */
  toArray(): DtypeArray<D>;
  /**
   * Returns the memory; using the array (or a window of it) afterwards throws a RangeError, and a
   * second free() does nothing. A window's free() retires only the window: its array and the
   * array's other windows stay. (An array dropped unfreed, windows and all, is freed when collected.)
   */
  free(): void;
  /** free(), so `using x = posenc.allocate(…)` frees it at the end of the scope. */
  [Symbol.dispose](): void;
}

/** An instantiated posenc module. Errors are TypeError/RangeError with `parameter` and `function` set. */
export class Posenc {
  private constructor();
  readonly variant: 'simd' | 'scalar';
  readonly simd: boolean;
  readonly limits: Limits;
  /** The compiled build this instance runs: post it to workers and pass it as `loadPosenc({ module })`. */
  readonly module: WebAssembly.Module;
  /** Where the .wasm came from: the package's URL (or locateWasm, or disk in Node), the inline chunk, or the caller. */
  readonly wasmSource: WasmSource;
  /**
   * Which file or URL the .wasm was read from, when `wasmSource` is `'url'`: the package's own,
   * the bundler's copy, or locateWasm's, with its path or URL. Undefined for the inline chunk,
   * `wasmBinary` and `module`.
   */
  readonly wasmFile: WasmFile | undefined;
  /** Current size of the WASM memory in bytes. */
  readonly memoryBytes: number;

  /** A zero-filled array of `length` floats, or a copy of `values`, in WASM memory. */
  allocate(lengthOrValues: number | Float32Array | readonly number[], options?: { dtype?: 'float32' }): WasmArray;
  /** A half-precision array: zeros, or a copy of the bits of a Uint16Array (or of a Float16Array, for float16). */
  allocate<D extends 'float16' | 'bfloat16'>(
    lengthOrValues: number | Uint16Array | (D extends 'float16' ? Float16ArrayIfDeclared : never),
    options: { dtype: D },
  ): WasmArray<D>;
  /** A float16 copy of a Float16Array (it says its dtype). */
  allocate(lengthOrValues: Float16ArrayIfDeclared, options?: { dtype?: 'float16' }): WasmArray<'float16'>;

  /** The [seqLen, dModel] sinusoidal table. */
  sinusoidal<D extends Dtype = 'float32'>(options: SinusoidalOptions & { dtype?: D; out?: undefined }): DtypeArray<D>;
  sinusoidal<T extends TensorArray>(options: SinusoidalOptions & { out: T }): T;
  /** Adds the sinusoidal table to token embeddings x ([seqLen, dModel]) in place; returns x. */
  addSinusoidal<T extends TensorArray>(x: T, options: SinusoidalOptions): T;
  /** The naive encoding: row p filled with offset + p. */
  positionNumbers<D extends Dtype = 'float32'>(
    options: PositionNumbersOptions & { dtype?: D; out?: undefined },
  ): DtypeArray<D>;
  positionNumbers<T extends TensorArray>(options: PositionNumbersOptions & { out: T }): T;
  /** The frequency schedule: inverse frequencies (scaled as `scaling` says), attention factor, rotary dimension. */
  ropeSchedule<const S = RopeScaling>(options: RopeFrequencyOptions<S>): RopeSchedule;
  /** The rotaryDim/2 inverse frequencies 1 / base^(2i / rotaryDim) (or scaled ones), float64. */
  ropeFrequencies<const S = RopeScaling>(options: RopeFrequencyOptions<S>): Float64Array;
  /** cos and sin, each [batch, seqLen, rotaryDim/2] (ONNX RotaryEmbedding's cache layout), times the attention factor. */
  ropeCache<D extends Dtype = 'float32', const S = RopeScaling>(
    options: RopeCacheOptions<TensorArray, S> & { dtype?: D; out?: undefined },
  ): {
    cos: DtypeArray<D>;
    sin: DtypeArray<D>;
    attentionFactor: number;
  };
  ropeCache<T extends TensorArray, const S = RopeScaling>(
    options: RopeCacheOptions<T, S> & { out: { cos: T; sin: T } },
  ): { cos: T; sin: T; attentionFactor: number };
  /** Rotates x ([batch, seqLen, numHeads, headDim], or heads-major) in place, or into options.out; returns the result. */
  rope<T extends TensorArray, const S = RopeScaling>(x: T, options: RopeOptions<S> & { out?: undefined }): T;
  rope<O extends TensorArray, const S = RopeScaling>(x: TensorArray, options: RopeOptions<S> & { out: O }): O;
  rope<const S = RopeScaling>(x: TensorArray, options: RopeOptions<S>): TensorArray;
  /** Rotates queries (numHeads) and keys (numKvHeads) of the same rows in one call; in place or into options.out. */
  ropeQK<Q extends TensorArray, K extends TensorArray, const S = RopeScaling>(
    q: Q,
    k: K,
    options: RopeQKOptions<TensorArray, TensorArray, S> & { out?: undefined },
  ): { q: Q; k: K };
  ropeQK<Q extends TensorArray, K extends TensorArray, const S = RopeScaling>(
    q: TensorArray,
    k: TensorArray,
    options: RopeQKOptions<Q, K, S> & { out: { q: Q; k: K } },
  ): { q: Q; k: K };
  /** A prepared rope call for hot loops: validated once, then plan.apply(x, { offset }) per decoding step. */
  ropePlan<const S = RopeScaling>(options: RopePlanOptions<S>): RopePlan;
  /** Frees the prepared plans rope() and ropeQK() keep for their next calls with the same options (made again when needed). */
  freeCachedPlans(): void;
  /** Head vectors ([..., headDim]: activations, a q/k bias) with their rotary channels moved to the other layout. */
  convertLayout<T extends FloatArray = Float32Array>(x: FloatArray, options: LayoutConversionOptions & { out?: T }): T;
  /** q/k projection weights [numHeads * headDim, hidden] with each head's rotary rows moved to the other layout (Hugging Face's permute). */
  convertLayoutWeights<T extends FloatArray = Float32Array>(
    w: FloatArray,
    options: LayoutConversionOptions & { numHeads: number; hidden: number; out?: T },
  ): T;
  /** The [rows, cols] matrix of dot products (or cosines) between rows of a ([rows, dim]) and b ([cols, dim]). */
  similarity<T extends FloatArray = Float32Array>(
    a: FloatArray,
    b: FloatArray,
    options: SimilarityOptions & { out?: T },
  ): T;
  /** The numHeads ALiBi slopes, float64. */
  alibiSlopes(options: AlibiSlopesOptions): Float64Array;
  /** The [numHeads, queryLen, keyLen] ALiBi bias slope_h · (j − (offset + i)), not masked. */
  alibiBias<T extends FloatArray = Float32Array>(options: AlibiBiasOptions & { out?: T }): T;
  /**
   * Qwen2-VL / Qwen2.5-VL M-RoPE position ids of a prompt of text, image and video segments
   * (transformers' get_rope_index): positions [3, seqLen] (temporal, height, width rows) and the
   * id of the next generated token.
   */
  mropePositions(options: MropePositionsOptions): MropePositions;
  /** 2-D RoPE over an image grid of rows · cols patches (Pixtral, SAM 2), in place or into `out`. */
  ropeGrid<T extends FloatArray>(x: T, options: RopeGridOptions & { out?: undefined }): T;
  ropeGrid<O extends FloatArray>(x: FloatArray, options: RopeGridOptions & { out: O }): O;
  ropeGrid(x: FloatArray, options: RopeGridOptions): FloatArray;
  /** T5's relative position buckets, [queryLen, keyLen] int32 (new array, or `out`). */
  relativePositionBuckets(options: RelativePositionBucketsOptions): Int32Array;
  /**
   * Attention scores [numHeads, queryLen, keyLen] of q and k under one positional encoding: raw
   * scale · q·k (+ bias), or softmax weights; optionally causal.
   */
  attentionScores<T extends FloatArray = Float32Array, const S = RopeScaling>(
    q: FloatArray,
    k: FloatArray,
    options: AttentionScoresOptions<T, S>,
  ): T;
}

/**
 * A grid [t, h, w] in patches before the spatial merge: t · (h / spatialMergeSize) · (w /
 * spatialMergeSize) tokens. Any list of 3 numbers (a variable's number[] too: the length is
 * checked at run time).
 */
export type MropeGrid = readonly number[] | Float64Array | Float32Array;

/**
 * One part of an M-RoPE prompt: text tokens (the <|vision_start|> / <|vision_end|> tokens around
 * an image or video are text), an image, or a video (secondsPerGrid: Qwen2.5-VL's
 * second_per_grid_t, default 1; transformers truncates it to an integer).
 */
export type MropeSegment = { text: number } | { image: MropeGrid } | { video: MropeGrid; secondsPerGrid?: number };

export type MropePositionsOptions = {
  segments: readonly MropeSegment[];
  /** vision_config.spatial_merge_size (default 2). */
  spatialMergeSize?: number;
} & (
  | { model?: 'qwen2-vl'; tokensPerSecond?: never }
  | {
      model: 'qwen2.5-vl';
      /** vision_config.tokens_per_second: video frames step by int(secondsPerGrid) · tokensPerSecond (default 2). */
      tokensPerSecond?: number;
    }
);

export interface MropePositions {
  /** [3, seqLen]: the temporal, height and width ids of every token. */
  positions: Int32Array;
  /** The largest id + 1: the next generated token's id on all three rows (then + 1 per token). */
  nextPosition: number;
}

/** A model's RoPE options from fromHfConfig: every rope function takes them unchanged. */
export interface HfRopeOptions {
  /** The rotated head size (DeepSeek's qk_rope_head_dim for multi-head latent attention). */
  headDim: number;
  /** int(headDim * partial_rotary_factor). */
  rotaryDim: number;
  /** rope_theta. */
  base: number;
  /** 'half' (transformers' rotate_half) except DeepSeek-V3's interleaved checkpoints. */
  layout: 'interleaved' | 'half';
  /** rope_scaling / rope_parameters in camelCase; absent for plain RoPE. */
  scaling?: RopeScaling;
  /** mrope_section (and Qwen3-VL's interleaved order): Qwen2-VL, Qwen2.5-VL, Qwen3-VL. */
  mrope?: MropeOptions;
}

/** What fromHfConfig reads from a Hugging Face config.json. */
export interface HfRopeConfig {
  /**
   * The RoPE every rotating layer shares. Where the layers differ (Gemma 3's sliding and full
   * layers) or none rotates, reading it throws a TypeError naming `layers` (it is then not
   * enumerable: spreading or JSON.stringify of the result skips it).
   */
  ropeOptions: HfRopeOptions;
  /**
   * Layer i's RoPE, or null where layer i has none (SmolLM3's and Llama 4's NoPE layers, Cohere
   * 2's full-attention layers); num_hidden_layers entries, each its own object. Absent only when
   * the file gives no num_hidden_layers and its layers all share ropeOptions.
   */
  layers?: Array<HfRopeOptions | null>;
  /** num_attention_heads. */
  numHeads: number;
  /**
   * num_key_value_heads (default num_attention_heads). With multi-head latent attention
   * (DeepSeek) the keys' rotary part is one shared head: rotate it with numKvHeads 1.
   */
  numKvHeads: number;
  /** max_position_embeddings; undefined when the file gives none (only some scalings need it). */
  maxPositionEmbeddings: number | undefined;
}

/**
 * A model's RoPE from its Hugging Face config.json object (transformers 4 `rope_scaling` or 5
 * `rope_parameters`), read as transformers reads it, layer by layer. Needs no instance. Throws a
 * TypeError or RangeError naming the config key (`config.rope_scaling.rope_type`, ...).
 */
export function fromHfConfig(config: object): HfRopeConfig;

/** Loads and instantiates posenc (SIMD build where supported). */
export function loadPosenc(options?: LoadOptions): Promise<Posenc>;

/** Whether this engine validates WebAssembly SIMD128. */
export function simdSupported(): boolean;
