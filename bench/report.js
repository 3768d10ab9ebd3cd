// Turns the Node and Chromium results into one markdown report: the big-array results table
// (median times, ratios, targets, PASS/MISS), the per-call cost table (µs per call by rows,
// ratios to the JS loop at 1 row, the fixed cost), then the spread of every timing and the
// check margins. Padded markdown reads in a terminal and as a markdown file alike.
import {
  ATTENTION_VARIANTS,
  BIG_ARRAY_VARIANTS,
  PER_CALL_BASELINES,
  PER_CALL_KV_HEADS,
  PER_CALL_LAYOUTS,
  PER_CALL_ROWS,
  PER_CALL_SHAPE,
  PER_CALL_VARIANTS,
  TINY_TABLE,
  TINY_TABLE_VARIANTS,
} from './cases.js';
import { JS_ARRAY_SECTION } from './js-array-cases.js';
import { entryImportSection } from './report-entry-import.js';
import { webgpuSection } from './report-webgpu.js';
import { pageRedrawSection } from './report-page.js';
import { fitLine } from './stats.js';

const ENVS = ['node', 'chromium'];
// The fixed cost is the intercept of time = fixed + perRow * rows fitted to the sizes up to
// this many rows (1 MiB): there the arrays stay in cache, so the per-row cost is one constant,
// and the fixed cost is a large share of each time. Beyond, the arrays outgrow the caches
// (the per-row cost rises) and a 1% wobble of a 4096-row time is larger than the fixed cost
// itself: an intercept fitted through them is mostly noise.
const FIT_MAX_ROWS = 64;
const WASM_SIZE_TARGET_BYTES = 150_000; // .wasm <= 150 KB

// ---- formatting -------------------------------------------------------------------------

export function formatMs(ms) {
  if (!Number.isFinite(ms)) return '';
  if (ms >= 100) return ms.toFixed(0);
  if (ms >= 10) return ms.toFixed(1);
  if (ms >= 1) return ms.toFixed(2);
  return ms.toFixed(3);
}

const microseconds = (ms) => formatMs(ms * 1000);
const twoDigits = (value) => String(Number(value.toPrecision(2)));
const formatRatio = (value) => (Number.isFinite(value) ? value.toFixed(2) : '');
const kilobytes = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
const mebibytes = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

