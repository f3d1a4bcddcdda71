/**
 * The catalog's sessions by id: a Map whose sessions restored from a snapshot are made when first asked for. A warm
 * start at 50,000 sessions made an object of every session (its fields from the header's columns, where its turns lie,
 * its place in the snapshot's lists) before its first answer: about 0.2 s of the main thread, and as much again of the
 * collector's moving them, while an answer reads a few dozen of them. Here a restored session is made by `get` (or by
 * going through the values), once: the same object every time after. Answers that go through one field of every
 * session (the acronyms queries expand with, the sessions whose lines could not be read) read it with `fieldOf`, from the
 * header's column where the session was not made yet.
 *
 * It behaves as a Map in every other way, the order included: the restored sessions first in the snapshot's order (a
 * session replaced keeps its place), then those added since, in the order they were added.
 */
import type { Session } from '../model.js';
import type { PlainField } from '../store/session-rows.js';

/** The restored sessions as a snapshot holds them: their ids, each one made when asked, a plain field of each. */
export interface RestoredRows {
  readonly ids: readonly string[];
  make(row: number): Session;
  field<K extends PlainField>(name: K, row: number): Session[K];
}

/** A restored session not made yet. */
const UNMADE = undefined;
/** A restored session gone (removed, or its row left out when restored). */
const GONE = null;

export class RestoredSessions extends Map<string, Session> {
  private rows: RestoredRows | undefined;
  /** The ids of the restored rows, in the snapshot's order. */
  private ids: readonly string[] = [];
  /** Each restored row: its session once made, UNMADE, or GONE. */
  private made: (Session | typeof UNMADE | typeof GONE)[] = [];
  private rowOf = new Map<string, number>();
  private present = 0;
  private unmade = 0;

  /**
   * Takes over a snapshot's sessions (those `keep` takes; the others are as if removed). Where sessions are held
   * already, the restored ones come after them, made at once, as a Map would hold them.
   */
  restore(rows: RestoredRows, keep: (id: string) => boolean): void {
    const eager = (): void => rows.ids.forEach((id, row) => keep(id) && this.set(id, rows.make(row)));
    if (this.size) return eager();
    this.rows = rows;
    this.ids = rows.ids;
    this.made = new Array(rows.ids.length);
    this.rowOf = new Map();
    this.present = 0;
    for (let row = 0; row < rows.ids.length; row++) {
      const id = rows.ids[row];
      if (this.rowOf.has(id)) {
        // (an id twice, which no snapshot holds: made at once, as a Map given them in turn holds them)
        this.clear();
        return eager();
      }
      if (!keep(id)) this.made[row] = GONE;
      else {
        this.rowOf.set(id, row);
        this.present++;
      }
    }
    this.unmade = this.present;
    if (!this.unmade) this.rows = undefined;
  }

  override get(id: string): Session | undefined {
    const row = this.rowOf.get(id);
    return row === undefined ? super.get(id) : this.sessionAt(row);
  }

  override has(id: string): boolean {
    return this.rowOf.has(id) || super.has(id);
  }

  override set(id: string, session: Session): this {
    const row = this.rowOf.get(id);
    if (row === undefined) return super.set(id, session);
    if (this.made[row] === UNMADE) this.madeOne();
    this.made[row] = session;
    return this;
  }

  override delete(id: string): boolean {
    const row = this.rowOf.get(id);
    if (row === undefined) return super.delete(id);
    this.forget(row);
    return true;
  }

  override clear(): void {
    this.rows = undefined;
    this.made = [];
    this.rowOf = new Map();
    this.ids = [];
    this.present = this.unmade = 0;
    super.clear();
  }

  override get size(): number {
    return this.present + super.size;
  }

  override *entries(): MapIterator<[string, Session]> {
    for (let row = 0; row < this.made.length; row++) if (this.made[row] !== GONE) yield [this.ids[row], this.sessionAt(row)];
    yield* super.entries();
  }

  override *keys(): MapIterator<string> {
    for (let row = 0; row < this.made.length; row++) if (this.made[row] !== GONE) yield this.ids[row];
    yield* super.keys();
  }

  override *values(): MapIterator<Session> {
    for (const [, session] of this.entries()) yield session;
  }

  override [Symbol.iterator](): MapIterator<[string, Session]> {
    return this.entries();
  }

  override forEach(visit: (session: Session, id: string, map: Map<string, Session>) => void, self?: unknown): void {
    for (const [id, session] of this.entries()) visit.call(self, session, id, this);
  }

  /** One plain field of every session, in the map's order: read from the header for a session not made yet. */
  *field<K extends PlainField>(name: K): Generator<Session[K]> {
    for (let row = 0; row < this.made.length; row++) {
      const made = this.made[row];
      if (made !== GONE) yield made === UNMADE ? this.rows!.field(name, row) : made[name];
    }
    for (const session of super.values()) yield session[name];
  }

  private sessionAt(row: number): Session {
    const made = this.made[row];
    if (made) return made;
    const session = this.rows!.make(row);
    this.made[row] = session;
    this.madeOne();
    return session;
  }

  private madeOne(): void {
    // every restored session made: what makes them (the header's columns but for the ids) is let go
    if (--this.unmade === 0) this.rows = undefined;
  }

  private forget(row: number): void {
    const made = this.made[row];
    if (made === GONE) return;
    if (made === UNMADE) this.madeOne();
    this.made[row] = GONE;
    this.rowOf.delete(this.ids[row]);
    this.present--;
  }
}

/** One plain field of every session in `sessions`, in its order (from the header for restored ones not made yet). */
export function fieldOf<K extends PlainField>(sessions: ReadonlyMap<string, Session>, name: K): Iterable<Session[K]> {
  if (sessions instanceof RestoredSessions) return sessions.field(name);
  return (function* () {
    for (const session of sessions.values()) yield session[name];
  })();
}
