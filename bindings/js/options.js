// Every option of every public function, once: its kind, its default and whether it is required.
// snapshot.js reads options by these schemas; specs.js turns snapshots into the core's operands;
// the type declarations and docs/api.md list the same keys (a test checks that they agree).
import {
  copyIntegers,
  copyList,
  copyNumbers,
  isIntegerList,
  isOptionsObject,
  readBoolean,
  readChoice,
  readNumber,
  readObject,
  readSize,
  snapshot,
} from './snapshot.js';
import { describe, rangeError, typeError } from './errors.js';
import { resolveAttentionScores, resolveCacheRotary } from './specs.js';

// Every field own (no prototype lookups): { read(fn, name, value, context), required, fallback, core }.
const required = (read, rule = true) => ({
  __proto__: null,
  read,
  required: rule,
  fallback: undefined,
  core: undefined,
});
const optional = (read, fallback) => ({ __proto__: null, read, required: false, fallback, core: undefined });
/**
 * An option whose default is the core's (include/posenc/defaults.h): `slot` names it in the
 * module's description (context.defaults), so the JS layer never writes the value itself.
 */
const fromCore = (read, slot) => ({ __proto__: null, read, required: false, fallback: undefined, core: slot });

const size = readSize;
const number = readNumber;
const boolean = readBoolean;
const choice = (enumName) => (fn, name, value, context) => readChoice(fn, name, value, context.enums[enumName]);
// A list option's most elements come from the core's limits (context.limits: the instance's, or
// those fromHfConfig knows), checked before the list is read.
/** Positions: at most M-RoPE's three rows of batch · seqLen <= maxSeqLen. */
const positions = (fn, name, value, context) => copyIntegers(fn, name, value, 3 * context.limits.maxSeqLen);
/** One offset for every sequence, or (rope functions) a list of one offset per sequence. */
const batchOffset = (fn, name, value, context) =>
  typeof value !== 'number' && isIntegerList(fn, name, value)
    ? copyIntegers(fn, name, value, context.limits.maxElements)
    : readSize(fn, name, value);
/** A list of one number per rotary pair (LongRoPE's factors). */
const perPair = (fn, name, value, context) => copyNumbers(fn, name, value, context.limits.maxDim / 2);
/** A list of exactly three (the exact check follows the copy). */
const triple = (copy) => (fn, name, value) => copy(fn, name, value, 3);
/** A string, checked against a list that depends on other options (specs.js). */
const text = (fn, name, value) => {
  if (typeof value !== 'string') throw typeError(fn, name, `must be a string (got ${describe(value)})`);
  return value;
};
/** A Float32Array or WasmArray: classified (memory.js) once the whole snapshot is taken. */
const array = (_fn, _name, value) => value;
const pair = (first, second) => (fn, name, value, context) => {
  if (!isOptionsObject(fn, name, value))
    throw typeError(fn, name, `must be an object { ${first}, ${second} } (got ${describe(value)})`);
  return readObject(fn, name, value, { [first]: required(array), [second]: required(array) }, context);
};

// ---- long-context scaling: Hugging Face's rope_scaling keys in camelCase --------------------------

export const SCALING_VALUES = {
  type: required(choice('scalingType')),
  factor: optional(number),
  originalMaxPositionEmbeddings: optional(size),
  maxPositionEmbeddings: optional(size),
  attentionFactor: optional(number),
  betaFast: optional(number),
  betaSlow: optional(number),
  mscale: optional(number),
  mscaleAllDim: optional(number),
  truncate: optional(boolean),
  lowFreqFactor: optional(number),
  highFreqFactor: optional(number),
  shortFactor: optional(perPair),
  longFactor: optional(perPair),
  partialRotaryFactor: optional(number), // proportional's own (not the top-level option)
};

/** The keys of each scaling type, [required, optional]. (Numeric rules are the core's.) */
export const SCALING_KEYS = {
  default: [[], []],
  linear: [['factor'], []],
  dynamic: [['factor', 'originalMaxPositionEmbeddings'], []],
  yarn: [
    ['factor', 'originalMaxPositionEmbeddings'],
    ['betaFast', 'betaSlow', 'attentionFactor', 'mscale', 'mscaleAllDim', 'truncate'],
  ],
  llama3: [['factor', 'lowFreqFactor', 'highFreqFactor', 'originalMaxPositionEmbeddings'], []],
  longrope: [
    ['shortFactor', 'longFactor', 'originalMaxPositionEmbeddings'],
    ['factor', 'maxPositionEmbeddings', 'attentionFactor'],
  ],
  proportional: [[], ['factor', 'partialRotaryFactor']],
};

