// WGSL that authors put in their own shaders, and that posenc's own kernels are made of: the
// rotation of a pair, the lookup of a cos/sin table (rows posenc computed in float64 on the CPU
// and rounded once to float32, uploaded: no WGSL sin/cos anywhere), ALiBi's bias and T5's
// bucket lookup. Functions without bindings are constants; those that read a table take the
// group and binding it sits at.

/** A group/binding pair, checked so a typo never reaches the WGSL compiler as text. */
function slot(fn, where) {
  const { group = 0, binding = 0 } = where ?? {};
  for (const [name, value] of [
    ['group', group],
    ['binding', binding],
  ]) {
    if (!Number.isInteger(value) || value < 0 || value > 65535)
      throw new RangeError(`posenc.webgpu.${fn}: ${name} must be an integer in [0, 65535] (got ${String(value)})`);
  }
  return `@group(${group}) @binding(${binding})`;
}

/**
 * The rotation of one pair (a, b) by cs = (cos θ, sin θ), written as posenc's CPU kernels write
 * it (a' = a cos − b sin, b' = b cos + a sin, in float32), so the GPU's result differs from the
 * CPU's by FMA contraction at most.
 */
export const ROTATE_WGSL = /* wgsl */ `
fn posenc_rotate(a: f32, b: f32, cs: vec2<f32>) -> vec2<f32> {
  return vec2<f32>(a * cs.x - b * cs.y, b * cs.x + a * cs.y);
}
`;

/**
 * A cos/sin table (`gpu.ropeTable()`): `array<vec2<f32>>`, row 0 a NaN sentinel, row 1 + r
 * the pairs of position `first + r`. `posenc_rope_cos_sin(position, pair, table)` reads one
 * pair; a position outside the table reads the sentinel, so what it rotates comes out NaN
 * instead of silently wrong. `table` is (pairs, first, rows) as ropeTable() reports them.
 */
export function ropeTableWgsl(where) {
  return /* wgsl */ `
${slot('ropeTableWgsl', where)} var<storage, read> posenc_rope_table: array<vec2<f32>>;

fn posenc_rope_cos_sin(position: u32, pair: u32, table: vec3<u32>) -> vec2<f32> {
  let row = position - table.y;
  if (position < table.y || row >= table.z) { return posenc_rope_table[pair]; }
  return posenc_rope_table[(row + 1u) * table.x + pair];
}
`;
}

/**
 * ALiBi's bias slope · distance. The slope comes as two float32s (hi, lo: `gpu.alibiSlopes()`),
 * so the product keeps the float64 slope's digits; exact distances (|d| < 2^24) are float32.
 */
export const ALIBI_WGSL = /* wgsl */ `
fn posenc_alibi(slope: vec2<f32>, distance: i32) -> f32 {
  let d = f32(distance);
  return slope.x * d + slope.y * d;
}
`;

/**
 * T5's bucket of a relative distance (key position − query position) from a table of int32
 * buckets (`gpu.bucketTable()`), entry e for distance `first + e`; −1 outside it.
 */
export function bucketTableWgsl(where) {
  return /* wgsl */ `
${slot('bucketTableWgsl', where)} var<storage, read> posenc_bucket_table: array<i32>;

fn posenc_bucket(distance: i32, first: i32, count: u32) -> i32 {
  let e = u32(distance - first);
  if (distance < first || e >= count) { return -1; }
  return posenc_bucket_table[e];
}
`;
}

// ---- posenc's own kernels -----------------------------------------------------------------------

/** Workgroup size of every kernel; dispatches spread over x and y past 65535 workgroups. */
export const WORKGROUP = 64;

/** The parameters (binding 0) and the thread index of a dispatch spread over x and y (pm[0] threads per y row). */
const COMMON = /* wgsl */ `
@group(0) @binding(0) var<storage, read> pm: array<u32>;

fn thread_index(id: vec3<u32>) -> u32 { return id.x + id.y * pm[0]; }
`;

/**
 * The position of a row: offset + row, or entry `index` of the positions binding. A negative
 * int32 position becomes an impossible one, so its row reads the table's NaN sentinel.
 * pm: [2] mode (0 offset + row, 1 positions), [3] offset or positions' element base, [4] int32.
 */
const POSITIONS = /* wgsl */ `
@group(0) @binding(1) var<storage, read> positions: array<u32>;

fn row_position(row: u32, index: u32) -> u32 {
  if (pm[2] == 0u) { return pm[3] + row; }
  let p = positions[pm[3] + index];
  if (pm[4] == 1u && i32(p) < 0) { return 0xffffffffu; }
  return p;
}
`;

