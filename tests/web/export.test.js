// End-to-end: every heatmap exports its picture as PNG and its matrix as CSV (browser downloads).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { artifactPath, gotoAndSettle, openPage } from './support/browser.js';
import { colorAt, scaleIndex } from './support/colors.js';
import { peDotProducts, sinusoidalTable } from './support/reference.js';
import { usePageSession } from './support/session.js';

const session = usePageSession({ acceptDownloads: true });
let browser;
let server;
let page;
let log;
before(async () => ({ browser, server, page, log } = await session));

/** Downloads a figure's export from the lesson, or from `view` (another open page). */
async function download(plot, kind, view = page) {
  const [file] = await Promise.all([
    view.waitForEvent('download'),
    view.locator(`figure[data-plot="${plot}"] button.export-${kind}`).click(),
  ]);
  const target = artifactPath(file.suggestedFilename());
  await file.saveAs(target);
  return { name: file.suggestedFilename(), path: target };
}

/**
 * A downloaded PNG read back in the page: its size, the pixels at the centres of the given cells
 * of the figure's heatmap (drawn where the page shows them, at 2 or more image pixels per CSS
 * pixel and at least one per cell, inside an 8-px margin: the export's contract), and how many
 * dark pixels the title
 * strip and the y-axis strip hold.
 */
async function readFigurePng(path, plot, cells) {
  const base64 = readFileSync(path).toString('base64');
  return page.evaluate(
    async ({ base64, plot, cells }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${base64}`;
      await image.decode();
      const canvas = new OffscreenCanvas(image.width, image.height);
      const context = canvas.getContext('2d');
      context.drawImage(image, 0, 0);
      // The figure, on the page or in an element's shadow root (the posenc elements' figures).
      const selector = `figure[data-plot="${plot}"]`;
      const figure =
        document.querySelector(selector) ??
        [...document.querySelectorAll('*')].map((node) => node.shadowRoot?.querySelector(selector)).find(Boolean);
      const cellsCanvas = figure.querySelector('canvas.heatmap-cells');
      const origin = figure.getBoundingClientRect();
      const box = cellsCanvas.getBoundingClientRect();
      const scale = Math.max(2, cellsCanvas.width / box.width, cellsCanvas.height / box.height);
      const block = [(box.width * scale) / cellsCanvas.width, (box.height * scale) / cellsCanvas.height];
      const at = (x, y) => [...context.getImageData(Math.floor(x), Math.floor(y), 1, 1).data.slice(0, 3)];
      const margin = 8 * scale; // the export's margin all round
      const left = (box.left - origin.left) * scale + margin;
      const top = (box.top - origin.top) * scale + margin;
      const dark = (x0, y0, x1, y1) => {
        const { data } = context.getImageData(x0, y0, x1 - x0, y1 - y0);
        let count = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i] + data[i + 1] + data[i + 2] < 450) count++; // text, not white
        return count;
      };
      return {
        width: image.width,
        height: image.height,
        block,
        cells: cells.map(([r, c]) => at(left + (c + 0.5) * block[0], top + (r + 0.5) * block[1])),
        titleInk: dark(0, 0, image.width, Math.floor(top) - 2),
        leftInk: dark(0, Math.floor(top), Math.floor(left) - 2, Math.floor(top + box.height * scale)),
        figureWidth: origin.width,
      };
    },
    { base64, plot, cells },
  );
}

test('PNG export: the figure with its title, axes and colour bar; cells as equal blocks, colours as drawn', async () => {
  const { name, path } = await download('sinusoidal-table', 'png');
  assert.equal(name, 'posenc-sinusoidal-table.png');
  const cells = [
    [0, 0],
    [1, 0],
    [5, 3],
    [64, 100],
    [127, 127],
  ];
  const png = await readFigurePng(path, 'sinusoidal-table', cells);
  assert.ok(
    png.block.every((b) => b >= 2),
    `${png.block} pixels per cell`,
  );
  assert.ok(png.width >= 2 * png.figureWidth * 0.9, `${png.width} px wide for a ${png.figureWidth}-px figure`);
  const table = sinusoidalTable({ seqLen: 128, dModel: 128 });
  cells.forEach(([r, c], i) => {
    const expected = colorAt('diverging', scaleIndex(table[r * 128 + c], -1, 1));
    assert.ok(
      png.cells[i].every((v, k) => Math.abs(v - expected[k]) <= 2),
      `cell (${r}, ${c}): ${png.cells[i]} vs ${expected}`,
    );
  });
  assert.ok(png.titleInk > 100, `title drawn (${png.titleInk} dark pixels)`);
  assert.ok(png.leftInk > 100, `y axis ticks and label drawn (${png.leftInk} dark pixels)`);
});

test('line plots export too: PNG of the figure, CSV of every series', async () => {
  // The single dimensions' curves are the companion's.
  const companion = await openPage(browser, { acceptDownloads: true });
  await gotoAndSettle(companion.page, server.companionUrl);
  const { name, path } = await download('sinusoidal-dimensions', 'png', companion.page);
  assert.equal(name, 'posenc-sinusoidal-dimensions.png');
  assert.deepEqual([...readFileSync(path).subarray(0, 4)], [137, 80, 78, 71]);
  const csv = await download('sinusoidal-dimensions', 'csv', companion.page);
  const lines = readFileSync(csv.path, 'utf8').trimEnd().split('\n');
  assert.equal(lines[0], 'series,position,PE value');
  const table = sinusoidalTable({ seqLen: 128, dModel: 128 });
  const rows = lines.slice(1).map((line) => line.split(','));
  const labels = [...new Set(rows.map(([label]) => label))];
  assert.equal(labels.length, 4, labels.join(' | '));
  const first = rows.filter(([label]) => label === labels[0]);
  assert.equal(first.length, 128);
  for (const [, x, y] of first) assert.equal(Math.fround(Number(y)), table[Number(x) * 128]);
  assert.deepEqual(companion.log.errors, []);
  await companion.context.close();
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
