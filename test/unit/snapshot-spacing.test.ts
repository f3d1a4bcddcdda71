/**
 * An agent at work changes its transcript every few seconds all day, and a snapshot is written whole: after live
 * changes, snapshots are spaced by many times what the last one took, so a large history is not rewritten every 30 s,
 * and what changed is still written once things allow.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LIVE_SPACING, SnapshotScheduler } from '../../src/core/library/snapshots.js';
import type { SessionCatalog } from '../../src/core/library/catalog.js';
import type { Persistence } from '../../src/core/store/persistence.js';
import { MemoryLogger } from '../../src/core/log.js';
import { StorageState } from '../../src/core/store/storage-state.js';
import { eventually } from '../eventually.js';

test('after live changes a snapshot waits many times what the last one took; the change is written in the end', async () => {
  const writes: number[] = [];
  const TAKES_MS = 30;
  const persistence = {
    save: async () => {
      await new Promise((r) => setTimeout(r, TAKES_MS));
      writes.push(Date.now());
      return true;
    },
    storage: new StorageState('/data', new MemoryLogger()),
  } as unknown as Persistence;
  const catalog = { index: {}, sessions: new Map(), manifest: () => [], semantic: { toData: () => ({}) } } as unknown as SessionCatalog;
  const scheduler = new SnapshotScheduler(persistence, catalog, new MemoryLogger(), 10);
  // the load's own snapshot at its end
  await scheduler.saveNow();
  // then an agent changes a transcript every 20 ms for a while
  const started = Date.now();
  while (Date.now() - started < 600) {
    scheduler.changed();
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(writes.length, 1, `no snapshot written within ${LIVE_SPACING} times what the last took (${writes.length} written)`);
  assert.ok(scheduler.isDirty);
  // the change is written once the spacing has passed
  await eventually(() => writes.length === 2, 'the live changes are written', { timeoutMs: 10_000 });
  assert.ok(writes[1] - writes[0] >= LIVE_SPACING * TAKES_MS * 0.9, `${writes[1] - writes[0]} ms apart`);
  await scheduler.close();
});
