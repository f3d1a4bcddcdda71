/**
 * One session in each source's own format, holding a prompt the user typed and a tool output (or reply) the agent got
 * back: the privacy tests plant credentials in both and look for them on every surface.
 */
import { join } from 'node:path';
import { SOURCE_IDS, type SourceId } from '../src/core/model.js';
import type { SourceRoot } from '../src/core/ingest/sources/registry.js';
import { writeCodeArchitect, writeFile } from './helpers.js';
import { writeCursorDatabase, writeDatabase } from './helpers-sqlite.js';
import { writePlantedAgents } from './planted-agents.js';

const T0 = Date.parse('2025-01-02T10:00:00Z');
const iso = (s: number): string => new Date(T0 + s * 1000).toISOString();
const jsonl = (records: unknown[]): string => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

/** Writes under `dir` one session per source (every one), each with `prompt` from the user and `output` after it. */
export async function writePlantedSessions(dir: string, prompt: string, output: string): Promise<SourceRoot[]> {
  const root = (source: SourceId): string => join(dir, source);
  writeCodeArchitect(root('codearchitect'), '2025-01-02', 'planted', [
    { role: 'user', content: prompt },
    { role: 'assistant', content: output },
  ]);
  const claudeId = '11111111-2222-4333-8444-555555555555';
  const claude = { sessionId: claudeId, cwd: '/home/dev/shop' };
  writeFile(
    join(root('claude-code'), 'shop', `${claudeId}.jsonl`),
    jsonl([
      { ...claude, type: 'user', uuid: 'u1', timestamp: iso(0), message: { role: 'user', content: prompt } },
      {
        ...claude,
        type: 'assistant',
        uuid: 'a1',
        timestamp: iso(1),
        message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'cat .env' } }] },
      },
      {
        ...claude,
        type: 'user',
        uuid: 'u2',
        timestamp: iso(2),
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: output }] },
      },
    ]),
  );
  const codexId = '0197aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee';
  writeFile(
    join(root('codex'), `rollout-2025-01-02T10-00-00-${codexId}.jsonl`),
    jsonl([
      { timestamp: iso(0), type: 'session_meta', payload: { id: codexId, cwd: '/home/dev/shop' } },
      { timestamp: iso(1), type: 'event_msg', payload: { type: 'user_message', message: prompt } },
      { timestamp: iso(2), type: 'response_item', payload: { type: 'function_call', name: 'shell', call_id: 'c1', arguments: '{"command":["cat",".env"]}' } },
      { timestamp: iso(3), type: 'response_item', payload: { type: 'function_call_output', call_id: 'c1', output } },
    ]),
  );
  writeFile(
    join(root('copilot-chat'), 'planted.export.json'),
    JSON.stringify({ requesterUsername: 'dev', requests: [{ requestId: 'r1', timestamp: T0, message: { text: prompt }, response: [{ value: output }] }] }),
  );
  writeFile(
    join(root('gemini'), 'shop', 'chats', 'session-2025-01-02T10-00-planted.json'),
    JSON.stringify({
      sessionId: 'g-planted',
      startTime: iso(0),
      lastUpdated: iso(2),
      messages: [
        { id: 'u1', type: 'user', timestamp: iso(0), content: prompt },
        { id: 'm1', type: 'gemini', timestamp: iso(2), content: output },
      ],
    }),
  );
  await writeCursorDatabase(join(root('cursor'), 'globalStorage', 'state.vscdb'), (put) => {
    put('composerData:c1', {
      _v: 10,
      composerId: 'c1',
      name: 'planted',
      createdAt: T0,
      fullConversationHeadersOnly: [
        { bubbleId: 'b1', type: 1 },
        { bubbleId: 'b2', type: 2 },
      ],
    });
    put('bubbleId:c1:b1', { type: 1, bubbleId: 'b1', text: prompt });
    put('bubbleId:c1:b2', {
      type: 2,
      bubbleId: 'b2',
      text: 'read it',
      toolFormerData: { name: 'read_file', rawArgs: '{"target_file":".env"}', result: output },
    });
  });
  writeFile(
    join(root('cline'), 'tasks', String(T0), 'ui_messages.json'),
    JSON.stringify([
      { ts: T0, type: 'say', say: 'task', text: prompt },
      { ts: T0 + 2000, type: 'say', say: 'text', text: output },
    ]),
  );
  writeFile(
    join(root('roo'), 'tasks', 'planted-roo', 'api_conversation_history.json'),
    JSON.stringify([
      { role: 'user', ts: T0, content: [{ type: 'text', text: prompt }] },
      { role: 'assistant', ts: T0 + 1000, content: [{ type: 'tool_use', id: 't1', name: 'read_file', input: { path: '.env' } }] },
      { role: 'user', ts: T0 + 2000, content: [{ type: 'tool_result', tool_use_id: 't1', content: output }] },
    ]),
  );
  await writeDatabase(join(root('opencode'), 'opencode.db'), (db) => {
    db.run('CREATE TABLE session (id TEXT PRIMARY KEY, parent_id TEXT, title TEXT, directory TEXT, data TEXT)');
    db.run('CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, data TEXT)');
    db.run('CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT, session_id TEXT, data TEXT)');
    db.run('INSERT INTO session VALUES (?, ?, ?, ?, ?)', [
      'ses_planted',
      null,
      'planted',
      '/home/dev/shop',
      JSON.stringify({ time: { created: T0, updated: T0 + 2000 } }),
    ]);
    db.run('INSERT INTO message VALUES (?, ?, ?)', ['msg_1', 'ses_planted', JSON.stringify({ role: 'user', time: { created: T0 } })]);
    db.run('INSERT INTO message VALUES (?, ?, ?)', ['msg_2', 'ses_planted', JSON.stringify({ role: 'assistant', time: { created: T0 + 2000 } })]);
    db.run('INSERT INTO part VALUES (?, ?, ?, ?)', ['prt_1', 'msg_1', 'ses_planted', JSON.stringify({ type: 'text', text: prompt })]);
    db.run('INSERT INTO part VALUES (?, ?, ?, ?)', ['prt_2', 'msg_2', 'ses_planted', JSON.stringify({ type: 'text', text: output })]);
  });
  writeFile(
    join(root('specstory'), 'shop', '.specstory', 'history', '2025-01-02_10-00-00Z-planted.md'),
    [
      '<!-- Generated by SpecStory -->',
      '',
      '# planted (2025-01-02 10:00Z)',
      '',
      '_**User**_',
      '',
      prompt,
      '',
      '---',
      '',
      '_**Assistant**_',
      '',
      output,
      '',
    ].join('\n'),
  );
  const quoted = prompt
    .split('\n')
    .map((l) => `#### ${l}`)
    .join('\n');
  writeFile(join(root('aider'), 'shop', '.aider.chat.history.md'), `# aider chat started at 2025-01-02 10:00:00\n\n${quoted}\n\n${output}\n`);
  writeFile(
    join(root('copilot-cli'), 'planted-cli', 'events.jsonl'),
    jsonl([
      { type: 'session.start', timestamp: iso(0), data: { sessionId: 'planted-cli', context: { cwd: '/home/dev/shop' } } },
      { type: 'user.message', timestamp: iso(0), data: { content: prompt } },
      {
        type: 'assistant.message',
        timestamp: iso(1),
        data: { content: '', toolRequests: [{ toolCallId: 'c1', name: 'bash', arguments: { command: 'cat .env' } }] },
      },
      { type: 'tool.execution_complete', timestamp: iso(2), data: { toolCallId: 'c1', result: { content: output } } },
    ]),
  );
  writeFile(
    join(root('amp'), 'T-planted.json'),
    JSON.stringify({
      id: 'T-planted',
      created: T0,
      messages: [
        { role: 'user', content: [{ type: 'text', text: prompt }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { cmd: 'cat .env' } }] },
        { role: 'user', content: [{ type: 'tool_result', toolUseID: 't1', run: { status: 'done', result: { output } } }] },
      ],
    }),
  );
  writeFile(
    join(root('continue'), 'planted-continue.json'),
    JSON.stringify({
      sessionId: 'planted-continue',
      title: 'planted',
      history: [{ message: { role: 'user', content: prompt } }, { message: { role: 'assistant', content: output } }],
    }),
  );
  writeFile(
    join(root('qwen'), 'shop', 'chats', 'planted-qwen.jsonl'),
    jsonl([
      { sessionId: 'planted-qwen', cwd: '/home/dev/shop', timestamp: iso(0), type: 'user', message: { role: 'user', parts: [{ text: prompt }] } },
      {
        sessionId: 'planted-qwen',
        timestamp: iso(1),
        type: 'assistant',
        message: { role: 'model', parts: [{ functionCall: { id: 'f1', name: 'run_shell_command', args: {} } }] },
      },
      {
        sessionId: 'planted-qwen',
        timestamp: iso(2),
        type: 'user',
        message: { role: 'user', parts: [{ functionResponse: { id: 'f1', name: 'run_shell_command', response: { output } } }] },
      },
    ]),
  );
  const node = (id: string, role: string, text: string, parent: string | null) => ({
    id,
    parent,
    children: [],
    message: { id, author: { role }, create_time: T0 / 1000, content: { content_type: 'text', parts: [text] }, metadata: {} },
  });
  writeFile(
    join(root('chatgpt'), 'conversations.json'),
    JSON.stringify([
      {
        id: 'planted-gpt',
        title: 'planted',
        create_time: T0 / 1000,
        current_node: 'b',
        mapping: { a: node('a', 'user', prompt, null), b: node('b', 'assistant', output, 'a') },
      },
    ]),
  );
  writeFile(
    join(root('claude-ai'), 'conversations.json'),
    JSON.stringify([
      {
        uuid: 'planted-claude-ai',
        name: 'planted',
        created_at: iso(0),
        chat_messages: [
          { sender: 'human', text: prompt, content: [{ type: 'text', text: prompt }], created_at: iso(0) },
          { sender: 'assistant', text: output, content: [{ type: 'text', text: output }], created_at: iso(1) },
        ],
      },
    ]),
  );
  await writePlantedAgents(root, prompt, output, T0);

  return SOURCE_IDS.map((source) => ({ source, path: root(source) }));
}
