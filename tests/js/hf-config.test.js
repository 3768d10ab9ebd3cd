// fromHfConfig on real config.json files (tests/js/hf-configs/, README there): the geometry,
// pairing, frequencies and attention factors transformers computes from each file (golden,
// scripts/make_golden_hf_configs.py), its rope options taken unchanged by every rope function on
// both builds, the transformers 5 form of each file reading the same, the mistakes of a config
// named by their key, and the config object read once and never changed.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { fromHfConfig } from '../../bindings/js/index.js';
import { typecheckScratch } from '../typecheck.js';
import { reorder, rotateReference } from './shapes-reference.js';
import {
  ROPE_EPS,
  TABLE_BOUND,
  assertClose,
  assertIdentical,
  assertParameterError,
  assertRopeClose,
  loadBothVariants,
  randomNormal,
  readGolden,
} from './support.js';

const golden = readGolden('hf-configs.json');
const CONFIGS = new URL('./hf-configs/', import.meta.url);
const readConfig = (file) => JSON.parse(readFileSync(new URL(file, CONFIGS), 'utf8'));
/** A golden case's config: the file, or for a multimodal model its text_config (what fromHfConfig is given). */
const configOf = (c) => (c.textConfig ? readConfig(c.file).text_config : readConfig(c.file));
const SCHEDULE_BOUND = 1e-12; // relative: float64 formulas against float64 formulas
const relative = (got, want) => (want === 0 ? Math.abs(got) : Math.abs(got - want) / Math.abs(want));

/** The same file as transformers 5 saves it: rope_theta, partial factor and scaling in rope_parameters. */
function transformers5Form(config) {
  if (config.model_type === 'gemma3_text') return gemma3Transformers5Form(config);
  const {
    rope_scaling: scaling,
    rope_theta: theta,
    rotary_emb_base: neoxBase,
    rotary_pct: neoxPct,
    partial_rotary_factor: partial,
    ...rest
  } = config;
  const { type, rope_type: ropeType, ...keys } = scaling ?? {};
  const parameters = { rope_theta: theta ?? neoxBase ?? 10000, rope_type: ropeType ?? type ?? 'default', ...keys };
  if ((partial ?? neoxPct) !== undefined) parameters.partial_rotary_factor = partial ?? neoxPct;
  if (['llama3', 'yarn', 'longrope'].includes(parameters.rope_type)) {
    parameters.original_max_position_embeddings ??=
      config.original_max_position_embeddings ?? config.max_position_embeddings;
  }
  return { ...rest, rope_parameters: parameters };
}

/**
 * Gemma 3 as transformers 5 saves it: layer_types instead of sliding_window_pattern, and
 * rope_parameters per layer type (Gemma3TextConfig.convert_rope_params_to_dict: rope_scaling and
 * rope_theta into full_attention, rope_local_base_freq into sliding_attention; the class defaults
 * where the file gives none).
 */
function gemma3Transformers5Form(config) {
  const {
    rope_scaling: scaling,
    rope_theta: theta,
    rope_local_base_freq: local,
    sliding_window_pattern: pattern = 6,
    ...rest
  } = config;
  const { type, rope_type: ropeType, ...keys } = scaling ?? {};
  const layers = config.num_hidden_layers ?? 26;
  return {
    ...rest,
    layer_types: Array.from({ length: layers }, (_, i) =>
      (i + 1) % pattern !== 0 ? 'sliding_attention' : 'full_attention',
    ),
    rope_parameters: {
      full_attention: { rope_type: ropeType ?? type ?? 'default', ...keys, rope_theta: theta ?? 1000000 },
      sliding_attention: { rope_type: 'default', rope_theta: local ?? 10000 },
    },
  };
}

/** A deep copy that throws on any write: proof that fromHfConfig changes nothing. */
function frozen(value) {
  if (value === null || typeof value !== 'object') return value;
  const copy = Array.isArray(value)
    ? value.map(frozen)
    : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, frozen(v)]));
  return Object.freeze(copy);
}

describe('fromHfConfig and M-RoPE', () => {
  it("Qwen3-VL's text_config: interleaved sections (mrope_interleaved, and the model type without it)", () => {
    // Qwen3-VL-2B-Instruct's text_config keys as published (no citable copy of its config.json
    // file was reachable here; see tests/js/hf-configs/README.md).
    const text = {
      head_dim: 128,
      hidden_size: 2048,
      max_position_embeddings: 262144,
      model_type: 'qwen3_vl_text',
      num_attention_heads: 16,
      num_key_value_heads: 8,
      rope_scaling: { mrope_interleaved: true, mrope_section: [24, 20, 20], rope_type: 'default' },
      rope_theta: 5000000,
    };
    const { ropeOptions } = fromHfConfig(text);
    assert.deepEqual(ropeOptions, {
      headDim: 128,
      rotaryDim: 128,
      base: 5000000,
      layout: 'half',
      mrope: { section: [24, 20, 20], interleaved: true },
    });
    const { mrope_interleaved: _, ...withoutKey } = text.rope_scaling;
    assert.deepEqual(fromHfConfig({ ...text, rope_scaling: withoutKey }).ropeOptions.mrope.interleaved, true);
    assertParameterError(
      () => fromHfConfig({ model_type: 'qwen3_vl', text_config: text }),
      TypeError,
      'config.num_attention_heads',
    );
  });
});

