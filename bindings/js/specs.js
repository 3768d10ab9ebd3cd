// From option snapshots to the core's operands (bindings/wasm/operands.h): the rules that combine
// options (offset or positions, rotaryDim or partialRotaryFactor) and the defaults that depend
// on other options. Every numeric rule is the core's, checked in the call itself.
import { describe, rangeError, typeError } from './errors.js';
import { readChoice } from './snapshot.js';

const flag = (value) => (value ? 1 : 0);

/** Scaling keys whose operand slot has another name (rope's operands have their own partialRotaryFactor). */
const SCALING_SLOTS = { __proto__: null, partialRotaryFactor: 'scalingPartialRotaryFactor' };

/**
 * The position options (PositionOptions and BatchPositionOptions in index.d.ts), where the rows
 * sit: `offset` (a number; rope functions: or one per sequence) or `positions`.
 */
export function writePositions(operands, fn, o) {
  if (o.positions !== undefined) {
    if (o.offset !== undefined) throw typeError(fn, 'offset', 'cannot be combined with positions (give one of them)');
    operands.list('positions', o.positions);
  } else if (o.offset instanceof Int32Array) {
    operands.list('offsets', o.offset); // one per sequence (a private copy)
  } else {
    operands.set('offset', o.offset ?? 0);
  }
}

export function writeTable(operands, fn, o, enums) {
  writePositions(operands, fn, o);
  operands
    .set('seqLen', o.seqLen)
    .set('dModel', o.dModel)
    .set('base', o.base)
    .set('layout', enums.sinusoidalLayout.indexOf(o.layout));
}

/**
 * A scaling snapshot (none: Hugging Face's 'default'). Only the values given are written, each
 * marked in scalingGiven (bit i: the i-th slot from scalingType on, operands.h); the core's
 * RopeScaling holds the defaults of the others.
 */
export function writeScaling(operands, scaling, enums) {
  if (scaling === undefined) return; // every slot 0 is 'default'
  let given = 0;
  for (const [key, value] of Object.entries(scaling)) {
    if (key === 'type' || value === undefined) continue;
    if (value instanceof Float64Array) {
      operands.list(key, value); // shortFactor, longFactor (private copies)
    } else {
      const slot = SCALING_SLOTS[key] ?? key;
      operands.set(slot, typeof value === 'boolean' ? flag(value) : value);
      given |= 1 << operands.distance('scalingType', slot);
    }
  }
  operands.set('scalingType', enums.scalingType.indexOf(scaling.type)).set('scalingGiven', given);
}

/**
 * rotaryDim, default headDim. One the caller did not give is noted as coming from headDim, so
 * that an odd headDim is reported as headDim.
 */
export function writeRotaryDim(operands, o, headDim) {
  operands.set('rotaryDim', o.rotaryDim ?? headDim);
  if (o.rotaryDim === undefined) operands.source('rotaryDim', 'headDim');
}

/** rotaryDim (default headDim), or Hugging Face's partialRotaryFactor instead, never both. */
export function writeRotary(operands, fn, o, headDim) {
  if (o.partialRotaryFactor !== undefined && o.scaling?.type === 'proportional') {
    throw typeError(
      fn,
      'partialRotaryFactor',
      "cannot be combined with proportional scaling: its share of turning pairs is scaling.partialRotaryFactor (Hugging Face's rope_parameters key), over rotaryDim (default headDim)",
    );
  }
  if (o.partialRotaryFactor === undefined) {
    writeRotaryDim(operands, o, headDim);
    return;
  }
  if (o.rotaryDim !== undefined)
    throw typeError(fn, 'rotaryDim', 'cannot be combined with partialRotaryFactor (give one of them)');
  operands
    .set('hasPartialRotaryFactor', 1)
    .set('partialRotaryFactor', o.partialRotaryFactor)
    .source('rotaryDim', 'partialRotaryFactor');
}

/**
 * The rotation's own options, as rope's spec and attentionScores' rope and xpos encodings take
 * them: rotary dimension, scaling, xPos (none: plain RoPE), base and pair layout.
 */
function writeRotation(operands, fn, o, enums) {
  writeRotary(operands, fn, o, o.headDim);
  writeScaling(operands, o.scaling, enums);
  writeXpos(operands, o.xpos, enums);
  operands.set('base', o.base).set('layout', enums.ropeLayout.indexOf(o.layout));
}

