// The page's number formatting (web/src/format.js) in Node.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ordinal } from '../../web/src/format.js';

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