describe('fromHfConfig on real config.json files', () => {
  it('covers every file of tests/js/hf-configs/', () => {
    const files = readdirSync(CONFIGS).filter((f) => f.endsWith('.json') && f !== 'biome.json');
    assert.deepEqual(golden.cases.map((c) => c.file).sort(), files.sort());
  });

  for (const c of golden.cases) {
    it(`${c.file}: heads, length, and every layer's head size, rotary dimension, base, pairing, scaling type`, () => {
      const config = frozen(configOf(c));
      const result = fromHfConfig(config);
      const { layers, numHeads, numKvHeads, maxPositionEmbeddings } = result;
      assert.deepEqual(
        { numHeads, numKvHeads, maxPositionEmbeddings },
        { numHeads: c.numHeads, numKvHeads: c.numKvHeads, maxPositionEmbeddings: c.maxPositionEmbeddings },
      );
      assert.equal(layers.length, c.numLayers, 'one entry per layer');
      for (const [i, layer] of layers.entries()) {
        const kind = c.layers[i] === null ? null : c.kinds[c.layers[i]];
        if (kind === null) {
          assert.equal(layer, null, `layer ${i} has no RoPE`);
          continue;
        }
        const { headDim, rotaryDim, base, layout } = layer;
        assert.deepEqual(
          { headDim, rotaryDim, base, layout },
          { headDim: c.headDim, rotaryDim: kind.rotaryDim, base: kind.base, layout: c.layout },
          `layer ${i}`,
        );
        assert.equal(layer.scaling?.type ?? 'default', kind.scalingType, `layer ${i}: scaling type`);
        assert.equal('scaling' in layer, kind.scalingType !== 'default', `layer ${i}: no scaling key for plain RoPE`);
        assert.deepEqual(layer.mrope ?? null, c.mrope, `layer ${i}: M-RoPE sections and order`);
      }
      if (c.kinds.length === 1) {
        assert.deepEqual(result.ropeOptions, layers[c.layers.indexOf(0)], "ropeOptions: the layers' one RoPE");
      } else {
        const error = assertParameterError(() => result.ropeOptions, TypeError, 'ropeOptions');
        assert.match(error.message, /layers\[i\]/);
      }
    });

    it(`${c.file}: the transformers 5 form (rope_parameters), and both forms together, read the same`, () => {
      const config = configOf(c);
      const v5 = transformers5Form(config);
      assert.deepEqual(fromHfConfig(v5), fromHfConfig(config));
      assert.deepEqual(fromHfConfig({ ...config, rope_parameters: v5.rope_parameters }), fromHfConfig(config));
    });
  }
});

/** One layer's options of each kind of rotary embedding a golden case lists, with the kind. */
function kindsOf(c) {
  const { layers } = fromHfConfig(configOf(c));
  return c.kinds.map((kind, k) => ({
    kind: { ...kind, headDim: c.headDim, layout: c.layout },
    options: layers[c.layers.indexOf(k)],
    label: c.kinds.length === 1 ? c.file : `${c.file} (layer ${c.layers.indexOf(k)}'s kind)`,
  }));
}

for (const posenc of await loadBothVariants()) {
  describe(`fromHfConfig's options in every rope function (${posenc.variant})`, () => {
    it('ropeSchedule and ropeFrequencies: transformers\u2019 frequencies and attention factor (golden, 1e-12 relative)', (t) => {
      let worst = 0;
      let count = 0;
      for (const { kind, options: layer, label } of golden.cases.flatMap(kindsOf)) {
        count++;
        for (const s of kind.schedules) {
          const options = { ...layer, seqLen: s.seqLen };
          const { invFreq, attentionFactor, rotaryDim } = posenc.ropeSchedule(options);
          assert.equal(rotaryDim, kind.rotaryDim, `${label}: rotaryDim`);
          assert.equal(invFreq.length, s.invFreq.length, `${label}: pairs`);
          for (let i = 0; i < invFreq.length; i++) {
            const error = relative(invFreq[i], s.invFreq[i]);
            assert.ok(error <= SCHEDULE_BOUND, `${label} at ${s.seqLen}: pair ${i}: ${invFreq[i]} vs ${s.invFreq[i]}`);
            worst = Math.max(worst, error);
          }
          const error = relative(attentionFactor, s.attentionFactor);
          assert.ok(error <= SCHEDULE_BOUND, `${label}: attention factor ${attentionFactor} vs ${s.attentionFactor}`);
          worst = Math.max(worst, error);
          assertIdentical(posenc.ropeFrequencies(options), invFreq, `${label}: ropeFrequencies`);
        }
      }
      t.diagnostic(
        `${golden.cases.length} config files, ${count} rotary embeddings, largest relative deviation from transformers: ${worst.toExponential(2)}`,
      );
    });

    it("ropeCache, rope, ropeQK and ropePlan take each layer's options unchanged and rotate by the golden schedule", () => {
      let seed = 1;
      for (const { kind, options: ropeOptions, label: name } of golden.cases.flatMap(kindsOf)) {
        const c = { ...kind, file: name };
        for (const s of kind.schedules) {
          // Three rows ending at the schedule's length (longrope switches factors by it), 2 query heads, 1 key head.
          const seqLen = 3;
          const offset = s.seqLen > 0 ? s.seqLen - seqLen : 5;
          const label = `${c.file} at ${offset}`;
          const af = s.attentionFactor;
          const positions = [offset, offset + 1, offset + 2];

          const cache = posenc.ropeCache({ ...ropeOptions, seqLen, offset });
          const angles = positions.flatMap((p) => s.invFreq.map((f) => p * f));
          assert.equal(cache.attentionFactor, af, `${label}: cache attention factor`);
          const bound = TABLE_BOUND * Math.max(1, af);
          assertClose(
            cache.cos,
            angles.map((a) => Math.cos(a) * af),
            bound,
            `${label}: cache cos`,
          );
          assertClose(
            cache.sin,
            angles.map((a) => Math.sin(a) * af),
            bound,
            `${label}: cache sin`,
          );

          const shape = { seqLen, numHeads: 2, headDim: c.headDim, rotaryDim: c.rotaryDim, layout: c.layout };
          const x = randomNormal(seqLen * 2 * c.headDim, seed++);
          const k = randomNormal(seqLen * c.headDim, seed++);
          const want = rotateReference(x, { ...shape, offset, invFreq: s.invFreq, attentionFactor: af });
          const rotated = posenc.rope(x.slice(), { ...ropeOptions, seqLen, numHeads: 2, offset });
          assertRopeClose(rotated, x, want, shape, `${label}: rope`, ROPE_EPS * af);

          const qk = posenc.ropeQK(x.slice(), k.slice(), {
            ...ropeOptions,
            seqLen,
            numHeads: 2,
            numKvHeads: 1,
            offset,
          });
          assertIdentical(qk.q, rotated, `${label}: ropeQK queries are rope's`);
          const kWant = rotateReference(k, { ...shape, numHeads: 1, offset, invFreq: s.invFreq, attentionFactor: af });
          assertRopeClose(qk.k, k, kWant, { ...shape, numHeads: 1 }, `${label}: ropeQK keys`, ROPE_EPS * af);

          const plan = posenc.ropePlan({ ...ropeOptions, seqLen, numHeads: 2, numKvHeads: 1 });
          try {
            assert.deepEqual(
              { rotaryDim: plan.rotaryDim, layout: plan.layout, numKvHeads: plan.numKvHeads },
              { rotaryDim: c.rotaryDim, layout: c.layout, numKvHeads: 1 },
            );
            assertIdentical(plan.apply(x.slice(), { offset }), rotated, `${label}: ropePlan.apply is rope`);
            const heads = posenc.rope(reorder(x, shape, 'tokens', 'heads'), {
              ...ropeOptions,
              seqLen,
              numHeads: 2,
              offset,
              order: 'heads',
            });
            assertIdentical(reorder(heads, shape, 'heads', 'tokens'), rotated, `${label}: heads-major`);
          } finally {
            plan.free();
          }
        }
      }
    });
  });
}

