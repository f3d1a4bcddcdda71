/** Copilot Chat, Cursor, Cline and Roo: real samples where they exist, hand-made fixtures for each trap. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { firstPrompt } from '../../src/core/model.js';
import { CORPUS, loadLibrary, tempDir, writeFile } from '../helpers.js';
import { writeCursorDatabase } from '../helpers-sqlite.js';

const all = (lib: Awaited<ReturnType<typeof loadLibrary>>['library']) => [...lib.sessions.values()];

describe('Copilot Chat', () => {
  test('real "Chat: Export Session" files: titles, roles, tool calls, cancellations; an empty chat is reported', async () => {
    const { library, logger } = await loadLibrary([{ source: 'copilot-chat', path: join(CORPUS, 'copilot-chat') }]);
    const sessions = all(library);
    assert.equal(sessions.length, 7);
    const simple = sessions.find((s) => s.filename === 'simple-chat.export')!;
    assert.equal(simple.topic, 'hi');
    assert.deepEqual(
      library.turns.all(simple).map((t) => t.role),
      ['user', 'assistant', 'user', 'assistant'],
    );
    const mcp = sessions.find((s) => s.filename === 'mcp-tool-success.export')!;
    assert.ok(library.turns.all(mcp).some((t) => t.role === 'tool' && /get_documents/.test(t.text)));
    const canceled = sessions.find((s) => s.filename === 'canceled-chat.export')!;
    assert.ok(library.turns.all(canceled).some((t) => t.kind === 'note' && t.text === 'Request canceled.'));
    assert.ok(logger.lines.some((l) => l.includes('empty-requests.export.json: no conversation turns')));
  });

  test('the .jsonl operation log is replayed (set, push with truncation, delete); workspace.json gives the folder', async () => {
    const root = join(tempDir(), 'workspaceStorage');
    const ws = join(root, 'abc123');
    writeFile(join(ws, 'workspace.json'), JSON.stringify({ folder: 'file:///c%3A/Users/dev/shop' }));
    const log = [
      { kind: 0, v: { version: 3, sessionId: 's-1', creationDate: 1772442900000, requests: [] } },
      { kind: 2, k: ['requests'], v: [{ requestId: 'r1', timestamp: 1772442905000, message: { text: 'why does test_dates fail on Mondays?' }, response: [] }] },
      { kind: 2, k: ['requests', 0, 'response'], v: [{ value: 'draft answer that was replaced' }] },
      { kind: 2, k: ['requests', 0, 'response'], i: 0, v: [{ value: 'weekday() returns 0 on Monday' }] },
      { kind: 2, k: ['requests'], v: [{ requestId: 'r2', timestamp: 1772442999000, message: { text: 'a request then deleted' }, response: [] }] },
      { kind: 3, k: ['requests', 1] },
      { kind: 1, k: ['customTitle'], v: 'Monday date test failure' },
    ];
    writeFile(join(ws, 'chatSessions', 's-1.jsonl'), log.map((e) => JSON.stringify(e)).join('\n') + '\n');
    writeFile(
      join(ws, 'chatSessions', 's-1.json'),
      JSON.stringify({ version: 3, sessionId: 's-1', requests: [{ message: { text: 'stale copy' }, response: [] }] }),
    );
    const { library } = await loadLibrary([{ source: 'copilot-chat', path: root }]);
    const [s] = all(library);
    assert.equal(all(library).length, 1, 'the .jsonl wins over the .json of the same session');
    assert.equal(s.topic, 'Monday date test failure');
    assert.deepEqual(
      library.turns.all(s).map((t) => t.text),
      ['why does test_dates fail on Mondays?', 'weekday() returns 0 on Monday'],
    );
    assert.equal(s.project, 'c:\\Users\\dev\\shop');
    assert.equal(s.created, new Date(1772442900000).toISOString());
  });
});

describe('Cursor', () => {
  test('a real workspace state.vscdb (old generation): chat tabs and composers', async () => {
    const { library } = await loadLibrary([{ source: 'cursor', path: join(CORPUS, 'cursor') }]);
    const sessions = all(library);
    const tab = sessions.find((s) => s.topic === 'Ionic App Sidebar Customization Guide')!;
    assert.ok(library.turns.all(tab).length > 10);
    assert.deepEqual([...new Set(library.turns.all(tab).map((t) => t.role))].sort(), ['assistant', 'user']);
    assert.equal(tab.created.slice(0, 10), '2024-11-17');
    assert.ok(sessions.length >= 10, `${sessions.length} sessions`);
  });

  test('split storage: composer headers in cursorDiskKV, bubbles by id, missing bubbles skipped', async () => {
    const dir = join(tempDir(), 'globalStorage');
    await writeCursorDatabase(join(dir, 'state.vscdb'), (put) => {
      put('composerData:c1', {
        _v: 10,
        composerId: 'c1',
        name: 'Monday date bug',
        createdAt: 1772442900000,
        fullConversationHeadersOnly: [
          { bubbleId: 'b1', type: 1 },
          { bubbleId: 'b2', type: 2 },
          { bubbleId: 'gone', type: 2 },
        ],
        workspaceIdentifier: { id: 'w', uri: { fsPath: '/home/dev/shop' } },
      });
      put('bubbleId:c1:b1', { type: 1, bubbleId: 'b1', text: 'why does test_dates fail on Mondays?' });
      put('bubbleId:c1:b2', {
        type: 2,
        bubbleId: 'b2',
        text: 'weekday() is 0 on Monday',
        thinking: { text: 'check weekday' },
        toolFormerData: { name: 'read_file', rawArgs: '{"target_file":"tests/test_dates.py"}', result: 'import datetime' },
      });
    });
    const { library } = await loadLibrary([{ source: 'cursor', path: dir }]);
    const [s] = all(library);
    assert.equal(s.topic, 'Monday date bug');
    assert.equal(s.project, '/home/dev/shop');
    assert.deepEqual(
      library.turns.all(s).map((t) => `${t.role}:${t.kind}`),
      ['user:conversation', 'assistant:thinking', 'assistant:conversation', 'assistant:file', 'tool:file'],
    );
  });
});

describe('Cline and Roo Code', () => {
  test('a Cline task folder: UI messages with timestamps, title and workspace from the task history', async () => {
    const root = join(tempDir(), 'saoudrizwan.claude-dev');
    writeFile(
      join(root, 'state', 'taskHistory.json'),
      JSON.stringify([{ id: '1772442900000', ts: 1772442900000, task: 'why does test_dates fail on Mondays?', cwdOnTaskInitialization: '/home/dev/shop' }]),
    );
    writeFile(
      join(root, 'tasks', '1772442900000', 'ui_messages.json'),
      JSON.stringify([
        { ts: 1772442900000, type: 'say', say: 'task', text: 'why does test_dates fail on Mondays?' },
        { ts: 1772442901000, type: 'say', say: 'api_req_started', text: '{"tokensIn":5100}' },
        { ts: 1772442903000, type: 'say', say: 'text', text: 'partial thou', partial: true },
        { ts: 1772442904000, type: 'say', say: 'tool', text: JSON.stringify({ tool: 'readFile', path: 'tests/test_dates.py', content: 'import datetime' }) },
        { ts: 1772442909000, type: 'say', say: 'completion_result', text: 'weekday() is 0 on Monday' },
      ]),
    );
    writeFile(join(root, 'tasks', '1772442900000', 'api_conversation_history.json'), '[]');
    const { library } = await loadLibrary([{ source: 'cline', path: root }]);
    const [s] = all(library);
    assert.equal(s.id, 'cline:1772442900000');
    assert.equal(s.project, '/home/dev/shop');
    assert.equal(firstPrompt(s), 'why does test_dates fail on Mondays?');
    assert.deepEqual(
      library.turns.all(s).map((t) => `${t.role}:${t.kind}`),
      ['user:conversation', 'assistant:file', 'assistant:conversation'],
    );
    assert.equal(s.created, new Date(1772442900000).toISOString());
  });

  test('a Roo task with only the API history in the version-2 envelope', async () => {
    const root = join(tempDir(), 'rooveterinaryinc.roo-cline');
    const history = {
      version: 2,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'rename the helper <environment_details>cwd: /x</environment_details>' }] },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'find usages' },
            { type: 'tool-call', toolCallId: 't1', toolName: 'search_files', input: { regex: 'helper' } },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't1', output: '3 matches' }] },
      ],
    };
    writeFile(join(root, 'tasks', '0b9c5c1e-roo', 'api_conversation_history.json'), JSON.stringify(history));
    const { library } = await loadLibrary([{ source: 'roo', path: root }]);
    const [s] = all(library);
    assert.equal(s.source, 'roo');
    assert.equal(library.turns.all(s)[0].text, 'rename the helper');
    assert.deepEqual(
      library.turns.all(s).map((t) => t.kind),
      ['conversation', 'thinking', 'tool', 'tool'],
    );
  });
});
