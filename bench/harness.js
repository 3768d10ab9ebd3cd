// The timing harness, shared by Node and Chromium (plain ESM, no Node or DOM APIs beyond
// `performance.now()` and `setTimeout`).
//
// For each case: set up every variant the case names (big arrays: copy, js, scalar, simd;
// per call: plan, rope-wasm, rope-f32, js), check each variant's first result against the
// float64 reference, warm every variant up, then time them side by side in interleaved rounds
// (so a burst of load from other jobs hits all of them alike). Each sample times a batch of
// calls long enough for a coarse browser clock (sized on warm code), and counts as the batch's
// time / its number of calls. In-place big-array cases also watch the SIMD instance's WASM
// memory over `memoryCalls` calls.
// Times are reported, never asserted on.
import { selectCases } from './cases.js';
import { summarize } from './stats.js';

const DEFAULTS = {
  only: null, // case ids or section names to run (default: all; see selectCases in cases.js)
  budgetMs: 1000, // timed milliseconds per variant and case
  rounds: 10, // the budget is split into this many interleaved rounds
  warmupMs: 150, // per variant, after the correctness check
  minSampleMs: 5, // batch calls so a sample lasts this long ...
  minSampleTicks: 100, // ... and at least this many clock ticks (browser clocks tick in 0.1 ms)
  clockSpinMs: 20, // how long to watch performance.now() for its resolution
  memoryCalls: 1000, // calls of each in-place case before memory is read again
  memoryBudgetMs: 8000, // ... unless that takes longer than this (the count is reported)
};

const now = () => performance.now();
const idle = () => new Promise((resolve) => setTimeout(resolve, 0));
const collectGarbage = () => globalThis.gc?.();
const message = (error) => String(error?.stack ?? error);

/**
 * Runs the cases and returns plain, serializable results. `loadPosenc` is the entry's loader:
 * the Node entry's in Node, the browser entry's in Chromium.
 */
export async function runSuite(loadPosenc, options = {}) {
  const settings = { ...DEFAULTS, ...options };
  const log = settings.log ?? (() => {});
  const instances = {
    scalar: await loadPosenc({ simd: false }),
    simd: await loadPosenc({ simd: true }),
  };
  const cases = selectCases(settings.only);
  detachAnArrayBuffer();
  // A sample is a batch of calls lasting 100 ticks at least: its time is then off by at most
  // 1% from rounding to ticks, even for microsecond calls under a 0.1 ms browser clock.
  const clockResolutionMs = clockResolution(settings);
  const sampleMs = Math.max(
    settings.minSampleMs,
    settings.minSampleTicks * (Number.isFinite(clockResolutionMs) ? clockResolutionMs : 0),
  );
  log(
    `clock: performance.now() ticks in ${clockResolutionMs.toPrecision(2)} ms; samples last ≥ ${sampleMs.toPrecision(2)} ms`,
  );
  const results = [];
  for (const benchCase of cases) {
    collectGarbage();
    await idle();
    const started = now();
    const result = await runCase(benchCase, instances, { ...settings, sampleMs });
    if (benchCase.memoryProbe) result.wasmGrowth = await wasmGrowth(loadPosenc, benchCase.memoryProbe);
    log(`${benchCase.id}: ${describeTimes(result)} (${((now() - started) / 1000).toFixed(1)} s)`);
    results.push(result);
  }
  return { settings: { ...settings, log: undefined }, clockResolutionMs, sampleMs, cases: results };
}

/**
 * How many bytes WASM memory grows by over one call of `probe` on a fresh SIMD instance (a call
 * on JS-owned arrays: what its scratch takes, tiles.js), with the instance's starting size.
 */
async function wasmGrowth(loadPosenc, probe) {
  const posenc = await loadPosenc({ simd: true });
  const before = posenc.memoryBytes;
  probe(posenc);
  return { before, after: posenc.memoryBytes };
}

/**
 * V8 in Node 20 compiles typed-array accesses to faster code until the first ArrayBuffer of
 * the process is detached, which WASM memory growth does (posenc's memory grows to hold big
 * arrays): from then on the same JS loop runs up to 1.3× slower (Chromium 156: no change).
 * Which cases ran before the first growth would decide how fast the JS baselines look; so a
 * buffer is detached before anything runs, and every case is timed in the state of an app
 * whose WASM memory has grown.
 */
function detachAnArrayBuffer() {
  const buffer = new ArrayBuffer(8);
  structuredClone(buffer, { transfer: [buffer] });
  if (buffer.byteLength !== 0) throw new Error('bench: could not detach an ArrayBuffer');
}

/** The smallest step of performance.now() seen while spinning on it (browsers coarsen it). */
function clockResolution({ clockSpinMs }) {
  const started = now();
  let smallest = Infinity;
  let last = started;
  while (last - started < clockSpinMs) {
    const t = now();
    if (t > last && t - last < smallest) smallest = t - last;
    last = t;
  }
  return smallest;
}

