// posenc against the PyTorch golden vectors of tests/golden (scripts/make_golden.py): the tutorial posts'
// own code run verbatim in float32 and float64, Jaitly's worked example, and float64
// references written the way the PyTorch tutorial, Hugging Face and Meta LLaMA write them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { patternsOf } from '../../bench/half-bits.js';
import { ropeReference, sinusoidalReference } from './reference.js';
import {
  ROPE_EPS,
  TABLE_BOUND,
  U32,
  assertClose,
  assertRopeClose,
  loadBothVariants,
  randomPositions,
  readGolden,
  ropePairScales,
  ulp32,
} from './support.js';

// Float32 goldens are written with 9 significant digits: Float32Array.from rounds each back to
// the exact float32 value PyTorch produced.
const float32 = (values) => Float32Array.from(values);

const seedTable = readGolden('explained-sinusoidal.json');
const seedRope = readGolden('explained-rope.json');
const workedExample = readGolden('jaitly-worked-example.json');
const tableReference = readGolden('sinusoidal-reference.json');
const ropeGolden = readGolden('rope-reference.json');
const float32Error = readGolden('float32-error.json');
const halfOps = readGolden('half-ops.json');

/** Largest |a_i - b_i| and the root mean square of the differences, optionally normalized. */
function errorStats(actual, expected, scaleAt = () => 1) {
  let max = 0;
  let squares = 0;
  for (let i = 0; i < actual.length; i++) {
    const error = Math.abs(actual[i] - expected[i]) / scaleAt(i);
    max = Math.max(max, error);
    squares += error * error;
  }
  return { max, rms: Math.sqrt(squares / actual.length) };
}

/** Angle of channel i of an interleaved table row at `position` (pair i >> 1). */
function tableAngle(position, i, dModel) {
  return position * Math.pow(10000, -(2 * (i >> 1)) / dModel);
}

const sci = (v) => v.toExponential(3);

describe('the JS reference agrees with PyTorch float64 (so it can stand in for it)', () => {
  it('sinusoidal tables at sampled positions up to 2^24 - 1', () => {
    for (const table of tableReference.tables) {
      for (const layout of ['interleaved', 'concat']) {
        const expected = sinusoidalReference({
          seqLen: tableReference.positions.length,
          dModel: table.dModel,
          layout,
          positions: tableReference.positions,
        });
        // Both are float64: the angles differ by a few float64 roundings of up to 2^24 radians.
        assertClose(expected, table[layout], 1e-8, `dModel ${table.dModel} ${layout}`);
      }
    }
  });

  it('RoPE cases (both pairings, partial rotary)', () => {
    for (const c of ropeGolden.cases) {
      const x = float32(ropeGolden.inputs[c.headDim]);
      const options = {
        seqLen: ropeGolden.positions.length,
        numHeads: ropeGolden.numHeads,
        headDim: c.headDim,
        rotaryDim: c.rotaryDim,
        layout: c.layout,
        positions: ropeGolden.positions,
      };
      assertRopeClose(
        ropeReference(x, options),
        x,
        c.float64,
        options,
        `${c.layout} ${c.headDim}/${c.rotaryDim}`,
        1e-8,
      );
    }
  });
});

