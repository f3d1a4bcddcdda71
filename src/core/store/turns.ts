/**
 * The pieces the turn store (turn-store.ts) is made of: where a session's turns lie on disk, the open snapshot file
 * some of them lie in, and the cache of turns read back.
 */
import { readSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { Session, Turn } from '../model.js';

const CACHE_BYTES = 64 * 1024 * 1024;

/** The turns read back most recently, bounded in bytes (least recently used go first). Each library owns one. */
export class TurnCache {
  private readonly entries = new Map<Session, { turns: Turn[]; bytes: number }>();
  private bytes = 0;

  constructor(private readonly limit = CACHE_BYTES) {}

  get(session: Session): Turn[] | undefined {
    const hit = this.entries.get(session);
    if (!hit) return undefined;
    this.entries.delete(session);
    this.entries.set(session, hit);
    return hit.turns;
  }

  has(session: Session): boolean {
    return this.entries.has(session);
  }

  set(session: Session, turns: Turn[], bytes: number): void {
    this.forget(session);
    this.entries.set(session, { turns, bytes });
    this.bytes += bytes;
    for (const [key] of this.entries) {
      if (this.bytes <= this.limit) break;
      this.forget(key);
    }
  }

  forget(session: Session): void {
    const entry = this.entries.get(session);
    if (!entry) return;
    this.entries.delete(session);
    this.bytes -= entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}

/** An open snapshot file that restored sessions without an archive entry read their turns from. */
export class TurnFile {
  constructor(
    readonly handle: FileHandle,
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

  async close(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }
}

/** Where a session's turns lie: a range of the snapshot (the turns' JSON), or a line of an archive entry (the session). */
export type TurnPlace = { snapshot: TurnFile; at: [number, number] } | { archive: string; at: [number, number] };
