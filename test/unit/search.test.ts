/** Search behaviour a user relies on, on hand-made CodeArchitect folders whose content we control. */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { SessionSearchError } from '../../src/core/errors.js';
import { join } from 'node:path';
import { loadLibrary, tempDir, writeCodeArchitect, writeFile } from '../helpers.js';
import { openCore, type LibraryCore } from '../../src/core/library/open.js';
import { MemoryLogger } from '../../src/core/log.js';

let library: LibraryCore;
const LONG = 'lorem ipsum dolor sit amet '.repeat(30);

before(async () => {
  const root = tempDir();
  writeCodeArchitect(root, '2025-11-18', 'authentication-implementation', [
    { role: 'user', content: 'How should we add login?' },
    { role: 'assistant', content: 'Use NextAuth.js with secure session cookies.' },
  ]);
  writeCodeArchitect(root, '2025-11-19', 'database-design', [
    { role: 'user', content: `${LONG} We talked about authentication once. ${LONG}` },
    { role: 'assistant', content: 'The schema uses PostgreSQL with a users table.' },
  ]);
  writeCodeArchitect(root, '2025-11-20', 'cache-layer', [
    { role: 'user', content: 'Redis or Memcached for the cache layer? Authentication tokens go there too.' },
    { role: 'assistant', content: 'Redis, with eviction policy allkeys-lru.' },
  ]);
  writeCodeArchitect(root, '2025-11-21', 'flaky-dates', [
    { role: 'user', content: 'why does test_dates fail on Mondays?' },
    { role: 'assistant', content: 'weekday() returns 0 on Monday, and the fixture assumed 1.' },
  ]);
  writeCodeArchitect(root, '2025-11-22', 'same-words-older', [{ role: 'user', content: 'kubernetes ingress timeout' }], '08:00:00.000Z');
  writeCodeArchitect(root, '2025-11-23', 'same-words-newer', [{ role: 'user', content: 'kubernetes ingress timeout' }], '08:00:00.000Z');
  writeCodeArchitect(
    root,
    '2025-11-24',
    'many-hits',
    [1, 2, 3, 4, 5].map((i) => ({ role: 'user', content: `zebra number ${i} ${LONG}` })),
  );
  ({ library } = await loadLibrary([{ source: 'codearchitect', path: root }]));
});

const topics = (query: string, options = {}) => library.search(query, options).results.map((r) => r.topic);

describe('ranking', () => {
  test('a topic match outranks content matches', () => {
    assert.equal(topics('authentication')[0], 'authentication-implementation');
    assert.deepEqual(new Set(topics('authentication')), new Set(['authentication-implementation', 'database-design', 'cache-layer']));
  });

  test('several words: sessions holding more of them rank higher, even when none holds all', () => {
    const ranked = topics('redis eviction weekday mondays fixture kubernetes');
    assert.ok(ranked.indexOf('flaky-dates') < ranked.indexOf('same-words-newer'), 'three words beat one');
    assert.ok(ranked.indexOf('cache-layer') < ranked.indexOf('same-words-newer'));
  });

  test('case-insensitive', () => {
    assert.deepEqual(topics('POSTGRESQL'), ['database-design']);
    assert.deepEqual(topics('PostgreSql'), topics('postgresql'));
  });

  test('equal relevance is ordered newest first', () => {
    assert.deepEqual(topics('kubernetes ingress'), ['same-words-newer', 'same-words-older']);
  });

  test('relevance is within 0–1 and ordered', () => {
    const scores = library.search('authentication tokens').results.map((r) => r.relevanceScore);
    assert.ok(scores.every((s) => s > 0 && s <= 1));
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => b - a),
    );
  });
});

