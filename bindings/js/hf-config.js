// fromHfConfig: a model's RoPE, layer by layer, read from its Hugging Face config.json, as the
// options posenc's rope functions take. It reads the file as transformers does: the 4.x
// `rope_scaling` and the transformers 5 `rope_parameters` (RotaryEmbeddingConfigMixin.
// convert_rope_params_to_dict and standardize_rope_params, modeling_rope_utils.py), the keys the
// schedule functions read there (_compute_*_parameters), the model config classes' own names and
// defaults, and which rotary embedding each layer's attention applies (LAYER_RULES). Where 4.x
// and 5 differ, it follows 5; where a file gives one quantity twice with different values, it is
// an error. No instance is needed: the numeric rules of the values are the core's, checked when
// the options are used; this file checks what only the config can name.
import { describe, rangeError, readError, typeError } from './errors.js';
import { SCALING_KEYS, SCALING_VALUES } from './options.js';
import { copyIntegers, copyList, isOptionsObject } from './snapshot.js';

const FN = 'fromHfConfig';
// Without an instance to ask, a list (LongRoPE's factors) is bounded before it is read by the
// core's kMaxDim (2^16 channels a head, so half as many pairs); its exact length is the core's.
const LIST_CONTEXT = { limits: { maxDim: 2 ** 16 } };

/** Top-level keys that change RoPE in a way posenc does not model, and why. */
const UNMODELED = {
  __proto__: null,
  use_dynamic_ntk: "asks for Qwen (1)'s own dynamic NTK, which is not one of transformers' RoPE types",
};

/** The top-level keys read (nothing else in the file is touched: no other getter runs). */
const TOP_LEVEL = new Set([
  'model_type',
  'num_attention_heads',
  'num_key_value_heads',
  'num_hidden_layers',
  'max_position_embeddings',
  'original_max_position_embeddings',
  'hidden_size',
  'head_dim',
  'qk_rope_head_dim',
  'rope_theta',
  'rope_local_base_freq',
  'rotary_emb_base',
  'partial_rotary_factor',
  'rotary_pct',
  'rope_scaling',
  'rope_parameters',
  'rope_interleave',
  'layer_types',
  'sliding_window_pattern',
  'no_rope_layers',
  'no_rope_layer_interval',
  'text_config',
  ...Object.keys(UNMODELED),
]);

/** transformers' default rope_theta (RotaryEmbeddingConfigMixin.default_theta), for model types without their own. */
const DEFAULT_THETA = 10000;

/**
 * What the config classes of the per-layer models set when config.json leaves a key out (their
 * __init__ defaults in 4.x, the same values as their fields in 5): Gemma 3 4B's and larger
 * models' text_config gives only a few keys. Gemma3TextConfig's rope_theta is its global layers'
 * base (default_theta["global"]), rope_local_base_freq its sliding layers' (["local"]).
 */
const CLASS_DEFAULTS = {
  __proto__: null,
  gemma3_text: {
    __proto__: null,
    num_attention_heads: 8,
    num_key_value_heads: 4,
    head_dim: 256,
    num_hidden_layers: 26,
    max_position_embeddings: 131072,
    rope_theta: 1000000,
    rope_local_base_freq: 10000,
    sliding_window_pattern: 6,
  },
  cohere2: { __proto__: null, num_hidden_layers: 40, sliding_window_pattern: 4 },
  smollm3: { __proto__: null, num_hidden_layers: 36, rope_theta: 2000000, no_rope_layer_interval: 4 },
  llama4_text: { __proto__: null, num_hidden_layers: 48, rope_theta: 500000, no_rope_layer_interval: 4 },
};

/**
 * partial_rotary_factor when the file gives none: the config classes' defaults (GPTNeoXConfig
 * rotary_pct 0.25, PhiConfig 0.5); 1 elsewhere.
 */
const DEFAULT_PARTIAL = { __proto__: null, gpt_neox: 0.25, phi: 0.5 };

/**
 * Old type names a config class renames before transformers reads them: Phi3Config turns "su"
 * and "yarn" into "longrope" (its backward compatibility with the first Phi-3 files).
 */
