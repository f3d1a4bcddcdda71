/**
 * The semantic leg's per-session values (bags of word ids, vectors) as they lie in its file: one array of every
 * session's values one after another, and where each starts. A restart takes them as they are and makes a session's
 * view only when that session is read: at 10,000 sessions a start made 50,000 typed-array views (bags, asked stems,
 * vectors) that no query of the first minutes needed.
 */
import type { Bag } from './lsa.js';

/** Bags one after another: session `ids[i]`'s words are `terms[starts[i] .. starts[i + 1])`, with their `counts`. */
export interface BagRows {
  ids: string[];
  starts: Uint32Array;
  terms: Uint32Array;
  counts: Uint16Array;
}

/** Vectors of `k` numbers one after another: session `ids[i]`'s is `rows[i * k .. (i + 1) * k)`. */
export interface VectorRows {
  ids: string[];
  rows: Float32Array;
}

/** Where each of `lengths` starts in their concatenation (one more entry: where the last ends). */
export function startsOf(lengths: readonly number[]): Uint32Array {
  const starts = new Uint32Array(lengths.length + 1);
  for (let i = 0; i < lengths.length; i++) starts[i + 1] = starts[i] + lengths[i];
  return starts;
}

/** Bag `i` of `rows`: views of its part of the arrays, not a copy. */
export function bagAt(rows: BagRows, i: number): Bag {
  const [from, to] = [rows.starts[i], rows.starts[i + 1]];
  return { terms: rows.terms.subarray(from, to), counts: rows.counts.subarray(from, to) };
}

/** `bags` one after another (copied), in their order. */
export function packBags(bags: Iterable<[string, Bag]>): BagRows {
  const list = [...bags];
  const starts = startsOf(list.map(([, b]) => b.terms.length));
  const total = starts[list.length];
  const terms = new Uint32Array(total);
  const counts = new Uint16Array(total);
  list.forEach(([, bag], i) => {
    terms.set(bag.terms, starts[i]);
    counts.set(bag.counts, starts[i]);
  });
  return { ids: list.map(([id]) => id), starts, terms, counts };
}

/**
 * A map of session id → value that starts from rows read from the file: a restored session's value is made by `at` when
 * read (not kept: a view costs less to make again than to hold), a value set since is held as given. It behaves as a Map
 * would have, had every row been set into it in order: iterated in that order, a value set again keeping its place.
 */
export class RowMap<T> {
  /** The restored ids, in their rows' order. */
  private rowOf = new Map<string, number>();
  /** Values set since the restore (a restored id's too: it keeps its place among the rows). */
  private readonly held = new Map<string, T>();
  /** How many of `held` are restored ids. */
  private heldRestored = 0;
  private at: (row: number) => T = () => {
    throw new Error('no rows');
  };
  /** The restored ids, while nothing was set, taken away or left out since they were read. */
  private whole: string[] | undefined;

  get size(): number {
    return this.rowOf.size + this.held.size - this.heldRestored;
  }

  /** Starts from rows (`at` makes row i's value), keeping the ids `keep` accepts; anything held before is dropped. */
  restore(ids: string[], at: (row: number) => T, keep: (id: string) => boolean): void {
    this.clear();
    this.at = at;
    ids.forEach((id, row) => keep(id) && !this.rowOf.has(id) && this.rowOf.set(id, row));
    this.whole = this.rowOf.size === ids.length ? ids : undefined;
  }

  /** The ids of the rows restored, when the map holds exactly them, untouched since (so the rows serve as they are). */
  get asRestored(): string[] | undefined {
    return this.whole;
  }

  has(id: string): boolean {
    return this.held.has(id) || this.rowOf.has(id);
  }

  get(id: string): T | undefined {
    if (this.held.has(id)) return this.held.get(id);
    const row = this.rowOf.get(id);
    return row === undefined ? undefined : this.at(row);
  }

  set(id: string, value: T): void {
    this.whole = undefined;
    if (!this.held.has(id) && this.rowOf.has(id)) this.heldRestored++;
    this.held.set(id, value);
  }

  delete(id: string): void {
    const restored = this.rowOf.delete(id);
    const held = this.held.delete(id);
    if (restored && held) this.heldRestored--;
    if (restored || held) this.whole = undefined;
  }

  clear(): void {
    this.rowOf = new Map();
    this.held.clear();
    this.heldRestored = 0;
    this.whole = undefined;
  }

  *entries(): IterableIterator<[string, T]> {
    for (const [id, row] of this.rowOf) yield [id, this.held.has(id) ? this.held.get(id)! : this.at(row)];
    for (const entry of this.held) if (!this.rowOf.has(entry[0])) yield entry;
  }

  [Symbol.iterator](): IterableIterator<[string, T]> {
    return this.entries();
  }

  *keys(): IterableIterator<string> {
    yield* this.rowOf.keys();
    for (const id of this.held.keys()) if (!this.rowOf.has(id)) yield id;
  }

  *values(): IterableIterator<T> {
    for (const [, value] of this.entries()) yield value;
  }
}
