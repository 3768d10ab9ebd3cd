// Settings several elements share: the same spec (range, default) and control in each, so an
// attribute means the same everywhere.
import { numberControl } from '../controls.js';

/** A whole or real number setting with a slider and a number box labelled `label`. */
export const numberSetting = (spec, label) => ({
  spec,
  control: (state, key) => numberControl(state, key, { label }),
});

/** The frequency base n of the sinusoidal table and of RoPE (base^(−2i/d)). */
export const baseSetting = (label = 'base n') => ({
  spec: { type: 'number', default: 10000, min: 2, max: 1e8 },
  control: (state, key) => numberControl(state, key, { label, scale: 'log' }),
});

/** The seed of random token contents (tokens.js). */
export const seedSetting = (defaultSeed = 7) =>
  numberSetting({ type: 'int', default: defaultSeed, min: 1, max: 999999 }, 'seed');
