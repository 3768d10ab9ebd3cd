// The page-redraw table of the report: per case, the median (p10–p90) time from a slider's
// input event to the picture being updated and to the full-resolution picture, against
// the page's targets (≤ 50 ms at default settings, ≤ 100 ms at the heaviest), judged on the
// first picture: a coarse one when the page renders progressively.
import { PAGE_REDRAW_TARGETS_MS } from './page-redraw-cases.js';
import { formatMs, markdownTable } from './report.js';

const HEADERS = ['figure (settings)', 'slider', 'canvas', 'picture updated', 'full resolution', 'target', 'verdict'];
const NUMERIC = new Set([3, 4]);

const spread = (s) => `${formatMs(s.medianMs)} (${formatMs(s.p10Ms)}–${formatMs(s.p90Ms)})`;

function row({ label, slider, load, result }) {
  const target = PAGE_REDRAW_TARGETS_MS[load];
  const targetText = `median ≤ ${target} ms`;
  if (result.status !== 'measured') return [label, `#${slider}`, result.status, '', '', targetText, 'n/a'];
  const median = result.first.medianMs;
  const verdict =
    median <= target ? 'PASS' : `MISS: ${formatMs(median)} ms > ${target} (${(median / target).toFixed(2)}× off)`;
  return [
    label,
    `#${slider}`,
    result.canvas ?? '(no heatmap)',
    spread(result.first),
    spread(result.full),
    targetText,
    verdict,
  ];
}

export function pageRedrawSection(rows) {
  if (!rows?.length) return [];
  return [
    '### Tutorial page redraws (Chromium)',
    '',
    markdownTable(HEADERS, rows.map(row), NUMERIC),
    '',
    'Median (p10–p90) ms from a slider input event to the next painted frame: "picture updated" once the',
    "figure's heatmap was drawn again (a coarse picture first when the page renders progressively),",
    '"full resolution" once no redraw is pending. Each case in a fresh page at its permalink',
    '(bench/page-redraw-cases.js); the input events are spread over the frame (0, 4, 8, 12 ms after one).',
    '',
  ];
}