/** A valid small config to break one key at a time (Llama-like, 4 heads of 8). */
const BASE = {
  model_type: 'llama',
  hidden_size: 32,
  num_attention_heads: 4,
  num_key_value_heads: 2,
  max_position_embeddings: 4096,
  rope_theta: 10000.0,
};
const YARN = { rope_type: 'yarn', factor: 4.0, original_max_position_embeddings: 1024 };
/** Small per-layer models (4 heads of 8): Gemma 3's 5 sliding : 1 full, Cohere 2's 3 : 1, SmolLM3's and Llama 4's NoPE flags. */
const GEMMA3 = { ...BASE, model_type: 'gemma3_text', head_dim: 8, num_hidden_layers: 12, rope_theta: 1000000.0 };
const COHERE2 = { ...BASE, model_type: 'cohere2', num_hidden_layers: 8, sliding_window_pattern: 4 };
const SMOLLM3 = { ...BASE, model_type: 'smollm3', num_hidden_layers: 8, no_rope_layers: [1, 1, 1, 0, 1, 1, 1, 0] };
const LLAMA4 = { ...BASE, model_type: 'llama4_text', num_hidden_layers: 8, no_rope_layers: [] };

/** Mistakes as [label, config, error type, parameter]. */
const MISTAKES = [
  ['config null', null, TypeError, 'config'],
  ['config a JSON string', JSON.stringify(BASE), TypeError, 'config'],
  ['config an array', [BASE], TypeError, 'config'],
  ['config a number', 42, TypeError, 'config'],
  ['num_attention_heads missing', { ...BASE, num_attention_heads: undefined }, TypeError, 'config.num_attention_heads'],
  ['num_attention_heads a string', { ...BASE, num_attention_heads: '4' }, TypeError, 'config.num_attention_heads'],
  ['num_attention_heads 0', { ...BASE, num_attention_heads: 0 }, RangeError, 'config.num_attention_heads'],
  [
    'num_key_value_heads not dividing the heads',
    { ...BASE, num_key_value_heads: 3 },
    RangeError,
    'config.num_key_value_heads',
  ],
  [
    'max_position_embeddings missing for dynamic NTK (its original length)',
    { ...BASE, max_position_embeddings: undefined, rope_scaling: { type: 'dynamic', factor: 2.0 } },
    TypeError,
    'config.max_position_embeddings',
  ],
  [
    'max_position_embeddings missing for YaRN without a factor',
    { ...BASE, max_position_embeddings: undefined, rope_scaling: { ...YARN, factor: undefined } },
    TypeError,
    'config.max_position_embeddings',
  ],
  [
    'max_position_embeddings missing for llama3 without an original length',
    {
      ...BASE,
      max_position_embeddings: undefined,
      rope_scaling: { rope_type: 'llama3', factor: 8.0, low_freq_factor: 1.0, high_freq_factor: 4.0 },
    },
    TypeError,
    'config.max_position_embeddings',
  ],
  [
    'max_position_embeddings missing for LongRoPE (its attention factor)',
    {
      ...BASE,
      max_position_embeddings: undefined,
      rope_scaling: { type: 'longrope', original_max_position_embeddings: 1024, short_factor: [1], long_factor: [1] },
    },
    TypeError,
    'config.max_position_embeddings',
  ],
  ['hidden_size not a multiple of the heads', { ...BASE, hidden_size: 34 }, RangeError, 'config.hidden_size'],
  ['hidden_size and head_dim missing', { ...BASE, hidden_size: undefined }, TypeError, 'config.hidden_size'],
  ['head_dim odd', { ...BASE, head_dim: 7 }, RangeError, 'config.head_dim'],
  ['head_dim 2.5', { ...BASE, head_dim: 2.5 }, RangeError, 'config.head_dim'],
  [
    'qk_rope_head_dim and head_dim disagreeing',
    { ...BASE, head_dim: 8, qk_rope_head_dim: 4 },
    RangeError,
    'config.head_dim',
  ],
  [
    'partial_rotary_factor giving an odd rotary dimension',
    { ...BASE, partial_rotary_factor: 0.375 },
    RangeError,
    'config.partial_rotary_factor',
  ],
  ['partial_rotary_factor 0', { ...BASE, partial_rotary_factor: 0 }, RangeError, 'config.partial_rotary_factor'],
  [
    'partial_rotary_factor above 1',
    { ...BASE, partial_rotary_factor: 1.5 },
    RangeError,
    'config.partial_rotary_factor',
  ],
  [
    'rotary_pct giving an odd rotary dimension (GPT-NeoX)',
    { ...BASE, model_type: 'gpt_neox', rope_theta: undefined, rotary_pct: 0.375 },
    RangeError,
    'config.rotary_pct',
  ],
  [
    'rotary_pct disagreeing with partial_rotary_factor',
    { ...BASE, partial_rotary_factor: 0.5, rotary_pct: 0.25 },
    RangeError,
    'config.rotary_pct',
  ],
  ['rope_theta a string', { ...BASE, rope_theta: '10000' }, TypeError, 'config.rope_theta'],
  [
    'rotary_emb_base disagreeing with rope_theta',
    { ...BASE, rotary_emb_base: 500000 },
    RangeError,
    'config.rotary_emb_base',
  ],
  ['rope_scaling a string', { ...BASE, rope_scaling: 'yarn' }, TypeError, 'config.rope_scaling'],
  ['rope type unknown', { ...BASE, rope_scaling: { type: 'ntk', factor: 2.0 } }, TypeError, 'config.rope_scaling.type'],
  [
    "rope type mrope outside Qwen2-VL's model types",
    { ...BASE, rope_scaling: { type: 'mrope', mrope_section: [1, 1, 2] } },
    TypeError,
    'config.rope_scaling.type',
  ],
  [
    'mrope_section of two',
    { ...BASE, rope_scaling: { rope_type: 'default', mrope_section: [2, 2] } },
    RangeError,
    'config.rope_scaling.mrope_section',
  ],
  [
    'mrope_section holding a string',
    { ...BASE, rope_scaling: { rope_type: 'default', mrope_section: [2, '1', 1] } },
    TypeError,
    'config.rope_scaling.mrope_section[1]',
  ],
  [
    'mrope_interleaved a string',
    { ...BASE, rope_scaling: { rope_type: 'default', mrope_section: [2, 1, 1], mrope_interleaved: 'true' } },
    TypeError,
    'config.rope_scaling.mrope_interleaved',
  ],
  [
    'mrope_section disagreeing between rope_scaling and rope_parameters',
    {
      ...BASE,
      rope_scaling: { rope_type: 'default', mrope_section: [2, 1, 1] },
      rope_parameters: { rope_type: 'default', mrope_section: [1, 2, 1] },
    },
    RangeError,
    'config.rope_parameters.mrope_section',
  ],
  [
    "rope type 'su' outside Phi-3",
    { ...BASE, rope_scaling: { type: 'su', short_factor: [1], long_factor: [1] } },
    TypeError,
    'config.rope_scaling.type',
  ],
  ['rope_type a number', { ...BASE, rope_scaling: { rope_type: 3 } }, TypeError, 'config.rope_scaling.rope_type'],
  [
    'type and rope_type disagreeing',
    { ...BASE, rope_scaling: { ...YARN, type: 'linear' } },
    RangeError,
    'config.rope_scaling.type',
  ],
  [
    'a key the type does not read',
    { ...BASE, rope_scaling: { ...YARN, low_freq_factor: 1.0 } },
    TypeError,
    'config.rope_scaling.low_freq_factor',
  ],
  [
    'an unknown key',
    { ...BASE, rope_scaling: { ...YARN, finetuned: true } },
    TypeError,
    'config.rope_scaling.finetuned',
  ],
  ['factor a string', { ...BASE, rope_scaling: { ...YARN, factor: '4' } }, TypeError, 'config.rope_scaling.factor'],
  [
    'short_factor holding a string',
    { ...BASE, rope_scaling: { type: 'longrope', short_factor: [1, '2'], long_factor: [1, 2] } },
    TypeError,
    'config.rope_scaling.short_factor[1]',
  ],
  [
    'original_max_position_embeddings in two places, disagreeing',
    { ...BASE, original_max_position_embeddings: 2048, rope_scaling: YARN },
    RangeError,
    'config.rope_scaling.original_max_position_embeddings',
  ],
  [
    'a longrope factor transformers 4 and 5 read differently',
    {
      ...BASE,
      original_max_position_embeddings: 1024,
      rope_scaling: { type: 'longrope', factor: 2.0, short_factor: [1, 1], long_factor: [2, 2] },
    },
    RangeError,
    'config.rope_scaling.factor',
  ],
  [
    'rope_scaling and rope_parameters disagreeing',
    { ...BASE, rope_scaling: YARN, rope_parameters: { ...YARN, factor: 8.0 } },
    RangeError,
    'config.rope_parameters',
  ],
  [
    'rope_parameters with another rope_theta',
    { ...BASE, rope_parameters: { rope_type: 'default', rope_theta: 500000.0 } },
    RangeError,
    'config.rope_theta',
  ],
  [
    'rope_parameters per layer type (Gemma 3)',
    {
      ...BASE,
      rope_parameters: { full_attention: { rope_type: 'default' }, sliding_attention: { rope_type: 'default' } },
    },
    TypeError,
    'config.rope_parameters',
  ],
  [
    'rope_local_base_freq (Gemma 3)',
    { ...BASE, rope_local_base_freq: 10000.0 },
    TypeError,
    'config.rope_local_base_freq',
  ],
  [
    'rope_local_base_freq a string (Gemma 3)',
    { ...GEMMA3, rope_local_base_freq: '10000' },
    TypeError,
    'config.rope_local_base_freq',
  ],
  [
    "rope_local_base_freq disagreeing with rope_parameters.sliding_attention's rope_theta",
    {
      ...GEMMA3,
      rope_local_base_freq: 20000.0,
      rope_parameters: { sliding_attention: { rope_type: 'default', rope_theta: 10000.0 } },
    },
    RangeError,
    'config.rope_local_base_freq',
  ],
  [
    "rope_theta disagreeing with rope_parameters.full_attention's",
    {
      ...GEMMA3,
      rope_theta: 1000000.0,
      rope_parameters: { full_attention: { rope_type: 'default', rope_theta: 5.0 } },
    },
    RangeError,
    'config.rope_theta',
  ],
  [
    "rope_scaling disagreeing with rope_parameters.full_attention (Gemma 3's global layers)",
    {
      ...GEMMA3,
      rope_scaling: { rope_type: 'linear', factor: 8.0 },
      rope_parameters: { full_attention: { rope_type: 'linear', factor: 4.0 } },
    },
    RangeError,
    'config.rope_parameters.full_attention',
  ],
  [
    'rope_parameters flat for Gemma 3 (its form is per layer type)',
    { ...GEMMA3, rope_parameters: { rope_type: 'linear', factor: 8.0 } },
    TypeError,
    'config.rope_parameters',
  ],
  [
    'rope_parameters for a layer type Gemma 3 does not have',
    { ...GEMMA3, rope_parameters: { chunked_attention: { rope_type: 'default' } } },
    TypeError,
    'config.rope_parameters.chunked_attention',
  ],
  [
    "rope_parameters.sliding_attention's type unknown",
    { ...GEMMA3, rope_parameters: { sliding_attention: { rope_type: 'ntk' } } },
    TypeError,
    'config.rope_parameters.sliding_attention.rope_type',
  ],
  ['num_hidden_layers 0', { ...BASE, num_hidden_layers: 0 }, RangeError, 'config.num_hidden_layers'],
  ['num_hidden_layers a string', { ...BASE, num_hidden_layers: '26' }, TypeError, 'config.num_hidden_layers'],
  [
    'sliding_window_pattern 0 (Gemma 3)',
    { ...GEMMA3, sliding_window_pattern: 0 },
    RangeError,
    'config.sliding_window_pattern',
  ],
  [
    'sliding_window_pattern a string (Cohere 2)',
    { ...COHERE2, sliding_window_pattern: '4' },
    TypeError,
    'config.sliding_window_pattern',
  ],
  ['layer_types not a list', { ...GEMMA3, layer_types: 'sliding_attention' }, TypeError, 'config.layer_types'],
  [
    'layer_types of another length than num_hidden_layers',
    { ...GEMMA3, layer_types: ['sliding_attention', 'full_attention'] },
    RangeError,
    'config.layer_types',
  ],
  [
    'layer_types holding a number',
    { ...COHERE2, num_hidden_layers: 2, layer_types: ['sliding_attention', 1] },
    TypeError,
    'config.layer_types[1]',
  ],
  [
    'layer_types holding a type Gemma 3 does not have',
    { ...GEMMA3, num_hidden_layers: 2, layer_types: ['sliding_attention', 'chunked_attention'] },
    RangeError,
    'config.layer_types[1]',
  ],
  [
    'no_rope_layers shorter than num_hidden_layers',
    { ...SMOLLM3, no_rope_layers: [1, 1, 1] },
    RangeError,
    'config.no_rope_layers',
  ],
  [
    'no_rope_layers empty (SmolLM3 reads it as given)',
    { ...SMOLLM3, no_rope_layers: [] },
    RangeError,
    'config.no_rope_layers',
  ],
  [
    'no_rope_layers listing layer numbers instead of flags',
    { ...SMOLLM3, num_hidden_layers: 4, no_rope_layers: [3, 7, 11, 15] },
    RangeError,
    'config.no_rope_layers[0]',
  ],
  [
    'no_rope_layers holding a boolean',
    { ...SMOLLM3, num_hidden_layers: 2, no_rope_layers: [1, true] },
    TypeError,
    'config.no_rope_layers[1]',
  ],
  [
    'no_rope_layer_interval 0 (Llama 4)',
    { ...LLAMA4, no_rope_layers: null, no_rope_layer_interval: 0 },
    RangeError,
    'config.no_rope_layer_interval',
  ],
  ['rope_interleave a string', { ...BASE, rope_interleave: 'yes' }, TypeError, 'config.rope_interleave'],
  ['model_type a number', { ...BASE, model_type: 1 }, TypeError, 'config.model_type'],
];

