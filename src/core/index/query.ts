/**
 * Query syntax: words (any may match; more matches rank higher), "quoted phrases" (must appear), -exclusions (a dash
 * after a space and before a letter: `--flag`, `a-b` and `-1` are words). A word joined by punctuation (a flag, a path,
 * an identifier, a dotted name, an error code) is also kept whole, so sessions holding it literally rank first; so is a
 * query of one word. An identifier (`web_socket`, `web-socket`, `WebSocket`, `websocket`) is one term, as the index
 * holds it whole; its parts found apart match it less (`parts`). Text written without spaces is looked for as typed.
 */
import { hasCjk, isCjk, isStopWord, LETTER_OR_DIGIT, queryTerms, tokenize } from './tokenize.js';

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
  /** In a query widened with other forms (a plan's `shown`), the terms as typed: what "every word" means for snippets. */
  typed?: string[];
  /** An identifier term's parts (`websocket` typed `web_socket`: web, socket): a session holding all of them matches it less. */
  parts: Map<string, string[]>;
  /** Keywords: no word typed is a stop word (`retry spinner printed`, not a sentence): each word was chosen. */
  terse?: boolean;
  /** The query as a sentence for a model of meaning: as typed, without exclusions and quotes. */
  text?: string;
}

const PART = /(-?)"([^"]*)"?|(\S+)/g;
/** Letters or digits joined by `-`, `_`, `.`, `/`, `\` or `:` (a leading `--` too), or a word after `--`: a flag, path or identifier. */
const JOINED = /^(?:-*[\p{L}\p{N}]+(?:[-_./\\:]+[\p{L}\p{N}]+)+|--\p{L}[\p{L}\p{N}]*)$/u;

/** What a model of meaning is given of a query: the words as typed, exclusions and quotes left out. */
export function meaningText(query: string): string {
  return query
    .replace(/(^|\s)-("[^"]*"?|\S+)/g, ' ')
    .replace(/"/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function parseQuery(query: string): ParsedQuery {
  const parsed: ParsedQuery = { terms: [], phrases: [], excluded: [], excludedPhrases: [], literals: [], parts: new Map(), text: meaningText(query) };
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
      const words = phraseWords(m[2]);
      if (!words.length) continue;
      if (m[1] === '-') parsed.excludedPhrases.push(words);
      else {
        if (words.length > 1 || hasCjk(words[0])) parsed.phrases.push(words);
        addTerms(tokenize(m[2]));
      }
    } else if (m[3] !== undefined) {
      const word = m[3];
      if (/^-\p{L}/u.test(word)) parsed.excluded.push(...queryTerms(word.slice(1)).map((w) => w.term));
      else {
        const literal = word.replace(/^[("'`]+|[)"'`,;:!?.]+$/g, '');
        if (JOINED.test(literal) && !parsed.literals.includes(literal)) parsed.literals.push(literal);
        // text written without spaces: the run itself is looked for as typed (its pairs rank)
        for (const run of cjkRuns(literal)) if (!parsed.literals.includes(run)) parsed.literals.push(run);
        const words = queryTerms(word);
        for (const w of words) if (w.parts && w.parts.length > 1 && !parsed.parts.has(w.term)) parsed.parts.set(w.term, w.parts);
        addTerms(words.map((w) => w.term));
      }
    }
  }
  // a word typed alone (`getUserSession`, `EditBlockCoder`, `websocket`) is looked for as typed, case ignored: sessions
  // whose user typed it come first. Whatever its capitalisation: `websocket` is the same query as `WebSocket`
  const lone = query.trim().replace(/^[("'`]+|[)"'`,;:!?.]+$/g, '');
  if (LETTER_OR_DIGIT.test(lone) && !parsed.literals.includes(lone)) parsed.literals.push(lone);
  if (parsed.terms.length > 1 && !query.split(/\s+/).some((w) => isStopWord(w.toLowerCase().replace(/^\W+|\W+$/gu, '')))) parsed.terse = true;
  // an error message or a line of code typed whole ("SyntaxError: Unexpected number '182'"): sessions holding it go first
  const whole = query.trim().replace(/\s+/g, ' ');
  if (whole.includes(' ') && !whole.includes('"') && !/(^| )-\p{L}/u.test(whole) && CODE_LIKE.test(whole) && parsed.terms.length > 1)
    parsed.literals.unshift(whole.replace(/[.,;!?]+$/, ''));
  return parsed;
}

/** Punctuation that makes a query of several words read as an error message or code rather than a description. */
/** A quoted phrase's words in order: words as `tokenize` cuts them, stop words kept, and runs of text without spaces whole. */
export function phraseWords(text: string): string[] {
  const words: string[] = [];
  for (const m of text.matchAll(WORD_OR_PAIRED)) {
    let piece = '';
    let cjk = false;
    const flush = (): void => {
      if (piece) words.push(...(cjk ? [piece.toLowerCase()] : tokenize(piece, true)));
      piece = '';
    };
    for (const ch of m[0]) {
      const c = isCjk(ch.codePointAt(0)!);
      if (c !== cjk) flush();
      cjk = c;
      piece += ch;
    }
    flush();
  }
  return words;
}

/** Letters and digits, and the characters of scripts written without spaces (some are punctuation, as `・`). */
const WORD_OR_PAIRED = /(?:[\p{L}\p{N}]|[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f])+/gu;

/** The runs of a word written in a script without spaces (`最新の状態`), lower-cased, as the index pairs them. */
function cjkRuns(word: string): string[] {
  const runs: string[] = [];
  let run = '';
  for (const ch of word.toLowerCase()) {
    if (isCjk(ch.codePointAt(0)!)) run += ch;
    else if (run) {
      runs.push(run);
      run = '';
    }
  }
  if (run) runs.push(run);
  return runs;
}

const CODE_LIKE = /[:()[\]{}=<>]|(^|\s)'[^'\s][^']*'/;

export function isEmptyQuery(q: ParsedQuery): boolean {
  return q.terms.length === 0;
}