export function markdownTable(headers, rows, rightAligned = new Set()) {
  const widths = headers.map((header, c) => Math.max(header.length, ...rows.map((row) => String(row[c]).length), 3));
  const pad = (text, c) => (rightAligned.has(c) ? String(text).padStart(widths[c]) : String(text).padEnd(widths[c]));
  const line = (cells) => `| ${cells.map(pad).join(' | ')} |`;
  const rule = `|${widths.map((w, c) => (rightAligned.has(c) ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(headers), rule, ...rows.map(line)].join('\n');
}

// ---- ratios and targets --------------------------------------------------------------------

/** 'a/b': the median time of variant a over that of variant b. */
function ratio(variants, name) {
  const [a, b] = name.split('/');
  return variants[a]?.medianMs / variants[b]?.medianMs;
}

function describeTarget({ ratio: name, max, min }) {
  return max !== undefined ? `${name} ≤ ${max}` : `${name} ≥ ${min}`;
}

/** The factor a ratio is off its target by: ≤ 1 meets it. */
function targetOff({ max, min }, value) {
  return max !== undefined ? value / max : min / value;
}

/** PASS, MISS with how far off (the factor the measured variant must still gain), or n/a. */
function judgeTargets(targets, variants) {
  const misses = [];
  for (const target of targets) {
    const value = ratio(variants, target.ratio);
    if (!Number.isFinite(value)) return 'n/a (not measured)';
    const off = targetOff(target, value);
    if (off > 1) {
      const relation = target.max !== undefined ? `> ${target.max}` : `< ${target.min}`;
      misses.push(`${target.ratio} ${value.toFixed(2)} ${relation} (${off.toFixed(2)}× off)`);
    }
  }
  return misses.length ? `MISS: ${misses.join('; ')}` : 'PASS';
}

/** ERROR or WRONG naming the variants, or null when every variant ran and was right. */
function failure(result) {
  if (result.error) return `ERROR: ${result.error.split('\n')[0]}`;
  const names = result.variantNames;
  const errors = names.filter((name) => result.variants[name]?.error);
  if (errors.length) return `ERROR in ${errors.join(', ')}: ${result.variants[errors[0]].error.split('\n')[0]}`;
  const wrong = names.filter((name) => result.variants[name]?.check && !result.variants[name].check.ok);
  if (wrong.length) return `WRONG result: ${wrong.join(', ')} (see check margins)`;
  return null;
}

function caseVerdict(result) {
  return failure(result) ?? judgeTargets(result.targets, result.variants);
}

// ---- rows ------------------------------------------------------------------------------------

const MAIN_HEADERS = [
  'case',
  'env',
  'size',
  'copy ms',
  'js ms',
  'scalar ms',
  'simd ms',
  'simd/copy',
  'js/simd',
  'scalar/simd',
  'target',
  'result',
];
const MAIN_NUMERIC = new Set([3, 4, 5, 6, 7, 8, 9]);

function caseRow(result, env) {
  const times = BIG_ARRAY_VARIANTS.map((name) => formatMs(result.variants[name]?.medianMs));
  const targets = result.targets.map(describeTarget).join(', ');
  const ratios = ['simd/copy', 'js/simd', 'scalar/simd'].map((name) => formatRatio(ratio(result.variants, name)));
  return [result.title, env, result.size, ...times, ...ratios, targets, caseVerdict(result)];
}

function memoryRow(result, env) {
  const { memory } = result;
  const measured = memory && memory.after > 0;
  const size = measured
    ? `heap ${(memory.before / 2 ** 20).toFixed(1)} → ${mebibytes(memory.after)}, ${memory.calls} calls`
    : 'heap: not measured';
  let verdict = 'n/a (not measured)';
  if (measured) {
    const growth = memory.after - memory.before;
    verdict = growth > 0 ? `MISS: grew ${mebibytes(growth)}` : 'PASS';
    if (growth <= 0 && memory.calls < 1000) verdict += ` (${memory.calls} calls)`;
  }
  return [`memory: ${result.id} (simd)`, env, size, '', '', '', '', '', '', '', 'no growth, 1000 calls', verdict];
}

function moduleLoadRow(moduleLoad, wasmSizes) {
  const sizes = ['simd', 'scalar'].map(
    (v) => `${v} ${kilobytes(wasmSizes[v].bytes)} (gz ${(wasmSizes[v].gzipBytes / 1000).toFixed(1)})`,
  );
  const largest = Math.max(wasmSizes.simd.bytes, wasmSizes.scalar.bytes);
  const verdict =
    largest <= WASM_SIZE_TARGET_BYTES
      ? 'PASS'
      : `MISS: ${kilobytes(largest)} (${(largest / WASM_SIZE_TARGET_BYTES).toFixed(2)}× off)`;
  return [
    'module load + instantiate (cold)',
    'chromium',
    `.wasm ${sizes.join(', ')}`,
    '',
    '',
    formatMs(moduleLoad?.scalar?.medianMs),
    formatMs(moduleLoad?.simd?.medianMs),
    '',
    '',
    '',
    `.wasm ≤ ${WASM_SIZE_TARGET_BYTES / 1000} KB`,
    verdict,
  ];
}

/** Case id -> { node, chromium } results, for the cases of one section. */
function resultsByCase(runs, section) {
  const byCase = new Map();
  for (const env of ENVS) {
    for (const result of runs[env]?.suite?.cases ?? []) {
      if (result.section !== section) continue;
      if (!byCase.has(result.id)) byCase.set(result.id, {});
      byCase.get(result.id)[env] = result;
    }
  }
  return byCase;
}

export function mainTable(runs, wasmSizes) {
  const byCase = resultsByCase(runs, 'big-arrays');
  const rows = [];
  for (const perEnv of byCase.values()) {
    for (const env of ENVS) if (perEnv[env]) rows.push(caseRow(perEnv[env], env));
  }
  for (const perEnv of byCase.values()) {
    for (const env of ENVS) if (perEnv[env]?.memory) rows.push(memoryRow(perEnv[env], env));
  }
  if (runs.chromium && !runs.chromium.error && runs.chromium.moduleLoad) {
    rows.push(moduleLoadRow(runs.chromium.moduleLoad, wasmSizes));
  }
  return markdownTable(MAIN_HEADERS, rows, MAIN_NUMERIC);
}

/** p10–p90 (n samples × calls per sample), in ms or (scale 1000) µs. */
function spreadCell(variant, scale = 1) {
  if (!variant || !Number.isFinite(variant.medianMs)) return variant?.error ? 'error' : '';
  return `${formatMs(variant.p10Ms * scale)}–${formatMs(variant.p90Ms * scale)} (n=${variant.samples}${variant.batch > 1 ? `×${variant.batch}` : ''})`;
}

function marginCell(variant) {
  if (!variant?.check) return '';
  const { worst, maxAbsError } = variant.check;
  return `${worst.toFixed(2)} (${maxAbsError.toExponential(1)})`;
}

/** Spread of the times (ms, or µs with scale 1000) and check margins of one section's cases. */
export function spreadTable(runs, { section, variants, checked, unit = 'ms', scale = 1, only = () => true }) {
  const headers = [
    'case',
    'env',
    ...variants.map((v) => `${v} p10–p90 ${unit}`),
    ...checked.map((v) => `${v} err/bound`),
  ];
  const rows = [];
  for (const perEnv of resultsByCase(runs, section).values()) {
    for (const env of ENVS) {
      const result = perEnv[env];
      if (!result || !only(result)) continue;
      rows.push([
        result.title,
        env,
        ...variants.map((v) => spreadCell(result.variants[v], scale)),
        ...checked.map((v) => marginCell(result.variants[v])),
      ]);
    }
  }
  return markdownTable(headers, rows);
}

/** True when some result was wrong or some case failed to run (times never fail a run). */
export function hasFailures(runs) {
  return ENVS.some((env) => (runs[env]?.suite?.cases ?? []).some((result) => failure(result) !== null));
}

// ---- per-call cost ---------------------------------------------------------------------------

/** env -> layout -> rows -> result, for the per-call rope cases that ran. */
function perCallResults(runs) {
  const byEnv = {};
  for (const env of ENVS) {
    const cases = (runs[env]?.suite?.cases ?? []).filter((result) => result.section === 'per-call' && !result.table);
    if (!cases.length) continue;
    byEnv[env] = {};
    for (const layout of PER_CALL_LAYOUTS) {
      const ofLayout = cases.filter((result) => result.layout === layout);
      if (ofLayout.length) byEnv[env][layout] = new Map(ofLayout.map((result) => [result.rows, result]));
    }
  }
  return byEnv;
}

/** env -> the tiny table's result. */
function tinyTableResults(runs) {
  const byEnv = {};
  for (const env of ENVS) {
    const result = (runs[env]?.suite?.cases ?? []).find((r) => r.section === 'per-call' && r.table);
    if (result) byEnv[env] = result;
  }
  return byEnv;
}

/** µs per call, and the ratio to `baseline` (the JS loop it is measured against) in parentheses. */
function perCallTimeCell(result, variant, baseline) {
  if (!result) return '';
  if (result.error) return 'error';
  const v = result.variants[variant];
  if (!v) return '';
  if (v.error) return 'error';
  const wrong = v.check && !v.check.ok ? ' WRONG' : '';
  const against = baseline && ratio(result.variants, `${variant}/${baseline}`);
  return `${microseconds(v.medianMs)}${Number.isFinite(against) ? ` (${formatRatio(against)})` : ''}${wrong}`;
}

/** time = fixed + perRow * rows, least squares over the measured sizes up to FIT_MAX_ROWS. */
function perCallFit(byRows, variant) {
  const points = [...byRows.values()]
    .filter((result) => result.rows <= FIT_MAX_ROWS && Number.isFinite(result.variants[variant]?.medianMs))
    .map((result) => [result.rows, result.variants[variant].medianMs]);
  const line = fitLine(points);
  return line && { fixedMs: line.intercept, perRowMs: line.slope };
}

/**
 * One environment's table: layout and rows × variant -> median µs per call (ratio to its JS loop),
 * then each layout's fixed and per-row cost.
 */
export function perCallTable(runs, env) {
  const byLayout = perCallResults(runs)[env] ?? {};
  const headers = ['layout', 'rows', 'size', ...PER_CALL_VARIANTS];
  const rows = [];
  for (const [layout, byRows] of Object.entries(byLayout)) {
    for (const n of PER_CALL_ROWS.filter((r) => byRows.has(r))) {
      const result = byRows.get(n);
      rows.push([
        layout,
        String(n),
        result.size,
        ...PER_CALL_VARIANTS.map((variant) => perCallTimeCell(result, variant, PER_CALL_BASELINES[variant])),
      ]);
    }
  }
  for (const [layout, byRows] of Object.entries(byLayout)) {
    const fits = PER_CALL_VARIANTS.map((variant) => perCallFit(byRows, variant));
    rows.push([
      layout,
      `fixed (fit ≤ ${FIT_MAX_ROWS})`,
      '',
      ...fits.map((fit) => (fit ? microseconds(fit.fixedMs) : 'n/a')),
    ]);
    rows.push([
      layout,
      `per row (fit ≤ ${FIT_MAX_ROWS})`,
      '',
      ...fits.map((fit) => (fit ? microseconds(fit.perRowMs) : 'n/a')),
    ]);
  }
  return markdownTable(headers, rows, new Set(PER_CALL_VARIANTS.map((_, c) => c + 3)));
}

/** A ratio against its target: the value, PASS or MISS with how far off. */
function judged(result, target) {
  const value = ratio(result.variants, target.ratio);
  if (!Number.isFinite(value)) return failure(result) ? 'n/a (error)' : 'n/a';
  const off = targetOff(target, value);
  return `${formatRatio(value)} ${off <= 1 ? 'PASS' : `MISS (${off.toFixed(2)}× off)`}`;
}

/** The targets of the 1-row cases: each ratio to its JS loop, per layout, in Node and Chromium. */
export function perCallTargetTable(runs) {
  const byEnv = perCallResults(runs);
  const columns = [];
  for (const layout of PER_CALL_LAYOUTS)
    for (const env of ENVS) if (byEnv[env]?.[layout]?.has(1)) columns.push({ layout, env });
  const targets = columns.length ? byEnv[columns[0].env][columns[0].layout].get(1).targets : [];
  const headers = ['1 row', 'target', ...columns.map(({ layout, env }) => `${layout} ${env}`)];
  const rows = targets.map((target) => [
    target.ratio,
    describeTarget(target).replace(`${target.ratio} `, ''),
    ...columns.map(({ layout, env }) => judged(byEnv[env][layout].get(1), target)),
  ]);
  return markdownTable(headers, rows);
}

/** The tiny table: µs per call of each variant, and the targets, per environment. */
export function tinyTableTable(runs) {
  const byEnv = tinyTableResults(runs);
  const envs = ENVS.filter((env) => byEnv[env]);
  if (!envs.length) return null;
  const headers = ['variant', ...envs.map((env) => `${env} µs`)];
  const rows = TINY_TABLE_VARIANTS.map((variant) => [
    variant,
    ...envs.map((env) => perCallTimeCell(byEnv[env], variant, variant === 'js' ? null : 'js')),
  ]);
  for (const target of byEnv[envs[0]].targets)
    rows.push([describeTarget(target), ...envs.map((env) => judged(byEnv[env], target))]);
  return markdownTable(headers, rows, new Set(envs.map((_, c) => c + 1)));
}

/** One line per failed or wrong per-call variant (a missing ropePlan shows up here). */
function perCallFailures(runs) {
  const lines = [];
  for (const env of ENVS) {
    for (const result of (runs[env]?.suite?.cases ?? []).filter((r) => r.section === 'per-call')) {
      const where = `${env}, ${result.title}`;
      if (result.error) lines.push(`- ${where}: ERROR ${result.error.split('\n')[0]}`);
      for (const name of result.variantNames ?? []) {
        const v = result.variants[name];
        if (v?.error) lines.push(`- ${where}, ${name}: ERROR ${v.error.split('\n')[0]}`);
        else if (v?.check && !v.check.ok)
          lines.push(`- ${where}, ${name}: WRONG result (err/bound ${v.check.worst.toFixed(2)})`);
      }
    }
  }
  return lines;
}

function perCallSection(runs) {
  const byEnv = perCallResults(runs);
  const tiny = tinyTableTable(runs);
  if (!Object.keys(byEnv).length && !tiny) return [];
  const { numHeads, headDim, base, offset } = PER_CALL_SHAPE;
  const failures = perCallFailures(runs);
  const tables = ENVS.filter((env) => byEnv[env]).flatMap((env) => [`${env}:`, '', perCallTable(runs, env), '']);
  return [
    '### Per-call cost',
    '',
    `rope in place on [rows, ${numHeads}, ${headDim}] f32 (base ${base}, positions ${offset}, ${offset} + 1, ...), SIMD build,`,
    `in both layouts; the QK variants also rotate keys [rows, ${PER_CALL_KV_HEADS}, ${headDim}] in the same call.`,
    'Median µs per call, and in parentheses the ratio to the JS loop (`js`; `js-qk` for the QK variants).',
    '`plan` / `plan-qk` = `plan.apply(x, { offset })` / `plan.applyQK(q, k, { offset })` of one `posenc.ropePlan(...)`',
    'on WasmArrays; `rope-wasm` / `rope-f32` = `posenc.rope(x, options)` on a WasmArray / a Float32Array;',
    '`rope-qk` = `posenc.ropeQK(q, k, options)` on Float32Arrays, no plan; `js` / `js-qk` = a JS loop rotating in',
    'place with a cos/sin table precomputed for every position it sees (bench/js-baseline.js).',
    'All in a process that has detached an ArrayBuffer, as WASM memory growth does: in Node 20 that alone makes',
    'typed-array JS (the js loop) up to 1.3× slower than in a process that never detached one (bench/README.md).',
    '',
    ...tables,
    `fixed / per row: least-squares fit of time = fixed + perRow · rows to the sizes up to ${FIT_MAX_ROWS} rows (in cache;`,
    "larger arrays leave the caches, and their noise alone exceeds the fixed cost). js's fixed cost should be ≈ 0.",
    '',
    perCallTargetTable(runs),
    '',
    ...(tiny
      ? [
          `A tiny table: \`posenc.sinusoidal({ seqLen: ${TINY_TABLE.seqLen}, dModel: ${TINY_TABLE.dModel} })\` (a new array; \`-out\`: into a kept Float32Array) against \`sinusoidalJs\`.`,
          '',
          tiny,
          '',
        ]
      : []),
    ...(failures.length ? ['Failed variants:', ...failures, ''] : []),
  ];
}

