/** Reading stays inside the configured roots: symlinks out, FIFOs and device files are never opened. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { walkFiles } from '../../src/core/ingest/walk.js';
import { MemoryLogger } from '../../src/core/log.js';
import { openCore } from '../../src/core/library/open.js';
import { loadLibrary, tempDir, writeCodeArchitect, writeFile } from '../helpers.js';

test('symlinks pointing out of a root, FIFOs and device files are skipped; the rest loads', async () => {
  const outside = tempDir();
  writeFile(join(outside, 'secret.jsonl'), '{"type":"user","message":{"role":"user","content":"outside the root"}}\n');
  const root = tempDir();
  writeFile(
    join(root, 'proj', '11111111-2222-4333-8444-555555555555.jsonl'),
    `${JSON.stringify({ type: 'user', uuid: 'u', sessionId: 's', cwd: '/p', timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content: 'inside the root' } })}\n`,
  );
  symlinkSync(join(outside, 'secret.jsonl'), join(root, 'proj', 'link-out.jsonl'));
  symlinkSync(outside, join(root, 'dir-out'));
  execFileSync('mkfifo', [join(root, 'proj', 'pipe.jsonl')]);
  symlinkSync('/dev/zero', join(root, 'proj', 'zero.jsonl'));
  const logger = new MemoryLogger();
  const files = await walkFiles(root, { logger, accept: () => true });
  assert.deepEqual(
    files.map((f) => f.slice(root.length)),
    ['/proj/11111111-2222-4333-8444-555555555555.jsonl'],
  );
  assert.ok(logger.lines.some((l) => l.includes('link-out.jsonl') && l.includes('outside')));
  assert.ok(
    logger.lines.some((l) => l.includes('pipe.jsonl') && l.includes('not a regular file')),
    logger.lines.join('\n'),
  );
  const { library } = await loadLibrary([{ source: 'claude-code', path: root }]);
  assert.equal(library.search('inside').count, 1);
  assert.equal(library.search('outside').count, 0);
});

test('get and read refuse names that leave the roots, whatever their spelling', async () => {
  const root = tempDir();
  writeCodeArchitect(root, '2025-01-01', 'topic', [{ role: 'user', content: 'hello' }]);
  const { library } = await loadLibrary([{ source: 'codearchitect', path: root }]);
  for (const name of ['../../etc/passwd', '/etc/passwd', '..\\\\..\\\\windows', 'C:/Windows/win.ini', '2025-01-01/../../../etc/hosts', '\0']) {
    await assert.rejects(library.get(name), /No session named|required/);
    assert.equal((await library.read(name)).found, false);
  }
});

test('two libraries in one process share no state: each reads, caches and closes on its own', async () => {
  const root = tempDir();
  const id = '44444444-5555-4666-8777-888888888888';
  const rec = (uuid: string, text: string) =>
    `${JSON.stringify({ type: 'user', uuid, sessionId: id, cwd: '/p', timestamp: '2026-02-01T10:00:00Z', message: { role: 'user', content: `${text} ${'padding words '.repeat(6000)}` } })}\n`;
  const file = join(root, 'proj', `${id}.jsonl`);
  writeFile(file, rec('a', 'first question about herons'));
  const open = async () => {
    const library = openCore({ roots: [{ source: 'claude-code', path: root }], logger: new MemoryLogger(), dataDir: tempDir(), env: {} });
    await library.load();
    return library;
  };
  const a = await open();
  const b = await open();
  appendFileSync(file, rec('b', 'then a question about zebrafish'));
  await a.reloadFile(file);
  assert.equal(a.search('zebrafish').count, 1);
  assert.equal(b.search('zebrafish').count, 0, 'b has not read the append: nothing of a leaked into it');
  await a.close();
  // a's caches are gone; b still reads its own turns, and its own live read finds the append
  assert.match((await b.get(`claude-code:${id}`)).session.content, /herons/);
  await b.reloadFile(file);
  assert.equal(b.search('zebrafish').count, 1);
  await b.close();
});
