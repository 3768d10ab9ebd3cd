// The bench's plain-JS 16-bit conversions (bench/half-bits.js), which its JS baselines and its
// checks of posenc's float16/bfloat16 results rely on: narrowing a JS number equals the exact
// rounding of tests/golden/half.json (float64 inputs, Fraction arithmetic) and torch's casts
// (float32 inputs), and every pattern that is a number widens and narrows back to itself.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

import { BFLOAT16_VALUES, FLOAT16_VALUES, toBfloat16, toFloat16 } from '../../bench/half-bits.js';

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
