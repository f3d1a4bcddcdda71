/**
 * A library closed at any moment (during its first load, a warm start's load, a rebuild, a snapshot's write) is closed
 * when `close()` settles: nothing of its data folder is held open, the writer lock is free, nothing is written after,
 * and the next library over the same folder finds every session. A window closed or an engine handing over does this
 * at whatever moment the user chose; a property over the moment finds what examples miss.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import fc from 'fast-check';
import type { LibraryCore } from '../../src/core/library/open.js';
import { MemoryLogger } from '../../src/core/log.js';
import { closeTracked, heldOpen as held, openTracked, tempDir } from '../helpers.js';
import { corpusCopy, open } from '../snapshot-library.js';

afterEach(closeTracked);

const turns = (n: number): Promise<void> => (n ? new Promise((resolve) => setImmediate(() => void turns(n - 1).then(resolve))) : Promise.resolve());

/** What is under way when the library is closed. */
const moments = ['first load', 'warm load', 'rebuild', 'snapshot'] as const;
type Moment = (typeof moments)[number];

/** Opens a library over `root` and starts `moment`; returns the library and the work under way. */
async function startAt(moment: Moment, root: string, data: string): Promise<{ library: LibraryCore; logger: MemoryLogger; work: Promise<unknown> }> {
  if (moment === 'warm load') await (await open(root, data)).library.close();
  if (moment === 'first load' || moment === 'warm load') {
    const logger = new MemoryLogger();
    const library = openTracked({ roots: [{ source: 'claude-code', path: root }], logger, dataDir: data, env: {} });
    return { library, logger, work: library.load() };
  }
  const { library, logger } = await open(root, data);
  return { library, logger, work: moment === 'rebuild' ? library.rebuild() : library.saveSnapshot() };
}

let sessions: number | undefined;

test('a library closed at any moment holds nothing open, leaves the writer lock free, writes nothing after, and loses no session', async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...moments), fc.nat({ max: 60 }), async (moment, after) => {
      const root = corpusCopy();
      const data = tempDir();
      const { library, logger, work } = await startAt(moment, root, data);
      await turns(after);
      await library.close();
      const closedAt = logger.lines.length;
      await work.catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual(held(data), [], `${moment}, closed after ${after} turns: nothing of the data folder is open`);
      assert.ok(!existsSync(join(data, 'writer.lock')), `${moment}, closed after ${after} turns: the writer lock is free`);
      assert.deepEqual(
        logger.lines.slice(closedAt).filter((l) => /snapshot written|archived|rebuilding/.test(l)),
        [],
        `${moment}, closed after ${after} turns: nothing written after close`,
      );
      // the next start finds every session (what the closed library had not read is read now)
      const next = await open(root, data);
      sessions ??= (await open(corpusCopy(), tempDir())).library.sessions.size;
      assert.equal(next.library.sessions.size, sessions, `${moment}, closed after ${after} turns: every session is found at the next start`);
      await next.library.close();
    }),
    { numRuns: 12 },
  );
});
