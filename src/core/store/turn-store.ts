/**
 * The library's turn store: the one way the engine reads the turns of the sessions it holds. A session is plain data.
 * Its turns are in memory (`session.turns`: a session just read from its transcript, or in a library with no data
 * folder) or on disk: in its line of the archive entry of its transcript when there is an archive (so they are stored
 * once), else in the snapshot. The store knows where, keeps the recently read ones in a cache bounded in bytes, and
 * hears of damage: a copy that cannot be read back is logged and the session's transcript queued to be read again.
 * What lists and the tree need without the turns (how many, the first prompt) is kept beside the session (model.ts
 * `turnCount`, `firstPrompt`).
 */
import { errorMessage } from '../errors.js';
import type { Logger } from '../log.js';
import { FIRST_PROMPT_CHARS, firstPrompt, isTurn, turnCount, turnSummaries, type Role, type Session, type Turn, type TurnKind } from '../model.js';
import { archiveLocation, readArchivedSession } from './archive.js';
import { readRawSession, type RawSession } from './session-layout.js';
import { diskReader, memoryReader, type TurnReader } from './turn-reader.js';
import { TurnCache, type TurnPlace } from './turns.js';

export type { TurnReader } from './turn-reader.js';

export class TurnStore {
  private readonly places = new WeakMap<Session, TurnPlace>();
  private readonly cache: TurnCache;

  constructor(
    private readonly logger: Logger,
    /** The library reads the session's transcript again. */
    private readonly unreadable: (session: Session) => void = () => undefined,
    cacheBytes?: number,
  ) {
    this.cache = new TurnCache(cacheBytes);
  }

  /**
   * Every turn of a session: in memory, in the cache, or read from disk into the cache. None when its copy on disk
   * cannot be read back (it is then logged, and its transcript read again).
   */
  all(session: Session): Turn[] {
    if (session.turns) return session.turns;
    const place = this.places.get(session);
    if (!place) return [];
    const hit = this.cache.get(session);
    if (hit) return hit;
    const turns = this.readBack(session, place);
    if (typeof turns === 'string') return [];
    this.cache.set(session, turns, place.at[1]);
    return turns;
  }

  /**
   * A session's turns for a scan over many sessions (the workspace view): those in memory or in the cache as they
   * are, others read from disk without entering the cache (a scan would push out what answers keep using). A reason
   * instead when its copy on disk cannot be read back.
   */
  scan(session: Session): Turn[] | string {
    const place = this.onDisk(session);
    if (!place) return session.turns ?? [];
    return this.cache.get(session) ?? this.readBack(session, place);
  }

  /**
   * The raw archive line of a session whose turns are on disk and not in the cache, for a search that needs only a
   * few of its turns (session-layout.ts); undefined when its turns are at hand or its line has no layout.
   */
  raw(session: Session): RawSession | undefined {
    const place = this.onDisk(session);
    if (!place || !('archive' in place) || this.cache.has(session)) return undefined;
    return readRawSession(place.archive, place.at, session.id);
  }

  /**
   * Opens a session's turns for reading one at a time (close the reader when done): from its archive line when they
   * are on disk, so a session of many MB is not parsed whole, and the cache keeps what answers keep using.
   */
  reader(session: Session): TurnReader {
    const raw = this.raw(session);
    return raw ? diskReader(session.id, raw) : memoryReader(this.all(session));
  }

  /**
   * Visits a session's turns in order (those `only` keeps, by kind and role, when given), one at a time: a turn read
   * from disk is let go once visited. Where a turn on disk is damaged, the rest come from `all`: it finds the damage
   * too, logs it and queues the transcript to be read again, and gives no turns until then.
   */
  forEach(session: Session, visit: (turn: Turn, index: number) => void, only?: (kind: TurnKind, role: Role) => boolean): void {
    const reader = this.reader(session);
    let i = 0;
    try {
      for (; i < reader.count; i++) {
        const kind = reader.kind(i);
        const role = reader.role(i);
        if (only && kind && role && !only(kind, role)) continue;
        const turn = reader.get(i);
        if (!turn) break;
        visit(turn, i);
      }
    } finally {
      reader.close();
    }
    if (!reader.damaged) return;
    const turns = this.all(session);
    for (; i < turns.length; i++) if (!only || only(turns[i].kind, turns[i].role)) visit(turns[i], i);
  }

  /**
   * A session's conversation turns (prompts and replies), read one by one where its turns are on disk: tool output,
   * most of a session's bytes, is not read for them.
   */
  conversation(session: Session): Turn[] {
    const turns: Turn[] = [];
    this.forEach(
      session,
      (turn) => turns.push(turn),
      (kind, role) => kind === 'conversation' && (role === 'user' || role === 'assistant'),
    );
    return turns;
  }

  /** A session's turns lie at `place` from now on (restored, or written to a snapshot): they leave memory. */
  place(session: Session, place: TurnPlace, summary: { count: number; firstPrompt?: string }): void {
    this.places.set(session, place);
    turnSummaries.set(session, summary);
    if (session.turns) session.turns = undefined;
  }

  /** Once a session is in an archive entry, its turns are read from there: they leave memory. */
  release(session: Session): void {
    const where = archiveLocation(session);
    if (!where || this.places.has(session)) return;
    const summary = { count: turnCount(session), firstPrompt: firstPrompt(session)?.slice(0, FIRST_PROMPT_CHARS) };
    this.place(session, { archive: where.entry, at: where.at }, summary);
  }

  /** The turns' JSON for the next snapshot: copied unparsed from the snapshot they lie in, else encoded. */
  snapshotBytes(session: Session): () => Buffer {
    const place = this.onDisk(session);
    if (place && 'snapshot' in place) return () => place.snapshot.raw(place.at);
    return () => Buffer.from(JSON.stringify(this.all(session)), 'utf8');
  }

  /** The archive line a session's turns are read from, so the next snapshot points there too. */
  archivedPlace(session: Session): { entry: string; at: [number, number] } | undefined {
    const place = this.places.get(session);
    return place && 'archive' in place ? { entry: place.archive, at: place.at } : undefined;
  }

  /** Lets the cached turns go (the library closes). */
  clear(): void {
    this.cache.clear();
  }

  /** Where a session's turns lie on disk; undefined while they are held in memory. */
  private onDisk(session: Session): TurnPlace | undefined {
    return session.turns ? undefined : this.places.get(session);
  }

  /** The turns at a session's place, or why not; a damaged copy is logged and its transcript queued to be read again. */
  private readBack(session: Session, place: TurnPlace): Turn[] | string {
    const turns = read(session, place);
    if (typeof turns === 'string') {
      this.logger.warn(`turns of ${session.id} unreadable (${turns}); reading its transcript again`);
      this.unreadable(session);
    }
    return turns;
  }
}

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
