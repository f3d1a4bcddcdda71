/** Query syntax: words (any may match; more matches rank higher), "quoted phrases" (must appear), -exclusions. */
import { tokenize } from './tokenize.js';

export interface ParsedQuery {
  /** Every positive term, in query order, without duplicates: ranked with BM25F. */
  terms: string[];
  /** Phrases that must appear word for word (case-insensitive, stop words kept); their terms are also in `terms`. */
  phrases: string[][];
  /** Terms a result must not contain. */
  excluded: string[];
  /** Phrases a result must not contain. */
  excludedPhrases: string[][];
}

const PART = /(-?)"([^"]*)"?|(\S+)/g;

export function parseQuery(query: string): ParsedQuery {
  const parsed: ParsedQuery = { terms: [], phrases: [], excluded: [], excludedPhrases: [] };
  const seen = new Set<string>();
  const addTerms = (tokens: string[]): void => {
    for (const t of tokens) {
      if (!seen.has(t)) {
        seen.add(t);
        parsed.terms.push(t);
      }
    }
  };
  for (const m of query.matchAll(PART)) {
    if (m[2] !== undefined) {
      const words = tokenize(m[2], true);
      if (!words.length) continue;
      if (m[1] === '-') parsed.excludedPhrases.push(words);
      else {
        if (words.length > 1) parsed.phrases.push(words);
        addTerms(tokenize(m[2]));
      }
    } else if (m[3] !== undefined) {
      const word = m[3];
      if (word.startsWith('-') && word.length > 1) parsed.excluded.push(...tokenize(word.slice(1)));
      else addTerms(tokenize(word));
    }
  }
  return parsed;
}

export function isEmptyQuery(q: ParsedQuery): boolean {
  return q.terms.length === 0;
}