describe('fromHfConfig: mistakes name the config key', () => {
  for (const [label, config, type, parameter] of MISTAKES) {
    it(label, () => {
      const error = assertParameterError(() => fromHfConfig(config), type, parameter, label);
      assert.ok(error.message.startsWith('posenc.fromHfConfig: '), error.message);
      assert.equal(error.function, 'fromHfConfig');
    });
  }

  it('the messages say what to do', () => {
    const messageOf = (config) => {
      try {
        fromHfConfig(config);
      } catch (error) {
        return error.message;
      }
      assert.fail('no error');
    };
    assert.match(
      messageOf({ ...BASE, rope_scaling: { type: 'ntk' } }),
      /"ntk", a RoPE type posenc does not model \(it models default, linear, dynamic, yarn, llama3, longrope, proportional\)/,
    );
    assert.match(messageOf(JSON.stringify(BASE)), /JSON\.parse/);
    assert.match(messageOf({ text_config: BASE }), /config\.text_config/);
    assert.match(
      messageOf({ ...BASE, max_position_embeddings: undefined, rope_scaling: { type: 'dynamic', factor: 2.0 } }),
      /config\.max_position_embeddings is required for dynamic RoPE/,
    );
    assert.match(messageOf({ ...GEMMA3, rope_local_base_freq: '10000' }), /rope_local_base_freq must be a number/);
    assert.match(messageOf({ ...BASE, rope_local_base_freq: 10000.0 }), /model_type 'gemma3_text'/);
  });
});

