/**
 * Goose, Kimi CLI, Factory Droid, Crush, OpenHands, Kiro CLI and Gemini's Google Takeout, on samples written for them
 * (test/fixtures; the SQLite stores are built here with the engine that reads them). What a user checks: titles,
 * roles, turn counts, project, dates, tool calls and their output, malformed records skipped with a reason.
 */
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openCore, type LibraryCore } from '../../src/core/library/open.js';
import { MemoryLogger } from '../../src/core/log.js';
import type { Session } from '../../src/core/model.js';
import { exportKind } from '../../src/core/ingest/imports.js';
import { loadLibrary, ROOT, tempDir } from '../helpers.js';
import { writeDatabase } from '../helpers-sqlite.js';

const FIXTURES = join(ROOT, 'test', 'fixtures');
const shape = (library: LibraryCore, s: Session): string[] => library.turns.all(s).map((t) => `${t.role}/${t.kind}${t.tool ? `/${t.tool}` : ''}`);
const byId = (sessions: Iterable<Session>): Session[] => [...sessions].sort((a, b) => a.id.localeCompare(b.id));

test('Goose (session file): metadata line gives project and title; hidden messages, signatures and a cut last line are left out', async () => {
  const { library, logger } = await loadLibrary([{ source: 'goose', path: join(FIXTURES, 'goose', 'sessions') }]);
  const [s] = [...library.sessions.values()];
  assert.equal(library.sessions.size, 1);
  assert.equal(s.id, 'goose:20251104_183012');
  assert.equal(s.topic, 'Cache the forecast API responses');
  assert.equal(s.project, '/home/dev/weather');
  assert.equal(s.created, '2025-11-04T18:30:12.000Z');
  assert.deepEqual(shape(library, s), [
    'user/conversation',
    'assistant/thinking',
    'assistant/conversation',
    'assistant/file/developer__text_editor',
    'tool/file/developer__text_editor',
    'assistant/tool/developer__shell',
    'tool/tool/developer__shell',
    'assistant/conversation',
  ]);
  assert.match(library.turns.all(s)[4].text, /requests\.get\(API \+ city\)/);
  assert.equal(library.turns.all(s)[6].text, '[error] pytest: command not found');
  assert.ok(!library.turns.all(s).some((t) => /internal summary|c2lnbmF0dXJl/.test(t.text)));
  assert.ok(
    logger.lines.some((l) => /20251104_183012\.jsonl:9/.test(l)),
    'the unfinished last line is named',
  );
  await library.close();
});

test('Goose (sessions.db): sessions with their working folder, name, dates and messages in order', async () => {
  const root = tempDir();
  await writeDatabase(join(root, 'sessions.db'), (db) => {
    db.run(
      `CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT, description TEXT, working_dir TEXT, created_at TEXT, updated_at TEXT, parent_session_id TEXT)`,
    );
    db.run(
      `CREATE TABLE messages (id INTEGER PRIMARY KEY, message_id TEXT, session_id TEXT, role TEXT, content_json TEXT, created_timestamp INTEGER, timestamp TEXT, tokens INTEGER, metadata_json TEXT)`,
    );
    db.run(`INSERT INTO sessions VALUES ('20260105_1', 'Postgres pool exhaustion', '', '/home/dev/api', '2026-01-05 09:00:00', '2026-01-05 09:10:00', NULL)`);
    db.run(`INSERT INTO sessions VALUES ('20260105_2', '', 'empty one', '/home/dev/api', '2026-01-05 10:00:00', '2026-01-05 10:00:00', NULL)`);
    const msg = (id: number, role: string, content: unknown[], at: number) =>
      db.run(`INSERT INTO messages VALUES (?, ?, '20260105_1', ?, ?, ?, '', 0, '{}')`, [id, `m${id}`, role, JSON.stringify(content), at]);
    msg(2, 'assistant', [{ type: 'text', text: 'The pool has 10 connections and each request holds one for its whole life.' }], 1767603610);
    msg(1, 'user', [{ type: 'text', text: 'Why do we run out of Postgres connections under load?' }], 1767603600);
  });
  const { library } = await loadLibrary([{ source: 'goose', path: root }]);
  assert.deepEqual([...library.sessions.keys()], ['goose:20260105_1']);
  const s = library.sessions.get('goose:20260105_1')!;
  assert.equal(s.topic, 'Postgres pool exhaustion');
  assert.equal(s.project, '/home/dev/api');
  assert.deepEqual(shape(library, s), ['user/conversation', 'assistant/conversation']);
  assert.equal(library.turns.all(s)[0].timestamp, '2026-01-05T09:00:00.000Z');
  await library.close();
});