const TYPE_ALIASES = {
  __proto__: null,
  phi3: { __proto__: null, su: 'longrope', yarn: 'longrope' },
  // Qwen2VLConfig and Qwen2_5_VLConfig: `if self.rope_scaling["type"] == "mrope": ... = "default"`
  // (M-RoPE's sections are its own keys: mrope_section).
  qwen2_vl: { __proto__: null, mrope: 'default' },
  qwen2_5_vl: { __proto__: null, mrope: 'default' },
};

/** Models that rotate with Qwen3-VL's interleaved M-RoPE (apply_interleaved_mrope) whatever mrope_interleaved says. */
const INTERLEAVED_MROPE = ['qwen3_vl', 'qwen3_vl_text', 'qwen3_vl_moe', 'qwen3_vl_moe_text'];

/** Why some types found in config.json files are not read. */
const TYPE_HINTS = {
  __proto__: null,
  su: "the first Phi-3 files' name of longrope, read as such when model_type is 'phi3', as Phi3Config does",
  mrope:
    "Qwen2-VL's name for M-RoPE, read as default RoPE with mrope_section when model_type is 'qwen2_vl' or 'qwen2_5_vl', as their config classes do",
};

// ---- reading the file once ------------------------------------------------------------------------

/** A JSON object's own enumerable properties (only `keys` when given), each read once. */
function readRecord(name, value, keys) {
  if (!isOptionsObject(FN, name, value)) {
    const hint = typeof value === 'string' && name === 'config' ? ' (parse config.json first: JSON.parse)' : '';
    throw typeError(FN, name, `must be an object (got ${describe(value)})${hint}`);
  }
  let own;
  try {
    own = Object.keys(value);
  } catch (error) {
    throw readError(FN, name, error);
  }
  const record = Object.create(null);
  for (const key of own) {
    if (keys && !keys.has(key)) continue;
    try {
      record[key] = value[key];
    } catch (error) {
      throw readError(FN, `${name}.${key}`, error);
    }
  }
  return record;
}

/** record[key], with JSON's null read as transformers reads None: not given. */
const given = (record, key) => (record[key] === null ? undefined : record[key]);

function positiveInteger(name, value) {
  if (typeof value !== 'number') throw typeError(FN, name, `must be a number (got ${describe(value)})`);
  if (!Number.isInteger(value) || value < 1) {
    throw rangeError(FN, name, `must be a positive integer (got ${describe(value)})`);
  }
  return value;
}

function number(name, value) {
  if (typeof value !== 'number') throw typeError(FN, name, `must be a number (got ${describe(value)})`);
  return value;
}

function boolean(name, value) {
  if (typeof value !== 'boolean') throw typeError(FN, name, `must be true or false (got ${describe(value)})`);
  return value;
}

/**
 * The one value several keys may give (e.g. rope_theta at the top level and in
 * rope_parameters): [name, value] pairs, undefined where not given. Different values are an
 * error naming the later key. Returns [name, value] of the first given, or undefined.
 */
function agreeing(candidates) {
  const present = candidates.filter(([, value]) => value !== undefined);
  for (const [name, value] of present.slice(1)) {
    if (value !== present[0][1]) {
      throw rangeError(FN, name, `disagrees with ${present[0][0]} (${describe(value)} vs ${describe(present[0][1])})`);
    }
  }
  return present[0];
}

// ---- the rope parameters ---------------------------------------------------------------------------

const camelCase = (key) => key.replace(/_([a-z])/g, (_, letter) => letter.toUpperCase());

/**
 * A rope dict (`rope_scaling` or `rope_parameters`), its own keys each read once. `perType`: every
 * value is itself a dict (or null), transformers 5's form for models whose layer types differ
 * in RoPE ({ full_attention: {...}, sliding_attention: {...} }).
 */
function readRopeDict(name, value) {
  const record = readRecord(name, value);
  const values = Object.values(record);
  const perType =
    values.some((v) => isOptionsObject(FN, name, v)) && values.every((v) => v === null || isOptionsObject(FN, name, v));
  return { name, record, perType };
}

/**
 * A flat rope dict as { name, theta, partial, scaling }: rope_theta and partial_rotary_factor
 * (transformers 5 keeps them there), and `scaling`, posenc's option: the type after the config
 * class's renames and the keys in camelCase, each read by its kind in options.js (the same checks
 * and words as the `scaling` option itself).
 */