/** The `scaling` option: a snapshot holding the keys of its type only (lists as Float64Arrays). */
function scaling(fn, name, value, context) {
  const example = "such as { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 32768 }";
  if (value === null || typeof value !== 'object') throw typeError(fn, name, `must be an object ${example}`);
  const given = snapshot(fn, value, SCALING_VALUES, context, name);
  const [needed, allowed] = SCALING_KEYS[given.type];
  const known = ['type', ...needed, ...allowed];
  for (const key of Object.keys(SCALING_VALUES)) {
    if (given[key] === undefined) continue;
    if (!known.includes(key)) {
      throw typeError(
        fn,
        name,
        `has an unknown key ${JSON.stringify(key)} for ${given.type} scaling (known: ${known.join(', ')})`,
      );
    }
  }
  for (const key of needed) {
    if (given[key] === undefined) throw typeError(fn, `${name}.${key}`, `is required for ${given.type} scaling`);
  }
  if (
    given.type === 'longrope' &&
    [given.factor, given.maxPositionEmbeddings, given.attentionFactor].every((v) => v === undefined)
  ) {
    throw typeError(
      fn,
      `${name}.maxPositionEmbeddings`,
      'is required for longrope scaling unless factor or attentionFactor is given ' +
        '(the attention factor comes from maxPositionEmbeddings / originalMaxPositionEmbeddings)',
    );
  }
  return given;
}

// ---- xPos: { scaleBase, gamma, role, center } -------------------------------------------------------

/** Who xPos scales: queries up, keys down (the core's enum also has 'none', which is not a choice). */
const XPOS_ROLES = ['query', 'key'];
const xposRole = (fn, name, value) => readChoice(fn, name, value, XPOS_ROLES);
const XPOS_VALUES = {
  scaleBase: fromCore(number, 'xposScaleBase'),
  gamma: fromCore(number, 'xposGamma'),
  role: optional(xposRole),
  center: optional(number), // an integer (the core's rule); default: ceil((largest position + 1) / 2)
};

/**
 * The `xpos` option (numeric rules: the core's). rope rotates one tensor, so it needs the role;
 * ropeQK implies the roles (queries up, keys down), and a plan takes its role per apply().
 */
function xpos(fn, name, value, context) {
  if (!isOptionsObject(fn, name, value))
    throw typeError(fn, name, `must be an object { scaleBase?, gamma?, role, center? } (got ${describe(value)})`);
  const given = snapshot(fn, value, XPOS_VALUES, context, name);
  if (fn === 'rope' && given.role === undefined)
    throw typeError(fn, `${name}.role`, "is required by rope: 'query' (scaled up) or 'key' (scaled down)");
  if (fn !== 'rope' && given.role !== undefined) {
    const where =
      fn === 'ropeQK' || fn === 'attentionScores'
        ? `${fn} scales queries up and keys down`
        : 'a plan takes it per call: plan.apply(x, { role }) (applyQK implies it)';
    throw typeError(fn, `${name}.role`, `is not taken here: ${where}`);
  }
  return given;
}

// ---- M-RoPE: { section: [t, h, w], interleaved? } ------------------------------------------------

const MROPE = { section: required(triple(copyIntegers)), interleaved: optional(boolean, false) };

/** The `mrope` option: three section sizes (numeric rules: the core's) and the Qwen3-VL order. */
function mrope(fn, name, value, context) {
  const example = 'such as { section: [16, 24, 24] } (Qwen2-VL) or { section: [24, 20, 20], interleaved: true }';
  if (!isOptionsObject(fn, name, value)) throw typeError(fn, name, `must be an object ${example}`);
  const given = readObject(fn, name, value, MROPE, context);
  if (given.section.length !== 3) {
    throw rangeError(fn, `${name}.section`, `must be [t, h, w], 3 integers (got ${given.section.length})`);
  }
  return given;
}

// ---- the functions' options ----------------------------------------------------------------------

