/**
 * Query syntax: words (any may match; more matches rank higher), "quoted phrases" (must appear), -exclusions (a dash
 * after a space and before a letter: `--flag`, `a-b` and `-1` are words). A word joined by punctuation (a flag, a path,
 * an identifier, a dotted name, an error code) is also kept whole, so sessions holding it literally rank first; so is a
 * query of one camelCase or PascalCase word (a class or function name).
 */
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
  /** Words joined by punctuation (`--map-tokens`, `aider/io.py`, `get_user`), as typed: sessions holding them rank first. */
  literals: string[];
}

const PART = /(-?)"([^"]*)"?|(\S+)/g;
/** Letters or digits joined by `-`, `_`, `.`, `/`, `\` or `:` (a leading `--` too), or a word after `--`: a flag, path or identifier. */
const JOINED = /^(?:-*[\p{L}\p{N}]+(?:[-_./\\:]+[\p{L}\p{N}]+)+|--\p{L}[\p{L}\p{N}]*)$/u;

export function parseQuery(query: string): ParsedQuery {
  const parsed: ParsedQuery = { terms: [], phrases: [], excluded: [], excludedPhrases: [], literals: [] };
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
      if (/^-\p{L}/u.test(word)) parsed.excluded.push(...tokenize(word.slice(1)));
      else {
        const literal = word.replace(/^[("'`]+|[)"'`,;:!?.]+$/g, '');
        if (JOINED.test(literal) && !parsed.literals.includes(literal)) parsed.literals.push(literal);
        addTerms(tokenize(word));
        // getUserSession also finds get_user_session and "get the user session"
        if (/\p{Ll}\p{Lu}/u.test(word)) addTerms(tokenize(word.replace(/(\p{Ll}|\p{N})(?=\p{Lu})|(\p{Lu})(?=\p{Lu}\p{Ll})/gu, '$1$2 ')));
      }
    }
  }
  // a lone word in camelCase or PascalCase (`getUserSession`, `EditBlockCoder`) is an identifier: looked for as typed
  const lone = query.trim().replace(/^[("'`]+|[)"'`,;:!?.]+$/g, '');
  if (/^[\p{L}\p{N}]+$/u.test(lone) && /\p{Ll}\p{Lu}/u.test(lone) && !parsed.literals.includes(lone)) parsed.literals.push(lone);
  // an error message or a line of code typed whole ("SyntaxError: Unexpected number '182'"): sessions holding it go first
  const whole = query.trim().replace(/\s+/g, ' ');
  if (whole.includes(' ') && !whole.includes('"') && !/(^| )-\p{L}/u.test(whole) && CODE_LIKE.test(whole) && parsed.terms.length > 1)
    parsed.literals.unshift(whole.replace(/[.,;!?]+$/, ''));
  return parsed;
}

/** Punctuation that makes a query of several words read as an error message or code rather than a description. */
const CODE_LIKE = /[:()[\]{}=<>]|(^|\s)'[^'\s][^']*'/;

export function isEmptyQuery(q: ParsedQuery): boolean {
  return q.terms.length === 0;
}
