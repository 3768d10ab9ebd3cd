// The precision contract, swept: sinusoidal values within 2.5e-7 of float64 for positions up
// to 2^24 - 1 and dModel up to 8192; RoPE components within 5e-7 (|x_a| + |x_b|). Positions are
// sampled (powers of two and their neighbours, random ones, a consecutive window) so the sweep
// stays fast.
import { describe, it } from 'node:test';

import { ropeReference, sinusoidalReference } from './reference.js';
import {
  ROPE_EPS,
  TABLE_BOUND,
  assertClose,
  assertRopeClose,
  loadBothVariants,
  randomNormal,
  randomPositions,
} from './support.js';

const MAX_CONTRACT_POSITION = 2 ** 24 - 1;

/** 2^k - 1, 2^k, 2^k + 1 for k = 1..23, 2^24 - 1, and random positions below 2^24. */
function sampledPositions(randomCount, seed) {
  const positions = [0, 1, MAX_CONTRACT_POSITION, MAX_CONTRACT_POSITION - 1];
  for (let k = 1; k < 24; k++) positions.push(2 ** k - 1, 2 ** k, 2 ** k + 1);
  return [...positions, ...randomPositions(randomCount, MAX_CONTRACT_POSITION, seed)];
}

const sci = (v) => v.toExponential(3);

for (const posenc of await loadBothVariants()) {
  describe(`precision contract sweep (${posenc.variant})`, () => {
    it('sinusoidal, dModel 2 .. 8192, sampled positions < 2^24, both layouts', (t) => {
      const cases = [
        [2, 200],
        [64, 200],
        [512, 60],
        [1000, 30],
        [4096, 8],
        [8192, 4],
      ];
      let worst = 0;
      for (const [dModel, randomCount] of cases) {
        // Wide tables get fewer sampled rows: every row still covers all dModel/2 frequencies.
        const all = sampledPositions(randomCount, dModel);
        const positions = dModel >= 4096 ? all.filter((_, i) => i % 3 === 0 || i < 4) : all;
        for (const layout of ['interleaved', 'concat']) {
          const options = { seqLen: positions.length, dModel, layout, positions };
          worst = Math.max(
            worst,
            assertClose(posenc.sinusoidal(options), sinusoidalReference(options), TABLE_BOUND, `d${dModel} ${layout}`),
          );
        }
      }
      t.diagnostic(`max |posenc - float64| = ${sci(worst)} (contract ${TABLE_BOUND})`);
    });

    it('sinusoidal, dModel 8192, 70 consecutive rows ending at 2^24 - 1 (recurrence + re-anchoring)', (t) => {
      let worst = 0;
      for (const layout of ['interleaved', 'concat']) {
        const options = { seqLen: 70, dModel: 8192, layout, offset: 2 ** 24 - 70 };
        worst = Math.max(
          worst,
          assertClose(posenc.sinusoidal(options), sinusoidalReference(options), TABLE_BOUND, layout),
        );
      }
      t.diagnostic(`max |posenc - float64| = ${sci(worst)}`);
    });

    it('sinusoidal, 1000 consecutive rows from 0 and from 2^23 (no drift over many recurrence steps)', (t) => {
      let worst = 0;
      for (const offset of [0, 2 ** 23]) {
        const options = { seqLen: 1000, dModel: 128, offset };
        worst = Math.max(
          worst,
          assertClose(posenc.sinusoidal(options), sinusoidalReference(options), TABLE_BOUND, `offset ${offset}`),
        );
      }
      t.diagnostic(`max |posenc - float64| = ${sci(worst)}`);
    });

    it('sinusoidal with other bases (500000, 1e6) at dModel 4096', () => {
      for (const base of [500000, 1e6]) {
        const positions = sampledPositions(4, base).filter((_, i) => i % 4 === 0);
        const options = { seqLen: positions.length, dModel: 4096, base, positions };
        assertClose(posenc.sinusoidal(options), sinusoidalReference(options), TABLE_BOUND, `base ${base}`);
      }
    });

    it('RoPE, headDim 64 .. 8192, sampled positions < 2^24, both pairings, partial rotary', (t) => {
      const cases = [
        [64, 64, 2, 100],
        [128, 96, 3, 60],
        [4096, 4096, 1, 8],
        [8192, 8192, 1, 4],
        [8192, 2050, 1, 4],
      ];
      let worst = 0;
      for (const [headDim, rotaryDim, numHeads, randomCount] of cases) {
        const all = sampledPositions(randomCount, headDim + rotaryDim);
        const positions = headDim >= 4096 ? all.filter((_, i) => i % 3 === 0 || i < 4) : all;
        for (const layout of ['interleaved', 'half']) {
          const options = { seqLen: positions.length, numHeads, headDim, rotaryDim, layout, positions };
          const x = randomNormal(positions.length * numHeads * headDim, headDim + numHeads, 4);
          const out = posenc.rope(x.slice(), options);
          worst = Math.max(
            worst,
            assertRopeClose(out, x, ropeReference(x, options), options, `${layout} ${headDim}/${rotaryDim}`),
          );
        }
      }
      t.diagnostic(`max |posenc - float64| / (|x_a| + |x_b|) = ${sci(worst)} (contract ${ROPE_EPS})`);
    });

    it('up to the largest position 2^31 - 1: no overflow, float32 accuracy of the float64 angle', (t) => {
      // Past 2^24 the float64 angle theta itself is only known to a few roundings of theta
      // (|theta| * 2^-52 each: the reference's and the core's inverse frequency and product
      // may round differently), so the bound adds 4 |theta| 2^-52 to the contract.
      const positions = [2 ** 31 - 1, 2 ** 31 - 2, 2 ** 30, 2 ** 25 + 3, 2 ** 24];
      const dModel = 64;
      const angleSlack = (p) => 4 * p * 2 ** -52;
      const options = { seqLen: positions.length, dModel, positions };
      const worstTable = assertClose(
        posenc.sinusoidal(options),
        sinusoidalReference(options),
        (i) => TABLE_BOUND + angleSlack(positions[Math.floor(i / dModel)]),
        'sinusoidal',
      );
      const offsetOptions = { seqLen: 3, dModel, offset: 2 ** 31 - 3 };
      assertClose(
        posenc.sinusoidal(offsetOptions),
        sinusoidalReference(offsetOptions),
        TABLE_BOUND + angleSlack(2 ** 31),
        'offset to 2^31 - 1',
      );
      const ropeOptions = { seqLen: positions.length, numHeads: 1, headDim: dModel, layout: 'half', positions };
      const x = randomNormal(positions.length * dModel, 77);
      const worstRope = assertRopeClose(
        posenc.rope(x.slice(), ropeOptions),
        x,
        ropeReference(x, ropeOptions),
        ropeOptions,
        'rope',
        ROPE_EPS + angleSlack(2 ** 31),
      );
      t.diagnostic(`max table error ${sci(worstTable)}, max RoPE error / (|x_a| + |x_b|) ${sci(worstRope)}`);
    });
  });
}
