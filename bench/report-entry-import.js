// The start-up table of the report: import() of each browser entry, cold, from a static server,
// bundled as shipped against its unbundled source, and compile + instantiate of the SIMD build.
import { ENTRY_IMPORT_TARGET_MS } from './entry-import.js';
import { formatMs, markdownTable } from './report.js';

const HEADERS = ['entry', 'file', 'JS modules', 'import() ms', 'compile + instantiate ms', 'target', 'result'];
const NUMERIC = new Set([2, 3, 4]);

const spread = (s) => `${formatMs(s.medianMs)} (${formatMs(s.p10Ms)}–${formatMs(s.p90Ms)})`;

function row({ name, shipped, file, modules, import: imported, compileInstantiate }) {
  const median = imported.medianMs;
  const verdict = !shipped
    ? '(for comparison)'
    : median <= ENTRY_IMPORT_TARGET_MS
      ? 'PASS'
      : `MISS: ${formatMs(median)} ms (${(median / ENTRY_IMPORT_TARGET_MS).toFixed(2)}× off)`;
  return [
    shipped ? name : `${name}, unbundled`,
    file.replace(/^\.\//, ''),
    String(modules),
    spread(imported),
    spread(compileInstantiate),
    shipped ? `import ≤ ${ENTRY_IMPORT_TARGET_MS} ms` : '',
    verdict,
  ];
}

export function entryImportSection(rows) {
  if (!rows?.length) return [];
  return [
    '### Start-up in Chromium: importing the browser entry',
    '',
    markdownTable(HEADERS, rows.map(row), NUMERIC),
    '',
    `Median (p10–p90) ms of ${rows[0].import.samples} cold loads per entry, each in a fresh browser context, from the`,
    'packed package on a static server (scripts/serve.js): `import()` of the entry (the JS modules it',
    'requested), then loadPosenc() of the SIMD build from bytes fetched before (bench/entry-import.js).',
    '',
  ];
}
