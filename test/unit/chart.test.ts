/** The panel's chart of matching sessions per day (webview/chart.ts): which days get a bar, and in what order. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chartDays } from '../../webview/chart.js';

test('a short span gets every day, empty days included, oldest first', () => {
  const bars = chartDays(['2026-11-03', '2026-11-01', '2026-11-03', 'not a date', '']);
  assert.deepEqual(bars, [
    { day: '2026-11-01', count: 1 },
    { day: '2026-11-02', count: 0 },
    { day: '2026-11-03', count: 2 },
  ]);
});

test('a long span keeps the latest 60 days that have matches', () => {
  const days = Array.from({ length: 200 }, (_, i) => new Date(Date.UTC(2025, 0, 1) + i * 3 * 86_400_000).toISOString().slice(0, 10));
  const bars = chartDays([...days, days[199]]);
  assert.equal(bars.length, 60);
  assert.equal(bars[59].day, days[199]);
  assert.equal(bars[59].count, 2);
  assert.equal(bars[0].day, days[140]);
  assert.ok(bars.every((b) => b.count > 0));
});

test('no dates, no bars', () => {
  assert.deepEqual(chartDays([]), []);
});