/** The attention cases: median ms of each variant and its ratio to similarity, against the target. */
function attentionSection(runs) {
  const byCase = resultsByCase(runs, 'attention');
  if (!byCase.size) return [];
  const headers = ['case', 'env', ...ATTENTION_VARIANTS.map((v) => `${v} ms`), 'target', 'result'];
  const rows = [];
  for (const perEnv of byCase.values()) {
    for (const env of ENVS) {
      const result = perEnv[env];
      if (!result || !only(result)) continue;
      const times = ATTENTION_VARIANTS.map((name) => {
        const ms = formatMs(result.variants[name]?.medianMs);
        const r = ratio(result.variants, `${name}/similarity`);
        return name === 'similarity' || !Number.isFinite(r) ? ms : `${ms} (${formatRatio(r)}×)`;
      });
      rows.push([result.title, env, ...times, '≤ 2 × similarity', caseVerdict(result)]);
    }
  }
  return [
    '### Attention scores',
    '',
    markdownTable(headers, rows),
    '',
    'Median ms per call; in parentheses the ratio to `similarity` of the same size, whose dot products',
    'attentionScores shares (the issue asks for at most 2×).',
    '',
  ];
}

/** The js-arrays section: each case's variants in its own order, its ratios, and its WASM memory growth. */
function jsArraySection(runs) {
  const byCase = resultsByCase(runs, JS_ARRAY_SECTION);
  if (!byCase.size) return [];
  const headers = ['case', 'env', 'size', 'median ms', 'ratios', 'WASM growth', 'target', 'result'];
  const rows = [];
  for (const perEnv of byCase.values()) {
    for (const env of ENVS) {
      const result = perEnv[env];
      if (!result) continue;
      const times = result.variantNames.map((name) => `${name} ${formatMs(result.variants[name]?.medianMs)}`);
      const ratios = result.targets.map(({ ratio: name }) => `${name} ${formatRatio(ratio(result.variants, name))}`);
      const growth = result.wasmGrowth
        ? `${mebibytes(result.wasmGrowth.after - result.wasmGrowth.before)} (from ${mebibytes(result.wasmGrowth.before)})`
        : '';
      const targets = result.targets.map(describeTarget).join(', ');
      rows.push([
        result.title,
        env,
        result.size,
        times.join(', '),
        ratios.join(', '),
        growth,
        targets,
        caseVerdict(result),
      ]);
    }
  }
  return [
    '### Calls on JS-owned arrays (tile by tile)',
    '',
    markdownTable(headers, rows),
    '',
    '`returned` = the array the call returns; `out-f32` = the same call into `out: Float32Array`; `out-wasm` = into',
    "`out: WasmArray` (SIMD build); `new-array` = `new Float32Array(n).fill(1)` of the result's size, what a new array costs.",
    'rope: `copy` = Float32Array.prototype.set of x; `js` = bench/js-baseline.js;',
    '`scalar`/`simd` = rope(x) in place on a JS Float32Array on each build, `simd-out` = rope(x, { out }) into another',
    'one; `wasm` = in place on a WasmArray (SIMD).',
    'WASM growth = how much WASM memory grew over one such call on a fresh instance.',
    '',
  ];
}

