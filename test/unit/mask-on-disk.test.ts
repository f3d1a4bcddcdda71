/**
 * Every credential context reaches neither the archive nor the snapshot nor a title: transcripts holding each of them
 * (as the prompt that titles the session, and in a tool's output) are indexed, and no value is found in any file of
 * the data folder afterwards, while the look-alikes read as written.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openCore } from '../../src/core/library/open.js';
import { MemoryLogger } from '../../src/core/log.js';
import { CONTEXTS } from '../../bench/credential-contexts.js';
import { tempDir } from '../helpers.js';

test('each credential context is masked on disk (archive, snapshot) and in titles; the look-alikes stay readable', async () => {
  const root = tempDir();
  const data = tempDir();
  mkdirSync(join(root, 'proj'), { recursive: true });
  const values: string[] = [];
  CONTEXTS.forEach((context, i) => {
    const value = `Zq${i}x!Blu3Moon${i}`;
    values.push(value);
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const records = [
      {
        type: 'user',
        uuid: `${id}-1`,
        sessionId: id,
        cwd: '/p',
        timestamp: '2026-03-01T10:00:00Z',
        message: { role: 'user', content: context.replace('{}', value) },
      },
      {
        type: 'assistant',
        uuid: `${id}-2`,
        sessionId: id,
        cwd: '/p',
        timestamp: '2026-03-01T10:00:05Z',
        message: { id: 'm', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'cat notes.txt' } }] },
      },
      {
        type: 'user',
        uuid: `${id}-3`,
        sessionId: id,
        cwd: '/p',
        timestamp: '2026-03-01T10:00:06Z',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 't1', content: `line one\n${context.replace('{}', value)}\nline three (using password: YES)\n` }],
        },
      },
    ];
    writeFileSync(join(root, 'proj', `${id}.jsonl`), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  });
  const library = openCore({ roots: [{ source: 'claude-code', path: root }], logger: new MemoryLogger(), dataDir: data, env: {} });
  await library.load();
  assert.equal(library.sessions.size, CONTEXTS.length);
  for (const s of library.sessions.values()) {
    assert.ok(!values.some((v) => s.topic.includes(v)), `title ${s.topic}`);
    assert.match(library.turns.all(s).at(-1)!.text, /\(using password: YES\)/, 'MySQL says whether a password was used: that stays');
  }
  await library.close();
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
  const stored = files(data);
  assert.ok(stored.some((f) => f.endsWith('snapshot.bin')) && stored.some((f) => f.includes('archive')));
  for (const file of stored) {
    const bytes = readFileSync(file);
    for (const v of values) assert.ok(!bytes.includes(v), `${file} holds ${v}`);
  }
});