function describeTimes(result) {
  if (result.error) return `error: ${result.error.split('\n')[0]}`;
  return result.variantNames
    .map((name) => {
      const v = result.variants[name];
      if (!v) return null;
      if (v.error) return `${name} error`;
      const check = v.check && !v.check.ok ? ' WRONG' : '';
      const time = v.medianMs < 0.1 ? `${(v.medianMs * 1000).toPrecision(3)} µs` : `${v.medianMs.toPrecision(3)} ms`;
      return `${name} ${time}${check}`;
    })
    .filter(Boolean)
    .join(', ');
}

async function runCase(benchCase, instances, settings) {
  const result = {
    id: benchCase.id,
    section: benchCase.section,
    rows: benchCase.rows,
    layout: benchCase.layout,
    table: benchCase.table ?? false,
    title: benchCase.title,
    size: benchCase.size,
    targets: benchCase.targets,
    variantNames: benchCase.variants,
    variants: {},
    memory: null,
  };
  let setup;
  try {
    setup = benchCase.setup();
  } catch (error) {
    result.error = message(error);
    return result;
  }

  const runners = {}; // variant -> { run, free, batch, samples }
  try {
    for (const name of benchCase.variants) {
      try {
        const watchMemory = name === 'simd' && benchCase.inPlace;
        runners[name] = prepare(name, setup, instances, result, watchMemory);
      } catch (error) {
        result.variants[name] = { error: message(error) };
      }
      await idle();
    }
    for (const [name, runner] of Object.entries(runners)) {
      try {
        runner.batch = warmUp(runner.run, settings);
      } catch (error) {
        result.variants[name] = { error: message(error) };
        runner.free?.();
        delete runners[name];
      }
      await idle();
    }
    await timeInRounds(runners, result, settings);
    for (const [name, runner] of Object.entries(runners)) {
      Object.assign(result.variants[name], summarize(runner.samples), { batch: runner.batch });
    }
    if (result.memory) finishMemoryWatch(runners.simd, result.memory, instances.simd, settings);
  } finally {
    for (const runner of Object.values(runners)) runner.free?.();
  }
  return result;
}

/** Creates a variant, makes its first call and checks that call's result (if it has one). */
function prepare(name, setup, instances, result, watchMemory) {
  const variant = setup.variants[name](instances);
  const runner = { run: variant.run, free: variant.free };
  if (watchMemory) {
    const memory = { before: instances.simd.memoryBytes, afterFirstCall: 0, after: 0, calls: 0 };
    runner.run = () => {
      memory.calls++;
      variant.run();
    };
    result.memory = memory;
  }
  const started = now();
  runner.run();
  const firstCallMs = now() - started;
  if (result.memory && watchMemory) result.memory.afterFirstCall = instances.simd.memoryBytes;
  result.variants[name] = { firstCallMs, check: variant.result ? setup.check(variant.result()) : null };
  return runner;
}

/**
 * Runs until warm, then returns how many calls one sample needs to last sampleMs: the
 * batch grows until it does, timed on warm code (an average over the warm-up would count the
 * slow first calls and make the batches of microsecond calls too short for a 0.1 ms clock).
 */
function warmUp(run, { warmupMs, sampleMs }) {
  const started = now();
  let calls = 0;
  do {
    run();
    calls++;
  } while (calls < 2 || now() - started < warmupMs);
  for (let batch = 1; ; ) {
    const ms = timeBatch(run, batch);
    if (ms >= sampleMs) return batch;
    batch = ms >= sampleMs / 10 ? Math.ceil((1.2 * batch * sampleMs) / ms) : 10 * batch;
  }
}

/** Milliseconds that `batch` back-to-back calls of run() take: one sample. */
function timeBatch(run, batch) {
  const started = now();
  for (let i = 0; i < batch; i++) run();
  return now() - started;
}

async function timeInRounds(runners, result, { budgetMs, rounds }) {
  const names = Object.keys(runners);
  for (const name of names) runners[name].samples = [];
  const slice = budgetMs / rounds;
  for (let round = 0; round < rounds; round++) {
    // Rotate the order so no variant always runs right after the same neighbour.
    const order = names.map((_, i) => names[(i + round) % names.length]);
    for (const name of order) {
      const runner = runners[name];
      if (!runner) continue;
      try {
        const end = now() + slice;
        do {
          runner.samples.push(timeBatch(runner.run, runner.batch) / runner.batch);
        } while (now() < end);
      } catch (error) {
        result.variants[name] = { error: message(error) };
        runner.free?.();
        delete runners[name];
      }
      await idle();
    }
  }
}

/** Tops the SIMD variant up to memoryCalls calls (within the time budget), then reads memory. */
function finishMemoryWatch(runner, memory, instance, { memoryCalls, memoryBudgetMs }) {
  if (!runner) return;
  const started = now();
  while (memory.calls < memoryCalls && now() - started < memoryBudgetMs) runner.run();
  memory.after = instance.memoryBytes;
}
