// Turns the core's Status codes into errors that name the parameter and the rule.
// The rules themselves live in the C++ core (one place); this table only words them.

/** @type {Record<string, [string, (limits: any, fn: string, values: any) => string]>} */
const RULES = {
  seqLenTooLarge: ['seqLen', (l) => `must be at most ${l.maxSeqLen}`],
  dModelOdd: ['dModel', () => 'must be even (sin and cos come in pairs)'],
  dModelTooSmall: ['dModel', (l, fn) => `must be at least ${fn === 'positionNumbers' ? 1 : 2}`],
  dModelTooLarge: ['dModel', (l) => `must be at most ${l.maxDim}`],
  headDimTooSmall: ['headDim', () => 'must be at least 2'],
  headDimTooLarge: ['headDim', (l) => `must be at most ${l.maxDim}`],
  numHeadsTooSmall: ['numHeads', () => 'must be at least 1'],
  numHeadsTooLarge: ['numHeads', (l) => `must be at most ${l.maxDim}`],
  rotaryDimOdd: ['rotaryDim', () => 'must be even (channels rotate in pairs)'],
  rotaryDimTooSmall: ['rotaryDim', () => 'must be at least 2'],
  rotaryDimTooLarge: ['rotaryDim', (l, fn, v) => (v.headDim !== undefined ? 'must be at most headDim' : `must be at most ${l.maxDim}`)],
  baseInvalid: ['base', () => 'must be a finite number greater than 0, and not so small that position · frequency overflows'],
  offsetTooLarge: ['offset', (l) => `plus seqLen - 1 must be at most ${l.maxPosition}`],
  positionOutOfRange: ['positions', (l) => `must hold integers in [0, ${l.maxPosition}]`],
  layoutInvalid: ['layout', () => 'is not a known layout'],
  metricInvalid: ['metric', () => "must be 'dot' or 'cosine'"],
  rowsTooLarge: ['rows', (l) => `must be at most ${l.maxSeqLen}`],
  colsTooLarge: ['cols', (l) => `must be at most ${l.maxSeqLen}`],
  dimTooSmall: ['dim', () => 'must be at least 1'],
  dimTooLarge: ['dim', (l) => `must be at most ${l.maxDim}`],
  sizeTooLarge: ['shape', (l) => `must describe at most ${l.maxElements} elements per array`],
  nullPointer: ['array', () => 'is missing'],
  scalingOverflow: ['scaling', () => 'makes an angle or the attention factor overflow (e.g. subnormal betas or factors, or a factor beyond 2^53)'],
  outOfMemory: ['memory', () => 'ran out: WASM memory could not grow for the scratch space this call needs'],
  batchTooLarge: ['batch', (l) => `times seqLen must be at most ${l.maxSeqLen}`],
  numKvHeadsTooSmall: ['numKvHeads', () => 'must be at least 1'],
  numKvHeadsTooLarge: ['numKvHeads', (l) => `must be at most ${l.maxDim}`],
  orderInvalid: ['order', () => "must be 'tokens' or 'heads'"],
  offsetNegative: ['offset', () => 'must hold integers >= 0'],
  partialRotaryFactorInvalid: ['partialRotaryFactor', () => 'must be in (0, 1] and make int(headDim * partialRotaryFactor) an even number >= 2'],
  hiddenTooSmall: ['hidden', () => 'must be at least 1'],
  scalingTypeInvalid: ['scaling.type', () => 'is not a known scaling type'],
  scalingFactorInvalid: ['scaling.factor', () => 'must be a finite number >= 1'],
  originalMaxPositionInvalid: ['scaling.originalMaxPositionEmbeddings', () => 'must be at least 2'],
  maxPositionEmbeddingsInvalid: ['scaling.maxPositionEmbeddings', () => 'must be at least originalMaxPositionEmbeddings'],
  attentionFactorInvalid: ['scaling.attentionFactor', () => 'must be a finite number greater than 0'],
  betaFastInvalid: ['scaling.betaFast', () => 'must be a finite number greater than 0 and at least betaSlow'],
  betaSlowInvalid: ['scaling.betaSlow', () => 'must be a finite number greater than 0'],
  mscaleInvalid: ['scaling.mscale', () => 'must be a finite number >= 0'],
  mscaleAllDimInvalid: ['scaling.mscaleAllDim', () => 'must be a finite number >= 0'],
  lowFreqFactorInvalid: ['scaling.lowFreqFactor', () => 'must be a finite number greater than 0'],
  highFreqFactorInvalid: ['scaling.highFreqFactor', () => 'must be a finite number greater than lowFreqFactor'],
  shortFactorLength: ['scaling.shortFactor', () => 'must hold rotaryDim / 2 numbers, one per rotary pair'],
  longFactorLength: ['scaling.longFactor', () => 'must hold rotaryDim / 2 numbers, one per rotary pair'],
  shortFactorInvalid: ['scaling.shortFactor', () => 'must hold finite numbers greater than 0'],
  longFactorInvalid: ['scaling.longFactor', () => 'must hold finite numbers greater than 0'],
  dynamicRotaryDimTooSmall: ['rotaryDim', () => 'must be at least 4 with dynamic scaling (its base grows by a power d / (d - 2))'],
  yarnBaseInvalid: ['base', () => 'must not be 1 with yarn scaling (its correction range divides by ln(base))'],
};

/** Error thrown as `new RangeError(message)`/`TypeError` carries these extra fields. */
function decorate(error, fn, param) {
  error.function = fn;
  error.parameter = param;
  return error;
}

export function typeError(fn, param, rule) {
  return decorate(new TypeError(`posenc.${fn}: ${param} ${rule}`), fn, param);
}

export function rangeError(fn, param, rule) {
  return decorate(new RangeError(`posenc.${fn}: ${param} ${rule}`), fn, param);
}

/** Describes a value for error messages without dumping large arrays. */
export function describe(value) {
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'bigint') return `${value}n (a BigInt)`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === undefined) return String(value);
  if (typeof value === 'function') return 'a function';
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name} of length ${value.length ?? value.byteLength}`;
  if (Array.isArray(value)) return `an Array of length ${value.length}`;
  return `an object (${value?.constructor?.name ?? 'null prototype'})`;
}

/**
 * Throws the RangeError for a non-ok status returned by the core.
 * `names` maps status codes to names (read from the module's Status enum); `values` holds the
 * caller's values so the message can quote what was given.
 */
export function throwStatus(code, names, limits, fn, values) {
  const name = names[code];
  const rule = RULES[name];
  if (!rule) throw new Error(`posenc.${fn}: internal error (status ${code} ${name})`);
  const [param, words] = rule;
  const given = param in values ? ` (got ${describe(values[param])})` : '';
  throw rangeError(fn, param, `${words(limits, fn, values)}${given}`);
}
