/**
 * The sources added in the second wave, on samples written for them (test/fixtures): GitHub Copilot CLI, Amp,
 * Continue, and the ChatGPT and Claude.ai exports. What a user checks: titles, roles, turn counts, project, dates,
 * tool calls and their output, and that the files are never written.
 */
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openCore, type LibraryCore } from '../../src/core/library/open.js';
import { MemoryLogger } from '../../src/core/log.js';
import type { Session } from '../../src/core/model.js';
import { addImport, exportKind } from '../../src/core/ingest/imports.js';
import { loadLibrary, ROOT, tempDir } from '../helpers.js';

const FIXTURES = join(ROOT, 'test', 'fixtures');
const shape = (library: LibraryCore, s: Session): string[] => library.turns.all(s).map((t) => `${t.role}/${t.kind}${t.tool ? `/${t.tool}` : ''}`);

test('GitHub Copilot CLI: events.jsonl with its project, branch, reasoning, tool call and output; a bad line is skipped', async () => {
  const { library, logger } = await loadLibrary([{ source: 'copilot-cli', path: join(FIXTURES, 'copilot-cli', 'session-state') }]);
  const [s] = [...library.sessions.values()];
  assert.equal(library.sessions.size, 1);
  assert.equal(s.id, 'copilot-cli:5b1c2d3e-0000-4000-8000-000000000001');
  assert.equal(s.topic, 'Invoice totals are off by a cent when VAT is applied, find out why');
  assert.equal(s.project, '/home/dev/billing');
  assert.equal(s.branch, 'fix/rounding');
  assert.equal(s.created, '2026-10-02T08:00:00.000Z');
  assert.deepEqual(shape(library, s), [
    'user/conversation',
    'assistant/thinking',
    'assistant/conversation',
    'assistant/file/view',
    'tool/file/view',
    'assistant/conversation',
  ]);
  assert.match(library.turns.all(s)[4].text, /net \* 1\.21/);
  assert.ok(
    logger.lines.some((l) => /^warn .*events\.jsonl:10: skipped/.test(l)),
    'the malformed line is named',
  );
  await library.close();
});

test('GitHub Copilot CLI: turns appended while it runs are read on the next reload', async () => {
  const root = tempDir();
  cpSync(join(FIXTURES, 'copilot-cli', 'session-state'), root, { recursive: true });
  const file = join(root, '5b1c2d3e-0000-4000-8000-000000000001', 'events.jsonl');
  const library = openCore({ roots: [{ source: 'copilot-cli', path: root }], logger: new MemoryLogger(), env: {} });
  await library.load();
  const before = library.turns.all([...library.sessions.values()][0]).length;
  appendFileSync(file, `${JSON.stringify({ type: 'user.message', timestamp: '2026-10-02T08:05:00.000Z', data: { content: 'now add a test for 0.005' } })}\n`);
  await library.reloadFile(file);
  const after = [...library.sessions.values()][0];
  assert.equal(library.turns.all(after).length, before + 1);
  assert.equal(library.turns.all(after).at(-1)!.text, 'now add a test for 0.005');
  assert.equal(library.search('0.005 test').results[0]?.id, after.id);
  await library.close();
});

test('Amp: a thread with its title, project, thinking, tool calls and results (an error result included)', async () => {
  const { library } = await loadLibrary([{ source: 'amp', path: join(FIXTURES, 'amp', 'threads') }]);
  const [s] = [...library.sessions.values()];
  assert.equal(s.id, 'amp:T-7f3a9c1e-2b4d-4e6f-8a1b-3c5d7e9f0a12');
  assert.equal(s.topic, 'Speed up the search index build');
  assert.equal(s.project, '/home/dev/indexer');
  assert.equal(s.created, '2025-10-09T08:00:00.000Z');
  assert.deepEqual(shape(library, s), [
    'user/conversation',
    'assistant/thinking',
    'assistant/conversation',
    'assistant/tool/Bash',
    'tool/tool/Bash',
    'assistant/diff/edit_file',
    'assistant/conversation',
    'tool/diff/edit_file',
  ]);
  assert.equal(library.turns.all(s)[4].text, 'tokenize 71% of samples');
  assert.equal(library.turns.all(s)[7].text, 'file changed on disk');
  assert.equal(library.turns.all(s)[6].timestamp, '2025-10-09T08:09:00.000Z');
  await library.close();
});

