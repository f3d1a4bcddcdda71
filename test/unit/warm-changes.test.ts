/**
 * A warm start that finds transcripts changed since the last snapshot answers completely once it has read them, without
 * waiting for the snapshot to be written again (at 50,000 sessions a write takes about 23 s): the write follows once
 * things are quiet, or when the library closes, and nothing read is lost either way.
 */
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { Persistence } from '../../src/core/store/persistence.js';
import { closeTracked, tempDir } from '../helpers.js';
import { answers, corpusCopy, open, record } from '../snapshot-library.js';

afterEach(closeTracked);

test('a warm start that read changed transcripts is complete before its snapshot is written again, and keeps what it read', async () => {
  const root = corpusCopy();
  const data = tempDir();
  await (await open(root, data)).library.close();
  const written = readFileSync(Persistence.snapshotPath(data));
  // a session appended to while the library was closed
  appendFileSync(join(root, 'warm-changes.jsonl'), record('the quokka migration plan', 1));
  const { library, logger } = await open(root, data);
  assert.ok(library.indexing.complete, 'the load is complete');
  assert.ok(
    logger.lines.some((l) => /indexed \d+ sessions: 1 files read/.test(l)),
    logger.lines.join('\n'),
  );
  const first = (l: typeof library): string | undefined => (answers(l, 'quokka') as { id: string }[])[0]?.id;
  assert.equal(first(library), 'claude-code:warm-changes', 'the session read is found');
  assert.ok(!logger.lines.some((l) => l.includes('snapshot written')), `not written before the load said it was complete: ${logger.lines.join('\n')}`);
  assert.ok(readFileSync(Persistence.snapshotPath(data)).equals(written), 'the snapshot is as it was');
  // written as the library closes (or after a quiet while): the next start reads nothing again
  await library.close();
  assert.ok(
    logger.lines.some((l) => l.includes('snapshot written')),
    logger.lines.join('\n'),
  );
  const next = await open(root, data);
  assert.ok(
    next.logger.lines.some((l) => /indexed \d+ sessions: 0 files read/.test(l)),
    next.logger.lines.join('\n'),
  );
  assert.equal(first(next.library), 'claude-code:warm-changes');
});
