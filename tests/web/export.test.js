// End-to-end: every heatmap exports its picture as PNG and its matrix as CSV (browser downloads).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { inflateSync } from 'node:zlib';
import { artifactPath } from './support/browser.js';
import { colorAt, scaleIndex } from './support/colors.js';
import { peDotProducts, sinusoidalTable } from './support/reference.js';
import { usePageSession } from './support/session.js';

const session = usePageSession({ acceptDownloads: true });
let browser;
let server;
let page;
let log;
before(async () => ({ browser, server, page, log } = await session));

async function download(plot, kind) {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.locator(`figure[data-plot="${plot}"] button.export-${kind}`).click(),
  ]);
  const target = artifactPath(file.suggestedFilename());
  await file.saveAs(target);
  return { name: file.suggestedFilename(), path: target };
}

/** Width, height and the first pixel of a PNG (row 0's first pixel is stored unfiltered-equivalent). */
function readPng(path) {
  const bytes = readFileSync(path);
  assert.deepEqual([...bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'PNG signature');
  let offset = 8;
  let width = 0;
  let height = 0;
  let colorType = 0;
  const data = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('ascii', offset + 4, offset + 8);
    const body = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      colorType = body[9];
    }
    if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  // Scanline 0: filter byte, then pixels; with no row above, every filter leaves pixel 0 as stored.
  return { width, height, colorType, firstPixel: [...raw.subarray(1, 4)] };
}

test('PNG export: the heatmap at a whole-number scale, colours as drawn', async () => {
  const { name, path } = await download('sinusoidal-table', 'png');
  assert.equal(name, 'posenc-sinusoidal-table.png');
  const png = readPng(path);
  assert.equal(png.width, 1024); // 128 columns × 8
  assert.equal(png.height, 1024);
  // Cell (0, 0) is sin(0) = 0: the middle of the diverging scale.
  assert.deepEqual(png.firstPixel, colorAt('diverging', scaleIndex(0, -1, 1)));
});

test('CSV export: the exact float32 matrix with position and dimension labels', async () => {
  const { name, path } = await download('sinusoidal-table', 'csv');
  assert.equal(name, 'posenc-sinusoidal-table.csv');
  const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
  assert.equal(lines.length, 129);
  const header = lines[0].split(',');
  assert.equal(header.length, 129);
  assert.equal(header[0], 'position \\ dimension');
  assert.equal(header[128], '127');
  const table = sinusoidalTable({ seqLen: 128, dModel: 128 });
  lines.slice(1).forEach((line, r) => {
    const cells = line.split(',');
    assert.equal(cells[0], String(r));
    cells.slice(1).forEach((cell, c) => {
      assert.equal(Math.fround(Number(cell)), table[r * 128 + c], `row ${r} col ${c}`);
    });
  });
  // Another section's heatmap exports its own matrix.
  const other = await download('relative-distance', 'csv');
  const dots = peDotProducts({ seqLen: 128, dModel: 64 });
  const rows = readFileSync(other.path, 'utf8').trimEnd().split('\n');
  assert.equal(rows.length, 129);
  assert.equal(Math.fround(Number(rows[11].split(',')[1])), dots[10 * 128]);
  assert.deepEqual(log.errors, []);
});
