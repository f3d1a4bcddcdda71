/** What ranking is tuned by, what is indexed per document, and what a query returns. */

/** Field order is fixed: topic (title), content (the conversation), messages (tool calls, outputs, thinking, notes). */
export const FIELD_WEIGHTS = [3, 2, 1] as const;

export interface RankingParams {
  k1: number;
  /** Length normalisation per field. */
  b: [number, number, number];
  /**
   * Floor of the length normaliser: 1 means short fields are never boosted, 0 is classic BM25F. A floor keeps a short
   * session's single content match from outweighing a title match.
   */
  minNorm: number;
  /** Exponent of the share of query terms a document holds, multiplied into its score (0 = off). */
  coordination: number;
}

export const DEFAULT_RANKING: RankingParams = { k1: 1.2, b: [0, 0.5, 0.5], minNorm: 0.7, coordination: 1 };

export interface DocumentFields {
  topic: string;
  content: string[];
  messages: string[];
}

export interface Scored {
  doc: number;
  key: string;
  score: number;
  /** 0–1: the share of the query's weight this document satisfies. */
  relevance: number;
  matchCount: number;
  matchedTerms: number;
}

export interface ScoreOptions {
  /** Terms that must all be present (a phrase's words). */
  required?: string[];
  excluded?: string[];
  /** Extra test on a candidate (filters, phrases). */
  accept?: (key: string) => boolean;
  /** Only the best `limit` documents are returned (all when absent). */
  limit?: number;
}
