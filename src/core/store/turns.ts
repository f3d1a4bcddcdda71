/**
 * Sessions restored from a snapshot keep their turns on disk: `session.turns` reads them on first use, and the
 * library's TurnCache (bounded in bytes) keeps the recently used ones. The turns lie in the archive entry of the session's transcript when
 * there is an archive (so they are stored once), else in the snapshot itself. What the tree and lists need without the
 * turns (how many, the first prompt) is kept beside the session (model.ts `turnCount`, `firstPrompt`).
 */
import { errorMessage } from '../errors.js';
import { readSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { Logger } from '../log.js';
import { FIRST_PROMPT_CHARS, firstPrompt, isTurn, SessionNote, turnSummaries, type Session, type Turn } from '../model.js';
import { archiveLocation, readArchivedSession } from './archive.js';
import { readRawSession, type RawSession } from './session-layout.js';

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

/** The library's side of reading turns back: its cache, and who hears of turns that cannot be read (damage on disk). */
export interface TurnHooks {
  logger: Logger;
  cache: TurnCache;
  /** The library reads the session's transcript again. */
  unreadable?: (session: Session) => void;
}

interface Lazy {
  place: TurnPlace;
  hooks: TurnHooks;
}

const lazy = new SessionNote<Lazy>('turns on disk');

/** The turns at a place, or a reason why they cannot be read. */
function read(session: Session, place: TurnPlace): Turn[] | string {
  try {
    if ('snapshot' in place) {
      const turns: unknown = JSON.parse(place.snapshot.raw(place.at).toString('utf8'));
      return Array.isArray(turns) && turns.every(isTurn) ? turns : 'the snapshot holds something else';
    }
    return readArchivedSession(place.archive, place.at, session.id)?.turns ?? `no intact copy in its archive entry ${place.archive}`;
  } catch (err) {
    return errorMessage(err);
  }
}

/** The turns at a session's place, or why not; a damaged copy is logged and its transcript queued to be read again. */
function readBack(session: Session, { place, hooks }: Lazy): Turn[] | string {
  const turns = read(session, place);
  if (typeof turns === 'string') {
    hooks.logger.warn(`turns of ${session.id} unreadable (${turns}); reading its transcript again`);
    hooks.unreadable?.(session);
  }
  return turns;
}

function load(session: Session, state: Lazy): Turn[] {
  const hit = state.hooks.cache.get(session);
  if (hit) return hit;
  const turns = readBack(session, state);
  if (typeof turns === 'string') return [];
  state.hooks.cache.set(session, turns, state.place.at[1]);
  return turns;
}

/**
 * A session's turns for a scan over many sessions (the workspace view): those in memory or in the cache as they are,
 * others read from disk without entering the cache (a scan would push out what answers keep using). A reason instead
 * when its stored copy cannot be read; its transcript is then read again, as `session.turns` would.
 */
export function scanTurns(session: Session): Turn[] | string {
  const state = lazy.get(session);
  if (!state) return session.turns;
  return state.hooks.cache.get(session) ?? readBack(session, state);
}

/** Makes `session.turns` read from disk on use (and be forgotten under memory pressure). */
export function makeLazy(session: Session, place: TurnPlace, summary: { count: number; firstPrompt?: string }, hooks: TurnHooks): void {
  const existing = lazy.get(session);
  if (existing) {
    existing.place = place;
    return;
  }
  const state: Lazy = { place, hooks };
  lazy.set(session, state);
  turnSummaries.set(session, summary);
  Object.defineProperty(session, 'turns', {
    enumerable: true,
    configurable: true,
    get: () => load(session, state),
    set: (turns: Turn[]) => {
      lazy.delete(session);
      turnSummaries.delete(session);
      state.hooks.cache.forget(session);
      Object.defineProperty(session, 'turns', { value: turns, writable: true, enumerable: true, configurable: true });
    },
  });
}

/** The raw JSON of the turns of a session whose turns lie in a snapshot, for copying into the next one unparsed. */
export function rawTurns(session: Session): (() => Buffer) | undefined {
  const state = lazy.get(session);
  if (!state || !('snapshot' in state.place)) return undefined;
  const { snapshot, at } = state.place;
  return () => snapshot.raw(at);
}

/** The archive line a restored session reads its turns from, so the next snapshot points there too. */
export function archivedPlace(session: Session): { entry: string; at: [number, number] } | undefined {
  const state = lazy.get(session);
  return state && 'archive' in state.place ? { entry: state.place.archive, at: state.place.at } : undefined;
}

/** Once a session is in an archive entry its turns can be read from there: they leave memory. */
export function releaseToArchive(session: Session, hooks: TurnHooks): void {
  const where = archiveLocation(session);
  if (!where || lazy.get(session)) return;
  const summary = { count: session.turns.length, firstPrompt: firstPrompt(session)?.slice(0, FIRST_PROMPT_CHARS) };
  makeLazy(session, { archive: where.entry, at: where.at }, summary, hooks);
}

/**
 * The raw archive line of a session whose turns are on disk and not in the cache, for a search that needs only a few
 * of its turns (session-layout.ts); undefined when its turns are at hand or its line has no layout.
 */
export function rawArchived(session: Session): RawSession | undefined {
  const state = lazy.get(session);
  if (!state || !('archive' in state.place) || state.hooks.cache.has(session)) return undefined;
  return readRawSession(state.place.archive, state.place.at, session.id);
}
