import { isArray, typedArrayKind, typedArrayParts } from './intrinsics.js';
import { arrayShape, formatShape, lengthHint } from './shapes.js';

// Errors that name the function, the parameter and the rule: TypeError for a wrong kind of
// value, RangeError for a value outside the rules. The rules themselves live in the C++ core,
// which returns a status code; which parameter each code names comes from the module
// (seam.js). This file only words them.

/** A plain data field, defined (an inherited setter from Object.prototype pollution never runs). */
const field = (value) => ({ __proto__: null, value, writable: true, enumerable: true, configurable: true });

/** The error posenc throws: `error.function` and `error.parameter` say where. */
function decorate(error, fn, parameter) {
  return Object.defineProperties(error, { __proto__: null, function: field(fn), parameter: field(parameter) });
}

export function typeError(fn, parameter, rule, options) {
  return decorate(new TypeError(`posenc.${fn}: ${parameter} ${rule}`, options), fn, parameter);
}

export function rangeError(fn, parameter, rule) {
  return decorate(new RangeError(`posenc.${fn}: ${parameter} ${rule}`), fn, parameter);
}

/** A build that could not be found, read or compiled: no parameter is at fault. */
export function loadError(fn, message, cause) {
  return decorate(new Error(`posenc.${fn}: ${message}`, { cause }), fn, undefined);
}

/** Using a WasmArray or RopePlan after free(): the object itself (`this`) is the bad argument. */
export function freedError(fn, what) {
  return decorate(new RangeError(`posenc.${fn}: the ${what} was already freed`), fn, 'this');
}

/** What the caller's own code threw while posenc read a parameter (a getter, a Proxy trap). */
export function readError(fn, parameter, cause) {
  const what = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
  return typeError(fn, parameter, `could not be read (${what})`, { cause });
}

/** What holds each dtype's data, for the errors of dtype.js. */
const DTYPE_HOLDERS = {
  __proto__: null,
  float32: 'a Float32Array or a float32 WasmArray',
  float16: 'a Float16Array, a Uint16Array of its bits, or a float16 WasmArray',
  bfloat16: 'a Uint16Array of its bits, or a bfloat16 WasmArray',
};

/** An array argument as words: "a Float16Array", "a bfloat16 WasmArray", "an Array of numbers". */
function arrayWords(argument) {
  if (argument.kind === 'WasmArray') return `a ${argument.dtype} WasmArray`;
  return argument.kind === 'Array' ? 'an Array of numbers' : `a ${argument.kind}`;
}

/**
 * The TypeError for an array whose element type is not its call's dtype (dtype.js): `by` is
 * what set the dtype, 'dtype' (the option), 'plan' (a RopePlan's), 'WasmArray' (set()'s array)
 * or another argument of the call (undefined: nothing did). A Uint16Array needs a declared dtype:
 * another array's does not say what its bits are. `argument`
 * is { name, kind, dtype } (a memory.js Argument, or values for a WasmArray).
 */
export function dtypeConflictError(fn, argument, dtype, by) {
  const name = argument.name;
  if (argument.dtype === undefined && typeof by !== 'string') {
    // a Uint16Array and no dtype given (another array's does not say what these bits are)
    return typeError(
      fn,
      name,
      "is a Uint16Array without a dtype: its 16-bit patterns may be float16 or bfloat16, so give dtype: 'float16' or 'bfloat16' (a Float16Array or a WasmArray says its own)",
    );
  }
  const own = argument.dtype === undefined ? 'a Uint16Array' : `${arrayWords(argument)} (${argument.dtype})`;
  const holders = `${dtype} data is ${DTYPE_HOLDERS[dtype]}`;
  if (by === 'dtype') return typeError(fn, name, `is ${own}, but dtype is '${dtype}' (${holders})`);
  if (by === 'plan') return typeError(fn, name, `is ${own}, but the plan's dtype is '${dtype}' (${holders})`);
  if (by === 'WasmArray') return typeError(fn, name, `are ${own}, but the WasmArray holds ${dtype} (${holders})`);
  return typeError(
    fn,
    name,
    `is ${own}, but ${by.name} is ${arrayWords(by)} (${dtype}): the arrays of one call share one dtype`,
  );
}

/** The TypeError for a half-precision array given to an operation that computes in float32 only. */
export function float32OnlyError(fn, argument) {
  const own = argument.dtype === undefined ? 'a Uint16Array' : `${arrayWords(argument)} (${argument.dtype})`;
  return typeError(fn, argument.name, `is ${own}, but ${fn} computes in float32 only (${DTYPE_HOLDERS.float32})`);
}