/** How a kernel reads its input and writes its output: one read_write binding, or two. */
function dataBindings(oneBuffer, type = 'f32') {
  if (oneBuffer) {
    return /* wgsl */ `
@group(0) @binding(3) var<storage, read_write> dst: array<${type}>;
fn load(i: u32) -> ${type} { return dst[i]; }
fn store(i: u32, v: ${type}) { dst[i] = v; }
`;
  }
  return /* wgsl */ `
@group(0) @binding(2) var<storage, read> src: array<${type}>;
@group(0) @binding(3) var<storage, read_write> dst: array<${type}>;
fn load(i: u32) -> ${type} { return src[i]; }
fn store(i: u32, v: ${type}) { dst[i] = v; }
`;
}

/** meta slots of the rope kernel (after COMMON's five). */
export const ROPE_META = Object.freeze({
  seqLen: 5,
  numHeads: 6,
  headDim: 7,
  pairs: 8,
  batch: 9,
  order: 10, // 0 tokens, 1 heads
  layout: 11, // 0 interleaved, 1 half
  inBase: 12,
  outBase: 13,
  copy: 14, // 1: also copy the channels that do not turn (out is not x)
  first: 15,
  rows: 16,
  mrope: 17, // 0 none, 1 sections, 2 interleaved sections (Qwen3-VL)
  sectionT: 18,
  sectionH: 19,
  sectionW: 20,
});

/** M-RoPE's axis of pair k (pm[17]: 1 sections, 2 interleaved sections), by the core's rule (mrope_sections.cpp). */
const PAIR_AXIS = /* wgsl */ `
fn pair_axis(k: u32) -> u32 {
  let h = pm[19]; let w = pm[20];
  if (pm[17] == 2u) {
    if (k % 3u == 1u && k < 3u * h) { return 1u; }
    if (k % 3u == 2u && k < 3u * w) { return 2u; }
    return 0u;
  }
  if (k < pm[18]) { return 0u; }
  if (k < pm[18] + h) { return 1u; }
  return 2u;
}
`;

/**
 * RoPE over x [batch, seqLen, numHeads, headDim] (or heads before tokens): one thread per pair
 * that turns (and, into another buffer, per channel that does not). M-RoPE takes each pair's
 * position from one of three rows of positions, by the core's rule (mrope_sections.cpp).
 */
export function ropeKernel(oneBuffer) {
  return /* wgsl */ `
${COMMON}
${POSITIONS}
${ropeTableWgsl({ group: 0, binding: 4 })}
${ROTATE_WGSL}
${dataBindings(oneBuffer)}

${PAIR_AXIS}

@compute @workgroup_size(${WORKGROUP})
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  let index = thread_index(id);
  if (index >= pm[1]) { return; }
  let seq_len = pm[5]; let heads = pm[6]; let head_dim = pm[7]; let pairs = pm[8];
  let slots = select(pairs, pairs + head_dim - 2u * pairs, pm[14] == 1u);
  let slot = index % slots;
  let r = index / slots;
  let h = r % heads;
  let bt = r / heads;
  let t = bt % seq_len;
  let b = bt / seq_len;
  var vector: u32;
  if (pm[10] == 0u) { vector = bt * heads + h; } else { vector = (b * heads + h) * seq_len + t; }
  let start = vector * head_dim;
  if (slot >= pairs) {
    let c = start + 2u * pairs + (slot - pairs);
    store(pm[13] + c, load(pm[12] + c));
    return;
  }
  var ia: u32; var ib: u32;
  if (pm[11] == 0u) { ia = start + 2u * slot; ib = ia + 1u; } else { ia = start + slot; ib = ia + pairs; }
  var axis = 0u;
  if (pm[17] != 0u) { axis = pair_axis(slot); }
  let position = row_position(t, axis * pm[9] * seq_len + bt);
  let cs = posenc_rope_cos_sin(position, slot, vec3<u32>(pairs, pm[15], pm[16]));
  let turned = posenc_rotate(load(pm[12] + ia), load(pm[12] + ib), cs);
  store(pm[13] + ia, turned.x);
  store(pm[13] + ib, turned.y);
}
`;
}

/**
 * RoPE on float16 storage: x as 32-bit words of two binary16 channels (WGSL's unpack2x16float
 * and pack2x16float, in every adapter's core WGSL: no shader-f16 needed), rotated in float32 as
 * the CPU rotates half-precision arrays, narrowed once. A thread takes one word: one pair in the
 * interleaved layout; in the half layout two pairs (2w, 2w + 1) and their partners' word.
 */