for (const posenc of await loadBothVariants()) {
  describe(`golden vectors (${posenc.variant})`, () => {
    describe("'Positional Embeddings Explained' sinusoidal snippet (d_model 2, seq_len 32)", () => {
      const { seqLen, dModel } = seedTable;
      const seed32 = float32(seedTable.float32);

      it('matches the float64 run within the contract', (t) => {
        const table = posenc.sinusoidal({ seqLen, dModel });
        const worst = assertClose(table, seedTable.float64, TABLE_BOUND, 'posenc vs float64');
        t.diagnostic(
          `max |posenc - float64| = ${sci(worst)}; seed float32 code: ${sci(errorStats(seed32, seedTable.float64).max)}`,
        );
      });

      it('is the float32 rounding of float64: never farther than the seed float32 code, at most one float32 step from it', () => {
        // With d_model 2 the post's float32 angles pos * 1 are exact and torch's float32 sin/cos
        // are faithfully rounded (< 1 ulp); posenc rounds float64 values once (<= 0.5 ulp). Two
        // float32 values that close to the same number are at most one float32 step apart, and
        // the correctly rounded one is never the farther. (1e-15: float64 noise at a tie.)
        const table = posenc.sinusoidal({ seqLen, dModel });
        const exact = seedTable.float64;
        assertClose(table, exact, (i) => Math.abs(seed32[i] - exact[i]) + 1e-15, 'posenc no farther than seed float32');
        assertClose(table, seed32, (i) => ulp32(exact[i]), 'posenc vs seed float32');
      });

      it('at d_model 64 the seed float32 code drifts with position; posenc does not', (t) => {
        const wide = seedTable.wide;
        const table = posenc.sinusoidal({
          seqLen: wide.positions.length,
          dModel: wide.dModel,
          positions: wide.positions,
        });
        const seed32Wide = float32(wide.float32);
        const ours = assertClose(table, wide.float64, TABLE_BOUND, 'posenc vs float64');
        // Seed tolerance: its float32 dnom (pow, divide) and pos * dnom each round (<= 3 u of
        // the angle together, 4 u with margin), then sin/cos adds < 1 ulp (2 u with margin).
        const angle = (i) => tableAngle(wide.positions[Math.floor(i / wide.dModel)], i % wide.dModel, wide.dModel);
        assertClose(
          seed32Wide,
          wide.float64,
          (i) => 4 * U32 * angle(i) + 2 * U32,
          'seed float32 within its own error bound',
        );
        assertClose(table, seed32Wide, (i) => TABLE_BOUND + 4 * U32 * angle(i) + 2 * U32, 'posenc vs seed float32');
        const theirs = errorStats(seed32Wide, wide.float64).max;
        assert.ok(ours < theirs, `posenc ${ours} must be closer to float64 than the seed float32 code ${theirs}`);
        t.diagnostic(
          `positions <= ${wide.seqLen - 1}: max |posenc - float64| = ${sci(ours)}, seed float32 code ${sci(theirs)}`,
        );
      });
    });

    describe("'Positional Embeddings Explained' RoPE snippet (d_model 2, seq_len 1000)", () => {
      const { seqLen, dModel } = seedRope;
      const tokens = float32(seedRope.tokens);
      const seed32 = float32(seedRope.float32);
      const scales = ropePairScales(tokens, { seqLen, headDim: dModel });
      const scale = (i) => scales[i];

      it('matches the float64 run within the contract', (t) => {
        const rotated = posenc.rope(tokens.slice(), { seqLen, headDim: dModel });
        const worst = assertRopeClose(
          rotated,
          tokens,
          seedRope.float64,
          { seqLen, headDim: dModel },
          'posenc vs float64',
        );
        t.diagnostic(`max |posenc - float64| / (|x_a| + |x_b|) = ${sci(worst)} (contract ${ROPE_EPS})`);
      });

      it('agrees with the seed float32 code within its float32 error, and is closer to float64 on average', (t) => {
        // Seed tolerance: its angles m * 1 are exact, cos/sin are faithful (< u each), the two
        // products and the sum round once each: < 3 u (|x_a| + |x_b|) per component.
        const rotated = posenc.rope(tokens.slice(), { seqLen, headDim: dModel });
        const seedBound = 3 * U32;
        assertClose(seed32, seedRope.float64, (i) => seedBound * scale(i), 'seed float32 within its own error bound');
        assertClose(rotated, seed32, (i) => (ROPE_EPS + seedBound) * scale(i), 'posenc vs seed float32');
        // Here both do the same float32 multiply-adds on exact angles, so the maxima are equal
        // to within rounding luck; posenc's correctly rounded cos/sin win on average.
        const ours = errorStats(rotated, seedRope.float64, scale);
        const theirs = errorStats(seed32, seedRope.float64, scale);
        assert.ok(ours.rms < theirs.rms, `posenc rms ${ours.rms} must be below the post's ${theirs.rms}`);
        t.diagnostic(
          `relative to |x_a| + |x_b|: posenc max ${sci(ours.max)} rms ${sci(ours.rms)}; seed float32 max ${sci(theirs.max)} rms ${sci(theirs.rms)}`,
        );
      });

      it('at d_model 64 the seed float32 code drifts with position; posenc does not', (t) => {
        const wide = seedRope.wide;
        const x = float32(wide.tokens);
        const options = { seqLen: wide.positions.length, headDim: wide.dModel, positions: wide.positions };
        const rotated = posenc.rope(x.slice(), options);
        const ours = assertRopeClose(rotated, x, wide.float64, options, 'posenc vs float64');
        const wideScales = ropePairScales(x, options);
        const wideScale = (i) => wideScales[i];
        const angle = (i) => tableAngle(wide.positions[Math.floor(i / wide.dModel)], i % wide.dModel, wide.dModel);
        // Seed tolerance: its angle is off by <= 4 u * theta (as for the table), plus 3 u for
        // cos/sin and the multiply-adds; everything scales with |x_a| + |x_b|.
        const seedBound = (i) => (4 * U32 * angle(i) + 3 * U32) * wideScale(i);
        assertClose(float32(wide.float32), wide.float64, seedBound, 'seed float32 within its own error bound');
        assertClose(
          rotated,
          float32(wide.float32),
          (i) => ROPE_EPS * wideScale(i) + seedBound(i),
          'posenc vs seed float32',
        );
        const theirs = errorStats(float32(wide.float32), wide.float64, wideScale).max;
        assert.ok(ours < theirs, `posenc ${ours} must be closer to float64 than the seed float32 code ${theirs}`);
        t.diagnostic(
          `positions <= ${wide.seqLen - 1}, relative to |x_a| + |x_b|: posenc ${sci(ours)}, seed float32 code ${sci(theirs)}`,
        );
      });
    });

    describe("Jaitly's worked example (d = 4, 'The' at 0, 'cat' at 1)", () => {
      const { pe, sums, embeddings, printed } = workedExample;

      it('posenc gives the exact encodings: cos(0.01) = 0.99995..., not the 0.999 the post prints', (t) => {
        const table = posenc.sinusoidal({ seqLen: 2, dModel: 4 });
        assertClose(table, pe, TABLE_BOUND, 'posenc vs float64');
        assert.ok(Math.abs(pe[7] - Math.cos(0.01)) < 1e-15, 'golden p1(3) is cos(0.01)');
        assert.ok(Math.abs(pe[7] - 0.99995) < 5e-10, `cos(0.01) = ${pe[7]} = 0.99995 to 9 decimals`);
        assert.ok(Math.abs(table[7] - 0.99995) < TABLE_BOUND, `posenc p1(3) = ${table[7]}`);
        assert.ok(Math.abs(printed.pe[7] - pe[7]) > 9e-4, "the post's 0.999 is off by 9.5e-4");
        t.diagnostic(`p1 = [${Array.from(table.subarray(4)).join(', ')}] (float32); float64 cos(0.01) = ${pe[7]}`);
      });

      it('the sums are exact: 0.6 + 0.99995 = 1.59995, not 1.599', (t) => {
        const x = Float32Array.from(embeddings);
        posenc.addSinusoidal(x, { seqLen: 2, dModel: 4 });
        // Contract plus the float32 roundings of the embedding and of the sum.
        assertClose(
          x,
          sums,
          (i) => TABLE_BOUND + U32 * (Math.abs(embeddings[i]) + Math.abs(sums[i])),
          'posenc sums vs float64',
        );
        assert.ok(Math.abs(sums[7] - 1.59995) < 5e-10, `0.6 + cos(0.01) = ${sums[7]}`);
        assert.ok(Math.abs(x[7] - 1.59995) < 4e-7, `posenc "cat"[3] = ${x[7]}`);
        t.diagnostic(
          `"cat" + p1 = [${Array.from(x.subarray(4)).join(', ')}] (float32); float64 ${sums.slice(4).join(', ')}`,
        );
      });

      it('only p1(3) and its sum are wrong in the post: the other printed numbers are 3-decimal roundings', () => {
        const rounded = (v) => Math.round(v * 1000) / 1000;
        const wrong = (values, exact) => values.flatMap((v, i) => (v === rounded(exact[i]) ? [] : [i]));
        assert.deepEqual(wrong(printed.pe, pe), [7]);
        assert.deepEqual(wrong(printed.sums, sums), [7]);
      });
    });

    describe('PyTorch tutorial PositionalEncoding and the concat layout (float64), d_model 64 and 512', () => {
      const { positions } = tableReference;
      for (const table of tableReference.tables) {
        for (const layout of ['interleaved', 'concat']) {
          it(`d_model ${table.dModel}, ${layout}, positions ${positions.join(', ')}`, (t) => {
            const ours = posenc.sinusoidal({ seqLen: positions.length, dModel: table.dModel, layout, positions });
            const worst = assertClose(ours, table[layout], TABLE_BOUND, 'posenc vs float64');
            t.diagnostic(`max |posenc - float64| = ${sci(worst)}`);
          });
        }
      }

      it('70 consecutive rows ending at 2^24 - 1 (offset, crossing the 64-row re-anchoring)', (t) => {
        const { window } = tableReference;
        for (const layout of ['interleaved', 'concat']) {
          const ours = posenc.sinusoidal({
            seqLen: window.seqLen,
            dModel: window.dModel,
            layout,
            offset: window.offset,
          });
          const worst = assertClose(ours, window[layout], TABLE_BOUND, `${layout} window`);
          const added = posenc.addSinusoidal(new Float32Array(ours.length), {
            seqLen: window.seqLen,
            dModel: window.dModel,
            layout,
            offset: window.offset,
          });
          assertClose(added, window[layout], TABLE_BOUND, `${layout} window, addSinusoidal on zeros`);
          t.diagnostic(`${layout}: max |posenc - float64| = ${sci(worst)}`);
        }
      });
    });

    describe('Hugging Face rotate_half and Meta LLaMA complex RoPE (float64)', () => {
      const { positions, numHeads } = ropeGolden;
      for (const c of ropeGolden.cases) {
        it(`${c.layout}, headDim ${c.headDim}, rotaryDim ${c.rotaryDim} (${c.source})`, (t) => {
          const x = float32(ropeGolden.inputs[c.headDim]);
          const options = {
            seqLen: positions.length,
            numHeads,
            headDim: c.headDim,
            rotaryDim: c.rotaryDim,
            layout: c.layout,
            positions,
          };
          const inPlace = posenc.rope(x.slice(), options);
          const worst = assertRopeClose(inPlace, x, c.float64, options, 'posenc vs float64');
          const out = new Float32Array(x.length);
          const copy = x.slice();
          assert.equal(posenc.rope(copy, { ...options, out }), out);
          assert.deepEqual(copy, x, 'x untouched when out is given');
          assert.deepEqual(out, inPlace, 'out and in place agree');
          t.diagnostic(`max |posenc - float64| / (|x_a| + |x_b|) = ${sci(worst)} (contract ${ROPE_EPS})`);
        });
      }

      for (const cache of ropeGolden.caches) {
        it(`ropeCache cos/sin, rotaryDim ${cache.rotaryDim} (Hugging Face cos/sin, first half)`, (t) => {
          const { cos, sin } = posenc.ropeCache({ seqLen: positions.length, rotaryDim: cache.rotaryDim, positions });
          const worst = Math.max(
            assertClose(cos, cache.cos, TABLE_BOUND, 'cos'),
            assertClose(sin, cache.sin, TABLE_BOUND, 'sin'),
          );
          t.diagnostic(`max |posenc - float64| = ${sci(worst)}`);
        });
      }
    });

    describe("float32-error.json: the seed float32 code's error, which posenc does not have", () => {
      for (const entry of float32Error.measured) {
        it(`d_model ${entry.dModel}`, (t) => {
          for (const [key, recorded] of Object.entries(entry.maxAbsError)) {
            const below = Number(key.replace('positionsBelow', ''));
            const positions = [...randomPositions(30, below - 1, below), below - 1, below - 2];
            const options = { seqLen: positions.length, dModel: entry.dModel, positions };
            const ours = assertClose(
              posenc.sinusoidal(options),
              sinusoidalReference(options),
              TABLE_BOUND,
              `positions < ${below}`,
            );
            assert.ok(ours < recorded.max, `posenc ${ours} vs seed float32 ${recorded.max}`);
            t.diagnostic(`positions < ${below}: seed float32 code ${sci(recorded.max)}, posenc (sampled) ${sci(ours)}`);
          }
        });
      }
    });
  });
}