/** An xPos snapshot (none: plain RoPE); its `role` is rope's (a plan's comes per apply()). */
function writeXpos(operands, xpos, enums) {
  if (xpos === undefined) return; // slot xpos 0: no xPos
  operands
    .set('xpos', 1)
    .set('xposScaleBase', xpos.scaleBase)
    .set('xposGamma', xpos.gamma)
    .set('xposHasCenter', flag(xpos.center !== undefined))
    .set('xposCenter', xpos.center ?? 0);
  operands.set('xposRole', xposRoleValue(xpos.role, enums));
}

/** The core's value of a one-tensor rotation's xPos role ('query' or 'key'; undefined: none, 0). */
export function xposRoleValue(role, enums) {
  return role === undefined ? 0 : enums.xposRole.indexOf(role);
}

/** A RopeSpec (rope, ropeQK, ropePlan). */
export function writeRopeSpec(operands, fn, o, enums) {
  writeRotation(operands, fn, o, enums);
  operands
    .set('seqLen', o.seqLen)
    .set('numHeads', o.numHeads)
    .set('headDim', o.headDim)
    .set('batch', o.batch)
    .set('order', enums.order.indexOf(o.order))
    .set('inverse', flag(o.inverse));
  if (o.mrope !== undefined) {
    const [t, h, w] = o.mrope.section;
    operands
      .set('mrope', 1)
      .set('mropeSectionT', t)
      .set('mropeSectionH', h)
      .set('mropeSectionW', w)
      .set('mropeInterleaved', flag(o.mrope.interleaved));
  }
}

/** Each 2-D RoPE variant's own pairing: Pixtral's rotate_half, SAM 2's complex (interleaved) pairs. */
export const GRID_LAYOUTS = { __proto__: null, pixtral: 'half', axial: 'interleaved' };

/** ropeGrid: the grid, its variant, and the layout (default: the variant's). */
export function writeRopeGrid(operands, o, enums) {
  operands
    .set('rows', o.rows)
    .set('cols', o.cols)
    .set('numHeads', o.numHeads)
    .set('headDim', o.headDim)
    .set('base', o.base)
    .set('variant', enums.gridVariant.indexOf(o.variant))
    .set('layout', enums.ropeLayout.indexOf(o.layout ?? GRID_LAYOUTS[o.variant]))
    .set('order', enums.order.indexOf(o.order))
    .set('batch', o.batch)
    .set('frames', o.frames);
}

/**
 * ropeCache: rotaryDim, or headDim's value (a model's head size) when only headDim is given.
 * The cache's operands have no headDim, so rope's rule rotaryDim <= headDim (the core's
 * rotaryDimTooLarge, same words) is checked here; the core checks rotaryDim itself.
 */
export function resolveCacheRotary(fn, o) {
  if (o.rotaryDim === undefined) {
    if (o.headDim === undefined) throw typeError(fn, 'rotaryDim', 'is required (or headDim, which it defaults to)');
    o.rotaryDim = o.headDim;
  } else if (o.headDim !== undefined && o.rotaryDim > o.headDim) {
    throw rangeError(fn, 'rotaryDim', `must be at most headDim (got ${describe(o.rotaryDim)})`);
  }
  return o;
}

/** ropeSchedule / ropeFrequencies: rotaryDim, or headDim (with or without partialRotaryFactor). */
export function writeSchedule(operands, fn, o, enums) {
  if (o.rotaryDim === undefined && o.headDim === undefined && o.partialRotaryFactor === undefined) {
    throw typeError(fn, 'rotaryDim', 'is required (or headDim, with or without partialRotaryFactor)');
  }
  const headDim = o.headDim ?? 0;
  writeRotary(operands, fn, o, headDim);
  writeScaling(operands, o.scaling, enums);
  operands.set('headDim', headDim).set('base', o.base).set('seqLen', o.seqLen);
}

/** Qwen2.5-VL's vision_config.tokens_per_second in its released config.json files. */
const QWEN25_TOKENS_PER_SECOND = 2;

/** mropePositions: the segment table and the model's settings. */
export function writeMropePositions(operands, fn, o, enums) {
  if (o.tokensPerSecond !== undefined && o.model !== 'qwen2.5-vl') {
    throw typeError(fn, 'tokensPerSecond', `is read by model 'qwen2.5-vl' only (model is '${o.model}')`);
  }
  operands
    .list('segments', o.segments)
    .set('spatialMergeSize', o.spatialMergeSize)
    .set('model', enums.mropeModel.indexOf(o.model))
    .set('tokensPerSecond', o.tokensPerSecond ?? QWEN25_TOKENS_PER_SECOND);
}

