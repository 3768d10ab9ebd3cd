// Long-context RoPE configurations of real models, as posenc's `scaling` option takes them:
// Hugging Face's rope_scaling with `rope_type` written `type` and every key in camelCase, plus
// the model's rope_theta (base) and rotary dimension. The long-context section offers these.
//
// trainedLength is the original training length L0 (the scaling's originalMaxPositionEmbeddings,
// or the model's own context length where the scaling type has no such key). linearFactor is
// the stretch a plain linear interpolation would need for the same target length, shown beside
// each schedule for comparison.

// Phi-3.5-mini-instruct's config.json: one factor per rotary pair (48 pairs of a 96-channel head).
const PHI35_SHORT_FACTOR = [
  1, 1.0199999809265137, 1.0299999713897705, 1.0299999713897705, 1.0499999523162842, 1.0499999523162842,
  1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0699999332427979, 1.0999999046325684,
  1.1099998950958252, 1.1599998474121094, 1.1599998474121094, 1.1699998378753662, 1.2899998426437378, 1.339999794960022,
  1.679999828338623, 1.7899998426437378, 1.8199998140335083, 1.8499997854232788, 1.8799997568130493, 1.9099997282028198,
  1.9399996995925903, 1.9899996519088745, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346,
  2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0299997329711914, 2.0299997329711914,
  2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914,
  2.0299997329711914, 2.0299997329711914, 2.0799996852874756, 2.0899996757507324, 2.189999580383301, 2.2199995517730713,
  2.5899994373321533, 2.729999542236328, 2.749999523162842, 2.8399994373321533,
];
const PHI35_LONG_FACTOR = [
  1.0800000429153442, 1.1100000143051147, 1.1399999856948853, 1.340000033378601, 1.5899999141693115, 1.600000023841858,
  1.6200000047683716, 2.620000123977661, 3.2300000190734863, 3.2300000190734863, 4.789999961853027, 7.400000095367432,
  7.700000286102295, 9.09000015258789, 12.199999809265137, 17.670000076293945, 24.46000099182129, 28.57000160217285,
  30.420001983642578, 30.840002059936523, 32.590003967285156, 32.93000411987305, 42.320003509521484, 44.96000289916992,
  50.340003967285156, 50.45000457763672, 57.55000305175781, 57.93000411987305, 58.21000289916992, 60.1400032043457,
  62.61000442504883, 62.62000274658203, 62.71000289916992, 63.1400032043457, 63.1400032043457, 63.77000427246094,
  63.93000411987305, 63.96000289916992, 63.970001220703125, 64.02999877929688, 64.06999969482422, 64.08000183105469,
  64.12000274658203, 64.41000366210938, 64.4800033569336, 64.51000213623047, 64.52999877929688, 64.83999633789062,
];

export const LONG_CONTEXT_PRESETS = [
  {
    id: 'llama3.1',
    label: 'Llama 3.1 8B (llama3, factor 8)',
    model: 'Llama 3.1 8B',
    base: 500000,
    rotaryDim: 128,
    trainedLength: 8192,
    linearFactor: 8,
    note: 'Meta then trained Llama 3.1 further on sequences of up to 128K tokens with this schedule in place: the scaling makes long inputs look familiar enough to learn from, the training does the rest.',
    scaling: { type: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 8192 },
  },
  {
    id: 'qwen2.5',
    label: 'Qwen2.5-7B-Instruct (yarn, factor 4)',
    model: 'Qwen2.5-7B-Instruct with YaRN',
    base: 1000000,
    rotaryDim: 128,
    trainedLength: 32768,
    linearFactor: 4,
    note: 'Qwen2.5’s config.json ships without rope_scaling; its model card tells you to add this YaRN block for inputs beyond 32 768 tokens (static YaRN: short inputs get the stretched schedule too).',
    scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 32768 },
  },
  {
    id: 'phi3.5',
    label: 'Phi-3.5-mini-instruct (longrope)',
    model: 'Phi-3.5-mini-instruct',
    base: 10000,
    rotaryDim: 96,
    trainedLength: 4096,
    linearFactor: 32,
    note: 'LongRoPE’s factors were found by search, one per pair. Phi-3.5 switches from the short to the long list as soon as the sequence is longer than 4096 tokens, for the whole sequence. Its attention factor is √(1 + ln 32 / ln 4096).',
    scaling: {
      type: 'longrope',
      shortFactor: PHI35_SHORT_FACTOR,
      longFactor: PHI35_LONG_FACTOR,
      originalMaxPositionEmbeddings: 4096,
      maxPositionEmbeddings: 131072,
    },
  },
  {
    // qk_rope_head_dim 64: DeepSeek rotates only a 64-channel part of each head.
    id: 'deepseek-v3',
    label: 'DeepSeek-V3 (yarn with mscale, factor 40)',
    model: 'DeepSeek-V3',
    base: 10000,
    rotaryDim: 64,
    trainedLength: 4096,
    linearFactor: 40,
    note: 'With mscale = mscaleAllDim = 1 the factor applied to cos and sin is their ratio, 1. DeepSeek-V3’s attention code multiplies its softmax scale by (0.1 ln 40 + 1)² ≈ 1.874 instead.',
    scaling: {
      type: 'yarn',
      factor: 40,
      originalMaxPositionEmbeddings: 4096,
      betaFast: 32,
      betaSlow: 1,
      mscale: 1,
      mscaleAllDim: 1,
    },
  },
  {
    // Linear scaling (position interpolation), GPT-NeoX-style rotary code, on Llama 2 7B's geometry
    // (trained on 4096 positions).
    id: 'linear',
    label: 'Linear interpolation, factor 2 (Llama 2 7B geometry)',
    model: 'a Llama 2 7B-shaped model',
    base: 10000,
    rotaryDim: 128,
    trainedLength: 4096,
    linearFactor: 2,
    note: 'Position interpolation (Chen et al., 2023): every angle is halved, so distances up to 2 × 4096 map into the trained range — at the price of neighbouring tokens being half as far apart in every pair.',
    scaling: { type: 'linear', factor: 2 },
  },
  {
    id: 'dynamic',
    label: 'Dynamic NTK, factor 2 (trained on 2048)',
    model: 'a model trained on 2048 positions',
    base: 10000,
    rotaryDim: 128,
    trainedLength: 2048,
    linearFactor: 2,
    note: 'Dynamic NTK scaling leaves everything as trained while the sequence fits in 2048 positions, then raises the base with the current length: the fast pairs barely change, the slow ones stretch most.',
    scaling: { type: 'dynamic', factor: 2, originalMaxPositionEmbeddings: 2048 },
  },
];

export const PRESET_IDS = LONG_CONTEXT_PRESETS.map((preset) => preset.id);

export function presetById(id) {
  return LONG_CONTEXT_PRESETS.find((preset) => preset.id === id) ?? LONG_CONTEXT_PRESETS[0];
}
