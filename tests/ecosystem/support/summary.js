// The table that closes the ecosystem suite's output (the README's table is made from the same
// results, written to test-artifacts/ecosystem/summary.json).

const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
const size = (part) => (part && part.files > 0 ? `${kB(part.raw)} / ${kB(part.gzip)}` : '-');

/**
 * The line of an error message that says most: the first line when it is complete, else (a
 * command's output follows) the first line that starts with an error, else one naming an error.
 */
export function reason(message) {
  const lines = message.split('\n').map((line) => line.trim());
  if (!lines[0].endsWith(':')) return lines[0];
  return (
    lines.find((line) => /^(✘ )?\[?ERROR|^\w*Error\b|^error\b/.test(line)) ??
    lines.slice(1).find((line) => /error/i.test(line)) ??
    lines[0]
  );
}

/** Lines of a plain-text table: one row per setup and mode. */
export function formatTable(results) {
  const header = [
    'setup',
    'mode',
    'result',
    'variant',
    'wasmSource',
    'JS raw / gzip',
    'wasm raw / gzip',
    'base64 wasm in',
  ];
  const rows = results.map((entry) => [
    entry.setup,
    entry.mode,
    entry.ok ? 'pass' : `FAIL: ${reason(entry.error).slice(0, 160)}`,
    entry.variant ?? '-',
    entry.wasmSource ?? '-',
    size(entry.cost?.js),
    size(entry.cost?.wasm),
    entry.cost ? entry.cost.inlineBase64.join(' ') || 'none' : '-',
  ]);
  // The result column, last but long when it fails, is left unpadded by moving it to the end.
  const order = [0, 1, 3, 4, 5, 6, 7, 2];
  const table = [header, ...rows].map((row) => order.map((i) => row[i]));
  const widths = table[0].map((_, column) => Math.max(...table.map((row) => row[column].length)));
  return table.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]))
      .join('  ')
      .trimEnd(),
  );
}
