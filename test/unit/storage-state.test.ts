/**
 * A full, read-only or unwritable data folder, met by a snapshot write: said once in the log with what to do, held as
 * the library's storage problem (every answer carries it) until a write goes through; other errors stay log lines.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SnapshotScheduler } from '../../src/core/library/snapshots.js';
import type { SessionCatalog } from '../../src/core/library/catalog.js';
import type { Persistence } from '../../src/core/store/persistence.js';
import { MemoryLogger } from '../../src/core/log.js';
import { StorageState, storageProblemOf } from '../../src/core/store/storage-state.js';

const failure = (code: string): NodeJS.ErrnoException => Object.assign(new Error(`${code}: it failed, write '/data/index/snapshot.tmp'`), { code });

test('a full disk met by a snapshot write is the storage problem until a write goes through, said once in the log', async () => {
  const logger = new MemoryLogger();
  const outcomes: (NodeJS.ErrnoException | true)[] = [failure('ENOSPC'), failure('ENOSPC'), true, failure('EIO')];
  const storage = new StorageState('/data', logger);
  const persistence = {
    storage,
    save: async () => {
      const next = outcomes.shift()!;
      if (next !== true) throw next;
      return true;
    },
  } as unknown as Persistence;
  const catalog = { index: {}, sessions: new Map(), manifest: () => [], semantic: { toData: () => ({}) } } as unknown as SessionCatalog;
  const scheduler = new SnapshotScheduler(persistence, catalog, logger, 60_000);
  await scheduler.saveNow();
  assert.equal(storage.problem?.problem, 'full');
  assert.match(storage.problem!.detail, /the disk holding the data folder \/data is full \(ENOSPC/);
  assert.match(storage.problem!.advice, /nothing is kept.*free some space/);
  assert.ok(scheduler.isDirty, 'tried again later');
  await scheduler.saveNow();
  assert.equal(logger.lines.filter((l) => l.includes('is full')).length, 1, 'said once');
  await scheduler.saveNow();
  assert.equal(storage.problem, undefined, 'written again: no problem any more');
  assert.ok(logger.lines.some((l) => l.includes('the data folder is written again')));
  await scheduler.saveNow();
  assert.equal(storage.problem, undefined, 'an error of another kind is no storage problem');
  assert.ok(logger.lines.some((l) => /snapshot not written \(EIO/.test(l)));
});

test('each kind of storage error says what it is and what to do', () => {
  assert.equal(storageProblemOf(failure('EROFS'), '/d')?.problem, 'read-only');
  assert.match(storageProblemOf(failure('EROFS'), '/d')!.advice, /--data DIR/);
  assert.equal(storageProblemOf(failure('EACCES'), '/d')?.problem, 'unwritable');
  assert.equal(storageProblemOf(failure('EPERM'), '/d')?.problem, 'unwritable');
  assert.equal(storageProblemOf(failure('EDQUOT'), '/d')?.problem, 'full');
  assert.equal(storageProblemOf(failure('ENOENT'), '/d'), undefined);
  assert.equal(storageProblemOf(new Error('plain'), '/d'), undefined);
});