function ropeOf({ name, record }, modelType) {
  const entries = Object.entries(record);
  const typeName = given(record, 'rope_type') !== undefined ? `${name}.rope_type` : `${name}.type`;
  const named = agreeing([
    [`${name}.rope_type`, given(record, 'rope_type')],
    [`${name}.type`, given(record, 'type')],
  ]);
  const written = named ? named[1] : 'default';
  if (typeof written !== 'string') throw typeError(FN, typeName, `must be a string (got ${describe(written)})`);
  const type = TYPE_ALIASES[modelType]?.[written] ?? written;
  if (!Object.hasOwn(SCALING_KEYS, type)) {
    const hint = TYPE_HINTS[written] ? ` (${TYPE_HINTS[written]})` : '';
    throw typeError(
      FN,
      typeName,
      `is ${describe(written)}, a RoPE type posenc does not model (it models ${Object.keys(SCALING_KEYS).join(', ')})${hint}`,
    );
  }
  const [needed, optional] = SCALING_KEYS[type];
  // maxPositionEmbeddings is posenc's name for the top-level max_position_embeddings, never a rope key.
  const known = [...needed, ...optional].filter((key) => key !== 'maxPositionEmbeddings');
  const scaling = { __proto__: null, type }; // no key of it is ever found on Object.prototype
  const rope = { name, theta: undefined, partial: undefined, scaling, section: undefined, interleaved: undefined };
  for (const [key, raw] of entries) {
    const value = raw === null ? undefined : raw;
    const at = `${name}.${key}`;
    if (key === 'type' || key === 'rope_type' || value === undefined) continue;
    if (key === 'rope_theta') rope.theta = number(at, value);
    else if (key === 'mrope_section') rope.section = mropeSection(at, value);
    else if (key === 'mrope_interleaved') rope.interleaved = boolean(at, value);
    else if (key === 'partial_rotary_factor') rope.partial = number(at, value);
    else if (type === 'dynamic' && key === 'original_max_position_embeddings') {
      // Deliberately ignored: transformers' dynamic NTK takes its original length from
      // config.max_position_embeddings and never reads this key (its validator allows it).
    } else if ((key === 'beta_fast' || key === 'beta_slow') && value === 0) {
      // `rope_parameters.get("beta_fast") or 32`: a 0 is read as not given, its default.
    } else if (known.includes(camelCase(key))) {
      const read = SCALING_VALUES[camelCase(key)].read(FN, at, value, LIST_CONTEXT);
      scaling[camelCase(key)] = read instanceof Float64Array ? Array.from(read) : read;
    } else {
      throw typeError(
        FN,
        at,
        `is not a key of ${type} RoPE that posenc models (${type} reads ${
          known.length > 0 ? known.map(snakeCase).join(', ') : 'no keys'
        })`,
      );
    }
  }
  return rope;
}

/** M-RoPE's [t, h, w] pair counts (their sum is the core's rule, checked where they are used). */
function mropeSection(name, value) {
  const section = copyIntegers(FN, name, value, 3);
  if (section.length !== 3) throw rangeError(FN, name, `must be [t, h, w], 3 integers (got ${section.length})`);
  return Array.from(section);
}

/**
 * M-RoPE's option from the rope dicts: mrope_section, and the order (mrope_interleaved, else the
 * model's: Qwen3-VL always interleaves). Undefined without a section.
 */
function mropeOf(ropes, modelType) {
  const section = agreeing(
    ropes.map((rope) => [`${rope.name}.mrope_section`, rope.section && JSON.stringify(rope.section)]),
  );
  if (!section) return undefined;
  const interleaved = agreeing(ropes.map((rope) => [`${rope.name}.mrope_interleaved`, rope.interleaved]));
  return {
    section: JSON.parse(section[1]),
    interleaved: interleaved ? interleaved[1] : INTERLEAVED_MROPE.includes(modelType),
  };
}

const snakeCase = (key) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/**
 * The scaling keys transformers takes from elsewhere in the file: the original length (for
 * llama3, yarn and longrope, the top-level original_max_position_embeddings first, as Phi-3
 * files give it, then max_position_embeddings: standardize_rope_params), YaRN's factor when
 * absent (max / original: _compute_yarn_parameters), LongRoPE's max_position_embeddings (for its
 * attention factor) and dynamic NTK's original length (max_position_embeddings). Only these need
 * max_position_embeddings: a file without it is an error here, and nowhere else.
 */
