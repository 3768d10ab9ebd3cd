// Object.prototype pollution against posenc's own code: every property name the JS layer uses
// (read off its sources) becomes an inherited getter that counts its reads, and a battery of
// calls must give the bits they give unpolluted while reading none of them. The seam tests
// pollute with option names; this covers the names of posenc's internal objects too (its
// operands, argument records, schemas, contexts), where an inherited value could otherwise stand
// in for a field that is not there.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

import { loadBothVariants, randomNormal } from '../support.js';

const SOURCES = new URL('../../../bindings/js/', import.meta.url);

// Names the engine itself reads from ordinary objects in the course of normal operation
// (iteration results, species constructors, thenables, conversions): not posenc's doing.
// Descriptor fields are in the list too: the getters are installed with descriptors.
const ENGINE = new Set([
  'constructor',
  'length',
  'then',
  'toString',
  'valueOf',
  'toJSON',
  'next',
  'done',
  'value',
  'prototype',
  'name',
  'message',
  'stack',
  'cause',
  'get',
  'set',
  'writable',
  'enumerable',
  'configurable',
]);

function propertyNames() {
  const names = new Set();
  for (const file of readdirSync(SOURCES).filter((f) => f.endsWith('.js'))) {
    const text = readFileSync(new URL(file, SOURCES), 'utf8');
    for (const [, name] of text.matchAll(/[.?]\.?([A-Za-z_]\w*)/g)) names.add(name);
    for (const [, name] of text.matchAll(/\b([A-Za-z_]\w*)\s*:/g)) names.add(name);
  }
  for (const name of ENGINE) names.delete(name);
  return [...names].filter((name) => !(name in Object.prototype));
}

/** Runs `body` with every name an inherited, counting getter; returns the names read. */
function withCountingPollution(names, body) {
  const reads = new Map();
  for (const name of names) {
    Object.defineProperty(Object.prototype, name, {
      __proto__: null,
      configurable: true,
      get() {
        reads.set(name, (reads.get(name) ?? 0) + 1);
        return 1;
      },
    });
  }
  try {
    return { result: body(), reads };
  } finally {
    for (const name of names) delete Object.prototype[name];
  }
}

const variants = await loadBothVariants();
const names = propertyNames();

