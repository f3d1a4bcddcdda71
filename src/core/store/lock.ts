/**
 * One writer per data folder. Several processes may use a data folder at once (the index server, MCP servers, the
 * CLI); the one holding this lock writes the archive and the snapshot, the others only read and catch up by reading
 * changed transcripts themselves. proper-lockfile keeps the lock fresh by touching it every few seconds, so a writer
 * killed with kill -9 leaves a lock that goes stale and is taken over, never one that stays stuck.
 */
import { errorMessage } from '../errors.js';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import type { Logger } from '../log.js';

/** A lock not refreshed for this long belongs to a dead process. */
export const STALE_MS = 15_000;

export class WriterLock {
  private release: (() => Promise<void>) | undefined;
  private warned = false;

  constructor(
    private readonly dataDir: string,
    private readonly logger: Logger,
  ) {}

  get held(): boolean {
    return this.release !== undefined;
  }

  /** Takes the lock if no live process holds it; never waits. */
  async tryAcquire(): Promise<boolean> {
    if (this.release) return true;
    try {
      await mkdir(this.dataDir, { recursive: true });
      this.release = await lockfile.lock(this.dataDir, {
        lockfilePath: join(this.dataDir, 'writer.lock'),
        stale: STALE_MS,
        retries: 0,
        realpath: false,
        onCompromised: (err) => {
          this.release = undefined;
          this.logger.warn(`${this.dataDir}: lost the writer lock (${err.message}); reading only until it is free again`);
        },
      });
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ELOCKED' && !this.warned) {
        this.warned = true;
        this.logger.warn(`${this.dataDir}: cannot take the writer lock (${errorMessage(err)}); reading only, nothing is written to the data folder`);
      }
      return false;
    }
  }

  async releaseLock(): Promise<void> {
    const release = this.release;
    this.release = undefined;
    await release?.().catch(() => undefined);
  }
}
