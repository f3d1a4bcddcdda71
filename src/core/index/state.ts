/** The index as flat arrays: what a snapshot writes (exportState) and hands back (fromState). */
import type { PagedArray, Segment } from './postings.js';
import type { TermTable } from './term-table.js';

/**
 * An array a snapshot writer copies a piece at a time (one still in the previous snapshot, or in two parts). A piece is
 * valid until the next one is asked for (its memory may be reused for it): a reader writes or copies it first.
 */
export interface ChunkedArray {
  readonly length: number;
  chunks(): Iterable<Uint8Array>;
}

/** Everything a SearchIndex holds, as flat arrays: what a snapshot writes and reads back (store/snapshot.ts). */
export interface IndexState {
  /** Every term's UTF-8 bytes in id order, one a line. */
  terms: Uint8Array;
  /** Their table's layout (term-table.ts `layoutOf`), made with them: hashed again from the bytes where there is none. */
  termLayout?: { starts: Uint32Array; slots: Int32Array };
  df: Uint32Array<ArrayBuffer>;
  lengths: Uint32Array<ArrayBuffer>;
  recency: Float64Array<ArrayBuffer>;
  /** Every document's term ids, concatenated. */
  docTerms: Uint32Array | ChunkedArray;
  docTermStart: Uint32Array<ArrayBuffer>;
  /** Document keys by document number; null for removed documents. */
  keys: (string | null)[];
  totalLengths: number[];
  dead: number;
  segments: Segment[];
}

/** What a snapshot just written hands the index it was written from: the arrays it now reads from the file, and its terms. */
export interface WrittenArrays {
  segments: Segment[];
  docTerms: PagedArray;
  /** The terms' bytes as written, with the table's layout (term-table.ts `written`). */
  terms: { text: Uint8Array; starts: Uint32Array; slots: Int32Array };
  close: () => void;
}

/**
 * What a snapshot hands back: the large arrays stay in its file (PagedArray), read a range at a time and checked as
 * they are read; `verify` checks all of them once, after answering has begun (see `SearchIndex.complete`); `close`
 * lets the file go.
 */
export type RestoredState = Omit<IndexState, 'docTerms' | 'terms' | 'termLayout'> & {
  /** Every term's bytes in id order, or the snapshot's term table (its bytes, looked up where they lie). */
  terms: Uint8Array | TermTable;
  docTerms: Uint32Array | PagedArray;
  verify?: () => Promise<void>;
  close?: () => void;
};