describe('query syntax', () => {
  test('"quoted phrases" must appear word for word', () => {
    assert.deepEqual(topics('"fail on Mondays"'), ['flaky-dates']);
    assert.deepEqual(topics('"Mondays fail"'), []);
  });

  test('-word excludes', () => {
    assert.ok(!topics('authentication -redis').includes('cache-layer'));
    assert.ok(topics('authentication -redis').includes('database-design'));
  });

  test("an empty query is refused with the seed's error", () => {
    assert.throws(
      () => library.search('   '),
      (e: unknown) => e instanceof SessionSearchError && e.code === 'Search query is required',
    );
  });
});

describe('filters and result shape', () => {
  test('date and date range', () => {
    assert.deepEqual(topics('authentication', { date: '2025-11-19' }), ['database-design']);
    assert.deepEqual(new Set(topics('authentication', { dateFrom: '2025-11-19', dateTo: '2025-11-20' })), new Set(['database-design', 'cache-layer']));
    assert.throws(
      () => library.search('x', { date: '2025-02-30' }),
      (e: unknown) => e instanceof SessionSearchError && e.code === 'INVALID_DATE',
    );
    assert.throws(
      () => library.search('x', { dateFrom: '19-11-2025' }),
      (e: unknown) => e instanceof SessionSearchError && e.code === 'INVALID_DATE',
    );
  });

  test('limit', () => {
    assert.equal(library.search('authentication', { limit: 1 }).results.length, 1);
    assert.equal(library.search('authentication', { limit: 1 }).count, 1);
  });

  test('role: only matches in turns of that role count', () => {
    assert.deepEqual(topics('redis', { role: 'assistant' }), ['cache-layer']);
    assert.deepEqual(topics('memcached', { role: 'assistant' }), []);
  });

  test('at most 3 snippets, ~150 characters of context either side, … where cut, with the turn they came from', () => {
    const hit = library.search('zebra').results[0];
    assert.equal(hit.topic, 'many-hits');
    assert.equal(hit.matchedSnippets.length, 3);
    assert.equal(hit.snippetTurnIds.length, 3);
    assert.equal(new Set(hit.snippetTurnIds).size, 3);
    assert.ok(hit.matchCount >= 5);
    const cut = library.search('authentication', { date: '2025-11-19' }).results[0].matchedSnippets[0];
    assert.ok(cut.startsWith('…') && cut.endsWith('…'));
    assert.ok(cut.length > 200 && cut.length < 340, `snippet length ${cut.length}`);
    assert.match(cut, /authentication/);
  });

  test('every snippet and the title carry the ranges that matched, so screens mark them without tokenizing again', () => {
    const r = library.search('Redis cache').results.find((x) => x.topic === 'cache-layer')!;
    assert.deepEqual(
      r.topicHighlights.map(([a, b]) => r.topic.slice(a, b)),
      ['cache'],
    );
    assert.equal(r.snippetHighlights.length, r.matchedSnippets.length);
    r.matchedSnippets.forEach((text, i) => {
      const marked = r.snippetHighlights[i].map(([a, b]) => text.slice(a, b).toLowerCase());
      assert.ok(marked.length > 0, text);
      for (const m of marked) assert.ok(['redis', 'cache'].includes(m), `${m} in ${text}`);
    });
    const phrase = library.search('"eviction policy"').results[0];
    assert.deepEqual(
      phrase.snippetHighlights[0].map(([a, b]) => phrase.matchedSnippets[0].slice(a, b)),
      ['eviction policy'],
    );
  });

  test('a phrase with a limit finds as many sessions as it would without one, in the same order', () => {
    // "authentication" ranks sessions that lack the phrase first; the check runs on the best candidates and widens
    const all = topics('"authentication tokens" authentication');
    assert.deepEqual(all, ['cache-layer']);
    assert.deepEqual(topics('"authentication tokens" authentication', { limit: 1 }), all);
    const roles = topics('authentication', { role: 'user' });
    assert.deepEqual(topics('authentication', { role: 'user', limit: 2 }), roles.slice(0, 2));
  });

  test("the reader's turn window marks what the query matched", async () => {
    const id = library.search('weekday').results[0].id;
    const window = (await library.turnWindow(id, 0, 10, 'weekday monday'))!;
    assert.equal(window.turns.length, window.highlights.length);
    const marked = window.turns.flatMap((t, i) => window.highlights[i].map(([a, b]) => t.text.slice(a, b).toLowerCase()));
    // whole words and their other forms: "Mondays" in the question is a form of "monday", "Mon" is not
    assert.deepEqual(new Set(marked), new Set(['weekday', 'monday', 'mondays']));
    assert.deepEqual((await library.turnWindow(id, 0, 10))!.highlights.flat(), []);
  });

  test("the seed's fields are present", () => {
    const r = library.search('nextauth').results[0];
    for (const key of ['filename', 'topic', 'date', 'file', 'size', 'relevanceScore', 'matchedSnippets', 'matchCount', 'id', 'source'])
      assert.ok(key in r, key);
    assert.equal(r.filename, 'authentication-implementation');
    assert.equal(r.date, '2025-11-18T12:00:00.000Z');
    assert.ok(r.file.endsWith('full.md'));
  });
});