/** Describes a value for messages without dumping large arrays. Runs no user code. */
export function describe(value) {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
    case 'bigint':
      return `${value}n (a BigInt)`;
    case 'number':
    case 'boolean':
    case 'undefined':
      return String(value);
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    default: {
      const kind = typedArrayKind(value);
      if (kind !== undefined) return `a ${kind} of length ${typedArrayParts(value).length}`;
      try {
        return isArray(value) ? 'an Array' : 'an object';
      } catch {
        return 'a revoked Proxy';
      }
    }
  }
}

// The wording of each rule, by status name. `c` holds limits, fn, parameter (the one the status
// names), given(name) (the caller's value of a parameter), givenLength (of the array the status
// names), expected (the length the core wanted) and source (the option a parameter the caller
// did not give came from, e.g. headDim for rotaryDim).

/** A length against the shape, printed in the caller's options, with a guess at what is off. */
function lengthRule(c) {
  const dims = arrayShape(c.fn, c.parameter, c.given, c.expected);
  if (!dims) return `must hold ${c.expected} elements for the given shape (got ${c.givenLength})`;
  const owner = c.fn.startsWith('RopePlan.') ? "the plan's " : ''; // its shape is the plan's options
  return `must hold ${owner}${formatShape(dims)} = ${c.expected} elements (got ${c.givenLength}${lengthHint(dims, c.expected, c.givenLength)})`;
}
/** The option that counts the rows an offset starts: the queries where there are keys too. */
const rowsOption = (fn) => (fn === 'relativePositionBuckets' || fn === 'attentionScores' ? 'queryLen' : 'seqLen');
const WORDS = {
  __proto__: null, // a status name never finds wording inherited from Object.prototype
  seqLenTooLarge: (c) => `must be at most ${c.limits.maxSeqLen}`,
  dModelOdd: () => 'must be even (sin and cos come in pairs)',
  dModelTooSmall: (c) => `must be at least ${c.fn === 'positionNumbers' ? 1 : 2}`,
  dModelTooLarge: (c) => `must be at most ${c.limits.maxDim}`,
  headDimTooSmall: (c) =>
    c.fn === 'attentionScores' && c.given('encoding') !== 'rope' ? 'must be at least 1' : 'must be at least 2',
  headDimTooLarge: (c) => `must be at most ${c.limits.maxDim}`,
  numHeadsTooSmall: () => 'must be at least 1',
  numHeadsTooLarge: (c) => `must be at most ${c.limits.maxDim}`,
  rotaryDimOdd: () => 'must be even (channels rotate in pairs)',
  rotaryDimTooSmall: () => 'must be at least 2',
  rotaryDimTooLarge: (c) =>
    c.given('headDim') !== undefined && c.source === undefined
      ? 'must be at most headDim'
      : `must be at most ${c.limits.maxDim}`,
  baseInvalid: () => 'must be a finite number greater than 0, and not so small that position · frequency overflows',
  offsetTooLarge: (c) => `plus ${rowsOption(c.fn)} - 1 must be at most ${c.limits.maxPosition}`,
  positionOutOfRange: (c) => `must hold integers in [0, ${c.limits.maxPosition}]`,
  layoutInvalid: () => 'is not a known layout',
  metricInvalid: () => "must be 'dot' or 'cosine'",
  rowsTooLarge: (c) => `must be at most ${c.limits.maxSeqLen}`,
  colsTooLarge: (c) => `must be at most ${c.limits.maxSeqLen}`,
  dimTooSmall: () => 'must be at least 1',
  dimTooLarge: (c) => `must be at most ${c.limits.maxDim}`,
  sizeTooLarge: (c) => `must describe at most ${c.limits.maxElements} elements per array`,
  nullPointer: () => 'is missing',
  scalingOverflow: () =>
    'makes an angle or the attention factor overflow (e.g. subnormal betas or factors, or a factor beyond 2^53)',
  outOfMemory: () => 'ran out: WASM memory could not grow for the scratch space this call needs',
  batchTooLarge: (c) => `times seqLen must be at most ${c.limits.maxSeqLen}`,
  numKvHeadsTooSmall: () => 'must be at least 1',
  numKvHeadsTooLarge: (c) => `must be at most ${c.limits.maxDim}`,
  orderInvalid: () => "must be 'tokens' or 'heads'",
  offsetNegative: () => 'must hold integers >= 0',
  partialRotaryFactorInvalid: () => 'must be in (0, 1] and make int(headDim * partialRotaryFactor) an even number >= 2',
  hiddenTooSmall: () => 'must be at least 1',
  scalingTypeInvalid: () => 'is not a known scaling type',
  scalingFactorInvalid: () => 'must be a finite number >= 1',
  originalMaxPositionInvalid: () => 'must be at least 2',
  maxPositionEmbeddingsInvalid: () => 'must be at least originalMaxPositionEmbeddings',
  attentionFactorInvalid: () =>
    'must be a finite number greater than 0 and at most 3.4028234663852886e38 (cos and sin times it are float32)',
  betaFastInvalid: () => 'must be a finite number greater than 0 and at least betaSlow',
  betaSlowInvalid: () => 'must be a finite number greater than 0',
  mscaleInvalid: () => 'must be a finite number >= 0',
  mscaleAllDimInvalid: () => 'must be a finite number >= 0',
  lowFreqFactorInvalid: () => 'must be a finite number greater than 0',
  highFreqFactorInvalid: () => 'must be a finite number no less than lowFreqFactor',
  shortFactorLength: () => 'must hold rotaryDim / 2 numbers, one per rotary pair',
  longFactorLength: () => 'must hold rotaryDim / 2 numbers, one per rotary pair',
  shortFactorInvalid: () => 'must hold finite numbers greater than 0',
  longFactorInvalid: () => 'must hold finite numbers greater than 0',
  dynamicRotaryDimTooSmall: () => 'must be at least 4 with dynamic scaling (its base grows by a power d / (d - 2))',
  yarnBaseInvalid: () => 'must not be 1 with yarn scaling (its correction range divides by ln(base))',
  xLength: (c) =>
    c.fn === 'convertLayout'
      ? `must hold whole head vectors: a multiple of headDim = ${c.given('headDim')} elements (got ${c.givenLength})`
      : lengthRule(c),
  outLength: (c) =>
    c.fn === 'convertLayout' ? `must hold as many elements as x: ${c.expected} (got ${c.givenLength})` : lengthRule(c),
  qLength: lengthRule,
  kLength: lengthRule,
  outQLength: lengthRule,
  outKLength: lengthRule,
  outCosLength: lengthRule,
  outSinLength: lengthRule,
  aLength: lengthRule,
  bLength: lengthRule,
  wLength: lengthRule,
  positionsLength: (c) =>
    `must hold ${c.given('mrope') ? '3 × ' : ''}${c.given('batch') > 1 ? 'batch × seqLen' : 'seqLen'} = ${c.expected} positions${c.given('mrope') ? ' (M-RoPE: the t row, then h, then w)' : ''} (got ${c.givenLength})`,
  offsetsLength: (c) => `must hold batch = ${c.expected} offsets, one per sequence (got ${c.givenLength})`,
  proportionInvalid: () => 'must be a number in [0, 1] (the share of pairs that turn in proportional scaling)',
  segmentKindInvalid: () => 'must be { text }, { image } or { video }',
  segmentTextInvalid: (c) => `must be an integer in [0, ${c.limits.maxSeqLen}] (a number of tokens)`,
  gridTInvalid: (c) => `(t, frames in patches) must be an integer in [1, ${c.limits.maxSeqLen}]`,
  gridHInvalid: () => '(h, in patches before the merge) must be a positive integer multiple of spatialMergeSize',
  gridWInvalid: () => '(w, in patches before the merge) must be a positive integer multiple of spatialMergeSize',
  secondsPerGridInvalid: () => 'must be a finite number >= 0',
  spatialMergeSizeInvalid: (c) => `must be an integer in [1, ${c.limits.maxDim}]`,
  mropeModelInvalid: () => "must be 'qwen2-vl' or 'qwen2.5-vl'",
  mropeTokensTooMany: (c) => `brings the prompt above ${c.limits.maxSeqLen} tokens`,
  mropePositionTooLarge: (c) =>
    `would give a position id above ${c.limits.maxPosition} (frames · int(secondsPerGrid) · tokensPerSecond too large)`,
  segmentsLength: () => 'must hold 5 numbers per segment',
  // ALiBi
  queryLenTooLarge: (c) => `must be at most ${c.limits.maxSeqLen}`,
  keyLenTooLarge: (c) => `must be at most ${c.limits.maxSeqLen}`,
  maxBiasInvalid: () => 'must be a finite number greater than 0',
  alibiOffsetInvalid: (c) => `must be an integer in [-${c.limits.maxPosition}, ${c.limits.maxPosition}]`,
  numBucketsTooSmall: (c) =>
    c.given('bidirectional') === false
      ? 'must be at least 2'
      : 'must be at least 4 when bidirectional (half the buckets are for each sign of the relative position)',
  numBucketsTooLarge: (c) => `must be at most ${c.limits.maxDim}`,
  // xPos
  xposScaleBaseInvalid: () => 'must be a finite number greater than 0',
  xposGammaInvalid: () => 'must be a finite number greater than 0 (0 would make pair 0 vanish or overflow)',
  xposRoleInvalid: () => "must be 'query' or 'key'",
  xposRoleMissing: () => "is required: 'query' (scaled up) or 'key' (scaled down)",
  xposRoleNotTaken: () => 'is not taken here (ropeQK implies the roles; without xpos there is no role)',
  xposCenterInvalid: (c) => `must be an integer in [0, ${c.limits.maxPosition}]`,
  xposDistanceTooLarge: (c) =>
    `must lie within ${c.expected} of the xPos center (ceil((largest position + 1) / 2) unless xpos.center is given): ` +
    `beyond it zeta_0^(±distance / scaleBase) leaves float32's normal range, for xpos.scaleBase ${c.given('xpos.scaleBase')} ` +
    `and xpos.gamma ${c.given('xpos.gamma')} (the limit is floor(scaleBase · ln(1 / FLT_MIN) / ln((1 + gamma) / gamma)) without an attention factor); ` +
    'give an xpos.center nearer to the positions or a larger xpos.scaleBase',
  // attention scores
  encodingInvalid: () => "must be 'none', 'sinusoidal', 'rope', 'alibi' or 't5'",
  scaleInvalid: () => 'must be a finite number',
  headDimOdd: () => "must be even for encoding 'sinusoidal' (sin and cos come in pairs)",
  encodedOffsetNegative: (c) =>
    `must be at least 0 for encoding '${c.given('encoding')}' (query row i is encoded at position offset + i)`,
  biasMissing: () => "is required for encoding 't5' (T5's relative_attention_bias weight, [numBuckets, numHeads])",
  biasUnused: (c) => `is read by encoding 't5' only (encoding is '${c.given('encoding')}')`,
  biasLength: lengthRule,
  // half precision
  dtypeInvalid: () => "must be 'float32', 'float16' or 'bfloat16'",
  dtypeMismatch: () =>
    "does not match the arrays' element type (float32 arrays for 'float32', 16-bit patterns for 'float16' and 'bfloat16')",
  maxDistanceTooSmall: (c) => {
    const half = c.given('bidirectional') === false ? c.given('numBuckets') : Math.floor(c.given('numBuckets') / 2);
    return `must be greater than maxExact = ${Math.floor(half / 2)} (half of the ${c.given('bidirectional') === false ? '' : 'halved '}numBuckets: log(maxDistance / maxExact) divides)`;
  },
  // Multi-axis RoPE
  mropeSectionInvalid: (c) => {
    const headDim = c.given('headDim');
    const factor = c.given('partialRotaryFactor');
    const rotaryDim = c.given('rotaryDim') ?? (factor === undefined ? headDim : Math.trunc(headDim * factor));
    const section = c.given('mrope')?.section;
    const got = section ? ` (got [${Array.from(section).join(', ')}])` : '';
    return c.given('mrope')?.interleaved
      ? `must sum to rotaryDim / 2 = ${rotaryDim / 2} pairs, with 3 · h - 2 and 3 · w - 1 below it (interleaved: h pairs at k % 3 = 1, w at k % 3 = 2)${got}`
      : `must sum to rotaryDim / 2 = ${rotaryDim / 2} pairs${got}`;
  },
  gridTooLarge: (c) => `times cols must be at most ${c.limits.maxSeqLen} patches`,
  gridVariantInvalid: () => "must be 'pixtral' or 'axial'",
  gridFramesTooLarge: (c) => `times rows · cols must be at most ${c.limits.maxSeqLen} tokens`,
  mropeWithXpos: () => 'cannot be combined with xpos: no model rotates by both (give one of them)',
  gridHeadDimInvalid: (c) =>
    c.given('variant') === 'axial'
      ? 'must be a multiple of 4 for axial 2-D RoPE (a quarter of the channels per axis, in complex pairs)'
      : 'must be an even number >= 4 for pixtral 2-D RoPE (rows and columns each take pairs)',
};

