/**
 * Damage to the data folder never reaches an answer: a damaged snapshot is detected by its checksums and rebuilt,
 * a damaged archive line is read again from its transcript. The properties run here with fixed seeds, so a run of
 * `npm test` is repeatable; `npm run explore:damage` runs them with random seeds and prints any failing seed, which
 * then belongs in the list below.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { Persistence } from '../../src/core/store/persistence.js';
import { assertSameAnswers, damageChecks, openLibrary, snapshotFixture } from '../damage.js';

/** Seeds of earlier failures (from the exploration script or CI), replayed on every run, then fixed seeds for breadth. */
const SEEDS = [1819589545, 7, 20261130];

test(
  'random damage to a snapshot or an archive entry: search (first, and after every read), read, get, export and list answer as a cold build does',
  { timeout: 600_000 },
  async () => {
    for (const check of await damageChecks(fc)) {
      for (const seed of SEEDS) await check.run({ seed, numRuns: 12 });
    }
  },
);

test('regression: a restored turn without its role (flipped bytes in the turns of a snapshot) is caught by the checksum, not by get', async () => {
  const fx = await snapshotFixture(false);
  const text = fx.good.toString('latin1');
  const at = text.indexOf('"role":"user"');
  assert.ok(at > 0 && at < text.lastIndexOf('"sections"'), 'the snapshot holds the turns');
  await (async () => {
    const damaged = Buffer.from(fx.good);
    damaged.write('"rolX"', at, 'latin1');
    writeFileSync(Persistence.snapshotPath(fx.data), damaged);
    const { library, logger } = await openLibrary(fx.root, fx.data, { archive: false });
    assert.ok(
      logger.lines.some((l) => l.includes('snapshot discarded (section turns is damaged (checksum))')),
      logger.lines.join('\n'),
    );
    await assertSameAnswers(library, fx.reference, 'role renamed in the turns');
    await library.close();
  })();
  assert.ok(readFileSync(Persistence.snapshotPath(fx.data)).length > 1000, 'a good snapshot was written again');
});
