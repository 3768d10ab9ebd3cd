// posenc/webgpu: hand-written declarations. The WebGPU objects are declared structurally here
// (the few members posenc reads), so a project without @webgpu/types still type-checks; with
// those types, real GPUDevice/GPUBuffer/GPUCommandEncoder objects fit these shapes.
import type {
  AlibiBiasOptions,
  AlibiSlopesOptions,
  BatchPositionOptions,
  PositionList,
  Posenc,
  RelativePositionBucketsOptions,
  RopeCacheOptions,
  RopeOptions,
  RopeQKOptions,
  RopeScaling,
  RotaryOptions,
  SinusoidalOptions,
  WithScaling,
  XposRopeOptions,
} from '../js/index.js';

/** The members of a GPUBuffer posenc reads. */
export interface GpuBufferLike {
  readonly size: number;
  readonly usage: number;
  readonly mapState: 'unmapped' | 'pending' | 'mapped';
}
/** The device posenc records for (a GPUDevice). */
export interface GpuDeviceLike {
  readonly limits: {
    readonly minStorageBufferOffsetAlignment: number;
    readonly maxStorageBufferBindingSize: number;
    readonly maxBufferSize: number;
    readonly maxComputeWorkgroupsPerDimension: number;
  };
  readonly lost: Promise<unknown>;
}
/** A GPUCommandEncoder with no pass open. */
export interface GpuCommandEncoderLike {
  beginComputePass(descriptor?: unknown): unknown;
}

/** A buffer argument: a GPUBuffer (from byte 0), or a place inside one (`offset` a multiple of 4 bytes). */
export type GpuData = GpuBufferLike | { buffer: GpuBufferLike; offset?: number };

/** Where rope's rows sit on the GPU: as on the CPU, or positions in a GPUBuffer (int32 or uint32). */
export type GpuPositionOptions =
  | (BatchPositionOptions & { positionsType?: never; maxPosition?: never; minPosition?: never })
  | {
      offset?: never;
      /** batch × seqLen positions (M-RoPE: 3 × batch × seqLen), int32 (default) or uint32. */
      positions: GpuData;
      positionsType?: 'int32' | 'uint32';
      /** The largest position the buffer holds: the cos/sin table covers minPosition … maxPosition; rows beyond come out NaN. */
      maxPosition: number;
      /** The smallest (default 0). */
      minPosition?: number;
    };

/** Without `encoder` a method submits its own work and returns a promise that settles once WebGPU has validated it. */
export interface Recording {
  /** Record onto this encoder (no pass may be open); nothing runs until the caller submits it. */
  encoder?: GpuCommandEncoderLike;
}

type WithoutRows<T> = Omit<T, 'offset' | 'positions' | 'out' | 'dtype'>;

export type GpuRopeOptions<S = RopeScaling> = WithoutRows<RopeOptions<S>> &
  GpuPositionOptions &
  Recording & {
    /** 'float32' (default) or 'float16' (binary16 storage; the 'half' layout then needs rotaryDim a multiple of 4). */
    dtype?: 'float32' | 'float16';
    /** Write here instead of in place: x itself, or a range sharing no byte with x. */
    out?: GpuData;
  };

export type GpuRopeQKOptions<S = RopeScaling> = WithoutRows<RopeQKOptions<never, never, S>> &
  GpuPositionOptions &
  Recording & {
    dtype?: 'float32';
    out?: { q: GpuData; k: GpuData };
  };

export type GpuRopeTableOptions<S = RopeScaling> = RotaryOptions &
  WithScaling<S> & {
    headDim: number;
    base?: number;
    inverse?: boolean;
    xpos?: XposRopeOptions;
    /** The table covers positions minPosition (default 0) … maxPosition at least. */
    maxPosition: number;
    minPosition?: number;
  };

/** A schedule's cos/sin rows on the device, for posenc_rope_cos_sin (ropeTableWgsl). */
export interface GpuRopeTable {
  /** array<vec2<f32>>: row 0 a NaN sentinel, row 1 + r the (cos, sin) pairs of position first + r. */
  readonly buffer: GpuBufferLike;
  readonly pairs: number;
  readonly first: number;
  readonly rows: number;
  /** (pairs, first, rows): posenc_rope_cos_sin's third argument. */
  readonly table: Uint32Array;
}