describe('fromHfConfig: what transformers reads, key by key', () => {
  it('rope_scaling: null, absent, {type: "default"} and {} are plain RoPE', () => {
    const plain = fromHfConfig(BASE);
    assert.deepEqual(plain.ropeOptions, { headDim: 8, rotaryDim: 8, base: 10000, layout: 'half' });
    for (const rope_scaling of [null, { type: 'default' }, { rope_type: 'default' }, {}]) {
      assert.deepEqual(fromHfConfig({ ...BASE, rope_scaling }), plain, JSON.stringify(rope_scaling));
    }
    assert.deepEqual(fromHfConfig({ ...BASE, rope_theta: undefined }).ropeOptions.base, 10000, 'default_theta');
    assert.equal(fromHfConfig({ ...BASE, num_key_value_heads: null }).numKvHeads, 4, 'num_key_value_heads: null');
  });

  it("Phi-3's old type names: 'su' and 'yarn' read as longrope, as Phi3Config renames them", () => {
    const phi = readConfig('phi-3.5-mini-instruct.json');
    for (const type of ['su', 'yarn']) {
      const renamed = { ...phi, rope_scaling: { ...phi.rope_scaling, type } };
      assert.deepEqual(fromHfConfig(renamed), fromHfConfig(phi), type);
    }
  });

  it('model defaults: GPT-NeoX rotary_pct 0.25, Phi 0.5; DeepSeek-V3 interleaved unless rope_interleave is false', () => {
    const neox = readConfig('gpt-neox-20b.json');
    delete neox.rotary_pct;
    assert.equal(fromHfConfig(neox).ropeOptions.rotaryDim, 24);
    const phi2 = readConfig('phi-2.json');
    delete phi2.partial_rotary_factor;
    assert.equal(fromHfConfig(phi2).ropeOptions.rotaryDim, 40);
    const deepseek = readConfig('deepseek-v3.json');
    assert.equal(fromHfConfig({ ...deepseek, rope_interleave: false }).ropeOptions.layout, 'half');
    assert.equal(fromHfConfig({ ...BASE, rope_interleave: true }).ropeOptions.layout, 'interleaved');
  });

  it('YaRN without factor takes max_position_embeddings / original (transformers 5); betas of 0 are the defaults', () => {
    const { scaling } = fromHfConfig({
      ...BASE,
      rope_scaling: { rope_type: 'yarn', original_max_position_embeddings: 1024 },
    }).ropeOptions;
    assert.equal(scaling.factor, 4);
    const zero = fromHfConfig({ ...BASE, rope_scaling: { ...YARN, beta_fast: 0, beta_slow: 0 } }).ropeOptions.scaling;
    assert.deepEqual(zero, { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 1024 });
  });

  it('dynamic NTK: the original length is max_position_embeddings (a rope_scaling one is not read)', () => {
    const { scaling } = fromHfConfig({
      ...BASE,
      rope_scaling: { type: 'dynamic', factor: 2.0, original_max_position_embeddings: 99 },
    }).ropeOptions;
    assert.deepEqual(scaling, { type: 'dynamic', factor: 2, originalMaxPositionEmbeddings: 4096 });
  });
});