const base = fromCore(number, 'base');
// The arrays' element type (dtype.js); not given, the arrays say it (float32 when none does).
const dtype = optional(choice('dtype'));
const TABLE = {
  seqLen: required(size),
  dModel: required(size),
  base,
  layout: optional(choice('sinusoidalLayout'), 'interleaved'),
  offset: optional(size),
  positions: optional(positions),
  dtype,
};
// `layout` says which channels a pair occupies; schedules and caches hold one value per pair, so
// they check it (a model's rope options pass unchanged) and do not use it.
const pairLayout = optional(choice('ropeLayout'));
// `mrope` likewise: M-RoPE picks each pair's position from one of three rows; a pair's frequency,
// and the cos/sin of a position, are the same.
const pairMrope = optional(mrope);
const SCHEDULE = {
  rotaryDim: optional(size),
  headDim: optional(size),
  partialRotaryFactor: optional(number),
  base,
  layout: pairLayout,
  mrope: pairMrope,
  scaling: optional(scaling),
  seqLen: optional(size, 0),
};
const ROPE = {
  seqLen: required(size),
  numHeads: optional(size, 1),
  headDim: required(size),
  layout: optional(choice('ropeLayout'), 'interleaved'),
  rotaryDim: optional(size),
  partialRotaryFactor: optional(number),
  base,
  scaling: optional(scaling),
  batch: optional(size, 1),
  order: optional(choice('order'), 'tokens'),
  inverse: optional(boolean, false),
  xpos: optional(xpos),
  mrope: optional(mrope),
  dtype,
};
const ROWS = { offset: optional(batchOffset), positions: optional(positions) };
const LAYOUT_CONVERSION = {
  from: required(choice('ropeLayout'), "('interleaved' or 'half')"),
  to: required(choice('ropeLayout'), "('interleaved' or 'half')"),
  headDim: required(size),
  rotaryDim: optional(size),
  out: optional(array),
};

// ---- M-RoPE segments: { text: n } | { image: [t, h, w] } | { video: [t, h, w], secondsPerGrid? } ----

const SEGMENT = {
  text: optional(number),
  image: optional(triple(copyNumbers)),
  video: optional(triple(copyNumbers)),
  secondsPerGrid: optional(number),
};
/** A segment row's kind (mrope_positions.h MropeSegmentKind), by its key. */
export const SEGMENT_KINDS = ['text', 'image', 'video'];
/** Fields per row of the segment table (kMropeSegmentFields). */
export const SEGMENT_FIELDS = 5;

/** One segment, read once: [kind, t or tokens, h, w, secondsPerGrid or NaN] (numeric rules: the core's). */
function segment(fn, name, value, context) {
  const example = '{ text: n }, { image: [t, h, w] } or { video: [t, h, w], secondsPerGrid? }';
  if (!isOptionsObject(fn, name, value))
    throw typeError(fn, name, `must be an object ${example} (got ${describe(value)})`);
  const s = snapshot(fn, value, SEGMENT, context, name);
  const kinds = SEGMENT_KINDS.filter((kind) => s[kind] !== undefined);
  if (kinds.length !== 1) {
    throw typeError(
      fn,
      name,
      `must have exactly one of text, image, video (got ${kinds.length > 0 ? kinds.join(', ') : 'none'})`,
    );
  }
  const [kind] = kinds;
  if (s.secondsPerGrid !== undefined && kind !== 'video') {
    throw typeError(fn, `${name}.secondsPerGrid`, `is a video's (this segment is ${kind})`);
  }
  if (Number.isNaN(s.secondsPerGrid)) {
    // NaN is the table's "not given": a given NaN is refused here (the core's other rules there)
    throw rangeError(fn, `${name}.secondsPerGrid`, 'must be a finite number >= 0 (got NaN)');
  }
  if (kind === 'text') return [0, s.text, 0, 0, Number.NaN];
  const grid = s[kind];
  if (grid.length !== 3) {
    throw rangeError(fn, `${name}.${kind}`, `must be [t, h, w], 3 numbers (got ${grid.length})`);
  }
  return [SEGMENT_KINDS.indexOf(kind), grid[0], grid[1], grid[2], s.secondsPerGrid ?? Number.NaN];
}

/** The segment list as the core's flat float64 table, SEGMENT_FIELDS numbers per segment. */
function segments(fn, name, value, context) {
  const max = Math.floor(context.limits.maxElements / SEGMENT_FIELDS); // the table is one array
  const rows = copyList(fn, name, value, (f, n, v) => segment(f, n, v, context), max);
  return Float64Array.from(rows.flat());
}

/** The bytes of a .wasm file: an ArrayBuffer or a view of one. */
function bytes(fn, name, value) {
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return value;
  throw typeError(fn, name, `must be an ArrayBuffer or a typed array of the .wasm bytes (got ${describe(value)})`);
}

/** A compiled WebAssembly.Module (from any realm: a worker receives a structured clone). */
function wasmModule(fn, name, value) {
  if (Object.prototype.toString.call(value) === '[object WebAssembly.Module]') return value;
  throw typeError(
    fn,
    name,
    `must be a WebAssembly.Module, e.g. posenc.module of a loaded instance (got ${describe(value)})`,
  );
}

function callback(fn, name, value) {
  if (typeof value === 'function') return value;
  throw typeError(fn, name, `must be a function (file name) => URL or string (got ${describe(value)})`);
}

