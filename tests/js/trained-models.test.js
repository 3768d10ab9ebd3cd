// The trained models of scripts/train_models.py run by web/src/trained/ through posenc, on both
// builds: logits and attention weights against PyTorch's on the stored input (40 tokens, past the
// training length of 32); the accuracy at every measured length, the training length among
// them, equal to the training log's counts; bad tokens refused; and the training itself
// reproduced: the script's --check mode trains one model again and compares its losses with the
// log's, bit for bit.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

import { accuracyAt } from '../../web/src/trained/accuracy.js';
import { forward } from '../../web/src/trained/forward.js';
import { t5BiasPerHead } from '../../web/src/trained/t5-bias.js';
import { decodeModel, decodeModels } from '../../web/src/trained/weights.js';
import { loadBothVariants, readGolden } from './support.js';

const readModels = (name) => JSON.parse(readFileSync(new URL(`../../web/models/${name}`, import.meta.url), 'utf8'));
const file = readModels('weights.json');
const log = readModels('training-log.json');
const golden = readGolden('trained-models.json');
const models = decodeModels(file);

/** A base64 float32 array of the golden file. */
function floats(text) {
  const bytes = Buffer.from(text, 'base64');
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
}

/** Every element of `actual` within `bound` · max(1, |expected|) of `expected`; reports the worst. */
function assertNear(actual, expected, bound, label) {
  assert.equal(actual.length, expected.length, `${label}: length`);
  let worst = 0;
  let at = -1;
  for (let i = 0; i < expected.length; i++) {
    const error = Math.abs(actual[i] - expected[i]) / Math.max(1, Math.abs(expected[i]));
    if (!(error <= worst)) [worst, at] = [error, i];
  }
  assert.ok(worst <= bound, `${label}: element ${at} is ${actual[at]}, PyTorch's ${expected[at]} (${worst})`);
}

const builds = await loadBothVariants();

for (const [b, posenc] of builds.entries()) {
  const build = b === 0 ? 'simd' : 'scalar';
  describe(`trained models (${build})`, () => {
    it('reproduce PyTorch’s logits and attention weights on the stored input', () => {
      assert.deepEqual(
        models.map((m) => m.encoding),
        ['none', 'learned', 'sinusoidal', 'rope', 'alibi', 't5', 'xpos'],
      );
      for (const model of models) {
        const result = forward(posenc, model, Int32Array.from(golden.tokens));
        const want = golden.models[model.encoding];
        assertNear(result.logits, floats(want.logits), 1e-4, `${model.encoding} logits`);
        assertNear(result.attention[0], floats(want.attention), 1e-5, `${model.encoding} attention`);
      }
    });

    it('measure the training log’s accuracy at every length', () => {
      for (const model of models) {
        const measured = Object.fromEntries(
          log.evalLengths.map((length) => {
            const { correct, total } = accuracyAt(posenc, model, length, { count: log.evalCount, seed: log.evalSeed });
            return [String(length), [correct, total]];
          }),
        );
        assert.deepEqual(measured, log.models[model.encoding].accuracy, model.encoding);
      }
    });

    it('refuse tokens outside the vocabulary, by position', () => {
      const model = models[3];
      assert.throws(() => forward(posenc, model, [1, 2, 16]), { name: 'RangeError', message: /tokens\[2\]/ });
      assert.throws(() => forward(posenc, model, [1.5]), { name: 'RangeError', message: /tokens\[0\]/ });
      assert.throws(() => forward(posenc, model, []), RangeError);
      assert.throws(() => forward(posenc, model, 'abc'), TypeError);
      assert.throws(() => decodeModel(file, 'nope'), RangeError);
    });
  });
}

// Debian's python with torch 1.13 trains the models; where it is absent, the check cannot run.
const python = '/usr/bin/python3';
const hasTorch = spawnSync(python, ['-c', 'import torch'], { stdio: 'ignore' }).status === 0;

describe('training', { skip: !hasTorch && `${python} with torch is not installed` }, () => {
  it('reproduces the log’s losses from the seeds (--check)', () => {
    const script = new URL('../../scripts/train_models.py', import.meta.url).pathname;
    const output = execFileSync(python, [script, '--check', 'xpos', '--steps', '51'], { encoding: 'utf8' });
    assert.match(output, /3 losses equal the log's/);
  });
});

describe('t5BiasPerHead', () => {
  it("takes head h's bias of bucket b from t5_bias[b, h] ([numBuckets, numHeads], row-major)", () => {
    const model = decodeModel(file, 't5');
    const heads = t5BiasPerHead(model);
    const { numHeads } = file.architecture;
    const { numBuckets } = file.models.t5.options;
    assert.equal(heads.length, numHeads);
    for (const [head, values] of heads.entries()) {
      assert.equal(values.length, numBuckets);
      for (let b = 0; b < numBuckets; b++) assert.equal(values[b], model.tensors.t5_bias[b * numHeads + head]);
    }
  });
  it('rejects a model without a T5 bias, naming it', () => {
    assert.throws(() => t5BiasPerHead(decodeModel(file, 'rope')), {
      name: 'RangeError',
      message: /"rope" has no t5_bias/,
    });
  });
});
