/**
 * Credentials by context: every context of the privacy issue is masked whatever the value's entropy, the look-alikes
 * that are code stay readable, and an archive written under older rules is masked again when the library starts.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createLibrary } from '../../src/core/library.js';
import { MemoryLogger } from '../../src/core/log.js';
import { maskText, SECRET_MASK } from '../../src/core/mask.js';
import { Archive } from '../../src/core/store/archive.js';
import { tempDir } from '../helpers.js';
import { CONTEXTS, credentialValues, lookAlikes } from '../../bench/credential-contexts.js';

test('every credential context is masked, whatever the value, and the rest of the line stays', () => {
  const values = credentialValues(50);
  let missed = 0;
  for (const context of CONTEXTS)
    for (const value of values) {
      const masked = maskText(context.replace('{}', value));
      if (masked.includes(value)) {
        missed++;
        if (missed < 5) console.error(`not masked: ${context.replace('{}', value)}`);
      }
      assert.ok(masked.includes(SECRET_MASK));
    }
  assert.equal(missed, 0, `${missed} of ${CONTEXTS.length * values.length} values survived`);
});

test('code and placeholders that look like credentials stay readable', () => {
  const texts = lookAlikes();
  assert.ok(texts.length >= 200, `${texts.length} look-alikes`);
  for (const text of texts) assert.equal(maskText(text), text, text);
});

test('an archive written under older masking rules is masked again on start: nothing unmasked stays in the data folder', async () => {
  const root = tempDir();
  const data = tempDir();
  const secret = 'hunter2hunter2';
  const logger = new MemoryLogger();
  const archive = new Archive(data, logger);
  const transcript = (id: string, text: string) =>
    [
      { type: 'user', uuid: `${id}-1`, sessionId: id, cwd: '/p', timestamp: '2026-03-01T10:00:00Z', message: { role: 'user', content: text } },
      { type: 'assistant', uuid: `${id}-2`, sessionId: id, cwd: '/p', timestamp: '2026-03-01T10:00:05Z', message: { role: 'assistant', content: 'Saved it.' } },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n') + '\n';
  // two transcripts; the archive holds them as the first rules wrote them (entry version 1: JSON lines, secret in clear)
  const ids = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];
  mkdirSync(join(root, 'proj'), { recursive: true });
  for (const id of ids) {
    const file = join(root, 'proj', `${id}.jsonl`);
    writeFileSync(file, transcript(id, `set DB_PASSWORD=${secret} in the env file`));
    const info = statSync(file);
    const session = {
      id: `claude-code:${id}`,
      source: 'claude-code',
      nativeId: id,
      topic: `set DB_PASSWORD=${secret}`,
      filename: id,
      file,
      size: info.size,
      created: '2026-03-01T10:00:00Z',
      updated: '2026-03-01T10:00:05Z',
      firstDay: '2026-03-01',
      lastDay: '2026-03-01',
      project: '/p',
      turns: [{ id: `claude-code:${id}#0`, role: 'user', kind: 'conversation', text: `set DB_PASSWORD=${secret} in the env file` }],
    };
    mkdirSync(archive.dir, { recursive: true });
    const meta = { version: 1, source: 'claude-code', file, size: info.size, mtimeMs: info.mtimeMs };
    writeFileSync(archive.entryPath(file), `${JSON.stringify(meta)}\n${JSON.stringify(session)}\n`);
  }
  rmSync(join(root, 'proj', `${ids[1]}.jsonl`)); // the tool deleted the second transcript: only the archive has it
  const library = createLibrary({ roots: [{ source: 'claude-code', path: root }], logger, dataDir: data, env: {} });
  await library.load();
  const found = library
    .search('DB_PASSWORD env')
    .results.map((r) => r.id)
    .sort();
  assert.deepEqual(
    found,
    ids.map((id) => `claude-code:${id}`),
  );
  await library.close();
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
  for (const file of files(data)) assert.ok(!readFileSync(file).includes(secret), `${file} still holds the secret`);
});