/** The exact sum or product of the caller's integers (undefined if one is missing), as text. */
function exactly(values, combine) {
  if (!values.every((v) => Number.isSafeInteger(v))) return undefined;
  return String(values.map(BigInt).reduce(combine));
}
const sum = (...values) => exactly(values, (a, b) => a + b);
const product = (...values) => exactly(values, (a, b) => a * b);

/** The largest of an offset: a number, or a list of one per sequence. */
function largest(offset) {
  if (typeof offset === 'number' || offset === undefined) return offset;
  let max = -Infinity;
  for (const value of offset) max = Math.max(max, value);
  return max;
}

/**
 * What a rule's "got" quotes where its sentence is about more than the parameter's own value:
 * "offset plus seqLen - 1 must be at most ..." is about the sum, "rows times cols ..." about the
 * product (text, exact). Any other rule quotes the parameter's value.
 */
const QUANTITIES = {
  __proto__: null,
  offsetTooLarge: (c) => sum(largest(c.given('offset')), c.given(rowsOption(c.fn)), -1),
  batchTooLarge: (c) => product(c.given('batch'), c.given('seqLen')),
  gridTooLarge: (c) => product(c.given('rows'), c.given('cols')),
  gridFramesTooLarge: (c) => product(c.given('frames'), c.given('rows'), c.given('cols')),
};

