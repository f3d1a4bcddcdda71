/**
 * The files each session touched (`Session.files`, files/touches.ts), as the snapshot keeps them: in a section of their
 * own, read the first time a file is asked about. A warm start does not parse them (they are most of a snapshot's
 * session metadata: 29 of 45 MB at 10,000 sessions), and a library that is never asked about a file never holds them.
 * A session parsed in this process keeps its own `files`; a restored one is found here by the object itself, so a
 * session read again from its transcript never gets the touches of the one it replaced.
 */
import { isAscii } from 'node:buffer';
import { crc32 } from 'node:zlib';
import type { Session } from '../model.js';
import { DamagedArrayError } from './disk-array.js';
import type { TurnFile } from './turns.js';

export interface TouchSection {
  file: TurnFile;
  at: [number, number];
  checksum: number | undefined;
}

export class RestoredTouches {
  private readonly index = new WeakMap<Session, number>();
  private section: TouchSection | undefined;
  private decoded: (string[] | null)[] | undefined;

  /** The sessions of a snapshot (in its order) and where their touches lie in it; what was read before is let go. */
  use(section: TouchSection | undefined, sessions: readonly Session[], restored: (s: Session) => boolean = () => true): void {
    this.section = section;
    this.decoded = undefined;
    sessions.forEach((s, i) => {
      if (restored(s)) this.index.set(s, i);
    });
  }

  /** The files a session touched: its own, or those of the snapshot it was restored from. */
  of(session: Session): readonly string[] | undefined {
    if (session.files) return session.files;
    const i = this.index.get(session);
    if (i === undefined || !this.section) return undefined;
    return this.read()[i] ?? undefined;
  }

  /** Whether a session's touches are read from the snapshot (not held by the session). */
  holds(session: Session): boolean {
    return !session.files && this.index.has(session);
  }

  private read(): (string[] | null)[] {
    if (this.decoded) return this.decoded;
    const { file, at, checksum } = this.section!;
    const bytes = file.raw(at);
    if (crc32(bytes) !== checksum) throw new DamagedArrayError(`${file.path}: the files sessions touched are damaged (checksum)`);
    const decoded: unknown = JSON.parse(bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8')); // (ASCII: snapshot-writer.ts asciiJson)
    if (!Array.isArray(decoded)) throw new DamagedArrayError(`${file.path}: the files sessions touched are not a list`);
    this.decoded = decoded as (string[] | null)[];
    return this.decoded;
  }
}
