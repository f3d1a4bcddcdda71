/** The planted sessions (see planted.ts) of Goose, Kimi CLI, Factory Droid, Crush, OpenHands, Kiro, Zed and Gemini Takeout. */
import { join } from 'node:path';
import type { SourceId } from '../src/core/model.js';
import { writeFile } from './helpers.js';
import { writeDatabase } from './helpers-sqlite.js';

const jsonl = (records: unknown[]): string => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

export async function writePlantedAgents(root: (source: SourceId) => string, prompt: string, output: string, t0: number): Promise<void> {
  const iso = (s: number): string => new Date(t0 + s * 1000).toISOString();
  const secs = (s: number): number => Math.floor(t0 / 1000) + s;
  writeFile(
    join(root('goose'), 'planted.jsonl'),
    jsonl([
      { working_dir: '/home/dev/shop', description: 'planted' },
      { role: 'user', created: secs(0), content: [{ type: 'text', text: prompt }] },
      {
        role: 'assistant',
        created: secs(1),
        content: [{ type: 'toolRequest', id: 'c1', toolCall: { status: 'success', value: { name: 'developer__shell', arguments: { command: 'cat .env' } } } }],
      },
      {
        role: 'user',
        created: secs(2),
        content: [{ type: 'toolResponse', id: 'c1', toolResult: { status: 'success', value: [{ type: 'text', text: output }] } }],
      },
    ]),
  );
  writeFile(
    join(root('kimi'), 'hash', 'planted-kimi', 'wire.jsonl'),
    jsonl([
      { timestamp: secs(0), message: { type: 'TurnBegin', payload: { user_input: [{ type: 'text', text: prompt }] } } },
      { timestamp: secs(1), message: { type: 'ToolCall', payload: { id: 't1', function: { name: 'Shell', arguments: '{"command":"cat .env"}' } } } },
      { timestamp: secs(2), message: { type: 'ToolResult', payload: { tool_call_id: 't1', return_value: { is_error: false, output } } } },
    ]),
  );
  writeFile(
    join(root('droid'), '-home-dev-shop', 'planted-droid.jsonl'),
    jsonl([
      { type: 'session_start', id: 'planted-droid', title: 'planted', cwd: '/home/dev/shop' },
      { type: 'message', timestamp: iso(0), message: { role: 'user', content: [{ type: 'text', text: prompt }] } },
      {
        type: 'message',
        timestamp: iso(1),
        message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Execute', input: { command: 'cat .env' } }] },
      },
      { type: 'message', timestamp: iso(2), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: output }] } },
    ]),
  );
  await writeDatabase(join(root('crush'), '.crush', 'crush.db'), (db) => {
    db.run('CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT, created_at INTEGER, updated_at INTEGER)');
    db.run('CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT, role TEXT, parts TEXT, created_at INTEGER)');
    db.run('INSERT INTO sessions VALUES (?, NULL, ?, ?, ?)', ['planted-crush', 'planted', secs(0), secs(2)]);
    db.run('INSERT INTO messages VALUES (?, ?, ?, ?, ?)', ['m1', 'planted-crush', 'user', JSON.stringify([{ type: 'text', data: { text: prompt } }]), secs(0)]);
    db.run('INSERT INTO messages VALUES (?, ?, ?, ?, ?)', [
      'm2',
      'planted-crush',
      'tool',
      JSON.stringify([{ type: 'tool_result', data: { tool_call_id: 'c', name: 'bash', content: output } }]),
      secs(2),
    ]);
  });
  const conversation = join(root('openhands'), 'planted-oh');
  writeFile(join(conversation, 'base_state.json'), JSON.stringify({ id: 'planted-oh', workspace: { working_dir: '/home/dev/shop' } }));
  writeFile(
    join(conversation, 'events', 'event-00000.json'),
    JSON.stringify({ kind: 'MessageEvent', timestamp: iso(0), source: 'user', llm_message: { role: 'user', content: [{ type: 'text', text: prompt }] } }),
  );
  writeFile(
    join(conversation, 'events', 'event-00001.json'),
    JSON.stringify({ kind: 'ObservationEvent', timestamp: iso(2), tool_name: 'terminal', observation: { content: [{ type: 'text', text: output }] } }),
  );
  writeFile(
    join(root('kiro'), 'cli', 'planted-kiro.jsonl'),
    jsonl([
      { timestamp: iso(0), payload: { type: 'user', content: prompt } },
      { timestamp: iso(2), payload: { type: 'tool_result', toolCallId: 't1', content: output } },
    ]),
  );
  await writeDatabase(join(root('zed'), 'threads.db'), (db) => {
    db.run('CREATE TABLE threads (id TEXT PRIMARY KEY, summary TEXT, updated_at TEXT, data_type TEXT, data BLOB)');
    const thread = { messages: [{ User: { content: [{ Text: prompt }] } }, { Agent: { content: [{ Text: output }], tool_results: {} } }] };
    db.run('INSERT INTO threads VALUES (?, ?, ?, ?, ?)', ['planted-zed', 'planted', iso(2), 'json', new TextEncoder().encode(JSON.stringify(thread))]);
  });
  writeFile(
    join(root('gemini-takeout'), 'MyActivity.json'),
    JSON.stringify([
      {
        header: 'Gemini Apps',
        title: `Prompted ${prompt}`,
        time: iso(0),
        safeHtmlItem: [{ html: `<p>${output.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>` }],
      },
    ]),
  );
}