/**
 * How a rule broken by a parameter the caller did not give is told, by the option it came from
 * (operands.js sources): that option is the one named.
 */
const SOURCES = {
  __proto__: null,
  headDim: (rule, got) => `${rule} (got ${got}; rotaryDim defaults to headDim)`,
  keyLen: (rule, got) => `gives the default offset keyLen - queryLen, which ${rule} (keyLen is ${got}; give offset)`,
  partialRotaryFactor: (rule, got) =>
    `gives rotaryDim = int(headDim · partialRotaryFactor), which ${rule} (got ${got})`,
};

/**
 * The RangeError for a non-ok status of the core. `status` is { name, parameter } from the
 * module; `values` holds the caller's values by parameter name (givenValues); `sources` maps a
 * parameter the caller did not give to the option its value came from.
 */
export function statusError(status, { fn, limits, values, expected, sources }) {
  const words = WORDS[status.name];
  if (!words) return new Error(`posenc.${fn}: internal error (status ${status.name})`);
  const source = sources?.get(status.parameter);
  const parameter = SOURCES[source] ? source : status.parameter;
  const given = values[parameter];
  const array = given !== null && typeof given === 'object'; // an Argument (memory.js) or a private list
  const context = {
    fn,
    limits,
    expected,
    parameter,
    source,
    given: (name) => values[name],
    givenLength: array ? given.length : undefined,
  };
  const rule = words(context);
  if (parameter === source) return rangeError(fn, parameter, SOURCES[source](rule, describe(given)));
  const quantity = QUANTITIES[status.name]?.(context);
  let quoted = '';
  if (quantity !== undefined) quoted = ` (got ${quantity})`;
  else if (!(given === undefined || given === null || typeof given === 'object' || status.name.endsWith('Length')))
    quoted = ` (got ${describe(given)})`;
  return rangeError(fn, parameter, `${rule}${quoted}`);
}