describe('fromHfConfig: each layer its RoPE', () => {
  const bases = (layers) => layers.map((layer) => (layer === null ? null : layer.base));

  it('models whose layers share one RoPE: ropeOptions a plain data property, layers num_hidden_layers separate copies', () => {
    const result = fromHfConfig({ ...BASE, num_hidden_layers: 3 });
    const descriptor = Object.getOwnPropertyDescriptor(result, 'ropeOptions');
    assert.ok('value' in descriptor && descriptor.enumerable, 'a data property');
    assert.deepEqual(result.layers, [result.ropeOptions, result.ropeOptions, result.ropeOptions]);
    result.layers[0].base = 1;
    assert.equal(result.layers[1].base, 10000, 'changing one layer changes no other');
    assert.equal(result.ropeOptions.base, 10000);
    assert.ok(!('layers' in fromHfConfig(BASE)), 'no num_hidden_layers, all layers alike: no layers');
  });

  it('Gemma 3: sliding layers at rope_local_base_freq (plain), every sliding_window_pattern-th at rope_theta with rope_scaling', () => {
    const result = fromHfConfig({
      ...GEMMA3,
      rope_local_base_freq: 10000.0,
      sliding_window_pattern: 6,
      rope_scaling: { rope_type: 'linear', factor: 8.0 },
    });
    const local = { headDim: 8, rotaryDim: 8, base: 10000, layout: 'half' };
    const global = { ...local, base: 1000000, scaling: { type: 'linear', factor: 8 } };
    assert.deepEqual(result.layers, [
      local,
      local,
      local,
      local,
      local,
      global,
      local,
      local,
      local,
      local,
      local,
      global,
    ]);
    const error = assertParameterError(() => result.ropeOptions, TypeError, 'ropeOptions');
    assert.match(error.message, /10 layers at base 10000, 2 layers at base 1000000 with linear scaling.*layers\[i\]/);
    assert.ok(!Object.keys(result).includes('ropeOptions'), 'not enumerable: spread and JSON see layers');
    assert.deepEqual(JSON.parse(JSON.stringify(result)).layers, result.layers);
    assert.deepEqual({ ...result }.layers, result.layers);
  });

  it('Gemma 3: layer_types instead of the pattern; the class defaults (Gemma3TextConfig) where the file gives none', () => {
    const types = ['full_attention', 'sliding_attention', 'full_attention'];
    const result = fromHfConfig({ ...GEMMA3, num_hidden_layers: 3, layer_types: types, rope_local_base_freq: 20000.0 });
    assert.deepEqual(bases(result.layers), [1000000, 20000, 1000000]);
    const defaults = fromHfConfig({ model_type: 'gemma3_text' });
    assert.deepEqual(
      { numHeads: defaults.numHeads, numKvHeads: defaults.numKvHeads, max: defaults.maxPositionEmbeddings },
      { numHeads: 8, numKvHeads: 4, max: 131072 },
    );
    assert.equal(defaults.layers.length, 26);
    assert.deepEqual(
      bases(defaults.layers)
        .map((base) => (base === 10000 ? 'L' : 'G'))
        .join(''),
      'LLLLLGLLLLLGLLLLLGLLLLLGLL',
    );
    assert.equal(defaults.layers[0].headDim, 256);
    const whole = readConfig('gemma-3-4b-it.json');
    const error = assertParameterError(() => fromHfConfig(whole), TypeError, 'config.num_attention_heads');
    assert.match(error.message, /config\.text_config/, 'the multimodal file: its text_config is the model');
  });

  it("Gemma 3's transformers 5 form: rope_parameters per layer type, a missing type plain RoPE at its default base", () => {
    const result = fromHfConfig({
      ...GEMMA3,
      rope_theta: undefined,
      num_hidden_layers: 6,
      rope_parameters: { full_attention: { rope_type: 'yarn', factor: 4.0, rope_theta: 500000.0 } },
    });
    assert.deepEqual(bases(result.layers), [10000, 10000, 10000, 10000, 10000, 500000]);
    // Per layer type, transformers 5 takes the original length from max_position_embeddings.
    assert.deepEqual(result.layers[5].scaling, { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096 });
    assert.equal(result.layers[0].scaling, undefined);
  });

  it('SmolLM3: no_rope_layers[i] = 1 rotates, 0 is NoPE (null); without the key every no_rope_layer_interval-th is NoPE', () => {
    const result = fromHfConfig(SMOLLM3);
    const rope = { headDim: 8, rotaryDim: 8, base: 10000, layout: 'half' };
    assert.deepEqual(result.layers, [rope, rope, rope, null, rope, rope, rope, null]);
    assert.deepEqual(result.ropeOptions, rope, 'the rotating layers agree: ropeOptions is their RoPE');
    const byInterval = fromHfConfig({
      ...SMOLLM3,
      rope_theta: undefined,
      no_rope_layers: null,
      no_rope_layer_interval: 2,
    });
    assert.deepEqual(bases(byInterval.layers), [2000000, null, 2000000, null, 2000000, null, 2000000, null]);
    const longer = fromHfConfig({ ...SMOLLM3, num_hidden_layers: 2, no_rope_layers: [0, 1, 1] });
    assert.deepEqual(bases(longer.layers), [null, 10000], 'entries past the last layer are not read as layers');
    const none = fromHfConfig({ ...SMOLLM3, no_rope_layers: [0, 0, 0, 0, 0, 0, 0, 0] });
    assertParameterError(() => none.ropeOptions, TypeError, 'ropeOptions');
  });

  it('Llama 4: an empty no_rope_layers is the interval (4) default; interleaved pairs', () => {
    const result = fromHfConfig(LLAMA4);
    assert.deepEqual(bases(result.layers), [10000, 10000, 10000, null, 10000, 10000, 10000, null]);
    assert.equal(result.ropeOptions.layout, 'interleaved');
    const given = fromHfConfig({ ...LLAMA4, no_rope_layers: [0, 1, 1, 1, 1, 1, 1, 1] });
    assert.deepEqual(bases(given.layers), [null, 10000, 10000, 10000, 10000, 10000, 10000, 10000]);
  });

  it('Cohere 2: only sliding layers rotate (full ones are NoPE), pattern 4 by default, interleaved pairs; Cohere too', () => {
    const result = fromHfConfig({ ...COHERE2, sliding_window_pattern: undefined });
    assert.deepEqual(bases(result.layers), [10000, 10000, 10000, null, 10000, 10000, 10000, null]);
    assert.equal(result.ropeOptions.layout, 'interleaved');
    const typed = fromHfConfig({
      ...COHERE2,
      num_hidden_layers: 2,
      layer_types: ['full_attention', 'sliding_attention'],
    });
    assert.deepEqual(bases(typed.layers), [null, 10000]);
    assert.equal(fromHfConfig({ ...BASE, model_type: 'cohere' }).ropeOptions.layout, 'interleaved');
  });

  it('max_position_embeddings: not needed for plain RoPE, linear scaling, or YaRN and llama3 that give their lengths', () => {
    const { max_position_embeddings: _, ...noMax } = BASE;
    assert.equal(fromHfConfig(noMax).maxPositionEmbeddings, undefined);
    assert.deepEqual(fromHfConfig(noMax).ropeOptions, fromHfConfig(BASE).ropeOptions);
    assert.equal(
      fromHfConfig({ ...noMax, rope_scaling: { type: 'linear', factor: 2.0 } }).ropeOptions.scaling.factor,
      2,
    );
    assert.deepEqual(fromHfConfig({ ...noMax, rope_scaling: YARN }).ropeOptions.scaling, {
      type: 'yarn',
      factor: 4,
      originalMaxPositionEmbeddings: 1024,
    });
    const llama3 = { rope_type: 'llama3', factor: 8.0, low_freq_factor: 1.0, high_freq_factor: 4.0 };
    const withOriginal = { ...llama3, original_max_position_embeddings: 8192 };
    assert.equal(
      fromHfConfig({ ...noMax, rope_scaling: withOriginal }).ropeOptions.scaling.originalMaxPositionEmbeddings,
      8192,
    );
  });
});