function bigArraySection(runs, wasmSizes) {
  const browserRows = runs.chromium && !runs.chromium.error && runs.chromium.moduleLoad;
  if (!resultsByCase(runs, 'big-arrays').size && !browserRows) return [];
  return [
    mainTable(runs, wasmSizes),
    '',
    "Times are medians in ms per call. `copy` = Float32Array.prototype.set of a buffer of the output's size (the",
    'bandwidth limit; Uint16Array.prototype.set of as many 16-bit elements for the f16/bf16 rows); `js` = plain',
    'JavaScript as a careful demo author writes it (bench/js-baseline.js; for f16/bf16 a Float16Array where the',
    'engine has one, else a Uint16Array converted through bench/half-bits.js);',
    "`scalar`/`simd` = posenc's two WASM builds. Ratios are the result; absolute times depend on the machine",
    'and its load. "N× off" = the factor the SIMD build still has to gain to meet the target.',
    '',
  ];
}

function spreadSections(runs) {
  const sections = [];
  if (resultsByCase(runs, 'big-arrays').size) {
    sections.push(
      spreadTable(runs, { section: 'big-arrays', variants: BIG_ARRAY_VARIANTS, checked: ['js', 'scalar', 'simd'] }),
      '',
    );
  }
  if (resultsByCase(runs, 'attention').size) {
    sections.push(
      spreadTable(runs, { section: 'attention', variants: ATTENTION_VARIANTS, checked: ATTENTION_VARIANTS }),
      '',
    );
  }
  if (resultsByCase(runs, 'per-call').size) {
    sections.push(
      spreadTable(runs, {
        section: 'per-call',
        variants: PER_CALL_VARIANTS,
        checked: PER_CALL_VARIANTS,
        unit: 'µs',
        scale: 1000,
        only: (result) => !result.table,
      }),
      '',
    );
    if (Object.keys(tinyTableResults(runs)).length) {
      sections.push(
        spreadTable(runs, {
          section: 'per-call',
          variants: TINY_TABLE_VARIANTS,
          checked: TINY_TABLE_VARIANTS,
          unit: 'µs',
          scale: 1000,
          only: (result) => result.table,
        }),
        '',
      );
    }
  }
  return sections;
}