export function ropeHalfKernel(oneBuffer) {
  return /* wgsl */ `
${COMMON}
${POSITIONS}
${ropeTableWgsl({ group: 0, binding: 4 })}
${ROTATE_WGSL}
${dataBindings(oneBuffer, 'u32')}
${PAIR_AXIS}

fn cos_sin(t: u32, bt: u32, pair: u32) -> vec2<f32> {
  var axis = 0u;
  if (pm[17] != 0u) { axis = pair_axis(pair); }
  let position = row_position(t, axis * pm[9] * pm[5] + bt);
  return posenc_rope_cos_sin(position, pair, vec3<u32>(pm[8], pm[15], pm[16]));
}

@compute @workgroup_size(${WORKGROUP})
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  let index = thread_index(id);
  if (index >= pm[1]) { return; }
  let seq_len = pm[5]; let heads = pm[6]; let words = pm[7] / 2u; let pairs = pm[8];
  let half_layout = pm[11] == 1u;
  let turning = select(pairs, pairs / 2u, half_layout);
  let slots = select(turning, turning + words - pairs, pm[14] == 1u);
  let slot = index % slots;
  let r = index / slots;
  let h = r % heads;
  let bt = r / heads;
  let t = bt % seq_len;
  let b = bt / seq_len;
  var vector: u32;
  if (pm[10] == 0u) { vector = bt * heads + h; } else { vector = (b * heads + h) * seq_len + t; }
  let start = vector * words;
  if (slot >= turning) {
    let w = start + pairs + (slot - turning);
    store(pm[13] + w, load(pm[12] + w));
    return;
  }
  if (!half_layout) {
    let v = unpack2x16float(load(pm[12] + start + slot));
    let turned = posenc_rotate(v.x, v.y, cos_sin(t, bt, slot));
    store(pm[13] + start + slot, pack2x16float(turned));
    return;
  }
  let wa = start + slot;
  let wb = wa + pairs / 2u;
  let a = unpack2x16float(load(pm[12] + wa));
  let c = unpack2x16float(load(pm[12] + wb));
  let first = posenc_rotate(a.x, c.x, cos_sin(t, bt, 2u * slot));
  let second = posenc_rotate(a.y, c.y, cos_sin(t, bt, 2u * slot + 1u));
  store(pm[13] + wa, pack2x16float(vec2<f32>(first.x, second.x)));
  store(pm[13] + wb, pack2x16float(vec2<f32>(first.y, second.y)));
}
`;
}

/** meta slots of the sinusoidal addition kernel. */
export const ADD_META = Object.freeze({ dModel: 5, base: 6, first: 7, rows: 8 });

/**
 * x [seqLen, dModel] += the sinusoidal rows of its positions, from a table (row 0 a NaN
 * sentinel, row 1 + r position first + r): float32 additions, as the CPU's.
 */
export const ADD_SINUSOIDAL_KERNEL = /* wgsl */ `
${COMMON}
${POSITIONS}
@group(0) @binding(3) var<storage, read_write> dst: array<f32>;
@group(0) @binding(4) var<storage, read> table: array<f32>;

@compute @workgroup_size(${WORKGROUP})
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  let index = thread_index(id);
  if (index >= pm[1]) { return; }
  let d = pm[5];
  let c = index % d;
  let t = index / d;
  let position = row_position(t, t);
  var row = 0u;
  if (position >= pm[7] && position - pm[7] < pm[8]) { row = position - pm[7] + 1u; }
  dst[pm[6] + index] = dst[pm[6] + index] + table[row * d + c];
}
`;

/** meta slots of the distance-table kernel. */
export const DISTANCE_META = Object.freeze({
  queryLen: 5,
  keyLen: 6,
  offset: 7,
  outBase: 8,
  first: 9,
  count: 10,
});

/**
 * A [heads, queryLen, keyLen] block whose value depends on the head and the distance
 * j − (offset + i) only (ALiBi's bias, T5's buckets): looked up in a table of the call's
 * distances that the CPU computed, so every value is the CPU's, bit for bit.
 */
export function distanceKernel(type) {
  return /* wgsl */ `
${COMMON}
@group(0) @binding(3) var<storage, read_write> dst: array<${type}>;
@group(0) @binding(4) var<storage, read> table: array<${type}>;

@compute @workgroup_size(${WORKGROUP})
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  let index = thread_index(id);
  if (index >= pm[1]) { return; }
  let q = pm[5]; let k = pm[6];
  let j = index % k;
  let i = (index / k) % q;
  let h = index / (k * q);
  let distance = i32(j) - (bitcast<i32>(pm[7]) + i32(i));
  dst[pm[8] + index] = table[h * pm[10] + u32(distance - bitcast<i32>(pm[9]))];
}
`;
}
