/** Gemini CLI, OpenCode, SpecStory and Aider: real samples and a fixture for each trap of their formats. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { firstPrompt } from '../../src/core/model.js';
import { CORPUS, loadLibrary, tempDir, writeFile } from '../helpers.js';
import { writeDatabase } from '../helpers-sqlite.js';

const all = (lib: Awaited<ReturnType<typeof loadLibrary>>['library']) => [...lib.sessions.values()];

describe('Gemini CLI', () => {
  test('real .json sessions: prompts, replies, thoughts and tool calls; logs.json adds nothing they hold', async () => {
    const { library } = await loadLibrary([{ source: 'gemini', path: join(CORPUS, 'gemini') }]);
    const real = library.sessions.get('gemini:37b7abef-713d-4522-85f0-8ff15a4e6d17')!;
    assert.equal(real.topic, 'show tools');
    assert.equal(real.created, '2026-01-16T11:01:22.281Z');
    assert.equal(real.updated, '2026-01-16T12:34:29.824Z');
    assert.ok(library.turns.all(real).some((t) => t.role === 'tool'));
    assert.equal(all(library).filter((s) => s.nativeId === '5b959dae-8655-4cd1-b10f-720b8c336ea2').length, 1, 'logs.json does not duplicate a chat');
    const edge = library.sessions.get('gemini:test-timestamp-mismatch')!;
    assert.equal(firstPrompt(edge), 'show tools');
  });

  test('.jsonl: the last copy of a message wins, $set names the session, $rewindTo drops; .project_root gives the project', async () => {
    const tmp = join(tempDir(), 'tmp');
    writeFile(join(tmp, 'shop', '.project_root'), '/home/dev/shop\n');
    const lines = [
      { sessionId: 'g-1', projectHash: 'shop', startTime: '2026-05-04T10:00:00.000Z', lastUpdated: '2026-05-04T10:00:00.000Z', kind: 'main' },
      { id: 'u1', timestamp: '2026-05-04T10:00:05.000Z', type: 'user', content: [{ text: 'why does test_dates fail on Mondays?' }] },
      { id: 'g1', timestamp: '2026-05-04T10:00:09.000Z', type: 'gemini', content: 'first draft' },
      {
        id: 'g1',
        timestamp: '2026-05-04T10:00:09.000Z',
        type: 'gemini',
        content: 'weekday() is 0 on Monday',
        thoughts: [{ subject: 'Checking weekday logic', description: 'Monday is 0' }],
        toolCalls: [
          {
            id: 'r1',
            name: 'read_file',
            args: { file_path: 'tests/test_dates.py' },
            result: [{ functionResponse: { id: 'r1', name: 'read_file', response: { output: 'import datetime' } } }],
          },
        ],
      },
      { id: 'u2', timestamp: '2026-05-04T10:01:00.000Z', type: 'user', content: 'a prompt that was rewound' },
      { $rewindTo: 'u2' },
      { $set: { lastUpdated: '2026-05-04T10:00:10.001Z', summary: 'Monday date test failure' } },
    ];
    writeFile(join(tmp, 'shop', 'chats', 'session-2026-05-04T10-00-g1.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n{"id":"torn');
    const { library } = await loadLibrary([{ source: 'gemini', path: tmp }]);
    const s = library.sessions.get('gemini:g-1')!;
    assert.equal(s.topic, 'Monday date test failure');
    assert.equal(s.project, '/home/dev/shop');
    assert.deepEqual(
      library.turns.all(s).map((t) => t.text),
      [
        'why does test_dates fail on Mondays?',
        'Checking weekday logic: Monday is 0',
        'weekday() is 0 on Monday',
        'read_file {"file_path":"tests/test_dates.py"}',
        'import datetime',
      ],
    );
    assert.deepEqual(
      library.turns.all(s).map((t) => t.kind),
      ['conversation', 'thinking', 'conversation', 'file', 'file'],
    );
  });
});

describe('OpenCode', () => {
  test('the JSON storage layout: session, messages and parts', async () => {
    const { library } = await loadLibrary([{ source: 'opencode', path: join(CORPUS, 'opencode') }]);
    const s = library.sessions.get('opencode:test-session-1')!;
    assert.equal(s.project, '/test/project');
    assert.equal(firstPrompt(s), 'Create a test file with console.log statements');
    assert.ok(library.turns.all(s).some((t) => t.kind === 'diff' && t.tool === 'Write'));
    assert.ok(library.turns.all(s).some((t) => t.kind === 'file' && t.tool === 'Read'));
    assert.equal(s.created, new Date(1737979200000).toISOString());
  });

  test('the opencode.db SQLite database', async () => {
    const dir = tempDir();
    await writeDatabase(join(dir, 'opencode.db'), (db) => {
      db.run('CREATE TABLE session (id TEXT PRIMARY KEY, parent_id TEXT, title TEXT, directory TEXT, data TEXT)');
      db.run('CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, data TEXT)');
      db.run('CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT, session_id TEXT, data TEXT)');
      db.run('INSERT INTO session VALUES (?, ?, ?, ?, ?)', [
        'ses_1',
        null,
        'Flaky Monday test',
        '/home/dev/shop',
        JSON.stringify({ time: { created: 1772442900000, updated: 1772443000000 } }),
      ]);
      db.run('INSERT INTO message VALUES (?, ?, ?)', ['msg_1', 'ses_1', JSON.stringify({ role: 'user', time: { created: 1772442900000 } })]);
      db.run('INSERT INTO message VALUES (?, ?, ?)', ['msg_2', 'ses_1', JSON.stringify({ role: 'assistant', time: { created: 1772442910000 } })]);
      db.run('INSERT INTO part VALUES (?, ?, ?, ?)', [
        'prt_1',
        'msg_1',
        'ses_1',
        JSON.stringify({ type: 'text', text: 'why does test_dates fail on Mondays?' }),
      ]);
      db.run('INSERT INTO part VALUES (?, ?, ?, ?)', ['prt_2', 'msg_2', 'ses_1', JSON.stringify({ type: 'text', text: 'weekday() is 0 on Monday' })]);
    });
    const { library } = await loadLibrary([{ source: 'opencode', path: dir }]);
    const s = library.sessions.get('opencode:ses_1')!;
    assert.equal(s.topic, 'Flaky Monday test');
    assert.equal(s.project, '/home/dev/shop');
    assert.deepEqual(
      library.turns.all(s).map((t) => t.role),
      ['user', 'assistant'],
    );
  });
});

describe('SpecStory', () => {
  test('real v2 files and provider variants: session id, title, roles, tool blocks, project folder', async () => {
    const { library } = await loadLibrary([{ source: 'specstory', path: join(CORPUS, 'specstory') }]);
    const sessions = all(library);
    assert.equal(sessions.length, 8);
    const projA = library.sessions.get('specstory:11111111-aaaa-bbbb-cccc-000000000001')!;
    assert.equal(projA.topic, 'can we run a build and all the tests');
    assert.ok(projA.project?.endsWith(join('lore-fixtures', 'projA')));
    assert.ok(library.turns.all(projA).some((t) => t.kind === 'tool' && t.tool === 'Bash'));
    assert.equal(projA.created, '2026-05-01T10:00:00.000Z');
    const real = library.sessions.get('specstory:fd7590b3-62e3-49dd-b0bb-f6e4755245e8')!;
    assert.ok(library.turns.all(real).length > 20);
    assert.equal(real.topic, '/pr-review 150', 'a slash command reads as the user typed it');
  });

  test('v1 headers, <think> blocks, and turn markers inside code fences are not turns', async () => {
    const dir = tempDir();
    const text = [
      '<!-- Generated by SpecStory -->',
      '',
      '# Fix the date test (2025-07-24 21:35Z)',
      '',
      '_**User**_',
      '',
      'why does this fail?',
      '',
      '```md',
      '_**User**_',
      'quoted transcript, not a turn',
      '```',
      '',
      '---',
      '',
      '_**Assistant**_',
      '',
      '<think><details><summary>Thought Process</summary>weekday numbering</details></think>',
      '',
      'weekday() is 0 on Monday',
      '',
    ].join('\n');
    writeFile(join(dir, 'proj', '.specstory', 'history', '2025-07-24_21-35Z-why-does-this-fail.md'), text);
    const { library } = await loadLibrary([{ source: 'specstory', path: dir }]);
    const [s] = all(library);
    assert.equal(s.topic, 'Fix the date test');
    assert.deepEqual(
      library.turns.all(s).map((t) => `${t.role}:${t.kind}`),
      ['user:conversation', 'assistant:thinking', 'assistant:conversation'],
    );
    assert.match(library.turns.all(s)[0].text, /quoted transcript, not a turn/);
    assert.equal(s.project, join(dir, 'proj'));
  });
});

describe('Aider', () => {
  test('one history file holds many sessions; banners without a prompt are not sessions', async () => {
    const { library } = await loadLibrary([{ source: 'aider', path: join(CORPUS, 'aider') }]);
    const big = all(library).filter((s) => s.file.endsWith('chat-history.md') && s.file.includes('aider-repo'));
    assert.ok(big.length > 500 && big.length < 1133, `${big.length} sessions with prompts`);
    const last = library.sessions.get('aider:aider-repo/chat-history.md#1133')!;
    assert.equal(last.topic, 'update the message to use a here doc (from https://discord.com/channels/1131200896827654144/1276177534048014398)');
    assert.equal(firstPrompt(last), last.topic);
    assert.ok(library.turns.all(last).some((t) => t.role === 'assistant'));
    assert.ok(library.turns.all(last).some((t) => t.role === 'tool'));
    const zen = all(library).filter((s) => s.file.includes('zen-mcp-server'));
    assert.ok(zen.every((s) => s.project?.endsWith('zen-mcp-server')));
  });

  test('user lines are joined into one prompt; the start line gives the date', async () => {
    const dir = tempDir();
    writeFile(
      join(dir, 'repo', '.aider.chat.history.md'),
      '\n# aider chat started at 2025-03-02 09:15:00\n\n> Aider v0.86.1  \n\n#### why does test_dates  \n#### fail on Mondays?  \n\nweekday() is 0 on Monday.\n\n> Applied edit to tests/test_dates.py  \n',
    );
    const { library } = await loadLibrary([{ source: 'aider', path: dir }]);
    const [s] = all(library);
    assert.equal(firstPrompt(s), 'why does test_dates\nfail on Mondays?');
    assert.deepEqual(
      library.turns.all(s).map((t) => t.role),
      ['tool', 'user', 'assistant', 'tool'],
    );
    assert.equal(s.created, new Date('2025-03-02T09:15:00').toISOString());
  });
});