describe('get and list', () => {
  test('get by folder name prefers full.md; -summary.md and -full.md pick the file', async () => {
    const full = await library.get('cache-layer', { format: 'json' });
    assert.ok(full.session.file.endsWith('full.md'));
    assert.match(full.session.content, /Redis or Memcached/);
    const summary = await library.get('cache-layer-summary.md', { format: 'json' });
    assert.ok(summary.session.file.endsWith('summary.md'));
    assert.match(summary.session.content, /Summary of cache-layer/);
    assert.ok((await library.get('cache-layer-full.md')).session.file.endsWith('full.md'));
  });

  test('names that try to leave the root are refused as FILE_NOT_FOUND', async () => {
    for (const name of ['../etc/passwd', '/etc/passwd', '2025-11-18/../../x', 'C:\\Windows\\win.ini', 'nope\0']) {
      await assert.rejects(library.get(name), (e: unknown) => e instanceof SessionSearchError && e.code === 'FILE_NOT_FOUND', name);
    }
  });

  test('toon format encodes the messages and is smaller where it wins', async () => {
    const toon = await library.get('many-hits', { format: 'toon' });
    assert.equal(toon.session.format, 'toon');
    assert.match(toon.session.content, /^messages\[5\t?\]/);
    const auto = await library.get('many-hits', { format: 'auto' });
    assert.ok(['json', 'toon'].includes(auto.session.format));
  });

  test('list is newest first, filtered by date, limited', () => {
    const all = library.list();
    assert.equal(all.count, 7);
    assert.equal(all.sessions[0].topic, 'many-hits');
    assert.deepEqual(
      library.list({ date: '2025-11-20' }).sessions.map((s) => s.topic),
      ['cache-layer'],
    );
    assert.equal(library.list({ limit: 2 }).sessions.length, 2);
  });
});

test('title prefix search finds sessions as the user types', () => {
  assert.deepEqual(
    library.suggestTitles('authent').map((s) => s.topic),
    ['authentication-implementation'],
  );
  assert.deepEqual(
    library.suggestTitles('flaky da').map((s) => s.topic),
    ['flaky-dates'],
  );
  assert.deepEqual(library.suggestTitles('zzzq'), []);
});

