// Half precision where the engine has Float16Array (Chromium 135+; Debian's is newer): a page
// loads posenc's browser entry from this checkout and passes Float16Arrays in and gets them
// out. The bits it returns are checked here against the contract (tests/js/half-support.js):
// tables are the float64 value rounded once, rotations posenc's float32 result on the widened
// input rounded once, and a Float16Array gives the same bits as a Uint16Array of them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadPosenc } from '../../bindings/js/node.js';
import { assertRoundedFrom, assertSameHalfBits, narrow, widen } from '../js/half-support.js';
import { sinusoidalReference } from '../js/reference.js';
import { openPage } from './support/browser.js';
import { scriptPage } from './support/script-page.js';

const SHAPE = { seqLen: 6, numHeads: 2, headDim: 10, offset: 300 };
const BIG = { seqLen: 2048, numHeads: 4, headDim: 32, offset: 5 }; // streamed: 512 KiB of float16

// The page: every result as an Array of its 16-bit patterns, for the checks below.
const PAGE = `import { loadPosenc } from '../../bindings/js/index.js';
const bitsOf = (a) => Array.from(new Uint16Array(a.buffer, a.byteOffset, a.length));
const typeOf = (a) => Object.prototype.toString.call(a).slice(8, -1);
const refusal = (call) => {
  try {
    call();
    return null;
  } catch (error) {
    return { name: error.name, parameter: error.parameter, message: error.message };
  }
};
const shape = ${JSON.stringify(SHAPE)};
const big = ${JSON.stringify(BIG)};
const { offset, ...planShape } = shape;
const result = { hasFloat16Array: typeof Float16Array === 'function' };
try {
  const posenc = await loadPosenc();
  const table = posenc.sinusoidal({ seqLen: 5, dModel: 18, dtype: 'float16' });
  const values = Array.from({ length: 120 }, (_, i) => Math.sin(i * 1.7) * 3);
  const x = Float16Array.from(values);
  const input = bitsOf(x);
  const rotated = posenc.rope(x, shape); // a Float16Array implies float16
  const viaBits = posenc.rope(Uint16Array.from(input), { ...shape, dtype: 'float16' });
  const w = posenc.allocate(Float16Array.from(values));
  posenc.rope(w, shape);
  const cache = posenc.ropeCache({ seqLen: 3, rotaryDim: 8, dtype: 'float16' });
  const q = Float16Array.from(values);
  const k = Float16Array.from(values.slice(0, 60));
  const qk = posenc.ropeQK(q, k, { ...shape, numKvHeads: 1 });
  const large = Float16Array.from({ length: big.seqLen * big.numHeads * big.headDim }, (_, i) => Math.cos(i));
  const largeInput = bitsOf(large);
  const largeInWasm = posenc.allocate(large);
  posenc.rope(large, big);
  posenc.rope(largeInWasm, big);
  Object.assign(result, {
    tableType: typeOf(table),
    table: bitsOf(table),
    input,
    rotatedType: typeOf(rotated),
    rotatedIsX: rotated === x,
    rotated: bitsOf(rotated),
    viaBits: bitsOf(viaBits),
    wasmDtype: w.dtype,
    viewType: typeOf(w.view()),
    toArrayType: typeOf(w.toArray()),
    wasm: bitsOf(w.toArray()),
    cacheType: typeOf(cache.cos),
    cache: bitsOf(cache.cos).concat(bitsOf(cache.sin)),
    qkTypes: [typeOf(qk.q), typeOf(qk.k)],
    q: bitsOf(qk.q),
    k: bitsOf(qk.k),
    largeInput,
    large: bitsOf(large),
    largeInWasm: bitsOf(largeInWasm.toArray()),
    bfloat16Refused: refusal(() => posenc.rope(Float16Array.from(values), { ...shape, dtype: 'bfloat16' })),
    float32OutRefused: refusal(() => posenc.rope(Float16Array.from(values), { ...shape, out: new Float32Array(120) })),
    planRefused: refusal(() => posenc.ropePlan({ ...planShape, dtype: 'bfloat16' }).apply(x)),
  });
  w.free();
  largeInWasm.free();
} catch (error) {
  result.error = String(error?.stack ?? error);
}
window.__result = result;
`;

const served = scriptPage('half-precision', 'half precision', PAGE);

test('Float16Array in and out in Chromium: implied float16, float16 results are Float16Arrays, the bits of the contract', async () => {
  const { page, log, context } = await openPage(served.browser);
  try {
    await page.goto(served.url);
    const r = await (await page.waitForFunction(() => window.__result, null, { timeout: 60_000 })).jsonValue();
    assert.equal(r.error, undefined, r.error);
    assert.deepEqual(log.errors, []);
    assert.ok(r.hasFloat16Array, "Debian's Chromium has Float16Array");
    assert.equal(r.tableType, 'Float16Array');
    assert.equal(r.rotatedType, 'Float16Array');
    assert.ok(r.rotatedIsX, 'rope returns x (in place)');
    assert.equal(r.cacheType, 'Float16Array');
    assert.deepEqual(r.qkTypes, ['Float16Array', 'Float16Array']);
    assert.equal(r.wasmDtype, 'float16');
    assert.equal(r.viewType, 'Float16Array');
    assert.equal(r.toArrayType, 'Float16Array');

    const node = await loadPosenc();
    assertRoundedFrom(Uint16Array.from(r.table), sinusoidalReference({ seqLen: 5, dModel: 18 }), 'float16', 'table');
    const input = Uint16Array.from(r.input);
    const expected = narrow(node.rope(widen(input, 'float16'), SHAPE), 'float16');
    assertSameHalfBits(Uint16Array.from(r.rotated), expected, 'rope of a Float16Array');
    assertSameHalfBits(Uint16Array.from(r.viaBits), expected, 'rope of its bits in a Uint16Array');
    assertSameHalfBits(Uint16Array.from(r.wasm), expected, 'rope of a float16 WasmArray');
    const cache = node.ropeCache({ seqLen: 3, rotaryDim: 8, dtype: 'float16' });
    assertSameHalfBits(Uint16Array.from(r.cache), Uint16Array.of(...cache.cos, ...cache.sin), 'ropeCache');
    const qk = node.ropeQK(widen(input, 'float16'), widen(input.subarray(0, 60), 'float16'), {
      ...SHAPE,
      numKvHeads: 1,
    });
    assertSameHalfBits(Uint16Array.from(r.q), narrow(qk.q, 'float16'), 'ropeQK q');
    assertSameHalfBits(Uint16Array.from(r.k), narrow(qk.k, 'float16'), 'ropeQK k');
    const large = narrow(node.rope(widen(Uint16Array.from(r.largeInput), 'float16'), BIG), 'float16');
    assertSameHalfBits(Uint16Array.from(r.large), large, 'a streamed Float16Array');
    assertSameHalfBits(Uint16Array.from(r.largeInWasm), large, 'the same in a WasmArray');

    assert.deepEqual([r.bfloat16Refused?.name, r.bfloat16Refused?.parameter], ['TypeError', 'x']);
    assert.match(r.bfloat16Refused.message, /Float16Array \(float16\), but dtype is 'bfloat16'/);
    assert.deepEqual([r.float32OutRefused?.name, r.float32OutRefused?.parameter], ['TypeError', 'out']);
    assert.deepEqual([r.planRefused?.name, r.planRefused?.parameter], ['TypeError', 'x']);
  } finally {
    await context.close();
  }
});
