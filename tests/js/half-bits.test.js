// The bench's plain-JS 16-bit conversions (bench/half-bits.js), which its JS baselines and its
// checks of posenc's float16/bfloat16 results rely on: narrowing a JS number equals the exact
// rounding of tests/golden/half.json (float64 inputs, Fraction arithmetic) and torch's casts
// (float32 inputs), and every pattern that is a number widens and narrows back to itself; the JS
// loops built on them (bench/js-baseline.js) agree with posenc's float16/bfloat16 results on small
// sizes, to one unit in the last place (JS rounds float64 results, posenc float32 ones or a
// float64 recurrence's).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

import { BFLOAT16_VALUES, FLOAT16_VALUES, HALF_FORMATS, toBfloat16, toFloat16 } from '../../bench/half-bits.js';
import { ropeBitsJs, ropeCacheBitsJs, sinusoidalBitsJs } from '../../bench/js-baseline.js';
import { loadBothVariants, randomNormal } from './support.js';

// Python's json writes ±Infinity as bare words, which JSON.parse does not take.
const golden = JSON.parse(
  readFileSync(new URL('../golden/half.json', import.meta.url), 'utf8').replace(/Infinity/g, '1e999'),
);

const FORMATS = [
  ['float16', toFloat16, FLOAT16_VALUES, 0x7e00],
  ['bfloat16', toBfloat16, BFLOAT16_VALUES, 0x7fc0],
];

describe('bench/half-bits.js: plain-JS float16 and bfloat16 conversions', () => {
  for (const [name, narrow, values, quietNaN] of FORMATS) {
    it(`${name}: a number rounds once, to nearest even (half.json's float64 and float32 cases)`, () => {
      for (const kind of ['float64', 'float32']) {
        for (const c of golden[kind]) assert.equal(narrow(c.x), c[name], `${kind} ${c.x}`);
      }
      assert.equal(narrow(Number.NaN), quietNaN);
    });

    it(`${name}: every pattern widens exactly and narrows back (all 65,536)`, () => {
      for (let bits = 0; bits < 65536; bits++) {
        const value = values[bits];
        if (Number.isNaN(value)) assert.equal(narrow(value), quietNaN, `pattern ${bits}`);
        else assert.equal(narrow(value), bits, `pattern ${bits}`);
      }
    });
  }
});

/** Largest distance, in units in the last place, between two arrays of patterns of one format. */
function ulpDistance(a, b) {
  const ordinal = (bits) => (bits & 0x8000 ? -(bits & 0x7fff) : bits);
  assert.equal(a.length, b.length);
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(ordinal(a[i]) - ordinal(b[i])));
  return worst;
}

for (const posenc of await loadBothVariants()) {
  describe(`the bench's 16-bit JS loops agree with posenc (${posenc.variant})`, () => {
    for (const dtype of ['float16', 'bfloat16']) {
      const format = HALF_FORMATS[dtype];
      it(`${dtype}: sinusoidal, ropeCache and rope (both pairings, partial rotary)`, () => {
        const table = { seqLen: 300, dModel: 38 };
        const js = sinusoidalBitsJs(new Uint16Array(300 * 38), table, format.narrow);
        assert.ok(ulpDistance(js, posenc.sinusoidal({ ...table, dtype })) <= 1, 'sinusoidal');

        const cache = { seqLen: 300, rotaryDim: 24 };
        const jsCache = { cos: new Uint16Array(300 * 12), sin: new Uint16Array(300 * 12) };
        ropeCacheBitsJs(jsCache, cache, format.narrow);
        const ours = posenc.ropeCache({ ...cache, dtype });
        assert.ok(ulpDistance(jsCache.cos, ours.cos) <= 1 && ulpDistance(jsCache.sin, ours.sin) <= 1, 'ropeCache');

        for (const options of [
          { seqLen: 40, numHeads: 3, headDim: 20, layout: 'interleaved', offset: 2000 },
          { seqLen: 40, numHeads: 3, headDim: 20, rotaryDim: 12, layout: 'half' },
        ]) {
          // Inputs of one magnitude (0.5 to 1): an output's ulp is then not far below its inputs'.
          const x = Uint16Array.from(randomNormal(40 * 60, 5), (v) =>
            format.narrow(Math.sign(v) * (0.5 + (Math.abs(v) % 0.5))),
          );
          const js = ropeBitsJs(x.slice(), options, format);
          assert.ok(ulpDistance(js, posenc.rope(x.slice(), { ...options, dtype })) <= 1, `rope ${options.layout}`);
        }
      });
    }
  });
}
