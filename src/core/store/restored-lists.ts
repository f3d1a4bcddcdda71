/**
 * What each session holds that only some answers read, kept by the snapshot in sections of their own (one JSON list
 * each, in the sessions' order) and read the first time one is asked for:
 * - `files`, the files it touched (files/touches.ts): file_history, the hover, the file index;
 * - `decisions`, the decisions its turns state (ingest/decisions.ts): the Decisions view;
 * - `preferences`, the preferences its prompts show (ingest/preference-evidence.ts): get_preferences.
 * A warm start does not parse them (at 10,000 sessions: 29 MB of touches, and 6.3 of the 20 MB of session metadata
 * left after them), and a library never asked for them never holds them. A session parsed in this process keeps its
 * own; a restored one is found here by the object itself, so a session read again from its transcript never gets the
 * values of the one it replaced.
 */
import { isAscii } from 'node:buffer';
import { crc32 } from 'node:zlib';
import type { Session } from '../model.js';
import { DamagedArrayError } from './disk-array.js';
import type { TurnFile } from './turns.js';

/** The session fields kept in sections of the snapshot, and each one's section (files: `touches`, its older name). */
export const LIST_SECTIONS = { files: 'touches', decisions: 'decisions', preferences: 'preferences' } as const;
export type ListKey = keyof typeof LIST_SECTIONS;
export const LIST_KEYS = Object.keys(LIST_SECTIONS) as ListKey[];

export interface ListSection {
  file: TurnFile;
  at: [number, number];
  checksum: number | undefined;
}

/** Where a snapshot keeps each list, for the sessions restored from it. */
export type ListSections = Partial<Record<ListKey, ListSection>>;

export class RestoredLists {
  /** Each restored session's place in the snapshot's order: one for the three lists. */
  private readonly index = new WeakMap<Session, number>();
  private sections: ListSections = {};
  private decoded: Partial<Record<ListKey, unknown[]>> = {};

  /** The sessions of a snapshot (in its order) and where their lists lie in it; what was read before is let go. */
  use(sections: ListSections, sessions: readonly Session[], restored: (s: Session) => boolean = () => true): void {
    this.sections = sections;
    this.decoded = {};
    sessions.forEach((s, i) => {
      if (restored(s)) this.index.set(s, i);
    });
  }

  /** A session of the snapshot in use made after it was taken into use (library/restored-sessions.ts): its place in it. */
  place(session: Session, i: number): void {
    this.index.set(session, i);
  }

  /** A session's value: its own, or that of the snapshot it was restored from. */
  of<K extends ListKey>(session: Session, key: K): Session[K] | undefined {
    if (session[key] !== undefined) return session[key];
    const i = this.index.get(session);
    if (i === undefined || !this.sections[key]) return undefined;
    return (this.read(key)[i] ?? undefined) as Session[K] | undefined;
  }

  /** Whether a session's value is read from the snapshot (not held by the session). */
  holds(session: Session, key: ListKey): boolean {
    return session[key] === undefined && this.index.has(session);
  }

  /** Whether any of a session's lists is read from the snapshot. */
  holdsAny(session: Session): boolean {
    return LIST_KEYS.some((key) => this.holds(session, key));
  }

  private read(key: ListKey): unknown[] {
    const done = this.decoded[key];
    if (done) return done;
    const { file, at, checksum } = this.sections[key]!;
    const what = `the ${LIST_SECTIONS[key]} of the sessions`;
    const bytes = file.raw(at);
    if (crc32(bytes) !== checksum) throw new DamagedArrayError(`${file.path}: ${what} are damaged (checksum)`);
    const decoded: unknown = JSON.parse(bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8')); // (ASCII: snapshot-writer.ts asciiJson)
    if (!Array.isArray(decoded)) throw new DamagedArrayError(`${file.path}: ${what} are not a list`);
    this.decoded[key] = decoded;
    return decoded;
  }
}
