// posenc/widgets: the tutorial's figures as custom elements (hand-written declarations; the
// elements are in web/src/widgets/). Importing the module registers the elements.

/** The settings of <posenc-pe-heatmap>, as properties (attributes: seq-len, d-model, base, layout). */
export interface PeHeatmapSettings {
  /** Positions (rows), 1…2048; default 128. */
  seqLen: number;
  /** Dimensions (columns), even, 2…2048; default 128. */
  dModel: number;
  /** The base n of the frequencies n^(-2i/d), 2…1e8; default 10000. */
  base: number;
  /** Where each pair's sine and cosine sit; default 'interleaved'. */
  layout: 'interleaved' | 'concat';
}

/** posenc-pick's detail for <posenc-pe-heatmap>: the cell under the pointer or the keyboard's cursor. */
export interface PeHeatmapPick {
  row: number;
  col: number;
  /** The table's value there (float32). */
  value: number;
  /** The pair i the dimension belongs to, and whether it is its sine or cosine. */
  pair: number;
  fn: 'sin' | 'cos';
  /** row · base^(-2i/d), in radians. */
  angle: number;
  /** The read-out sentence the element shows. */
  text: string;
}

/** posenc-invalid's detail: an attribute or property the element could not use, and why. */
export interface PosencInvalid {
  name: string;
  message: string;
}

/** What every posenc element has. */
export interface PosencElementBase<Settings> extends HTMLElement {
  /** The settings in use, by property name. */
  readonly settings: Settings;
  /** The sentences shown inside the element for settings it could not use (empty when none). */
  readonly problems: string[];
  /** The figure as shown (title, cells, axes, colour bar) as a PNG. */
  toPNG(): Promise<Blob>;
  /** The drawn numbers as CSV text (a header row and a label column). */
  toCSV(): string;
}

export interface PeHeatmap extends PosencElementBase<PeHeatmapSettings>, PeHeatmapSettings {
  /** The drawn table (row-major), or null before the first draw. */
  readonly table: { values: Float32Array; rows: number; cols: number } | null;
}
export declare const PeHeatmap: { prototype: PeHeatmap; new (): PeHeatmap };

/** The settings of <posenc-rope-heatmap>, as properties (attributes: seq-len, head-dim, content, seed, layout, base). */
export interface RopeHeatmapSettings {
  /** Query and key positions 0 … seqLen − 1, 16…2048; default 1001. */
  seqLen: number;
  /** The head dimension, even, 2…256; default 64. */
  headDim: number;
  /** q and k: all ones, or random vectors from `seed`; default 'ones'. */
  content: 'ones' | 'random';
  /** 1…999999; default 1. */
  seed: number;
  /** Which channels form a rotated pair; default 'interleaved'. */
  layout: 'interleaved' | 'half';
  /** 2…1e8; default 10000. */
  base: number;
}

/** posenc-pick's detail for <posenc-rope-heatmap>: the cell and its query and key positions. */
export interface RopeHeatmapPick {
  row: number;
  col: number;
  m: number;
  n: number;
  value: number;
  text: string;
}

export interface RopeHeatmap extends PosencElementBase<RopeHeatmapSettings>, RopeHeatmapSettings {}
export declare const RopeHeatmap: { prototype: RopeHeatmap; new (): RopeHeatmap };

/** The settings of <posenc-wavelengths>: the table's (as <posenc-pe-heatmap>) and the dimensions to plot. */
export interface WavelengthsSettings extends PeHeatmapSettings {
  /** 1 to 6 dimensions, each 0…2047 (drawn as the table's last one when beyond it); default [0, 20, 60, 120]. */
  dims: number[];
}

/** One drawn curve of <posenc-wavelengths>: a dimension of the table over position. */
export interface WavelengthsCurve {
  dimension: number;
  /** The pair i it belongs to, and whether it is its sine or cosine. */
  pair: number;
  fn: 'sin' | 'cos';
  /** base^(-2i/d) in radians per position, and 2π / frequency in positions. */
  frequency: number;
  wavelength: number;
  /** The table's values by position (float32). */
  values: Float32Array;
}

/** posenc-pick's detail for <posenc-wavelengths>: the position under the pointer or the keyboard's cursor. */
export interface WavelengthsPick {
  position: number;
  values: { dimension: number; value: number }[];
  text: string;
}

export interface Wavelengths extends PosencElementBase<WavelengthsSettings>, WavelengthsSettings {
  /** The drawn curves (empty before the first draw). */
  readonly curves: WavelengthsCurve[];
}
export declare const Wavelengths: { prototype: Wavelengths; new (): Wavelengths };

/** The settings of <posenc-rotation> (attributes: position, base, d-model, pair, pair-values, layout). */
export interface RotationSettings {
  /** The position m the pair is rotated to, 0…1000; default 3. */
  position: number;
  /** 2…1e8; default 10000. */
  base: number;
  /** The vector's width, even, 2…256; default 8. */
  dModel: number;
  /** The pair i, 0…dModel / 2 − 1; default 0. */
  pair: number;
  /** The pair's two values (x_a, x_b), each −10…10; default [1, 0.5]. */
  pairValues: number[];
  /** Which channels form the pair; default 'interleaved'. */
  layout: 'interleaved' | 'half';
}

/** posenc-pick's detail for <posenc-rotation>: the position the keyboard reads on the pair's path. */
export interface RotationPick {
  position: number;
  /** The rotated pair there (float32). */
  values: [number, number];
  /** position · base^(-2i/d), in radians. */
  angle: number;
  text: string;
}

export interface Rotation extends PosencElementBase<RotationSettings>, RotationSettings {
  /** The drawn rotation, or null before the first draw; path holds [x_a, x_b] for positions 0…m. */
  readonly rotation: {
    position: number;
    pair: number;
    channels: [number, number];
    original: [number, number];
    rotated: [number, number];
    frequency: number;
    path: Float32Array;
  } | null;
}
export declare const Rotation: { prototype: Rotation; new (): Rotation };

/** Makes a posenc instance the page's shared one (the elements otherwise load their own, once). */
export declare function providePosenc(posenc: unknown): void;

declare global {
  interface HTMLElementTagNameMap {
    'posenc-pe-heatmap': PeHeatmap;
    'posenc-rope-heatmap': RopeHeatmap;
    'posenc-wavelengths': Wavelengths;
    'posenc-rotation': Rotation;
  }
  interface HTMLElementEventMap {
    'posenc-change': CustomEvent<{ settings: Record<string, unknown> }>;
    'posenc-pick': CustomEvent<PeHeatmapPick | RopeHeatmapPick | WavelengthsPick | RotationPick | null>;
    'posenc-invalid': CustomEvent<PosencInvalid>;
  }
}
