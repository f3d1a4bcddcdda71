/**
 * Codex rollouts read as the tool means them (docs/FORMATS.md): forks are their own sessions, linked to their parent
 * and holding only what came after the fork; injected context bundled into a user item is not a prompt; an aborted
 * turn is not a prompt and its resent prompt is not a second one; a sub-agent's task is its prompt; arguments written
 * as objects and messages without a type are read. Rollouts are written here from the format.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { codexSource } from '../../src/core/ingest/sources/codex.js';
import { MemoryLogger } from '../../src/core/log.js';
import { isPrompt, type ParsedSession } from '../../src/core/model.js';
import { openCore } from '../../src/core/library/open.js';
import { resumeArgs } from '../../src/core/resume.js';
import { tempDir, writeFile } from '../helpers.js';

const PARENT = '019cab00-1111-7222-8333-944455556666';
const CHILD = '019cab77-2222-7333-8444-955566667777';
const line = (timestamp: string, type: string, payload: object) => ({ timestamp, type, payload });
const meta = (timestamp: string, id: string, extra: object = {}) =>
  line(timestamp, 'session_meta', { id, timestamp, cwd: '/home/dev/shop', git: { branch: 'main' }, ...extra });
const said = (timestamp: string, message: string) => line(timestamp, 'event_msg', { type: 'user_message', message, images: [] });
const userItem = (timestamp: string, text: string) =>
  line(timestamp, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const reply = (timestamp: string, text: string) =>
  line(timestamp, 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
const rollout = (id: string) => `rollout-2026-03-02T10-00-00-${id}.jsonl`;

async function read(records: object[], name = rollout(PARENT)): Promise<ParsedSession> {
  const root = tempDir();
  const file = writeFile(join(root, 'sessions', '2026', '03', '02', name), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const [session] = await codexSource.readFile(file, root, { logger: new MemoryLogger(), env: {} });
  return session;
}
const prompts = (s: ParsedSession) => s.turns.filter(isPrompt).map((t) => t.text);

const parentHistory = (t: (s: number) => string) => [
  meta(t(0), PARENT),
  said(t(1), 'why does test_dates fail on Mondays?'),
  reply(t(2), 'weekday() is 0 on Monday.'),
];

test('a forked rollout is its own session: its own id, project and resume command, only what came after the fork, linked to its parent', async () => {
  const root = tempDir();
  const day = join(root, 'sessions', '2026', '03', '02');
  const old = (s: number) => `2026-03-02T09:00:0${s}.000Z`;
  writeFile(
    join(day, rollout(PARENT)),
    parentHistory(old)
      .map((r) => JSON.stringify(r))
      .join('\n') + '\n',
  );
  const fork = '2026-03-02T10:00:00.000Z';
  const burst = (ms: number) => `2026-03-02T10:00:00.00${ms}Z`;
  const forked = [
    meta(fork, CHILD, { forked_from_id: PARENT, cwd: '/home/dev/shop-fork' }),
    // the parent's history, copied in one burst at the fork, its own session_meta first
    meta(burst(1), PARENT),
    said(burst(2), 'why does test_dates fail on Mondays?'),
    reply(burst(3), 'weekday() is 0 on Monday.'),
    said('2026-03-02T10:00:41.000Z', 'try isoweekday() instead'),
    reply('2026-03-02T10:00:45.000Z', 'Switched to isoweekday().'),
  ];
  writeFile(join(day, rollout(CHILD)), forked.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const library = openCore({ roots: [{ source: 'codex', path: join(root, 'sessions') }], logger: new MemoryLogger(), env: {} });
  await library.load();
  const child = library.sessions.get(`codex:${CHILD}`);
  const parent = library.sessions.get(`codex:${PARENT}`);
  assert.ok(child && parent, 'both sessions, each under its own id');
  assert.equal(child.project, '/home/dev/shop-fork');
  assert.equal(child.parentId, parent.id);
  assert.deepEqual(
    library.turns.all(child).map((t) => t.text),
    ['try isoweekday() instead', 'Switched to isoweekday().'],
  );
  assert.equal(child.topic, 'try isoweekday() instead');
  assert.deepEqual(resumeArgs(child)?.slice(-1), [CHILD]);
  assert.deepEqual((await library.get(parent.id, { format: 'json' })).session.children, [child.id]);
  await library.close();
});

test('a first user item bundling injected context gives only the request as the prompt and title', async () => {
  const bundle = [
    '<recommended_plugins>\n- superpowers\n</recommended_plugins>',
    '# AGENTS.md instructions for /home/dev/shop\n\n<INSTRUCTIONS>\nUse pnpm.\n</INSTRUCTIONS>',
    '<environment_context>\n  <cwd>/home/dev/shop</cwd>\n</environment_context>',
    '# Files mentioned by the user:\n\n## dates.py: /home/dev/shop/dates.py\n\n## My request for Codex:\nmake the Monday test pass',
  ].join('\n\n');
  const t = (s: number) => `2026-03-02T09:00:0${s}.000Z`;
  const s = await read([meta(t(0), PARENT), userItem(t(1), bundle), reply(t(2), 'Done.')]);
  assert.deepEqual(prompts(s), ['make the Monday test pass']);
  assert.equal(s.topic, 'make the Monday test pass');
  const ide = await read([
    meta(t(0), PARENT),
    said(t(1), '# Context from my IDE setup:\n\n## Open tabs:\n- dates.py\n\n## My request for Codex:\nexplain weekday()'),
    reply(t(2), 'ok'),
  ]);
  assert.deepEqual(prompts(ide), ['explain weekday()']);
});

test('an aborted turn is not a prompt, and the prompt sent again after it is not a second one', async () => {
  const t = (s: number) => `2026-03-02T09:00:0${s}.000Z`;
  const s = await read([
    meta(t(0), PARENT),
    said(t(1), 'run the full suite'),
    userItem(t(2), '<turn_aborted>\nThe user interrupted the previous turn.\n</turn_aborted>'),
    line(t(3), 'event_msg', { type: 'turn_aborted', reason: 'interrupted' }),
    said(t(4), 'run the full suite'),
    reply(t(5), 'All 40 tests pass.'),
    said(t(6), 'thanks'),
  ]);
  assert.deepEqual(prompts(s), ['run the full suite', 'thanks']);
  const items = await read([
    meta(t(0), PARENT),
    userItem(t(1), 'deploy it'),
    userItem(t(2), '<turn_aborted>\ninterrupted\n</turn_aborted>'),
    userItem(t(3), 'deploy it'),
    reply(t(4), 'Deployed.'),
  ]);
  assert.deepEqual(prompts(items), ['deploy it']);
});

test('a sub-agent rollout shows the task its parent delivered and the follow-ups as its prompts, linked to the parent', async () => {
  const t = (s: number) => `2026-03-02T09:00:0${s}.000Z`;
  const task = (at: string, text: string) =>
    line(at, 'response_item', { type: 'agent_message', author: PARENT, recipient: CHILD, content: [{ type: 'input_text', text }] });
  const s = await read(
    [
      meta(t(0), CHILD, { source: { subagent: { thread_spawn: { parent_thread_id: PARENT, depth: 1 } } } }),
      task(t(1), 'Review dates.py for off-by-one errors'),
      reply(t(2), 'Found one in weekday().'),
      task(t(3), 'Now check holidays.py too'),
      reply(t(4), 'holidays.py is fine.'),
    ],
    rollout(CHILD),
  );
  assert.equal(s.nativeId, CHILD);
  assert.equal(s.parentId, `codex:${PARENT}`);
  assert.deepEqual(prompts(s), ['Review dates.py for off-by-one errors', 'Now check holidays.py too']);
  assert.equal(s.topic, 'Review dates.py for off-by-one errors');
});

test('function_call arguments written as an object are read (commands, patches); a message item without its type is read', async () => {
  const t = (s: number) => `2026-03-02T09:00:0${s}.000Z`;
  const s = await read([
    meta(t(0), PARENT),
    line(t(1), 'response_item', { role: 'user', content: [{ type: 'input_text', text: 'patch the date helper' }] }),
    line(t(2), 'response_item', { type: 'function_call', name: 'shell', arguments: { command: ['pytest', '-k', 'dates'] }, call_id: 'c1' }),
    line(t(3), 'response_item', {
      type: 'function_call',
      name: 'apply_patch',
      arguments: { input: '*** Begin Patch\n*** Update File: dates.py\n+x\n*** End Patch' },
      call_id: 'c2',
    }),
    line(t(4), 'response_item', { role: 'assistant', content: [{ type: 'output_text', text: 'Patched.' }] }),
  ]);
  assert.deepEqual(prompts(s), ['patch the date helper']);
  const tools = s.turns.filter((x) => x.role === 'assistant' && x.tool).map((x) => x.text);
  assert.equal(tools[0], '$ pytest -k dates');
  assert.match(tools[1], /Update File: dates\.py/);
  assert.ok(s.turns.some((x) => x.role === 'assistant' && x.text === 'Patched.'));
});