test('Kimi CLI: both layouts; parts of one reply become one turn; tool calls and results; a bad line is skipped', async () => {
  const { library, logger } = await loadLibrary([
    { source: 'kimi', path: join(FIXTURES, 'kimi', '.kimi', 'sessions') },
    { source: 'kimi', path: join(FIXTURES, 'kimi', '.kimi-code', 'sessions') },
  ]);
  const [legacy, code] = byId(library.sessions.values()).sort((a) => (a.project ? 1 : -1));
  assert.equal(library.sessions.size, 2);
  assert.equal(legacy.id, 'kimi:b8e1d2c4-5a6b-4c7d-8e9f-0a1b2c3d4e5f');
  assert.equal(legacy.topic, 'Why does the migration drop the invoices index?');
  assert.equal(legacy.created, '2025-11-07T08:00:00.250Z');
  assert.deepEqual(shape(library, legacy), [
    'user/conversation',
    'assistant/thinking',
    'assistant/conversation',
    'assistant/file/ReadFile',
    'tool/file/ReadFile',
    'assistant/conversation',
  ]);
  assert.equal(library.turns.all(legacy)[5].text, 'It drops ix_invoices_customer before recreating it\nwith the composite key; the drop is intended.');
  assert.ok(logger.lines.some((l) => /^warn .*wire\.jsonl:12: skipped/.test(l)));
  assert.equal(code.id, 'kimi:7d1e:main');
  assert.equal(code.project, 'ledger');
  assert.deepEqual(shape(library, code), ['user/conversation', 'assistant/tool/Shell', 'tool/tool/Shell', 'assistant/conversation']);
  assert.equal(library.turns.all(code)[2].text, 'usage: ledger import FILE');
  await library.close();
});

