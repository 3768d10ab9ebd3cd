// A node:test reporter that writes how long each test file ran (from the runner starting it to its
// last result, wall clock, files running side by side), slowest first, and the whole run's span:
// scripts/test.sh writes it to test-artifacts/test-times.txt and prints its head, so the suite's
// slow files are in every run's output.
import path from 'node:path';

export default async function* fileTimes(source) {
  const spans = new Map();
  const started = performance.now();
  for await (const event of source) {
    const file = event.data?.file;
    if (!file) continue;
    const now = performance.now();
    // Every file is enqueued at the start; its first dequeue is when a process starts running it.
    if (!spans.has(file)) {
      if (event.type !== 'test:dequeue') continue;
      spans.set(file, { first: now, last: now });
    }
    spans.get(file).last = now;
  }
  const rows = [...spans].map(([file, { first, last }]) => ({
    file: path.relative(process.cwd(), file),
    seconds: (last - first) / 1000,
  }));
  rows.sort((a, b) => b.seconds - a.seconds);
  const total = rows.reduce((sum, row) => sum + row.seconds, 0);
  yield `${rows.length} test files in ${((performance.now() - started) / 1000).toFixed(0)} s (${total.toFixed(0)} s of files, summed), slowest first:\n`;
  for (const { file, seconds } of rows) yield `${seconds.toFixed(1).padStart(7)} s  ${file}\n`;
}