// ---- float16 and bfloat16 (scripts/make_golden_half_ops.py) ---------------------------------------
// Bit for bit: tables are the float64 reference rounded once (exactly, in Fraction arithmetic; not
// torch's float64 casts, which round twice through float32 and differ on a few values the file
// lists), rope is torch's float32 rotation of the widened input cast once. Node has no
// Float16Array: results are Uint16Arrays of the patterns.

const HALF_DTYPES = ['float16', 'bfloat16'];

/** The patterns of a 16-bit result equal the golden's, with the first difference in the message. */
function assertPatterns(got, expected, label) {
  const bits = patternsOf(got);
  assert.equal(bits.length, expected.length, `${label}: length`);
  const at = bits.findIndex((b, i) => b !== expected[i]);
  assert.equal(at, -1, `${label}: [${at}] 0x${bits[at]?.toString(16)} != golden 0x${expected[at]?.toString(16)}`);
}

/** A golden case's rows: its listed positions, or offset + row. */
const rows = (c) =>
  c.positions ? { seqLen: c.positions.length, positions: c.positions } : { seqLen: c.seqLen, offset: c.offset };

for (const posenc of await loadBothVariants()) {
  describe(`float16 and bfloat16 goldens, bit for bit (${posenc.variant})`, () => {
    it('sinusoidal: both layouts, odd pair counts, positions to 60,000, a window of 1,050 rows', () => {
      for (const c of halfOps.sinusoidal) {
        for (const dtype of HALF_DTYPES) {
          const table = posenc.sinusoidal({ ...rows(c), dModel: c.dModel, layout: c.layout, dtype });
          assertPatterns(table, c[dtype], `${dtype} ${c.layout} dModel ${c.dModel}`);
        }
      }
    });

    it("ropeCache: plain and with YaRN's attention factor, positions to 65,536", () => {
      for (const c of halfOps.ropeCache) {
        for (const dtype of HALF_DTYPES) {
          const scaling = c.scaling ?? undefined;
          const cache = posenc.ropeCache({ ...rows(c), rotaryDim: c.rotaryDim, base: c.base, scaling, dtype });
          assert.equal(cache.attentionFactor, c.attentionFactor);
          assertPatterns(cache.cos, c.cos[dtype], `${dtype} cos, rotaryDim ${c.rotaryDim}`);
          assertPatterns(cache.sin, c.sin[dtype], `${dtype} sin, rotaryDim ${c.rotaryDim}`);
        }
      }
    });

    it('positionNumbers: past 2048 (float16) and 256 (bfloat16), overflow to infinity', () => {
      for (const c of halfOps.positionNumbers) {
        for (const dtype of HALF_DTYPES) {
          const numbers = posenc.positionNumbers({ seqLen: c.seqLen, dModel: c.dModel, offset: c.offset, dtype });
          assertPatterns(numbers, c[dtype], `${dtype} offset ${c.offset}`);
        }
      }
    });

    it('rope: both pairings, partial rotary, overflow, subnormals, NaN and infinity passed through', () => {
      for (const c of halfOps.rope) {
        for (const dtype of HALF_DTYPES) {
          const options = { ...rows(c), numHeads: c.numHeads, headDim: c.headDim, rotaryDim: c.rotaryDim };
          const x = Uint16Array.from(c.input[dtype]); // rotated in place
          const label = `${dtype} ${c.layout} headDim ${c.headDim} rotaryDim ${c.rotaryDim}`;
          assertPatterns(posenc.rope(x, { ...options, layout: c.layout, dtype }), c.output[dtype], label);
        }
      }
    });
  });
}
