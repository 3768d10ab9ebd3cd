// The GPU table of the report: one decoding step's RoPE recorded (CPU time), and RoPE on
// [2048, 32, 128] float32 against a copy of the same bytes on the device. A software adapter's
// GPU times are shown without a verdict: they are a CPU emulating a GPU.
import { formatMs, markdownTable } from './report.js';

/** The targets: a decoding step recorded in ≤ 20 µs of CPU time; RoPE within 1.5× a copy. */
export const RECORD_TARGET_MS = 0.02;
export const ROPE_COPY_TARGET = 1.5;

const HEADERS = ['case', 'adapter', 'median ms (p10–p90)', 'target', 'result'];
const spread = (s) => `${formatMs(s.medianMs)} (${formatMs(s.p10Ms)}–${formatMs(s.p90Ms)})`;

export function webgpuSection(result) {
  if (!result) return [];
  if (result.skip) return ['### WebGPU', '', `Skipped: ${result.skip}.`, ''];
  const { adapter, recording, rope, copy, bytes } = result;
  const name = `${adapter.architecture || adapter.vendor}${adapter.software ? ' (software)' : ''}`;
  const ratio = rope.medianMs / copy.medianMs;
  const recorded =
    recording.medianMs <= RECORD_TARGET_MS ? 'PASS' : `MISS: ${(recording.medianMs * 1000).toFixed(1)} µs`;
  const gpuVerdict = adapter.software
    ? 'not measured: a software adapter'
    : ratio <= ROPE_COPY_TARGET
      ? `PASS (${ratio.toFixed(2)}×)`
      : `MISS: ${ratio.toFixed(2)}× a copy`;
  const rows = [
    [
      'decoding step: ropeQK of one token (32 + 8 heads of 128), CPU time to record',
      name,
      spread(recording),
      '≤ 0.02 ms',
      recorded,
    ],
    [
      `rope in place, [2048, 32, 128] float32 (${bytes / 2 ** 20} MiB), on the device`,
      name,
      spread(rope),
      `≤ ${ROPE_COPY_TARGET}× copy`,
      gpuVerdict,
    ],
    [`copyBufferToBuffer of the same ${bytes / 2 ** 20} MiB`, name, spread(copy), '', '(for comparison)'],
  ];
  return [
    '### WebGPU (`posenc/webgpu`)',
    '',
    markdownTable(HEADERS, rows, new Set([2])),
    '',
    'Recording: per-call CPU time of `gpu.ropeQK(q, k, { …, encoder })` in batches of 100 calls. Device times: wall',
    'time from submit to onSubmittedWorkDone over 10 passes per submission (bench/webgpu-page.js).',
    '',
  ];
}