describe('fromHfConfig reads the per-layer keys once', () => {
  /** A copy of `value` whose properties (every level, array entries too) count their reads. */
  function counted(value, reads, path = 'config') {
    if (value === null || typeof value !== 'object') return value;
    const copy = Array.isArray(value) ? [] : {};
    for (const [key, inner] of Object.entries(value)) {
      const at = Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`;
      const wrapped = counted(inner, reads, at);
      Object.defineProperty(copy, key, {
        enumerable: true,
        get: () => {
          reads.set(at, (reads.get(at) ?? 0) + 1);
          return wrapped;
        },
      });
    }
    return copy;
  }

  /** Per file, the per-layer keys that must be read, in its own form and in its transformers 5 form. */
  const PER_LAYER_KEYS = {
    'smollm3-3b.json': [['config.no_rope_layers[35]'], ['config.no_rope_layers[35]']],
    'gemma-3-1b-it.json': [
      ['config.sliding_window_pattern', 'config.rope_local_base_freq'],
      ['config.layer_types[25]', 'config.rope_parameters.sliding_attention.rope_theta'],
    ],
    'llama-4-scout-17b-16e-instruct.json': [['config.no_rope_layers'], ['config.no_rope_layers']],
    'gemma-3-4b-it.json': [
      ['config.rope_scaling.factor', 'config.num_hidden_layers'],
      ['config.layer_types[33]', 'config.rope_parameters.full_attention.factor'],
    ],
    'cohere2-defaults.json': [['config.sliding_window_pattern'], ['config.sliding_window_pattern']],
  };
  for (const [file, keys] of Object.entries(PER_LAYER_KEYS)) {
    it(`${file} and its transformers 5 form: every getter (layer_types, no_rope_layers, rope_parameters per type) runs once`, () => {
      const text = readConfig(file).text_config ?? readConfig(file);
      for (const [form, config] of [text, transformers5Form(text)].entries()) {
        const reads = new Map();
        assert.deepEqual(fromHfConfig(counted(config, reads)), fromHfConfig(config));
        for (const [key, count] of reads) assert.equal(count, 1, `${key} read ${count} times`);
        for (const key of keys[form]) assert.equal(reads.get(key), 1, `${key} read`);
      }
    });
  }

  it('a throwing getter or Proxy trap in the new keys names the key; nothing is written', () => {
    const throwingAt = (value, index) =>
      new Proxy(value, {
        get(target, key, receiver) {
          if (key === String(index)) throw new Error('boom');
          return Reflect.get(target, key, receiver);
        },
      });
    const cases = [
      [
        {
          ...COHERE2,
          num_hidden_layers: 3,
          layer_types: throwingAt(['sliding_attention', 'sliding_attention', 'full_attention'], 2),
        },
        'config.layer_types[2]',
      ],
      [{ ...SMOLLM3, no_rope_layers: throwingAt([1, 1, 1, 0, 1, 1, 1, 0], 1) }, 'config.no_rope_layers[1]'],
      [
        {
          ...GEMMA3,
          rope_parameters: {
            full_attention: new Proxy(
              {},
              {
                ownKeys() {
                  throw new Error('no keys');
                },
              },
            ),
          },
        },
        'config.rope_parameters.full_attention',
      ],
    ];
    for (const key of [
      'sliding_window_pattern',
      'rope_local_base_freq',
      'num_hidden_layers',
      'no_rope_layer_interval',
    ]) {
      const config = { ...GEMMA3, model_type: key === 'no_rope_layer_interval' ? 'smollm3' : 'gemma3_text' };
      if (key === 'no_rope_layer_interval') delete config.no_rope_layers;
      Object.defineProperty(config, key, {
        enumerable: true,
        get() {
          throw new Error('boom');
        },
      });
      cases.push([config, `config.${key}`]);
    }
    for (const [config, parameter] of cases) {
      const error = assertParameterError(() => fromHfConfig(config), TypeError, parameter);
      assert.match(error.message, /could not be read/);
    }
    fromHfConfig(frozen(readConfig('smollm3-3b.json')));
    fromHfConfig(frozen(transformers5Form(readConfig('gemma-3-1b-it.json'))));
  });
});

describe('fromHfConfig: proportional RoPE (Gemma 4 global layers; no single-dict config.json found to test verbatim)', () => {
  it("partial_rotary_factor is the scaling's own key, from the rope dict or the top level; rotaryDim is the head", () => {
    const inDict = fromHfConfig({
      ...BASE,
      head_dim: 512,
      rope_theta: null,
      rope_parameters: { rope_type: 'proportional', partial_rotary_factor: 0.25, rope_theta: 1000000.0 },
    }).ropeOptions;
    assert.deepEqual(inDict, {
      headDim: 512,
      rotaryDim: 512,
      base: 1000000,
      layout: 'half',
      scaling: { type: 'proportional', partialRotaryFactor: 0.25 },
    });
    const topLevel = fromHfConfig({
      ...BASE,
      head_dim: 512,
      partial_rotary_factor: 0.25,
      rope_theta: 1000000.0,
      rope_parameters: { rope_type: 'proportional', factor: 2.0 },
    }).ropeOptions;
    assert.deepEqual(topLevel.scaling, { type: 'proportional', factor: 2, partialRotaryFactor: 0.25 });
    assert.equal(topLevel.rotaryDim, 512);
    const plain = fromHfConfig({ ...BASE, rope_parameters: { rope_type: 'proportional' } }).ropeOptions;
    assert.deepEqual(plain.scaling, { type: 'proportional' });
    assert.equal(plain.rotaryDim, plain.headDim);
  });
});

describe('fromHfConfig reads the config once and never changes it', () => {
  it('own properties only, each read once; a getter that throws names its key; nothing written', () => {
    const reads = new Map();
    const config = readConfig('llama-3.1-8b-instruct.json');
    const counted = {};
    for (const [key, value] of Object.entries(config)) {
      Object.defineProperty(counted, key, {
        enumerable: true,
        get: () => {
          reads.set(key, (reads.get(key) ?? 0) + 1);
          return value;
        },
      });
    }
    assert.deepEqual(fromHfConfig(counted), fromHfConfig(config));
    for (const [key, count] of reads) assert.equal(count, 1, `${key} read ${count} times`);
    assert.ok(!reads.has('vocab_size'), 'keys that are not about RoPE are not read');

    const throwing = { ...BASE };
    Object.defineProperty(throwing, 'rope_theta', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    const error = assertParameterError(() => fromHfConfig(throwing), TypeError, 'config.rope_theta');
    assert.equal(error.cause.message, 'boom');
    const hostile = new Proxy(BASE, {
      ownKeys() {
        throw new Error('no keys');
      },
    });
    assertParameterError(() => fromHfConfig(hostile), TypeError, 'config');
    fromHfConfig(frozen(readConfig('phi-3.5-mini-instruct.json'))); // frozen: any write would throw
  });

  it('inherited keys (Object.prototype pollution) are neither config keys nor scaling values', () => {
    const yarn = { ...BASE, rope_scaling: { rope_type: 'yarn', original_max_position_embeddings: 1024 } };
    const gemma = { ...GEMMA3, rope_parameters: { full_attention: { rope_type: 'linear', factor: 8.0 } } };
    const configs = [BASE, yarn, SMOLLM3, gemma, { ...COHERE2, sliding_window_pattern: undefined }];
    const expected = configs.map(fromHfConfig);
    const polluted = {
      rope_scaling: { type: 'linear', factor: 2 },
      head_dim: 6,
      factor: 3,
      scaling: { type: 'linear' },
      num_hidden_layers: 2,
      layer_types: ['full_attention', 'full_attention'],
      no_rope_layers: [0, 0, 0, 0, 0, 0, 0, 0],
      sliding_window_pattern: 1,
      rope_local_base_freq: 5,
      sliding_attention: { rope_type: 'linear', factor: 2 },
    };
    for (const [key, value] of Object.entries(polluted)) Object.prototype[key] = value;
    let setterRan = false;
    Object.defineProperty(Object.prototype, 'originalMaxPositionEmbeddings', {
      configurable: true,
      set() {
        setterRan = true;
      },
    });
    const setters = ['originalMaxPositionEmbeddings', 'ropeOptions', 'layers', 'numHeads', 'maxPositionEmbeddings'];
    for (const key of setters.slice(1)) {
      Object.defineProperty(Object.prototype, key, {
        configurable: true,
        set() {
          setterRan = true;
        },
      });
    }
    try {
      const results = configs.map(fromHfConfig);
      assert.deepEqual(results, expected);
      assert.deepEqual(results[3].layers, expected[3].layers);
      assert.ok(!setterRan, 'an inherited setter never runs');
    } finally {
      for (const key of [...Object.keys(polluted), ...setters]) delete Object.prototype[key];
    }
  });
});

const root = fileURLToPath(new URL('../../', import.meta.url));
const CONSUMER_TS = `
import { fromHfConfig, loadPosenc, type HfRopeConfig, type HfRopeOptions } from '${join(root, 'bindings/js/index.js')}';
const posenc = await loadPosenc({ simd: false });
const config: HfRopeConfig = fromHfConfig(JSON.parse('{}'));
const { ropeOptions, layers, numHeads, numKvHeads, maxPositionEmbeddings } = config;
const o: HfRopeOptions = ropeOptions;
const layer: HfRopeOptions | null | undefined = layers?.[0];
const perLayer = layers?.map((l) => (l === null ? null : posenc.ropePlan({ ...l, seqLen: 1, numHeads })));
const m: number | undefined = maxPositionEmbeddings;
const s = posenc.ropeSchedule({ ...o, seqLen: maxPositionEmbeddings });
const f: Float64Array = posenc.ropeFrequencies(ropeOptions);
const c = posenc.ropeCache({ ...ropeOptions, seqLen: 4 });
const x: Float32Array = posenc.rope(new Float32Array(8), { ...ropeOptions, seqLen: 1, numHeads });
const qk = posenc.ropeQK(new Float32Array(8), new Float32Array(8), { ...ropeOptions, seqLen: 1, numHeads, numKvHeads });
const plan = posenc.ropePlan({ ...ropeOptions, seqLen: 1, numHeads, numKvHeads });
// @ts-expect-error: layouts are checked
const bad: HfRopeOptions = { ...ropeOptions, layout: 'concat' };
console.log(s.invFreq, f, c.cos, x, qk.q, plan.rotaryDim, bad, layer, perLayer, m);
`;

it('index.d.ts: fromHfConfig and its result, accepted by every rope function without casts (strict TypeScript)', () => {
  typecheckScratch(CONSUMER_TS);
});