for (const posenc of variants) {
  describe(`Object.prototype pollution with posenc's own property names (${posenc.variant})`, () => {
    const q = randomNormal(2 * 4 * 16, 1);
    const k = randomNormal(2 * 2 * 16, 2);
    const a = randomNormal(3 * 8, 3);
    const b = randomNormal(4 * 8, 4);
    const rope = { seqLen: 2, numHeads: 4, headDim: 16, layout: 'half' };
    const yarn = { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 64 };
    const longrope = {
      type: 'longrope',
      shortFactor: [1, 1, 1, 1, 1, 1, 1, 1],
      longFactor: [2, 2, 2, 2, 4, 4, 4, 4],
      originalMaxPositionEmbeddings: 8,
      factor: 2,
    };
    // Each call returns plain arrays (copies), so results can be compared after the pollution is gone.
    const calls = {
      sinusoidal: () => posenc.sinusoidal({ seqLen: 3, dModel: 8, positions: [4, 0, 9] }),
      addSinusoidal: () => posenc.addSinusoidal(a.slice(), { seqLen: 3, dModel: 8, layout: 'concat' }),
      positionNumbers: () => posenc.positionNumbers({ seqLen: 2, dModel: 3, offset: 5 }),
      ropeSchedule: () => posenc.ropeSchedule({ headDim: 16, partialRotaryFactor: 0.5, scaling: yarn }).invFreq,
      ropeCache: () => {
        const { cos, sin } = posenc.ropeCache({
          seqLen: 2,
          rotaryDim: 16,
          batch: 2,
          offset: [3, 70],
          scaling: longrope,
        });
        return Float32Array.of(...cos, ...sin);
      },
      rope: () => posenc.rope(q.slice(), { ...rope, scaling: yarn, positions: [1, 5] }),
      'rope into out': () => posenc.rope(q, { ...rope, out: new Float32Array(q.length) }),
      ropeQK: () => {
        const result = posenc.ropeQK(q.slice(), k.slice(), { ...rope, numKvHeads: 2, inverse: true, order: 'heads' });
        return Float32Array.of(...result.q, ...result.k);
      },
      'ropePlan + apply': () => {
        const plan = posenc.ropePlan({ ...rope, numKvHeads: 2 });
        const x = posenc.allocate(q);
        try {
          return plan.apply(x, { offset: 7 }).toArray();
        } finally {
          x.free();
          plan.free();
        }
      },
      convertLayout: () => posenc.convertLayout(q, { from: 'interleaved', to: 'half', headDim: 16, rotaryDim: 8 }),
      similarity: () => posenc.similarity(a, b, { rows: 3, cols: 4, dim: 8, metric: 'cosine' }),
      relativePositionBuckets: () =>
        posenc.relativePositionBuckets({ queryLen: 3, keyLen: 40, offset: 9, out: new Int32Array(120) }),
      attentionScores: () =>
        posenc.attentionScores(q.subarray(0, 48), b.subarray(0, 32), {
          numHeads: 2,
          queryLen: 3,
          keyLen: 2,
          headDim: 8,
          encoding: 't5',
          bias: new Float32Array(64).fill(0.25),
          softmax: true,
        }),
      'a window (subarray) rotated in place': () => {
        const w = posenc.allocate(q);
        try {
          const row = w.subarray(64, 128);
          posenc.rope(row, { seqLen: 1, numHeads: 4, headDim: 16, offset: 3 });
          row.free();
          return w.toArray();
        } finally {
          w.free();
        }
      },
      'allocate + set': () => {
        const w = posenc.allocate(4);
        try {
          return w.set([1, 2], 1).toArray();
        } finally {
          w.free();
        }
      },
    };

    it(`${names.length} names read from posenc's sources are never read through the prototype`, () => {
      for (const [label, call] of Object.entries(calls)) {
        const clean = call();
        const { result, reads } = withCountingPollution(names, call);
        assert.deepEqual([...reads.keys()], [], `${label}: posenc read inherited ${[...reads.keys()].join(', ')}`);
        assert.deepEqual(result, clean, `${label}: the same bits as unpolluted`);
      }
    });

    it('errors are worded the same with the prototype polluted', () => {
      // One of each way an error is made: a snapshot rule, a core status, one about a default
      // (named by its source), a length status (with and without a guess at the missing option),
      // an unknown option, a freed WasmArray, a window of a freed one, a window out of range, a
      // freed plan.
      const wrongs = [
        () => posenc.rope(new Float32Array(3), { ...rope, rotaryDim: 7 }),
        () => posenc.rope(new Float32Array(3), { seqLen: 1, headDim: 5 }),
        () => posenc.rope(new Float32Array(3), rope),
        () => posenc.rope(new Float32Array(q.length * 2), rope),
        () => posenc.sinusoidal({ seqLen: 2, dModel: 3 }),
        () => posenc.ropeCache({ seqLen: 2, rotaryDim: 8, sclaing: yarn }),
        () => posenc.ropeSchedule({ headDim: 16, scaling: { ...yarn, factor: -1 } }),
        () => {
          const w = posenc.allocate(4);
          w.free();
          w.toArray();
        },
        () => {
          const w = posenc.allocate(4);
          const window = w.subarray(2);
          w.free();
          posenc.rope(window, { seqLen: 1, headDim: 2 });
        },
        () => {
          const w = posenc.allocate(4);
          try {
            w.subarray(1, 5);
          } finally {
            w.free();
          }
        },
        () => {
          const plan = posenc.ropePlan(rope);
          plan.free();
          plan.apply(new Float32Array(q.length));
        },
      ];
      const message = (run) => {
        try {
          run();
        } catch (error) {
          return `${error.constructor.name} ${error.function} ${error.parameter} ${error.message}`;
        }
        return 'no error';
      };
      for (const wrong of wrongs) {
        const clean = message(wrong);
        assert.notEqual(clean, 'no error');
        const { result, reads } = withCountingPollution(names, () => message(wrong));
        assert.equal(result, clean);
        assert.deepEqual([...reads.keys()], [], `${clean}: posenc read inherited ${[...reads.keys()].join(', ')}`);
      }
    });
  });
}
