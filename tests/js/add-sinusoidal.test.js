// posenc.addSinusoidal: the sinusoidal table added to x in place, x + table rounded once to
// float32, in both layouts, at offsets and at explicit positions, bit for bit against
// posenc.sinusoidal's own table.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { assertIdentical, loadBothVariants, randomNormal } from './support.js';

const LAYOUTS = ['interleaved', 'concat'];

for (const posenc of await loadBothVariants()) {
  describe(`addSinusoidal (${posenc.variant})`, () => {
    it('addSinusoidal adds the same float32 table in place: x + table rounded once', () => {
      for (const layout of LAYOUTS) {
        for (const dModel of [2, 6, 32, 258]) {
          const options = { seqLen: 11, dModel, layout, offset: 40 };
          const x = randomNormal(11 * dModel, dModel);
          const sum = x.slice();
          assert.equal(posenc.addSinusoidal(sum, options), sum);
          const table = posenc.sinusoidal(options);
          // float32 + float32 computed in float64 then rounded is the correctly rounded float32 sum.
          assertIdentical(
            sum,
            x.map((v, i) => Math.fround(v + table[i])),
            `${layout} d${dModel}`,
          );
        }
      }
    });

    it('addSinusoidal with explicit positions', () => {
      const positions = [9, 2, 2 ** 20];
      const x = randomNormal(3 * 10, 3);
      const sum = posenc.addSinusoidal(x.slice(), { seqLen: 3, dModel: 10, positions, layout: 'concat' });
      const table = posenc.sinusoidal({ seqLen: 3, dModel: 10, positions, layout: 'concat' });
      assertIdentical(
        sum,
        x.map((v, i) => Math.fround(v + table[i])),
        'positions',
      );
    });
  });
}