test('Continue: a session with its workspace, context files, thinking, tool call and output, dated from sessions.json', async () => {
  const { library } = await loadLibrary([{ source: 'continue', path: join(FIXTURES, 'continue', 'sessions') }]);
  assert.equal(library.sessions.size, 1, 'sessions.json is an index, not a session');
  const [s] = [...library.sessions.values()];
  assert.equal(s.topic, 'Retry webhooks with backoff');
  assert.equal(s.project, '/home/dev/hooks');
  assert.equal(s.created, new Date(1760436000000).toISOString());
  assert.deepEqual(shape(library, s), [
    'user/conversation',
    'tool/file/deliver.ts',
    'assistant/thinking',
    'assistant/conversation',
    'assistant/tool/edit_existing_file',
    'tool/tool/edit_existing_file',
    'assistant/conversation',
  ]);
  await library.close();
});

test('ChatGPT export: every conversation, the branch it shows (a regenerated answer left out), thoughts as thinking', async () => {
  const { library } = await loadLibrary([{ source: 'chatgpt', path: join(FIXTURES, 'chatgpt') }]);
  const pool = library.sessions.get('chatgpt:68bb1a2c-0000-8000-9000-aaaaaaaaaaaa')!;
  assert.equal(library.sessions.size, 2);
  assert.equal(pool.topic, 'Postgres connection pool sizing');
  assert.deepEqual(shape(library, pool), ['user/conversation', 'assistant/thinking', 'assistant/conversation']);
  assert.ok(!library.turns.all(pool).some((t) => t.text.includes('abandoned')), 'the regenerated answer is not on the shown branch');
  assert.equal(pool.created, new Date(1757065200500).toISOString());
  assert.equal(library.turns.all(library.sessions.get('chatgpt:68bc6b80-0000-8000-9000-bbbbbbbbbbbb')!).length, 2);
  await library.close();
});

test('Claude.ai export: conversations with attachments and thinking; an empty conversation is left out', async () => {
  const { library } = await loadLibrary([{ source: 'claude-ai', path: join(FIXTURES, 'claude-ai') }]);
  assert.equal(library.sessions.size, 1);
  const [s] = [...library.sessions.values()];
  assert.equal(s.topic, 'Flaky date test on Mondays');
  assert.deepEqual(shape(library, s), ['user/conversation', 'user/file/test.log', 'assistant/thinking', 'assistant/conversation']);
  assert.equal(s.created, '2025-07-14T09:30:00.000Z');
  await library.close();
});

test('import: an export is recognised by its content, recorded in the data folder, read and archived; the export is never written', async () => {
  assert.equal(await exportKind(join(FIXTURES, 'chatgpt', 'conversations.json')), 'chatgpt');
  assert.equal(await exportKind(join(FIXTURES, 'claude-ai', 'conversations.json')), 'claude-ai');
  assert.equal(await exportKind(join(FIXTURES, 'amp', 'threads', 'T-7f3a9c1e-2b4d-4e6f-8a1b-3c5d7e9f0a12.json')), undefined);
  const dataDir = tempDir();
  const exportDir = tempDir();
  cpSync(join(FIXTURES, 'claude-ai', 'conversations.json'), join(exportDir, 'conversations.json'));
  const before = readFileSync(join(exportDir, 'conversations.json'));
  const first = await addImport(dataDir, exportDir);
  assert.deepEqual(
    first.added.map((r) => r.source),
    ['claude-ai'],
  );
  assert.equal((await addImport(dataDir, join(exportDir, 'conversations.json'))).added.length, 0, 'importing twice adds nothing');
  await assert.rejects(addImport(dataDir, join(FIXTURES, 'amp')), /no export found/);
  const library = openCore({ roots: [], dataDir, logger: new MemoryLogger(), env: {} });
  await library.load();
  assert.equal([...library.sessions.values()][0]?.topic, 'Flaky date test on Mondays');
  assert.equal(library.search('weekStart Monday').results[0]?.source, 'claude-ai');
  await library.close();
  assert.deepEqual(readFileSync(join(exportDir, 'conversations.json')), before);
});

test('Qwen Code: a chat log with its project, thought, tool call and its response; telemetry records are skipped', async () => {
  const { library } = await loadLibrary([{ source: 'qwen', path: join(FIXTURES, 'qwen', 'projects') }]);
  const [s] = [...library.sessions.values()];
  assert.equal(s.id, 'qwen:4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a7b');
  assert.equal(s.topic, 'The --json flag prints nothing when stdout is a pipe');
  assert.equal(s.project, '/home/dev/cli');
  assert.equal(s.created, '2025-11-03T14:00:00.000Z');
  assert.deepEqual(shape(library, s), ['user/conversation', 'assistant/thinking', 'assistant/file/read_file', 'tool/file/read_file', 'assistant/conversation']);
  assert.match(library.turns.all(s)[3].text, /process\.exit\(0\)/);
  await library.close();
});
