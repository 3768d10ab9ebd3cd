// mropePositions against the golden vectors of scripts/make_golden_mrope_positions.py
// (transformers' Qwen2-VL and Qwen2.5-VL get_rope_index, transcribed verbatim), exactly, on
// both WASM builds; then its segments read once, and its mistakes named.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { assertParameterError, assertStillWorks, loadBothVariants, readGolden } from './support.js';

const golden = readGolden('mrope-positions.json');

const MISTAKES = [
  ['segments missing', {}, TypeError, 'segments'],
  ['segments not an Array', { segments: { text: 3 } }, TypeError, 'segments'],
  ['segments a typed array', { segments: Int32Array.of(1) }, TypeError, 'segments'],
  ['a segment a number', { segments: [3] }, TypeError, 'segments[0]'],
  ['a segment with no kind', { segments: [{ text: 1 }, {}] }, TypeError, 'segments[1]'],
  ['a segment with two kinds', { segments: [{ text: 1, image: [1, 2, 2] }] }, TypeError, 'segments[0]'],
  ['an unknown segment key', { segments: [{ audio: 3 }] }, TypeError, 'segments[0]'],
  ['text a string', { segments: [{ text: '3' }] }, TypeError, 'segments[0].text'],
  ['text negative', { segments: [{ text: 2 }, { text: -1 }] }, RangeError, 'segments[1].text'],
  ['text fractional', { segments: [{ text: 2.5 }] }, RangeError, 'segments[0].text'],
  ['an image grid of 2', { segments: [{ text: 1 }, { image: [2, 2] }] }, RangeError, 'segments[1].image'],
  ['an image grid holding a string', { segments: [{ image: [1, '2', 2] }] }, TypeError, 'segments[0].image[1]'],
  ['t 0', { segments: [{ text: 1 }, { video: [0, 2, 2] }] }, RangeError, 'segments[1].video[0]'],
  ['h not a multiple of 2', { segments: [{ text: 1 }, { image: [1, 5, 4] }] }, RangeError, 'segments[1].image[1]'],
  [
    'w not a multiple of 4',
    { segments: [{ image: [1, 4, 6] }], spatialMergeSize: 4 },
    RangeError,
    'segments[0].image[2]',
  ],
  ['w fractional', { segments: [{ image: [1, 2, 2.5] }] }, RangeError, 'segments[0].image[2]'],
  ['h NaN', { segments: [{ image: [1, Number.NaN, 2] }] }, RangeError, 'segments[0].image[1]'],
  [
    'secondsPerGrid on an image',
    { segments: [{ image: [1, 2, 2], secondsPerGrid: 1 }] },
    TypeError,
    'segments[0].secondsPerGrid',
  ],
  [
    'secondsPerGrid negative',
    { segments: [{ video: [2, 2, 2], secondsPerGrid: -1 }] },
    RangeError,
    'segments[0].secondsPerGrid',
  ],
  [
    'secondsPerGrid Infinity',
    { segments: [{ video: [2, 2, 2], secondsPerGrid: Infinity }] },
    RangeError,
    'segments[0].secondsPerGrid',
  ],
  [
    'secondsPerGrid a string',
    { segments: [{ video: [2, 2, 2], secondsPerGrid: '1' }] },
    TypeError,
    'segments[0].secondsPerGrid',
  ],
  ['spatialMergeSize 0', { segments: [{ text: 1 }], spatialMergeSize: 0 }, RangeError, 'spatialMergeSize'],
  ['spatialMergeSize fractional', { segments: [{ text: 1 }], spatialMergeSize: 1.5 }, RangeError, 'spatialMergeSize'],
  ['model unknown', { segments: [{ text: 1 }], model: 'qwen3-vl' }, RangeError, 'model'],
  ['tokensPerSecond with qwen2-vl', { segments: [{ text: 1 }], tokensPerSecond: 2 }, TypeError, 'tokensPerSecond'],
  ['too many tokens', { segments: [{ text: 2 ** 24 }, { text: 1 }] }, RangeError, 'segments[1]'],
  [
    'an id beyond 2^31 - 1',
    { segments: [{ text: 1 }, { video: [3, 2, 2], secondsPerGrid: 1e9 }], model: 'qwen2.5-vl' },
    RangeError,
    'segments[1]',
  ],
];

