/**
 * `indexing` in an answer appears exactly while a load is reading files (every answer that depends on the index,
 * get_preferences included), never after a warm start whose check found nothing to read, and never with no files counted.
 */
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openCore, type LibraryCore } from '../../src/core/library/open.js';
import { MemoryLogger } from '../../src/core/log.js';
import { copyId, tempDir, writeSessionCopies } from '../helpers.js';

const SAMPLE = '1af7fc5e-8455-4414-9ccd-011d40f70b2a';

function open(root: string, data: string): LibraryCore {
  return openCore({ roots: [{ source: 'claude-code', path: root }], logger: new MemoryLogger(), dataDir: data, env: {} });
}

/** What `indexingOf` gives when no answer is partial. */
const NONE = Array.from({ length: 6 }, () => undefined);

/** The `indexing` of every answer that depends on the index. */
function indexingOf(library: LibraryCore): unknown[] {
  return [
    library.search('codebase', { limit: 3 }).indexing,
    // (the engine's path: planned once, the plan searched locally and in a team archive)
    library.searchPlan(library.plan('codebase', { limit: 3 }), 'codebase').indexing,
    library.searchContext('codebase', { limit: 3, threshold: 0 }).indexing,
    library.searchContext(library.plan('codebase', {}), { limit: 3, threshold: 0 }).indexing,
    library.list({ limit: 3 }).indexing,
    library.preferences().indexing,
  ];
}

test('a first load says it is partial in every answer, preferences included, with the files counted; then no more', async () => {
  const root = writeSessionCopies(SAMPLE, 40, 2);
  const library = open(root, tempDir());
  const seen: unknown[][] = [];
  await library.load(() => {
    if (seen.length < 3) seen.push(indexingOf(library));
  });
  assert.ok(seen.length > 0);
  for (const answers of seen)
    for (const indexing of answers) {
      const i = indexing as { filesTotal: number; filesDone: number; complete: boolean } | undefined;
      assert.ok(i && !i.complete && i.filesTotal === 40 && i.filesDone < 40, JSON.stringify(i));
    }
  assert.deepEqual(indexingOf(library), NONE);
  await library.close();
});

test('a warm start answers without `indexing` when nothing changed, and with it only while it reads what did', async () => {
  const root = writeSessionCopies(SAMPLE, 40, 2);
  const data = tempDir();
  const first = open(root, data);
  await first.load();
  await first.close();

  const warm = open(root, data);
  const loading = warm.load();
  await warm.answerable;
  assert.deepEqual(indexingOf(warm), NONE, 'answered from the snapshot: nothing is missing');
  await loading;
  assert.deepEqual(indexingOf(warm), NONE);
  await warm.close();

  // one transcript grew: answers given while it is read say so, and say how much is left
  const file = join(root, 'project-0', `${copyId(0)}.jsonl`);
  assert.ok(readdirSync(join(root, 'project-0')).includes(`${copyId(0)}.jsonl`));
  appendFileSync(
    file,
    `${JSON.stringify({ type: 'user', uuid: 'appended-1', sessionId: copyId(0), cwd: '/p', timestamp: '2026-03-01T10:00:00Z', message: { role: 'user', content: 'appended words' } })}\n`,
  );
  const changed = open(root, data);
  const during: unknown[][] = [];
  await changed.load(() => during.push(indexingOf(changed)));
  assert.equal(during.length, 1);
  for (const indexing of during[0])
    assert.deepEqual(indexing, {
      filesDone: 0,
      filesTotal: 1,
      bytesDone: 0,
      bytesTotal: (indexing as { bytesTotal: number }).bytesTotal,
      complete: false,
      stopped: undefined,
    });
  assert.deepEqual(indexingOf(changed), NONE);
  await changed.close();
});

test('a restart from a checkpoint of a load that was killed says it is partial from its first answer until it has read the rest', async () => {
  const root = writeSessionCopies(SAMPLE, 150, 3);
  const data = tempDir();
  const snapshot = join(data, 'index', 'snapshot.bin');
  const first = openCore({ roots: [{ source: 'claude-code', path: root }], logger: new MemoryLogger(), dataDir: data, env: {}, checkpointBytes: 1 });
  let checkpoint: Buffer | undefined;
  await first.load((p) => {
    if (!checkpoint && existsSync(snapshot) && p.files < p.totalFiles) checkpoint = readFileSync(snapshot);
  });
  await first.close();
  assert.ok(checkpoint, 'a checkpoint was written before the end');
  writeFileSync(snapshot, checkpoint); // what a load killed then would have left
  const resumed = open(root, data);
  const loading = resumed.load();
  await resumed.answerable;
  const early = resumed.search('codebase', { limit: 3 }).indexing;
  assert.ok(early && !early.complete, 'the first answer from a checkpoint is not taken for the whole history');
  await loading;
  assert.deepEqual(indexingOf(resumed), NONE);
  assert.equal(resumed.sessions.size, 150);
  await resumed.close();
});