test('a project filter finds the git worktrees of the same repository too', async () => {
  const dir = tempDir();
  const repo = join(dir, 'shop');
  const worktree = join(dir, 'shop-feature');
  writeFile(join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  writeFile(join(worktree, '.git'), `gitdir: ${join(repo, '.git', 'worktrees', 'shop-feature')}\n`);
  const line = (id: string, cwd: string, text: string): string =>
    `${JSON.stringify({ type: 'user', uuid: `${id}-1`, sessionId: id, cwd, timestamp: '2026-03-02T09:15:00.000Z', message: { role: 'user', content: text } })}\n`;
  const other = join(dir, 'elsewhere');
  writeFile(
    join(dir, 'claude', 'a', '11111111-1111-4111-8111-111111111111.jsonl'),
    line('11111111-1111-4111-8111-111111111111', repo, 'checkout flow in main'),
  );
  writeFile(
    join(dir, 'claude', 'b', '22222222-2222-4222-8222-222222222222.jsonl'),
    line('22222222-2222-4222-8222-222222222222', worktree, 'checkout flow in the worktree'),
  );
  writeFile(
    join(dir, 'claude', 'c', '33333333-3333-4333-8333-333333333333.jsonl'),
    line('33333333-3333-4333-8333-333333333333', other, 'checkout flow elsewhere'),
  );
  const { library: lib } = await loadLibrary([{ source: 'claude-code', path: join(dir, 'claude') }]);
  const projects = (filter: string) =>
    lib
      .search('checkout', { project: filter })
      .results.map((r) => r.project)
      .sort();
  assert.deepEqual(projects(repo), [repo, worktree]);
  assert.deepEqual(projects(worktree), [repo, worktree]);
  assert.deepEqual(projects(other), [other]);
  // exact: only that worktree, in search and list
  assert.deepEqual(
    lib.search('checkout', { project: worktree, projectScope: 'exact' }).results.map((r) => r.project),
    [worktree],
  );
  assert.deepEqual(
    lib.list({ project: repo, projectScope: 'exact' }).sessions.map((s) => s.project),
    [repo],
  );
});

test('exclude patterns and the size limit keep files out, and say so', async () => {
  const root = tempDir();
  writeCodeArchitect(root, '2025-01-01', 'kept-topic', [{ role: 'user', content: 'wombatine kept' }]);
  writeCodeArchitect(root, '2025-01-02', 'scratch-topic', [{ role: 'user', content: 'wombatine excluded' }]);
  writeCodeArchitect(root, '2025-01-03', 'huge-topic', [{ role: 'user', content: `wombatine ${'x '.repeat(5000)}` }]);
  const logger = new MemoryLogger();
  const lib = openCore({ roots: [{ source: 'codearchitect', path: root }], logger, env: {}, exclude: ['**/scratch-topic/**'], maxFileBytes: 4096 });
  await lib.load();
  assert.deepEqual(
    lib.search('wombatine').results.map((r) => r.topic),
    ['kept-topic'],
  );
  assert.ok(logger.lines.some((l) => l.includes('huge-topic') && l.includes('over the configured limit')));
});

test('the branch filter isolates one branch in search and list', async () => {
  const root = tempDir();
  const write = (id: string, branch: string): void => {
    const line = (uuid: string, role: 'user' | 'assistant', text: string): string =>
      JSON.stringify({
        type: role,
        uuid,
        sessionId: id,
        cwd: '/home/dev/shop',
        gitBranch: branch,
        timestamp: '2025-06-01T10:00:00Z',
        message: { role, content: text },
      });
    writeFile(join(root, 'shop', `${id}.jsonl`), `${line('u1', 'user', 'fix the flaky wombatcheckout test')}\n${line('a1', 'assistant', 'done')}\n`);
  };
  write('aaaaaaaa-0000-4000-8000-000000000001', 'main');
  write('aaaaaaaa-0000-4000-8000-000000000002', 'feature/pay');
  const { library } = await loadLibrary([{ source: 'claude-code', path: root }]);
  assert.equal(library.search('wombatcheckout').count, 2);
  const onFeature = library.search('wombatcheckout', { branch: 'feature/pay' });
  assert.deepEqual(
    onFeature.results.map((r) => r.branch),
    ['feature/pay'],
  );
  assert.deepEqual(
    library.list({ branch: 'main' }).sessions.map((s) => s.id),
    ['claude-code:aaaaaaaa-0000-4000-8000-000000000001'],
  );
  assert.equal(library.search('wombatcheckout', { branch: 'nope' }).count, 0);
  await library.close();
});