for (const posenc of await loadBothVariants()) {
  describe(`mropePositions (${posenc.variant})`, () => {
    it(`matches transformers' get_rope_index of Qwen2-VL and Qwen2.5-VL exactly (${golden.cases.length} golden cases)`, () => {
      for (const c of golden.cases) {
        const options = { segments: c.segments, spatialMergeSize: c.spatialMergeSize, model: c.model };
        if (c.model === 'qwen2.5-vl') options.tokensPerSecond = c.tokensPerSecond;
        const { positions, nextPosition } = posenc.mropePositions(options);
        assert.ok(positions instanceof Int32Array, c.name);
        assert.deepEqual(Array.from(positions), c.positions.flat(), c.name);
        assert.equal(nextPosition, c.nextPosition, c.name);
        assert.equal(nextPosition - c.inputIds.length, c.ropeDelta, `${c.name}: Hugging Face's rope delta`);
      }
    });

    it('an empty prompt, empty text, grids as typed arrays, the Qwen2.5-VL default of 2 tokens per second', () => {
      assert.deepEqual(posenc.mropePositions({ segments: [] }), { positions: new Int32Array(0), nextPosition: 0 });
      const grid = posenc.mropePositions({ segments: [{ text: 0 }, { text: 1 }, { image: Float64Array.of(1, 2, 4) }] });
      assert.deepEqual(Array.from(grid.positions), [0, 1, 1, 0, 1, 1, 0, 1, 2]);
      const video = { segments: [{ text: 1 }, { video: [3, 2, 2], secondsPerGrid: 1.5 }], model: 'qwen2.5-vl' };
      assert.deepEqual(Array.from(posenc.mropePositions(video).positions.subarray(0, 4)), [0, 1, 3, 5]);
      assert.deepEqual(
        posenc.mropePositions(video),
        posenc.mropePositions({ ...video, tokensPerSecond: 2 }),
        'tokensPerSecond defaults to 2',
      );
    });

    it('reads segments once: getters run once, a list changed by a getter is not seen, Proxies are read as data', () => {
      let reads = 0;
      const image = [1, 2, 2];
      const segment = {
        get image() {
          reads++;
          return image;
        },
      };
      const segments = [{ text: 1 }, segment, { text: 1 }];
      const first = posenc.mropePositions({ segments });
      assert.equal(reads, 1);
      const sneaky = [
        { text: 2 },
        {
          get text() {
            sneaky.push({ image: [1, 4, 4] }); // after the length was read: not part of the call
            return 1;
          },
        },
      ];
      assert.equal(posenc.mropePositions({ segments: sneaky }).positions.length, 9);
      const proxied = new Proxy(segments, {});
      assert.deepEqual(posenc.mropePositions({ segments: proxied }), first);
      const throwing = [
        { text: 1 },
        {
          get video() {
            throw new Error('boom');
          },
        },
      ];
      assertParameterError(() => posenc.mropePositions({ segments: throwing }), TypeError, 'segments[1].video');
      const revoked = Proxy.revocable([], {});
      revoked.revoke();
      assertParameterError(() => posenc.mropePositions({ segments: revoked.proxy }), TypeError, 'segments');
      assertStillWorks(posenc, 'after hostile segments');
    });

    it('mistakes are TypeErrors / RangeErrors naming the segment and its field', () => {
      for (const [label, options, type, parameter] of MISTAKES) {
        const error = assertParameterError(() => posenc.mropePositions(options), type, parameter, label);
        assert.ok(error.message.startsWith('posenc.mropePositions: '), error.message);
      }
      const error = assertParameterError(
        () => posenc.mropePositions({ segments: [{ text: 1 }, { image: [1, 5, 4] }] }),
        RangeError,
        'segments[1].image[1]',
      );
      assert.match(error.message, /multiple of spatialMergeSize \(got 5\)/);
      assertStillWorks(posenc, 'after the mistakes');
    });
  });
}
