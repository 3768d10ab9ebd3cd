// Bad input to every function gives a TypeError (wrong kind of value) or RangeError (right
// kind, value outside the rules) whose error.parameter and message name the parameter; and
// after every error the instance still computes correct results.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { WasmArray, loadPosenc } from '../../bindings/js/node.js';
import { assertParameterError, assertStillWorks, loadBothVariants } from './support.js';

const f32 = (n) => new Float32Array(n);
const TABLE = { seqLen: 2, dModel: 4 };
const ROPE = { seqLen: 2, headDim: 4 };
const SIMILARITY = { rows: 1, cols: 2, dim: 3 };

/**
 * Option mistakes shared by every function that takes a sequence of positions, as
 * [label, options, error type, parameter]. `base` holds valid options.
 */
function positionMistakes(base) {
  const { seqLen } = base;
  return [
    ['offset negative', { ...base, offset: -1 }, RangeError, 'offset'],
    ['offset non-integer', { ...base, offset: 1.5 }, RangeError, 'offset'],
    ['offset a string', { ...base, offset: '1' }, TypeError, 'offset'],
    ['offset + seqLen past 2^31 - 1', { ...base, offset: 2 ** 31 - 1 }, RangeError, 'offset'],
    ['offset beyond uint32', { ...base, offset: 2 ** 32 }, RangeError, 'offset'],
    ['positions too short', { ...base, positions: [0] }, RangeError, 'positions'],
    ['positions too long', { ...base, positions: Array(seqLen + 1).fill(0) }, RangeError, 'positions'],
    ['positions non-integer', { ...base, positions: [0, 1.5] }, RangeError, 'positions[1]'],
    ['positions negative', { ...base, positions: [-1, 0] }, RangeError, 'positions[0]'],
    ['positions negative Int32Array', { ...base, positions: Int32Array.of(0, -5) }, RangeError, 'positions[1]'],
    [
      'positions past 2^31 - 1 (Uint32Array)',
      { ...base, positions: Uint32Array.of(2 ** 31, 0) },
      RangeError,
      'positions[0]',
    ],
    ['positions NaN', { ...base, positions: [0, Number.NaN] }, RangeError, 'positions[1]'],
    ['positions holding a string', { ...base, positions: [0, '1'] }, TypeError, 'positions[1]'],
    ['positions holding a negative BigInt', { ...base, positions: [0n, -1n] }, RangeError, 'positions[1]'],
    [
      'positions a BigInt64Array past 2^31 - 1',
      { ...base, positions: BigInt64Array.of(2n ** 31n, 0n) },
      RangeError,
      'positions[0]',
    ],
    ['positions holding a symbol', { ...base, positions: [0, Symbol('1')] }, TypeError, 'positions[1]'],
    ['positions a Float64Array', { ...base, positions: Float64Array.of(0, 1) }, TypeError, 'positions'],
    ['positions a string', { ...base, positions: '01' }, TypeError, 'positions'],
    ['positions and offset together', { ...base, positions: [0, 1], offset: 0 }, TypeError, 'offset'],
  ];
}

/** Mistakes in the size options: [label, options, type, parameter] for option `name`. */
function sizeMistakes(base, name) {
  return [
    [`${name} missing`, { ...base, [name]: undefined }, TypeError, name],
    [`${name} a string`, { ...base, [name]: String(base[name]) }, TypeError, name],
    [`${name} a BigInt`, { ...base, [name]: BigInt(base[name]) }, TypeError, name],
    [`${name} an object`, { ...base, [name]: {} }, TypeError, name],
    [`${name} null`, { ...base, [name]: null }, TypeError, name],
    [`${name} non-integer`, { ...base, [name]: 2.5 }, RangeError, name],
    [`${name} negative`, { ...base, [name]: -2 }, RangeError, name],
    [`${name} NaN`, { ...base, [name]: Number.NaN }, RangeError, name],
    [`${name} Infinity`, { ...base, [name]: Infinity }, RangeError, name],
  ];
}

function baseMistakes(base) {
  return [
    ['base NaN', { ...base, base: Number.NaN }, RangeError, 'base'],
    ['base Infinity', { ...base, base: Infinity }, RangeError, 'base'],
    ['base -Infinity', { ...base, base: -Infinity }, RangeError, 'base'],
    ['base 0', { ...base, base: 0 }, RangeError, 'base'],
    ['base negative', { ...base, base: -10000 }, RangeError, 'base'],
    ['base a string', { ...base, base: '10000' }, TypeError, 'base'],
    ['base a BigInt', { ...base, base: 10000n }, TypeError, 'base'],
  ];
}

function optionsMistakes(validOptions, misspelled) {
  return [
    ['options null', null, TypeError, 'options'],
    ['options a number', 5, TypeError, 'options'],
    ['options an array', [], TypeError, 'options'],
    [`misspelled option ${misspelled}`, { ...validOptions, [misspelled]: 1 }, TypeError, 'options'],
  ];
}

