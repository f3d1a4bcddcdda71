/** A piped command waiting for a load says so once, after the wait it is given (a wrong setting: the default wait). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { waitNotice } from '../../src/cli/output.js';

/** What `notice` writes to standard error while `run` calls it. */
function written(run: () => void): string[] {
  const lines: string[] = [];
  const original = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array) => (lines.push(String(chunk)), true)) as typeof process.stderr.write;
  try {
    run();
  } finally {
    process.stderr.write = original;
  }
  return lines;
}

test('with no wait set, a command says once how far the load is, with how to answer at once', () => {
  const notice = waitNotice('Ctrl+C stops the wait', { SESSION_SEARCH_WAIT_NOTICE_MS: '0' });
  const lines = written(() => {
    notice(1200, 10_000);
    notice(5000, 10_000);
  });
  assert.equal(lines.length, 1);
  assert.match(lines[0], /^session-search: waiting for the index: 1,200 of 10,000 files read so far; .*--partial.*Ctrl\+C stops the wait\)\n$/);
});

test('a load already complete is never announced', () => {
  const notice = waitNotice('x', { SESSION_SEARCH_WAIT_NOTICE_MS: '0' });
  assert.deepEqual(
    written(() => notice(10, 10)),
    [],
  );
});

test('a wrong or empty setting waits the default two seconds, not none', () => {
  for (const value of ['', 'soon', '-5', 'NaN', undefined]) {
    const notice = waitNotice('x', value === undefined ? {} : { SESSION_SEARCH_WAIT_NOTICE_MS: value });
    assert.deepEqual(
      written(() => notice(1, 10)),
      [],
      `SESSION_SEARCH_WAIT_NOTICE_MS=${String(value)}`,
    );
  }
});
