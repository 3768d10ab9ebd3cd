// fromHfConfig: a model's RoPE, read from its Hugging Face config.json, as the options posenc's
// rope functions take. It reads the file as transformers does: the 4.x `rope_scaling` and the
// transformers 5 `rope_parameters` (RotaryEmbeddingConfigMixin.convert_rope_params_to_dict and
// standardize_rope_params, modeling_rope_utils.py), the keys the schedule functions read there
// (_compute_*_parameters), and the model config classes' own names and defaults. Where 4.x and 5
// differ, it follows 5; where a file gives one quantity twice with different values, it is an
// error. No instance is needed: the numeric rules of the values are the core's, checked when
// the options are used; this file checks what only the config can name.
import { describe, rangeError, readError, typeError } from './errors.js';
import { SCALING_KEYS, SCALING_VALUES } from './options.js';
import { copyIntegers, isOptionsObject } from './snapshot.js';

const FN = 'fromHfConfig';
// Without an instance to ask, a list (LongRoPE's factors) is bounded before it is read by the
// core's kMaxDim (2^16 channels a head, so half as many pairs); its exact length is the core's.
const LIST_CONTEXT = { limits: { maxDim: 2 ** 16 } };

/** Top-level keys that change RoPE in a way posenc does not model, and why. */
const UNMODELED = {
  __proto__: null,
  rope_local_base_freq:
    "gives the sliding-window layers a base of their own (Gemma 3): the model's layers differ in RoPE",
  use_dynamic_ntk: "asks for Qwen (1)'s own dynamic NTK, which is not one of transformers' RoPE types",
};

/** The top-level keys read (nothing else in the file is touched: no other getter runs). */
const TOP_LEVEL = new Set([
  'model_type',
  'num_attention_heads',
  'num_key_value_heads',
  'max_position_embeddings',
  'original_max_position_embeddings',
  'hidden_size',
  'head_dim',
  'qk_rope_head_dim',
  'rope_theta',
  'rotary_emb_base',
  'partial_rotary_factor',
  'rotary_pct',
  'rope_scaling',
  'rope_parameters',
  'rope_interleave',
  'text_config',
  ...Object.keys(UNMODELED),
]);

/** transformers' default rope_theta (RotaryEmbeddingConfigMixin.default_theta; every config class of the tested models). */
const DEFAULT_THETA = 10000;

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
 * A rope dict (`rope_scaling` or `rope_parameters`) as { name, theta, partial, scaling }:
 * rope_theta and partial_rotary_factor (transformers 5 keeps them there), and `scaling`, posenc's
 * option: the type after the config class's renames and the keys in camelCase, each read by
 * its kind in options.js (the same checks and words as the `scaling` option itself).
 */
function readRope(name, value, modelType) {
  const record = readRecord(name, value);
  const entries = Object.entries(record);
  if (entries.length > 0 && entries.every(([, v]) => isOptionsObject(FN, name, v))) {
    throw typeError(
      FN,
      name,
      `holds one set of RoPE parameters per layer type (${Object.keys(record).join(', ')}): ` +
        'fromHfConfig reads models whose layers share one RoPE',
    );
  }
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
 * attention factor) and dynamic NTK's original length (max_position_embeddings).
 */
function completeScaling(rope, top, maxPositionEmbeddings) {
  const { scaling, name } = rope;
  if (scaling.type === 'default') return undefined;
  if (scaling.type === 'dynamic') scaling.originalMaxPositionEmbeddings = maxPositionEmbeddings;
  if (scaling.type === 'llama3' || scaling.type === 'yarn' || scaling.type === 'longrope') {
    const original = agreeing([
      ['config.original_max_position_embeddings', top.original],
      [`${name}.original_max_position_embeddings`, scaling.originalMaxPositionEmbeddings],
    ]);
    scaling.originalMaxPositionEmbeddings = original ? original[1] : maxPositionEmbeddings;
  }
  if (scaling.type === 'yarn' && scaling.factor === undefined) {
    scaling.factor = maxPositionEmbeddings / scaling.originalMaxPositionEmbeddings;
  }
  if (scaling.type === 'longrope') {
    // transformers 4 replaces a given factor by max / original when the top-level original is
    // set, transformers 5 keeps it: only files where both agree mean one thing.
    if (scaling.factor !== undefined && top.original !== undefined) {
      agreeing([
        ['max_position_embeddings / original_max_position_embeddings', maxPositionEmbeddings / top.original],
        [`${name}.factor`, scaling.factor],
      ]);
    }
    scaling.maxPositionEmbeddings = maxPositionEmbeddings;
  }
  return inKeyOrder(scaling);
}