function completeScaling(rope, top, maxPositionEmbeddings) {
  const { scaling, name } = rope;
  if (scaling.type === 'default') return undefined;
  const maximum = (why) => {
    if (maxPositionEmbeddings === undefined) {
      throw typeError(FN, 'config.max_position_embeddings', `is required for ${scaling.type} RoPE (${why})`);
    }
    return maxPositionEmbeddings;
  };
  if (scaling.type === 'dynamic') scaling.originalMaxPositionEmbeddings = maximum('the length it was trained to');
  if (scaling.type === 'llama3' || scaling.type === 'yarn' || scaling.type === 'longrope') {
    const original = agreeing([
      ['config.original_max_position_embeddings', top.original],
      [`${name}.original_max_position_embeddings`, scaling.originalMaxPositionEmbeddings],
    ]);
    scaling.originalMaxPositionEmbeddings = original
      ? original[1]
      : maximum(`${name}.original_max_position_embeddings is not given`);
  }
  if (scaling.type === 'yarn' && scaling.factor === undefined) {
    scaling.factor = maximum(`${name}.factor is not given`) / scaling.originalMaxPositionEmbeddings;
  }
  if (scaling.type === 'longrope') {
    const max = maximum('its attention factor');
    // transformers 4 replaces a given factor by max / original when the top-level original is
    // set, transformers 5 keeps it: only files where both agree mean one thing.
    if (scaling.factor !== undefined && top.original !== undefined) {
      agreeing([
        ['max_position_embeddings / original_max_position_embeddings', max / top.original],
        [`${name}.factor`, scaling.factor],
      ]);
    }
    scaling.maxPositionEmbeddings = max;
  }
  return inKeyOrder(scaling);
}

/** Plain RoPE, as a rope dict that gives nothing. */
const plainRope = (name) => ({
  name,
  theta: undefined,
  partial: undefined,
  scaling: { __proto__: null, type: 'default' },
  section: undefined,
  interleaved: undefined,
});

/**
 * The user's `scaling` object: keys in options.js's order, so that equal settings compare equal
 * as JSON, defined as own data properties (an inherited setter never runs).
 */
function inKeyOrder(scaling) {
  return Object.fromEntries(
    Object.keys(SCALING_VALUES).flatMap((key) => (scaling[key] === undefined ? [] : [[key, scaling[key]]])),
  );
}

// ---- the head ------------------------------------------------------------------------------------

/**
 * The rotated head size and the key that gave it: qk_rope_head_dim for multi-head latent
 * attention (DeepseekV3Config sets head_dim to it: only those channels of q and k rotate),
 * head_dim, or hidden_size / num_attention_heads.
 */
function headDimOf(c, numHeads) {
  const headDim = agreeing([
    ['config.qk_rope_head_dim', optionalInteger(c, 'qk_rope_head_dim')],
    ['config.head_dim', optionalInteger(c, 'head_dim')],
  ]);
  if (headDim) return headDim;
  const hidden = given(c, 'hidden_size');
  if (hidden === undefined) throw typeError(FN, 'config.hidden_size', 'is required when config.head_dim is not given');
  positiveInteger('config.hidden_size', hidden);
  if (hidden % numHeads !== 0) {
    throw rangeError(
      FN,
      'config.hidden_size',
      `must be a multiple of num_attention_heads = ${numHeads} when config.head_dim is not given (got ${hidden})`,
    );
  }
  return ['config.hidden_size', hidden / numHeads];
}

function optionalInteger(c, key) {
  const value = given(c, key);
  return value === undefined ? undefined : positiveInteger(`config.${key}`, value);
}

/** int(head_dim * partial_rotary_factor) (transformers' `dim`), which must be even. */
function rotaryDimOf(headDim, [name, partial]) {
  if (!(partial > 0 && partial <= 1)) throw rangeError(FN, name, `must be in (0, 1] (got ${describe(partial)})`);
  const rotaryDim = Math.trunc(headDim * partial); // Python's int() of the float64 product
  if (rotaryDim < 2 || rotaryDim % 2 !== 0) {
    throw rangeError(
      FN,
      name,
      `gives int(${headDim} * ${partial}) = ${rotaryDim} rotary channels, which must be an even number >= 2 (they turn in pairs)`,
    );
  }
  return rotaryDim;
}

