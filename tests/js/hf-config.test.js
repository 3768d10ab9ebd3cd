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
const SCHEDULE_BOUND = 1e-12; // relative: float64 formulas against float64 formulas
const relative = (got, want) => (want === 0 ? Math.abs(got) : Math.abs(got - want) / Math.abs(want));

/** The same file as transformers 5 saves it: rope_theta, partial factor and scaling in rope_parameters. */
function transformers5Form(config) {
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
    it(`${c.file}: heads, length, head size, rotary dimension, base, pairing, scaling type`, () => {
      const config = frozen(readConfig(c.file));
      const { ropeOptions, numHeads, numKvHeads, maxPositionEmbeddings } = fromHfConfig(config);
      assert.deepEqual(
        { numHeads, numKvHeads, maxPositionEmbeddings },
        { numHeads: c.numHeads, numKvHeads: c.numKvHeads, maxPositionEmbeddings: c.maxPositionEmbeddings },
      );
      const { headDim, rotaryDim, base, layout } = ropeOptions;
      assert.deepEqual(
        { headDim, rotaryDim, base, layout },
        { headDim: c.headDim, rotaryDim: c.rotaryDim, base: c.base, layout: c.layout },
      );
      assert.equal(ropeOptions.scaling?.type ?? 'default', c.scalingType);
      assert.equal('scaling' in ropeOptions, c.scalingType !== 'default', 'no scaling key for plain RoPE');
      assert.deepEqual(ropeOptions.mrope ?? null, c.mrope, 'M-RoPE sections and order');
    });

    it(`${c.file}: the transformers 5 form (rope_parameters), and both forms together, read the same`, () => {
      const config = readConfig(c.file);
      const v5 = transformers5Form(config);
      assert.deepEqual(fromHfConfig(v5), fromHfConfig(config));
      assert.deepEqual(fromHfConfig({ ...config, rope_parameters: v5.rope_parameters }), fromHfConfig(config));
    });
  }
});

for (const posenc of await loadBothVariants()) {
  describe(`fromHfConfig's options in every rope function (${posenc.variant})`, () => {
    it('ropeSchedule and ropeFrequencies: transformers\u2019 frequencies and attention factor (golden, 1e-12 relative)', (t) => {
      let worst = 0;
      for (const c of golden.cases) {
        const { ropeOptions } = fromHfConfig(readConfig(c.file));
        for (const s of c.schedules) {
          const options = { ...ropeOptions, seqLen: s.seqLen };
          const { invFreq, attentionFactor, rotaryDim } = posenc.ropeSchedule(options);
          assert.equal(rotaryDim, c.rotaryDim, `${c.file}: rotaryDim`);
          assert.equal(invFreq.length, s.invFreq.length, `${c.file}: pairs`);
          for (let i = 0; i < invFreq.length; i++) {
            const error = relative(invFreq[i], s.invFreq[i]);
            assert.ok(error <= SCHEDULE_BOUND, `${c.file} at ${s.seqLen}: pair ${i}: ${invFreq[i]} vs ${s.invFreq[i]}`);
            worst = Math.max(worst, error);
          }
          const error = relative(attentionFactor, s.attentionFactor);
          assert.ok(error <= SCHEDULE_BOUND, `${c.file}: attention factor ${attentionFactor} vs ${s.attentionFactor}`);
          worst = Math.max(worst, error);
          assertIdentical(posenc.ropeFrequencies(options), invFreq, `${c.file}: ropeFrequencies`);
        }
      }
      t.diagnostic(
        `${golden.cases.length} config files, largest relative deviation from transformers: ${worst.toExponential(2)}`,
      );
    });

    it('ropeCache, rope, ropeQK and ropePlan take ropeOptions unchanged and rotate by the golden schedule', () => {
      let seed = 1;
      for (const c of golden.cases) {
        const { ropeOptions } = fromHfConfig(readConfig(c.file));
        for (const s of c.schedules) {
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
    'max_position_embeddings missing',
    { ...BASE, max_position_embeddings: undefined },
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
    const expected = [fromHfConfig(BASE), fromHfConfig(yarn)];
    const polluted = {
      rope_scaling: { type: 'linear', factor: 2 },
      head_dim: 6,
      factor: 3,
      scaling: { type: 'linear' },
    };
    for (const [key, value] of Object.entries(polluted)) Object.prototype[key] = value;
    let setterRan = false;
    Object.defineProperty(Object.prototype, 'originalMaxPositionEmbeddings', {
      configurable: true,
      set() {
        setterRan = true;
      },
    });
    try {
      assert.deepEqual([fromHfConfig(BASE), fromHfConfig(yarn)], expected);
      assert.ok(!setterRan, 'an inherited setter never runs');
    } finally {
      for (const key of [...Object.keys(polluted), 'originalMaxPositionEmbeddings']) delete Object.prototype[key];
    }
  });
});

const root = fileURLToPath(new URL('../../', import.meta.url));
const CONSUMER_TS = `
import { fromHfConfig, loadPosenc, type HfRopeConfig, type HfRopeOptions } from '${join(root, 'bindings/js/index.js')}';
const posenc = await loadPosenc({ simd: false });
const config: HfRopeConfig = fromHfConfig(JSON.parse('{}'));
const { ropeOptions, numHeads, numKvHeads, maxPositionEmbeddings } = config;
const o: HfRopeOptions = ropeOptions;
const s = posenc.ropeSchedule({ ...o, seqLen: maxPositionEmbeddings });
const f: Float64Array = posenc.ropeFrequencies(ropeOptions);
const c = posenc.ropeCache({ ...ropeOptions, seqLen: 4 });
const x: Float32Array = posenc.rope(new Float32Array(8), { ...ropeOptions, seqLen: 1, numHeads });
const qk = posenc.ropeQK(new Float32Array(8), new Float32Array(8), { ...ropeOptions, seqLen: 1, numHeads, numKvHeads });
const plan = posenc.ropePlan({ ...ropeOptions, seqLen: 1, numHeads, numKvHeads });
// @ts-expect-error: layouts are checked
const bad: HfRopeOptions = { ...ropeOptions, layout: 'concat' };
console.log(s.invFreq, f, c.cos, x, qk.q, plan.rotaryDim, bad);
`;

it('index.d.ts: fromHfConfig and its result, accepted by every rope function without casts (strict TypeScript)', () => {
  typecheckScratch(CONSUMER_TS);
});
