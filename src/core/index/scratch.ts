/** The engine's per-query working arrays, one cell per document: grown as documents come, reused by every query. */
import { docsHolding, type Segment } from './postings.js';

export class QueryScratch {
  /** Score so far. */
  scores = new Float64Array(0);
  /** Occurrences of query words (for matchCount). */
  matches = new Uint32Array(0);
  /** Query slots held. */
  slotsHeld = new Uint16Array(0);
  /** Which of the first 32 slots each document holds, one bit per slot. */
  heldSlots = new Uint32Array(0);
  /** Documents touched by this query, in the order first seen. */
  touched = new Int32Array(0);
  /** Best alternative's score within the slot being scored. */
  best = new Float64Array(0);
  /** IDF weight of the slots held. */
  cover = new Float64Array(0);

  ensure(documents: number): void {
    if (this.scores.length >= documents) return;
    const n = documents * 2;
    this.scores = new Float64Array(n);
    this.matches = new Uint32Array(n);
    this.slotsHeld = new Uint16Array(n);
    this.heldSlots = new Uint32Array(n);
    this.touched = new Int32Array(n);
    this.best = new Float64Array(n);
    this.cover = new Float64Array(n);
  }
}

/** The touched documents that pass `keep`, in a new array. */
export function keepCandidates(touched: Int32Array, count: number, keep: (doc: number) => boolean): { items: Int32Array; count: number } {
  const kept = new Int32Array(count);
  let n = 0;
  for (let i = 0; i < count; i++) if (keep(touched[i])) kept[n++] = touched[i];
  return { items: kept, count: n };
}

/**
 * The candidates that hold every term of `required`, none of `excluded` (term ids; an unknown excluded term excludes
 * nothing) and pass `accept` (given the document's key).
 */
export function keepHolders(
  segments: readonly Segment[],
  keys: readonly (string | undefined)[],
  touched: Int32Array,
  count: number,
  required: readonly number[],
  excluded: readonly (number | undefined)[],
  accept: ((key: string) => boolean) | undefined,
): { items: Int32Array; count: number } {
  const without = excluded.map((id) => docsHolding(segments, id));
  const within = required.map((id) => docsHolding(segments, id));
  return keepCandidates(
    touched,
    count,
    (doc) => !without.some((set) => set.has(doc)) && within.every((set) => set.has(doc)) && (!accept || accept(keys[doc]!)),
  );
}
