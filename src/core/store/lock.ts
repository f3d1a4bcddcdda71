/**
 * One writer per data folder. Several processes may use a data folder at once (the index server, MCP servers, the
 * CLI); the one holding this lock writes the archive and the snapshot, the others only read and catch up by reading
 * changed transcripts themselves. proper-lockfile keeps the lock fresh by touching it every few seconds, so a writer
 * killed with kill -9 leaves a lock that goes stale and is taken over, never one that stays stuck.
 */
import { errorMessage } from '../errors.js';
import { chmod, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import type { Logger } from '../log.js';
import { running } from './running.js';
import { privateDataFolder, PRIVATE, PRIVATE_DIR } from './private.js';
import type { StorageState } from './storage-state.js';

/** A lock not refreshed for this long belongs to a dead process. */
export const STALE_MS = 15_000;

export class WriterLock {
  private release: (() => Promise<void>) | undefined;
  private warned = false;

  constructor(
    private readonly dataDir: string,
    private readonly logger: Logger,
    /** Told when the data folder cannot be written at all (read-only, full, not this user's to write). */
    private readonly storage?: StorageState,
  ) {}

  get held(): boolean {
    return this.release !== undefined;
  }

  /** Takes the lock if no live process holds it; never waits. */
  async tryAcquire(): Promise<boolean> {
    if (this.release) return true;
    if (await this.lock()) return true;
    // A lock whose owner on this machine is no longer running (killed with kill -9, or crashed) is taken over at once
    // rather than after STALE_MS: a restart must write what it reads, or it holds everything it reads in memory.
    return (await takeOverDead(this.path)) && this.lock();
  }

  private get path(): string {
    return join(this.dataDir, 'writer.lock');
  }

  private async lock(): Promise<boolean> {
    try {
      await privateDataFolder(this.dataDir, this.logger);
      this.release = await lockfile.lock(this.dataDir, {
        lockfilePath: this.path,
        stale: STALE_MS,
        retries: 0,
        realpath: false,
        onCompromised: (err) => {
          this.release = undefined;
          this.logger.warn(`${this.dataDir}: lost the writer lock (${err.message}); reading only until it is free again`);
        },
      });
      await writeFile(`${this.path}.owner`, JSON.stringify(owner()), PRIVATE).catch(() => undefined);
      await chmod(this.path, PRIVATE_DIR).catch(() => undefined); // the lock's own folder, made by proper-lockfile
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ELOCKED' && this.storage?.failed(err)) return false;
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

/** Who holds the lock: written beside the lock's folder by the process that took it. */
function owner(): { pid: number; host: string } {
  return { pid: process.pid, host: hostname() };
}

async function ownerOf(lock: string): Promise<{ pid: number; host: string } | undefined> {
  try {
    const o = JSON.parse(await readFile(`${lock}.owner`, 'utf8')) as { pid?: unknown; host?: unknown };
    return typeof o.pid === 'number' && typeof o.host === 'string' ? { pid: o.pid, host: o.host } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Removes a lock whose owner ran on this machine and is gone. The lock's folder is renamed away first (only one
 * process can); one made or refreshed within the last second may be a live process's that took it meanwhile (before
 * it wrote its name): it is put back, and goes stale as usual if it was the dead one's after all.
 */
async function takeOverDead(lock: string): Promise<boolean> {
  const held = await ownerOf(lock);
  if (!held || held.host !== hostname() || held.pid === process.pid || running(held.pid)) return false;
  const aside = `${lock}.dead-${process.pid}-${Date.now()}`;
  try {
    await rename(lock, aside);
  } catch {
    return false;
  }
  const made = (await stat(aside).catch(() => undefined))?.mtimeMs ?? 0;
  if (Date.now() - made < 1000) {
    await rename(aside, lock).catch(() => undefined);
    return false;
  }
  await rm(aside, { recursive: true, force: true });
  return true;
}