/**
 * The rope dicts given, read: rope_scaling (4.x) and rope_parameters (transformers 5), either
 * absent or null for plain RoPE.
 */
function ropesOf(c, modelType) {
  const ropes = ['rope_scaling', 'rope_parameters']
    .filter((key) => given(c, key) !== undefined)
    .map((key) => readRope(`config.${key}`, c[key], modelType));
  return ropes.length > 0
    ? ropes
    : [{ name: 'config', theta: undefined, partial: undefined, scaling: { __proto__: null, type: 'default' } }];
}

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
  return modelType === 'deepseek_v3' ? 'interleaved' : 'half';
}

// ---- the function --------------------------------------------------------------------------------

/**
 * The RoPE of a model from its Hugging Face config.json object (verbatim, never changed):
 * `{ ropeOptions: { headDim, rotaryDim, base, layout, scaling? }, numHeads, numKvHeads,
 * maxPositionEmbeddings }`, ropeOptions taken unchanged by every rope function.
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
  if (maxPositionEmbeddings === undefined) throw typeError(FN, 'config.max_position_embeddings', 'is required');

  const ropes = ropesOf(c, modelType);
  const [headName, headDim] = headDimOf(c, numHeads);
  if (headDim % 2 !== 0)
    throw rangeError(FN, headName, `gives an odd head size ${headDim}: rotary channels turn in pairs`);
  const givenPartial = agreeing([
    ...ropes.map((rope) => [`${rope.name}.partial_rotary_factor`, rope.partial]),
    ['config.partial_rotary_factor', given(c, 'partial_rotary_factor')],
    ['config.rotary_pct', given(c, 'rotary_pct')],
  ]);
  const partial = givenPartial ?? ['config.partial_rotary_factor', DEFAULT_PARTIAL[modelType] ?? 1];
  number(partial[0], partial[1]);
  // Proportional RoPE (_compute_proportional_rope_parameters) reads partial_rotary_factor from
  // the rope dict (standardize_rope_params copies the top-level one there) as the share of
  // turning pairs over the whole head: its own key, with rotaryDim the head size.
  const proportional = ropes[0].scaling.type === 'proportional';
  const base = agreeing([
    ...ropes.map((rope) => [`${rope.name}.rope_theta`, rope.theta]),
    ['config.rope_theta', given(c, 'rope_theta')],
    ['config.rotary_emb_base', given(c, 'rotary_emb_base')],
  ]);
  const top = { original: optionalInteger(c, 'original_max_position_embeddings') };
  const rotaryDim = proportional ? headDim : rotaryDimOf(headDim, partial);
  const layout = layoutOf(c, modelType);

  // transformers 5 reads rope_scaling first when both are given: they must say the same thing.
  if (proportional && givenPartial) for (const rope of ropes) rope.scaling.partialRotaryFactor = givenPartial[1];
  const [scaling, other] = ropes.map((rope) => completeScaling(rope, top, maxPositionEmbeddings));
  if (ropes.length === 2 && JSON.stringify(scaling) !== JSON.stringify(other)) {
    throw rangeError(
      FN,
      'config.rope_parameters',
      'disagrees with config.rope_scaling (the same setting in transformers 5 and 4: give one)',
    );
  }
  const mrope = mropeOf(ropes, modelType);
  const ropeOptions = {
    headDim,
    rotaryDim,
    base: base ? number(...base) : DEFAULT_THETA,
    layout,
    ...(scaling && { scaling }),
    ...(mrope && { mrope }),
  };
  return { ropeOptions, numHeads, numKvHeads, maxPositionEmbeddings };
}