/**
 * The pairing. transformers rotates with rotate_half, pairs (i, i + d/2): posenc's 'half'.
 * DeepSeek-V3's checkpoints keep each rope head's pairs interleaved; while
 * config.rope_interleave (default true in DeepseekV3Config), modeling_deepseek_v3.py's
 * apply_rotary_pos_emb_interleave permutes q and k alike (view(d/2, 2).transpose) and then
 * applies rotate_half, leaving them permuted. That is interleaved RoPE on the projections as
 * stored followed by one channel permutation of q and k, which no dot product q . k sees: on
 * the model's own projections posenc's 'interleaved' gives the same attention scores
 * (convertLayout gives transformers' channel order exactly).
 */
function layoutOf(c, modelType) {
  const interleave = given(c, 'rope_interleave');
  if (interleave !== undefined) return boolean('config.rope_interleave', interleave) ? 'interleaved' : 'half';
  return INTERLEAVED_LAYOUT.includes(modelType) ? 'interleaved' : 'half';
}

/**
 * Models that rotate interleaved pairs (2i, 2i + 1) in transformers itself: Cohere and Cohere 2
 * (their rotate_half takes x[..., ::2] and x[..., 1::2], the rotary embedding repeat_interleave()s
 * the frequencies), Llama 4 (apply_rotary_emb multiplies view_as_complex(x.reshape(..., -1, 2)))
 * and DeepSeek-V3 (above).
 */
const INTERLEAVED_LAYOUT = ['deepseek_v3', 'cohere', 'cohere2', 'llama4_text'];

// ---- the layers ----------------------------------------------------------------------------------

/**
 * How each per-layer model decides a layer's RoPE, as its config class and attention read the file:
 * - `types`: the layer's type, config.layer_types[i], else 'sliding_attention' unless
 *   (i + 1) % sliding_window_pattern == 0 (Gemma3TextConfig, Cohere2Config). Gemma 3 gives each
 *   type a RoPE (Gemma3TextModel's rotary_emb_local for sliding layers: rope_local_base_freq,
 *   default RoPE; rotary_emb for full ones: rope_theta and rope_scaling; transformers 5:
 *   rope_parameters[layer_type]); Cohere 2 rotates only in sliding layers (Cohere2Attention:
 *   `if self.sliding_window is not None: apply_rotary_pos_emb`), its full layers have none.
 * - `flags`: config.no_rope_layers[i] (1: RoPE, 0: none: `self.use_rope =
 *   config.no_rope_layers[layer_idx]`), else int((i + 1) % no_rope_layer_interval != 0). SmolLM3
 *   makes the default only when the key is None, Llama 4 also when it is empty
 *   (`no_rope_layers if no_rope_layers else default`).
 */
const LAYER_RULES = {
  __proto__: null,
  gemma3_text: { by: 'types', types: ['sliding_attention', 'full_attention'] },
  cohere2: { by: 'types', rotating: 'sliding_attention' },
  smollm3: { by: 'flags', emptyIsDefault: false },
  llama4_text: { by: 'flags', emptyIsDefault: true },
};

const SLIDING = 'sliding_attention';
const FULL = 'full_attention';

/** Each layer's type (a string), from config.layer_types or the sliding window pattern. */
function layerTypesOf(c, numLayers, rule) {
  const written = given(c, 'layer_types');
  if (written === undefined) {
    const pattern = positiveInteger('config.sliding_window_pattern', c.sliding_window_pattern);
    return Array.from({ length: numLayers }, (_, i) => ((i + 1) % pattern !== 0 ? SLIDING : FULL));
  }
  const types = copyList(FN, 'config.layer_types', written, (fn, at, value) => {
    if (typeof value !== 'string') throw typeError(fn, at, `must be a string (got ${describe(value)})`);
    if (rule.types && !rule.types.includes(value)) {
      throw rangeError(fn, at, `must be ${rule.types.map((t) => `'${t}'`).join(' or ')} (got ${describe(value)})`);
    }
    return value;
  });
  if (types.length !== numLayers) {
    // layer_type_validation: one type per layer.
    throw rangeError(FN, 'config.layer_types', `must hold one type per layer, ${numLayers} (got ${types.length})`);
  }
  return types;
}

