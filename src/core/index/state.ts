/** The index as flat arrays: what a snapshot writes (exportState) and hands back (fromState). */
import type { Segment } from './postings.js';

/** Everything a SearchIndex holds, as flat arrays: what a snapshot writes and reads back (store/snapshot.ts). */
export interface IndexState {
  /** Term text in id order. */
  terms: string[];
  df: Uint32Array<ArrayBuffer>;
  lengths: Uint32Array<ArrayBuffer>;
  recency: Float64Array<ArrayBuffer>;
  /** Every document's term ids, concatenated. */
  docTerms: Uint32Array<ArrayBuffer>;
  docTermStart: Uint32Array<ArrayBuffer>;
  /** Document keys by document number; null for removed documents. */
  keys: (string | null)[];
  totalLengths: number[];
  dead: number;
  segments: Segment[];
}

/** What a snapshot hands back: the document term lists may still be to read (see `SearchIndex.complete`). */
export type RestoredState = Omit<IndexState, 'docTerms'> & { docTerms: Uint32Array<ArrayBuffer> | LaterArray };

/** An array read after the index starts answering: its length is known at once, its values once `load` settles. */
export interface LaterArray {
  length: number;
  load(): Promise<Uint32Array<ArrayBuffer>>;
}
