import { join } from 'node:path';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { typecheckScratch } from '../typecheck.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CONSUMER_TS = `
import {
  loadPosenc,
  type BatchPositionOptions,
  type Dtype,
  type Float16ArrayIfDeclared,
  type PositionOptions,
  type RopeOptions,
  type RopePlanOptions,
  type RotaryOptions,
  type WasmArray,
} from '${join(root, 'bindings/js/index.js')}';
const posenc = await loadPosenc();
const x = new Float32Array(64);
const k = new Float32Array(32);
const w: WasmArray = posenc.allocate(64);
const rope = { seqLen: 4, numHeads: 2, headDim: 8 };

// Valid: offset or positions (any list kind, int64 included), rotaryDim or partialRotaryFactor.
posenc.sinusoidal({ seqLen: 2, dModel: 4 });
posenc.sinusoidal({ seqLen: 2, dModel: 4, offset: 3 });
posenc.sinusoidal({ seqLen: 2, dModel: 4, positions: [0, 5] });
posenc.sinusoidal({ seqLen: 2, dModel: 4, positions: BigInt64Array.of(0n, 5n) });
posenc.sinusoidal({ seqLen: 2, dModel: 4, positions: [0n, 5] });
posenc.sinusoidal({ seqLen: 2, dModel: 4, positions: new BigUint64Array(2), offset: undefined });
posenc.addSinusoidal(x, { seqLen: 8, dModel: 8, positions: Int32Array.of(0, 1, 2, 3, 4, 5, 6, 7) });
posenc.ropeCache({ seqLen: 4, rotaryDim: 8, batch: 2, offset: BigInt64Array.of(0n, 9n) });
posenc.ropeCache({ seqLen: 4, rotaryDim: 8, positions: new Uint32Array(4), out: { cos: w, sin: w.subarray(32) } });
posenc.rope(x, { ...rope, rotaryDim: 4, offset: 2 });
posenc.rope(x, { ...rope, partialRotaryFactor: 0.5, positions: [0, 1, 2, 3] });
posenc.rope(x, { ...rope, rotaryDim: undefined, partialRotaryFactor: 0.5 });
const windowed: WasmArray = posenc.rope(w.subarray(0, 64), { ...rope, offset: [3] });
posenc.ropeQK(x, k, { ...rope, numKvHeads: 1, partialRotaryFactor: 0.25, offset: 7 });
posenc.ropeSchedule({ headDim: 96, partialRotaryFactor: 0.25 });
posenc.ropeFrequencies({ rotaryDim: 8, seqLen: 10 });
const plan = posenc.ropePlan({ ...rope, partialRotaryFactor: 0.5, numKvHeads: 1 });
plan.apply(x, { positions: BigInt64Array.of(1n, 2n, 3n, 4n) });
plan.applyQK(x, k, { offset: 4 });
const options: RopeOptions = { ...rope, layout: 'half', offset: 1 };
const planOptions: RopePlanOptions = { ...rope, rotaryDim: 4 };
const rows: BatchPositionOptions = { positions: [1, 2, 3, 4] };
const table: PositionOptions = { offset: 2 };
const rotary: RotaryOptions = { partialRotaryFactor: 0.4 };
posenc.rope(x, { ...rope, ...rows });
// Which file served: undefined for the inline chunk, else where it was read and whose it was.
const served: string | undefined = posenc.wasmFile?.location;
if (posenc.wasmFile?.from === 'bundler' && posenc.wasmSource === 'url') console.log(served);
// @ts-expect-error: a place the .wasm cannot come from
if (posenc.wasmFile?.from === 'cdn') console.log(served);
// A scaling config in a variable: TypeScript widens its type to string; accepted, checked at run time.
const yarn = { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 32768 };
posenc.rope(x, { ...rope, scaling: yarn });
posenc.ropeCache({ seqLen: 4, rotaryDim: 8, scaling: yarn });
posenc.ropeQK(x, k, { ...rope, numKvHeads: 1, scaling: yarn });
posenc.ropePlan({ ...rope, scaling: yarn }).free();
posenc.ropeSchedule({ rotaryDim: 8, scaling: yarn });
// A literal type is checked per scaling type.
posenc.rope(x, { ...rope, scaling: { type: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 8192 } });
// @ts-expect-error: a literal scaling type posenc does not have
posenc.rope(x, { ...rope, scaling: { type: 'ntk', factor: 2 } });
// xPos: rope needs the role, ropeQK and ropePlan take none (plan.apply does).
posenc.rope(x, { ...rope, xpos: { role: 'key', scaleBase: 512, gamma: 0.4, center: 3 } });
posenc.ropeQK(x, k, { ...rope, numKvHeads: 1, xpos: { center: 0 } });
posenc.ropePlan({ ...rope, xpos: {} }).apply(x, { offset: 2, role: 'query' });
// @ts-expect-error: rope's xpos without its role
posenc.rope(x, { ...rope, xpos: { scaleBase: 512 } });
// @ts-expect-error: a role posenc does not have
posenc.rope(x, { ...rope, xpos: { role: 'value' } });
// @ts-expect-error: ropeQK implies the roles
posenc.ropeQK(x, k, { ...rope, xpos: { role: 'query' } });
// @ts-expect-error: a plan takes its role per apply()
posenc.ropePlan({ ...rope, xpos: { role: 'key' } });
// @ts-expect-error: a literal yarn config without originalMaxPositionEmbeddings
posenc.ropeSchedule({ rotaryDim: 8, scaling: { type: 'yarn', factor: 2 } });
// @ts-expect-error: a widened config's keys still have their types
posenc.rope(x, { ...rope, scaling: { ...yarn, factor: '4' } });
posenc.rope(x, { ...rope, scaling: { type: 'proportional', partialRotaryFactor: 0.25 } });
// M-RoPE position ids: segment lists in a variable (grids widened to number[]) are accepted.
const segments = [{ text: 3 }, { image: [1, 4, 4] }, { text: 1 }, { video: [2, 2, 2], secondsPerGrid: 2 }];
const mrope: Int32Array = posenc.mropePositions({ segments, model: 'qwen2.5-vl', tokensPerSecond: 25 }).positions;
const next: number = posenc.mropePositions({ segments: [{ text: 2 }], spatialMergeSize: 1 }).nextPosition;
// @ts-expect-error: tokensPerSecond is Qwen2.5-VL's
posenc.mropePositions({ segments, tokensPerSecond: 2 });
// @ts-expect-error: a segment has one kind
posenc.mropePositions({ segments: [{ audio: 3 }] });
// M-RoPE rotation: mropePositions' Int32Array as positions, sections in a variable or typed array.
const section = [1, 1, 2];
posenc.rope(x, { ...rope, layout: 'half', mrope: { section }, positions: mrope });
posenc.ropeQK(x, k, { ...rope, numKvHeads: 1, mrope: { section: Int32Array.of(2, 1, 1), interleaved: true }, offset: next });
posenc.ropePlan({ ...rope, mrope: { section } }).applyQK(x, k, { positions: mrope });
// @ts-expect-error: mrope's section is required
posenc.rope(x, { ...rope, mrope: { interleaved: true } });
// 2-D image RoPE: a grid, its variant, keys of several frames.
const rotatedGrid: Float32Array = posenc.ropeGrid(x, { rows: 2, cols: 2, numHeads: 2, headDim: 8, variant: 'axial', frames: 2 });
posenc.ropeGrid(w, { rows: 2, cols: 4, headDim: 8, variant: 'pixtral', order: 'heads', out: w });
// @ts-expect-error: the variant is required
posenc.ropeGrid(x, { rows: 2, cols: 2, headDim: 8 });
// @ts-expect-error: a known variant
posenc.ropeGrid(x, { rows: 2, cols: 2, headDim: 8, variant: 'rope2d' });
// attentionScores: each encoding with its own options, the result typed by out.
const scoreShape = { queryLen: 2, keyLen: 4, headDim: 8, numHeads: 2 };
const none: Float32Array = posenc.attentionScores(x, k, { ...scoreShape, encoding: 'none', causal: true });
posenc.attentionScores(x, k, { ...scoreShape, encoding: 'sinusoidal', layout: 'concat', base: 100, offset: 2 });
posenc.attentionScores(x, k, { ...scoreShape, encoding: 'rope', layout: 'half', partialRotaryFactor: 0.5, scaling: yarn });
posenc.attentionScores(x, k, { ...scoreShape, encoding: 'alibi', maxBias: 16, softmax: true, order: 'tokens' });
const t5: WasmArray = posenc.attentionScores(x, k, { ...scoreShape, encoding: 't5', bias: new Float32Array(64), scale: 1, out: w });
// @ts-expect-error: maxBias is alibi's
posenc.attentionScores(x, k, { ...scoreShape, encoding: 'rope', maxBias: 8 });
// @ts-expect-error: t5 needs its bias table
posenc.attentionScores(x, k, { ...scoreShape, encoding: 't5' });
// @ts-expect-error: bias is t5's
posenc.attentionScores(x, k, { ...scoreShape, encoding: 'alibi', bias: new Float32Array(64) });
// @ts-expect-error: 'half' is a rope layout
posenc.attentionScores(x, k, { ...scoreShape, encoding: 'sinusoidal', layout: 'half' });
posenc.attentionScores(x, k, { ...scoreShape, encoding: 'xpos', xpos: { gamma: 0.2, center: 4 }, layout: 'half' });
posenc.attentionScores(x, k, { ...scoreShape, encoding: 'xpos' });
// @ts-expect-error: the roles are implied (queries up, keys down)
posenc.attentionScores(x, k, { ...scoreShape, encoding: 'xpos', xpos: { role: 'query' } });
// @ts-expect-error: xpos is the xpos encoding's
posenc.attentionScores(x, k, { ...scoreShape, encoding: 'rope', xpos: {} });
// @ts-expect-error: an encoding posenc does not have
posenc.attentionScores(x, k, { ...scoreShape, encoding: 'cope' });
console.log(none, t5);
// Half precision: a dtype's result type (Float16Array where TypeScript's lib has it, else the
// bits), half WasmArrays that keep their dtype, and float32-only operations refusing them.
const bits = new Uint16Array(64);
const table16: Float16ArrayIfDeclared | Uint16Array = posenc.sinusoidal({ seqLen: 2, dModel: 4, dtype: 'float16' });
const tableBf16: Uint16Array = posenc.sinusoidal({ seqLen: 2, dModel: 4, dtype: 'bfloat16' });
const numbers16: Float16ArrayIfDeclared | Uint16Array = posenc.positionNumbers({ seqLen: 2, dModel: 4, dtype: 'float16' });
const cache16: Uint16Array = posenc.ropeCache({ seqLen: 4, rotaryDim: 8, dtype: 'bfloat16' }).cos;
const cache32: Float32Array = posenc.ropeCache({ seqLen: 4, rotaryDim: 8 }).sin;
const rotated16: Uint16Array = posenc.rope(bits, { ...rope, dtype: 'bfloat16' });
posenc.ropeQK(bits, new Uint16Array(32), { ...rope, numKvHeads: 1, dtype: 'float16' });
posenc.addSinusoidal(bits, { seqLen: 8, dModel: 8, dtype: 'float16' });
const h: WasmArray<'float16'> = posenc.allocate(64, { dtype: 'float16' });
const hb: WasmArray<'bfloat16'> = posenc.allocate(bits, { dtype: 'bfloat16' });
const hView: Float16ArrayIfDeclared | Uint16Array = h.subarray(0, 32).view();
const hDtype: 'float16' = h.dtype;
const halfPlan = posenc.ropePlan({ ...rope, dtype: 'float16' });
const planDtype: Dtype = halfPlan.dtype;
halfPlan.apply(h, { offset: 3 });
hb.set(bits);
// @ts-expect-error: a dtype posenc does not have
posenc.rope(x, { ...rope, dtype: 'float64' });
// @ts-expect-error: similarity computes in float32 only
posenc.similarity(h, w, { rows: 8, cols: 8, dim: 8 });
// @ts-expect-error: a half WasmArray is not a float32 one
const notFloat32: WasmArray = h;
// @ts-expect-error: a bfloat16 array takes bits, not numbers
hb.set([1, 2]);
console.log(table16, tableBf16, numbers16, cache16, cache32, rotated16, hView, hDtype, planDtype, notFloat32);