test('Factory Droid: title and folder from session_start; thinking, a search and an edit with their results', async () => {
  const { library, logger } = await loadLibrary([{ source: 'droid', path: join(FIXTURES, 'droid', 'sessions') }]);
  const [s] = [...library.sessions.values()];
  assert.equal(library.sessions.size, 1);
  assert.equal(s.id, 'droid:4c2d9e7a-1b3f-4a5e-9c8d-7e6f5a4b3c2d');
  assert.equal(s.topic, 'Flaky upload test on CI');
  assert.equal(s.project, '/home/dev/atlas');
  assert.equal(s.updated, '2026-09-14T09:00:30.000Z');
  assert.deepEqual(shape(library, s), [
    'user/conversation',
    'assistant/thinking',
    'assistant/conversation',
    'assistant/file/Grep',
    'tool/file/Grep',
    'assistant/diff/Edit',
    'tool/diff/Edit',
    'assistant/conversation',
  ]);
  assert.match(library.turns.all(s)[4].text, /time\.Sleep\(50/);
  assert.ok(logger.lines.some((l) => /\.jsonl:9/.test(l)));
  await library.close();
});

test('Crush: every session of a project store, titled, with reasoning, tool calls, results and its project folder', async () => {
  const project = tempDir();
  const file = join(project, '.crush', 'crush.db');
  await writeDatabase(file, (db) => {
    db.run(`CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT, message_count INTEGER, created_at INTEGER, updated_at INTEGER)`);
    db.run(`CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT, role TEXT, parts TEXT, model TEXT, created_at INTEGER, updated_at INTEGER)`);
    db.run(`INSERT INTO sessions VALUES ('s1', NULL, 'Slow image thumbnails', 4, 1760000000, 1760000300)`);
    const parts = (...p: unknown[]) => JSON.stringify(p);
    const add = (id: string, role: string, p: string, at: number) => db.run(`INSERT INTO messages VALUES (?, 's1', ?, ?, '', ?, ?)`, [id, role, p, at, at]);
    add('m1', 'user', parts({ type: 'text', data: { text: 'Thumbnails take two seconds each, make them faster' } }), 1760000000);
    add(
      'm2',
      'assistant',
      parts(
        { type: 'reasoning', data: { thinking: 'Probably resized at full quality.' } },
        { type: 'tool_call', data: { id: 'call_1', name: 'view', input: '{"file_path":"thumbs.go"}' } },
        { type: 'finish', data: { reason: 'tool_use' } },
      ),
      1760000010,
    );
    add(
      'm3',
      'tool',
      parts({ type: 'tool_result', data: { tool_call_id: 'call_1', name: 'view', content: 'img.Resize(w, h, imaging.Lanczos)', is_error: false } }),
      1760000011,
    );
    add('m4', 'assistant', parts({ type: 'text', data: { text: 'Switched the filter from Lanczos to Box for thumbnails.' } }), 1760000300);
  });
  const { library } = await loadLibrary([{ source: 'crush', path: project }]);
  const s = library.sessions.get('crush:s1')!;
  assert.equal(library.sessions.size, 1);
  assert.equal(s.topic, 'Slow image thumbnails');
  assert.equal(s.project, project);
  assert.equal(s.created, '2025-10-09T08:53:20.000Z');
  assert.deepEqual(shape(library, s), ['user/conversation', 'assistant/thinking', 'assistant/file/view', 'tool/file/view', 'assistant/conversation']);
  assert.equal(library.turns.all(s)[3].text, 'img.Resize(w, h, imaging.Lanczos)');
  await library.close();
});

test('OpenHands: a conversation folder read through base_state.json and its events; a damaged event is named', async () => {
  const { library, logger } = await loadLibrary([{ source: 'openhands', path: join(FIXTURES, 'openhands', 'conversations') }]);
  const [s] = [...library.sessions.values()];
  assert.equal(library.sessions.size, 1);
  assert.equal(s.id, 'openhands:9c0ffee1-2222-4333-8444-555566667777');
  assert.equal(s.project, '/home/dev/shopfront');
  assert.equal(s.topic, 'The checkout button does nothing on Safari, fix it');
  assert.deepEqual(shape(library, s), [
    'user/conversation',
    'assistant/conversation',
    'assistant/file/file_editor',
    'tool/file/file_editor',
    'assistant/tool/terminal',
    'tool/tool/terminal',
    'assistant/conversation',
  ]);
  assert.match(library.turns.all(s)[5].text, /PASS checkout\.test\.js/);
  assert.ok(!library.turns.all(s).some((t) => /You are OpenHands agent/.test(t.text)), 'the system prompt is not a turn');
  assert.ok(logger.lines.some((l) => /^warn .*event-00007-h8\.json: skipped/.test(l)));
  await library.close();
});

test('Kiro CLI: both line shapes; title, folder and dates from the sidecar; edits as diffs', async () => {
  const { library, logger } = await loadLibrary([{ source: 'kiro', path: join(FIXTURES, 'kiro', 'sessions') }]);
  const [a, b] = byId(library.sessions.values());
  assert.equal(library.sessions.size, 2);
  assert.equal(a.id, 'kiro:0f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a');
  assert.equal(a.topic, 'Rename retries config key');
  assert.equal(a.project, '/home/dev/queue');
  assert.equal(a.created, '2026-07-21T10:00:00.000Z');
  assert.deepEqual(shape(library, a), [
    'user/conversation',
    'assistant/conversation',
    'assistant/file/grep',
    'tool/file/grep',
    'assistant/diff/write',
    'tool/diff/write',
    'assistant/conversation',
  ]);
  assert.match(library.turns.all(a)[3].text, /retries: 3/);
  assert.ok(logger.lines.some((l) => /0f8e7d6c.*\.jsonl:7/.test(l)));
  assert.deepEqual(shape(library, b), ['user/conversation', 'assistant/file/read', 'tool/file/read', 'assistant/conversation']);
  assert.equal(b.created, '2026-07-22T08:00:00.000Z');
  await library.close();
});

test('Gemini Takeout: prompts grouped by day, answers as text (no markup, entities decoded), other activity skipped', async () => {
  const file = join(FIXTURES, 'gemini-takeout', 'MyActivity.json');
  assert.equal(await exportKind(file), 'gemini-takeout');
  const before = readFileSync(file, 'utf8');
  const { library } = await loadLibrary([{ source: 'gemini-takeout', path: file }]);
  const [feb, mar] = byId(library.sessions.values());
  assert.equal(library.sessions.size, 2);
  assert.equal(mar.id, 'gemini-takeout:2025-03-04');
  assert.equal(mar.topic, 'write a regex for ISO dates');
  assert.deepEqual(shape(library, mar), ['user/conversation', 'assistant/conversation', 'user/conversation', 'assistant/conversation']);
  assert.equal(library.turns.all(mar)[1].text, '^\\d{4}-\\d{2}-\\d{2}$\nIt does not check that the day exists <e.g. 02-30>.');
  assert.match(library.turns.all(mar)[3].text, /- --hard discards them & cannot be undone/);
  assert.equal(library.turns.all(feb)[1].text, 'A set that answers "maybe" or \'no\' in little memory.');
  assert.equal(library.search('bloom filter').results[0]?.id, feb.id);
  assert.equal(readFileSync(file, 'utf8'), before, 'the export is never written');
  await library.close();
});

test('Factory Droid: lines appended while it runs are read on the next reload', async () => {
  const root = tempDir();
  cpSync(join(FIXTURES, 'droid', 'sessions'), root, { recursive: true });
  const file = join(root, '-home-dev-atlas', '4c2d9e7a-1b3f-4a5e-9c8d-7e6f5a4b3c2d.jsonl');
  // the sample ends in a cut line: finish it as the tool would, then append a turn
  appendFileSync(
    file,
    `"x"}\n${JSON.stringify({ type: 'message', timestamp: '2026-09-14T09:01:00.000Z', message: { role: 'user', content: 'also run it 50 times' } })}\n`,
  );
  const library = openCore({ roots: [{ source: 'droid', path: root }], logger: new MemoryLogger(), env: {} });
  await library.load();
  const before = library.turns.all([...library.sessions.values()][0]).length;
  appendFileSync(
    file,
    `${JSON.stringify({ type: 'message', timestamp: '2026-09-14T09:02:00.000Z', message: { role: 'assistant', content: 'Ran it 50 times with -count=50: no failure.' } })}\n`,
  );
  await library.reloadFile(file);
  const after = [...library.sessions.values()][0];
  assert.equal(library.turns.all(after).length, before + 1);
  assert.equal(library.search('count=50 failure').results[0]?.id, after.id);
  await library.close();
});

test('Codex: a rollout compressed after a week idle (.jsonl.zst) is read; a plain file beside it wins, and when it goes the compressed one takes over', async () => {
  const root = tempDir();
  cpSync(join(FIXTURES, 'codex', 'sessions'), root, { recursive: true });
  const day = join(root, '2026', '09', '01');
  const compressed = join(day, 'rollout-2026-09-01T09-30-00-0199a000-1111-7222-8333-944455556666.jsonl.zst');
  const logger = new MemoryLogger();
  const library = openCore({ roots: [{ source: 'codex', path: root }], logger, env: {}, dataDir: join(root, '..', 'data') });
  await library.load();
  const s = library.sessions.get('codex:0199a000-1111-7222-8333-944455556666')!;
  assert.equal(s.file, compressed);
  assert.equal(s.project, '/home/dev/payroll');
  assert.equal(s.topic, 'overtime is paid at 1.25 instead of 1.5 on Sundays');
  assert.deepEqual(shape(library, s), ['user/conversation', 'assistant/tool/shell', 'tool/tool/shell', 'assistant/conversation']);
  assert.ok(
    logger.lines.some((l) => /\.jsonl\.zst:6: skipped/.test(l)),
    'a bad line inside the compressed file is named',
  );
  // the thread is resumed: Codex writes the plain file again, and it is the one read
  const plain = compressed.slice(0, -'.zst'.length);
  const resumed = `${JSON.stringify({ timestamp: '2026-09-09T10:00:00.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'and holidays too' } })}\n`;
  writeFileSync(plain, readFileSync(join(FIXTURES, 'codex', 'plain-head.jsonl'), 'utf8') + resumed);
  await library.reloadFile(plain);
  assert.equal(library.sessions.get(s.id)!.file, plain);
  assert.equal(library.search('holidays').results[0]?.id, s.id);
  // compressed again: the plain file is deleted, the session is read from the .zst and not marked deleted
  rmSync(plain);
  await library.reloadFile(plain);
  const after = library.sessions.get(s.id)!;
  assert.equal(after.file, compressed);
  assert.ok(!after.sourceDeleted);
  await library.close();
});

test('Zed: threads of threads.db, zstd-compressed and plain JSON; its placeholder name is no title; thinking, tool uses with their results (an error included)', async () => {
  const dir = join(tempDir(), 'threads');
  const compressed = readFileSync(join(FIXTURES, 'zed', 'thread.json.zst'));
  await writeDatabase(join(dir, 'threads.db'), (db) => {
    db.run(
      'CREATE TABLE threads (id TEXT PRIMARY KEY, summary TEXT NOT NULL, updated_at TEXT NOT NULL, data_type TEXT NOT NULL, data BLOB NOT NULL, folder_paths TEXT, created_at TEXT)',
    );
    db.run('INSERT INTO threads VALUES (?, ?, ?, ?, ?, ?, ?)', [
      'a1b2',
      'Debounce the search box',
      '2026-06-02T10:05:00Z',
      'zstd',
      compressed,
      '/home/dev/notes',
      '2026-06-02T10:00:00Z',
    ]);
    const plain = {
      messages: [
        { User: { content: [{ Text: 'what is a thunk' }] } },
        { Agent: { content: [{ Text: 'A function that delays a computation.' }], tool_results: {} } },
      ],
    };
    db.run('INSERT INTO threads VALUES (?, ?, ?, ?, ?, ?, ?)', [
      'c3d4',
      '',
      '2026-06-03T09:00:00Z',
      'json',
      new TextEncoder().encode(JSON.stringify(plain)),
      null,
      null,
    ]);
    // Zed's own placeholder name for a thread it has not yet summarised is not a title.
    db.run('INSERT INTO threads VALUES (?, ?, ?, ?, ?, ?, ?)', [
      'g7h8',
      'New Thread',
      '2026-06-03T09:30:00Z',
      'json',
      new TextEncoder().encode(JSON.stringify({ ...plain, messages: [{ User: { content: [{ Text: 'why is the build slow' }] } }, plain.messages[1]] })),
      null,
      null,
    ]);
    db.run('INSERT INTO threads VALUES (?, ?, ?, ?, ?, ?, ?)', ['e5f6', 'broken', '2026-06-04T09:00:00Z', 'zstd', new Uint8Array([1, 2, 3]), null, null]);
  });
  const { library, logger } = await loadLibrary([{ source: 'zed', path: dir }]);
  assert.deepEqual([...library.sessions.keys()].sort(), ['zed:a1b2', 'zed:c3d4', 'zed:g7h8']);
  const s = library.sessions.get('zed:a1b2')!;
  assert.equal(s.topic, 'Debounce the search box');
  assert.equal(s.project, '/home/dev/notes');
  assert.equal(s.created, '2026-06-02T10:00:00.000Z');
  assert.deepEqual(shape(library, s), [
    'user/conversation',
    'assistant/thinking',
    'assistant/conversation',
    'assistant/file/read_file',
    'tool/file/read_file',
    'assistant/diff/edit_file',
    'tool/diff/edit_file',
    'assistant/conversation',
  ]);
  assert.match(library.turns.all(s)[6].text, /^\[error\] Some edits were produced/);
  assert.equal(library.sessions.get('zed:c3d4')!.topic, 'what is a thunk');
  assert.equal(library.sessions.get('zed:g7h8')!.topic, 'why is the build slow');
  assert.ok(logger.lines.some((l) => /^warn .*threads\.db: thread e5f6 skipped/.test(l)));
  await library.close();
});

test("exports as they arrive, zipped: ChatGPT's zip and a Google Takeout zip are recognised and read from inside, nothing extracted", async () => {
  const chatgpt = join(FIXTURES, 'chatgpt', 'chatgpt-export.zip');
  const takeout = join(FIXTURES, 'gemini-takeout', 'takeout-20250305T101500Z-001.zip');
  assert.equal(await exportKind(chatgpt), 'chatgpt');
  assert.equal(await exportKind(takeout), 'gemini-takeout');
  const plain = await loadLibrary([{ source: 'chatgpt', path: join(FIXTURES, 'chatgpt', 'conversations.json') }]);
  const zipped = await loadLibrary([
    { source: 'chatgpt', path: chatgpt },
    { source: 'gemini-takeout', path: takeout },
  ]);
  const ids = (l: typeof plain.library, source: string): string[] =>
    [...l.sessions.values()]
      .filter((s) => s.source === source)
      .map((s) => s.id)
      .sort();
  assert.deepEqual(ids(zipped.library, 'chatgpt'), ids(plain.library, 'chatgpt'));
  assert.ok(ids(zipped.library, 'chatgpt').length > 0);
  assert.deepEqual(
    ids(zipped.library, 'gemini-takeout'),
    ['gemini-takeout:2025-02-27', 'gemini-takeout:2025-03-04'],
    'Search activity in the same Takeout is not Gemini',
  );
  const first = [...plain.library.sessions.values()][0];
  assert.deepEqual(
    zipped.library.turns.all(zipped.library.sessions.get(first.id)!).map((t) => t.text),
    plain.library.turns.all(first).map((t) => t.text),
  );
  await Promise.all([plain.library.close(), zipped.library.close()]);
});
