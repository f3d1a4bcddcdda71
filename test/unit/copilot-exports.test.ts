/**
 * A folder of Copilot Chat "Chat: Export Session" files, imported: one session per conversation, each with an id of
 * its own that stays the same from run to run, each found by a word only it holds; the file with no conversation is
 * named as skipped, never silently merged into another.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { addImport } from '../../src/core/ingest/imports.js';
import { openCore, type LibraryCore } from '../../src/core/library/open.js';
import { MemoryLogger } from '../../src/core/log.js';
import { tokenize } from '../../src/core/index/tokenize.js';
import { CORPUS, tempDir } from '../helpers.js';

const EXPORTS = join(CORPUS, 'copilot-chat', 'export');

async function imported(dataDir: string): Promise<{ library: LibraryCore; logger: MemoryLogger }> {
  const logger = new MemoryLogger();
  const library = openCore({ roots: [], logger, dataDir, env: {} });
  await library.load();
  return { library, logger };
}

test('each of the eight sample exports imported from their folder is its own session, found by a word of its own', async () => {
  const files = readdirSync(EXPORTS).filter((f) => f.endsWith('.json'));
  assert.equal(files.length, 8);
  const data = tempDir();
  const result = await addImport(data, EXPORTS);
  assert.equal(result.added.length, 8, 'every export is recorded');
  const { library, logger } = await imported(data);
  const sessions = [...library.sessions.values()].filter((s) => s.source === 'copilot-chat');
  // the export holding no request is no conversation: logged as skipped, the seven others are sessions
  assert.ok(
    logger.lines.some((l) => l.includes('empty-requests.export.json') && /no conversation turns|skipped/.test(l)),
    logger.lines.join('\n'),
  );
  assert.equal(sessions.length, 7, sessions.map((s) => s.id).join(', '));
  assert.equal(new Set(sessions.map((s) => s.id)).size, 7, 'seven ids');
  for (const s of sessions) assert.match(s.id, /^copilot-chat:export-[0-9a-f]{16}$/);
  assert.deepEqual(sessions.map((s) => s.file.split('/').pop()).sort(), files.filter((f) => f !== 'empty-requests.export.json').sort());

  // a word each session holds and no other does finds it first
  const words = new Map(
    sessions.map((s) => [
      s.id,
      new Set(
        library.turns
          .all(s)
          .flatMap((t) => tokenize(t.text))
          .filter((w) => w.length > 3 && !/\d/.test(w)),
      ),
    ]),
  );
  for (const s of sessions) {
    const own = [...words.get(s.id)!].find((w) => sessions.every((o) => o === s || !words.get(o.id)!.has(w)));
    if (!own) {
      // a conversation exported twice (in progress, then completed) holds nothing of its own: it is still its own session
      const other = sessions.find((o) => o !== s && [...words.get(s.id)!].every((w) => words.get(o.id)!.has(w)));
      assert.ok(other, `${s.file} holds no word of its own and is no earlier state of another export`);
      continue;
    }
    assert.equal(library.search(own, { limit: 1 }).results[0]?.id, s.id, `${own} finds ${s.file}`);
  }
  const ids = sessions.map((s) => s.id).sort();
  await library.close();

  // the same ids on the next start, with the archive and snapshot in place
  const again = await imported(data);
  assert.deepEqual(
    [...again.library.sessions.values()]
      .filter((s) => s.source === 'copilot-chat')
      .map((s) => s.id)
      .sort(),
    ids,
  );
  await again.library.close();
});

test('a folder holding files that are no export says which it skipped', async () => {
  const dir = tempDir();
  const { writeFileSync, copyFileSync } = await import('node:fs');
  copyFileSync(join(EXPORTS, 'simple-chat.export.json'), join(dir, 'simple-chat.export.json'));
  writeFileSync(join(dir, 'notes.txt'), 'not an export');
  writeFileSync(join(dir, 'other.json'), '{"hello": 1}');
  const result = await addImport(tempDir(), dir);
  assert.deepEqual(
    result.added.map((r) => r.source),
    ['copilot-chat'],
  );
  assert.deepEqual(
    result.skipped.map((f) => f.split('/').pop()),
    ['notes.txt', 'other.json'],
  );
});
