/**
 * The other sources read as their tools mean them (docs/FORMATS.md): last activity is the session's last record, not
 * its first. Transcripts are written here from the formats.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { ampSource } from '../../src/core/ingest/sources/amp.js';
import { geminiSource } from '../../src/core/ingest/sources/gemini.js';
import { kimiSource } from '../../src/core/ingest/sources/kimi.js';
import { copilotCliSource } from '../../src/core/ingest/sources/copilot-cli.js';
import { openCodeSource } from '../../src/core/ingest/sources/opencode.js';
import { openHandsSource } from '../../src/core/ingest/sources/openhands.js';
import { requestTurns } from '../../src/core/ingest/sources/copilot-chat.js';
import { isPrompt } from '../../src/core/model.js';
import { writeDatabase } from '../helpers-sqlite.js';
import { MemoryLogger } from '../../src/core/log.js';
import type { SourceAdapter } from '../../src/core/ingest/sources/types.js';
import { ROOT, tempDir, writeFile } from '../helpers.js';

const ctx = { logger: new MemoryLogger(), env: {} };
const jsonl = (records: object[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
async function readOne(source: SourceAdapter, root: string, file: string) {
  const [session] = await source.readFile(file, root, ctx);
  assert.ok(session, `${file} gives a session`);
  return session;
}

test("last activity: Amp's traces' end, Gemini CLI's last record or $set, Kimi's turn end", async () => {
  const amp = tempDir();
  const thread = {
    id: 'T-1',
    created: Date.parse('2026-03-02T09:00:00Z'),
    title: 'Cache the rates',
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'cache the exchange rates' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Caching them for an hour.' }] },
    ],
    meta: { traces: [{ name: 'agent', startTime: '2026-03-02T09:00:01Z', endTime: '2026-03-02T09:14:30Z' }] },
  };
  const a = await readOne(ampSource, amp, writeFile(join(amp, 'threads', 'T-1.json'), JSON.stringify(thread)));
  assert.equal(a.updated, '2026-03-02T09:14:30.000Z');

  const gemini = tempDir();
  const chat = jsonl([
    { sessionId: 'g1', projectHash: 'p', startTime: '2026-03-02T09:00:00Z', lastUpdated: '2026-03-02T09:00:00Z' },
    { id: 'm1', type: 'user', content: [{ text: 'why is the build slow?' }], timestamp: '2026-03-02T09:00:05Z' },
    { id: 'm2', type: 'gemini', content: 'The cache is cold.', timestamp: '2026-03-02T09:00:09Z' },
    { id: 'm3', type: 'user', content: [{ text: 'warm it in CI' }], timestamp: '2026-03-02T09:20:00Z' },
    { $set: { lastUpdated: '2026-03-02T09:21:00Z' } },
  ]);
  const g = await readOne(geminiSource, gemini, writeFile(join(gemini, 'p', 'chats', 'session-2026-03-02T09-00-g1.jsonl'), chat));
  assert.equal(g.updated, '2026-03-02T09:21:00.000Z');

  const kimiRoot = join(ROOT, 'test', 'fixtures', 'kimi', '.kimi', 'sessions');
  const wire = join(kimiRoot, '3f2a9c', 'b8e1d2c4-5a6b-4c7d-8e9f-0a1b2c3d4e5f', 'wire.jsonl');
  const k = await readOne(kimiSource, kimiRoot, wire);
  assert.equal(k.updated, new Date(1762502406.0 * 1000).toISOString(), "the turn's end (TurnEnd), after its last part");
});

test("Copilot CLI: the name in workspace.yaml is the title; a skill's context message is a note, not a prompt", async () => {
  const root = tempDir();
  const id = '5b1c2d3e-0000-4000-8000-0000000000aa';
  const events = jsonl([
    { type: 'session.start', timestamp: '2026-03-02T09:00:00Z', data: { sessionId: id, context: { cwd: '/home/dev/shop' } } },
    {
      type: 'user.message',
      timestamp: '2026-03-02T09:00:01Z',
      data: { content: '<skill-context name="release">Steps to cut a release…</skill-context>', source: 'skill-release' },
    },
    { type: 'user.message', timestamp: '2026-03-02T09:00:02Z', data: { content: 'cut the 2.4 release' } },
    { type: 'assistant.message', timestamp: '2026-03-02T09:00:05Z', data: { content: 'Tagged v2.4.0.' } },
  ]);
  const file = writeFile(join(root, id, 'events.jsonl'), events);
  writeFile(join(root, id, 'workspace.yaml'), `id: ${id}\ncwd: /home/dev/shop\nname: "Release 2.4"\nsummary: cut the release\n`);
  const s = await readOne(copilotCliSource, root, file);
  assert.equal(s.topic, 'Release 2.4');
  assert.deepEqual(
    s.turns.filter(isPrompt).map((t) => t.text),
    ['cut the 2.4 release'],
  );
  assert.ok(s.turns.some((t) => t.kind === 'note' && /Steps to cut a release/.test(t.text)));
});

test("OpenCode's database: an empty directory takes its project's worktree; a placeholder title gives way to the first prompt", async () => {
  const root = tempDir();
  const file = join(root, 'opencode.db');
  await writeDatabase(file, (db) => {
    db.run('CREATE TABLE project (id TEXT, worktree TEXT, data TEXT)');
    db.run('CREATE TABLE session (id TEXT, project_id TEXT, title TEXT, directory TEXT, parent_id TEXT, data TEXT)');
    db.run('CREATE TABLE message (id TEXT, session_id TEXT, data TEXT)');
    db.run('CREATE TABLE part (id TEXT, message_id TEXT, data TEXT)');
    db.run("INSERT INTO project VALUES ('p1', '/home/dev/shop', '{}')");
    db.run("INSERT INTO session VALUES ('ses_1', 'p1', 'New session - 2026-03-02T09:00:00.000Z', '', NULL, '{}')");
    db.run(`INSERT INTO message VALUES ('m1', 'ses_1', '${JSON.stringify({ role: 'user', time: { created: 1772442000000 } })}')`);
    db.run(`INSERT INTO part VALUES ('pt1', 'm1', '${JSON.stringify({ type: 'text', text: 'speed up the checkout page' })}')`);
    db.run(`INSERT INTO message VALUES ('m2', 'ses_1', '${JSON.stringify({ role: 'assistant', time: { created: 1772442005000 } })}')`);
    db.run(`INSERT INTO part VALUES ('pt2', 'm2', '${JSON.stringify({ type: 'text', text: 'Lazy-loading the images.' })}')`);
  });
  const s = await readOne(openCodeSource, root, file);
  assert.equal(s.project, '/home/dev/shop');
  assert.equal(s.topic, 'speed up the checkout page');
});

test("OpenHands (v1 events): the project comes from an observation's working_dir where the state names none", async () => {
  const root = tempDir();
  const dir = join(root, 'conversations', 'c1');
  const file = writeFile(join(dir, 'base_state.json'), JSON.stringify({ id: 'c1' }));
  writeFile(
    join(dir, 'events', 'event-00000.json'),
    JSON.stringify({
      kind: 'MessageEvent',
      timestamp: '2026-03-02T09:00:00Z',
      llm_message: { role: 'user', content: [{ type: 'text', text: 'list the failing tests' }] },
    }),
  );
  writeFile(
    join(dir, 'events', 'event-00001.json'),
    JSON.stringify({
      kind: 'ObservationEvent',
      timestamp: '2026-03-02T09:00:03Z',
      tool_name: 'terminal',
      observation: { content: [{ type: 'text', text: '2 failed' }], metadata: { working_dir: '/workspace/shop' } },
    }),
  );
  const s = await readOne(openHandsSource, root, file);
  assert.equal(s.project, '/workspace/shop');
});

test('Copilot Chat: a tool call without an invocation message is kept, a terminal tool shows its command, an inline reference its full path', () => {
  const turns = requestTurns({
    timestamp: 1772442000000,
    message: { text: 'why does the build fail?' },
    response: [
      { kind: 'markdownContent', content: { value: 'The config lives in ' } },
      {
        kind: 'inlineReference',
        name: 'vite.config.ts',
        inlineReference: { scheme: 'file', fsPath: '/home/dev/shop/vite.config.ts', path: '/home/dev/shop/vite.config.ts' },
      },
      { kind: 'toolInvocationSerialized', toolId: 'copilot_findFiles', isComplete: true },
      {
        kind: 'toolInvocationSerialized',
        toolId: 'run_in_terminal',
        invocationMessage: 'Running in terminal',
        toolSpecificData: { kind: 'terminal', commandLine: { original: 'npm run build -- --mode production' }, language: 'sh' },
      },
      { kind: 'toolInvocationSerialized', toolId: 'run_in_terminal', toolSpecificData: { kind: 'terminal', command: 'npx tsc --noEmit' } },
    ],
  });
  assert.match(turns.find((t) => t.role === 'assistant')?.text ?? '', /`\/home\/dev\/shop\/vite\.config\.ts`/);
  const tools = turns.filter((t) => t.role === 'tool');
  assert.deepEqual(
    tools.map((t) => t.tool),
    ['copilot_findFiles', 'run_in_terminal', 'run_in_terminal'],
  );
  assert.ok(tools[0].text.trim(), 'a call without a message says which tool it was');
  assert.match(tools[1].text, /\$ npm run build -- --mode production/);
  assert.match(tools[2].text, /\$ npx tsc --noEmit/);
});
