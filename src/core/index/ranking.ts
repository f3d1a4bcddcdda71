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

/**
 * Fitted on the tuning split of the judged relevance set (bench/relevance): long sessions must not win on common words
 * (strong length normalisation, little tf saturation), and no bonus for holding every query word (a long question's
 * common words are in every long session). The length floor keeps a title match above one mention in a short
 * conversation (the seed's "topic matches score higher than content matches").
 */
export const DEFAULT_RANKING: RankingParams = { k1: 2, b: [0, 0.9, 0.9], minNorm: 0.85, coordination: 0 };

/**
 * weight_f / max(minNorm, 1 - b_f + b_f * len_f / avg_f) for each of the first `docs` documents and each field, into
 * `into` (grown when too small): the per-query work of BM25F is then a multiply. `live` counts the documents that
 * `totalLengths` sums over.
 */
export function fieldFactors(
  lengths: Uint32Array,
  docs: number,
  totalLengths: readonly number[],
  live: number,
  params: RankingParams,
  into: Float64Array,
): Float64Array {
  const { b, minNorm } = params;
  const avg = totalLengths.map((l) => Math.max(1, l / Math.max(1, live)));
  const out = into.length < docs * 3 ? new Float64Array(Math.max(docs * 3, into.length * 2)) : into;
  for (let doc = 0; doc < docs; doc++) {
    for (let f = 0; f < 3; f++) {
      const norm = 1 - b[f] + (b[f] * lengths[doc * 3 + f]) / avg[f];
      out[doc * 3 + f] = FIELD_WEIGHTS[f] / (norm < minNorm ? minNorm : norm);
    }
  }
  return out;
}

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
  /** Which of the query's (first 32, unique) slots it holds, one bit each: `heldTerms` names them. */
  held?: number;
  /** Its place (0 first) in the whole ranking, where it follows a list cut at `limit` (ScoreOptions.alsoRank). */
  rank?: number;
}

/** The words of the slots a hit holds (each slot's first word: the term as typed, whichever of its forms matched). */
export function heldTerms(query: (string | QuerySlot)[], held: number | undefined): string[] {
  if (!held) return [];
  return uniqueSlots(query).flatMap((slot, s) => (s < 32 && held & (1 << s) ? [slot.alts[0].term] : []));
}

export interface ScoreOptions {
  /** Terms that must all be present (a phrase's words). */
  required?: string[];
  excluded?: string[];
  /** Extra test on a candidate (filters, phrases). */
  accept?: (key: string) => boolean;
  /** Only the best `limit` documents are returned (all when absent). */
  limit?: number;
  /**
   * With `limit`: these documents too, where they match and fall below it, after the best `limit`, each with its `rank`
   * in the whole ranking (the fusion places them without the rest being ranked).
   */
  alsoRank?: ReadonlySet<string>;
  /** Inverse document frequencies from elsewhere, for an index that holds only candidates (the team archive's). */
  idf?: (term: string) => number | undefined;
  /** Told how many documents match in all (those past `limit` too). */
  counted?: (matching: number) => void;
}

/** One word of a query with its alternatives (the word itself at weight 1, other forms and near spellings below). */
export interface QuerySlot {
  /** `all`: the alternative is every one of these terms (anywhere in the document); `term` then names it. */
  alts: { term: string; weight: number; all?: string[] }[];
}

/** A query's slots, words given alone becoming slots of one; a word given twice counts once. */
export function uniqueSlots(query: (string | QuerySlot)[]): QuerySlot[] {
  const seen = new Set<string>();
  const out: QuerySlot[] = [];
  for (const q of query) {
    const slot = typeof q === 'string' ? { alts: [{ term: q, weight: 1 }] } : q;
    const key = slot.alts.map((a) => a.term).join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(slot);
  }
  return out;
}