// ---- attention scores ------------------------------------------------------------------------

/** A default that is the core's (include/posenc/defaults.h), read from the module's description. */
const core = (slot) => (defaults) => defaults[slot];

/**
 * The options each encoding of attentionScores reads, with their defaults (undefined: none; a
 * function: of the core's defaults).
 */
export const ATTENTION_ENCODING_OPTIONS = {
  none: {},
  sinusoidal: { base: core('base'), layout: 'interleaved' },
  rope: {
    base: core('base'),
    layout: 'interleaved',
    rotaryDim: undefined,
    partialRotaryFactor: undefined,
    scaling: undefined,
  },
  alibi: { maxBias: core('maxBias') },
  t5: { bias: undefined, numBuckets: core('numBuckets'), maxDistance: core('maxDistance'), bidirectional: true },
  xpos: {
    base: core('base'),
    layout: 'interleaved',
    rotaryDim: undefined,
    partialRotaryFactor: undefined,
    scaling: undefined,
    // { scaleBase, gamma, center? }; the roles are implied (queries up, keys down)
    xpos: (defaults) => ({ scaleBase: defaults.xposScaleBase, gamma: defaults.xposGamma }),
  },
};

/** The layout names of each encoding that has a layout (the module's enums). */
export const LAYOUT_ENUMS = { __proto__: null, sinusoidal: 'sinusoidalLayout', rope: 'ropeLayout', xpos: 'ropeLayout' };

/**
 * attentionScores: an option of another encoding is refused (it would be silently ignored),
 * T5's table is required, and the chosen encoding's defaults are filled in.
 */
export function resolveAttentionScores(fn, o, context) {
  const own = ATTENTION_ENCODING_OPTIONS[o.encoding];
  for (const [encoding, keys] of Object.entries(ATTENTION_ENCODING_OPTIONS)) {
    for (const key of Object.keys(keys)) {
      if (o[key] === undefined || Object.hasOwn(own, key)) continue;
      const owners = Object.keys(ATTENTION_ENCODING_OPTIONS).filter((e) =>
        Object.hasOwn(ATTENTION_ENCODING_OPTIONS[e], key),
      );
      if (encoding !== owners[0]) continue; // reported once, naming every encoding that reads it
      throw typeError(
        fn,
        key,
        `is an option of encoding ${owners.map((e) => `'${e}'`).join(' or ')} (encoding is '${o.encoding}')`,
      );
    }
  }
  if (o.encoding === 't5' && o.bias === undefined) {
    throw typeError(
      fn,
      'bias',
      "is required for encoding 't5': T5's relative_attention_bias weight, [numBuckets, numHeads]",
    );
  }
  for (const [key, fallback] of Object.entries(own))
    o[key] ??= typeof fallback === 'function' ? fallback(context.defaults) : fallback;
  const layouts = LAYOUT_ENUMS[o.encoding];
  if (layouts) readChoice(fn, 'layout', o.layout, context.enums[layouts]);
  return o;
}

/** attentionScores' operands: the shape, the encoding and the options it reads. */
export function writeAttentionScores(operands, fn, o, enums) {
  operands
    .set('numHeads', o.numHeads)
    .set('queryLen', o.queryLen)
    .set('keyLen', o.keyLen)
    .set('headDim', o.headDim)
    .set('encoding', enums.attentionEncoding.indexOf(o.encoding))
    .set('order', enums.order.indexOf(o.order))
    .set('offset', o.offset ?? o.keyLen - o.queryLen)
    .set('scale', o.scale ?? 1 / Math.sqrt(o.headDim))
    .set('causal', flag(o.causal))
    .set('softmax', flag(o.softmax));
  if (o.offset === undefined) operands.source('offset', 'keyLen');
  switch (o.encoding) {
    case 'sinusoidal':
      operands.set('base', o.base).set('layout', enums.sinusoidalLayout.indexOf(o.layout));
      break;
    case 'rope':
    case 'xpos': // (xpos is refused with 'rope' by resolveAttentionScores)
      writeRotation(operands, fn, o, enums);
      break;
    case 'alibi':
      operands.set('maxBias', o.maxBias);
      break;
    case 't5':
      operands
        .set('numBuckets', o.numBuckets)
        .set('maxDistance', o.maxDistance)
        .set('bidirectional', flag(o.bidirectional));
      break;
  }
}