/** Whether each layer rotates, from config.no_rope_layers or its interval. */
function ropeFlagsOf(c, numLayers, rule) {
  const written = given(c, 'no_rope_layers');
  const flags = written === undefined ? undefined : copyIntegers(FN, 'config.no_rope_layers', written);
  if (flags === undefined || (flags.length === 0 && rule.emptyIsDefault)) {
    const interval = positiveInteger('config.no_rope_layer_interval', c.no_rope_layer_interval);
    return Array.from({ length: numLayers }, (_, i) => (i + 1) % interval !== 0);
  }
  if (flags.length < numLayers) {
    throw rangeError(
      FN,
      'config.no_rope_layers',
      `must hold a flag for each of the ${numLayers} layers (got ${flags.length})`,
    );
  }
  const bad = flags.findIndex((flag) => flag > 1);
  if (bad !== -1) {
    throw rangeError(
      FN,
      `config.no_rope_layers[${bad}]`,
      `must be 1 (the layer uses RoPE) or 0 (it has none), one flag per layer, not layer numbers (got ${flags[bad]})`,
    );
  }
  return Array.from(flags.subarray(0, numLayers), (flag) => flag === 1);
}

/**
 * The rope dicts of one kind of layer: { ropes, bases, defaultBase }. `ropes` must say the same
 * thing (rope_scaling and rope_parameters); `bases` are the keys that may give its base, which
 * must agree, else `defaultBase`.
 */
function ropeGroup(ropes, bases, defaultBase) {
  return { ropes: ropes.length > 0 ? ropes : [plainRope('config')], bases, defaultBase };
}

/**
 * The rope dicts of each layer type. Gemma 3: its sliding layers' rope_parameters.sliding_attention
 * or plain RoPE at rope_local_base_freq; its full layers' rope_parameters.full_attention and
 * rope_scaling (Gemma3TextConfig.convert_rope_params_to_dict: rope_scaling updates
 * full_attention) at rope_theta. Other models: one group, rope_scaling and rope_parameters (flat).
 */
function ropeGroupsOf(c, modelType, defaults) {
  const dicts = ['rope_scaling', 'rope_parameters']
    .filter((key) => given(c, key) !== undefined)
    .map((key) => readRopeDict(`config.${key}`, c[key]));
  const perType = dicts.find((dict) => dict.perType);
  const theta = ['config.rope_theta', given(c, 'rope_theta')];
  if (modelType !== 'gemma3_text') {
    if (perType) {
      throw typeError(
        FN,
        perType.name,
        `holds one set of RoPE parameters per layer type (${Object.keys(perType.record).join(', ')}): ` +
          "fromHfConfig reads that form for Gemma 3 (model_type 'gemma3_text') only",
      );
    }
    const ropes = dicts.map((dict) => ropeOf(dict, modelType));
    const neoxBase = ['config.rotary_emb_base', given(c, 'rotary_emb_base')];
    return { shared: ropeGroup(ropes, [theta, neoxBase], defaults.rope_theta ?? DEFAULT_THETA) };
  }
  const flat = dicts.filter((dict) => !dict.perType);
  if (flat.some((dict) => dict.name === 'config.rope_parameters')) {
    throw typeError(
      FN,
      'config.rope_parameters',
      'must give Gemma 3 its RoPE per layer type ({ full_attention: {...}, sliding_attention: {...} }, as transformers 5 ' +
        'writes it); one flat set is rope_scaling, the full-attention layers\u2019 (transformers 4)',
    );
  }
  const nested = perType ? perType.record : { __proto__: null };
  for (const key of Object.keys(nested)) {
    if (key !== SLIDING && key !== FULL) {
      throw typeError(FN, `${perType.name}.${key}`, `is not a layer type of Gemma 3 (${SLIDING}, ${FULL})`);
    }
  }
  const typed = (type) =>
    nested[type] == null ? [] : [ropeOf(readRopeDict(`${perType.name}.${type}`, nested[type]), modelType)];
  const local = ['config.rope_local_base_freq', given(c, 'rope_local_base_freq')];
  return {
    [SLIDING]: ropeGroup(typed(SLIDING), [local], defaults.rope_local_base_freq),
    [FULL]: ropeGroup([...flat.map((dict) => ropeOf(dict, modelType)), ...typed(FULL)], [theta], defaults.rope_theta),
  };
}

