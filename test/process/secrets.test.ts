/**
 * Secrets planted in real-format transcripts never reach any surface a user or an agent sees, nor any file of the
 * data folder: the index, snippets, get, read, titles, the log, the archive, the snapshot, and the built CLI. Planted:
 * a token of a known format, an e-mail address, and credentials known only by their context.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createLibrary } from '../../src/core/library.js';
import { EMAIL_MASK, SECRET_MASK } from '../../src/core/mask.js';
import { MemoryLogger } from '../../src/core/log.js';
import { firstPrompt } from '../../src/core/model.js';
import type { SourceRoot } from '../../src/core/ingest/sources/registry.js';
import { ROOT, tempDir, writeFile } from '../helpers.js';
import { SECRETS } from '../secrets.js';

test('secrets planted in transcripts never reach the index, snippets, get, read, titles, the log, the archive, the snapshot or the CLI', async () => {
  const dir = tempDir();
  const secret = SECRETS.github;
  const email = 'qzxpersonal@example.org';
  // credentials people paste in plain words, recognised by where they stand (low entropy, no known format)
  const contextual = ['hunter2hunter2', 'opaqueTok3n9Zq', 'Sup3rS3cret!', 'correct horse battery staple'];
  const message = `deploy with ${secret} for ${email} canary; DB_PASSWORD=${contextual[0]} and curl -H 'Authorization: Bearer ${contextual[1]}' then mysql -u root -p${contextual[2]} with {"password": "${contextual[3]}"}`;
  writeFile(
    join(dir, 'ca', '2025-01-02', 'planted', 'full.md'),
    `# planted - Full Context\n\n**Date:** 2025-01-02T10:00:00.000Z\n\n## Full Conversation (JSON)\n\n\`\`\`json\n${JSON.stringify([{ role: 'user', content: message }])}\n\`\`\`\n`,
  );
  writeFile(
    join(dir, 'claude', 'proj', '11111111-2222-4333-8444-555555555555.jsonl'),
    `${JSON.stringify({ type: 'user', uuid: 'u1', sessionId: '11111111-2222-4333-8444-555555555555', cwd: '/p', timestamp: '2025-01-02T10:00:00Z', message: { role: 'user', content: message } })}\n`,
  );
  writeFile(
    join(dir, 'codex', 'rollout-2025-01-02T10-00-00-0197aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee.jsonl'),
    [
      { timestamp: '2025-01-02T10:00:00Z', type: 'session_meta', payload: { id: '0197aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee', cwd: '/p' } },
      { timestamp: '2025-01-02T10:00:01Z', type: 'event_msg', payload: { type: 'user_message', message } },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n') + '\n',
  );
  writeFile(join(dir, 'aider', '.aider.chat.history.md'), `# aider chat started at 2025-01-02 10:00:00\n\n#### ${message}\n\nSure, deploying.\n`);
  const data = join(dir, 'data');
  const logger = new MemoryLogger();
  const roots: SourceRoot[] = [
    { source: 'codearchitect', path: join(dir, 'ca') },
    { source: 'claude-code', path: join(dir, 'claude') },
    { source: 'codex', path: join(dir, 'codex') },
    { source: 'aider', path: join(dir, 'aider') },
  ];
  const library = createLibrary({ roots, logger, env: {}, dataDir: data });
  await library.load();
  const found = library.search('deploy canary');
  assert.equal(found.count, 4);
  assert.equal(library.search(secret).count, 0);
  assert.equal(library.search('qzxpersonal').count, 0);
  for (const value of contextual) assert.equal(library.search(`"${value}"`).count, 0, value);
  const surfaces: string[] = [JSON.stringify(found), JSON.stringify(library.list())];
  for (const r of found.results) {
    surfaces.push(JSON.stringify(await library.get(r.id, { format: 'json' })));
    surfaces.push(JSON.stringify(await library.read(r.id)));
    for (const t of r.snippetTurnIds) surfaces.push(JSON.stringify(await library.read(t)));
  }
  // What the tree shows (titles, first prompts), the log, and every file in the data folder (archive, snapshot).
  for (const s of library.sessions.values()) surfaces.push(s.topic, firstPrompt(s) ?? '');
  surfaces.push(
    library
      .suggestTitles('deploy')
      .map((s) => s.topic)
      .join('\n'),
    logger.lines.join('\n'),
  );
  await library.close();
  const stored = readdirSync(data, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(data, f)).isFile());
  assert.ok(stored.some((f) => f.endsWith('snapshot.bin')) && stored.filter((f) => f.endsWith('.jsonl')).length === 4, stored.join(', '));
  for (const f of stored) surfaces.push(readFileSync(join(data, f), 'latin1'));
  // The CLI, as a person runs it: search, list and get, human and JSON output.
  const rootArgs = roots.flatMap((r) => ['--root', `${r.source}=${r.path}`]);
  const run = (...args: string[]): string => {
    const result = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), ...args, ...rootArgs, '--data', data], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    return result.stdout + result.stderr;
  };
  surfaces.push(run('search', 'deploy', 'canary'), run('search', 'deploy', 'canary', '--json'), run('list', '--json'));
  for (const r of found.results) surfaces.push(run('get', r.id));
  assert.ok(surfaces.at(-1)!.includes('canary'), 'the CLI shows the session');
  for (const text of surfaces) {
    assert.ok(!text.includes(secret), 'no secret');
    assert.ok(!text.includes(email), 'no e-mail');
    for (const value of contextual)
      assert.ok(!text.includes(value), `no ${value} in ${text.slice(Math.max(0, text.indexOf(value) - 300), text.indexOf(value) + 60)}`);
  }
  assert.ok(surfaces.join('').includes(SECRET_MASK) && surfaces.join('').includes(EMAIL_MASK));
});
