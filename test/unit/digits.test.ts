import assert from 'node:assert/strict';
import { test } from 'node:test';
import { grouped } from '../../src/core/digits.js';

test('grouped writes every whole number as en-US does, without Intl', () => {
  const edges = [0, 1, -1, 999, 1000, -1000, 999_999, 1_000_000, 12_345_678, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
  let seed = 7;
  const random = (): number => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const sample = Array.from({ length: 2000 }, () => Math.round((random() - 0.3) * 10 ** Math.floor(random() * 16)) + 0); // (+ 0: no -0, which Intl writes "-0")
  for (const n of [...edges, ...sample]) assert.equal(grouped(n), n.toLocaleString('en-US'), String(n));
  // (a number that is not a whole one is left to Intl)
  assert.equal(grouped(1234.5), (1234.5).toLocaleString('en-US'));
});