/**
 * One group's rope options. `head`: { headDim, layout, top, maxPositionEmbeddings, partials }
 * (partials: the top-level keys that may give partial_rotary_factor).
 */
function optionsOf({ ropes, bases, defaultBase }, head, modelType) {
  const { headDim, layout, top, maxPositionEmbeddings, partials } = head;
  const givenPartial = agreeing([
    ...ropes.map((rope) => [`${rope.name}.partial_rotary_factor`, rope.partial]),
    ...partials,
  ]);
  const partial = givenPartial ?? ['config.partial_rotary_factor', DEFAULT_PARTIAL[modelType] ?? 1];
  number(partial[0], partial[1]);
  // Proportional RoPE (_compute_proportional_rope_parameters) reads partial_rotary_factor from
  // the rope dict (standardize_rope_params copies the top-level one there) as the share of
  // turning pairs over the whole head: its own key, with rotaryDim the head size.
  const proportional = ropes[0].scaling.type === 'proportional';
  const base = agreeing([...ropes.map((rope) => [`${rope.name}.rope_theta`, rope.theta]), ...bases]);
  const rotaryDim = proportional ? headDim : rotaryDimOf(headDim, partial);

  // transformers 5 reads rope_scaling first when both are given: they must say the same thing.
  if (proportional && givenPartial) for (const rope of ropes) rope.scaling.partialRotaryFactor = givenPartial[1];
  const [scaling, ...others] = ropes.map((rope) => completeScaling(rope, top, maxPositionEmbeddings));
  for (const [i, other] of others.entries()) {
    if (JSON.stringify(scaling) !== JSON.stringify(other)) {
      throw rangeError(
        FN,
        ropes[i + 1].name,
        `disagrees with ${ropes[0].name} (the same setting in transformers 5 and 4: give one)`,
      );
    }
  }
  const mrope = mropeOf(ropes, modelType);
  return {
    headDim,
    rotaryDim,
    base: base ? number(...base) : defaultBase,
    layout,
    ...(scaling && { scaling }),
    ...(mrope && { mrope }),
  };
}

/** A fresh copy of one layer's options (so that changing one layer's object changes no other). */
const copyOptions = (options) => (options === null ? null : structuredClone(options));

/**
 * ropeOptions on the result: the options every rotating layer shares, as a plain data property;
 * where the layers differ (or none rotates), an accessor that throws a TypeError naming `layers`,
 * so that code written for one RoPE per model fails where it would silently misplace positions.
 */
