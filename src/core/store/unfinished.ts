/**
 * A snapshot is written to a file of its own beside the last one and renamed over it when complete. A writer that
 * stops before the rename (killed, out of time while an engine stops, a crash) leaves that file behind: as large as a
 * snapshot (GBs for a large history), and never read. The next writer removes those of other processes.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Logger } from '../log.js';

/** Where this process writes the next snapshot of `path` before renaming it. */
export function unfinishedPath(path: string): string {
  return `${path}.${process.pid}.${Date.now()}.tmp`;
}

/**
 * Removes the snapshot files of `path` other processes began and did not finish. Called by the writer: it holds the
 * writer lock, so no other process is writing one.
 */
export async function removeUnfinished(path: string, logger: Logger): Promise<void> {
  const prefix = `${basename(path)}.`;
  const names = await readdir(dirname(path)).catch(() => [] as string[]);
  for (const name of names) {
    const pid = name.startsWith(prefix) && name.endsWith('.tmp') ? Number(name.slice(prefix.length).split('.')[0]) : undefined;
    if (!pid || pid === process.pid) continue;
    const file = join(dirname(path), name);
    const size = (await stat(file).catch(() => undefined))?.size ?? 0;
    await rm(file, { force: true });
    logger.info(`${file}: removed (${(size / 1048576).toFixed(0)} MB of a snapshot whose write did not finish)`);
  }
}