/** How finely each environment's clock ticks, and how long its samples (batches) last. */
function clockLine(runs) {
  const ticks = ENVS.filter((env) => Number.isFinite(runs[env]?.suite?.clockResolutionMs)).map(
    (env) =>
      `${env} ${twoDigits(runs[env].suite.clockResolutionMs * 1000)} µs (samples ≥ ${twoDigits(runs[env].suite.sampleMs)} ms)`,
  );
  return ticks.length ? `- performance.now() ticks: ${ticks.join(', ')}` : null;
}

export function renderReport({ date, machine, git, chromiumVersion, settings, runs, wasmSizes }) {
  const env = [
    `- date: ${date}; commit ${git}`,
    `- machine: ${machine.cpu} (${machine.cpuFlags.join(', ') || 'no x86 SIMD flags read'}), ${machine.cores} cores, ${machine.memoryGiB} GiB, load average at start ${machine.loadAverage.join(' / ')}; ${machine.os}`,
    `- Node ${machine.node} (V8 ${machine.v8})${chromiumVersion ? `; Chromium ${chromiumVersion} (headless)` : ''}`,
    settings &&
      `- timing: ${settings.budgetMs} ms per variant and case in ${settings.rounds} interleaved rounds after ${settings.warmupMs} ms warm-up; medians of per-call times (a sample = a batch of calls / its number of calls)`,
    machine.caches &&
      `- caches (sysfs): L2 ${machine.caches.l2 ? mebibytes(machine.caches.l2) : 'unknown'}, L3 ${machine.caches.l3 ? mebibytes(machine.caches.l3) : 'unknown'}; copy bandwidth ${machine.copyGBps} GB/s (Float32Array.prototype.set of 64 MiB, best of 5); posenc's tile in Node ${machine.tileBytes / 1024} KiB`,
    clockLine(runs),
    runs.chromium?.error && `- **the Chromium run failed**: ${runs.chromium.error}`,
  ]
    .filter(Boolean)
    .join('\n');
  return [
    '## posenc benchmark (`npm run bench`)',
    '',
    env,
    '',
    ...bigArraySection(runs, wasmSizes),
    ...entryImportSection(runs.chromium?.entryImports),
    ...perCallSection(runs),
    ...attentionSection(runs),
    ...jsArraySection(runs),
    ...pageRedrawSection(runs.chromium?.pageRedraws),
    ...webgpuSection(runs.chromium?.webgpu),
    '### Spread and correctness margins',
    '',
    ...spreadSections(runs),
    'p10–p90 of per-call times (n samples × calls per sample). err/bound = the largest error over the allowed',
    'error of the precision contract (≤ 1 passes), with the largest absolute error in parentheses.',
    '',
  ].join('\n');
}