function defineRopeOptions(result, layers, shared, modelType) {
  const rotating = layers ? layers.filter((layer) => layer !== null) : [shared];
  const first = rotating[0];
  if (first && rotating.every((layer) => JSON.stringify(layer) === JSON.stringify(first))) {
    return Object.defineProperty(result, 'ropeOptions', {
      __proto__: null,
      value: copyOptions(first),
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  const why = first
    ? `the layers of this ${modelType} model differ in RoPE (${describeLayers(layers)})`
    : `no layer of this ${modelType} model uses RoPE`;
  return Object.defineProperty(result, 'ropeOptions', {
    __proto__: null,
    get() {
      throw typeError(FN, 'ropeOptions', `is not one set of options: ${why}; take each layer's from layers[i]`);
    },
    enumerable: false,
    configurable: true,
  });
}

/** "20 layers at base 10000, 6 at base 1000000 with linear scaling, 0 without RoPE" (a summary). */
function describeLayers(layers) {
  const counts = new Map();
  for (const layer of layers) {
    const words =
      layer === null
        ? 'without RoPE'
        : `at base ${layer.base}${layer.scaling ? ` with ${layer.scaling.type} scaling` : ''}`;
    counts.set(words, (counts.get(words) ?? 0) + 1);
  }
  return Array.from(counts, ([words, count]) => `${count} ${count === 1 ? 'layer' : 'layers'} ${words}`).join(', ');
}

// ---- the function --------------------------------------------------------------------------------

/**
 * The RoPE of a model from its Hugging Face config.json object (verbatim, never changed):
 * `{ ropeOptions, layers, numHeads, numKvHeads, maxPositionEmbeddings }`. `layers[i]` is layer
 * i's rope options, or null where the layer has no RoPE; ropeOptions is the options every
 * rotating layer shares (an accessor that throws where they differ). Options are taken
 * unchanged by every rope function.
 */
export function fromHfConfig(config) {
  const c = readRecord('config', config, TOP_LEVEL);
  for (const [key, why] of Object.entries(UNMODELED)) {
    if (given(c, key) !== undefined && c[key] !== false) {
      throw typeError(FN, `config.${key}`, `${why}; posenc does not model it`);
    }
  }
  const modelType = given(c, 'model_type');
  if (modelType !== undefined && typeof modelType !== 'string') {
    throw typeError(FN, 'config.model_type', `must be a string (got ${describe(modelType)})`);
  }
  if (given(c, 'rope_local_base_freq') !== undefined && modelType !== 'gemma3_text') {
    throw typeError(
      FN,
      'config.rope_local_base_freq',
      "gives sliding-window layers a base of their own, which fromHfConfig reads for Gemma 3 (model_type 'gemma3_text') " +
        `only (model_type is ${describe(modelType)})`,
    );
  }
  // The config class's attributes: the file's keys, else the class's defaults (bases apart: a
  // default base gives way to one in rope_parameters).
  const defaults = CLASS_DEFAULTS[modelType] ?? { __proto__: null };
  for (const key of Object.keys(defaults)) {
    if (key !== 'rope_theta' && key !== 'rope_local_base_freq' && given(c, key) === undefined) c[key] = defaults[key];
  }
  const heads = given(c, 'num_attention_heads');
  if (heads === undefined) {
    const hint =
      given(c, 'text_config') !== undefined ? " (a multimodal config: its language model's is config.text_config)" : '';
    throw typeError(FN, 'config.num_attention_heads', `is required${hint}`);
  }
  const numHeads = positiveInteger('config.num_attention_heads', heads);
  // As the file says. With multi-head latent attention (DeepSeek) the keys' rotary part is one
  // head that all heads share (k_rot), so ropeQK there can rotate it as numKvHeads: 1.
  const numKvHeads = optionalInteger(c, 'num_key_value_heads') ?? numHeads;
  if (numHeads % numKvHeads !== 0) {
    throw rangeError(
      FN,
      'config.num_key_value_heads',
      `must divide num_attention_heads = ${numHeads} (got ${numKvHeads})`,
    );
  }
  const maxPositionEmbeddings = optionalInteger(c, 'max_position_embeddings');
  const numLayers = optionalInteger(c, 'num_hidden_layers');

  const groups = ropeGroupsOf(c, modelType, defaults);
  const [headName, headDim] = headDimOf(c, numHeads);
  if (headDim % 2 !== 0)
    throw rangeError(FN, headName, `gives an odd head size ${headDim}: rotary channels turn in pairs`);
  const head = {
    headDim,
    layout: layoutOf(c, modelType),
    // transformers 5 gives the top-level original length priority only for one shared rope dict
    // (standardize_rope_params); per layer type it takes max_position_embeddings.
    top: { original: groups.shared ? optionalInteger(c, 'original_max_position_embeddings') : undefined },
    maxPositionEmbeddings,
    partials: [
      ['config.partial_rotary_factor', given(c, 'partial_rotary_factor')],
      ['config.rotary_pct', given(c, 'rotary_pct')],
    ],
  };
  const options = Object.fromEntries(
    Object.entries(groups).map(([type, group]) => [type, optionsOf(group, head, modelType)]),
  );
  // Every model in LAYER_RULES has a class default for num_hidden_layers.
  const rule = LAYER_RULES[modelType];
  let layers;
  if (rule?.by === 'types') {
    const typed = (type) => (rule.rotating ? (type === rule.rotating ? options.shared : null) : options[type]);
    layers = layerTypesOf(c, numLayers, rule).map((type) => copyOptions(typed(type)));
  } else if (rule?.by === 'flags') {
    layers = ropeFlagsOf(c, numLayers, rule).map((rotates) => (rotates ? copyOptions(options.shared) : null));
  } else if (numLayers !== undefined) {
    layers = Array.from({ length: numLayers }, () => copyOptions(options.shared));
  }
  // A literal (defined properties: no inherited setter runs), ropeOptions first, then redefined.
  const result = { ropeOptions: undefined, ...(layers && { layers }), numHeads, numKvHeads, maxPositionEmbeddings };
  return defineRopeOptions(result, layers, options.shared, modelType);
}