// Rejected by the runtime (TypeError): so by the types too.
// @ts-expect-error: rotaryDim with partialRotaryFactor
posenc.rope(x, { ...rope, rotaryDim: 4, partialRotaryFactor: 0.5 });
// @ts-expect-error: rotaryDim with partialRotaryFactor
posenc.ropeQK(x, k, { ...rope, rotaryDim: 4, partialRotaryFactor: 0.5 });
// @ts-expect-error: rotaryDim with partialRotaryFactor
posenc.ropePlan({ ...rope, rotaryDim: 4, partialRotaryFactor: 0.5 });
// @ts-expect-error: rotaryDim with partialRotaryFactor
posenc.ropeSchedule({ headDim: 8, rotaryDim: 4, partialRotaryFactor: 0.5 });
// @ts-expect-error: rotaryDim with partialRotaryFactor
posenc.ropeFrequencies({ headDim: 8, rotaryDim: 4, partialRotaryFactor: 0.5 });
// @ts-expect-error: rotaryDim with partialRotaryFactor
const both: RotaryOptions = { rotaryDim: 4, partialRotaryFactor: 0.5 };
// @ts-expect-error: offset with positions
posenc.sinusoidal({ seqLen: 2, dModel: 4, offset: 1, positions: [0, 1] });
// @ts-expect-error: offset with positions
posenc.addSinusoidal(x, { seqLen: 8, dModel: 8, offset: 1, positions: [0, 1, 2, 3, 4, 5, 6, 7] });
// @ts-expect-error: offset with positions
posenc.ropeCache({ seqLen: 4, rotaryDim: 8, offset: [1], positions: [0, 1, 2, 3] });
// @ts-expect-error: offset with positions
posenc.rope(x, { ...rope, offset: 1, positions: [0, 1, 2, 3] });
// @ts-expect-error: offset with positions
posenc.rope(w, { ...rope, offset: 1, positions: [0, 1, 2, 3], out: w });
// @ts-expect-error: offset with positions
posenc.ropeQK(x, k, { ...rope, numKvHeads: 1, offset: 1, positions: [0, 1, 2, 3] });
// @ts-expect-error: offset with positions
plan.apply(x, { offset: 1, positions: [0, 1, 2, 3] });
// @ts-expect-error: offset with positions
plan.applyQK(x, k, { offset: 1, positions: [0, 1, 2, 3] });
// @ts-expect-error: positions hold integers, not strings
posenc.rope(x, { ...rope, positions: ['0', '1', '2', '3'] });
// @ts-expect-error: a plan's rows are given per apply
posenc.ropePlan({ ...rope, offset: 1 });
// @ts-expect-error: subarray takes numbers
w.subarray('1');
console.log(windowed, options, planOptions, table, rotary, both, rotatedGrid);
`;

it('index.d.ts rejects rotaryDim with partialRotaryFactor and offset with positions, and accepts every valid form (strict TypeScript)', () => {
  typecheckScratch(CONSUMER_TS);
});

// Where TypeScript's lib declares Float16Array (lib esnext), it is a float16 call's result type
// and an input that implies float16.
const FLOAT16_TS = `
import { loadPosenc, type WasmArray } from '${join(root, 'bindings/js/index.js')}';
const posenc = await loadPosenc();
const rope = { seqLen: 4, numHeads: 2, headDim: 8 };
const table: Float16Array | Uint16Array = posenc.sinusoidal({ seqLen: 2, dModel: 4, dtype: 'float16' });
const x: Float16Array = posenc.rope(new Float16Array(64), rope);
const w: WasmArray<'float16'> = posenc.allocate(new Float16Array(64));
const view: Float16Array | Uint16Array = w.view();
// @ts-expect-error: a float16 table is not a Float32Array
const wrong: Float32Array = posenc.sinusoidal({ seqLen: 2, dModel: 4, dtype: 'float16' });
// @ts-expect-error: bfloat16 data is its bits, never a Float16Array
posenc.allocate(new Float16Array(4), { dtype: 'bfloat16' });
console.log(table, x, view, wrong);
`;

it('with a lib that declares Float16Array, float16 results and inputs are typed as Float16Array', () => {
  typecheckScratch(FLOAT16_TS, { target: 'esnext', lib: ['esnext', 'dom'] });
});