export const OPTIONS = {
  loadPosenc: {
    simd: optional(boolean),
    wasmBinary: optional(bytes),
    module: optional(wasmModule),
    locateWasm: optional(callback),
    inlineFallback: optional(boolean),
  },
  sinusoidal: { ...TABLE, out: optional(array) },
  addSinusoidal: TABLE,
  allocate: { dtype },
  positionNumbers: {
    seqLen: required(size),
    dModel: required(size),
    offset: optional(size, 0),
    dtype,
    out: optional(array),
  },
  ropeSchedule: SCHEDULE,
  ropeFrequencies: SCHEDULE,
  ropeCache: {
    seqLen: required(size),
    rotaryDim: optional(size), // default headDim (specs.js resolveCacheRotary)
    headDim: optional(size),
    base,
    layout: pairLayout,
    mrope: pairMrope,
    scaling: optional(scaling),
    batch: optional(size, 1),
    ...ROWS,
    dtype,
    out: optional(pair('cos', 'sin')),
  },
  rope: { ...ROPE, ...ROWS, out: optional(array) },
  ropeQK: { ...ROPE, numKvHeads: optional(size), ...ROWS, out: optional(pair('q', 'k')) },
  ropePlan: { ...ROPE, numKvHeads: optional(size) },
  'RopePlan.apply': { ...ROWS, role: optional(xposRole), out: optional(array) },
  'RopePlan.applyQK': { ...ROWS, out: optional(pair('q', 'k')) },
  convertLayout: LAYOUT_CONVERSION,
  convertLayoutWeights: { ...LAYOUT_CONVERSION, numHeads: required(size), hidden: required(size) },
  similarity: {
    rows: required(size),
    cols: required(size),
    dim: required(size),
    metric: optional(choice('metric'), 'dot'),
    out: optional(array),
  },
  mropePositions: {
    segments: required(segments),
    spatialMergeSize: optional(size, 2),
    model: optional(choice('mropeModel'), 'qwen2-vl'),
    tokensPerSecond: optional(size), // Qwen2.5-VL only; default 2 (specs.js)
  },
  // ALiBi. offset is any integer (the core checks its range); it defaults to keyLen - queryLen.
  alibiSlopes: { numHeads: required(size), maxBias: fromCore(number, 'maxBias') },
  alibiBias: {
    numHeads: required(size),
    queryLen: required(size),
    keyLen: required(size),
    offset: optional(number),
    maxBias: fromCore(number, 'maxBias'),
    out: optional(array),
  },
  ropeGrid: {
    rows: required(size),
    cols: required(size),
    numHeads: optional(size, 1),
    headDim: required(size),
    base,
    variant: required(choice('gridVariant'), "('pixtral' or 'axial')"),
    layout: optional(choice('ropeLayout')), // default: the variant's own (specs.js)
    order: optional(choice('order'), 'tokens'),
    batch: optional(size, 1),
    frames: optional(size, 1), // SAM 2's repeat_freqs_k: keys of several frames of the grid
    out: optional(array),
  },
  relativePositionBuckets: {
    queryLen: required(size),
    keyLen: required(size),
    numBuckets: fromCore(size, 'numBuckets'),
    maxDistance: fromCore(size, 'maxDistance'),
    bidirectional: optional(boolean, true),
    offset: optional(size, 0),
    out: optional(array), // an Int32Array (memory.js int32Argument)
  },
  // Options of one encoding only are refused with another (specs.js ATTENTION_ENCODING_OPTIONS);
  // their defaults (the core's base, maxBias and T5's buckets; layout 'interleaved') are set there too.
  attentionScores: {
    queryLen: required(size),
    keyLen: required(size),
    headDim: required(size),
    numHeads: optional(size, 1),
    encoding: required(choice('attentionEncoding')),
    order: optional(choice('order'), 'heads'),
    offset: optional(number), // default keyLen - queryLen
    scale: optional(number), // default 1 / sqrt(headDim)
    causal: optional(boolean, false),
    softmax: optional(boolean, false),
    base: optional(number),
    layout: optional(text), // the encoding's: sinusoidal or rope layout names
    rotaryDim: optional(size),
    partialRotaryFactor: optional(number),
    scaling: optional(scaling),
    xpos: optional(xpos),
    maxBias: optional(number),
    bias: optional(array),
    numBuckets: optional(size),
    maxDistance: optional(size),
    bidirectional: optional(boolean),
    out: optional(array),
  },
};

/** Defaults that come from another option, resolved once the snapshot is taken (specs.js). */
const RESOLVE = { __proto__: null, ropeCache: resolveCacheRotary, attentionScores: resolveAttentionScores };

/** The snapshot of a public function's options (see snapshot.js). */
export function readOptions(fn, options, context) {
  const o = snapshot(fn, options, OPTIONS[fn], context);
  return RESOLVE[fn] ? RESOLVE[fn](fn, o, context) : o;
}
