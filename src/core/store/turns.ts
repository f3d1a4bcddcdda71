/**
 * Sessions restored from a snapshot keep their turns on disk: `session.turns` reads them on first use, and a cache
 * bounded in bytes keeps the recently used ones. What the tree and lists need without the turns (how many, the first
 * prompt) is kept beside the session (model.ts `turnCount`, `firstPrompt`).
 */
import { readSync } from 'node:fs';
import type { FileHandle as PromiseFileHandle } from 'node:fs/promises';
import type { Logger } from '../log.js';
import { turnSummaries, type Session, type Turn } from '../model.js';
import type { StoredSession } from './snapshot.js';

const CACHE_BYTES = 64 * 1024 * 1024;

/** Where one restored session's turns lie; repointed when a newer snapshot is written. */
interface Location {
  file: TurnFile;
  at: [number, number];
}

/** An open snapshot file that restored sessions read their turns from. */
export class TurnFile {
  private readonly cache = new Map<string, { turns: Turn[]; bytes: number }>();
  private cached = 0;

  constructor(
    readonly handle: PromiseFileHandle,
    private readonly logger: Logger,
    readonly path: string,
  ) {}

  raw(at: [number, number]): Buffer {
    const buffer = Buffer.allocUnsafe(at[1]);
    let done = 0;
    while (done < at[1]) {
      const n = readSync(this.handle.fd, buffer, done, at[1] - done, at[0] + done);
      if (n === 0) throw new Error('unexpected end of the snapshot');
      done += n;
    }
    return buffer;
  }

  read(id: string, at: [number, number]): Turn[] {
    const hit = this.cache.get(id);
    if (hit) {
      this.cache.delete(id);
      this.cache.set(id, hit);
      return hit.turns;
    }
    let turns: Turn[];
    try {
      turns = JSON.parse(this.raw(at).toString('utf8')) as Turn[];
    } catch (err) {
      this.logger.warn(`${this.path}: turns of ${id} unreadable (${err instanceof Error ? err.message : String(err)}); rebuild the index to restore them`);
      turns = [];
    }
    this.cache.set(id, { turns, bytes: at[1] });
    this.cached += at[1];
    for (const [key, entry] of this.cache) {
      if (this.cached <= CACHE_BYTES) break;
      this.cache.delete(key);
      this.cached -= entry.bytes;
    }
    return turns;
  }

  async close(): Promise<void> {
    this.cache.clear();
    await this.handle.close().catch(() => undefined);
  }
}

const locations = new WeakMap<Session, Location>();

/** Makes `session.turns` read from a snapshot file on use (and forget them under memory pressure). */
export function makeLazy(session: Session, file: TurnFile, at: [number, number], summary: { count: number; firstPrompt?: string }): void {
  const existing = locations.get(session);
  if (existing) {
    existing.file = file;
    existing.at = at;
    return;
  }
  const location: Location = { file, at };
  locations.set(session, location);
  turnSummaries.set(session, summary);
  Object.defineProperty(session, 'turns', {
    enumerable: true,
    configurable: true,
    get: () => location.file.read(session.id, location.at),
    set: (turns: Turn[]) => {
      locations.delete(session);
      turnSummaries.delete(session);
      Object.defineProperty(session, 'turns', { value: turns, writable: true, enumerable: true, configurable: true });
    },
  });
}

/** A session whose turns stay in the snapshot until used. */
export function restoredSession(stored: StoredSession, file: TurnFile): Session {
  const { turnCount, firstPrompt, turnsAt, ...meta } = stored;
  const session = meta as Session;
  makeLazy(session, file, turnsAt, { count: turnCount, firstPrompt });
  return session;
}

/** The raw JSON of a restored session's turns, for copying into a new snapshot without parsing them. */
export function rawTurns(session: Session): (() => Buffer) | undefined {
  const location = locations.get(session);
  return location && (() => location.file.raw(location.at));
}
