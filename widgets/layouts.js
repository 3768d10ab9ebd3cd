// Where each frequency lives in a sinusoidal table, for both channel layouts:
//   interleaved: sin of pair i at channel 2i, cos at 2i + 1 (the paper, PyTorch tutorial);
//   concat:      sin of pair i at channel i, cos at d/2 + i (tensor2tensor).

/** The pair (frequency index) and function of channel k in a d-channel table. */
export function channelInfo(k, d, layout) {
  if (layout === 'concat') return k < d / 2 ? { pair: k, fn: 'sin' } : { pair: k - d / 2, fn: 'cos' };
  return { pair: Math.floor(k / 2), fn: k % 2 === 0 ? 'sin' : 'cos' };
}

/** The two channels RoPE rotates together for pair i of a rotaryDim-wide head. */
export function ropePairChannels(i, rotaryDim, layout) {
  return layout === 'half' ? [i, i + rotaryDim / 2] : [2 * i, 2 * i + 1];
}
