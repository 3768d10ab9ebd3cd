// The page's number formatting (widgets/format.js) in Node.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatSigText, formatTicks, ordinal, quantity, withMinus } from '../../widgets/format.js';

test('ordinal: English suffixes, the teens included', () => {
  const got = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 61, 101, 111, 112, 1000].map(ordinal);
  assert.deepEqual(got, [
    '1st',
    '2nd',
    '3rd',
    '4th',
    '11th',
    '12th',
    '13th',
    '21st',
    '22nd',
    '23rd',
    '61st',
    '101st',
    '111th',
    '112th',
    '1000th',
  ]);
});

test('formatTicks: one style per axis, the minus sign, no mixed 5000 / 1e4', () => {
  assert.deepEqual(formatTicks([0, 5000, 10000, 15000]), ['0', '5000', '10000', '15000']);
  assert.deepEqual(formatTicks([-1, -0.5, 0, 0.5, 1]), ['−1', '−0.5', '0', '0.5', '1']);
  assert.deepEqual(formatTicks([0, 0.25, 0.5, 0.75]), ['0', '0.25', '0.5', '0.75']);
  assert.deepEqual(formatTicks([0, 5e5, 1e6, 1.5e6]), ['0', '5e5', '1e6', '1.5e6']);
  assert.deepEqual(formatTicks([1, 10, 100, 1000, 1e4]), ['1', '10', '100', '1000', '10000']);
  assert.deepEqual(formatTicks([1e-4, 2e-4, 3e-4]), ['1e−4', '2e−4', '3e−4']);
  assert.deepEqual(formatTicks([-3.25, 1.5]), ['−3.25', '1.5']);
});

test('withMinus: numbers in running text take the minus sign; words, ranges and subtraction keep theirs', () => {
  assert.equal(withMinus('values from -0.425 to 8.3'), 'values from −0.425 to 8.3');
  assert.equal(withMinus('(-0.8, 0.9) and -5'), '(−0.8, 0.9) and −5');
  assert.equal(withMinus('error 2.1e-7, -.5'), 'error 2.1e−7, −.5');
  assert.equal(withMinus('cat-dog, x-1, a - b, 1e-5'), 'cat-dog, x-1, a - b, 1e−5');
  assert.equal(formatSigText(-0.42521234, 4), '−0.4252');
  assert.equal(formatSigText(-2.1e-7, 3), '−2.1e−7');
  assert.equal(formatSigText(0.5), '0.5');
});

test('quantity: singular for ±1, the minus sign, plural otherwise (zero included)', () => {
  assert.deepEqual(
    [
      [-1, 'row'],
      [1, 'row'],
      [0, 'column'],
      [15, 'column'],
      [-2, 'row'],
      [1, 'token'],
    ].map(([n, unit]) => quantity(n, unit)),
    ['−1 row', '1 row', '0 columns', '15 columns', '−2 rows', '1 token'],
  );
});
