/** One builder of session-search: URIs: the server's text form and the reader's parts name the same session. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sessionIdFromQuery, sessionUriParts, sessionUriString } from '../../src/session-uri.js';

test('a session URI names the session by id and shows a file-name-safe title, whatever the title holds', () => {
  const id = 'claude-code:7f3e/äb#c?d';
  const title = 'Fix: the "flaky" test / on 50% of runs?';
  const parts = sessionUriParts(id, title);
  assert.equal(parts.path, '/claude-code/Fix the flaky test on 50 of runs.md');
  assert.equal(sessionIdFromQuery(parts.query), id);
  const text = sessionUriString(id, title);
  const url = new URL(text);
  assert.equal(url.protocol, 'session-search:');
  assert.equal(decodeURIComponent(url.pathname), parts.path);
  assert.equal(sessionIdFromQuery(url.search.slice(1)), id);
  assert.equal(sessionUriParts(id, '   ').path, '/claude-code/session.md');
});
