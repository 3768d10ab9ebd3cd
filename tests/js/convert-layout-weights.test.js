// posenc.convertLayoutWeights: Meta's q/k projection weights permuted into Hugging Face's
// rotate_half pairing (transformers' convert_llama_weights_to_hf permute, restated in
// shapes-reference.js), and back, bit for bit.
import { describe, it } from 'node:test';

import { assertIdentical, loadBothVariants, randomNormal } from './support.js';
import { hfPermute } from './shapes-reference.js';

for (const posenc of await loadBothVariants()) {
  describe(`convertLayoutWeights (${posenc.variant})`, () => {
    it("convertLayoutWeights is Hugging Face's permute of Meta's q/k weights, and its inverse", () => {
      const [numHeads, headDim, hidden] = [4, 8, 6];
      const w = randomNormal(numHeads * headDim * hidden, 17);
      const half = posenc.convertLayoutWeights(w, { from: 'interleaved', to: 'half', numHeads, headDim, hidden });
      assertIdentical(half, hfPermute(w, numHeads, numHeads * headDim, hidden), 'permute');
      assertIdentical(
        posenc.convertLayoutWeights(half, { from: 'half', to: 'interleaved', numHeads, headDim, hidden }),
        w,
        'back',
      );
      // A projection with converted weights is the converted projection.
      const h = randomNormal(hidden, 18);
      const project = (weights) =>
        Float32Array.from({ length: numHeads * headDim }, (_, r) => {
          let sum = 0;
          for (let c = 0; c < hidden; c++) sum = Math.fround(sum + Math.fround(weights[r * hidden + c] * h[c]));
          return sum;
        });
      assertIdentical(
        project(half),
        posenc.convertLayout(project(w), { from: 'interleaved', to: 'half', headDim }),
        'W_half h',
      );
    });
  });
}