export interface GpuBucketTable {
  /** array<i32>: entry e is the bucket of distance first + e. */
  readonly buffer: GpuBufferLike;
  readonly first: number;
  readonly count: number;
}

export interface GpuEncoder {
  readonly device: GpuDeviceLike;
  readonly posenc: Posenc;
  rope(x: GpuData, options: GpuRopeOptions & { encoder: GpuCommandEncoderLike }): undefined;
  rope(x: GpuData, options: GpuRopeOptions): Promise<void>;
  ropeQK(q: GpuData, k: GpuData, options: GpuRopeQKOptions & { encoder: GpuCommandEncoderLike }): undefined;
  ropeQK(q: GpuData, k: GpuData, options: GpuRopeQKOptions): Promise<void>;
  ropeTable(options: GpuRopeTableOptions): GpuRopeTable;
  /** ONNX Runtime's cos/sin cache ([batch, seqLen, rotaryDim / 2] each) written by the queue into out (COPY_DST), or new buffers. */
  ropeCache(
    options: Omit<RopeCacheOptions, 'out' | 'dtype'> & {
      dtype?: 'float32' | 'float16';
      out?: { cos: GpuData; sin: GpuData };
    },
  ): Promise<{ cos: GpuBufferLike; sin: GpuBufferLike; attentionFactor: number }>;
  /** The sinusoidal table written by the queue into out (COPY_DST), or a new buffer. */
  sinusoidal(
    options: Omit<SinusoidalOptions, 'out' | 'dtype'> & { dtype?: 'float32'; out?: GpuData },
  ): Promise<GpuBufferLike>;
  addSinusoidal(
    x: GpuData,
    options: Omit<SinusoidalOptions, 'out' | 'dtype' | 'offset' | 'positions'> &
      GpuPositionOptions &
      Recording & { offset?: number; dtype?: 'float32'; encoder: GpuCommandEncoderLike },
  ): undefined;
  addSinusoidal(
    x: GpuData,
    options: Omit<SinusoidalOptions, 'out' | 'dtype' | 'offset' | 'positions'> &
      GpuPositionOptions &
      Recording & { offset?: number; dtype?: 'float32' },
  ): Promise<void>;
  /** Each head's slope as (hi, lo) float32s, 2 · numHeads numbers, for posenc_alibi. */
  alibiSlopes(options: AlibiSlopesOptions): Float32Array;
  alibiBias(options: Omit<AlibiBiasOptions, 'out'> & { out: GpuData; encoder: GpuCommandEncoderLike }): undefined;
  alibiBias(options: Omit<AlibiBiasOptions, 'out'> & { out: GpuData; encoder?: undefined }): Promise<void>;
  bucketTable(options: Omit<RelativePositionBucketsOptions, 'out'>): GpuBucketTable;
  relativePositionBuckets(
    options: Omit<RelativePositionBucketsOptions, 'out'> & { out: GpuData; encoder: GpuCommandEncoderLike },
  ): undefined;
  relativePositionBuckets(
    options: Omit<RelativePositionBucketsOptions, 'out'> & { out: GpuData; encoder?: undefined },
  ): Promise<void>;
}

export interface CreateGpuEncoderOptions {
  /** The posenc instance whose angles it uploads (default: one loaded from posenc's default entry). */
  posenc?: Posenc;
}

export function createGpuEncoder(device: GpuDeviceLike, options?: CreateGpuEncoderOptions): Promise<GpuEncoder>;

/** fn posenc_rotate(a: f32, b: f32, cs: vec2<f32>) -> vec2<f32>: the CPU's rotation of a pair. */
export const ROTATE_WGSL: string;
/** fn posenc_alibi(slope: vec2<f32>, distance: i32) -> f32 (slope: alibiSlopes' hi, lo). */
export const ALIBI_WGSL: string;
/** `var posenc_rope_table` at the group/binding given and fn posenc_rope_cos_sin(position: u32, pair: u32, table: vec3<u32>) -> vec2<f32>. */
export function ropeTableWgsl(where?: { group?: number; binding?: number }): string;
/** `var posenc_bucket_table` at the group/binding given and fn posenc_bucket(distance: i32, first: i32, count: u32) -> i32. */
export function bucketTableWgsl(where?: { group?: number; binding?: number }): string;

export type { PositionList };
