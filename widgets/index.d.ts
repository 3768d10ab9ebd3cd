// posenc/widgets: the tutorial's figures as custom elements (hand-written declarations; the
// elements are in widgets/elements/). Importing the module registers the elements (in a browser;
// on a server it defines the same classes and registers nothing). The end of the file types the
// tags for React 19, Preact, Solid, Vue 3 and Svelte 5 templates without needing any of them.
import type { Posenc } from '../bindings/js/index.js';

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

/** posenc-change's detail: the settings of the picture just drawn, by property name. */
export interface PosencChange<Settings = PosencSettings> {
  settings: Settings;
}

/** The events of a posenc element, as HTMLElementEventMap has a DOM element's (addEventListener's types). */
export interface PosencEventMap<Settings extends PosencSettings = PosencSettings, Pick extends PosencPick = PosencPick>
  extends HTMLElementEventMap {
  /** After a redraw with new settings. */
  'posenc-change': CustomEvent<PosencChange<Settings>>;
  /** The cell or position under the pointer or the keyboard's cursor; null when it leaves. */
  'posenc-pick': CustomEvent<Pick | null>;
  /** An attribute or property the element could not use (also shown inside it). */
  'posenc-invalid': CustomEvent<PosencInvalid>;
}

/** What every posenc element has. */
export interface PosencElementBase<Settings extends PosencSettings, Pick extends PosencPick = PosencPick>
  extends HTMLElement {
  /** The colour scheme (attribute `theme`): the reader's system setting (the default), light or dark. */
  theme: 'system' | 'light' | 'dark';
  /** Whether the element shows its built-in controls (the boolean attribute `controls`); default false. */
  controls: boolean;
  /** The settings in use, by property name. */
  readonly settings: Settings;
  /** The sentences shown inside the element for settings it could not use (empty when none). */
  readonly problems: string[];
  /** The figure as shown (title, cells, axes, colour bar) as a PNG. */
  toPNG(): Promise<Blob>;
  /** The drawn numbers as CSV text (a header row and a label column). */
  toCSV(): string;
  addEventListener<K extends keyof PosencEventMap<Settings, Pick>>(
    type: K,
    listener: (event: PosencEventMap<Settings, Pick>[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  removeEventListener<K extends keyof PosencEventMap<Settings, Pick>>(
    type: K,
    listener: (event: PosencEventMap<Settings, Pick>[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | EventListenerOptions,
  ): void;
}

export interface PeHeatmap extends PosencElementBase<PeHeatmapSettings, PeHeatmapPick>, PeHeatmapSettings {
  /** The drawn table (row-major; computed again on each read: the element keeps only its picture), or null before the first draw. */
  readonly table: { values: Float32Array; rows: number; cols: number } | null;
  /** Rows first … first + count − 1 of the drawn table (row-major, as `table` has them), or null before the first draw; a RangeError for rows outside it. */
  rowsAt(first: number, count: number): Float32Array | null;
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

export interface RopeHeatmap extends PosencElementBase<RopeHeatmapSettings, RopeHeatmapPick>, RopeHeatmapSettings {}
export declare const RopeHeatmap: { prototype: RopeHeatmap; new (): RopeHeatmap };

/** The settings of <posenc-vectors-2d>, as properties (attributes: offset, check, this, out). */
export interface Vectors2dSettings {
  /** The position of the first word ("check"), 0…1000; default 0. */
  offset: number;
  /** Each word's 2-D vector [x₀, x₁], entries −10…10 (attribute: "x₀,x₁"). */
  check: number[];
  this: number[];
  out: number[];
}

/** One word of <posenc-vectors-2d> as drawn (float32 values); also posenc-pick's detail, with `text`. */
export interface Vectors2dRow {
  index: number;
  word: 'check' | 'this' | 'out';
  position: number;
  vector: [number, number];
  /** PE(position) = (sin position, cos position). */
  pe: [number, number];
  /** vector + pe. */
  sum: [number, number];
}

export interface Vectors2dPick extends Vectors2dRow {
  /** The read-out sentence the element shows. */
  text: string;
}

export interface Vectors2d extends PosencElementBase<Vectors2dSettings, Vectors2dPick>, Vectors2dSettings {
  /** The drawn words, or null before the first draw. */
  readonly vectors: Vectors2dRow[] | null;
}
export declare const Vectors2d: { prototype: Vectors2d; new (): Vectors2d };

/** The settings of <posenc-worked-example>, as properties (attributes: the, cat). */
export interface WorkedExampleSettings {
  /** The embedding of "The" (position 0): four numbers −100…100; default [0.5, 0.1, 0.8, 0.3]. */
  the: number[];
  /** The embedding of "cat" (position 1); default [0.2, 0.9, 0.4, 0.6]. */
  cat: number[];
}

/** posenc-pick's detail for <posenc-worked-example>: a row of the positional-encoding table. */
export interface WorkedExamplePick {
  word: 'The' | 'cat';
  position: number;
  channel: number;
  pair: number;
  fn: 'sin' | 'cos';
  /** position · 10000^(-2·pair/4), in radians. */
  angle: number;
  /** PE(position, channel) (float32). */
  value: number;
  /** What Jaitly's post printed, and whether that is truncated. */
  printed: string;
  truncated: boolean;
  text: string;
}

export interface WorkedExample
  extends PosencElementBase<WorkedExampleSettings, WorkedExamplePick>,
    WorkedExampleSettings {
  /** The drawn numbers (row-major, 2 words × 4 channels), or null before the first draw. */
  readonly values: { pe: Float32Array; embeddings: Float32Array; sums: Float32Array } | null;
}
export declare const WorkedExample: { prototype: WorkedExample; new (): WorkedExample };
/** The settings of <posenc-attention>, as properties (attributes: encoding, seq-len, l0, head-dim, content, seed, view, causal, head, domain, t5-bias). */
export interface AttentionSettings {
  /** The encoding; default 'rope'. */
  encoding: 'none' | 'sinusoidal' | 'rope' | 'xpos' | 'alibi' | 't5';
  /** Query and key positions 0 … seqLen − 1, 16…256; default 128. */
  seqLen: number;
  /** The training length marked by dashed lines, 4…min(128, seqLen / 2); default 32. */
  l0: number;
  /** The head dimension, even, 4…64; default 32. */
  headDim: number;
  /** One random query and key at every position, or one pair per token; default 'qk'. */
  content: 'qk' | 'tokens';
  /** 1…999999; default 7. */
  seed: number;
  /** Raw scores or softmax weights; default 'scores'. */
  view: 'scores' | 'weights';
  /** Mask keys after the query; default 'off'. */
  causal: 'off' | 'on';
  /** ALiBi's head of an 8-head model (slope 2^(−head)), 1…8; default 4. */
  head: number;
  /** A fixed colour scale [lo, hi] (attribute "lo,hi"), shared by several panels; [] (default): the panel's own. */
  domain: number[];
  /**
   * T5's learned bias of one head, one value per bucket (2…128) of one direction, as a causal
   * decoder's table (bidirectional: false, maxDistance 128; keys after the query share bucket 0);
   * [] (default): a made-up stand-in, 0 at distance 0 falling linearly to −4 at the last bucket,
   * bucketed both ways without the causal mask.
   */
  t5Bias: number[];
}

/** posenc-pick's detail for <posenc-attention>: the cell, its query and key positions and value (as RoPE's heatmap). */
export type AttentionPick = RopeHeatmapPick;

export interface Attention extends PosencElementBase<AttentionSettings, AttentionPick>, AttentionSettings {
  /** The drawn matrix (row-major [seqLen, seqLen]), or null before the first draw. */
  readonly matrix: Float32Array | null;
  /** Moves the cursor to a cell (a page linking several panels), or hides it with null. */
  setCursor(cell: { row: number; col: number } | null): void;
}
export declare const Attention: { prototype: Attention; new (): Attention };

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

export interface Wavelengths extends PosencElementBase<WavelengthsSettings, WavelengthsPick>, WavelengthsSettings {
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

export interface Rotation extends PosencElementBase<RotationSettings, RotationPick>, RotationSettings {
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

/** The settings of <posenc-compare>, as properties (attributes: seq-len, d-model, base, metric, content, seed, q, k). */
export interface CompareSettings {
  /** Query and key positions 0 … seqLen − 1, 8…512; default 128. */
  seqLen: number;
  /** The vectors' width d, even, 2…256; default 32. */
  dModel: number;
  /** The frequency base of the sinusoidal table and of RoPE, 2…1e8; default 10000. */
  base: number;
  /** Cosine similarity (default) or the dot product, on one scale for the three panels. */
  metric: 'cosine' | 'dot';
  /** One random query and key at every position (default), a random vector per token, all ones (the trap), or q and k below. */
  content: 'qk' | 'tokens' | 'ones' | 'edited';
  /** 1…999999; default 7. */
  seed: number;
  /** The query of content 'edited' (attribute "1,0.5,-0.5,0.25"), 1…256 numbers in [−100, 100], repeated to fill dModel. */
  q: number[];
  /** The key of content 'edited', as q; default [0.5, 1, 0.25, −0.5]. */
  k: number[];
}

/** posenc-pick's detail for <posenc-compare>: the cell, its positions and the three panels' scores there. */
export interface ComparePick {
  row: number;
  col: number;
  m: number;
  n: number;
  scores: { naive: number; sinusoidal: number; rope: number };
  text: string;
}

export interface Compare extends PosencElementBase<CompareSettings, ComparePick>, CompareSettings {
  /** The drawn scores (each row-major [seqLen, seqLen]; computed again on each read), or null before the first draw. */
  readonly scores: { naive: Float32Array; sinusoidal: Float32Array; rope: Float32Array } | null;
  /** Moves the three panels' crosshair to a cell, or hides it with null. */
  setCursor(cell: { row: number; col: number } | null): void;
}
export declare const Compare: { prototype: Compare; new (): Compare };

/** Makes a posenc instance (or a Promise of one) the page's shared one: the elements then use it instead of loading their own. */
export declare function providePosenc(posenc: Posenc | Promise<Posenc>): void;
/** The page's shared posenc instance, the one the elements compute with (loaded on the first call or element, once). */
export declare function sharedPosenc(): Promise<Posenc>;

/** Every element's settings, and every element's posenc-pick detail (the global event map's). */
export type PosencSettings =
  | PeHeatmapSettings
  | RopeHeatmapSettings
  | Vectors2dSettings
  | WorkedExampleSettings
  | AttentionSettings
  | WavelengthsSettings
  | RotationSettings
  | CompareSettings;
export type PosencPick =
  | PeHeatmapPick
  | RopeHeatmapPick
  | AttentionPick
  | Vectors2dPick
  | WorkedExamplePick
  | WavelengthsPick
  | RotationPick
  | ComparePick;

/** Each tag: its element, its settings and its posenc-pick detail. */
export interface PosencElementTypes {
  'posenc-pe-heatmap': { element: PeHeatmap; settings: PeHeatmapSettings; pick: PeHeatmapPick };
  'posenc-rope-heatmap': { element: RopeHeatmap; settings: RopeHeatmapSettings; pick: RopeHeatmapPick };
  'posenc-vectors-2d': { element: Vectors2d; settings: Vectors2dSettings; pick: Vectors2dPick };
  'posenc-worked-example': { element: WorkedExample; settings: WorkedExampleSettings; pick: WorkedExamplePick };
  'posenc-attention': { element: Attention; settings: AttentionSettings; pick: AttentionPick };
  'posenc-wavelengths': { element: Wavelengths; settings: WavelengthsSettings; pick: WavelengthsPick };
  'posenc-rotation': { element: Rotation; settings: RotationSettings; pick: RotationPick };
  'posenc-compare': { element: Compare; settings: CompareSettings; pick: ComparePick };
}
export type PosencTag = keyof PosencElementTypes;

/**
 * A setting as a template passes it (to the property or the attribute: the element reads both
 * alike): its value or the attribute's text of it. Numbers: a number or a numeric string ("100");
 * lists: an array (of numbers or numeric strings) or the comma-separated text; booleans: true,
 * false, '' (a bare attribute), 'true' or 'false'; names: one of the names.
 */
export type PassedSetting<T> = [T] extends [number]
  ? number | `${number}`
  : [T] extends [number[]]
    ? readonly (number | `${number}`)[] | string
    : [T] extends [boolean]
      ? boolean | '' | 'true' | 'false'
      : T;

/** seqLen → seq-len: a property's name as its attribute's. */
export type KebabCase<Name extends string> = Name extends `${infer First}${infer Rest}`
  ? `${First extends Lowercase<First> ? First : `-${Lowercase<First>}`}${KebabCase<Rest>}`
  : Name;

/** The settings every element has: theme and controls. */
export interface PosencBaseSettings {
  theme: 'system' | 'light' | 'dark';
  controls: boolean;
}

/** An element's settings in a template: as properties (camelCase) and as attributes (kebab-case). */
export type PosencSettingProps<Settings> = {
  [Name in keyof (Settings & PosencBaseSettings)]?: PassedSetting<(Settings & PosencBaseSettings)[Name]>;
} & {
  [Name in keyof (Settings & PosencBaseSettings) & string as KebabCase<Name>]?: PassedSetting<
    (Settings & PosencBaseSettings)[Name]
  >;
};

export type PosencEventName = 'posenc-change' | 'posenc-pick' | 'posenc-invalid';

/** posenc-change → posencChange. */
export type CamelCase<Name extends string> = Name extends `${infer First}-${infer Rest}`
  ? `${First}${Capitalize<CamelCase<Rest>>}`
  : Name;

/**
 * An element's events as a template attaches them: `on` and the event's name (onposenc-change={…}:
 * React 19, Preact, Svelte 5; Solid's on:posenc-change with the prefix 'on:'), the listener getting
 * the DOM event.
 */
export type PosencEventProps<Settings extends PosencSettings, Pick extends PosencPick, Prefix extends string = 'on'> = {
  [Name in PosencEventName as `${Prefix}${Name}`]?: (event: PosencEventMap<Settings, Pick>[Name]) => void;
};

/** The same events as Vue's templates name them: @posenc-change is the prop onPosencChange. */
export type PosencVueEventProps<Settings extends PosencSettings, Pick extends PosencPick> = {
  [Name in PosencEventName as `on${Capitalize<CamelCase<Name>>}`]?: (
    event: PosencEventMap<Settings, Pick>[Name],
  ) => void;
};

/** The attributes of any HTML element that a page most often puts on a posenc element. */
export interface PosencHostAttributes {
  id?: string;
  class?: string;
  className?: string;
  style?: string | object;
  slot?: string;
  hidden?: boolean;
  title?: string;
  part?: string;
  role?: string;
  tabindex?: number | `${number}`;
  [data: `data-${string}`]: string | number | boolean | undefined;
  [aria: `aria-${string}`]: string | number | boolean | undefined;
}

type SettingsOf<Tag extends PosencTag> = PosencElementTypes[Tag]['settings'];
type PickOf<Tag extends PosencTag> = PosencElementTypes[Tag]['pick'];

/** A tag's settings and events in a template (what a framework's own attributes come beside). */
export type PosencProps<Tag extends PosencTag> = PosencSettingProps<SettingsOf<Tag>> &
  PosencEventProps<SettingsOf<Tag>, PickOf<Tag>>;

/** A tag in a template with no framework types of its own to add: its props and the common attributes. */
export type PosencElementProps<Tag extends PosencTag> = PosencProps<Tag> &
  PosencHostAttributes & {
    /** Preact's ref (a callback or an object) and Solid's (a callback, or the variable it assigns). */
    ref?:
      | ((element: PosencElementTypes[Tag]['element'] | null) => void)
      | { current: PosencElementTypes[Tag]['element'] | null }
      | PosencElementTypes[Tag]['element']
      | null;
    children?: unknown;
  };

/** Every tag, for a framework's IntrinsicElements (Svelte's, Preact's). */
export type PosencIntrinsicElements = { [Tag in PosencTag]: PosencElementProps<Tag> };

/** Every tag for Solid: the same, and the events also as on:posenc-change. */
export type PosencSolidIntrinsicElements = {
  [Tag in PosencTag]: PosencElementProps<Tag> & PosencEventProps<SettingsOf<Tag>, PickOf<Tag>, 'on:'>;
};

/** A tag's props in Vue's templates (settings, common attributes, Vue's event props). */
export type PosencVueProps<Tag extends PosencTag> = PosencSettingProps<SettingsOf<Tag>> &
  PosencHostAttributes &
  PosencVueEventProps<SettingsOf<Tag>, PickOf<Tag>>;

/** A tag as Vue's GlobalComponents takes it: a component whose props are the tag's. */
export type PosencVueComponent<Tag extends PosencTag> = new () => { $props: PosencVueProps<Tag> };

// React's block below names React's own types (its attributes and refs, per element). Where React
// is not installed, the augmentation has nothing to add to and those names resolve to these
// stand-ins instead: a project without React still type-checks these declarations, skipLibCheck off.
type DetailedHTMLProps<Attributes, _Element> = Attributes;
type HTMLAttributes<_Element> = PosencHostAttributes;

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'posenc-pe-heatmap': DetailedHTMLProps<HTMLAttributes<PeHeatmap>, PeHeatmap> & PosencProps<'posenc-pe-heatmap'>;
      'posenc-rope-heatmap': DetailedHTMLProps<HTMLAttributes<RopeHeatmap>, RopeHeatmap> &
        PosencProps<'posenc-rope-heatmap'>;
      'posenc-vectors-2d': DetailedHTMLProps<HTMLAttributes<Vectors2d>, Vectors2d> & PosencProps<'posenc-vectors-2d'>;
      'posenc-worked-example': DetailedHTMLProps<HTMLAttributes<WorkedExample>, WorkedExample> &
        PosencProps<'posenc-worked-example'>;
      'posenc-attention': DetailedHTMLProps<HTMLAttributes<Attention>, Attention> & PosencProps<'posenc-attention'>;
      'posenc-wavelengths': DetailedHTMLProps<HTMLAttributes<Wavelengths>, Wavelengths> &
        PosencProps<'posenc-wavelengths'>;
      'posenc-rotation': DetailedHTMLProps<HTMLAttributes<Rotation>, Rotation> & PosencProps<'posenc-rotation'>;
      'posenc-compare': DetailedHTMLProps<HTMLAttributes<Compare>, Compare> & PosencProps<'posenc-compare'>;
    }
  }
}

// Solid's compiler reads JSX from solid-js/jsx-runtime (jsxImportSource: 'solid-js').
declare module 'solid-js/jsx-runtime' {
  namespace JSX {
    interface IntrinsicElements extends PosencSolidIntrinsicElements {}
  }
}

declare module 'vue' {
  interface GlobalComponents {
    'posenc-pe-heatmap': PosencVueComponent<'posenc-pe-heatmap'>;
    'posenc-rope-heatmap': PosencVueComponent<'posenc-rope-heatmap'>;
    'posenc-vectors-2d': PosencVueComponent<'posenc-vectors-2d'>;
    'posenc-worked-example': PosencVueComponent<'posenc-worked-example'>;
    'posenc-attention': PosencVueComponent<'posenc-attention'>;
    'posenc-wavelengths': PosencVueComponent<'posenc-wavelengths'>;
    'posenc-rotation': PosencVueComponent<'posenc-rotation'>;
    'posenc-compare': PosencVueComponent<'posenc-compare'>;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'posenc-pe-heatmap': PeHeatmap;
    'posenc-rope-heatmap': RopeHeatmap;
    'posenc-vectors-2d': Vectors2d;
    'posenc-worked-example': WorkedExample;
    'posenc-attention': Attention;
    'posenc-wavelengths': Wavelengths;
    'posenc-rotation': Rotation;
    'posenc-compare': Compare;
  }
  interface HTMLElementEventMap {
    'posenc-change': CustomEvent<PosencChange>;
    'posenc-pick': CustomEvent<PosencPick | null>;
    'posenc-invalid': CustomEvent<PosencInvalid>;
  }
  /** Svelte 5's template types (svelte-check): the tags and their props. */
  namespace svelteHTML {
    interface IntrinsicElements extends PosencIntrinsicElements {}
  }
  /** Preact's JSX (its global `preact` namespace). */
  namespace preact.JSX {
    interface IntrinsicElements extends PosencIntrinsicElements {}
  }
}