for (const posenc of await loadBothVariants()) {
  describe(`errors name their parameter, and the instance survives them (${posenc.variant})`, () => {
    /** Runs every case as a call `call(options)`, checking the error and the instance after it. */
    function runCases(fnName, call, cases) {
      for (const [label, options, type, parameter] of cases) {
        const error = assertParameterError(() => call(options), type, parameter, `${fnName}: ${label}`);
        assert.ok(
          error.message.startsWith(`posenc.${fnName}: `),
          `message "${error.message}" starts with posenc.${fnName}:`,
        );
        assertStillWorks(posenc, `${fnName}: ${label}`);
      }
    }

    it('sinusoidal', () => {
      runCases('sinusoidal', (o) => posenc.sinusoidal(o), [
        ...optionsMistakes(TABLE, 'seqlen'),
        ...sizeMistakes(TABLE, 'seqLen'),
        ...sizeMistakes(TABLE, 'dModel'),
        ['dModel odd', { ...TABLE, dModel: 5 }, RangeError, 'dModel'],
        ['dModel 0', { ...TABLE, dModel: 0 }, RangeError, 'dModel'],
        ['dModel above maxDim', { ...TABLE, dModel: 2 ** 16 + 2 }, RangeError, 'dModel'],
        ['seqLen above maxSeqLen', { ...TABLE, seqLen: 2 ** 24 + 1 }, RangeError, 'seqLen'],
        ['table above maxElements', { seqLen: 2 ** 24, dModel: 2 ** 16 }, RangeError, 'shape'],
        ...baseMistakes(TABLE),
        ['layout of RoPE', { ...TABLE, layout: 'half' }, RangeError, 'layout'],
        ['layout miscased', { ...TABLE, layout: 'Interleaved' }, RangeError, 'layout'],
        ['layout a number', { ...TABLE, layout: 0 }, TypeError, 'layout'],
        ...positionMistakes(TABLE),
        ['out a Float64Array', { ...TABLE, out: new Float64Array(8) }, TypeError, 'out'],
        ['out an Array', { ...TABLE, out: Array(8).fill(0) }, TypeError, 'out'],
        ['out too short', { ...TABLE, out: f32(7) }, RangeError, 'out'],
      ]);
    });

    it('addSinusoidal', () => {
      runCases('addSinusoidal', (o) => posenc.addSinusoidal(f32(8), o), [
        ...optionsMistakes(TABLE, 'd_model'),
        ['out is not an option here', { ...TABLE, out: f32(8) }, TypeError, 'options'],
        ...sizeMistakes(TABLE, 'seqLen'),
        ['dModel odd', { ...TABLE, dModel: 3 }, RangeError, 'dModel'],
        ...baseMistakes(TABLE),
        ...positionMistakes(TABLE),
      ]);
      runCases('addSinusoidal', (x) => posenc.addSinusoidal(x, TABLE), [
        ['x missing', undefined, TypeError, 'x'],
        ['x a Float64Array', new Float64Array(8), TypeError, 'x'],
        ['x an Array', Array(8).fill(0), TypeError, 'x'],
        ['x too long for the shape', f32(9), RangeError, 'x'],
        ['x too short for the shape', f32(4), RangeError, 'x'],
      ]);
    });

    it('positionNumbers', () => {
      runCases('positionNumbers', (o) => posenc.positionNumbers(o), [
        ...optionsMistakes(TABLE, 'offest'),
        ['base is not an option here', { ...TABLE, base: 10 }, TypeError, 'options'],
        ...sizeMistakes(TABLE, 'seqLen'),
        ...sizeMistakes(TABLE, 'dModel'),
        ['dModel 0', { ...TABLE, dModel: 0 }, RangeError, 'dModel'],
        ['offset negative', { ...TABLE, offset: -1 }, RangeError, 'offset'],
        ['offset + seqLen past 2^31 - 1', { ...TABLE, offset: 2 ** 31 - 1 }, RangeError, 'offset'],
        ['out too long', { ...TABLE, out: f32(9) }, RangeError, 'out'],
        ['out an Int32Array', { ...TABLE, out: new Int32Array(8) }, TypeError, 'out'],
      ]);
    });

    it('ropeFrequencies', () => {
      const valid = { rotaryDim: 8 };
      runCases('ropeFrequencies', (o) => posenc.ropeFrequencies(o), [
        ...optionsMistakes(valid, 'rotarydim'),
        ...sizeMistakes(valid, 'rotaryDim'),
        ['rotaryDim odd', { rotaryDim: 7 }, RangeError, 'rotaryDim'],
        ['rotaryDim 0', { rotaryDim: 0 }, RangeError, 'rotaryDim'],
        ['rotaryDim above maxDim', { rotaryDim: 2 ** 16 + 2 }, RangeError, 'rotaryDim'],
        ...baseMistakes(valid),
      ]);
    });

    it('ropeCache', () => {
      const valid = { seqLen: 2, rotaryDim: 4 };
      runCases('ropeCache', (o) => posenc.ropeCache(o), [
        ...optionsMistakes(valid, 'numHeads'),
        ...sizeMistakes(valid, 'seqLen'),
        ...sizeMistakes(valid, 'rotaryDim'),
        ['rotaryDim odd', { ...valid, rotaryDim: 5 }, RangeError, 'rotaryDim'],
        ['seqLen above maxSeqLen', { ...valid, seqLen: 2 ** 24 + 1 }, RangeError, 'seqLen'],
        ...baseMistakes(valid),
        ...positionMistakes(valid),
      ]);
    });

    it('rope: options', () => {
      runCases('rope', (o) => posenc.rope(f32(8), o), [
        ...optionsMistakes(ROPE, 'rotary_dim'),
        ['misspelled numheads', { ...ROPE, numheads: 1 }, TypeError, 'options'],
        ...sizeMistakes(ROPE, 'seqLen'),
        ...sizeMistakes(ROPE, 'headDim'),
        ...sizeMistakes({ ...ROPE, rotaryDim: 2 }, 'rotaryDim').filter(([label]) => !label.includes('missing')),
        ...sizeMistakes({ ...ROPE, numHeads: 1 }, 'numHeads').filter(([label]) => !label.includes('missing')),
        ['rotaryDim odd', { ...ROPE, rotaryDim: 3 }, RangeError, 'rotaryDim'],
        ['rotaryDim 0', { ...ROPE, rotaryDim: 0 }, RangeError, 'rotaryDim'],
        ['rotaryDim > headDim', { ...ROPE, rotaryDim: 6 }, RangeError, 'rotaryDim'],
        ['headDim 1', { seqLen: 8, headDim: 1, rotaryDim: 0 }, RangeError, 'headDim'],
        ['numHeads 0', { ...ROPE, numHeads: 0 }, RangeError, 'numHeads'],
        ['headDim above maxDim', { seqLen: 0, headDim: 2 ** 16 + 2 }, RangeError, 'headDim'],
        ...baseMistakes(ROPE),
        ['layout of the table', { ...ROPE, layout: 'concat' }, RangeError, 'layout'],
        ['layout a name from elsewhere', { ...ROPE, layout: 'neox' }, RangeError, 'layout'],
        ['layout a boolean', { ...ROPE, layout: true }, TypeError, 'layout'],
        ...positionMistakes(ROPE),
        ['out a Float64Array', { ...ROPE, out: new Float64Array(8) }, TypeError, 'out'],
        ['out too short', { ...ROPE, out: f32(6) }, RangeError, 'out'],
      ]);
    });

    it('xpos: its options, its roles, and positions too far from the center', () => {
      const key = (xpos) => ({ ...ROPE, xpos: { role: 'key', ...xpos } });
      runCases('rope', (o) => posenc.rope(f32(8), o), [
        ['xpos not an object', { ...ROPE, xpos: 512 }, TypeError, 'xpos'],
        ['xpos an array', { ...ROPE, xpos: [512] }, TypeError, 'xpos'],
        ['xpos misspelled key', key({ scalebase: 512 }), TypeError, 'xpos'],
        ['xpos.scaleBase 0', key({ scaleBase: 0 }), RangeError, 'xpos.scaleBase'],
        ['xpos.scaleBase negative', key({ scaleBase: -512 }), RangeError, 'xpos.scaleBase'],
        ['xpos.scaleBase NaN', key({ scaleBase: Number.NaN }), RangeError, 'xpos.scaleBase'],
        ['xpos.scaleBase Infinity', key({ scaleBase: Number.POSITIVE_INFINITY }), RangeError, 'xpos.scaleBase'],
        ['xpos.scaleBase a string', key({ scaleBase: '512' }), TypeError, 'xpos.scaleBase'],
        ['xpos.gamma negative', key({ gamma: -0.4 }), RangeError, 'xpos.gamma'],
        ['xpos.gamma 0', key({ gamma: 0 }), RangeError, 'xpos.gamma'],
        ['xpos.gamma NaN', key({ gamma: Number.NaN }), RangeError, 'xpos.gamma'],
        ['xpos.role missing', { ...ROPE, xpos: {} }, TypeError, 'xpos.role'],
        ['xpos.role unknown', key({ role: 'value' }), RangeError, 'xpos.role'],
        ["xpos.role 'none'", key({ role: 'none' }), RangeError, 'xpos.role'],
        ['xpos.role a number', key({ role: 1 }), TypeError, 'xpos.role'],
        ['xpos.center non-integer', key({ center: 1.5 }), RangeError, 'xpos.center'],
        ['xpos.center negative', key({ center: -1 }), RangeError, 'xpos.center'],
        ['xpos.center NaN', key({ center: Number.NaN }), RangeError, 'xpos.center'],
        ['xpos.center past 2^31 - 1', key({ center: 2 ** 31 }), RangeError, 'xpos.center'],
        ['positions too far from the center', { ...key({ center: 0 }), offset: 40000 }, RangeError, 'positions'],
        ['positions too far from the default center', { ...key({}), positions: [0, 80000] }, RangeError, 'positions'],
      ]);
      runCases('ropeQK', (o) => posenc.ropeQK(f32(8), f32(8), o), [
        ['xpos.role given', { ...ROPE, xpos: { role: 'query' } }, TypeError, 'xpos.role'],
        ['xpos.gamma NaN', { ...ROPE, xpos: { gamma: Number.NaN } }, RangeError, 'xpos.gamma'],
        ['positions too far apart', { ...ROPE, positions: [0, 75000], xpos: {} }, RangeError, 'positions'],
      ]);
      runCases('ropePlan', (o) => posenc.ropePlan(o), [
        ['xpos.role given', { ...ROPE, xpos: { role: 'key' } }, TypeError, 'xpos.role'],
        ['xpos.scaleBase NaN', { ...ROPE, xpos: { scaleBase: Number.NaN } }, RangeError, 'xpos.scaleBase'],
      ]);
      const withXpos = posenc.ropePlan({ ...ROPE, xpos: { center: 0 } });
      const without = posenc.ropePlan(ROPE);
      try {
        runCases('RopePlan.apply', (o) => withXpos.apply(f32(8), o), [
          ['role missing', { offset: 0 }, TypeError, 'role'],
          ['role unknown', { role: 'value' }, RangeError, 'role'],
          ['positions too far from the center', { offset: 36000, role: 'query' }, RangeError, 'positions'],
        ]);
        runCases('RopePlan.apply', (o) => without.apply(f32(8), o), [
          ['role without xpos', { role: 'key' }, TypeError, 'role'],
        ]);
        runCases('RopePlan.applyQK', (o) => withXpos.applyQK(f32(8), f32(8), o), [
          ['positions too far from the center', { positions: [1, 40000] }, RangeError, 'positions'],
        ]);
      } finally {
        withXpos.free();
        without.free();
      }
      // the message gives the largest distance allowed, computed from the options
      const error = assertParameterError(
        () => posenc.rope(f32(8), { ...key({ center: 0, scaleBase: 256 }), offset: 20000 }),
        RangeError,
        'positions',
      );
      assert.ok(error.message.includes('must lie within 17847 of the xPos center'), error.message);
      assert.ok(error.message.includes('xpos.scaleBase 256'), error.message);
    });

    it('a rule broken by rotaryDim the caller did not give names the option it came from', () => {
      // rotaryDim defaults to headDim: an odd headDim is reported as headDim, in every function
      // that takes one; an odd headDim is fine with an even rotaryDim.
      const dynamic = { type: 'dynamic', factor: 2, originalMaxPositionEmbeddings: 4 };
      const cases = [
        [
          'rope',
          () => posenc.rope(f32(10), { seqLen: 2, headDim: 5 }),
          'headDim',
          'headDim must be even (channels rotate in pairs) (got 5; rotaryDim defaults to headDim)',
        ],
        ['ropeQK', () => posenc.ropeQK(f32(10), f32(10), { seqLen: 2, headDim: 5 }), 'headDim', '(got 5;'],
        ['ropePlan', () => posenc.ropePlan({ seqLen: 1, headDim: 9 }), 'headDim', '(got 9;'],
        ['ropeSchedule', () => posenc.ropeSchedule({ headDim: 7 }), 'headDim', '(got 7;'],
        ['ropeFrequencies', () => posenc.ropeFrequencies({ headDim: 0 }), 'headDim', 'at least 2 (got 0;'],
        [
          'convertLayout',
          () => posenc.convertLayout(f32(10), { from: 'half', to: 'interleaved', headDim: 5 }),
          'headDim',
          '(got 5;',
        ],
        [
          'rope',
          () => posenc.rope(f32(4), { seqLen: 2, headDim: 2, scaling: dynamic }),
          'headDim',
          'headDim must be at least 4 with dynamic scaling',
        ],
        [
          'rope',
          () => posenc.rope(f32(16), { seqLen: 2, headDim: 8, partialRotaryFactor: 0.25, scaling: dynamic }),
          'partialRotaryFactor',
          'partialRotaryFactor gives rotaryDim = int(headDim · partialRotaryFactor), which must be at least 4 with dynamic scaling',
        ],
        // Given, rotaryDim is named as before.
        ['rope', () => posenc.rope(f32(10), { seqLen: 2, headDim: 5, rotaryDim: 3 }), 'rotaryDim', '(got 3)'],
      ];
      for (const [fn, call, parameter, words] of cases) {
        const error = assertParameterError(call, RangeError, parameter, `${fn}: ${words}`);
        assert.ok(error.message.startsWith(`posenc.${fn}: `), error.message);
        assert.ok(error.message.includes(words), `"${error.message}" says "${words}"`);
      }
      assertStillWorks(posenc, 'odd headDim');
      assert.equal(posenc.rope(f32(10), { seqLen: 2, headDim: 5, rotaryDim: 4 }).length, 10);
    });

    it('a rule about a sum or product of options quotes that sum or product', () => {
      const max = 2 ** 31 - 1;
      const grid = { headDim: 4, variant: 'pixtral' };
      const cases = [
        [
          'sinusoidal',
          () => posenc.sinusoidal({ ...TABLE, offset: max }),
          'offset',
          `seqLen - 1 must be at most ${max} (got ${2 ** 31})`,
        ],
        [
          'positionNumbers',
          () => posenc.positionNumbers({ seqLen: 3, dModel: 2, offset: max - 1 }),
          'offset',
          `(got ${2 ** 31})`,
        ],
        ['rope', () => posenc.rope(f32(8), { ...ROPE, offset: [max] }), 'offset', `(got ${2 ** 31})`],
        [
          'RopePlan.apply', // per-sequence offsets: the largest
          () => posenc.ropePlan({ ...ROPE, batch: 2 }).apply(f32(16), { offset: [3, max] }),
          'offset',
          `(got ${2 ** 31})`,
        ],
        [
          'relativePositionBuckets',
          () => posenc.relativePositionBuckets({ queryLen: 4, keyLen: 2, offset: max - 1 }),
          'offset',
          `queryLen - 1 must be at most ${max} (got ${2 ** 31 + 1})`,
        ],
        [
          'rope',
          () => posenc.rope(f32(8), { ...ROPE, seqLen: 2 ** 23, batch: 3 }),
          'batch',
          `seqLen must be at most ${2 ** 24} (got ${3 * 2 ** 23})`,
        ],
        [
          'ropeGrid',
          () => posenc.ropeGrid(f32(8), { ...grid, rows: 65536, cols: 65536 }),
          'rows',
          `rows times cols must be at most ${2 ** 24} patches (got ${2 ** 32})`,
        ],
        [
          'ropeGrid',
          () => posenc.ropeGrid(f32(8), { ...grid, rows: 2 ** 32 - 1, cols: 2 ** 32 - 1 }),
          'rows',
          `(got ${(2n ** 32n - 1n) ** 2n})`, // exact, beyond 2^53
        ],
        [
          'ropeGrid',
          () => posenc.ropeGrid(f32(8), { ...grid, rows: 4096, cols: 2048, frames: 3 }),
          'frames',
          `frames times rows · cols must be at most ${2 ** 24} tokens (got ${3 * 4096 * 2048})`,
        ],
      ];
      for (const [fn, call, parameter, words] of cases) {
        const error = assertParameterError(call, RangeError, parameter, `${fn}: ${words}`);
        assert.ok(error.message.startsWith(`posenc.${fn}: `), error.message);
        assert.ok(error.message.includes(words), `"${error.message}" says "${words}"`);
      }
      assertStillWorks(posenc, 'sums and products');
    });

    it('a length that does not match prints the shape it expected, and the option probably missing', () => {
      const plan = posenc.ropePlan({ seqLen: 1, numHeads: 32, headDim: 128, numKvHeads: 8 });
      const cases = [
        [
          'rope',
          () => posenc.rope(f32(1024), { seqLen: 4, headDim: 64 }),
          'x must hold [batch=1, seqLen=4, numHeads=1, headDim=64] = 256 elements ' +
            '(got 1024 = 4 × 256: perhaps batch: 4 or numHeads: 4 is missing, or seqLen should be 16)',
        ],
        [
          'rope',
          () => posenc.rope(f32(64), { seqLen: 4, headDim: 64 }),
          'x must hold [batch=1, seqLen=4, numHeads=1, headDim=64] = 256 elements (got 64 = 256 / 4: perhaps seqLen should be 1)',
        ],
        [
          'rope',
          () => posenc.rope(f32(100), { seqLen: 4, headDim: 64 }),
          'x must hold [batch=1, seqLen=4, numHeads=1, headDim=64] = 256 elements (got 100)',
        ],
        [
          'rope',
          () => posenc.rope(f32(512), { seqLen: 4, numHeads: 2, headDim: 64, order: 'heads', out: f32(256) }),
          'out must hold [batch=1, numHeads=2, seqLen=4, headDim=64] = 512 elements (got 256 = 512 / 2: perhaps numHeads should be 1, or seqLen should be 2)',
        ],
        [
          // Grouped-query attention with numKvHeads left out: k has a quarter of the heads.
          'ropeQK',
          () => posenc.ropeQK(f32(4 * 32 * 128), f32(4 * 8 * 128), { seqLen: 4, numHeads: 32, headDim: 128 }),
          'k must hold [batch=1, seqLen=4, numKvHeads=32, headDim=128] = 16384 elements ' +
            '(got 4096 = 16384 / 4: perhaps numKvHeads: 8 is missing, or seqLen should be 1)',
        ],
        [
          'ropeQK',
          () => posenc.ropeQK(f32(6), f32(8), { seqLen: 2, headDim: 4 }),
          'q must hold [batch=1, seqLen=2, numHeads=1, headDim=4] = 8 elements (got 6)',
        ],
        [
          'RopePlan.applyQK',
          () => plan.applyQK(f32(32 * 128), f32(32 * 128)),
          "k must hold the plan's [batch=1, seqLen=1, numKvHeads=8, headDim=128] = 1024 elements (got 4096 = 4 × 1024:",
        ],
        [
          'RopePlan.apply',
          () => plan.apply(f32(2 * 32 * 128)),
          "x must hold the plan's [batch=1, seqLen=1, numHeads=32, headDim=128] = 4096 elements (got 8192 = 2 × 4096: perhaps batch: 2 is missing",
        ],
        [
          'sinusoidal',
          () => posenc.sinusoidal({ seqLen: 2, dModel: 4, out: f32(16) }),
          'out must hold [seqLen=2, dModel=4] = 8 elements (got 16 = 2 × 8: perhaps seqLen should be 4)',
        ],
        [
          'addSinusoidal',
          () => posenc.addSinusoidal(f32(7), { seqLen: 2, dModel: 4 }),
          'x must hold [seqLen=2, dModel=4] = 8 elements (got 7)',
        ],
        [
          'positionNumbers',
          () => posenc.positionNumbers({ seqLen: 2, dModel: 3, out: f32(5) }),
          'out must hold [seqLen=2, dModel=3] = 6 elements (got 5)',
        ],
        [
          'ropeCache',
          () => posenc.ropeCache({ seqLen: 4, rotaryDim: 64, out: { cos: f32(128), sin: f32(256) } }),
          'out.sin must hold [batch=1, seqLen=4, rotaryDim/2=32] = 128 elements (got 256 = 2 × 128: perhaps batch: 2 is missing, or seqLen should be 8)',
        ],
        [
          'similarity',
          () => posenc.similarity(f32(6), f32(6), { rows: 2, cols: 3, dim: 3 }),
          'b must hold [cols=3, dim=3] = 9 elements (got 6)',
        ],
        [
          'similarity',
          () => posenc.similarity(f32(6), f32(9), { rows: 2, cols: 3, dim: 3, out: f32(3) }),
          'out must hold [rows=2, cols=3] = 6 elements (got 3 = 6 / 2: perhaps rows should be 1)',
        ],
        [
          'convertLayoutWeights',
          () =>
            posenc.convertLayoutWeights(f32(32), {
              from: 'half',
              to: 'interleaved',
              numHeads: 1,
              headDim: 8,
              hidden: 2,
            }),
          'w must hold [numHeads=1, headDim=8, hidden=2] = 16 elements (got 32 = 2 × 16: perhaps numHeads should be 2)',
        ],
        [
          'convertLayout',
          () => posenc.convertLayout(f32(8), { from: 'half', to: 'interleaved', headDim: 4, out: f32(9) }),
          'out must hold as many elements as x: 8 (got 9)',
        ],
      ];
      try {
        for (const [fn, call, words] of cases) {
          const parameter = words.split(' ')[0];
          const error = assertParameterError(call, RangeError, parameter, `${fn}: ${words}`);
          assert.ok(
            error.message.startsWith(`posenc.${fn}: ${words}`),
            `message\n  "${error.message}"\nstarts with\n  "posenc.${fn}: ${words}"`,
          );
        }
      } finally {
        plan.free();
      }
      assertStillWorks(posenc, 'length messages');
    });

    it('rope: x', () => {
      runCases('rope', (x) => posenc.rope(x, ROPE), [
        ['x missing', undefined, TypeError, 'x'],
        ['x null', null, TypeError, 'x'],
        ['x a Float64Array', new Float64Array(8), TypeError, 'x'],
        ['x an Array', Array(8).fill(1), TypeError, 'x'],
        ['x a string', '12345678', TypeError, 'x'],
        ['x not matching seqLen * numHeads * headDim', f32(12), RangeError, 'x'],
      ]);
      runCases('rope', (o) => posenc.rope(f32(8), o), [
        ['x not matching numHeads', { ...ROPE, numHeads: 2 }, RangeError, 'x'],
      ]);
    });

    it('similarity', () => {
      const [a, b] = [f32(3), f32(6)];
      runCases('similarity', (o) => posenc.similarity(a, b, o), [
        ...optionsMistakes(SIMILARITY, 'metrics'),
        ...sizeMistakes(SIMILARITY, 'rows'),
        ...sizeMistakes(SIMILARITY, 'cols'),
        ...sizeMistakes(SIMILARITY, 'dim'),
        ['dim 0', { ...SIMILARITY, dim: 0 }, RangeError, 'dim'],
        ['dim above maxDim', { rows: 0, cols: 0, dim: 2 ** 16 + 1 }, RangeError, 'dim'],
        ['rows above maxSeqLen', { rows: 2 ** 24 + 1, cols: 0, dim: 1 }, RangeError, 'rows'],
        ['metric unknown', { ...SIMILARITY, metric: 'l2' }, RangeError, 'metric'],
        ['metric a number', { ...SIMILARITY, metric: 1 }, TypeError, 'metric'],
        ['out a Float64Array', { ...SIMILARITY, out: new Float64Array(2) }, TypeError, 'out'],
        ['out too long', { ...SIMILARITY, out: f32(3) }, RangeError, 'out'],
      ]);
      runCases('similarity', ([x, y]) => posenc.similarity(x, y, SIMILARITY), [
        ['a missing', [undefined, b], TypeError, 'a'],
        ['a a Float64Array', [new Float64Array(3), b], TypeError, 'a'],
        ['b an Array', [a, [0, 0, 0, 0, 0, 0]], TypeError, 'b'],
        ['a too long for rows * dim', [f32(4), b], RangeError, 'a'],
        ['b too short for cols * dim', [a, f32(5)], RangeError, 'b'],
      ]);
      const square = f32(4);
      runCases('similarity', (o) => posenc.similarity(square, f32(4), o), [
        ['out is a', { rows: 2, cols: 2, dim: 2, out: square }, RangeError, 'out'],
      ]);
    });

    it('mropePositions', () => {
      const MROPE = { segments: [{ text: 2 }, { image: [1, 2, 2] }] };
      const throwing = (key) => ({
        get [key]() {
          throw new Error('hostile');
        },
      });
      runCases('mropePositions', (o) => posenc.mropePositions(o), [
        ...optionsMistakes(MROPE, 'segment'),
        ['segments a string', { segments: 'text' }, TypeError, 'segments'],
        ['segments an array-like', { segments: { length: 1, 0: { text: 1 } } }, TypeError, 'segments'],
        ['an undefined segment', { segments: [{ text: 1 }, undefined, { text: 1 }] }, TypeError, 'segments[1]'],
        ['a null segment', { segments: [null] }, TypeError, 'segments[0]'],
        ['a segment whose getter throws', { segments: [throwing('text')] }, TypeError, 'segments[0].text'],
        [
          'a grid whose element getter throws',
          { segments: [{ image: [1, 2, throwing('x')] }] },
          TypeError,
          'segments[0].image[2]',
        ],
        ['a revoked Proxy segment', { segments: [Proxy.revocable({}, {}).proxy] }, TypeError, 'segments[0]'],
        ['a grid as a string', { segments: [{ video: '1,2,2' }] }, TypeError, 'segments[0].video'],
        ['a grid of BigInts', { segments: [{ image: [1n, 2n, 2n] }] }, TypeError, 'segments[0].image[0]'],
        ['h 0', { segments: [{ image: [1, 0, 2] }] }, RangeError, 'segments[0].image[1]'],
        ['t beyond maxSeqLen', { segments: [{ video: [2 ** 24 + 1, 2, 2] }] }, RangeError, 'segments[0].video[0]'],
        [
          'a grid beyond maxSeqLen tokens',
          { segments: [{ image: [2 ** 12, 2 ** 12, 2 ** 12] }] },
          RangeError,
          'segments[0]',
        ],
        [
          'secondsPerGrid NaN',
          { segments: [{ video: [1, 2, 2], secondsPerGrid: Number.NaN }] },
          RangeError,
          'segments[0].secondsPerGrid',
        ],
        ['spatialMergeSize above maxDim', { ...MROPE, spatialMergeSize: 2 ** 16 + 1 }, RangeError, 'spatialMergeSize'],
        ['spatialMergeSize a string', { ...MROPE, spatialMergeSize: '2' }, TypeError, 'spatialMergeSize'],
        ['model a number', { ...MROPE, model: 1 }, TypeError, 'model'],
        [
          'tokensPerSecond negative',
          { ...MROPE, model: 'qwen2.5-vl', tokensPerSecond: -1 },
          RangeError,
          'tokensPerSecond',
        ],
      ]);
    });

    it('rope with mrope', () => {
      const MROPE = { seqLen: 2, headDim: 8, layout: 'half', mrope: { section: [2, 1, 1] } };
      const x = f32(16);
      runCases('rope', (o) => posenc.rope(x, o), [
        ['mrope not an object', { ...MROPE, mrope: [2, 1, 1] }, TypeError, 'mrope'],
        ['mrope null', { ...MROPE, mrope: null }, TypeError, 'mrope'],
        ['section missing', { ...MROPE, mrope: {} }, TypeError, 'mrope.section'],
        ['an unknown mrope key', { ...MROPE, mrope: { section: [2, 1, 1], sections: 1 } }, TypeError, 'mrope'],
        ['section of 2', { ...MROPE, mrope: { section: [3, 1] } }, RangeError, 'mrope.section'],
        ['section of 4', { ...MROPE, mrope: { section: [1, 1, 1, 1] } }, RangeError, 'mrope.section'],
        ['section a wrong sum', { ...MROPE, mrope: { section: [2, 1, 2] } }, RangeError, 'mrope.section'],
        ['with xpos (no model uses both)', { ...MROPE, xpos: { role: 'query' } }, RangeError, 'mrope'],
        ['section short of the pairs', { ...MROPE, mrope: { section: [1, 1, 1] } }, RangeError, 'mrope.section'],
        ['section non-integer', { ...MROPE, mrope: { section: [1.5, 1.5, 1] } }, RangeError, 'mrope.section[0]'],
        ['section negative', { ...MROPE, mrope: { section: [5, -1, 0] } }, RangeError, 'mrope.section[1]'],
        ['section a string', { ...MROPE, mrope: { section: '211' } }, TypeError, 'mrope.section'],
        ['section huge', { ...MROPE, mrope: { section: [2 ** 31 - 1, 2 ** 31 - 1, 6] } }, RangeError, 'mrope.section'],
        [
          'interleaved w pairs beyond the head',
          { ...MROPE, mrope: { section: [1, 1, 2], interleaved: true } },
          RangeError,
          'mrope.section',
        ],
        [
          'interleaved a string',
          { ...MROPE, mrope: { section: [2, 1, 1], interleaved: 'yes' } },
          TypeError,
          'mrope.interleaved',
        ],
        ['section against rotaryDim', { ...MROPE, rotaryDim: 4 }, RangeError, 'mrope.section'],
        ['positions of one row', { ...MROPE, positions: [0, 1] }, RangeError, 'positions'],
        ['positions of 3 rows of 3', { ...MROPE, positions: Array(9).fill(0) }, RangeError, 'positions'],
        ['positions negative on the w row', { ...MROPE, positions: [0, 1, 0, 1, 0, -1] }, RangeError, 'positions[5]'],
      ]);
      assert.match(
        assertParameterError(
          () => posenc.rope(x, { ...MROPE, mrope: { section: [2, 1, 2] } }),
          RangeError,
          'mrope.section',
        ).message,
        /must sum to rotaryDim \/ 2 = 4 pairs \(got \[2, 1, 2\]\)/,
      );
      assert.match(
        assertParameterError(() => posenc.rope(x, { ...MROPE, positions: [0, 1] }), RangeError, 'positions').message,
        /must hold 3 × seqLen = 6 positions/,
      );
      const plan = posenc.ropePlan({ ...MROPE, numHeads: 1 });
      try {
        runCases('RopePlan.apply', (o) => plan.apply(x, o), [
          ['plan positions of one row', { positions: [0, 1] }, RangeError, 'positions'],
        ]);
      } finally {
        plan.free();
      }
    });

    it('ropeGrid', () => {
      const GRID = { rows: 2, cols: 3, headDim: 8, variant: 'axial' };
      const x = f32(48);
      runCases('ropeGrid', (o) => posenc.ropeGrid(x, o), [
        ...optionsMistakes(GRID, 'row'),
        ...sizeMistakes(GRID, 'rows'),
        ...sizeMistakes(GRID, 'cols'),
        ...sizeMistakes(GRID, 'headDim'),
        ['variant missing', { ...GRID, variant: undefined }, TypeError, 'variant'],
        ['variant unknown', { ...GRID, variant: 'rope2d' }, RangeError, 'variant'],
        ['variant a number', { ...GRID, variant: 0 }, TypeError, 'variant'],
        ['axial headDim not a multiple of 4', { ...GRID, headDim: 6 }, RangeError, 'headDim'],
        ['pixtral headDim odd', { ...GRID, variant: 'pixtral', headDim: 7 }, RangeError, 'headDim'],
        ['pixtral headDim 2', { ...GRID, variant: 'pixtral', headDim: 2 }, RangeError, 'headDim'],
        ['headDim above maxDim', { ...GRID, headDim: 2 ** 16 + 4 }, RangeError, 'headDim'],
        ['rows · cols above maxSeqLen', { ...GRID, rows: 2 ** 13, cols: 2 ** 11 + 1 }, RangeError, 'rows'],
        ['base 0', { ...GRID, base: 0 }, RangeError, 'base'],
        ['layout unknown', { ...GRID, layout: 'neox' }, RangeError, 'layout'],
        ['order unknown', { ...GRID, order: 'rows' }, RangeError, 'order'],
        ['numHeads 0', { ...GRID, numHeads: 0 }, RangeError, 'numHeads'],
        ['batch · rows · cols above maxSeqLen', { ...GRID, batch: 2 ** 23 }, RangeError, 'batch'],
        ['more than maxElements', { ...GRID, rows: 2 ** 12, cols: 2 ** 12, headDim: 32 }, RangeError, 'shape'],
        ...sizeMistakes({ ...GRID, frames: 1 }, 'frames').filter(([label]) => !label.includes('missing')),
        [
          'frames · rows · cols above maxSeqLen',
          { ...GRID, rows: 2 ** 12, cols: 2 ** 12, frames: 2 },
          RangeError,
          'frames',
        ],
        ['out too short', { ...GRID, out: f32(47) }, RangeError, 'out'],
        ['out a Float64Array', { ...GRID, out: new Float64Array(48) }, TypeError, 'out'],
      ]);
      runCases('ropeGrid', (y) => posenc.ropeGrid(y, GRID), [
        ['x missing', undefined, TypeError, 'x'],
        ['x too long', f32(49), RangeError, 'x'],
        ['x for another grid', f32(40), RangeError, 'x'],
      ]);
      assert.match(
        assertParameterError(() => posenc.ropeGrid(f32(40), GRID), RangeError, 'x').message,
        /\[batch=1, rows·cols=6, numHeads=1, headDim=8\] = 48 elements \(got 40/,
      );
      assert.match(
        assertParameterError(() => posenc.ropeGrid(f32(48), { ...GRID, frames: 2 }), RangeError, 'x').message,
        /\[batch=1, frames·rows·cols=12, numHeads=1, headDim=8\] = 96 elements \(got 48/,
      );
    });

    it('alibiSlopes and alibiBias', () => {
      const SLOPES = { numHeads: 4 };
      const BIAS = { numHeads: 2, queryLen: 3, keyLen: 4 };
      const maxBiasMistakes = (base) => [
        ['maxBias 0', { ...base, maxBias: 0 }, RangeError, 'maxBias'],
        ['maxBias negative', { ...base, maxBias: -8 }, RangeError, 'maxBias'],
        ['maxBias NaN', { ...base, maxBias: Number.NaN }, RangeError, 'maxBias'],
        ['maxBias Infinity', { ...base, maxBias: Infinity }, RangeError, 'maxBias'],
        ['maxBias a string', { ...base, maxBias: '8' }, TypeError, 'maxBias'],
      ];
      runCases('alibiSlopes', (o) => posenc.alibiSlopes(o), [
        ...optionsMistakes(SLOPES, 'heads'),
        ...sizeMistakes(SLOPES, 'numHeads'),
        ['numHeads 0', { numHeads: 0 }, RangeError, 'numHeads'],
        ['numHeads 1.5', { numHeads: 1.5 }, RangeError, 'numHeads'],
        ['numHeads above maxDim', { numHeads: 2 ** 16 + 1 }, RangeError, 'numHeads'],
        ['numHeads huge', { numHeads: 2 ** 32 }, RangeError, 'numHeads'],
        ...maxBiasMistakes(SLOPES),
        [
          'a getter that throws',
          Object.defineProperty({}, 'numHeads', {
            enumerable: true,
            get: () => {
              throw new Error('boom');
            },
          }),
          TypeError,
          'numHeads',
        ],
      ]);
      runCases('alibiBias', (o) => posenc.alibiBias(o), [
        ...optionsMistakes(BIAS, 'queryLength'),
        ...sizeMistakes(BIAS, 'numHeads'),
        ...sizeMistakes(BIAS, 'queryLen'),
        ...sizeMistakes(BIAS, 'keyLen'),
        ['numHeads 0', { ...BIAS, numHeads: 0 }, RangeError, 'numHeads'],
        ['numHeads above maxDim', { ...BIAS, numHeads: 2 ** 16 + 1 }, RangeError, 'numHeads'],
        ['queryLen above maxSeqLen', { ...BIAS, queryLen: 2 ** 24 + 1 }, RangeError, 'queryLen'],
        ['keyLen above maxSeqLen', { ...BIAS, keyLen: 2 ** 32 - 1 }, RangeError, 'keyLen'],
        ['more than maxElements', { numHeads: 17, queryLen: 4096, keyLen: 4096 }, RangeError, 'shape'],
        ...maxBiasMistakes(BIAS),
        ['offset 1.5', { ...BIAS, offset: 1.5 }, RangeError, 'offset'],
        ['offset NaN', { ...BIAS, offset: Number.NaN }, RangeError, 'offset'],
        ['offset past 2^31 - 1', { ...BIAS, offset: 2 ** 31 }, RangeError, 'offset'],
        ['offset below -(2^31 - 1)', { ...BIAS, offset: -(2 ** 31) }, RangeError, 'offset'],
        ['offset -Infinity', { ...BIAS, offset: -Infinity }, RangeError, 'offset'],
        ['offset a string', { ...BIAS, offset: '1' }, TypeError, 'offset'],
        ['offset a BigInt', { ...BIAS, offset: 1n }, TypeError, 'offset'],
        ['out a Float64Array', { ...BIAS, out: new Float64Array(24) }, TypeError, 'out'],
        ['out an Array', { ...BIAS, out: Array(24).fill(0) }, TypeError, 'out'],
        ['out too short', { ...BIAS, out: f32(23) }, RangeError, 'out'],
        ['out too long', { ...BIAS, out: f32(48) }, RangeError, 'out'],
      ]);
      const message = assertParameterError(
        () => posenc.alibiBias({ ...BIAS, out: f32(12) }),
        RangeError,
        'out',
        'alibiBias: out length message',
      ).message;
      assert.match(message, /\[numHeads=2, queryLen=3, keyLen=4\] = 24 elements \(got 12/);
      assert.match(
        assertParameterError(() => posenc.alibiBias({ ...BIAS, offset: 0.5 }), RangeError, 'offset').message,
        /must be an integer in \[-2147483647, 2147483647\] \(got 0\.5\)/,
      );
    });

    it('relativePositionBuckets', () => {
      const valid = { queryLen: 2, keyLen: 3 };
      const fn = (o) => posenc.relativePositionBuckets(o);
      const detached = new Int32Array(6);
      structuredClone(detached.buffer, { transfer: [detached.buffer] });
      const wasmOut = posenc.allocate(6);
      runCases('relativePositionBuckets', fn, [
        ...optionsMistakes(valid, 'numbuckets'),
        ...sizeMistakes(valid, 'queryLen'),
        ...sizeMistakes(valid, 'keyLen'),
        ...sizeMistakes({ ...valid, numBuckets: 32 }, 'numBuckets').filter(([label]) => !label.includes('missing')),
        ...sizeMistakes({ ...valid, maxDistance: 128 }, 'maxDistance').filter(([label]) => !label.includes('missing')),
        ['queryLen above maxSeqLen', { queryLen: 2 ** 24 + 1, keyLen: 0 }, RangeError, 'queryLen'],
        ['keyLen above maxSeqLen', { queryLen: 0, keyLen: 2 ** 24 + 1 }, RangeError, 'keyLen'],
        ['queryLen · keyLen above maxElements', { queryLen: 2 ** 15, keyLen: 2 ** 14 }, RangeError, 'shape'],
        ['numBuckets 0', { ...valid, numBuckets: 0 }, RangeError, 'numBuckets'],
        ['numBuckets 1', { ...valid, numBuckets: 1, bidirectional: false }, RangeError, 'numBuckets'],
        ['numBuckets 3 bidirectional (halved to 1)', { ...valid, numBuckets: 3 }, RangeError, 'numBuckets'],
        ['numBuckets above maxDim', { ...valid, numBuckets: 2 ** 16 + 1 }, RangeError, 'numBuckets'],
        ['maxDistance = maxExact', { ...valid, maxDistance: 8 }, RangeError, 'maxDistance'],
        ['maxDistance below maxExact', { ...valid, numBuckets: 64, maxDistance: 10 }, RangeError, 'maxDistance'],
        ['maxDistance 0', { ...valid, maxDistance: 0 }, RangeError, 'maxDistance'],
        [
          'maxDistance = maxExact (unidirectional)',
          { ...valid, bidirectional: false, maxDistance: 16 },
          RangeError,
          'maxDistance',
        ],
        ['bidirectional a number', { ...valid, bidirectional: 1 }, TypeError, 'bidirectional'],
        ['bidirectional a string', { ...valid, bidirectional: 'true' }, TypeError, 'bidirectional'],
        ['offset negative', { ...valid, offset: -1 }, RangeError, 'offset'],
        ['offset NaN', { ...valid, offset: Number.NaN }, RangeError, 'offset'],
        ['offset + queryLen past 2^31 - 1', { ...valid, offset: 2 ** 31 - 1 }, RangeError, 'offset'],
        ['offset beyond uint32', { ...valid, offset: 2 ** 32 }, RangeError, 'offset'],
        ['out too long', { ...valid, out: new Int32Array(7) }, RangeError, 'out'],
        ['out too short', { ...valid, out: new Int32Array(5) }, RangeError, 'out'],
        ['out a Float32Array', { ...valid, out: f32(6) }, TypeError, 'out'],
        ['out a Uint32Array', { ...valid, out: new Uint32Array(6) }, TypeError, 'out'],
        ['out an Array', { ...valid, out: [0, 0, 0, 0, 0, 0] }, TypeError, 'out'],
        ['out a WasmArray', { ...valid, out: wasmOut }, TypeError, 'out'],
        ['out detached', { ...valid, out: detached }, RangeError, 'out'],
        [
          'out an Int32Array view of WASM memory',
          { ...valid, out: new Int32Array(wasmOut.view().buffer, wasmOut.address, 6) },
          RangeError,
          'out',
        ],
      ]);
      wasmOut.free();
      const error = assertParameterError(
        () => fn({ ...valid, out: new Int32Array(5) }),
        RangeError,
        'out',
        'relativePositionBuckets out length',
      );
      assert.match(error.message, /\[queryLen=2, keyLen=3\] = 6 elements \(got 5\)/);
    });

    it('attentionScores', () => {
      const S = { numHeads: 2, queryLen: 3, keyLen: 4, headDim: 4, encoding: 'none' };
      const q = f32(24);
      const k = f32(32);
      const t5 = { ...S, encoding: 't5', bias: f32(64) };
      const fn = (o) => posenc.attentionScores(q, k, o);
      runCases('attentionScores', fn, [
        ...optionsMistakes(S, 'querylen'),
        ...sizeMistakes(S, 'queryLen'),
        ...sizeMistakes(S, 'keyLen'),
        ...sizeMistakes(S, 'headDim'),
        ['encoding missing', { ...S, encoding: undefined }, TypeError, 'encoding'],
        ['encoding unknown', { ...S, encoding: 'cope' }, RangeError, 'encoding'],
        ['encoding a number', { ...S, encoding: 2 }, TypeError, 'encoding'],
        ['numHeads 0', { ...S, numHeads: 0 }, RangeError, 'numHeads'],
        ['numHeads above maxDim', { ...S, numHeads: 2 ** 16 + 1 }, RangeError, 'numHeads'],
        ['headDim 0', { ...S, headDim: 0 }, RangeError, 'headDim'],
        ['queryLen above maxSeqLen', { ...S, queryLen: 2 ** 24 + 1 }, RangeError, 'queryLen'],
        ['keyLen above maxSeqLen', { ...S, keyLen: 2 ** 32 - 1 }, RangeError, 'keyLen'],
        ['more than maxElements', { ...S, numHeads: 17, queryLen: 4096, keyLen: 4096 }, RangeError, 'shape'],
        ['q too short', { ...S, queryLen: 4 }, RangeError, 'q'],
        ['k too long', { ...S, keyLen: 3 }, RangeError, 'k'],
        ['order unknown', { ...S, order: 'rows' }, RangeError, 'order'],
        ['softmax a number', { ...S, softmax: 1 }, TypeError, 'softmax'],
        ['softmax a string', { ...S, softmax: 'true' }, TypeError, 'softmax'],
        ['causal null', { ...S, causal: null }, TypeError, 'causal'],
        ['scale NaN', { ...S, scale: Number.NaN }, RangeError, 'scale'],
        ['scale Infinity', { ...S, scale: Infinity }, RangeError, 'scale'],
        ['scale a string', { ...S, scale: '0.5' }, TypeError, 'scale'],
        ['offset 1.5', { ...S, offset: 1.5 }, RangeError, 'offset'],
        ['offset below -(2^31 - 1)', { ...S, offset: -(2 ** 31) }, RangeError, 'offset'],
        ['offset negative with rope', { ...S, encoding: 'rope', offset: -1 }, RangeError, 'offset'],
        ['default offset negative with rope', { ...S, encoding: 'rope', keyLen: 2, queryLen: 3 }, RangeError, 'keyLen'],
        [
          'offset + queryLen past 2^31 - 1 with sinusoidal',
          { ...S, encoding: 'sinusoidal', offset: 2 ** 31 - 2 },
          RangeError,
          'offset',
        ],
        [
          'headDim odd with sinusoidal',
          { ...S, encoding: 'sinusoidal', headDim: 3, queryLen: 4, keyLen: 4 },
          RangeError,
          'headDim',
        ],
        ['rotaryDim odd with rope', { ...S, encoding: 'rope', rotaryDim: 3 }, RangeError, 'rotaryDim'],
        ['rotaryDim above headDim with rope', { ...S, encoding: 'rope', rotaryDim: 6 }, RangeError, 'rotaryDim'],
        [
          'rotaryDim with partialRotaryFactor',
          { ...S, encoding: 'rope', rotaryDim: 2, partialRotaryFactor: 0.5 },
          TypeError,
          'rotaryDim',
        ],
        [
          'scaling of an unknown type',
          { ...S, encoding: 'rope', scaling: { type: 'ntk' } },
          RangeError,
          'scaling.type',
        ],
        ['base 0 with rope', { ...S, encoding: 'rope', base: 0 }, RangeError, 'base'],
        ['xpos with rope', { ...S, encoding: 'rope', xpos: {} }, TypeError, 'xpos'],
        ['xpos not an object', { ...S, encoding: 'xpos', xpos: 512 }, TypeError, 'xpos'],
        ['xpos.role given', { ...S, encoding: 'xpos', xpos: { role: 'query' } }, TypeError, 'xpos.role'],
        ['xpos.scaleBase 0', { ...S, encoding: 'xpos', xpos: { scaleBase: 0 } }, RangeError, 'xpos.scaleBase'],
        ['xpos.gamma NaN', { ...S, encoding: 'xpos', xpos: { gamma: Number.NaN } }, RangeError, 'xpos.gamma'],
        ['xpos.center 1.5', { ...S, encoding: 'xpos', xpos: { center: 1.5 } }, RangeError, 'xpos.center'],
        ['offset negative with xpos', { ...S, encoding: 'xpos', offset: -1 }, RangeError, 'offset'],
        ['xpos positions too far from the center', { ...S, encoding: 'xpos', offset: 100000 }, RangeError, 'positions'],
        ['layout half with sinusoidal', { ...S, encoding: 'sinusoidal', layout: 'half' }, RangeError, 'layout'],
        ['layout concat with rope', { ...S, encoding: 'rope', layout: 'concat' }, RangeError, 'layout'],
        ['layout a number', { ...S, encoding: 'rope', layout: 1 }, TypeError, 'layout'],
        ['maxBias 0 with alibi', { ...S, encoding: 'alibi', maxBias: 0 }, RangeError, 'maxBias'],
        ['maxBias with none', { ...S, maxBias: 8 }, TypeError, 'maxBias'],
        ['base with alibi', { ...S, encoding: 'alibi', base: 10000 }, TypeError, 'base'],
        [
          'scaling with sinusoidal',
          { ...S, encoding: 'sinusoidal', scaling: { type: 'linear', factor: 2 } },
          TypeError,
          'scaling',
        ],
        ['numBuckets with rope', { ...S, encoding: 'rope', numBuckets: 32 }, TypeError, 'numBuckets'],
        ['bias with alibi', { ...S, encoding: 'alibi', bias: f32(64) }, TypeError, 'bias'],
        ['bias missing with t5', { ...t5, bias: undefined }, TypeError, 'bias'],
        ['bias too short', { ...t5, bias: f32(63) }, RangeError, 'bias'],
        ['bias for other numBuckets', { ...t5, numBuckets: 16 }, RangeError, 'bias'],
        ['bias a Float64Array', { ...t5, bias: new Float64Array(64) }, TypeError, 'bias'],
        ['bias an Array', { ...t5, bias: Array(64).fill(0) }, TypeError, 'bias'],
        ['numBuckets 3 with t5', { ...t5, numBuckets: 3 }, RangeError, 'numBuckets'],
        ['maxDistance below maxExact with t5', { ...t5, maxDistance: 8 }, RangeError, 'maxDistance'],
        ['bidirectional a number with t5', { ...t5, bidirectional: 0 }, TypeError, 'bidirectional'],
        ['out too short', { ...S, out: f32(23) }, RangeError, 'out'],
        ['out a Float64Array', { ...S, out: new Float64Array(24) }, TypeError, 'out'],
        ['out is q', { ...S, keyLen: 3, out: q.subarray(0, 18) }, RangeError, 'out'],
      ]);
      assert.throws(
        () => posenc.attentionScores(f32(24), undefined, S),
        (e) => e.parameter === 'k',
      );
      assert.throws(
        () => posenc.attentionScores([0], k, S),
        (e) => e.parameter === 'q' && e instanceof TypeError,
      );
      const bias = assertParameterError(() => fn({ ...t5, bias: f32(10) }), RangeError, 'bias').message;
      assert.match(bias, /\[numBuckets=32, numHeads=2\] = 64 elements \(got 10\)/);
      const other = assertParameterError(
        () => fn({ ...S, encoding: 'rope', maxBias: 4 }),
        TypeError,
        'maxBias',
      ).message;
      assert.match(other, /is an option of encoding 'alibi' \(encoding is 'rope'\)/);
      const out = assertParameterError(() => fn({ ...S, out: f32(12) }), RangeError, 'out').message;
      assert.match(out, /\[numHeads=2, queryLen=3, keyLen=4\] = 24 elements \(got 12/);
      const shortQ = assertParameterError(() => fn({ ...S, order: 'tokens', numHeads: 4 }), RangeError, 'q').message;
      assert.match(shortQ, /\[queryLen=3, numHeads=4, headDim=4\] = 48 elements \(got 24/);
    });

    it('allocate', () => {
      runCases('allocate', (v) => posenc.allocate(v), [
        ['nothing', undefined, TypeError, 'lengthOrValues'],
        ['a string', '8', TypeError, 'lengthOrValues'],
        ['a BigInt', 8n, TypeError, 'lengthOrValues'],
        ['a Float64Array', new Float64Array(3), TypeError, 'lengthOrValues'],
        ['negative', -1, RangeError, 'length'],
        ['non-integer', 2.5, RangeError, 'length'],
        ['NaN', Number.NaN, RangeError, 'length'],
        ['above maxElements', 2 ** 28 + 1, RangeError, 'length'],
      ]);
    });

    describe('WasmArrays', () => {
      it('a freed WasmArray cannot be used again (as x, out, a; or through its own methods)', () => {
        const freed = posenc.allocate(8);
        freed.free();
        assert.equal(freed.freed, true);
        freed.free(); // a second free is harmless
        runCases('rope', (o) => posenc.rope(freed, o), [['x freed', ROPE, RangeError, 'x']]);
        runCases('rope', (o) => posenc.rope(f32(8), o), [['out freed', { ...ROPE, out: freed }, RangeError, 'out']]);
        runCases('addSinusoidal', (o) => posenc.addSinusoidal(freed, o), [['x freed', TABLE, RangeError, 'x']]);
        runCases('sinusoidal', (o) => posenc.sinusoidal(o), [
          ['out freed', { ...TABLE, out: freed }, RangeError, 'out'],
        ]);
        runCases('similarity', (o) => posenc.similarity(freed, f32(8), o), [
          ['a freed', { rows: 1, cols: 1, dim: 8 }, RangeError, 'a'],
        ]);
        for (const method of ['view', 'toArray', 'set', 'subarray']) {
          // The array itself is the bad argument: error.parameter is 'this'.
          assert.throws(
            () => freed[method]([1]),
            (error) =>
              error instanceof RangeError &&
              error.parameter === 'this' &&
              /^posenc\.WasmArray\.\w+: the array was already freed/.test(error.message),
            `WasmArray.${method}`,
          );
          assertStillWorks(posenc, `WasmArray.${method} after free`);
        }
      });

      it('a WasmArray of another instance is refused', async () => {
        const other = await loadPosenc({ simd: posenc.simd });
        const foreign = other.allocate(8);
        try {
          runCases('rope', (o) => posenc.rope(foreign, o), [['x of another instance', ROPE, TypeError, 'x']]);
          runCases('rope', (o) => posenc.rope(f32(8), o), [
            ['out of another instance', { ...ROPE, out: foreign }, TypeError, 'out'],
          ]);
          runCases('addSinusoidal', (o) => posenc.addSinusoidal(foreign, o), [
            ['x of another instance', TABLE, TypeError, 'x'],
          ]);
          runCases('positionNumbers', (o) => posenc.positionNumbers(o), [
            ['out of another instance', { ...TABLE, out: foreign }, TypeError, 'out'],
          ]);
        } finally {
          foreign.free();
        }
      });

      it('out partly overlapping x is refused (rope, similarity); out === x is in place', () => {
        // Overlapping arrays in WASM memory: views of one allocation (accepted in place).
        const block = posenc.allocate(Float32Array.from({ length: 16 }, (_, i) => i + 1));
        try {
          const x = block.view().subarray(0, 8);
          const shifted = block.view().subarray(2, 10);
          runCases('rope', (o) => posenc.rope(x, o), [
            ['out overlaps x', { ...ROPE, out: shifted }, RangeError, 'out'],
          ]);
          assert.deepEqual(
            Array.from(block.toArray()),
            Array.from({ length: 16 }, (_, i) => i + 1),
            'nothing written',
          );
          const a = block.view().subarray(0, 4);
          const overlapping = block.view().subarray(3, 7);
          runCases('similarity', (o) => posenc.similarity(a, f32(4), o), [
            ['out overlaps a', { rows: 2, cols: 2, dim: 2, out: overlapping }, RangeError, 'out'],
          ]);
          const expected = posenc.rope(x.slice(), ROPE);
          assert.equal(posenc.rope(x, { ...ROPE, out: block.view().subarray(0, 8) }).byteOffset, block.address);
          assert.deepEqual(block.view().subarray(0, 8), expected, 'out covering exactly x rotates in place');
          assert.throws(
            () => new WasmArray(posenc, block.address, 8),
            TypeError,
            'WasmArrays come only from allocate()',
          );
        } finally {
          block.free();
        }
      });

      it('JS arrays that share one buffer: out partly overlapping x is refused too; the same range is in place', () => {
        const buffer = Float32Array.from({ length: 12 }, (_, i) => i - 5);
        const before = buffer.slice();
        const x = buffer.subarray(0, 8);
        runCases('rope', (o) => posenc.rope(x, o), [
          ['out overlaps x in one ArrayBuffer', { ...ROPE, out: buffer.subarray(4, 12) }, RangeError, 'out'],
        ]);
        assert.deepEqual(buffer, before, 'nothing written');
        const expected = posenc.rope(x.slice(), ROPE);
        posenc.rope(x, { ...ROPE, out: buffer.subarray(0, 8) });
        assert.deepEqual(x, expected, 'out covering exactly x rotates in place');
      });

      it('WasmArray.set with values that do not fit', () => {
        const array = posenc.allocate(4);
        try {
          assertParameterError(
            () => array.set([1, 2, 3, 4, 5]),
            RangeError,
            /^(values|offset)$/,
            'set: too many values',
          );
          assertParameterError(() => array.set([1], 4), RangeError, /^(values|offset)$/, 'set: offset past the end');
          assertStillWorks(posenc, 'WasmArray.set');
        } finally {
          array.free();
        }
      });
    });

    describe('dtype', () => {
      const u16 = (n) => new Uint16Array(n);
      const dtypeMistakes = (valid) => [
        ["dtype 'float64'", { ...valid, dtype: 'float64' }, RangeError, 'dtype'],
        ["dtype 'Float16' (miscased)", { ...valid, dtype: 'Float16' }, RangeError, 'dtype'],
        ['dtype 1 (an enum value)', { ...valid, dtype: 1 }, TypeError, 'dtype'],
        ['dtype null', { ...valid, dtype: null }, TypeError, 'dtype'],
        ['dtype an object', { ...valid, dtype: { toString: () => 'float16' } }, TypeError, 'dtype'],
      ];

      it('a dtype outside the three, in every function that takes one', () => {
        runCases('sinusoidal', (o) => posenc.sinusoidal(o), dtypeMistakes(TABLE));
        runCases('addSinusoidal', (o) => posenc.addSinusoidal(f32(8), o), dtypeMistakes(TABLE));
        runCases('positionNumbers', (o) => posenc.positionNumbers(o), dtypeMistakes(TABLE));
        runCases('ropeCache', (o) => posenc.ropeCache(o), dtypeMistakes({ seqLen: 2, rotaryDim: 4 }));
        runCases('rope', (o) => posenc.rope(f32(8), o), dtypeMistakes(ROPE));
        runCases('ropeQK', (o) => posenc.ropeQK(f32(8), f32(8), o), dtypeMistakes(ROPE));
        runCases('ropePlan', (o) => posenc.ropePlan(o), dtypeMistakes(ROPE));
        runCases('allocate', (o) => posenc.allocate(4, o), dtypeMistakes({}));
      });

      it('a Uint16Array without a dtype: a TypeError naming the array and saying why', () => {
        for (const [fn, call, parameter] of [
          ['rope', () => posenc.rope(u16(8), ROPE), 'x'],
          ['rope', () => posenc.rope(f32(8), { ...ROPE, out: u16(8) }), 'out'],
          ['ropeQK', () => posenc.ropeQK(u16(8), u16(8), ROPE), 'q'],
          ['addSinusoidal', () => posenc.addSinusoidal(u16(8), TABLE), 'x'],
          ['sinusoidal', () => posenc.sinusoidal({ ...TABLE, out: u16(8) }), 'out'],
          ['positionNumbers', () => posenc.positionNumbers({ ...TABLE, out: u16(8) }), 'out'],
          [
            'ropeCache',
            () => posenc.ropeCache({ seqLen: 2, rotaryDim: 4, out: { cos: u16(4), sin: u16(4) } }),
            'out.cos',
          ],
          ['allocate', () => posenc.allocate(u16(4)), 'lengthOrValues'],
        ]) {
          const error = assertParameterError(call, TypeError, parameter, `${fn}: Uint16Array without dtype`);
          assert.match(error.message, /16-bit patterns may be float16 or bfloat16/, `${fn}: says why`);
          assert.match(error.message, /dtype: 'float16' or 'bfloat16'/, `${fn}: says what to give`);
          assertStillWorks(posenc, `${fn}: Uint16Array without dtype`);
        }
      });

      it('half arrays are measured in elements and their overlaps in bytes', () => {
        const short = assertParameterError(
          () => posenc.rope(u16(7), { ...ROPE, dtype: 'float16' }),
          RangeError,
          'x',
          'rope: a Uint16Array one element short',
        );
        assert.match(short.message, /= 8 elements \(got 7/);
        const buffer = new ArrayBuffer(64);
        const x = new Uint16Array(buffer, 0, 8);
        assertParameterError(
          () => posenc.rope(x, { ...ROPE, dtype: 'bfloat16', out: new Uint16Array(buffer, 14, 8) }),
          RangeError,
          'out',
          'rope: out overlapping the last element of x',
        );
        const next = new Uint16Array(buffer, 16, 8); // right after x's 16 bytes: disjoint
        x.fill(0x3f80);
        posenc.rope(x, { ...ROPE, dtype: 'bfloat16', out: next });
        assert.deepEqual(Array.from(x), Array(8).fill(0x3f80), 'x untouched');
        assert.ok(
          next.some((b) => b !== 0x3f80),
          'out written',
        );
        const w = posenc.allocate(16, { dtype: 'float16' });
        assertParameterError(
          () => posenc.rope(w.subarray(0, 8), { ...ROPE, out: w.subarray(7, 15) }),
          RangeError,
          'out',
          'rope: windows overlapping by one float16 element',
        );
        posenc.rope(w.subarray(0, 8), { ...ROPE, out: w.subarray(8, 16) }); // adjacent windows
        w.free();
        assertStillWorks(posenc, 'half overlaps');
      });

      it('arrays that disagree with the dtype, or with each other: a TypeError naming the array', () => {
        const f16 = globalThis.Float16Array ? (n) => new Float16Array(n) : undefined;
        const half = posenc.allocate(8, { dtype: 'float16' });
        const bf = posenc.allocate(8, { dtype: 'bfloat16' });
        try {
          const cases = [
            [
              'rope',
              () => posenc.rope(f32(8), { ...ROPE, dtype: 'float16' }),
              'x',
              /Float32Array \(float32\), but dtype is 'float16'/,
            ],
            [
              'rope',
              () => posenc.rope(u16(8), { ...ROPE, dtype: 'float32' }),
              'x',
              /Uint16Array, but dtype is 'float32'/,
            ],
            [
              'rope',
              () => posenc.rope(half, { ...ROPE, dtype: 'bfloat16' }),
              'x',
              /float16 WasmArray \(float16\), but dtype is 'bfloat16'/,
            ],
            [
              'rope',
              () => posenc.rope(half, { ...ROPE, out: f32(8) }),
              'out',
              /Float32Array \(float32\), but x is a float16 WasmArray/,
            ],
            [
              'rope',
              () => posenc.rope(half, { ...ROPE, out: bf }),
              'out',
              /bfloat16 WasmArray \(bfloat16\), but x is a float16 WasmArray/,
            ],
            ['ropeQK', () => posenc.ropeQK(half, f32(8), ROPE), 'k', /share one dtype/],
            [
              'ropeQK',
              () => posenc.ropeQK(u16(8), u16(8), { ...ROPE, dtype: 'float16', out: { q: u16(8), k: f32(8) } }),
              'out.k',
              /but dtype is 'float16'/,
            ],
            [
              'addSinusoidal',
              () => posenc.addSinusoidal(bf, { ...TABLE, dtype: 'float16' }),
              'x',
              /but dtype is 'float16'/,
            ],
            [
              'sinusoidal',
              () => posenc.sinusoidal({ ...TABLE, dtype: 'bfloat16', out: f32(8) }),
              'out',
              /but dtype is 'bfloat16'/,
            ],
            [
              'ropeCache',
              () => posenc.ropeCache({ seqLen: 2, rotaryDim: 4, out: { cos: half.subarray(0, 4), sin: f32(4) } }),
              'out.sin',
              /share one dtype/,
            ],
            [
              'allocate',
              () => posenc.allocate(f32(4), { dtype: 'bfloat16' }),
              'lengthOrValues',
              /Float32Array \(float32\), but dtype is 'bfloat16'/,
            ],
            [
              'allocate',
              () => posenc.allocate([1, 2], { dtype: 'float16' }),
              'lengthOrValues',
              /Array of numbers \(float32\), but dtype is 'float16'/,
            ],
            ['WasmArray.set', () => bf.set(f32(2)), 'values', /but the WasmArray holds bfloat16/],
            ['WasmArray.set', () => half.set([1, 2]), 'values', /but the WasmArray holds float16/],
            [
              'similarity',
              () => posenc.similarity(half, f32(8), { rows: 2, cols: 2, dim: 4 }),
              'a',
              /computes in float32 only/,
            ],
            [
              'ropeGrid',
              () => posenc.ropeGrid(half, { rows: 1, cols: 2, headDim: 4, variant: 'axial' }),
              'x',
              /computes in float32 only/,
            ],
            [
              'attentionScores',
              () => posenc.attentionScores(f32(8), u16(8), { queryLen: 2, keyLen: 2, headDim: 4, encoding: 'none' }),
              'k',
              /must be a Float32Array or a WasmArray/,
            ],
          ];
          if (f16) {
            cases.push(
              [
                'rope',
                () => posenc.rope(f16(8), { ...ROPE, dtype: 'bfloat16' }),
                'x',
                /Float16Array \(float16\), but dtype is 'bfloat16' \(bfloat16 data is a Uint16Array/,
              ],
              ['rope', () => posenc.rope(f16(8), { ...ROPE, out: f32(8) }), 'out', /but x is a Float16Array/],
            );
          }
          for (const [fn, call, parameter, words] of cases) {
            const error = assertParameterError(call, TypeError, parameter, `${fn}: ${words}`);
            assert.match(error.message, words, `${fn}: ${error.message}`);
            assertStillWorks(posenc, `${fn}: dtype mismatch`);
          }
          const plan = posenc.ropePlan({ ...ROPE, dtype: 'bfloat16' });
          try {
            for (const [call, parameter] of [
              [() => plan.apply(f32(8)), 'x'],
              [() => plan.apply(half), 'x'],
              [() => plan.apply(bf, { out: f32(8) }), 'out'],
              [() => plan.applyQK(bf, half.subarray(0, 8)), 'k'],
            ]) {
              const error = assertParameterError(call, TypeError, parameter, 'a bfloat16 plan');
              assert.match(error.message, /the plan's dtype is 'bfloat16'/);
            }
            assert.equal(plan.dtype, 'bfloat16');
            assert.equal(posenc.ropePlan(ROPE).dtype, 'float32');
          } finally {
            plan.free();
          }
        } finally {
          half.free();
          bf.free();
        }
      });
    });
  });
}

describe('loadPosenc names its bad option', () => {
  const cases = [
    ['simd a string', { simd: 'yes' }, TypeError, 'simd'],
    ['misspelled option', { simdd: true }, TypeError, 'options'],
    ['options null', null, TypeError, 'options'],
    ['wasmBinary a number', { wasmBinary: 5 }, TypeError, 'wasmBinary'],
    ['locateWasm a number', { locateWasm: 5 }, TypeError, 'locateWasm'],
  ];
  for (const [label, options, type, parameter] of cases) {
    it(label, async () => {
      await assert.rejects(loadPosenc(options), (error) => {
        assert.ok(error instanceof type, `${error.constructor.name}: ${error.message}`);
        assert.ok(error.message.startsWith('posenc.loadPosenc: '));
        assert.ok(error.message.includes(parameter === 'options' ? 'option' : parameter), error.message);
        assert.equal(error.parameter, parameter, `error.parameter (message: ${error.message})`);
        return true;
      });
    });
  }

  it('the wrong build bytes are refused', async () => {
    const scalarBytes = await (await import('node:fs/promises')).readFile(
      new URL('../../dist/posenc-scalar.wasm', import.meta.url),
    );
    await assert.rejects(
      loadPosenc({ simd: true, wasmBinary: scalarBytes }),
      /scalar build but the simd build was requested/,
    );
  });
});
