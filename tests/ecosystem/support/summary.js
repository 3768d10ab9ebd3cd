// The table that closes the ecosystem suite's output (docs/bundlers.md's table is made from the same
// results, written to test-artifacts/ecosystem/summary.json), and under it why each failure failed.

const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
const size = (part) => (part && part.files.length > 0 ? `${kB(part.raw)} / ${kB(part.gzip)}` : '-');
const count = (part) => (part ? ` (${part.files.length} file${part.files.length === 1 ? '' : 's'})` : '');

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

/** Lines of a plain-text table, one row per setup and mode, then one line per failure. */
export function formatTable(results) {
  const header = [
    'setup',
    'mode',
    'result',
    'variant',
    'wasmSource',
    'JS raw / gzip',
    'wasm raw / gzip',
    'of the JS, base64 wasm',
  ];
  const rows = results.map((entry) => [
    entry.setup,
    entry.mode,
    entry.ok ? 'pass' : 'FAIL',
    entry.variant ?? '-',
    entry.wasmSource ?? '-',
    size(entry.cost?.js),
    size(entry.cost?.wasm),
    entry.cost ? `${size(entry.cost.inlineBase64)}${count(entry.cost.inlineBase64)}` : '-',
  ]);
  const table = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...table.map((row) => row[column].length)));
  const lines = table.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]))
      .join('  ')
      .trimEnd(),
  );
  for (const entry of results.filter((result) => !result.ok)) {
    lines.push(`${entry.setup} ${entry.mode} failed: ${reason(entry.error)}`);
  }
  return lines;
}

/**
 * A function `record(setup, mode, check)` that runs `check(entry)`, which may fill the summary's
 * entry, and adds the entry with its outcome and time to `results`; a failure is rethrown.
 */
export function recorder(results) {
  return async (setup, mode, check) => {
    const started = performance.now();
    const entry = { setup, mode, ok: false };
    results.push(entry);
    try {
      await check(entry);
      entry.ok = true;
    } catch (error) {
      entry.error = error.message;
      throw error;
    } finally {
      entry.seconds = Number(((performance.now() - started) / 1000).toFixed(1));
    }
  };
}