/**
 * The caller's values by parameter name, for error messages: a plan's options, the snapshot's
 * options, the scaling and xpos keys as 'scaling.<key>' and 'xpos.<key>', and the array arguments.
 */
export function givenValues(o, args, shape) {
  const values = Object.create(null);
  for (const options of shape ? [shape, o] : [o]) {
    // a plan's own options, then the call's
    for (const [key, value] of Object.entries(options)) {
      if ((key === 'scaling' || key === 'xpos') && value)
        for (const [k, v] of Object.entries(value)) values[`${key}.${k}`] = v;
      else values[key] = value;
    }
  }
  if (args) for (const argument of Object.values(args)) if (argument) values[argument.name] = argument;
  return values;
}
/**
 * An error of the core about one segment (its parameter says segments[i], and grid for an
 * image's or video's [t, h, w]) named as the caller wrote it: segments[3].image[1], with the
 * value found there. `table` is the flat segment table (specs.js), `index` the segment.
 */
export function segmentError(error, table, index, kinds, fields) {
  const parameter = error.parameter;
  if (typeof parameter !== 'string' || !parameter.startsWith('segments[i]')) return error;
  const row = table.subarray(index * fields, (index + 1) * fields);
  const kind = kinds[row[0]] ?? 'grid';
  const named = parameter.replace('[i]', `[${index}]`).replace('.grid', `.${kind}`);
  const rule = error.message.slice(`posenc.${error.function}: ${parameter} `.length);
  const component = parameter.match(/grid\[(\d)\]$/);
  let value;
  if (component) value = row[1 + Number(component[1])];
  else if (parameter.endsWith('.text')) value = row[1];
  else if (parameter.endsWith('.secondsPerGrid')) value = row[4];
  return rangeError(error.function, named, value === undefined ? rule : `${rule} (got ${describe(value)})`);
}

/** The status names this file words, so a test can check it covers every code of the core. */
export const WORDED_STATUSES = Object.freeze(Object.keys(WORDS));
