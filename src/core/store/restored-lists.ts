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

export class RestoredList<K extends ListKey> {
  private readonly index = new WeakMap<Session, number>();
  private section: ListSection | undefined;
  private decoded: (Session[K] | null)[] | undefined;

  constructor(private readonly key: K) {}

  /** The sessions of a snapshot (in its order) and where their values lie in it; what was read before is let go. */
  use(section: ListSection | undefined, sessions: readonly Session[], restored: (s: Session) => boolean = () => true): void {
    this.section = section;
    this.decoded = undefined;
    sessions.forEach((s, i) => {
      if (restored(s)) this.index.set(s, i);
    });
  }

  /** A session's value: its own, or that of the snapshot it was restored from. */
  of(session: Session): Session[K] | undefined {
    if (session[this.key] !== undefined) return session[this.key];
    const i = this.index.get(session);
    if (i === undefined || !this.section) return undefined;
    return this.read()[i] ?? undefined;
  }

  /** Whether a session's value is read from the snapshot (not held by the session). */
  holds(session: Session): boolean {
    return session[this.key] === undefined && this.index.has(session);
  }

  private read(): (Session[K] | null)[] {
    if (this.decoded) return this.decoded;
    const { file, at, checksum } = this.section!;
    const what = `the ${LIST_SECTIONS[this.key]} of the sessions`;
    const bytes = file.raw(at);
    if (crc32(bytes) !== checksum) throw new DamagedArrayError(`${file.path}: ${what} are damaged (checksum)`);
    const decoded: unknown = JSON.parse(bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8')); // (ASCII: snapshot-writer.ts asciiJson)
    if (!Array.isArray(decoded)) throw new DamagedArrayError(`${file.path}: ${what} are not a list`);
    this.decoded = decoded as (Session[K] | null)[];
    return this.decoded;
  }
}
