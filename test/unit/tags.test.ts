/**
 * Tags: what a person gives a session (kept in the data folder, surviving a rebuild and seen by another process) and
 * what a session carries by itself (topics, source, project, branch); filters in search, list and context search.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { createLibrary } from '../../src/core/library.js';
import { MemoryLogger } from '../../src/core/log.js';
import { normalizeTag } from '../../src/core/store/tags.js';
import { sessionTopics } from '../../src/core/ingest/topics.js';
import { closeTracked, openTracked, tempDir, writeCodeArchitect } from '../helpers.js';

// (the libraries a test opened with openTracked are closed after it, whether it passed or not)
afterEach(closeTracked);

function corpus(): string {
  const root = tempDir();
  writeCodeArchitect(root, '2026-03-01', 'pool-sizing', [
    { role: 'user', content: 'Our Postgres database runs out of connections; should we use pgbouncer?' },
    { role: 'assistant', content: 'We decided on pgbouncer in transaction mode: the database keeps 20 connections.' },
  ]);
  writeCodeArchitect(root, '2026-03-02', 'flaky-dates', [
    { role: 'user', content: 'The date tests are flaky on Mondays, fix the test' },
    { role: 'assistant', content: 'The test used weekday(); the tests pass now.' },
  ]);
  return root;
}

test('a tag is lower case with dashes; empty, over 50 characters, "/" and control characters are refused with the reason', () => {
  assert.equal(normalizeTag('  Architecture Decision '), 'architecture-decision');
  assert.throws(() => normalizeTag(' '), /cannot be empty/);
  assert.throws(() => normalizeTag('x'.repeat(50 * 1024)), /longer than 50 characters/);
  assert.throws(() => normalizeTag('db/postgres'), /holds "\/"/);
  assert.throws(() => normalizeTag('bell\u0007'), /control characters/);
});

test('topics come from what was said, not from tool output; a topic word in the title counts twice', () => {
  const turn = (text: string, kind: 'conversation' | 'tool' = 'conversation') => ({ id: 'x#0', role: 'user' as const, kind, text });
  assert.deepEqual(sessionTopics('misc', [turn('the postgres database is slow'), turn('postgres index missing')]).slice(0, 2), ['database', 'postgresql']);
  assert.deepEqual(sessionTopics('misc', [turn('docker docker docker docker', 'tool')]), []);
  assert.ok(sessionTopics('Flaky tests', [turn('hello')]).includes('testing'));
});

test('a session with no topics is not read again for them: a tag filter after a restart reads none of its turns', async () => {
  const root = corpus();
  writeCodeArchitect(root, '2026-03-03', 'greeting', [
    { role: 'user', content: 'hello there, nothing to see' },
    { role: 'assistant', content: 'hello again' },
  ]);
  const data = join(tempDir(), 'data');
  const open = async () => {
    const library = openTracked({ roots: [{ source: 'codearchitect', path: root }], dataDir: data, logger: new MemoryLogger(), env: {} });
    await library.load();
    return library;
  };
  const cold = await open();
  const greeting = [...cold.sessions.values()].find((s) => s.topic.includes('greeting'))!;
  assert.deepEqual(greeting.topics, [], 'none found when it was read, and kept as none');
  await cold.close();
  const warm = await open();
  const read: string[] = [];
  const all = warm.turns.all.bind(warm.turns);
  warm.turns.all = (s) => {
    read.push(s.id);
    return all(s);
  };
  assert.equal(warm.search('hello', { tags: ['testing'] }).count, 0);
  assert.equal(warm.search('flaky', { tags: ['testing'] }).count, 1);
  assert.ok(!read.includes(greeting.id), `read again: ${read.join(', ')}`);
});

test('tags given to a session filter search and list, survive a rebuild, and reach another library on the same data folder', async () => {
  const root = corpus();
  const data = join(tempDir(), 'data');
  const roots = [{ source: 'codearchitect' as const, path: root }];
  const a = createLibrary({ roots, logger: new MemoryLogger(), env: {}, dataDir: data });
  await a.load();
  const pool = a.search('pgbouncer').results[0];
  assert.ok(pool.tags?.includes('database') && pool.tags.includes('codearchitect'), pool.tags?.join());
  const b = createLibrary({ roots, logger: new MemoryLogger(), env: {}, dataDir: data, snapshot: false });
  await b.load();
  const given = await a.tag(pool.id, ['Decision', 'infra']);
  assert.deepEqual(given.tags, ['decision', 'infra']);
  assert.ok(
    existsSync(join(data, 'tags.json')) && !readFileSync(join(root, '2026-03-01', 'pool-sizing', 'full.md'), 'utf8').includes('decision'.toUpperCase()),
  );
  assert.deepEqual(
    a.search('connections OR tests', { tags: ['decision'] }).results.map((r) => r.id),
    [pool.id],
  );
  assert.deepEqual(
    a.list({ tags: ['infra', 'database'], allTags: true }).sessions.map((s) => s.id),
    [pool.id],
  );
  assert.equal(a.list({ tags: ['infra', 'testing'], allTags: true }).count, 0, 'with allTags, every tag must be carried');
  // as the seed reads tags: any of them, and the more of them a session carries, the higher it ranks
  const anyOf = a.list({ tags: ['infra', 'testing'] }).sessions.map((s) => s.filename);
  assert.ok(anyOf.includes('pool-sizing') && anyOf.includes('flaky-dates'), anyOf.join());
  const ranked = a.search('connections OR tests OR dates', { tags: ['decision', 'infra', 'testing'] }).results;
  assert.equal(ranked[0].id, pool.id, 'two of the tags rank above one');
  assert.ok(ranked.length > 1 && ranked.every((r, i) => i === 0 || r.relevanceScore <= ranked[i - 1].relevanceScore));
  // the seed's own example: blocks tagged database answer tags ["database", "architecture"]
  const blocks = a.searchContext('pgbouncer pool', { tags: ['database', 'architecture'], limit: 10, threshold: 0 }).results;
  assert.ok(blocks.length > 0 && blocks.every((b) => b.tags.includes('database') || b.tags.includes('architecture')));
  assert.equal(a.searchContext('pgbouncer pool', { tags: ['database', 'architecture'], allTags: true, limit: 10, threshold: 0 }).results.length, 0);
  assert.ok(
    a.list({ tags: ['testing'] }).sessions.some((s) => s.filename === 'flaky-dates'),
    'a derived topic filters too',
  );
  await new Promise((resolve) => setTimeout(resolve, 600)); // another process sees the file change on its next look
  assert.deepEqual(
    b.list({ tags: ['decision'] }).sessions.map((s) => s.id),
    [pool.id],
  );
  await Promise.all([a.close(), b.close()]);
  // a rebuild (no snapshot, every transcript read again) keeps what a person gave
  const c = createLibrary({ roots, logger: new MemoryLogger(), env: {}, dataDir: data, snapshot: false, archive: false });
  await c.load();
  assert.deepEqual(c.userTags(), [
    { tag: 'decision', sessions: 1 },
    { tag: 'infra', sessions: 1 },
  ]);
  assert.deepEqual((await c.untag(pool.id, ['decision'])).tags, ['infra']);
  await assert.rejects(() => c.tag('codearchitect:nothing-here', ['x']), /nothing-here/);
  await assert.rejects(() => c.tag(pool.id, []), /at least one tag/);
  await c.close();
});
