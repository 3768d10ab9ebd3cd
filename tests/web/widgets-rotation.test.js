// <posenc-rotation> on the widgets gallery: it draws the pair a float64 rotation puts there,
// redraws on attribute changes, reports bad attributes inside itself without throwing, reads
// positions out by keyboard, sends its events, exports PNG and CSV, follows dark mode, passes axe
// and fits a phone.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { waitForIdle } from './support/browser.js';
import { useGallerySession } from './support/session.js';
import { changesFrom, galleryElementChecks, pngOf, problemsAfter, recordPicks } from './support/gallery.js';

const SELECTOR = '#gallery-rotation';

/** The pair (x_a, x_b) rotated to position p, in float64 from the rotation matrix (not posenc). */
function reference(p, { pair, dModel, base = 10000, values: [xa, xb] }) {
  const theta = p / base ** ((2 * pair) / dModel);
  return [xa * Math.cos(theta) - xb * Math.sin(theta), xa * Math.sin(theta) + xb * Math.cos(theta)];
}

const session = useGallerySession();
let page;
let log;
before(async () => ({ page, log } = await session));

/** The drawn arrows and the CSV path against the reference; the channels the pair sits in. */
async function checkRotation(settings, channels) {
  const arrows = await page
    .locator(`${SELECTOR} g.arrow`)
    .evaluateAll((nodes) => nodes.map((n) => ({ role: n.dataset.role, to: n.dataset.to.split(',').map(Number) })));
  const [xa, xb] = settings.values;
  assert.deepEqual(arrows[0], { role: 'original', to: [xa, xb] });
  assert.equal(arrows[1].role, 'rotated');
  const expected = reference(settings.position, settings);
  for (const [i, v] of arrows[1].to.entries()) {
    assert.ok(Math.abs(v - expected[i]) <= 2e-6, `rotated[${i}]: ${v} vs ${expected[i]}`);
  }
  const csv = await page.locator(SELECTOR).evaluate((node) => node.toCSV());
  const lines = csv.trim().split('\n');
  assert.equal(lines[0], `position,x_${channels[0]},x_${channels[1]}`);
  assert.equal(lines.length, settings.position + 2);
  for (const line of lines.slice(1)) {
    const [p, a, b] = line.split(',').map(Number);
    const [ea, eb] = reference(p, settings);
    assert.ok(Math.abs(a - ea) <= 2e-6 && Math.abs(b - eb) <= 2e-6, `position ${p}: (${a}, ${b}) vs (${ea}, ${eb})`);
  }
}

test('draws the rotation of its attributes, as a float64 reference computes it', async () => {
  await checkRotation({ position: 12, dModel: 16, pair: 1, values: [1, 0.5] }, [2, 3]);
  assert.deepEqual(log.errors, []);
});

test('redraws on attribute changes (once), says so with posenc-change, and describes the rotation', async () => {
  const changes = await changesFrom(page, SELECTOR, {
    position: '700',
    base: '500',
    'd-model': '40',
    pair: '7',
    'pair-values': '-2, 3',
    layout: 'half',
  });
  assert.deepEqual(changes, [{ position: 700, base: 500, dModel: 40, pair: 7, pairValues: [-2, 3], layout: 'half' }]);
  const settings = { position: 700, base: 500, dModel: 40, pair: 7, values: [-2, 3] };
  // The half layout pairs channel i with i + d/2.
  await checkRotation(settings, [7, 27]);
  const label = await page.locator(`${SELECTOR} .plot-area`).getAttribute('aria-label');
  const theta = 700 / 500 ** (14 / 40);
  assert.match(label, /^Pair i = 7 \(channels 7 and 27\): \(-2, 3\) rotated by /);
  assert.ok(label.includes(`rotated by ${theta.toPrecision(4)} rad`), `${label} (θ = ${theta})`);
  assert.match(label, /Length 3\.6056 before, 3\.6056 after/);
  // A pair beyond d-model / 2 is lowered to the last one; properties are the settings too.
  await page.locator(SELECTOR).evaluate((node) => {
    node.dModel = 8;
    node.layout = 'interleaved';
    node.position = 5;
  });
  await waitForIdle(page);
  assert.equal(await page.locator(SELECTOR).getAttribute('pair'), '3');
  await checkRotation({ position: 5, base: 500, dModel: 8, pair: 3, values: [-2, 3] }, [6, 7]);
});

test('bad attributes and properties: a message inside, one warning, an event, never a throw', async () => {
  const { thrown, names, message } = await problemsAfter(page, SELECTOR, [
    { attribute: 'pair-values', value: '1' },
    { attribute: 'pair-values', value: '1' },
    { attribute: 'position', value: '5000' },
    { attribute: 'layout', value: 'neox' },
    { property: 'pairValues', value: [1, Number.NaN] },
  ]);
  assert.equal(thrown, null);
  assert.deepEqual(names, ['pair-values', 'pair-values', 'position', 'layout', 'pair-values']);
  assert.match(message, /position="5000" .*; using 1000\./);
  assert.match(message, /layout="neox" is not one of interleaved, half/);
  assert.match(
    message,
    /pairValues = \[1, NaN\] \(an array\) cannot be used \(it holds something that is not a number\); it stays 1,0\.5/,
  );
  assert.equal(log.warnings.filter((text) => text.includes('pair-values="1"')).length, 1);
  await checkRotation({ position: 1000, base: 500, dModel: 8, pair: 3, values: [1, 0.5] }, [6, 7]);
  await page.locator(SELECTOR).evaluate((node) => {
    for (const [name, value] of Object.entries({
      position: '12',
      base: '10000',
      'd-model': '16',
      pair: '1',
      'pair-values': '1, 0.5',
      layout: 'interleaved',
    }))
      node.setAttribute(name, value);
    node.pairValues = [1, 0.5];
  });
  await waitForIdle(page);
  assert.equal(await page.locator(`${SELECTOR} [part~="message"]`).isHidden(), true);
  assert.deepEqual(log.errors, []);
});

test('keyboard read-out and posenc-pick along the path', async () => {
  const lastPick = await recordPicks(page, SELECTOR);
  const area = page.locator(`${SELECTOR} .plot-area`);
  await area.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const readout = await page.locator(`${SELECTOR} [part~="readout"]`).textContent();
  const settings = { pair: 1, dModel: 16, values: [1, 0.5] };
  const [ea, eb] = reference(2, settings);
  assert.match(readout, /^position 2: angle 0\.6324\d* rad, x_2 = /);
  const last = await lastPick();
  assert.equal(last.position, 2);
  assert.ok(Math.abs(last.angle - 2 / 10000 ** (2 / 16)) <= 1e-12);
  assert.ok(Math.abs(last.values[0] - ea) <= 2e-6 && Math.abs(last.values[1] - eb) <= 2e-6, JSON.stringify(last));
  assert.equal(await page.locator('#gallery-pick').textContent(), readout);
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal((await lastPick()).position, 5);
  for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
  assert.equal((await lastPick()).position, 12, 'stops at the last position');
  await area.blur();
  assert.equal(await lastPick(), null);
});

test('toPNG: a PNG of the plot; toCSV: the path, one row per position', async () => {
  const png = await pngOf(page, SELECTOR);
  assert.equal(png.type, 'image/png');
  assert.ok(png.width >= 200 && png.height >= 200, JSON.stringify(png));
  const csv = await page.locator(SELECTOR).evaluate((node) => node.toCSV());
  assert.deepEqual(csv.split('\n').slice(0, 2), ['position,x_2,x_3', '0,1,0.5']);
});

galleryElementChecks(session, { selector: SELECTOR, section: '#rotation' });
